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

# What the data check must report for TEST after SIZE x ITERS on QPS.
expected_check() {
	local test=$1 size=$2 iters=$3 qps=$4 warm=100
	case $test in
	write_bw | read_bw | send_bw) echo "$((size * qps)) bytes verified" ;;
	atomic_bw) echo "$((iters * qps)) atomic operations counted" ;;
	write_lat) echo "$((2 * (size - 1))) bytes verified" ;;
	send_lat) echo "$((2 * size)) bytes verified" ;;
	read_lat) echo "$size bytes verified" ;;
	atomic_lat) echo "$((iters + warm)) atomic operations counted" ;;
	esac
}

# A bandwidth run: exit 0, a row for the size with the iteration count,
# positive peak and average, and the data check.
check_bw() {
	local test=$1 size=$2 iters=$3 qps=$4 row
	shift 4
	client "$test" -s "$size" -n "$iters" -q "$qps" "$@" ||
		{ fail "exit $?"; return; }
	row=$(table_row "$WORK/out" "$size")
	[ -n "$row" ] || { fail "no result row for $size B"; return; }
	echo "$row" | awk -v n=$((iters * qps)) '{ exit !($2 == n) }' ||
		{ fail "iterations in '$row' are not $((iters * qps))"; return; }
	# Peak is never below the average.
	positive_field "$row" 3 && positive_field "$row" 4 &&
		positive_field "$row" 5 && echo "$row" | awk '{ exit !($3 >= $4) }' ||
		{ fail "implausible figures in '$row'"; return; }
	expect_out \
		"Data check +: ok, $(expected_check "$test" "$size" "$iters" "$qps")" \
		"GID +: index [0-9]+ RoCE v2" "QPs +: $qps RC" || return
	pass
}

# A latency run: min <= median <= max, p99 and p99.9 ordered, iterations
# as asked, and the data check.
check_lat() {
	local test=$1 size=$2 iters=$3 row
	shift 3
	client "$test" -s "$size" -n "$iters" "$@" ||
		{ fail "exit $?"; return; }
	row=$(table_row "$WORK/out" "$size")
	[ -n "$row" ] || { fail "no result row for $size B"; return; }
	echo "$row" | awk -v n="$iters" '{ exit !($2 == n && $3 > 0 &&
		$3 <= $5 && $5 <= $4 && $6 > 0 && $8 >= $5 && $9 >= $8 &&
		$9 <= $4) }' ||
		{ fail "inconsistent latency row '$row'"; return; }
	expect_out \
		"Data check +: ok, $(expected_check "$test" "$size" "$iters" 1)" \
		"100 warm-up" || return
	pass
}

t_write_bw_sizes() {
	local s
	for s in 2 4096 65536; do
		begin "write_bw -s $s -q 1"
		check_bw write_bw "$s" 200 1
	done
	# Signal every 10: at the default 1 in 100, a completion stands for
	# 100 MiB, which a loaded emulated link may take longer than
	# --cq-timeout to carry.
	begin "write_bw -s 1048576 -q 1 -Q 10"
	check_bw write_bw 1048576 200 1 -Q 10
}

t_write_bw_qps() {
	begin "write_bw -s 65536 -q 4"
	check_bw write_bw 65536 100 4
	begin "write_bw -s 4096 -q 4 -t 16 -Q 4"
	check_bw write_bw 4096 300 4 -t 16 -Q 4
}

t_write_lat_sizes() {
	local s
	for s in 2 64 4096; do
		begin "write_lat -s $s"
		check_lat write_lat "$s" 300
	done
}

t_duration() {
	begin "write_bw -D 1 (duration mode)"
	client write_bw -s 65536 -D 1 || { fail "exit $?"; return; }
	expect_out "for 1 s" "Data check +: ok" || return
	pass
	begin "write_lat -D 1 (duration mode)"
	client write_lat -s 8 -D 1 || { fail "exit $?"; return; }
	expect_in "$WORK/out" "Data check +: ok" >/dev/null ||
		{ fail "no data check"; return; }
	pass
}

# Every other test loop, at a couple of shapes each.
t_all_loops() {
	local t
	# The reduced set: one shape per loop (the sizes differ in figures).
	for t in read_bw send_bw; do
		if ! short_pass; then
			begin "$t -s 65536 -q 1"
			check_bw "$t" 65536 200 1
		fi
		begin "$t -s 4096 -q 3"
		check_bw "$t" 4096 200 3
	done
	begin "read_bw -o 2 (two reads in flight)"
	check_bw read_bw 8192 200 2 -o 2
	begin "send_bw -r 16 (short receive queue)"
	check_bw send_bw 4096 300 1 -r 16
	begin "atomic_bw fetch-and-add -q 2: counters add up"
	check_bw atomic_bw 8 300 2
	begin "atomic_bw compare-and-swap: counter chain intact"
	check_bw atomic_bw 8 300 1 -A CMP_AND_SWAP
	for t in read_lat send_lat; do
		begin "$t -s 2"
		check_lat "$t" 2 300
		short_pass && continue
		begin "$t -s 4096"
		check_lat "$t" 4096 200
	done
	begin "atomic_lat fetch-and-add"
	check_lat atomic_lat 8 300
	begin "atomic_lat compare-and-swap"
	check_lat atomic_lat 8 300 -A CMP_AND_SWAP
	begin "latency headers say one-way or round trip"
	client read_lat -n 50 && grep -q "round-trip latency of each read" "$WORK/out" &&
		client send_lat -n 50 && grep -q "one-way latency" "$WORK/out" ||
		{ fail "wrong latency note"; return; }
	pass
}

t_duration_all() {
	local t
	for t in read_bw send_bw atomic_bw send_lat read_lat; do
		begin "$t -D 1 (duration mode)"
		client "$t" -D 1 || { fail "exit $?"; continue; }
		expect_in "$WORK/out" "for 1 s" "Data check +: ok" >"$WORK/why" ||
			{ fail "$(cat "$WORK/why")"; continue; }
		pass
	done
}

# A size list times a QP list in one invocation, one connection.
t_matrix() {
	local rows
	begin "matrix: -s 64,4K,64K -q 1,2 in one invocation"
	client write_bw -s 64,4K,64K -q 1,2 -n 100 || { fail "exit $?"; return; }
	rows=$(awk '$1 ~ /^(64|4096|65536)$/ && NF >= 5' "$WORK/out" | wc -l)
	[ "$rows" -eq 6 ] || { fail "$rows result rows, want 6"; return; }
	expect_out "-- 1 QP" "-- 2 QP" "Sweep +: 3 size\(s\) x 2 QP" \
		"Data check +: ok at all 6 points, $(((64 + 4096 + 65536) * 3)) bytes" || return
	pass
	begin "range: send_lat -s 2:512:x4 gives 2, 8, 32, 128, 512"
	client send_lat -s 2:512:x4 -n 50 || { fail "exit $?"; return; }
	rows=$(awk '$1 ~ /^(2|8|32|128|512)$/ && NF == 9' "$WORK/out" | wc -l)
	[ "$rows" -eq 5 ] || { fail "$rows result rows, want 5"; return; }
	pass
}

# The JSON document: valid, with the documented keys and sane values.
# perftest's names, as a wrapper passes them: -U and -C on a latency
# test, --out_json into the working directory, --bind_source_ip.
t_perftest_names() {
	local dir=$WORK/pt-json n
	begin "perftest's -U -C: every sample, in CPU cycles"
	client write_lat -n 100 -U -C || { fail "exit $?"; return; }
	expect_out "t_min\[cycles\]" "every sample \[cycles\], in the order measured" \
		"^   100 [0-9]+\.[0-9]{3}$" || return
	n=$(grep -cE '^   [0-9]+ [0-9]+\.[0-9]{3}$' "$WORK/out")
	[ "$n" -eq 100 ] || { fail "$n sample lines, not 100"; return; }
	pass
	begin "perftest's --out_json: perftest_out.json in the working directory"
	rm -rf "$dir" && mkdir -p "$dir"
	(cd "$dir" && run_limited "$LIMIT" "$BUILD/rdmaperf" write_bw -n 100 \
		--out_json --report_gbits -d "$DEV" -p "$PORT" "$ADDR") \
		>"$WORK/out" 2>&1 || { fail "exit $?"; return; }
	expect_out "BW average\[Gb/sec\]" || return
	expect_json "$dir/perftest_out.json" '.parameters.test == "write_bw"' \
		'.results[0].data_check.ok' || return
	pass
	begin "perftest's --bind_source_ip: this host's address works, another is named"
	client write_bw -n 100 --bind_source_ip "$ADDR" ||
		{ fail "exit $?"; return; }
	run_limited "$LIMIT" "$BUILD/rdmaperf" write_bw -n 100 \
		--bind_source_ip 192.0.2.1 -d "$DEV" -p "$PORT" "$ADDR" \
		>"$WORK/out" 2>&1 && { fail "exit 0 from 192.0.2.1"; return; }
	expect_out "--bind_source_ip 192.0.2.1: not an address of this host" ||
		return
	pass
}

