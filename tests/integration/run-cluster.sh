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
. "$HERE/cluster_health.sh"
. "$HERE/cluster_congestion.sh"
. "$HERE/cluster_doctor.sh"

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

# Every process under pid $1, the nearest first.
descendants() {
	local c
	for c in $(pgrep -P "$1"); do
		echo "$c"
		descendants "$c"
	done
}

# The rdmaperf-mesh processes under pid $1.
mesh_ranks() {
	local p
	for p in $(descendants "$1"); do
		[ "$(cat "/proc/$p/comm" 2>/dev/null)" = rdmaperf-mesh ] &&
			echo "$p"
	done
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
	local n
	begin "mesh: 4 nodes ring-shift: every node sends and receives at once, 12 cells; its --metrics samples"
	cluster_run 4 ring write_bw -n 200 -s 4096 --tolerance 90 \
		--pattern ring-shift --metrics "$WORK/ring.prom" ||
		return
	expect_json "$DIR/mesh.json" '.rounds | length == 3' \
		'[.rounds[] | .pairs | length == 4] | all' \
		'.cells | length == 12' '[.cells[] | .status == "ok"] | all' ||
		return
	bed_page "$DIR/mesh.json" mesh.json
	bed_page "$WORK/ring.prom" mesh.prom
	expect_file "$WORK/ring.prom" '^rdmaperf_mesh_cells\{.*\} 12$' \
		'^rdmaperf_mesh_pass\{.*\} 1$' ||
		return
	# each node sent in 3 of the 12 cells
	for n in 0 1 2 3; do
		expect_file "$WORK/ring.prom" \
			"^rdmaperf_mesh_node_send_bandwidth_bytes_per_second_count\\{.*node=\"node$n\".*\\} 3\$" ||
			return
	done
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
# its veth: the cable pulled): the job still ends, and once that node has
# failed against two of its peers it is named as the fault (pruned) and
# its later cells are skipped instead of each costing a timeout. -D 1
# bounds how long a server waits for a client that vanished mid-transfer
# (-n has no such bound, and its server would stay busy with the lost
# client, failing the next cells towards it with "sent no HELLO"); such a
# cell is still allowed, towards a node that served node3 in an earlier
# round whose cell failed. Every other cell without node3 is ok; the
# pruned node's cells are not run again by --retest.
t_cluster_node_down() {
	local pid i net rc why t0
	begin "mesh: a node's netdev down mid-mesh: pruned after failing against 2 peers, later cells skipped"
	why=$(mesh_missing 4)
	[ -z "$why" ] || { skip "$why"; return; }
	DIR=$WORK/m4-down
	rm -rf "$DIR"
	mesh_hostname
	net=$RDP_RXE_BRPORT3
	t0=$SECONDS
	mesh_mpirun 4 write_bw -D 1 -s 4096 --tolerance 90 \
		--connect-timeout 2 --oob-timeout 3 -d "$(devs 4)" \
		--retest --output-dir "$DIR" &
	pid=$!
	for i in $(seq 1 600); do
		[ -s "$DIR/rounds.jsonl" ] && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	ip link set "$net" down
	wait "$pid"
	rc=$?
	ip link set "$net" up
	[ "$rc" -eq 1 ] || { fail "exit $rc, wanted 1"; return; }
	# Without pruning, node3's 5 cells after round 1 fail, a timeout each.
	expect_json "$DIR/mesh.json" '.cells | length == 12' \
		'.pruned | length == 1' '.pruned[0].node == "node3"' \
		'.pruned[0].failed_peers >= 2' \
		'[.cells[] | select(.status == "skipped")] | length >= 1' \
		'.totals.skipped == ([.cells[] | select(.status == "skipped")] | length)' \
		'[.cells[] | select(.status == "skipped") | (.tx == "node3" or .rx == "node3") and (.reason | test("^pruned: node3 failed against [0-9]+ of [0-9]+ peers by round [0-9]+$"))] | all' \
		'[.cells[] | select(.status == "failed" and (.tx == "node3" or .rx == "node3"))] | length >= 2 and length <= 4' \
		'[.cells[] | select(.status == "failed") | .reason | length > 0] | all' \
		'. as $m | [.cells[] | select(.tx != "node3" and .rx != "node3" and .status != "ok") | . as $c | ((.reason // "") | test("sent no HELLO")) and ([$m.cells[] | select(.tx == "node3" and .rx == $c.rx and .status == "failed" and .round < $c.round)] | length > 0)] | all' \
		'[.cells[] | select(.tx == "node3" or .rx == "node3") | has("retest") | not] | all' \
		'.coverage.rounds_run == 6' ||
		return
	expect_out "^pruned: node3, the likely fault: failed against" \
		"skipped; files in" || return
	expect_file "$DIR/rank-0.log" "node3 pruned: failed against" || return
	[ $((SECONDS - t0)) -lt 150 ] ||
		{ fail "took $((SECONDS - t0)) s, wanted under 150"; return; }
	pass
}

# Killed in round 3 of 6 (once the journal holds rounds 1 and 2), then
# --resume on the same directory: the job goes on at the first round not
# whole, no cell twice, all 12 cells at the end, the whole rounds as they
# were measured. Under load the kill can land after round 3 is whole too:
# then the job resumes at round 4, the same checks with K = 3 (a kill
# that lands once all 6 are whole fails: nothing would be resumed).
# A resume with other options is refused first, leaving the files be.
# The ranks are killed at once (SIGKILL), as a crash would; rounds of
# -D 3 leave the test time to see round 2 in and act within round 3.
t_cluster_resume() {
	local pid ranks i why n rc lines
	begin "mesh: killed after round 2, --resume: 12 cells, the whole rounds unchanged, other options refused"
	why=$(mesh_missing 4)
	[ -z "$why" ] || { skip "$why"; return; }
	DIR=$WORK/m4-resume
	rm -rf "$DIR"
	mesh_hostname
	set -- -D 3 --tolerance 90 -d "$(devs 4)"
	(RDP_MESH_NODE='node%r' exec timeout --kill-after=5 300 mpirun \
		--allow-run-as-root --oversubscribe -np 4 -x RDP_MESH_NODE \
		--mca pml ob1 --mca btl self,vader,tcp \
		"$BUILD/rdmaperf-mesh" write_bw -s 4096 "$@" --output-dir "$DIR" \
		>"$WORK/out" 2>&1) &
	pid=$!
	# The ranks are found once the journal exists, and the journal's
	# lines counted without a fork: an emulated guest forks slowly.
	ranks=
	for i in $(seq 1 6000); do
		n=0
		if [ -f "$DIR/rounds.jsonl" ]; then
			[ -n "$ranks" ] || ranks=$(mesh_ranks "$pid")
			mapfile -t lines <"$DIR/rounds.jsonl"
			n=${#lines[@]}
		fi
		[ "$n" -ge 2 ] && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	# shellcheck disable=SC2086 # one pid a word
	[ -n "$ranks" ] && kill -KILL $ranks
	wait "$pid"
	n=$(wc -l <"$DIR/rounds.jsonl")
	[ "$n" -ge 2 ] && [ "$n" -lt 6 ] ||
		{ fail "the journal holds $n whole rounds at the kill, not 2 to 5"; return; }
	cp "$DIR/rounds.jsonl" "$WORK/journal-before"
	mesh_mpirun 4 write_bw -s 8192 "$@" --resume "$DIR" &&
		{ fail "a resume with other test options ran"; return; }
	expect_out "--resume $DIR: test was \"write_bw -s 4096 .*\" there, is \"write_bw -s 8192 " ||
		return
	cmp -s "$DIR/rounds.jsonl" "$WORK/journal-before" ||
		{ fail "the refused resume changed the journal"; return; }
	mesh_mpirun 4 write_bw -s 4096 "$@" --resume "$DIR"
	rc=$?
	[ "$rc" -le 1 ] || { fail "resume: exit $rc"; return; }
	expect_json "$DIR/mesh.json" '.cells | length == 12' \
		'[.cells[] | .status != "failed"] | all' \
		'[.cells[] | "\(.tx)>\(.rx)"] | unique | length == 12' \
		'[.cells[] | .round] | sort == [1,1,2,2,3,3,4,4,5,5,6,6]' \
		'.coverage.rounds_run == 6 and .coverage.pairs_measured == 6' ||
		return
	[ "$(wc -l <"$DIR/rounds.jsonl")" = 6 ] ||
		{ fail "rounds.jsonl: not 6 lines"; return; }
	head -n "$n" "$DIR/rounds.jsonl" | cmp -s - "$WORK/journal-before" ||
		{ fail "rounds 1-$n of the journal changed"; return; }
	expect_file "$DIR/rank-0.log" "resumed at round $((n + 1)) of 6" ||
		return
	# The figures of the whole rounds, as measured before the kill.
	jq -e -n --slurpfile j "$WORK/journal-before" \
		--slurpfile m "$DIR/mesh.json" --argjson k "$n" \
		'[$j[].cells[] | {tx, rx, round, bw_gbps, result}] | sort_by(.tx, .rx)
		 == ([$m[0].cells[] | select(.round <= $k) | {tx, rx, round, bw_gbps, result}] | sort_by(.tx, .rx))' \
		>/dev/null || { fail "rounds 1-$n's figures changed"; return; }
	pass
}

# --time-budget: no round starts that the mean round time says would end
# past the budget; mesh.json and the summary say how far it got.
t_cluster_budget() {
	begin "mesh: --time-budget 6s stops a 6-round mesh early, coverage said"
	cluster_run 4 budget write_bw -D 1 -s 4096 --tolerance 90 \
		--time-budget 6s || return
	expect_json "$DIR/mesh.json" '.coverage.stopped_by_time_budget' \
		'.coverage.rounds_run < 6' '.coverage.rounds_planned == 6' \
		'.coverage.time_budget_s == 6' \
		'(.cells | length) == 2 * .coverage.rounds_run' ||
		return
	expect_out "^coverage: [0-9] of 6 rounds of the plan, .*; stopped by --time-budget 6 s" ||
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

# ---- a leaf-spine fabric (rxe-run --leaves L) -------------------------------

# The rate a shaped cable carries each way, in Mbit/s: well under the
# speed of an emulated cell while the mesh's pairs share the cores.
LEAF_RATE_MBIT=10

# A jq prelude for mesh.json: leaf(NAME) is a node's leaf; a cell crosses
# when its ends sit on different leaves and one of them is $1, the leaf
# whose cable is shaped.
leaf_jq() {
	local i map="" leaf
	for ((i = 0; i < $2; i++)); do
		eval "leaf=\$RDP_RXE_LEAF$i"
		map="$map${map:+,}\"node$i\":\"$leaf\""
	done
	echo "def leaf(n): {$map}[n];" \
		"def crosses: leaf(.tx) != leaf(.rx) and" \
		"(leaf(.tx) == \"$1\" or leaf(.rx) == \"$1\");"
}

# The fabric's file as the run wrote it ($RDP_RXE_TOPOLOGY), read in the
# format of the mesh's --topology: every line not a comment is "node rail
# switch port" for one of the mesh's N nodes ($1) or "switch port switch
# port"; each node once, on the leaf its variable names; the cable of leaf
# $2 among the links.
topology_parses() {
	local n=$1 shaped=$2 a b c d rest nodes=0 links=0 cable="" leaf
	while read -r a b c d rest; do
		case "$a" in '' | '#'*) continue ;; esac
		[ -n "$d" ] && [ -z "$rest" ] && [ "$b" -ge 0 ] 2>/dev/null &&
			[ "$d" -ge 0 ] 2>/dev/null ||
			{ fail "topology: '$a $b $c $d $rest': not 4 fields" \
				"with numbered ports"; return 1; }
		case "$a" in
		node*)
			eval "leaf=\${RDP_RXE_LEAF${a#node}:-}"
			[ "$c" = "$leaf" ] ||
				{ fail "topology: $a on $c, not on '$leaf'"; return 1; }
			nodes=$((nodes + 1)) ;;
		*)
			links=$((links + 1))
			[ "$a" != "$shaped" ] || cable="$a $b $c $d" ;;
		esac
	done <"$RDP_RXE_TOPOLOGY"
	[ "$nodes" -eq "$n" ] && [ "$links" -eq "$RDP_RXE_LEAVES" ] &&
		[ -n "$cable" ] ||
		{ fail "topology: $nodes nodes, $links cables, none from $shaped"; return 1; }
	CABLE=$cable
}

