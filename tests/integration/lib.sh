# SPDX-License-Identifier: BSD-2-Clause
# Helpers for the Soft-RoCE integration tests: real rdmaperf processes on
# a real rxe device, each check bounded in time.

: "${RDP_RXE_DEV0:?run under tests/softroce/rxe-run}"
DEV=$RDP_RXE_DEV0
ADDR=$RDP_RXE_ADDR0
WORK=$(mktemp -d /tmp/rdp-it.XXXXXX)
# The sanitizers' settings reach the guest as RDP_* variables (rxe-run
# passes only those): a report then aborts the process that made it.
[ -n "${RDP_ASAN_OPTIONS:-}" ] && export ASAN_OPTIONS=$RDP_ASAN_OPTIONS
[ -n "${RDP_UBSAN_OPTIONS:-}" ] && export UBSAN_OPTIONS=$RDP_UBSAN_OPTIONS
[ -n "${RDP_TSAN_OPTIONS:-}" ] && export TSAN_OPTIONS=$RDP_TSAN_OPTIONS
N_PASS=0
N_FAIL=0
N_SKIP=0
CUR=""
# One line per skip's reason, counted on the closing summary.
SKIP_REASONS=$WORK/.skips

# Every command gets a hard limit: a hang is a failure, never a stall.
run_limited() {
	local limit=$1
	shift
	timeout --kill-after=5 "$limit" "$@"
}

# signal_after_lines SIG N REGEX OUT ERR CMD...: runs CMD with stdout in
# OUT and stderr in ERR, sends SIG once OUT holds N lines matching REGEX
# (or after 90 s, so a run that never reports still ends), and returns
# CMD's exit status. Live runs are ended by what they printed, not by a
# clock that a slow (sanitized, emulated) start can eat.
signal_after_lines() {
	local sig=$1 n=$2 re=$3 out=$4 err=$5 pid waited=0 rc
	shift 5
	"$@" >"$out" 2>"$err" &
	pid=$!
	while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt 900 ]; do
		[ "$(grep -cE "$re" "$out")" -ge "$n" ] && break
		sleep 0.1
		waited=$((waited + 1))
	done
	kill -s "$sig" "$pid" 2>/dev/null
	# The run drains, checks its data and reports; then it must be gone.
	waited=0
	while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt 300 ]; do
		sleep 0.1
		waited=$((waited + 1))
	done
	kill -s KILL "$pid" 2>/dev/null
	wait "$pid"
	rc=$?
	return "$rc"
}

# The protocol version of the tree under test (include/rdmaperf/wire.h),
# for hand-made messages.
wire_version() {
	sed -n 's/^#define RDP_WIRE_VERSION[[:space:]]*\([0-9]*\).*/\1/p' \
		"$HERE/../../include/rdmaperf/wire.h"
}

begin() {
	CUR=$1
	CASE_T0=$SECONDS
	touch "$WORK/.case"
	: >"$WORK/out" 2>/dev/null
	rxe_counters >"$WORK/.counters" 2>/dev/null
}

