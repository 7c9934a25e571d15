#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Benchmark (not a test): message rate at 64 B with 8 QPs in total, and the
# client's user and system CPU time per message, for write_bw and send_bw,
# rdmaperf (--threads 1, --threads 2) against perftest (one process with
# -q 8; two processes with -q 4 each at the same time, their MsgRate
# figures added up as users do; one process with -l 32), on the same
# Soft-RoCE device in one boot, tools alternating within each round,
# several rounds; prints the medians and each case's rate over perftest's
# one-process rate.
# CPU per message: the client processes' user+system time (bash time) of
# two runs of N1 and N2 iterations per QP (-n, per QP in both tools), the
# difference divided by the difference in messages, so that start-up and
# connection setup cancel out. The rate is the N2 run's: perftest's
# MsgRate[Mpps] column, rdmaperf's JSON msg_rate_mpps (with --threads, the
# sum over the window where all threads ran).
# rxe does its work in the kernel: on the CPU that posts (system time of
# the client) and in its own kernel threads, for both ends of the loopback.
# All of it shares the guest's 2 CPUs with the clients and the servers, so
# a second client thread competes with rxe for CPU.
# Usage: scripts/bench-msgrate.sh [ROUNDS]   (as root; builds first;
# default 5 rounds, about 2 minutes each). RDP_BENCH_NO_THREADS=1 runs
# rdmaperf without --threads and skips --threads 2 (for builds without
# it); RDP_BENCH_N1 and RDP_BENCH_N2 (default 3200 and 12800, multiples of
# 32 for perftest's -l 32) set the iterations per QP.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ${1:-} != --inside ]]; then
	if ! [[ ${1:-5} =~ ^[1-9][0-9]*$ ]]; then
		echo "usage: $0 [ROUNDS]" >&2
		exit 2
	fi
	scripts/install-deps.sh >/dev/null
	scripts/build.sh
	exec tests/softroce/rxe-run --timeout 2400 -- "$0" --inside "${1:-5}"
fi
set +e
rounds=$2
dev=$RDP_RXE_DEV0 addr=$RDP_RXE_ADDR0 gid=$RDP_RXE_GID_INDEX0
n1=${RDP_BENCH_N1:-3200} n2=${RDP_BENCH_N2:-12800}
no_threads=${RDP_BENCH_NO_THREADS:-0}
if ((n1 % 32 || n2 % 32 || n1 < 32 || n2 <= n1)); then
	echo "RDP_BENCH_N1 < RDP_BENCH_N2, both multiples of 32" >&2
	exit 2
fi
msgs=$(((n2 - n1) * 8))
work=$(mktemp -d)
./rdmaperf-server -d "$dev" -p 18515 >"$work/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
sleep 1

listening() {
	grep -qs "$(printf ':%04X ' "$1").* 0A " /proc/net/tcp /proc/net/tcp6
}

# Run "$@" (which sends its own output to files) and leave the user and
# system seconds of it and its children in $cpu as "U S". The subshell
# keeps out the perftest servers, which are the caller's children and may
# exit, and be reaped, while the clients run.
timed() {
	(
		TIMEFORMAT='%U %S'
		time "$@"
	) 2>"$work/time"
	local rc=$?
	cpu=$(<"$work/time")
	return "$rc"
}

# One rdmaperf client run against the persistent server: 8 QPs, $1
# iterations per QP, report in $2.json.
rdp_client() {
	local n=$1 out=$2
	shift 2
	rm -f "$out.json"
	timeout 300 ./rdmaperf "$test" -d "$dev" -p 18515 -s 64 -q 8 -n "$n" \
		--json-file "$out.json" "$@" "$addr" >"$out.log" 2>&1
}

# perftest calibrates its clock after the run, and under emulation with
# four busy processes on two CPUs (case 4 with send_bw, whose servers report
# too) that often fails: "Correlation coefficient r^2: ... < 0.9", "Can't
# produce a report", exit 1. The run itself is complete, its CPU time
# counts; only its figures are missing (for the N2 run, it is repeated).
refused() { grep -qs "Can't produce a report" "$1"; }

# perftest clients, one per port in ${ports[@]}, $2 QPs and $3 iterations
# per QP each, all at once; their reports in $4.0, $4.1, ...
pt_clients() {
	local q=$1 n=$2 out=$3 i rc=0 pids=()
	shift 3
	for i in "${!ports[@]}"; do
		timeout 300 "ib_$test" -d "$dev" -x "$gid" -p "${ports[i]}" -s 64 \
			-q "$q" -n "$n" "$@" "$addr" >"$out.$i" 2>&1 &
		pids+=("$!")
	done
	for i in "${!pids[@]}"; do
		wait "${pids[i]}" || refused "$out.$i" || rc=1
	done
	return "$rc"
}

# perftest needs a fresh one-shot server per run with the client's flags;
# each on a fresh port, and the clients start once all of them listen (a
# client that comes too early leaves its server waiting forever).
pt_port=18600
pt_run() {
	local procs=$1 n=$2 out=$3 q=$((8 / $1)) i rc spids=()
	shift 3
	ports=()
	for ((i = 0; i < procs; i++)); do
		pt_port=$((pt_port + 1))
		ports+=("$pt_port")
		timeout 300 "ib_$test" -d "$dev" -x "$gid" -p "$pt_port" -s 64 \
			-q "$q" -n "$n" "$@" >"$out.server.$i" 2>&1 &
		spids+=("$!")
	done
	for port in "${ports[@]}"; do
		for i in $(seq 100); do
			listening "$port" && break
			sleep 0.1
		done
	done
	timed pt_clients "$q" "$n" "$out" "$@"
	rc=$?
	((rc == 0)) || kill "${spids[@]}" 2>/dev/null
	wait "${spids[@]}"
	return "$rc"
}