# perftest on the other side: rdmaperf-server and rdmaperf's client name a
# perftest peer they cannot serve, nothing hangs, the server serves on;
# --perftest speaks perftest's protocol.
t_perftest_peers() {
	local port=$((PORT + 9)) spid rc
	begin "a perftest client before 6.28 at rdmaperf-server: told the one-shot command, server serves on"
	command -v ib_write_bw >/dev/null || { skip "perftest not installed"; return; }
	run_limited 30 ib_write_bw -d "$DEV" -p "$PORT" -n 10 "$ADDR" \
		>"$WORK/pt-client.log" 2>&1 && { fail "ib_write_bw: exit 0"; return; }
	expect_file "$WORK/server.log" \
		"perftest [0-9.]+ client from [0-9.:]+ brings no test parameters .*: start a one-shot .rdmaperf TEST --perftest \[its options\] -p PORT." ||
		return
	client write_bw -n 100 || { fail "the next client: exit $?"; return; }
	pass
	begin "rdmaperf at an ib_write_bw server: one line naming it, no hang"
	run_limited 30 ib_write_bw -d "$DEV" -p "$port" -n 10 \
		>"$WORK/pt-server.log" 2>&1 &
	spid=$!
	wait_tcp_listen "$port" || { fail "ib_write_bw did not listen"; return; }
	run_limited 30 "$BUILD/rdmaperf" write_bw -n 10 -d "$DEV" -p "$port" \
		"$ADDR" >"$WORK/out" 2>&1 && { fail "exit 0"; return; }
	wait "$spid"
	expect_out "is a perftest ib_\* server \(version [0-9]+\.[0-9]+\): this side speaks rdmaperf's protocol; run rdmaperf-server there" ||
		return
	[ "$(grep -c "error:" "$WORK/out")" -eq 1 ] ||
		{ fail "not one error line"; return; }
	pass
	# Counted runs (-n) where the case is not about -D, -D 1 where it
	# is; the main pass runs the bandwidth sweeps (-a) of the client
	# (with -b) and of the send_bw receiver, and the shapes that the
	# plain cases of t_perftest_interop do not; RDP_PT_MATRIX=full the
	# rest of the matrix (every sweep, size and -D, 20 minutes more).
	pt_every && pt_client write_bw -n 500 -s 65536 -q 2
	pt_client read_bw -n 1000 -s 4096
	pt_client write_bw -D 1 -s 65536 --report_gbits
	pt_every && pt_client write_bw -a -n 5
	pt_client atomic_bw -n 1000 -q 2
	pt_every && PT_FIELDS=2 pt_client send_bw -n 1000 -s 4096 -q 2
	pt_every && PT_FIELDS=2 pt_client send_bw -a -n 5
	pt_every && PT_FIELDS=1 pt_client write_lat -n 500 -s 2
	pt_every && PT_FIELDS=1 pt_client write_lat -a -n 5
	PT_FIELDS=0 pt_client read_lat -n 500 -s 4096
	PT_FIELDS=0 pt_client atomic_lat -n 500
	PT_FIELDS=1 pt_client send_lat -n 500 -s 4096
	pt_every && PT_FIELDS=1 pt_client send_lat -D 2
	PT_FIELDS=2 pt_client write_bw -b -n 200 -s 65536 -q 2
	pt_full && PT_FIELDS=2 pt_client read_bw -b -a -n 5
	PT_FIELDS=2 pt_client send_bw -b -n 1000 -s 4096 -q 2
	pt_every && PT_FIELDS=1 pt_client send_bw -b -D 1 -q 2
	pt_serve_each
	pt_json
	pt_new_at_server
	pt_bad_handshakes
}

# --json with a perftest peer: rdmaperf's own document, which names the
# peer, and marks figures it did not measure.
pt_json() {
	local port=$((PORT + 11)) spid rc doc=$WORK/pt.json i
	begin "rdmaperf write_lat --perftest --json -U against ib_write_lat: the document names perftest, every sample"
	run_limited 60 ib_write_lat -d "$DEV" -p "$port" -n 300 \
		>"$WORK/pt-server.log" 2>&1 &
	spid=$!
	wait_tcp_listen "$port" || { fail "ib_write_lat did not listen"; return; }
	run_limited 60 "$BUILD/rdmaperf" write_lat --perftest --json -U \
		-n 300 -d "$DEV" -p "$port" "$ADDR" >"$doc" 2>"$WORK/out"
	rc=$?
	wait "$spid" || { fail "ib_write_lat: exit $?"; return; }
	[ "$rc" -eq 0 ] || { fail "rdmaperf: exit $rc"; return; }
	# The side that waits first measures one round trip fewer.
	jq -e '(.perftest_peer.version | test("^[0-9]+\\.[0-9]+$")) and
		.perftest_peer.role == "server" and .server == null and
		(.results | length == 1) and .results[0].test == "write_lat" and
		.results[0].iterations == 299 and
		(.results[0].samples_us | length == 299) and
		.results[0].lat_p50_us > 0 and .results[0].warmup_iters == 0' \
		"$doc" >/dev/null || { fail "document check failed"; cp "$doc" "$WORK/out"; return; }
	pass
	begin "one-shot write_bw --perftest --json-file: the client's figures, marked as the client's"
	run_limited 60 "$BUILD/rdmaperf" write_bw --perftest -n 300 \
		--json-file "$doc" -d "$DEV" -p "$port" >"$WORK/pt-server.log" 2>&1 &
	spid=$!
	for i in $(seq 1 50); do
		grep -q "waiting for one perftest client" "$WORK/pt-server.log" &&
			break
		sleep 0.1
	done
	run_limited 60 ib_write_bw -d "$DEV" -p "$port" -n 300 "$ADDR" \
		>"$WORK/out" 2>&1 || { fail "ib_write_bw: exit $?"; return; }
	wait "$spid" || { fail "rdmaperf: exit $?"; return; }
	jq -e '.perftest_peer.role == "client" and
		.results[0].measured_by == "perftest client" and
		.results[0].iterations == 300 and .results[0].bw_avg_gbps > 0' \
		"$doc" >/dev/null || { fail "document check failed"; cp "$doc" "$WORK/out"; return; }
	pass
}

# Each perftest client against rdmaperf's one-shot server: the SEND,
# WRITE and READ tests at 2, 4096 and 65536 B (the bandwidth tests on 4
# QPs), the atomics at their 8 B, then -a, -D. The RDMA bandwidth server
# prints the client's row; the send_bw receiver and the ping-pongs their
# own (size and count compared); READ and atomic latency servers are
# passive and print none.
pt_serve_each() {
	local t s sizes k=0
	for t in write_bw read_bw send_bw write_lat read_lat send_lat; do
		# One size a loop, 2 and 65536 B in turn: the sizes differ in
		# figures, not in code (RDP_PT_MATRIX=full runs 2, 4096 and
		# 65536 B each; the reduced pass 4096).
		sizes=$((k++ % 2 ? 65536 : 2))
		short_pass && sizes=4096
		pt_every && sizes="2 4096 65536"
		for s in $sizes; do
			case $t in
			write_bw | read_bw) pt_server "$t" -s "$s" -n 200 -q 4 ;;
			send_bw) PT_FIELDS=2 pt_server "$t" -s "$s" -n 200 -q 4 ;;
			read_lat) PT_FIELDS=0 pt_server "$t" -s "$s" -n 200 ;;
			*) PT_FIELDS=1 pt_server "$t" -s "$s" -n 200 ;;
			esac
		done
	done
	pt_server atomic_bw -n 200 -q 4
	PT_FIELDS=0 pt_server atomic_lat -n 200
	pt_every && pt_server write_bw -a -n 5
	pt_full && PT_FIELDS=2 pt_server send_bw -a -n 5
	pt_full && PT_FIELDS=1 pt_server write_lat -a -n 5
	pt_every && PT_FIELDS=1 pt_server send_lat -a -n 20
	# -D: perftest's duration handshake, the same code at any size and
	# length: one bandwidth and one latency case of it, 1 s each.
	pt_server write_bw -D 1 -s 65536
	pt_every && PT_FIELDS=1 pt_server send_bw -D 2 -q 4
	pt_every && PT_FIELDS=1 pt_server write_lat -D 2
	PT_FIELDS=1 pt_server send_lat -D 1
	PT_FIELDS=2 pt_server write_bw -b -n 1000 -s 4096 -q 4
	pt_every && PT_FIELDS=2 pt_server read_bw -b -a -n 5
	PT_FIELDS=1 pt_server write_bw -b -D 1 --report_gbits
	# send_bw -b: perftest's counted duplex (-n each way, no end marks);
	# under -D each side prints its own, both directions in one figure.
	PT_FIELDS=2 pt_server send_bw -b -n 1000 -s 4096 -q 2
	PT_FIELDS=1 pt_server send_bw -b -D 1
}

# Bytes as a perftest client would send them, then a close: $1 is what
# to send (a command writing to stdout), $2 how long to wait first.
pt_raw() {
	local fd
	exec {fd}<>"/dev/tcp/$ADDR/$PORT" || return 1
	"$1" >&"$fd" 2>/dev/null
	sleep "${2:-0.5}"
	exec {fd}>&-
}