# One leaf's cable to the spine shaped to LEAF_RATE_MBIT each way (tbf on
# both its ends) during a pairwise mesh of every device: each cell across
# that cable is held near the rate (under 1.6 times it: the shaper's
# burst lets a short cell past it, 1.4 times seen) and flagged (--min-bw
# twice the rate), the other cells (inside a leaf, or between two other
# leaves) run at 2.6 times the rate or more in the median, and the slowest cells are
# exactly the ones across. The ranks sleep on
# their completions (-e): a pair held back by the shaper must not take
# the cores from the pairs beside it. The shaper queues a QP's packets
# for longer than the default ACK timeout (67 ms): rxe would retransmit
# what is only late, so the timeout is 1 s (-u 18). The mesh takes the
# topology file the bed wrote (--topology): every cell gets its path, and
# the fault it names is that cable, not the nodes behind it. That takes
# three leaves or more (with two, both cables carry the same cells) and
# two nodes or more on the shaped leaf (with one, its node's cable
# carries the same cells): rxe-run --devices 6 --leaves 3.
t_cluster_leaf_uplink() {
	local n k up dn rc why jq rate
	begin "mesh: leaf-spine bed, one uplink shaped: the cells across it are the slow ones"
	n=$(echo "${RDP_RXE_DEVS:-}" | wc -w)
	if [ "${RDP_RXE_LEAVES:-1}" -lt 3 ] ||
		[ "$n" -lt $((2 * RDP_RXE_LEAVES)) ]; then
		skip "needs rxe-run --devices 6 --leaves 3 (three leaves or" \
			"more, two devices or more a leaf)"
		return
	fi
	why=$(mesh_missing "$n")
	[ -z "$why" ] || { skip "$why"; return; }
	# The last device's leaf: with three leaves or more, cells between
	# two other leaves cross the spine without touching its cable.
	eval "k=\$RDP_RXE_LEAF$((n - 1))"
	eval "up=\$RDP_RXE_UPLINK${k#leaf} dn=\$RDP_RXE_DOWNLINK${k#leaf}"
	topology_parses "$n" "$k" || return
	topology_simulated "$n" "$k" "$CABLE" || return
	DIR=$WORK/m$n-leaf
	rm -rf "$DIR"
	mesh_hostname
	topology_refused "$n" || return
	tc qdisc add dev "$up" root tbf rate "${LEAF_RATE_MBIT}mbit" \
		burst 16kb latency 100ms &&
		tc qdisc add dev "$dn" root tbf rate "${LEAF_RATE_MBIT}mbit" \
			burst 16kb latency 100ms ||
		{ fail "tc cannot shape $up and $dn"; leaf_unshape "$up" "$dn"; return; }
	mesh_mpirun "$n" write_bw -e -u 18 -n 200 -s 4096 --tolerance 90 \
		--min-bw "$(awk -v r="$LEAF_RATE_MBIT" 'BEGIN { print r * 2 / 1000 }')" \
		-d "$(devs "$n")" --output-dir "$DIR" \
		--topology "$RDP_RXE_TOPOLOGY"
	rc=$?
	leaf_unshape "$up" "$dn"
	# The cells under --min-bw (twice the rate) are flagged: exit 1.
	[ "$rc" -eq 1 ] || { fail "exit $rc, wanted 1"; return; }
	jq=$(leaf_jq "$k" "$n")
	rate=$(awk -v r="$LEAF_RATE_MBIT" 'BEGIN { print r / 1000 }')
	expect_json "$DIR/mesh.json" ".cells | length == $((n * (n - 1)))" \
		'[.cells[] | .status != "failed"] | all' \
		"$jq [.cells[] | select(crosses)] | length > 0" \
		"$jq [.cells[] | select(crosses) | .bw_gbps < $rate * 1.6] | all" \
		"$jq [.cells[] | select(crosses) | .status == \"flagged\"] | all" \
		"$jq [.cells[] | select(crosses | not) | .bw_gbps] | sort | .[length / 2 | floor] > $rate * 2.6" \
		"$jq ([.cells[] | select(crosses) | .bw_gbps] | max) < ([.cells[] | select(crosses | not) | .bw_gbps] | min)" ||
		{ leaf_cells; return; }
	leaf_cells
	fault_on_cable "$k" "$CABLE" || return
	pass
}

