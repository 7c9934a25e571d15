# SPDX-License-Identifier: BSD-2-Clause
# The cluster tier's fabric health cases, sourced by run-cluster.sh: a
# mesh judged by its ports' error counters as well as its figures.

# What the case saw: each cell's figure, status and retries each side.
health_cells() {
	jq -r '.cells[] | "#   \(.tx)>\(.rx) \(.bw_gbps) Gb/s \(.status) retries tx \(.errors.tx.retries // 0) rx \(.errors.rx.retries // 0)"' \
		"$DIR/mesh.json" 2>/dev/null
}

# Four nodes pairwise with node3's link losing 1 % of what it sends
# (netem on its veth): the cells it sends carry hundreds of retries on
# both ports (completer_retry_err and rcvd_seq_err on its own,
# out_of_seq_request on the receiver's) and are flagged for them, though
# --tolerance 90 keeps every bandwidth inside the tolerance; the analysis
# names node3 (the cells' suspect, the one suspect of node_errors,
# outliers.txt's "errors:" line) and no cell between the other nodes is
# flagged. Emulated rxe retransmits on every link (a healthy sender's
# port counts up to about 8 retries in 2 s, its receiver hundreds of
# duplicate_request), so the limit is retries=50 with duplicate_request
# any, not 0. The qdisc goes in every case.
t_cluster_errors_loss() {
	local n=4 bad=3 dev rc why
	begin "mesh: one node's link loses 1 %: its cells flagged for retries, that node named"
	why=$(mesh_missing "$n")
	[ -z "$why" ] || { skip "$why"; return; }
	eval "dev=\${RDP_RXE_NETDEV$bad:-}"
	[ -n "$dev" ] || { skip "the bed names no netdev of device $bad"; return; }
	DIR=$WORK/m$n-loss
	rm -rf "$DIR"
	mesh_hostname
	tc qdisc add dev "$dev" root netem loss 1% ||
		{ fail "tc cannot add netem on $dev"; return; }
	mesh_mpirun "$n" write_bw -D 2 -s 4096 --tolerance 90 \
		--max-errors retries=50,duplicate_request=any \
		-d "$(devs "$n")" --output-dir "$DIR"
	rc=$?
	tc qdisc del dev "$dev" root 2>/dev/null
	[ "$rc" -eq 1 ] || { fail "exit $rc, wanted 1"; health_cells; return; }
	expect_json "$DIR/mesh.json" \
		"[.cells[] | select(.tx == \"node$bad\") | .status == \"flagged\" and (.errors.tx.retries + .errors.rx.retries > 0)] | all" \
		"[.cells[] | select(.tx == \"node$bad\") | .reason | test(\"^sender's port: transport retries [+][0-9]+ .* over the limit of 50 [(]--max-errors retries=50[)]\")] | all" \
		"[.cells[] | select(.tx != \"node$bad\" and .rx != \"node$bad\") | .status == \"ok\"] | all" \
		"[.cells[] | select(.tx == \"node$bad\") | .reason | test(\"Gb/s\") | not] | all" \
		"[.cells[] | select(.tx == \"node$bad\") | .suspect == \"node$bad\"] | all" \
		"[.node_errors[] | select(.suspect) | .node] == [\"node$bad\"]" \
		"[.node_errors[] | select(.node == \"node$bad\") | .retries > 0] == [true]" ||
		{ health_cells; return; }
	grep -q "^errors: rail 0: node$bad's port broke --max-errors in " \
		"$DIR/outliers.txt" ||
		{ fail "outliers.txt names no errors of node$bad"; health_cells; return; }
	pass
}