# perftest's version string: 16 bytes, NUL padded.
pt_version() { printf '%s' "$1"; head -c $((16 - ${#1})) /dev/zero; }
pt_garbled() { pt_version 6.2x; }
pt_old() { pt_version 5.60; }
pt_truncated() { pt_version 6.28; printf '\0\0'; }
# Version, page size, cache line, MTU (1024), and a 320-byte block for
# write_bw at 65536 B x 100 on one QP; then the client stops, before its
# key message.
pt_halfway() {
	pt_version 6.28
	printf '\0\0\020\0\0\0\0\1003\0'
	printf '\0\0\0\0\0\0\0\0\0\0\0\2\0\0\0\1\0\0\0\0\0\0\0\0\0\0\0\1'
	printf '\0\0\0\0' # padding
	printf '\0\0\0\0\0\1\0\0\0\0\0\0\0\0\0\144' # size, iterations
	printf '\0\0\0\0\0\0\0\1\0\0\0\5' # aes_xts, QPs, duration
	head -c 260 /dev/zero
}

# Broken perftest handshakes at rdmaperf-server: one line each, with the
# client's address and the step, and the next client is served.
pt_bad_handshakes() {
	local gen want
	for gen in pt_garbled pt_old pt_truncated pt_halfway; do
		case $gen in
		pt_garbled) want="client [0-9.:]+ sent no valid perftest version: is it a perftest ib_\* client\?" ;;
		pt_old) want="perftest 5.60 client at [0-9.:]+ is older than 5.70, which this side speaks: upgrade perftest there" ;;
		pt_truncated) want="perftest client [0-9.:]+ closed the connection during the page size exchange" ;;
		pt_halfway) want="perftest client [0-9.:]+ closed the connection during the QP exchange" ;;
		esac
		begin "a perftest client that sends ${gen#pt_} bytes: named in one line, the server serves on"
		pt_raw "$gen" || { fail "cannot connect"; continue; }
		wait_in "$WORK/server.log" "$want"
		expect_file "$WORK/server.log" "$want" || continue
		client write_bw -n 100 || { fail "the next client: exit $?"; continue; }
		pass
	done
}

# perftest 6.28 or later (RDP_PERFTEST_NEW_DIR holds its ib_* programs;
# Debian 12 ships 6.06) at the persistent server, which takes the test
# from its parameter block: no options on the server's side.
pt_new_at_server() {
	local dir=${RDP_PERFTEST_NEW_DIR:-} args
	if ! [ -x "$dir/ib_write_bw" ]; then
		begin "perftest 6.28+ clients at rdmaperf-server: served from their block"
		skip "no perftest 6.28 or later (RDP_PERFTEST_NEW_DIR)"
		return
	fi
	for args in "write_bw -n 1000 -s 65536 -q 2" "read_bw -a -n 5" \
		"send_bw -n 200 -q 2" "atomic_bw -n 200" "write_lat -n 200 -s 2" \
		"read_lat -a -n 5" "send_lat -n 200 -s 4096" "atomic_lat -n 200"; do
		begin "perftest 6.28+ ib_${args%% *} ${args#* } at rdmaperf-server: served from its block"
		[ -x "$dir/ib_${args%% *}" ] ||
			{ skip "no $dir/ib_${args%% *}"; continue; }
		# shellcheck disable=SC2086
		run_limited 120 "$dir/ib_${args%% *}" -d "$DEV" -p "$PORT" \
			${args#* } "$ADDR" >"$WORK/out" 2>&1 ||
			{ fail "exit $?"; continue; }
		expect_file "$WORK/server.log" \
			"client [0-9.]+: perftest [0-9.]+, ${args%% *}," || continue
		pass
	done
	pt_new_bidir_at_server "$dir"
}

# perftest 6.28+ -b clients at rdmaperf-server, whose block does not say
# -b: where the client gives it away (a sweep's barrier after its first
# size, send_bw's missing closing barrier, any barrier long before a -D
# run's end) one line names the one-shot server, the client fails within
# seconds, and the next client is served. (On one size under -n the
# RDMA tests' -b looks one-way on the wire, and is served one way.)
pt_new_bidir_at_server() {
	local dir=$1 args t0 took
	for args in "write_bw -b -a -n 5" "send_bw -b -n 200 -q 2" \
		"read_bw -b -D 4"; do
		begin "perftest 6.28+ ib_${args%% *} ${args#* } at rdmaperf-server: refused in one line naming the one-shot server"
		t0=$SECONDS
		# shellcheck disable=SC2086
		run_limited 60 "$dir/ib_${args%% *}" -d "$DEV" -p "$PORT" \
			${args#* } "$ADDR" >"$WORK/out" 2>&1 &&
			{ fail "exit 0"; continue; }
		took=$((SECONDS - t0))
		[ "$took" -le 20 ] || { fail "the client took $took s to end"; continue; }
		expect_file "$WORK/server.log" \
			"perftest [0-9.]+ client from [0-9.:]+ runs ${args%% *} -b \(.*\), which its parameter block does not carry: .*one-shot .rdmaperf ${args%% *} -b --perftest" ||
			continue
		client write_bw -n 100 || { fail "the next client: exit $?"; continue; }
		pass
	done
}

# An unmodified ib_TEST client against rdmaperf TEST --perftest without
# HOST (a one-shot server): both exit 0, rdmaperf prints the client's
# (last) row.
pt_server() {
	local test=$1 port=$((PORT + 10)) spid rc src mine theirs i
	shift
	begin "ib_$test $* against rdmaperf $test --perftest (one-shot): both ends agree"
	run_limited 60 "$BUILD/rdmaperf" "$test" --perftest -d "$DEV" \
		-p "$port" "$@" >"$WORK/pt-server.log" 2>&1 &
	spid=$!
	for i in $(seq 1 50); do
		grep -q "waiting for one perftest client" "$WORK/pt-server.log" &&
			break
		sleep 0.1
	done
	run_limited 60 "ib_$test" -d "$DEV" -p "$port" "$@" "$ADDR" \
		>"$WORK/out" 2>&1
	rc=$?
	wait "$spid"
	src=$?
	if [ "$src" -ne 0 ] || [ "$rc" -ne 0 ]; then
		# perftest's clock, not rdmaperf, gave up
		if pt_own_clock "$WORK/out" &&
			pt_left_us "$src" "$WORK/pt-server.log" client; then
			pt_again &&
				{ PT_AGAIN=$((${PT_AGAIN:-0} + 1)) pt_server "$test" "$@"; return; }
			skip "perftest's own clock estimate gave up three times (Can't produce a report)"
			return
		fi
		tail -n 15 "$WORK/pt-server.log" >>"$WORK/out"
		fail "rdmaperf: exit $src, ib_$test: exit $rc"
		return
	fi
	expect_file "$WORK/pt-server.log" "Peer +: perftest [0-9.]+ client from" ||
		return
	if [ "${PT_FIELDS:-3}" = 0 ]; then
		expect_file "$WORK/pt-server.log" "Figures +: none here" &&
			pass
		return
	fi
	mine=$(pt_row "$WORK/pt-server.log")
	theirs=$(pt_row "$WORK/out")
	[ -n "$mine" ] && [ "$mine" = "$theirs" ] ||
		{ fail "rdmaperf row '$mine', ib_$test row '$theirs'"; return; }
	pt_sums "$test" "$*" && { pt_bidir_sum "$WORK/pt-server.log" "$WORK/out" || return; }
	pass
}

# pt_sums TEST ARGS: a -b run whose sides exchange their figures, which
# perftest sums (send_bw -b -D does not: each side prints its own count
# of both directions).
pt_sums() {
	case " $2 " in *" -b "*) ;; *) return 1 ;; esac
	case " $2 " in *" -D "*) [ "$1" != send_bw ] ;; esac
}

# -b: perftest prints the sum of both directions; rdmaperf prints its TX
# and its RX (the figures the peer sent): their sum must be perftest's
# average, to the rounding of the three printed figures.
pt_bidir_sum() {
	local tx rx theirs
	tx=$(awk '/TX \(this side\)/ {for (i = 1; i < NF; i++) if ($i == "average") v = $(i + 1)} END {print v}' "$1")
	rx=$(awk '/RX \(the (server|client)\)/ {for (i = 1; i < NF; i++) if ($i == "average") v = $(i + 1)} END {print v}' "$1")
	theirs=$(PT_FIELDS=3 pt_row "$2" | awk '{print $3}')
	awk -v a="$tx" -v b="$rx" -v c="$theirs" 'BEGIN {
		d = a + b - c; if (d < 0) d = -d
		exit !(a != "" && b != "" && c != "" && d <= 0.02) }' ||
		{ fail "TX $tx + RX $rx is not perftest's $theirs"; return 1; }
}

# perftest 6.06 estimates the CPU's clock before each report and gives up
# when the estimate is noisy ("Correlation coefficient r^2 ... < 0.9",
# "Can't produce a report"), which a guest under emulation sometimes is,
# the more often the more sizes a run reports (-a): its own failure, not
# the exchange's; such a run is repeated, twice at most, and then counted
# skipped with that reason, not passed. rdmaperf's own exit status stays a
# check (pt_left_us): a run where rdmaperf failed for another reason is a
# failure, never retried.
pt_own_clock() {
	grep -q "Can't produce a report" "$1"
}