# The mesh's --topology at work: the first fault it names is the uplink
# of leaf $1, on the ports of its line in the file ($2, "leafK PORT spine
# PORT"), no node or node cable on that leaf is named, every cell has its
# path (the cells across the spine name the shaped cable), and rank 0's
# words say the fault after the outliers.
fault_on_cable() {
	expect_json "$DIR/mesh.json" '.faults | length >= 1' \
		"$(first_fault_is "$2")" \
		"$jq [.faults[] | select(.part == \"node\" or .part == \"cable\") | leaf(.node) == \"$1\"] | any | not" \
		'[.cells[] | .path | length >= 2] | all' \
		"$jq [.cells[] | select(crosses) | .path | map(startswith(\"uplink $1:\")) | any] | all" ||
		return 1
	grep -q "^fault 1 \[uplink\]: uplink $1 " "$WORK/out" ||
		{ fail "rank 0 did not name the uplink of $1"; cat "$WORK/out"; return 1; }
}

# A topology file without node0: one line says so, every rank exits 2
# before any round.
topology_refused() {
	grep -v '^node0 ' "$RDP_RXE_TOPOLOGY" >"$WORK/topo-short"
	mesh_mpirun "$1" write_bw -n 5 -s 4096 -d "$(devs "$1")" \
		--output-dir "$DIR" --topology "$WORK/topo-short"
	local rc=$?
	[ "$rc" -eq 2 ] && [ ! -e "$DIR/rounds.jsonl" ] &&
		[ ! -e "$DIR/mesh.json" ] &&
		[ "$(grep -c 'node0 is not in the fabric' "$WORK/out")" -eq 1 ] ||
		{ fail "a topology without node0: exit $rc, wanted 2 and one line"; cat "$WORK/out"; return 1; }
	rm -rf "$DIR"
}

