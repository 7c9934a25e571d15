#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Benchmark (not a test): the client's CPU time per message of write_bw and
# send_bw at 64 B, polling and with -e, rdmaperf and perftest on the same
# Soft-RoCE device in one boot, alternating, several rounds (perftest
# refuses -e for WRITE: "Events feature not available on WRITE verb"). Per message means the
# difference of two runs (N1 and N2 messages) divided by N2 - N1, so that
# start-up and connection setup cancel out. Prints the medians and the
# ratios rdmaperf / perftest.
# Usage: scripts/bench-cpu.sh [ROUNDS]   (as root; builds first)
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ${1:-} != --inside ]]; then
	scripts/install-deps.sh >/dev/null
	scripts/build.sh
	exec tests/softroce/rxe-run --timeout 1800 -- "$0" --inside "${1:-5}"
fi
set +e
rounds=${2:-5}
dev=$RDP_RXE_DEV0 addr=$RDP_RXE_ADDR0 gid=$RDP_RXE_GID_INDEX0
n1=20000 n2=100000
work=$(mktemp -d)
./rdmaperf-server -d "$dev" -p 18515 >"$work/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
sleep 1

listening() {
	grep -qs "$(printf ':%04X ' "$1").* 0A " /proc/net/tcp /proc/net/tcp6
}

# User and system seconds of one client process, as "U S".
cpu_of() {
	local TIMEFORMAT='%U %S'
	{ time "$@" >/dev/null 2>&1; } 2>&1
}

pt_port=18600
perftest_cpu() {
	local test=$1 n=$2 i out
	shift 2
	pt_port=$((pt_port + 1))
	timeout 300 "ib_$test" -d "$dev" -x "$gid" -p "$pt_port" -s 64 -n "$n" \
		"$@" >/dev/null 2>&1 &
	local spid=$!
	for i in $(seq 100); do
		listening "$pt_port" && break
		sleep 0.1
	done
	out=$(cpu_of timeout 300 "ib_$test" -d "$dev" -x "$gid" \
		-p "$pt_port" -s 64 -n "$n" "$@" "$addr")
	wait "$spid" || true
	echo "$out"
}

rdmaperf_cpu() {
	local test=$1 n=$2
	shift 2
	cpu_of timeout 300 ./rdmaperf "$test" -d "$dev" -p 18515 -s 64 \
		-n "$n" "$@" "$addr"
}

# Microseconds of user (field 1) or system (2) CPU per message.
per_msg() {
	awk -v a="$1" -v b="$2" -v f="$3" -v n="$((n2 - n1))" 'BEGIN {
		split(a, x, " "); split(b, y, " ");
		printf "%.3f\n", (y[f] - x[f]) * 1e6 / n }'
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# name | test | flag | perftest runs it
modes=("write_bw polling|write_bw||1" "write_bw -e|write_bw|-e|0"
	"send_bw polling|send_bw||1" "send_bw -e|send_bw|-e|1")
for ((r = 1; r <= rounds; r++)); do
	for m in "${modes[@]}"; do
		IFS='|' read -r name test flag pt <<<"$m"
		key=${name// /_}
		# shellcheck disable=SC2086
		a=$(rdmaperf_cpu "$test" "$n1" $flag)
		# shellcheck disable=SC2086
		b=$(rdmaperf_cpu "$test" "$n2" $flag)
		echo "# round $r rdmaperf $name: $n1 msgs $a, $n2 msgs $b (user sys s)"
		per_msg "$a" "$b" 1 >>"$work/rdmaperf-$key-user"
		per_msg "$a" "$b" 2 >>"$work/rdmaperf-$key-sys"
		[ "$pt" = 1 ] || continue
		# shellcheck disable=SC2086
		a=$(perftest_cpu "$test" "$n1" $flag)
		# shellcheck disable=SC2086
		b=$(perftest_cpu "$test" "$n2" $flag)
		echo "# round $r perftest $name: $n1 msgs $a, $n2 msgs $b (user sys s)"
		per_msg "$a" "$b" 1 >>"$work/perftest-$key-user"
		per_msg "$a" "$b" 2 >>"$work/perftest-$key-sys"
	done
done

echo "client CPU per message at 64 B, ($n2 - $n1) messages; medians of $rounds rounds [us]"
printf '%-24s %10s %10s %8s\n' case rdmaperf perftest ratio
for m in "${modes[@]}"; do
	IFS='|' read -r name test flag pt <<<"$m"
	key=${name// /_}
	for k in user sys; do
		mine=$(median <"$work/rdmaperf-$key-$k")
		theirs=-
		[ "$pt" = 1 ] && theirs=$(median <"$work/perftest-$key-$k")
		printf '%-24s %10s %10s %8s\n' "$name $k" "$mine" "$theirs" \
			"$(awk -v a="$mine" -v b="$theirs" 'BEGIN { if (b + 0 > 0) printf "%.2f", a / b; else print "-" }')"
	done
done