# pt_left_us RC LOG ROLE: rdmaperf (exit RC, output LOG) either finished
# (0) or said, exiting 1, that its perftest ROLE closed the connection:
# what a perftest that gave up on its clock does to its peer.
pt_left_us() {
	[ "$1" -eq 0 ] && return 0
	[ "$1" -eq 1 ] &&
		grep -Eq "^rdmaperf: error: perftest $3 [^ ]+ closed the connection during " "$2"
}

pt_again() {
	[ "${PT_AGAIN:-0}" -lt 2 ]
}

# The sanitizer pass (RDP_PT_MATRIX=short) leaves out perftest's -a
# sweeps: their sizes differ in figures, not in code, and each size is one
# more clock estimate for perftest to give up on.
pt_full() {
	! short_pass
}

# The main pass runs three of perftest's -a sweeps: read_bw -b from
# rdmaperf's client, and ib_send_bw -a (rdmaperf receiving) and
# ib_write_lat -a at the one-shot server; RDP_PT_MATRIX=full (by hand) runs every
# test's, and a third size in pt_serve_each: within the suite's time they
# would add minutes of the same messages at other sizes.
pt_every() {
	[ "${RDP_PT_MATRIX:-}" = full ]
}

# The last row of a result table: size, iterations and average; with
# PT_FIELDS=2 size and iterations; with 1 the size alone (each side of a
# ping-pong measures its own, one round trip fewer on the side that waits
# first).
pt_row() {
	awk '$1 ~ /^[0-9]+$/ && NF >= 4 {r = $0} END {print r}' "$1" |
		awk -v f="${PT_FIELDS:-3}" '{ if (f == 3) print $1, $2, $4; else if (f == 2) print $1, $2; else print $1 }'
}

# rdmaperf TEST --perftest against an unmodified ib_TEST server started
# with the same options: both exit 0, and the server prints the figures
# rdmaperf sent it, which are rdmaperf's own (with -a, of the last size).
pt_client() {
	local test=$1 port=$((PORT + 9)) spid rc src row mine theirs
	shift
	begin "rdmaperf $test --perftest $* against ib_$test: both ends agree"
	run_limited 60 "ib_$test" -d "$DEV" -p "$port" "$@" \
		>"$WORK/pt-server.log" 2>&1 &
	spid=$!
	wait_tcp_listen "$port" ||
		{ fail "ib_$test did not listen: $(cat "$WORK/pt-server.log")"; return; }
	run_limited 60 "$BUILD/rdmaperf" "$test" --perftest -d "$DEV" \
		-p "$port" "$@" "$ADDR" >"$WORK/out" 2>&1
	rc=$?
	wait "$spid"
	src=$?
	if [ "$src" -ne 0 ]; then
		# perftest's own clock estimate, not the exchange, failed:
		# again, twice at most.
		if pt_own_clock "$WORK/pt-server.log" &&
			pt_left_us "$rc" "$WORK/out" server; then
			pt_again &&
				{ PT_AGAIN=$((${PT_AGAIN:-0} + 1)) pt_client "$test" "$@"; return; }
			skip "perftest's own clock estimate gave up three times (Can't produce a report)"
			return
		fi
		tail -n 15 "$WORK/pt-server.log" >>"$WORK/out"
		fail "ib_$test: exit $src, rdmaperf: exit $rc"
		return
	fi
	[ "$rc" -eq 0 ] || { fail "rdmaperf: exit $rc"; return; }
	expect_out "Peer +: perftest [0-9.]+ server at" || return
	# The last result row: size, iterations, average on both sides
	# (ib_send_bw prints what it received: size and iterations alone).
	# With PT_FIELDS=0 the perftest server was passive and prints none.
	mine=$(pt_row "$WORK/out")
	theirs=$(pt_row "$WORK/pt-server.log")
	[ "${PT_FIELDS:-3}" = 0 ] && mine=${mine:+none}
	[ -n "$mine" ] && [ "${mine#none}" = "$theirs" ] ||
		{ fail "rdmaperf row '$mine', ib_$test row '$theirs'"; return; }
	pt_sums "$test" "$*" && { pt_bidir_sum "$WORK/out" "$WORK/pt-server.log" || return; }
	pass
}