# Every device's port counters, one "DEV/NAME VALUE" a line.
rxe_counters() {
	grep -r . /sys/class/infiniband/*/ports/1/hw_counters/ 2>/dev/null |
		sed -E 's|^/sys/class/infiniband/([^/]+)/ports/1/hw_counters/([^:]+):|\1/\2 |'
}

# The counters that moved since the case began, on one line: what the
# provider saw (retries, drops) when a case fails.
counters_moved() {
	[ -e "$WORK/.counters" ] || return 0
	rxe_counters | awk 'NR == FNR { a[$1] = $2; next }
		$2 != a[$1] { printf "%s+%d ", $1, $2 - a[$1] }' "$WORK/.counters" -
}

# The files of $WORK written during this case that hold a sanitizer's
# report (a process whose exit a case expected to fail may have made it).
sanitizer_reports() {
	[ -e "$WORK/.case" ] || return 0
	find "$WORK" -type f -newer "$WORK/.case" ! -name .case \
		-exec grep -lE 'ERROR: (AddressSanitizer|LeakSanitizer)|WARNING: ThreadSanitizer|runtime error: ' {} + \
		2>/dev/null | head -n 3 | tr '\n' ' '
}

pass() {
	local bad
	bad=$(sanitizer_reports)
	[ -z "$bad" ] || { fail "a sanitizer report in $bad"; return; }
	N_PASS=$((N_PASS + 1))
	echo "ok $((N_PASS + N_FAIL + N_SKIP)) - $CUR"
	case_time
}

# A case that took 10 s or more says so, under its line: where a group's
# time goes.
case_time() {
	local t=$((SECONDS - ${CASE_T0:-$SECONDS}))
	[ "$t" -lt 10 ] || echo "# $t s"
}

fail() {
	N_FAIL=$((N_FAIL + 1))
	echo "not ok $((N_PASS + N_FAIL + N_SKIP)) - $CUR: $*"
	case_time
	if [ -s "$WORK/out" ]; then
		sed 's/^/#   /' "$WORK/out" | tail -n 40
	fi
	local moved
	moved=$(counters_moved)
	[ -z "$moved" ] || echo "#   port counters during the case: $moved"
}

skip() {
	N_SKIP=$((N_SKIP + 1))
	echo "ok $((N_PASS + N_FAIL + N_SKIP)) - $CUR # SKIP $*"
	echo "$*" >>"$SKIP_REASONS"
}

# expect_in FILE PATTERN...: every extended regex must match.
expect_in() {
	local f=$1 pat
	shift
	for pat in "$@"; do
		grep -Eq -- "$pat" "$f" || { echo "missing /$pat/"; return 1; }
	done
}

# expect_file FILE PATTERN...: as expect_in, and a failing case names the
# missing pattern (the caller returns: `expect_file ... || return`).
expect_file() {
	expect_in "$@" >"$WORK/why" || { fail "$(cat "$WORK/why")"; return 1; }
}

# expect_out PATTERN...: expect_file on the last command's output.
expect_out() {
	expect_file "$WORK/out" "$@"
}

# expect_jq FILE FILTER...: jq -e on a file: every filter must hold.
expect_jq() {
	local f=$1 q
	shift
	for q in "$@"; do
		jq -e "$q" "$f" >/dev/null 2>&1 || { echo "jq: $q does not hold"; return 1; }
	done
}

# expect_json FILE FILTER...: as expect_jq, failing the case.
expect_json() {
	expect_jq "$@" >"$WORK/why" || { fail "$(cat "$WORK/why")"; return 1; }
}

# The JSON at $1 answers the jq filter $2 with "true".
jq_true() {
	[ "$(jq -r "$2" "$1" 2>/dev/null)" = true ]
}

# The binaries under test were built with --enable-sanitizers.
sanitizer_build() {
	grep -q '^RDP_SAN_CFLAGS = .*-fsanitize' "$BUILD/Makefile" 2>/dev/null
}

# The reduced set (RDP_QUICK=1; RDP_PT_MATRIX=short, its older name): one
# case per code path, not every size and shape. The sanitizer pass runs it,
# as its time goes to the instrumented code; the main pass runs them all.
short_pass() {
	[ "${RDP_QUICK:-0}" = 1 ] || [ "${RDP_PT_MATRIX:-}" = short ]
}

# wait_listening LOG PID: until the server PID prints its listening line
# in LOG, 10 s at most; 1 when it exits first or is late.
wait_listening() {
	local i
	for i in $(seq 1 100); do
		grep -q "listening" "$1" 2>/dev/null && return 0
		kill -0 "$2" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# wait_in FILE REGEX [SECONDS]: until a line of FILE matches the extended
# REGEX, SECONDS (10) at most; 1 then. A case then checks FILE as ever, so
# a wait that ran out fails the case with the missing line named.
wait_in() {
	local i
	for i in $(seq 1 $((${3:-10} * 10))); do
		grep -Eq -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# wait_tcp_listen PORT: until something listens on TCP PORT here (a
# perftest ib_* server, which prints nothing when it is ready), 10 s at
# most; 1 when nothing does.
wait_tcp_listen() {
	local i
	for i in $(seq 1 100); do
		[ -n "$(ss -Hltn "sport = :$1" 2>/dev/null)" ] && return 0
		sleep 0.1
	done
	return 1
}

# The packets DEV's port 1 has sent (rxe's hw_counters/sent_pkts); empty
# where the device keeps no such counter.
dev_sent_pkts() {
	cat "/sys/class/infiniband/$DEV/ports/1/hw_counters/sent_pkts" 2>/dev/null
}

# wait_traffic FROM N: until DEV has sent N packets more than FROM (a
# dev_sent_pkts reading taken before the run started): the run's timed
# loop is under way. 30 s at most; 1 then. Where the device keeps no
# counter, 4 s (what the cases waited before there was this event).
wait_traffic() {
	local i now
	if [ -z "$1" ] || [ -z "$(dev_sent_pkts)" ]; then
		sleep 4
		return 0
	fi
	for i in $(seq 1 300); do
		now=$(dev_sent_pkts)
		[ "${now:-0}" -ge $(($1 + $2)) ] && return 0
		sleep 0.1
	done
	return 1
}

# Start a persistent server on a port; its pid in SERVER_PID.
start_server() {
	local port=$1 log=$2
	shift 2
	"$BUILD/rdmaperf-server" -d "$DEV" -p "$port" "$@" >"$log" 2>&1 &
	SERVER_PID=$!
	wait_listening "$log" "$SERVER_PID"
}

# own_server N [ARGS...]: a server of the case's own on port PORT + N,
# its output in $WORK/sN.log; its pid in OWN_PID.
own_server() {
	local n=$1
	shift
	"$BUILD/rdmaperf-server" -d "$DEV" -p "$((PORT + n))" "$@" \
		>"$WORK/s$n.log" 2>&1 &
	OWN_PID=$!
}

stop_server() {
	[ -n "${SERVER_PID:-}" ] || return 0
	kill "$SERVER_PID" 2>/dev/null
	wait "$SERVER_PID" 2>/dev/null
	SERVER_PID=""
}

# The row of a result table for a size: "#bytes #iterations ..." fields.
table_row() {
	awk -v s="$2" '$1 == s && NF >= 5 { print; exit }' "$1"
}

# field N of the row is a positive number
positive_field() {
	local row=$1 n=$2
	echo "$row" | awk -v n="$n" '{ exit !($n + 0 > 0) }'
}

# The skips by reason, most frequent first: "# skipped N x REASON".
skip_reasons() {
	[ -s "$SKIP_REASONS" ] || return 0
	sort "$SKIP_REASONS" | uniq -c | sort -k1,1nr -k2 |
		sed -E 's/^ *([0-9]+) (.*)$/# skipped \1 x \2/'
}

summary() {
	skip_reasons
	rm -rf "$WORK"
	echo "integration: $N_PASS passed, $N_FAIL failed, $N_SKIP skipped"
	[ "$N_FAIL" -eq 0 ]
}

# bed_page FILE NAME: keep a document of a real run as
# BUILD/tests/browser/bed/NAME.json, for the report pages that
# scripts/test.sh loads in Chromium after the device tiers
# (tests/browser/report.sh with RDP_BROWSER_BED); with NAME.prom, a
# --metrics file that scripts/test.sh reads with prometheus_client's
# OpenMetrics parser there (Python takes seconds to start in the guest).
bed_page() {
	mkdir -p "$BUILD/tests/browser/bed" &&
		cp "$1" "$BUILD/tests/browser/bed/$2"
}
