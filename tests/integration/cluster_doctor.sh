# SPDX-License-Identifier: BSD-2-Clause
# rdmaperf-mesh --doctor on the cluster bed: no traffic, every rank's
# device and host compared, the nodes that differ named. Sourced by
# run-cluster.sh: uses WORK, BUILD, devs, mesh_mpirun and expect_json.

# A --doctor run of N ranks into $WORK/doctorN-NAME (DIR): its exit status
# in RC, its time on the wall (mpirun's start included) in WALL_S and the
# ranks' own (doctor.json's elapsed_s) in RANKS_S, each as a TAP comment.
doctor_run() {
	local n=$1 name=$2 t0
	DIR=$WORK/doctor$n-$name
	rm -rf "$DIR"
	mesh_hostname
	t0=$EPOCHREALTIME
	mesh_mpirun "$n" --doctor -d "$(devs "$n")" --output-dir "$DIR"
	RC=$?
	WALL_S=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }')
	RANKS_S=$(jq -r '.elapsed_s * 1000 | round / 1000' "$DIR/doctor.json" 2>/dev/null)
	echo "# --doctor on $n ranks: $WALL_S s with mpirun, ${RANKS_S:-?} s in the ranks"
}

# Every node alike: exit 0, one line that says so, doctor.json agrees.
t_cluster_doctor_agree() {
	local why
	begin "mesh --doctor: 4 nodes alike: exit 0, all agree, doctor.json"
	why=$(mesh_missing 4)
	[ -z "$why" ] || { skip "$why"; return; }
	doctor_run 4 agree
	[ "$RC" -eq 0 ] || { fail "exit $RC, wanted 0"; return; }
	expect_out "^doctor: 4 node\\(s\\): all agree on the [0-9]+ facts read$" ||
		return
	expect_json "$DIR/doctor.json" '.command == "mesh-doctor"' \
		'.agree' '.nodes == 4' '.differences == []' \
		'[.ranks[] | .status == "ok"] | all' \
		'[.ranks[] | .node] == ["node0", "node1", "node2", "node3"]' \
		'[.ranks[] | .facts.mtu_active] | unique | length == 1' \
		'[.ranks[] | .facts.port_state == "ACTIVE"] | all' \
		'.elapsed_s > 0' || return
	expect_file "$DIR/outliers.txt" "^== rdmaperf-mesh --doctor ==$" \
		"^doctor: 4 node\\(s\\): all agree" || return
	pass
}

# One node's netdev MTU lowered (rxe's active MTU follows it): that node
# alone is named, with its values and the majority's; exit 1. Below 1280
# the netdev loses IPv6, which may take GIDs with it: other facts of that
# node may differ too. The MTU is put back before anything is checked.
t_cluster_doctor_mtu() {
	local why net old act
	begin "mesh --doctor: node3's netdev at MTU 1000: named with active MTU 512 against the majority's, exit 1"
	why=$(mesh_missing 4)
	[ -z "$why" ] || { skip "$why"; return; }
	net=$RDP_RXE_NETDEV3
	old=$(cat "/sys/class/net/$net/mtu") ||
		{ fail "no MTU for $net"; return; }
	ip link set dev "$net" mtu 1000 ||
		{ fail "cannot set $net's MTU"; return; }
	doctor_run 4 mtu
	ip link set dev "$net" mtu "$old" ||
		{ fail "cannot put $net's MTU back to $old"; return; }
	[ "$RC" -eq 1 ] || { fail "exit $RC, wanted 1"; return; }
	act=$(jq -r '.ranks[0].facts.mtu_active' "$DIR/doctor.json")
	[ "$act" -gt 512 ] 2>/dev/null ||
		{ fail "node0's active MTU is '$act', wanted above 512"; return; }
	expect_out "^doctor: 4 node\\(s\\): [0-9]+ difference\\(s\\) on 1 node\\(s\\)$" \
		"^node3 \\(rxe3\\): active MTU 512; the majority \\(3 of 4\\): $act$" \
		"^node3 \\(rxe3\\): netdev MTU 1000; the majority \\(3 of 4\\): $old$" ||
		return
	expect_json "$DIR/doctor.json" '(.agree | not)' \
		'[.differences[] | .node] | unique == ["node3"]' \
		'[.differences[] | .fact] | contains(["mtu_active", "netdev_mtu"])' \
		".differences[] | select(.fact == \"mtu_active\") | .value == 512 and .majority == $act and .majority_count == 3 and .readable == 4" ||
		return
	expect_file "$DIR/outliers.txt" \
		"^node3 \\(rxe3\\): active MTU 512; the majority" || return
	[ "$(cat "/sys/class/net/$net/mtu")" = "$old" ] ||
		{ fail "$net's MTU not put back"; return; }
	pass
}

# Six ranks, for the time it takes with more nodes (bench-results).
t_cluster_doctor6() {
	local why
	begin "mesh --doctor: 6 nodes alike: exit 0, in seconds"
	why=$(mesh_missing 6)
	[ -z "$why" ] || { skip "$why"; return; }
	doctor_run 6 agree
	[ "$RC" -eq 0 ] || { fail "exit $RC, wanted 0"; return; }
	expect_json "$DIR/doctor.json" '.agree' '.nodes == 6' || return
	pass
}