t_json() {
	local doc=$WORK/doc.json
	begin "--json: one valid document on stdout with the documented keys"
	run_limited "$LIMIT" "$BUILD/rdmaperf" write_bw -s 4K,64K -q 1,2 -n 100 \
		--json -d "$DEV" -p "$PORT" "$ADDR" >"$doc" 2>"$WORK/out" ||
		{ fail "exit $?"; return; }
	jq -e '
		.tool == "rdmaperf" and (.version | type == "string") and
		(.timestamp | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T")) and
		(.client.hostname | type == "string") and
		(.server.kernel | type == "string") and
		.device.name == env.RDP_RXE_DEV0 and .device.link_layer == "Ethernet" and
		.gid.type == "RoCE v2" and (.path_mtu_bytes | . >= 256) and
		.parameters.test == "write_bw" and .parameters.iterations == 100 and
		(.results | length == 4) and
		([.results[] | .bw_avg_gbps > 0 and .bw_peak_gbps >= .bw_avg_gbps and
		  .msg_rate_mpps > 0 and .data_check.ok] | all) and
		([.results[] | .num_qps] == [1, 1, 2, 2]) and
		([.results[] | .size_bytes] == [4096, 65536, 4096, 65536]) and
		([.results[] | .iterations] == [100, 100, 200, 200])
	' "$doc" >/dev/null || { fail "document check failed"; cp "$doc" "$WORK/out"; return; }
	bed_page "$doc" sweep.json
	pass
	begin "--json-file with a latency test: table on stdout, document in the file"
	client write_lat -s 2,64 -n 200 --json-file "$doc" ||
		{ fail "exit $?"; return; }
	grep -q "t_typical" "$WORK/out" || { fail "no text table"; return; }
	jq -e '
		(.results | length == 2) and
		([.results[] | .latency_kind == "one-way" and .lat_samples == 200 and
		  .lat_min_us > 0 and .lat_min_us <= .lat_p50_us and
		  .lat_p50_us <= .lat_p99_us and .lat_p99_us <= .lat_p999_us and
		  .lat_p999_us <= .lat_max_us and .warmup_iters == 100] | all)
	' "$doc" >/dev/null || { fail "latency document check failed"; return; }
	bed_page "$doc" lat.json
	pass
	begin "--metrics: a real sweep's OpenMetrics file, the samples it must have (the parser reads it after the tiers)"
	client write_bw -s 4K,64K -n 100 --metrics "$WORK/run.prom" ||
		{ fail "exit $?"; return; }
	bed_page "$WORK/run.prom" run.prom
	grep -Eq '^rdmaperf_bandwidth_bytes_per_second\{.*size="65536".*\} [0-9.e+]+$' \
		"$WORK/run.prom" || { fail "no 64 KiB bandwidth sample"; cp "$WORK/run.prom" "$WORK/out"; return; }
	grep -Eq '^rdmaperf_pass\{.*\} 1$' "$WORK/run.prom" ||
		{ fail "no passing verdict"; cp "$WORK/run.prom" "$WORK/out"; return; }
	pass
}

# Memory knobs: PCIe relaxed ordering asked for by default (and off on
# request), host buffers in huge pages from the kernel's pool.
t_memory_knobs() {
	local doc=$WORK/mem.json old rc
	begin "PCIe relaxed ordering: requested by default, off with --disable_pcie_relaxed"
	client write_bw -n 100 --json-file "$doc" || { fail "exit $?"; return; }
	expect_out "Registration +: PCIe relaxed ordering requested" || return
	expect_json "$doc" '.memory.relaxed_ordering == true' || return
	client write_bw -n 100 --disable_pcie_relaxed --json-file "$doc" ||
		{ fail "exit $?"; return; }
	expect_out "Registration +: PCIe relaxed ordering off \(--disable_pcie_relaxed\)" ||
		return
	expect_json "$doc" '.memory.relaxed_ordering == false' || return
	pass
	old=$(cat /proc/sys/vm/nr_hugepages)
	begin "--use_hugepages with none reserved: one line naming vm.nr_hugepages, exit 1"
	echo 0 >/proc/sys/vm/nr_hugepages
	client write_bw -n 100 --use_hugepages
	rc=$?
	[ "$rc" -eq 1 ] || { fail "exit $rc, wanted 1"; return; }
	expect_out "--use_hugepages: no [0-9]+ MiB of free 2 MiB huge pages .*: reserve them first, e.g. sysctl vm.nr_hugepages=[0-9]+" ||
		return
	[ "$(grep -c "error:" "$WORK/out")" -eq 1 ] ||
		{ fail "not one error line"; return; }
	pass
	begin "--use_hugepages with pages reserved: buffers in huge pages, data check ok"
	echo 64 >/proc/sys/vm/nr_hugepages
	client write_bw -s 4K,1M -n 100 --use_hugepages --json-file "$doc"
	rc=$?
	echo "$old" >/proc/sys/vm/nr_hugepages
	[ "$rc" -eq 0 ] || { fail "exit $rc"; return; }
	expect_out "Registration +: PCIe relaxed ordering requested, host buffers in 2 MiB huge pages" ||
		return
	expect_json "$doc" '.memory.hugepages == true' \
		'[.results[].data_check.ok] == [true, true]' || return
	pass
}

# --cpu_util: what each side's process spent in the timed region. The
# client busy-polls its completions; write_bw's server is passive and
# waits on TCP (rxe's own work runs in the kernel, not in the process).
t_cpu_util() {
	local doc=$WORK/cpu.json
	begin "--cpu_util: the polling client near a whole CPU, the passive server near none, per message"
	client write_bw -D 2 -s 4096 --cpu_util --json-file "$doc" ||
		{ fail "exit $?"; return; }
	expect_out "CPU here +: user [0-9.]+ s, system [0-9.]+ s, [0-9.]+% of one CPU, [0-9.]+ us a message; host [0-9.]+% busy" \
		"CPU server +: user [0-9.]+ s, system [0-9.]+ s, [0-9.]+% of one CPU" ||
		return
	expect_json "$doc" '.results[0].cpu.this_side.cpu_pct > 50' \
		'.results[0].cpu.peer.cpu_pct < 50' \
		'.results[0].cpu.this_side.per_msg_us > 0' \
		'.results[0].cpu.peer.wall_s >= 1.5' || return
	pass
}

# Path knobs: sent to the server with the test, on both sides' QPs, in the
# header and the JSON; a P_Key index past the port's table is refused.
t_path_knobs() {
	local doc=$WORK/path.json rc
	begin "--sl --flow_label --hop_limit --retry_count --rnr_retry: both sides' QPs, header and JSON"
	client write_bw -n 200 --sl 1 --flow_label 74565 --hop_limit 8 \
		--retry_count 5 --rnr_retry 6 --json-file "$doc" ||
		{ fail "exit $?"; return; }
	expect_out "Path +: SL 1, traffic class 0, flow label 0x12345, hop limit 8, P_Key index 0, retries 5, RNR retries 6, ACK timeout 14" \
		"Data check +: ok" || return
	expect_json "$doc" '.parameters.sl == 1' \
		'.parameters.flow_label == 74565' '.parameters.hop_limit == 8' \
		'.parameters.retry_count == 5' '.parameters.rnr_retry == 6' \
		'.parameters.pkey_index == 0' || return
	pass
	begin "--pkey_index past the port's P_Key table: one line naming pkey_tbl_len, exit 77"
	client write_bw -n 10 --pkey_index 4000
	rc=$?
	[ "$rc" -eq 77 ] || { fail "exit $rc, wanted 77"; return; }
	expect_out "--pkey_index 4000: port 1 of $DEV has [0-9]+ P_Key table entr(y|ies) \(pkey_tbl_len\): use 0\.\.[0-9]+" ||
		return
	client write_bw -n 100 || { fail "the next run: exit $?"; return; }
	pass
}

# -c UC and -c UD: the tests each transport carries, data checked on
# every one, loss counted by the receiver; what a transport cannot carry
# is refused before anything is connected.
t_transports() {
	local doc=$WORK/tr.json t tp rc
	for t in "UC write_bw -n 2000 -q 2" "UC write_lat -n 300" \
		"UC send_bw -n 2000 -q 2" "UC send_lat -n 300" \
		"UD send_bw -n 2000 -q 2" "UD send_lat -n 300 -s 2" \
		"UD send_bw -D 1 -s 512"; do
		tp=${t%% *} t=${t#* }
		begin "-c $tp ${t}: $tp QPs on both sides, data check ok"
		# shellcheck disable=SC2086
		client $t -c "$tp" --json-file "$doc" || { fail "exit $?"; continue; }
		expect_out "QPs +: [0-9]+ $tp, " "Data check +: ok" || continue
		expect_json "$doc" ".parameters.transport == \"$tp\"" || continue
		case $t in
		send_bw*)
			expect_out "Loss +: [0-9]+ of [0-9]+ messages sent never arrived \([0-9.]+ %\), counted by the receiver" ||
				continue
			expect_json "$doc" '.results[0].loss.sent > 0' \
				'.results[0].loss.received > 0' \
				'.results[0].loss.lost == .results[0].loss.sent - .results[0].loss.received' ||
				continue
			;;
		*) ! grep -q "Loss " "$WORK/out" || { fail "a loss line outside send_bw"; continue; } ;;
		esac
		pass
	done
	begin "-c UD -r 1: a receiver one receive deep drops datagrams, and the loss is counted, not an error"
	client send_bw -c UD -s 1024 -n 3000 -r 1 -t 128 --json-file "$doc" ||
		{ fail "exit $?"; return; }
	expect_out "Data check +: ok" \
		"Loss +: [1-9][0-9]* of 3000 messages sent never arrived" || return
	# 128 in flight at one receive posted: some are dropped (a run that
	# lost none did not test the count)
	expect_json "$doc" '.results[0].loss.sent == 3000' \
		'.results[0].loss.lost > 0' '.results[0].loss.received > 0' \
		'.results[0].loss.lost == .results[0].loss.sent - .results[0].loss.received' ||
		return
	echo "# UD -r 1: $(jq -c .results[0].loss "$doc")"
	pass
	begin "-c UD -s past the path MTU: one line naming the MTU, the server goes on"
	client send_bw -c UD -s 4096 -n 10
	rc=$?
	[ "$rc" -ne 0 ] || { fail "exit 0"; return; }
	expect_out "-s 4096: a UD message travels as one packet and must fit the path MTU of [0-9]+ bytes: use -s [0-9]+ or less" ||
		return
	client send_bw -c UD -s 256 -n 100 || { fail "the next run: exit $?"; return; }
	pass
	# The -c refusals (exit 2) are usage errors: test_opts, test_usage_lines.
	begin "-c XRC where the device has none: one line naming IBV_DEVICE_XRC, exit 77; -R -c UD: exit 2"
	client send_bw -c XRC -n 10
	rc=$?
	[ "$rc" -eq 77 ] || { fail "XRC: exit $rc, wanted 77"; return; }
	expect_out "-c XRC: $DEV reports no XRC \\(IBV_DEVICE_XRC is not in the device_cap_flags 0x[0-9a-f]+ of ibv_query_device\\): use -c RC" || return
	client send_bw -c UD -R -n 10
	rc=$?
	[ "$rc" -eq 2 ] || { fail "-R: exit $rc, wanted 2"; return; }
	expect_out "-R connects RC QPs: drop -R to run -c UD" || return
	pass
}

# Immediate data: every write or send carries it; with --write_with_imm
# the server counts a receive completion per write, which on UC makes
# WRITE's loss countable.
t_immediate() {
	local doc=$WORK/imm.json t
	for t in "write_bw --write_with_imm -n 2000 -q 2" \
		"write_bw --write_with_imm -D 1" \
		"send_bw --send_with_imm -n 2000 -q 2" \
		"send_lat --send_with_imm -n 300" "write_lat --write_with_imm -n 300" \
		"write_lat --write_with_imm -D 1 -c UC" \
		"send_bw --send_with_imm -n 1000 -c UD"; do
		begin "${t}: with immediate data, data check ok"
		# shellcheck disable=SC2086
		client $t --json-file "$doc" || { fail "exit $?"; continue; }
		expect_out "QPs +: .*, with immediate data" "Data check +: ok" ||
			continue
		expect_json "$doc" '.parameters.immediate == true' || continue
		pass
	done
	begin "write_bw --write_with_imm -c UC: the server's completions count the writes that arrived"
	client write_bw --write_with_imm -c UC -n 1500 -q 2 --json-file "$doc" ||
		{ fail "exit $?"; return; }
	expect_json "$doc" '.results[0].loss.sent == 3000' \
		'.results[0].loss.received > 0' \
		'.results[0].loss.received <= 3000' || return
	pass
}

# --use-srq: every QP's receives on one shared queue, on both sides; the
# data check finds each peer QP's pattern where its messages landed.
t_srq() {
	local doc=$WORK/srq.json t rc
	for t in "send_bw -q 4 -n 1000" "send_bw -q 2 -D 1 -c UD" \
		"send_bw -q 3 -n 500 --send_with_imm -c UC" "send_lat -n 300" \
		"send_bw -q 4 -n 1000 -R"; do
		begin "--use-srq ${t}: one shared receive queue, data check ok"
		# shellcheck disable=SC2086
		client $t --use-srq --json-file "$doc" || { fail "exit $?"; continue; }
		expect_out "QPs +: .*, receives on one shared queue" \
			"Data check +: ok" || continue
		expect_json "$doc" '.parameters.srq == true' || continue
		pass
	done
	begin "--use-srq -q x -r past the device's max_srq_wr: one line naming it, exit 77"
	local srq_wr qp_wr r q
	srq_wr=$(ibv_devinfo -v -d "$DEV" | awk '$1 == "max_srq_wr:" { print $2; exit }')
	qp_wr=$(ibv_devinfo -v -d "$DEV" | awk '$1 == "max_qp_wr:" { print $2; exit }')
	[ -n "$srq_wr" ] && [ -n "$qp_wr" ] || { skip "ibv_devinfo shows no max_srq_wr"; return; }
	r=$((qp_wr < srq_wr ? qp_wr : srq_wr))
	r=$((r < 65536 ? r : 65536)) # -r's own range
	q=$((srq_wr / r + 1))
	client send_bw --use-srq -q "$q" -r "$r" -t 16 -n 10
	rc=$?
	[ "$rc" -eq 77 ] || { fail "exit $rc, wanted 77 (-q $q -r $r)"; return; }
	expect_out "--use-srq: $q QPs x $r receives exceed the $srq_wr a shared receive queue of $DEV holds \\(max_srq_wr\\)" ||
		return
	pass
}

