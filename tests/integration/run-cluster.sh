#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The cluster tier: rdmaperf-mesh under mpirun over four rxe devices, each
# standing for one node (RDP_MESH_NODE=node%r). Run through
# tests/softroce/rxe-run --devices 4.
# Usage: cluster.sh BUILD_DIR [TEST_NAME_FILTER]
set -u
BUILD=$(cd "${1:?build directory}" && pwd)
FILTER=${2:-}
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
. "$HERE/mesh.sh"
. "$HERE/slurm.sh"

# The first N devices of the bed, as -d takes them.
devs() {
	local i list=""
	for ((i = 0; i < $1; i++)); do
		eval "list=\$list\${list:+,}\$RDP_RXE_DEV$i"
	done
	echo "$list"
}

# A mesh of N nodes with the rest of the arguments, its files in
# $WORK/mN-NAME (DIR): true when it ended with exit $WANT_RC (default 0);
# a skip (the mesh cannot run here) or a failure is already counted
# otherwise.
cluster_run() {
	local n=$1 name=$2 why rc want=${WANT_RC:-0}
	shift 2
	why=$(mesh_missing "$n")
	[ -z "$why" ] || { skip "$why"; return 1; }
	DIR=$WORK/m$n-$name
	rm -rf "$DIR"
	mesh_hostname
	mesh_mpirun "$n" "$@" -d "$(devs "$n")" --output-dir "$DIR"
	rc=$?
	[ "$rc" -eq "$want" ] || { fail "exit $rc, wanted $want"; return 1; }
}

# Every round of mesh.json puts no node in two of its pairs.
rounds_disjoint() {
	expect_json "$DIR/mesh.json" \
		'[.rounds[] | [.pairs[] | .tx, .rx] | (length == (unique | length))] | all'
}

t_cluster_pairwise4() {
	begin "mesh: 4 nodes pairwise: 12 cells ok in 6 rounds, no node twice in a round"
	cluster_run 4 pw write_bw -n 200 -s 4096 --tolerance 90 ||
		return
	expect_out "12 cells, 0 flagged or failed" || return
	expect_json "$DIR/mesh.json" '.cells | length == 12' \
		'[.cells[] | .status == "ok"] | all' \
		'[.cells[] | "\(.tx)>\(.rx)"] | unique | length == 12' \
		'[.cells[] | .result.results[-1].data_check.ok] | all' \
		'.rounds | length == 6' || return
	rounds_disjoint || return
	[ "$(wc -l <"$DIR/rounds.jsonl")" = 6 ] ||
		{ fail "rounds.jsonl: not 6 lines"; return; }
	pass
}

t_cluster_bye3() {
	begin "mesh: 3 nodes pairwise: one node rests in each pairing, 6 cells ok"
	# Bandwidth: emulated latency strays past twice its median, the widest
	# --tolerance there is.
	cluster_run 3 bye write_bw -n 200 -s 4096 --tolerance 90 ||
		return
	expect_json "$DIR/mesh.json" '.cells | length == 6' \
		'[.cells[] | .status == "ok"] | all' \
		'[.rounds[] | .bye | length == 1] | all' \
		'[.rounds[].bye[]] | unique | length == 3' || return
	rounds_disjoint || return
	pass
}

t_cluster_bisection() {
	begin "mesh: 4 nodes bisection with a permutation: each round a perfect matching"
	cluster_run 4 bis write_bw -n 200 -s 4096 --tolerance 90 \
		--pattern bisection --permutations 1 ||
		return
	expect_json "$DIR/mesh.json" '.pattern == "bisection"' \
		'[.rounds[] | .pairs | length == 2] | all' \
		'[.cells[] | .status == "ok"] | all' \
		'[.cells[] | select(.round <= 2) | "\(.tx)>\(.rx)"] | sort == ["node0>node2","node1>node3","node2>node0","node3>node1"]' ||
		return
	rounds_disjoint || return
	pass
}

t_cluster_ringshift() {
	begin "mesh: 4 nodes ring-shift: every node sends and receives at once, 12 cells"
	cluster_run 4 ring write_bw -n 200 -s 4096 --tolerance 90 \
		--pattern ring-shift ||
		return
	expect_json "$DIR/mesh.json" '.rounds | length == 3' \
		'[.rounds[] | .pairs | length == 4] | all' \
		'.cells | length == 12' '[.cells[] | .status == "ok"] | all' ||
		return
	pass
}

# Both directions of a pair at once (-b), and a floor no link reaches:
# every cell is flagged, each pair runs again after the plan, and the flag
# holds on every one.
t_cluster_retest_held() {
	begin "mesh: 3 nodes -b with --retest: 6 cells flagged, each pair run again, held"
	WANT_RC=1 cluster_run 3 held write_bw -b -n 200 -s 4096 \
		--min-bw 100000 --retest || return
	expect_json "$DIR/mesh.json" '.bidirectional' '.rounds | length == 3' \
		'.cells | length == 6' \
		'[.cells[] | .status == "flagged"] | all' \
		'[.cells[] | .bw_gbps > 0] | all' \
		'[.cells[] | .retest.held] | all' \
		'[.cells[] | .retest.round > 3] | all' \
		'.retest_rounds | length == 3' \
		'[.retest_rounds[] | .pairs | length == 1] | all' \
		'.totals.retested == 6 and .totals.held == 6' || return
	expect_file "$DIR/outliers.txt" \
		"^retest: 6 of 6 outliers run again, the flag held on 6" || return
	[ "$(wc -l <"$DIR/rounds.jsonl")" = 6 ] ||
		{ fail "rounds.jsonl: not 6 lines"; return; }
	pass
}