# A jq filter: mesh.json's first fault is the cable $1 ("SWITCH PORT
# SWITCH PORT" as the topology file has it), either way round.
first_fault_is() {
	local sw port peer peer_port
	read -r sw port peer peer_port <<EOF
$1
EOF
	echo ".faults[0].part == \"uplink\" and ([.faults[0] |" \
		"[.switch, .port], [.peer_switch, .peer_port]] | sort ==" \
		"([[\"$sw\", $port], [\"$peer\", $peer_port]] | sort))"
}

# Where rdmaperf's mesh simulator reads --topology: it takes the run's file
# for $1 nodes, and with leaf $2's cable to the spine ($3) injected down,
# names that cable and nothing else.
topology_simulated() {
	local n=$1 k=$2
	"$BUILD/rdmaperf" mesh --simulate 2 --help 2>&1 |
		grep -qE '^ +--topology[= ]' || return 0
	run_limited 60 "$BUILD/rdmaperf" mesh --simulate "$n" \
		--topology "$RDP_RXE_TOPOLOGY" --inject "uplink:$k:spine=down" \
		--output-dir "$WORK/sim" >"$WORK/out" 2>&1 ||
		{ fail "rdmaperf mesh --simulate on $RDP_RXE_TOPOLOGY: exit $?"; return 1; }
	expect_json "$WORK/sim/mesh.json" '.faults | length == 1' \
		"$(first_fault_is "$3")"
}