# --mr_per_qp: every QP's work requests and keys use its own MR, on both
# sides; the data checks hold.
t_mr_per_qp() {
	local doc=$WORK/mrq.json t
	for t in "write_bw -q 4 -n 1000" "read_bw -q 3 -n 500" "send_bw -q 4 -n 1000" \
		"atomic_bw -q 2 -n 300" "write_lat -n 300"; do
		begin "--mr_per_qp ${t}: one MR per QP, data check ok"
		# shellcheck disable=SC2086
		client $t --mr_per_qp --json-file "$doc" || { fail "exit $?"; continue; }
		expect_out "Registration +: .*, one MR per QP" "Data check +: ok" ||
			continue
		expect_json "$doc" '.memory.mr_per_qp == true' || continue
		pass
	done
}

# odp_rc_has CAP: DEV pages on demand (ODP_SUPPORT among its
# general_odp_caps) and CAP is among its rc_odp_caps (ibv_devinfo -v).
odp_rc_has() {
	ibv_devinfo -v -d "$DEV" 2>/dev/null | awk -v cap="$1" '
		$1 == "general_odp_caps:" { sect = "general"; next }
		$1 ~ /_odp_caps:$/ { sect = $1; next }
		/:/ { sect = "" }
		sect == "general" && $1 == "ODP_SUPPORT" { odp = 1 }
		sect == "rc_odp_caps:" && $1 == cap { has = 1 }
		END { exit !(odp && has) }'
}

# --odp: checked against the device's odp_caps; Debian 12's rxe offers no
# on-demand paging, so the refusal names the capability there, and a
# kernel whose rxe pages on demand runs the test with its data check.
t_odp() {
	local doc=$WORK/odp.json rc t
	local want cap
	command -v ibv_devinfo >/dev/null ||
		{ begin "--odp"; skip "no ibv_devinfo to read odp_caps with"; return; }
	for t in "write_bw -n 500 --odp" "send_bw -n 500 --odp" \
		"read_bw -n 300 --odp"; do
		# The device's own odp_caps say which it must be.
		case $t in
		write_bw*) cap=SUPPORT_WRITE ;;
		send_bw*) cap=SUPPORT_SEND ;;
		read_bw*) cap=SUPPORT_READ ;;
		esac
		want=77
		odp_rc_has "$cap" && want=0
		begin "${t}: exit $want as $DEV's odp_caps say (0: run with its data check; 77: refused naming odp_caps)"
		# shellcheck disable=SC2086
		client $t --json-file "$doc"
		rc=$?
		[ "$rc" -eq "$want" ] || { fail "exit $rc, wanted $want"; continue; }
		if [ "$rc" -eq 77 ]; then
			expect_out "--odp: $DEV (reports no on-demand paging|pages on demand)[^:]*\(odp_caps\.[a-z_.]+ 0x[0-9a-f]+" ||
				continue
			echo "# $t: refused by the device's odp_caps"
		elif [ "$rc" -eq 0 ]; then
			expect_out "Registration +: .*on-demand paging" "Data check +: ok" ||
				continue
			expect_json "$doc" '.memory.odp != "none"' || continue
		else
			fail "exit $rc"
			continue
		fi
		pass
	done
	begin "after an --odp refusal the server serves the next client"
	client write_bw -n 100 || { fail "exit $?"; return; }
	pass
}

# --run_infinitely: reports while it runs, SIGINT ends it with the summary
# and the data check; --json gives a line per report; a dead server ends it
# with the usual error.
t_live() {
	local rc n t
	local live_re='^ +\[ *[0-9.]+- *[0-9.]+ s\] +[0-9.]+ MiB/sec +[0-9.]+ Mpps +[0-9]+ msgs, [0-9]+ in all'
	for t in "write_bw -q 2" "send_bw" "atomic_bw"; do
		begin "$t --run_infinitely --interval 1: a report a second, SIGINT, the summary, data check ok"
		# SIGINT after the second report (the two the case counts, a
		# second apart); the exit status is rdmaperf's own.
		# shellcheck disable=SC2086
		signal_after_lines INT 2 "$live_re" "$WORK/out" "$WORK/err" \
			"$BUILD/rdmaperf" $t --run_infinitely --interval 1 \
			-d "$DEV" -p "$PORT" "$ADDR"
		rc=$?
		cat "$WORK/err" >>"$WORK/out"
		[ "$rc" -eq 0 ] || { fail "exit $rc"; continue; }
		n=$(grep -cE "$live_re" "$WORK/out")
		[ "$n" -ge 2 ] || { fail "$n live reports"; continue; }
		expect_out "\[ +0\.00- +1\.00 s\]" "Data check +: ok" || continue
		pass
	done
	begin "send_bw --run_infinitely -D 1 --json: one JSON line a report, then the document on one line"
	signal_after_lines TERM 2 '^\{"live":' "$WORK/out" "$WORK/err" \
		"$BUILD/rdmaperf" send_bw --run_infinitely -D 1 --json \
		-d "$DEV" -p "$PORT" "$ADDR"
	rc=$?
	[ "$rc" -eq 0 ] || { fail "exit $rc: $(cat "$WORK/err")"; return; }
	n=$(jq -c 'select(.live) | .live.msgs' "$WORK/out" | wc -l)
	[ "$n" -ge 2 ] || { fail "$n live lines"; return; }
	tail -n 1 "$WORK/out" | jq -e '.results[0].iterations > 0 and .results[0].data_check.ok' >/dev/null ||
		{ fail "no summary document on the last line"; return; }
	pass
	begin "write_bw --run_infinitely, server killed: the usual error, in time"
	server_killed_mid_run 4 write_bw --run_infinitely
	# perftest's live peers: the main pass (the same code as above, with
	# perftest's messages, which t_perftest_peers runs in both passes)
	short_pass && return 0
	command -v ib_write_bw >/dev/null || return 0
	live_pt_client
	live_pt_server
}

# rdmaperf's live client against an ib_write_bw server: reports until
# SIGINT, its summary, and it leaves as perftest's own live client would.
live_pt_client() {
	local port=$((PORT + 11)) spid rc n
	begin "rdmaperf write_bw --perftest --run_infinitely against ib_write_bw: live reports, SIGINT, the summary"
	run_limited 60 ib_write_bw -d "$DEV" -p "$port" --run_infinitely \
		>"$WORK/pt-server.log" 2>&1 &
	spid=$!
	wait_tcp_listen "$port" || { fail "ib_write_bw did not listen"; return; }
	signal_after_lines INT 2 '^ +\[ *[0-9.]+- *[0-9.]+ s\] +[0-9.]+ MiB/sec' \
		"$WORK/out" "$WORK/err" "$BUILD/rdmaperf" write_bw --perftest \
		--run_infinitely --interval 1 -d "$DEV" -p "$port" "$ADDR"
	rc=$?
	cat "$WORK/err" >>"$WORK/out"
	kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
	[ "$rc" -eq 0 ] || { fail "exit $rc"; return; }
	n=$(grep -cE '^ +\[ *[0-9.]+- *[0-9.]+ s\] +[0-9.]+ MiB/sec' "$WORK/out")
	[ "$n" -ge 2 ] || { fail "$n live reports"; return; }
	expect_out "Peer +: perftest [0-9.]+ server at" || return
	pass
}

# A live ib_write_bw client against the one-shot --perftest
# --run_infinitely server: the client's exit ends the run, exit 0.
live_pt_server() {
	local port=$((PORT + 12)) spid rc i
	begin "ib_write_bw --run_infinitely against rdmaperf write_bw --perftest --run_infinitely: the client's exit ends the run"
	run_limited 60 "$BUILD/rdmaperf" write_bw --perftest --run_infinitely \
		-d "$DEV" -p "$port" >"$WORK/pt-server.log" 2>&1 &
	spid=$!
	for i in $(seq 1 50); do
		grep -q "waiting for one perftest client" "$WORK/pt-server.log" &&
			break
		sleep 0.1
	done
	timeout -s INT -k 30 4 ib_write_bw -d "$DEV" -p "$port" \
		--run_infinitely -D 1 "$ADDR" >"$WORK/out" 2>&1
	wait "$spid"
	rc=$?
	[ "$rc" -eq 0 ] || { tail -n 15 "$WORK/pt-server.log" >>"$WORK/out"; fail "rdmaperf: exit $rc"; return; }
	expect_file "$WORK/pt-server.log" "perftest client .* ended its live run" \
		"Figures +: none here: perftest's live client is stopped" ||
		return
	pass
}

