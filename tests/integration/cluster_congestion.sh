# SPDX-License-Identifier: BSD-2-Clause
# Congestion patterns on the cluster bed (sourced by run-cluster.sh):
# incast with a latency victim beside the load, with and without the
# receiver's cable shaped, and alltoall. Uses cluster_run, devs,
# mesh_mpirun and leaf_unshape from run-cluster.sh.

# The rate of the receiver's shaped cable, in Mbit/s: three senders fill
# its queue (tbf, 100 ms of it), which the victim's messages then wait in.
INCAST_RATE_MBIT=20

# Incast into node0 from node1..node3 (--fan-in 3, one round: --rounds 1),
# node4 the victim (write_lat), each phase -D 2. The shaper queues for
# longer than the default ACK timeout: -u 18 as the leaf case.
incast_victim() {
	mesh_mpirun 6 write_bw -D 2 -s 4096 -u 18 --tolerance 90 \
		--pattern incast --fan-in 3 --rounds 1 --victim lat \
		-d "$(devs 6)" --output-dir "$DIR"
}

# What every incast case holds: one round of three cells into node0, all
# measured, and the victim's figures and factor reported.
incast_reported() {
	expect_json "$DIR/mesh.json" '.pattern == "incast"' \
		'.cells | length == 3' '[.cells[] | .status != "failed"] | all' \
		'[.cells[] | .rx == "node0"] | all' \
		'[.cells[].tx] | sort == ["node1","node2","node3"]' \
		'.congestion.victim == "lat"' \
		'.congestion.rounds | length == 1' \
		'.congestion.rounds[0] | .tx == "node4" and .rx == "node0" and .senders == 3' \
		'.congestion.rounds[0].alone.p50_us > 0' \
		'.congestion.rounds[0].loaded.p99_us > 0' \
		'(.congestion.rounds[0].impact.p50 | type) == "number"' ||
		{ cat "$WORK/out"; return 1; }
	expect_out "^congestion: round 1, victim node4 -> node0 under 3 senders: p50 " ||
		return 1
	grep -q "^congestion: round 1, victim node4 -> node0" "$DIR/outliers.txt" ||
		{ fail "outliers.txt has no congestion line"; return 1; }
	grep "^congestion:" "$WORK/out" | sed 's/^/# /'
}

t_cluster_incast_shaped() {
	local port rc why
	begin "mesh: incast 3 into one receiver whose cable is shaped: the latency victim's impact factor above 1"
	why=$(mesh_missing 6)
	[ -z "$why" ] || { skip "$why"; return; }
	eval "port=\${RDP_RXE_BRPORT0:-}"
	DIR=$WORK/m6-incast-shaped
	rm -rf "$DIR"
	mesh_hostname
	tc qdisc add dev veth0 root tbf rate "${INCAST_RATE_MBIT}mbit" \
		burst 16kb latency 100ms &&
		tc qdisc add dev "$port" root tbf rate "${INCAST_RATE_MBIT}mbit" \
			burst 16kb latency 100ms ||
		{ fail "tc cannot shape veth0 and $port"; leaf_unshape veth0 "$port"; return; }
	incast_victim
	rc=$?
	leaf_unshape veth0 "$port"
	[ "$rc" -eq 0 ] || { fail "exit $rc, wanted 0"; return; }
	incast_reported || return
	expect_json "$DIR/mesh.json" \
		'.congestion.rounds[0].impact.p50 > 1' \
		'.congestion.impact_max.p50 > 1' || { cat "$WORK/out"; return; }
	pass
}

t_cluster_incast_plain() {
	local rc why
	begin "mesh: incast 3 into one receiver, nothing shaped: the victim's impact factor reported"
	DIR=$WORK/m6-incast
	why=$(mesh_missing 6)
	[ -z "$why" ] || { skip "$why"; return; }
	rm -rf "$DIR"
	mesh_hostname
	incast_victim
	rc=$?
	[ "$rc" -eq 0 ] || { fail "exit $rc, wanted 0"; return; }
	incast_reported || return
	pass
}

# Every node to every other at once: 12 cells of four nodes in one round,
# each rank serving three clients and sending three sessions at once. On
# the bed's two emulated CPUs 24 polling loops starve rxe, which then
# retransmits what is only late: the ranks sleep on their completions
# (-e) and the ACK timeout is 1 s (-u 18).
t_cluster_alltoall4() {
	begin "mesh: 4 nodes alltoall: 12 cells in one round, three sessions each way at once"
	cluster_run 4 a2a write_bw -e -u 18 -D 2 -s 4096 --tolerance 90 \
		--pattern alltoall || return
	expect_json "$DIR/mesh.json" '.pattern == "alltoall"' \
		'.rounds | length == 1' '.rounds[0].pairs | length == 12' \
		'.cells | length == 12' '[.cells[] | .status == "ok"] | all' \
		'[.cells[] | .round == 1] | all' \
		'[.cells[] | "\(.tx)>\(.rx)"] | unique | length == 12' || return
	expect_out "12 cells, 0 flagged or failed" || return
	pass
}