# What the case saw: each cell's figure, the crossing ones marked.
leaf_cells() {
	jq -r "$jq"' .cells[] | "  \(.tx)>\(.rx) \(.bw_gbps) Gb/s \(.status)\(if crosses then " across" else "" end)"' \
		"$DIR/mesh.json" 2>/dev/null
}

leaf_unshape() {
	tc qdisc del dev "$1" root 2>/dev/null
	tc qdisc del dev "$2" root 2>/dev/null
}

# --pattern cover on the leaf-spine bed (rxe-run --devices 6 --leaves 3:
# one uplink a leaf, so one node of a leaf crosses the spine a pairing):
# fewer rounds than pairwise, no node twice in a round, and mesh.json's
# cover says every node cable carried traffic both ways and every uplink
# was a crossing cell's way.
t_cluster_cover() {
	local n pw
	begin "mesh: --pattern cover on the leaf-spine bed: every cable and uplink in fewer rounds than pairwise"
	n=$(echo "${RDP_RXE_DEVS:-}" | wc -w)
	if [ "${RDP_RXE_LEAVES:-1}" -lt 2 ] || [ -z "${RDP_RXE_TOPOLOGY:-}" ]; then
		skip "needs rxe-run --leaves 2 or more (a topology file)"
		return
	fi
	pw=$(((n % 2 ? n : n - 1) * 2))
	cluster_run "$n" cover write_bw -D 1 -s 4096 --tolerance 90 \
		--pattern cover --topology "$RDP_RXE_TOPOLOGY" --load 100 ||
		return
	expect_json "$DIR/mesh.json" '.pattern == "cover"' \
		".rounds | length < $pw" \
		'[.cells[] | .status == "ok"] | all' \
		".cover.node_cables.of == $n" \
		'.cover.node_cables.carried == .cover.node_cables.of' \
		'.cover.node_cables.both_ways == .cover.node_cables.of' \
		".cover.uplinks.of == $RDP_RXE_LEAVES" \
		'.cover.uplinks.expected == .cover.uplinks.of' || return
	rounds_disjoint || return
	expect_out "cover: $n of $n node cables carried traffic" || return
	expect_out "cover plan for $n nodes" || return
	pass
}