# --rate_limit: rxe offers no packet pacing, so the loop paces itself and
# must hold the rate it was asked for; a device limiter asked for outright
# is refused naming the capability.
t_pacing() {
	local doc=$WORK/pace.json rc t
	for t in "write_bw -s 4096 -n 3000 --rate_limit 0.05" \
		"send_bw -s 64 -D 2 -q 2 --rate_limit 2000 --rate_units pps" \
		"read_bw -s 4096 -n 1500 --rate_limit 25 --rate_units Mbps"; do
		begin "${t}: software pacing holds the rate within 10 %"
		# shellcheck disable=SC2086
		client $t --json-file "$doc" || { fail "exit $?"; continue; }
		expect_out "QPs +: .*, paced to [0-9.]+ [a-zA-Z/]+ by the loop" \
			"Rate +: asked [0-9.]+ [a-zA-Z/]+, achieved [0-9.]+ [a-zA-Z/]+ \([0-9.]+ %\), paced by the loop" \
			"Data check +: ok" || continue
		expect_json "$doc" '.results[0].decisions.pacing == "software"' \
			'.results[0].rate.achieved_pct >= 90' \
			'.results[0].rate.achieved_pct <= 110' || continue
		echo "# $t: $(jq -c .results[0].rate "$doc")"
		pass
	done
	begin "--rate_limit_type HW where the device has no packet pacing: one line naming packet_pacing_caps, exit 77"
	client write_bw -n 100 --rate_limit 1 --rate_limit_type HW
	rc=$?
	[ "$rc" -eq 77 ] || { fail "exit $rc, wanted 77"; return; }
	expect_out "--rate_limit_type HW: $DEV cannot pace [0-9]+ kbit/s per QP \(packet_pacing_caps: qp_rate_limit [0-9]+\.\.[0-9]+ kbit/s, QP types 0x[0-9a-f]+\): use --rate_limit_type SW" ||
		return
	pass
}

# -e: both sides sleep on a completion channel; the data is checked as
# ever; a vector the device lacks is refused.
t_events() {
	local doc=$WORK/ev.json rc t
	for t in "write_bw -D 1 -q 2" "send_bw -n 2000 -q 2" "atomic_bw -n 500" \
		"read_bw -b -n 500 -s 64K" "send_lat -n 300" "read_lat -n 300" \
		"atomic_lat -n 300 -A CMP_AND_SWAP" "send_lat -D 1 -c UD"; do
		begin "${t%% *} -e ${t#* }: completions by events on both sides, data check ok"
		# shellcheck disable=SC2086
		client $t -e --json-file "$doc" || { fail "exit $?"; continue; }
		expect_out "QPs +: .*completions by events \(vector 0\)" \
			"Data check +: ok" || continue
		expect_json "$doc" '.parameters.events == true' \
			'.results[0].cpu.this_side.per_msg_us > 0' || continue
		pass
	done
	begin "-X past the device's completion vectors: one line naming num_comp_vectors, exit 77"
	client write_bw -n 10 -e -X 1000
	rc=$?
	[ "$rc" -eq 77 ] || { fail "exit $rc, wanted 77"; return; }
	expect_out "-X 1000: $DEV has [0-9]+ completion vectors? \(num_comp_vectors\): use 0\.\.[0-9]+" ||
		return
	pass
}

