#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Integration tests on a real Soft-RoCE device: real rdmaperf-server and
# rdmaperf processes over real sockets. Run through tests/softroce/rxe-run.
# Usage: run.sh BUILD_DIR [TEST_NAME_FILTER]
set -u
BUILD=$(cd "${1:?build directory}" && pwd)
FILTER=${2:-}
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

PORT=18600
LIMIT=180

client() {
	run_limited "$LIMIT" "$BUILD/rdmaperf" "$@" -d "$DEV" -p "$PORT" \
		"$ADDR" >"$WORK/out" 2>&1
}

# A bandwidth run: exit 0, a row for the size with the iteration count,
# positive peak and average, and the server's data check.
check_bw() {
	local size=$1 iters=$2 qps=$3 row
	shift 3
	client write_bw -s "$size" -n "$iters" -q "$qps" "$@" ||
		{ fail "exit $?"; return; }
	row=$(table_row "$WORK/out" "$size")
	[ -n "$row" ] || { fail "no result row for $size B"; return; }
	echo "$row" | awk -v n=$((iters * qps)) '{ exit !($2 == n) }' ||
		{ fail "iterations in '$row' are not $((iters * qps))"; return; }
	positive_field "$row" 3 && positive_field "$row" 4 &&
		positive_field "$row" 5 || { fail "zero figure in '$row'"; return; }
	expect_in "$WORK/out" "Data check +: ok, $((size * qps)) bytes verified" \
		"GID +: index [0-9]+ RoCE v2" "QPs +: $qps RC" >"$WORK/why" ||
		{ fail "$(cat "$WORK/why")"; return; }
	pass
}

check_lat() {
	local size=$1 iters=$2 row
	client write_lat -s "$size" -n "$iters" ||
		{ fail "exit $?"; return; }
	row=$(table_row "$WORK/out" "$size")
	[ -n "$row" ] || { fail "no result row for $size B"; return; }
	# min <= typical <= max, all positive, iterations as asked.
	echo "$row" | awk -v n="$iters" '{ exit !($2 == n && $3 > 0 &&
		$3 <= $5 && $5 <= $4 && $6 > 0 && $8 >= $5 && $9 >= $8) }' ||
		{ fail "inconsistent latency row '$row'"; return; }
	# Both directions carry data: size - 1 bytes each way.
	expect_in "$WORK/out" "Data check +: ok, $((2 * (size - 1))) bytes" \
		"one-way latency" "100 warm-up" >"$WORK/why" ||
		{ fail "$(cat "$WORK/why")"; return; }
	pass
}

t_write_bw_sizes() {
	local s
	for s in 2 4096 65536 1048576; do
		begin "write_bw -s $s -q 1"
		check_bw "$s" 200 1
	done
}

t_write_bw_qps() {
	begin "write_bw -s 65536 -q 4"
	check_bw 65536 100 4
	begin "write_bw -s 4096 -q 4 -t 16 -Q 4"
	check_bw 4096 300 4 -t 16 -Q 4
}

t_write_lat_sizes() {
	local s
	for s in 2 64 4096; do
		begin "write_lat -s $s"
		check_lat "$s" 300
	done
}

t_duration() {
	begin "write_bw -D 2 (duration mode)"
	client write_bw -s 65536 -D 2 || { fail "exit $?"; return; }
	expect_in "$WORK/out" "for 2 s" "Data check +: ok" >"$WORK/why" ||
		{ fail "$(cat "$WORK/why")"; return; }
	pass
	begin "write_lat -D 2 (duration mode)"
	client write_lat -s 8 -D 2 || { fail "exit $?"; return; }
	expect_in "$WORK/out" "Data check +: ok" >/dev/null ||
		{ fail "no data check"; return; }
	pass
}

# Different flags from one client to the next, same server process.
t_flags_change() {
	begin "second client with other flags (gbits, MTU 512, seed)"
	client write_bw -s 8192 -n 100 -m 512 --seed 77 --report_gbits ||
		{ fail "exit $?"; return; }
	expect_in "$WORK/out" "BW peak\[Gb/sec\]" "MTU +: 512 B" \
		"Data check +: ok" >"$WORK/why" ||
		{ fail "$(cat "$WORK/why")"; return; }
	pass
}

t_server_survives() {
	local served
	begin "persistent server served every client and is still running"
	kill -0 "$SERVER_PID" 2>/dev/null || { fail "server is gone"; return; }
	served=$(grep -c ": done, data ok" "$WORK/server.log")
	[ "$served" -ge 8 ] || { fail "only $served clients served"; return; }
	pass
}

t_one_shot() {
	local port=$((PORT + 1)) spid rc
	begin "one-shot server: rdmaperf TEST without HOST"
	run_limited "$LIMIT" "$BUILD/rdmaperf" write_lat -d "$DEV" -p "$port" \
		>"$WORK/oneshot.log" 2>&1 &
	spid=$!
	run_limited "$LIMIT" "$BUILD/rdmaperf" write_lat -s 16 -n 100 \
		-d "$DEV" -p "$port" "$ADDR" >"$WORK/out" 2>&1 ||
		{ fail "client exit $?"; kill "$spid"; return; }
	wait "$spid"
	rc=$?
	[ "$rc" -eq 0 ] || { fail "one-shot server exit $rc"; return; }
	pass
	begin "one-shot server refuses a different test, both sides say why"
	run_limited "$LIMIT" "$BUILD/rdmaperf" write_lat -d "$DEV" -p "$port" \
		>"$WORK/oneshot.log" 2>&1 &
	spid=$!
	sleep 0.5
	run_limited "$LIMIT" "$BUILD/rdmaperf" write_bw -n 10 \
		-d "$DEV" -p "$port" "$ADDR" >"$WORK/out" 2>&1 &&
		{ fail "client succeeded"; kill "$spid"; return; }
	wait "$spid" && { fail "one-shot server exit 0"; return; }
	expect_in "$WORK/out" "started for write_lat, the client asks for write_bw" \
		>"$WORK/why" && expect_in "$WORK/oneshot.log" "started for write_lat" \
		>>"$WORK/why" || { fail "$(cat "$WORK/why")"; return; }
	pass
}

. "$HERE/failures.sh"

main() {
	local t
	start_server "$PORT" "$WORK/server.log" ||
		{ begin "server starts"; fail "rdmaperf-server did not start";
		  cat "$WORK/server.log"; summary; exit 1; }
	for t in t_write_bw_sizes t_write_bw_qps t_write_lat_sizes t_duration \
		t_flags_change t_server_survives t_one_shot t_failures; do
		case "$t" in *"$FILTER"*) "$t" ;; esac
	done
	stop_server
	summary
}

main