# The rate of a node's shaped cable, in Mbit/s: the other cells, at 30
# Mbit/s and more on the bed, stay three times above --min-bw (twice the
# rate) while the shaped ones, burst included, stay under it.
NODE_RATE_MBIT=5

# A quick pass (bisection and one random matching) over six nodes with
# node5's cable shaped to NODE_RATE_MBIT each way (tbf on the veth and on
# the bridge port facing it): its cells are flagged (--min-bw twice the
# rate), the nodes of the flagged cells are the suspects, and --retest
# pairs each suspect with a node of no flagged cell in halving rounds.
# node5 is named faulty, its peers of the pass cleared, and its cells
# keep their flags; a cell that emulation noise flagged between other
# nodes is run again on its own once its nodes are cleared. -e and -u 18
# as the leaf case, for the shaped cells.
t_cluster_quick_slow() {
	local n=6 slow=5 port rc why
	begin "mesh: quick pass --retest, one node's cable shaped: that node alone named faulty, its peers cleared"
	why=$(mesh_missing "$n")
	[ -z "$why" ] || { skip "$why"; return; }
	eval "port=\${RDP_RXE_BRPORT$slow:-}"
	DIR=$WORK/m$n-quick
	rm -rf "$DIR"
	mesh_hostname
	tc qdisc add dev "veth$slow" root tbf rate "${NODE_RATE_MBIT}mbit" \
		burst 16kb latency 100ms &&
		tc qdisc add dev "$port" root tbf rate "${NODE_RATE_MBIT}mbit" \
			burst 16kb latency 100ms ||
		{ fail "tc cannot shape veth$slow and $port"; leaf_unshape "veth$slow" "$port"; return; }
	mesh_mpirun "$n" write_bw -e -u 18 -n 200 -s 4096 --tolerance 90 \
		--min-bw "$(awk -v r="$NODE_RATE_MBIT" 'BEGIN { print r * 2 / 1000 }')" \
		--pattern quick --permutations 1 --retest \
		-d "$(devs "$n")" --output-dir "$DIR"
	rc=$?
	leaf_unshape "veth$slow" "$port"
	[ "$rc" -eq 1 ] || { fail "exit $rc, wanted 1"; cat "$WORK/out"; return; }
	expect_json "$DIR/mesh.json" '.pattern == "quick"' \
		".quick.faulty == [\"node$slow\"]" '.quick.unresolved == []' \
		'.quick.rounds >= 1' '.quick.suspects >= 2' \
		'.quick.cleared == .quick.suspects - 1' \
		"[.cells[] | select(.tx == \"node$slow\" or .rx == \"node$slow\") | .status == \"flagged\" and (has(\"retest\") | not)] | all" \
		"[.cells[] | select(.status != \"ok\" and .tx != \"node$slow\" and .rx != \"node$slow\") | has(\"retest\")] | all" \
		'(.retest_rounds | length) == .quick.rounds + .quick.confirm_rounds' \
		"[.retest_rounds[0].pairs[].tx] | index(\"node$slow\") != null" ||
		{ cat "$WORK/out"; return; }
	grep -q "^quick retest: faulty: node$slow\$" "$WORK/out" ||
		{ fail "rank 0 did not name node$slow faulty"; cat "$WORK/out"; return; }
	pass
}

main() {
	local t
	for t in t_cluster_pairwise4 t_cluster_bye3 t_cluster_bisection \
		t_cluster_ringshift t_cluster_retest_held t_cluster_srun \
		t_cluster_node_down t_cluster_kept4 t_cluster_resume \
		t_cluster_budget t_cluster_leaf_uplink t_cluster_cover \
		t_cluster_quick_slow t_cluster_errors_loss \
		t_cluster_incast_shaped t_cluster_incast_plain \
		t_cluster_alltoall4 t_cluster_doctor_agree t_cluster_doctor_mtu \
		t_cluster_doctor6; do
		case "$t" in *"$FILTER"*) "$t" ;; esac
	done
	summary
}

main