# Microseconds of user (field 1) or system (2) CPU per message.
per_msg() {
	awk -v a="$1" -v b="$2" -v f="$3" -v n="$msgs" 'BEGIN {
		split(a, x, " "); split(b, y, " ");
		printf "%.3f\n", (y[f] - x[f]) * 1e6 / n }'
}

# The clients' complaints in the last run ($out), on one line.
why() {
	cat "$out.log" "$out".[0-9] 2>/dev/null |
		grep -i -e error -e fail -e "can't" -e couldn -e invalid \
			-e unknown -e must -e "< 0.9" | sort -u | head -n 3 |
		tr -s ' \t\n' ' '
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
med() { if [[ -s $work/$1 ]]; then median <"$work/$1"; else echo -; fi; }

# The N2 run's rate in $out.*: rdmaperf's JSON (and its thread overlap),
# or the sum of the perftest clients' MsgRate; empty when any is missing.
read_rate() {
	if [[ $tool == rdmaperf ]]; then
		rate=$(jq -r '.results[0].msg_rate_mpps // empty' "$out.json")
		overlap=$(jq -r '.results[0].sum.overlap_pct // "-" |
			if type == "number" then . * 10 | round / 10 else . end' \
			"$out.json")
	else
		rate=$(cat "$out".[0-9] | awk -v p="$procs" '
			$1 == 64 && NF >= 5 { s += $5; k++ }
			END { if (k == p) print s }')
	fi
}

# Case $2 of test $1, at N1 then N2 iterations per QP: CPU of each run in
# cpus[1] and cpus[2], the N2 run's rate in rate and rdmaperf's thread
# overlap in overlap ("-" when absent); an N2 run without a rate is
# repeated, up to 8 times. Fails when a client fails or no rate comes.
measure() {
	local tool procs flags n run try
	test=$1
	IFS='|' read -r name tool procs flags <<<"${cases[$2]}"
	overlap=- rate='' tries=0
	rm -f "$work"/run*
	for run in 1 2; do
		n=$n1 out=$work/run$run
		((run == 2)) && n=$n2
		for try in 1 2 3 4 5 6 7 8; do
			if [[ $tool == rdmaperf ]]; then
				# shellcheck disable=SC2086
				timed rdp_client "$n" "$out" $flags || return 1
			else
				# shellcheck disable=SC2086
				pt_run "$procs" "$n" "$out" $flags || return 1
			fi
			cpus[run]=$cpu tries=$try
			((run == 1)) && break
			read_rate
			[[ -n $rate ]] && break
			echo "# round $r $test case $name: $n2/QP run $try: no rate: $(why)"
		done
	done
	[[ -n $rate ]]
}

# number and name | tool | processes | flags (perftest: besides -q, -n)
cases=(
	"1 rdmaperf --threads 1|rdmaperf|1|--threads 1"
	"2 rdmaperf --threads 2|rdmaperf|1|--threads 2"
	"3 perftest 1 process|perftest|1|"
	"4 perftest 2 procs -q 4|perftest|2|"
	"5 perftest -l 32|perftest|1|-l 32"
)
order=(0 2 1 3 4) # the tools alternate
if [[ $no_threads == 1 ]]; then
	cases[0]="1 rdmaperf (no --threads)|rdmaperf|1|"
	order=(0 2 3 4)
fi
tests=(write_bw send_bw)

for ((r = 1; r <= rounds; r++)); do
	for t in "${tests[@]}"; do
		for c in "${order[@]}"; do
			if ! measure "$t" "$c"; then
				echo "# round $r $t case $name: FAILED: $(why)"
				continue
			fi
			echo "# round $r $t case $name: $n1/QP ${cpus[1]}, $n2/QP ${cpus[2]} (user sys s; N2 run $tries), $rate Mpps, overlap $overlap%"
			echo "$rate" >>"$work/$t.$c.rate"
			per_msg "${cpus[1]}" "${cpus[2]}" 1 >>"$work/$t.$c.user"
			per_msg "${cpus[1]}" "${cpus[2]}" 2 >>"$work/$t.$c.sys"
			[[ $overlap == - ]] || echo "$overlap" >>"$work/$t.$c.overlap"
		done
	done
	echo "round $r of $rounds done" >&2
done

mtu=$(ibv_devinfo -d "$dev" | awk '/active_mtu/ { print $2; exit }')
echo "message rate and client CPU per message at 64 B, 8 QPs in total, on Soft-RoCE ($dev, active MTU $mtu)"
echo "CPU: ($n2 - $n1) iterations per QP, $msgs messages; medians of $rounds rounds, tools alternating"
echo "kernel $(uname -r), guest CPUs (nproc) $(nproc), $(ib_write_bw --version 2>/dev/null | head -1 | tr -d '\n' || true)"
printf '%-26s %-9s %9s %9s %9s %8s %8s\n' case test Mpps "user us" "sys us" /pt1 overlap%
for t in "${tests[@]}"; do
	base=$(med "$t.2.rate")
	for c in "${!cases[@]}"; do
		[[ $no_threads == 1 && $c == 1 ]] && continue
		m=$(med "$t.$c.rate")
		printf '%-26s %-9s %9s %9s %9s %8s %8s\n' "${cases[c]%%|*}" "$t" \
			"$(awk -v m="$m" 'BEGIN { if (m == "-") print m; else printf "%.4f", m }')" \
			"$(med "$t.$c.user")" "$(med "$t.$c.sys")" \
			"$(awk -v a="$m" -v b="$base" 'BEGIN { if (a != "-" && b + 0 > 0) printf "%.2f", a / b; else print "-" }')" \
			"$(med "$t.$c.overlap")"
	done
done