# One node's link goes down after the first round (the bridge port facing
# its veth: the cable pulled): the job still ends, that node's later cells
# are failed with a reason, the outliers name it. The link is back before
# the retest rounds, so no flag holds there.
# The link goes down when round 1 is in, which can be in the middle of
# round 2's transfer: node3's peer in that round is then the server of a
# client that vanished without a FIN, and stays busy with it until its
# wait for DONE ends (-D 1 plus a slow step's margin), so its next
# clients may get no HELLO in time. Such a cell may fail only that way:
# with "sent no HELLO", towards a node that served node3 in an earlier
# round whose cell failed. Every other cell without node3 is ok.
# Transfers of -D 1 keep each round longer than the watcher's reaction
# (with each rank's device and buffer kept, a round of -n 200 is over in
# a fraction of a second, and rounds 2 and 3 could end before the link
# went down).
t_cluster_node_down() {
	local pid i net rc why
	begin "mesh: a node's netdev down mid-mesh: job completes, its cells failed, named, retest clears"
	why=$(mesh_missing 4)
	[ -z "$why" ] || { skip "$why"; return; }
	DIR=$WORK/m4-down
	rm -rf "$DIR"
	mesh_hostname
	net=$RDP_RXE_BRPORT3
	mesh_mpirun 4 write_bw -D 1 -s 4096 --tolerance 90 \
		--connect-timeout 2 --oob-timeout 3 -d "$(devs 4)" \
		--retest --retest-wait 3 --output-dir "$DIR" &
	pid=$!
	for i in $(seq 1 600); do
		[ -s "$DIR/rounds.jsonl" ] && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	ip link set "$net" down
	# Up again once the plan's 6 rounds are in, within --retest-wait.
	for i in $(seq 1 6000); do
		[ "$(wc -l <"$DIR/rounds.jsonl")" -ge 6 ] && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.02
	done
	ip link set "$net" up
	wait "$pid"
	rc=$?
	[ "$rc" -eq 1 ] || { fail "exit $rc, wanted 1"; return; }
	expect_json "$DIR/mesh.json" '.cells | length == 12' \
		'[.cells[] | select(.status == "failed") | .reason | length > 0] | all' \
		'[.cells[] | select(.status == "failed" and (.tx == "node3" or .rx == "node3"))] | length >= 4' \
		'. as $m | [.cells[] | select(.tx != "node3" and .rx != "node3" and .status != "ok") | . as $c | ((.reason // "") | test("sent no HELLO")) and ([$m.cells[] | select(.tx == "node3" and .rx == $c.rx and .status == "failed" and .round < $c.round)] | length > 0)] | all' ||
		return
	expect_file "$DIR/outliers.txt" "node3" || return
	expect_json "$DIR/mesh.json" \
		'[.cells[] | select(.status == "failed") | .retest.held == false] | all' \
		'[.cells[] | select(.status == "failed") | .retest.result.results[-1].data_check.ok] | all' \
		'.totals.held == 0' '.totals.retested == .totals.failed' \
		'[.retest_rounds[] | [.pairs[] | .tx, .rx] | (length == (unique | length))] | all' ||
		return
	pass
}

# What each rank keeps for the job: its client side opens its device and
# calibrates its clock once and builds its connection once (every later
# session reuses the PD, buffer and CQs with new QPs), and so does its
# serving side (each server's line in the rank logs). Counts, not times:
# a loaded machine cannot make it flake.
t_cluster_kept4() {
	begin "mesh: 4 nodes pairwise: device, clock and buffer kept for the job on both sides"
	cluster_run 4 kept write_bw -n 200 -s 4096 --tolerance 90 ||
		return
	expect_json "$DIR/mesh.json" '.cells | length == 12' \
		'[.cells[] | .status == "ok"] | all' \
		'[.cells[] | .result.kept | .device_opens == 1 and .clock_calibrations == 1 and .conns_built == 1] | all' \
		'[.cells[] | .result.kept | .conns_reused == .sessions - 1] | all' \
		'[.cells[] | .result.kept.sessions] | max == 3' \
		'[.cells[] | .result.phases_s.loop > 0] | all' || return
	[ "$(cat "$DIR"/rank-*.log | grep -c 'times: .*kept: 1 device open(s), 1 connection(s) built')" = 12 ] ||
		{ fail "not 12 served sessions on one device and connection a side"; return; }
	pass
}

main() {
	local t
	for t in t_cluster_pairwise4 t_cluster_bye3 t_cluster_bisection \
		t_cluster_ringshift t_cluster_retest_held t_cluster_srun \
		t_cluster_node_down t_cluster_kept4; do
		case "$t" in *"$FILTER"*) "$t" ;; esac
	done
	summary
}

main