# IPv6: the guest's veth gets a global IPv6 address, rxe its RoCE v2 GID;
# a HOST given as that address makes both sides pick it.
t_ipv6() {
	local a6=fd77::1 gid=fd77:0000:0000:0000:0000:0000:0000:0001
	local netdev=${RDP_RXE_NETDEV0:-} i t rc
	begin "IPv6 HOST: write_bw on the RoCE v2 GID of the IPv6 address"
	[ -n "$netdev" ] || { skip "no netdev named for $DEV"; return; }
	sysctl -qw "net.ipv6.conf.$netdev.disable_ipv6=0" 2>/dev/null
	ip -6 addr add "$a6/64" dev "$netdev" nodad 2>/dev/null
	for i in $(seq 1 100); do
		grep -qx "$gid" /sys/class/infiniband/"$DEV"/ports/1/gids/* \
			2>/dev/null && break
		sleep 0.1
	done
	grep -qx "$gid" /sys/class/infiniband/"$DEV"/ports/1/gids/* 2>/dev/null ||
		{ fail "no RoCE GID for $a6 on $DEV after 10 s"; return; }
	for t in "write_bw -n 500 -s 64K" "send_lat -n 500" "write_bw -R -n 200"; do
		[ "$t" = "write_bw -n 500 -s 64K" ] ||
			begin "IPv6 HOST: ${t%% *} ${t#* } over it"
		# shellcheck disable=SC2086
		run_limited "$LIMIT" "$BUILD/rdmaperf" $t -d "$DEV" -p "$PORT" \
			"$a6" >"$WORK/out" 2>&1
		rc=$?
		[ "$rc" -eq 0 ] || { fail "exit $rc"; continue; }
		case $t in
		*-R*) expect_out "GID +: index [0-9]+ RoCE v2 fd77::1 \(chosen by RDMA CM for the route\)" ||
			continue ;;
		*) expect_out "GID +: index [0-9]+ RoCE v2 fd77::1 \(matches the out-of-band address\)" || continue ;;
		esac
		expect_out "Data check +: ok" || continue
		pass
	done
	ip -6 addr del "$a6/64" dev "$netdev" 2>/dev/null
}

# A second client while a test runs: told at once, the first undisturbed.
# The first runs until it is stopped (--run_infinitely), so the second
# meets it running however slowly a loaded guest starts either; SIGINT
# then ends the first, which must finish as ever: exit 0, data checked.
t_busy() {
	local first rc i
	begin "busy server: a second client is refused at once, the first completes"
	"$BUILD/rdmaperf" write_bw --run_infinitely --interval 1 -d "$DEV" \
		-p "$PORT" "$ADDR" >"$WORK/first.log" 2>&1 &
	first=$!
	# the second client comes once the first reports data flowing
	if ! wait_in "$WORK/first.log" '^ +\[ *[0-9.]+- *[0-9.]+ s\]' 60; then
		kill -KILL "$first"; wait "$first"
		fail "the first client reported nothing in 60 s"; return
	fi
	expect_fail 1 "server busy: a test from .+ has run for [0-9]+ s; it serves one client at a time, retry when it ends" 20 \
		"$BUILD/rdmaperf" write_bw -n 10 -d "$DEV" -p "$PORT" "$ADDR"
	kill -INT "$first"
	for i in $(seq 1 300); do
		kill -0 "$first" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$first" 2>/dev/null
	wait "$first"
	rc=$?
	[ "$rc" -eq 0 ] && grep -Eq "Data check +: ok" "$WORK/first.log" ||
		{ N_PASS=$((N_PASS - 1)); fail "first client exit $rc"; return; }
}

# Thresholds and single-figure output.
t_limits_output() {
	begin "-w above the link: exit 1 naming the point"
	expect_fail 1 "65536 B x 1 QP\\(s\\): .* below the limit of 1000.000 Gb/s" 60 \
		"$BUILD/rdmaperf" write_bw -n 100 -w 1000 -d "$DEV" -p "$PORT" "$ADDR"
	begin "-w below the link: passes"
	client write_bw -n 100 -w 0.001 --report_gbits ||
		{ fail "exit $?"; return; }
	grep -Eq "Limits +: pass" "$WORK/out" || { fail "no pass line"; return; }
	pass
	begin "--output bandwidth: one number per point on stdout"
	run_limited "$LIMIT" "$BUILD/rdmaperf" write_bw -s 4K,64K -n 100 \
		--output bandwidth --report_gbits -d "$DEV" -p "$PORT" "$ADDR" \
		>"$WORK/out" 2>/dev/null || { fail "exit $?"; return; }
	[ "$(grep -Ec '^[0-9]+\.[0-9]{2}$' "$WORK/out")" -eq 2 ] &&
		[ "$(wc -l <"$WORK/out")" -eq 2 ] ||
		{ fail "not two bare figures"; return; }
	pass
}

# -f: figures from the middle of a -D run only.
t_margin() {
	local t
	for t in write_bw send_lat; do
		begin "$t -D 4 -f 1: measured over the middle 2 s"
		# Small messages: progress samples close together, so the kept
		# span is near the full 2 s (it ends on samples, never past).
		client "$t" -D 4 -f 1 -s 4K --json-file "$WORK/m.json" ||
			{ fail "exit $?"; continue; }
		jq -e '.results[0].elapsed_s > 1.7 and .results[0].elapsed_s <= 2.0 and
			.results[0].iterations > 0' "$WORK/m.json" >/dev/null ||
			{ fail "elapsed $(jq .results[0].elapsed_s "$WORK/m.json") s"; continue; }
		pass
	done
	# -f without a long enough -D (exit 2): test_opts, test_usage_lines.
}

# -b: both sides send; TX and RX reported apart, both memories checked.
t_bidir() {
	local t
	for t in write_bw read_bw; do
		begin "$t -b -q 2: TX and RX reported, data checked both ways"
		client "$t" -b -s 16K -q 2 -n 200 --report_gbits ||
			{ fail "exit $?"; continue; }
		expect_in "$WORK/out" \
			"TX \\(this side\\) +: 400 msgs, peak [0-9.]+, average ([1-9][0-9]*\\.[0-9]+|0\\.[0-9]*[1-9])" \
			"RX \\(the server\\) +: 400 msgs, peak [0-9.]+, average ([1-9][0-9]*\\.[0-9]+|0\\.[0-9]*[1-9])" \
			"Data check +: ok, $((2 * 16384 * 2)) bytes" >"$WORK/why" ||
			{ fail "$(cat "$WORK/why")"; continue; }
		pass
	done
	for t in "-n 300" "-n 300 -s 64K" "-D 1 -s 4K"; do
		# the reduced set: the 64 KiB shape repeats the first
		short_pass && [ "$t" = "-n 300 -s 64K" ] && continue
		begin "send_bw -b -q 2 ${t}: TX and RX reported apart, both sides' receive slots checked"
		# shellcheck disable=SC2086
		client send_bw -b -q 2 $t --json-file "$WORK/sb.json" ||
			{ fail "exit $?"; continue; }
		expect_in "$WORK/out" \
			"TX \\(this side\\) +: [1-9][0-9]* msgs, peak [0-9.]+, average [0-9.]+" \
			"RX \\(the server\\) +: [1-9][0-9]* msgs, peak [0-9.]+, average [0-9.]+" \
			"Data check +: ok" >"$WORK/why" ||
			{ fail "$(cat "$WORK/why")"; continue; }
		case $t in
		-n*) expect_json "$WORK/sb.json" '.results[0].iterations == 600' \
			'.results[0].rx.iterations == 600' || continue ;;
		esac
		pass
	done
	for t in "" "-A CMP_AND_SWAP"; do
		begin "atomic_bw -b -q 2 ${t}: TX and RX reported, both sides' counters add up to the peer's operations"
		# shellcheck disable=SC2086
		client atomic_bw -b -q 2 -n 300 $t ||
			{ fail "exit $?"; continue; }
		expect_in "$WORK/out" \
			"TX \\(this side\\) +: 600 msgs" "RX \\(the server\\) +: 600 msgs" \
			"Data check +: ok, 1200 atomic operations" >"$WORK/why" ||
			{ fail "$(cat "$WORK/why")"; continue; }
		pass
	done
	# -b on a test that cannot (exit 2): test_opts, test_usage_lines.
}

# Interval reports (bandwidth, -D) and the latency histogram (-H).
t_interval_hist() {
	local n
	begin "--interval 1 with -D 3: interval lines and JSON intervals on the asked second boundaries"
	client write_bw -D 3 --interval 1 --report_gbits --json-file "$WORK/i.json" ||
		{ fail "exit $?"; return; }
	n=$(grep -Ec '^ +\[ +[0-9]+\.00- +[0-9]+\.00 s\] +[0-9.]+ Gb/sec' "$WORK/out")
	[ "$n" -ge 2 ] && [ "$n" -le 3 ] || { fail "$n interval lines"; return; }
	# The k-th line is [k - 1, k] s: the width is --interval's 1 s.
	expect_out "^ +\[ +0\.00- +1\.00 s\]" "^ +\[ +1\.00- +2\.00 s\]" || return
	# The document holds the same intervals, the k-th [k, k + 1] s as
	# --interval 1 asks (to the clock's rounding: the width goes through
	# TSC cycles), not a width read back from the document; none past
	# -D 3, every one carrying traffic.
	expect_json "$WORK/i.json" ".results[0].intervals | length == $n" \
		'[.results[0].intervals | to_entries[] |
		  ((.value.start_s - .key) | fabs) < 1e-6 and
		  ((.value.end_s - .key - 1) | fabs) < 1e-6] | all' \
		'[.results[0].intervals[] | .end_s <= 3 + 1e-6 and .bw_gbps > 0] | all' ||
		return
	pass
	begin "-H: a histogram whose counts add up to the samples"
	client send_lat -n 400 -H || { fail "exit $?"; return; }
	n=$(awk '/latency histogram/ { on = 1; next }
		on && /and above/ { s += $(NF - ($NF ~ /#/)); on = 0 }
		on && / - / { s += $4 } END { print s + 0 }' "$WORK/out")
	[ "$n" -eq 400 ] || { fail "histogram counts $n samples, want 400"; return; }
	pass
}

# Different flags from one client to the next, same server process.
t_flags_change() {
	begin "second client with other flags (gbits, MTU 512, seed)"
	client write_bw -s 8192 -n 100 -m 512 --seed 77 --report_gbits ||
		{ fail "exit $?"; return; }
	expect_out "BW peak\[Gb/sec\]" "MTU +: 512 B" \
		"Data check +: ok" || return
	pass
}

# After every case before it, the server that started the run still runs
# and serves: three more clients, three more sessions logged as done.
t_server_survives() {
	local before after i
	begin "persistent server still running after every case before, serves three more clients"
	kill -0 "$SERVER_PID" 2>/dev/null || { fail "server is gone"; return; }
	before=$(grep -c ": done, data ok" "$WORK/server.log")
	for i in 1 2 3; do
		client write_bw -n 50 || { fail "client $i: exit $?"; return; }
	done
	wait_log_more ": done, data ok" "$((before + 2))" 10
	after=$(grep -c ": done, data ok" "$WORK/server.log")
	[ "$after" -eq $((before + 3)) ] ||
		{ fail "$((after - before)) sessions logged done, not 3"; return; }
	kill -0 "$SERVER_PID" 2>/dev/null || { fail "server is gone"; return; }
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
	wait_listening "$WORK/oneshot.log" "$spid" ||
		{ fail "the one-shot server did not start"; kill "$spid"; return; }
	run_limited "$LIMIT" "$BUILD/rdmaperf" write_bw -n 10 \
		-d "$DEV" -p "$port" "$ADDR" >"$WORK/out" 2>&1 &&
		{ fail "client succeeded"; kill "$spid"; return; }
	wait "$spid" && { fail "one-shot server exit 0"; return; }
	expect_out "started for write_lat, the client asks for write_bw" || return
	expect_file "$WORK/oneshot.log" "started for write_lat" || return
	pass
}

. "$HERE/failures.sh"
. "$HERE/gpu.sh"
. "$HERE/rocm.sh"
. "$HERE/bounce.sh"
. "$HERE/cm.sh"
. "$HERE/limits.sh"
. "$HERE/exposure.sh"
. "$HERE/placement.sh"
. "$HERE/topo.sh"
. "$HERE/mesh.sh"
. "$HERE/auth.sh"
. "$HERE/service.sh"
. "$HERE/threads.sh"
. "$HERE/per_qp.sh"
. "$HERE/loops.sh"
. "$HERE/post_api.sh"
. "$HERE/validate.sh"
. "$HERE/pt_gap.sh"
. "$HERE/mcast.sh"
. "$HERE/memopts.sh"
. "$HERE/perftest_interop.sh"
. "$HERE/perftest_cm.sh"
. "$HERE/health_counters.sh"
. "$HERE/health_events.sh"
. "$HERE/failfast.sh"
. "$HERE/interrupt.sh"

# The cases that go from one device to the other (rails, the mesh, -R
# from the second device) come
# before t_failures: its link-down cases set veth0 down, which drops the
# veth's routes for the rest of the run.
main() {
	local t
	start_server "$PORT" "$WORK/server.log" ||
		{ begin "server starts"; fail "rdmaperf-server did not start";
		  cat "$WORK/server.log"; summary; exit 1; }
	for t in t_write_bw_sizes t_write_bw_qps t_write_lat_sizes t_duration \
		t_all_loops t_duration_all t_matrix t_json t_busy t_limits_output \
		t_interval_hist t_bidir t_margin t_memory_knobs t_cpu_util \
		t_path_knobs t_events t_ipv6 t_transports t_immediate t_pacing \
		t_mr_per_qp t_odp t_live t_srq t_threads t_per_qp t_loops t_post_api \
		t_validate t_mcast t_mcast_cm t_memopts t_health_events t_failfast \
		t_perftest_names t_perftest_peers t_perftest_interop t_pt_gap \
		t_perftest_cm t_interrupt \
		t_thresholds t_limits_compare t_limits_baseline t_limits_plot \
		t_limits_sweep t_certify_record t_limits_rails t_health_counters t_mesh \
		t_cm_other_device t_service \
		t_auth t_exposure t_flags_change t_server_survives t_one_shot t_failures t_cm t_valgrind \
		t_gpu_fake_loops t_gpu_fake_failures t_gpu_no_driver t_placement t_topo \
		t_bounce_fake t_rocm_fake; do
		case "$t" in *"$FILTER"*)
			# shellcheck disable=SC2086 # words, whatever spaces
			if [ -n "${RDP_GROUPS:-}" ] &&
				! case " $(echo $RDP_GROUPS) " in *" $t "*) true ;; *) false ;; esac; then
				echo "# $t: not in RDP_GROUPS (the main pass runs it)"
				continue
			fi
			local t0=$SECONDS
			"$t"
			echo "# $t: $((SECONDS - t0)) s"
			echo "$((SECONDS - t0)) $t" >>"$WORK/.times" ;;
		esac
	done
	stop_server
	group_times "$WORK/.times"
	summary
}

# Each group's time, slowest first, and their sum: where the tier's time
# goes.
group_times() {
	[ -s "$1" ] || return 0
	echo "# group times, slowest first:"
	sort -k1,1nr "$1" | awk '{ printf "#   %-24s %4d s\n", $2, $1; s += $1 }
		END { printf "#   %-24s %4d s\n", "all groups", s }'
}

main
