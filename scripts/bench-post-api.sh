#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Benchmark (not a test): write_bw's message rate at 64 B with -q 1 and
# -q 8 for -D SECONDS, posting through the ibv_wr_* builders (rdmaperf's
# default), through ibv_post_send (--use_old_post_send), and perftest's
# ib_write_bw with its default API and with --use_old_post_send; one
# Soft-RoCE boot, server and client on one device, the cases alternating
# within each round; prints every run and the medians.
# Rate: rdmaperf's JSON results[0].msg_rate_mpps (and decisions.post_api,
# to show which API ran); perftest's MsgRate[Mpps] column.
# Usage: scripts/bench-post-api.sh [ROUNDS [SECONDS]]   (as root, after a
# build; default 3 rounds of 2 s runs).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ${1:-} != --inside ]]; then
	if ! [[ ${1:-3} =~ ^[1-9][0-9]*$ && ${2:-2} =~ ^[1-9][0-9]*$ ]]; then
		echo "usage: $0 [ROUNDS [SECONDS]]" >&2
		exit 2
	fi
	[[ -x ./rdmaperf && -x ./rdmaperf-server ]] ||
		{ echo "$0: build first (./rdmaperf is missing)" >&2; exit 2; }
	exec tests/softroce/rxe-run --timeout 1200 -- "$0" --inside \
		"${1:-3}" "${2:-2}"
fi
set +e
rounds=$2 secs=$3
dev=$RDP_RXE_DEV0 addr=$RDP_RXE_ADDR0 gid=$RDP_RXE_GID_INDEX0
work=$(mktemp -d)
./rdmaperf-server -d "$dev" -p 18515 >"$work/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT

listening() {
	grep -qs "$(printf ':%04X ' "$1").* 0A " /proc/net/tcp /proc/net/tcp6
}
for _ in $(seq 100); do
	listening 18515 && break
	sleep 0.1
done

# rdmaperf: $1 QPs, flags after; the rate (and the API) into $rate/$api.
rdp_run() {
	local q=$1
	shift
	rm -f "$work/out.json"
	timeout 120 ./rdmaperf write_bw -d "$dev" -p 18515 -s 64 -q "$q" \
		-D "$secs" --json-file "$work/out.json" "$@" "$addr" \
		>"$work/out.log" 2>&1 || return 1
	rate=$(jq -r '.results[0].msg_rate_mpps // empty' "$work/out.json")
	api=$(jq -r '.results[0].decisions.post_api // empty' "$work/out.json")
	[[ -n $rate ]]
}

# perftest: a one-shot server on a fresh port, then its client; the
# MsgRate column of the 64 B row. Its clock check after the run fails now
# and then under emulation ("Can't produce a report"): retried.
pt_port=18600
pt_run() {
	local q=$1 spid try
	shift
	for try in 1 2 3; do
		pt_port=$((pt_port + 1))
		timeout 120 ib_write_bw -d "$dev" -x "$gid" -p "$pt_port" -s 64 \
			-q "$q" -D "$secs" "$@" >"$work/pts.log" 2>&1 &
		spid=$!
		for _ in $(seq 100); do
			listening "$pt_port" && break
			sleep 0.1
		done
		timeout 120 ib_write_bw -d "$dev" -x "$gid" -p "$pt_port" -s 64 \
			-q "$q" -D "$secs" "$@" "$addr" >"$work/out.log" 2>&1
		wait "$spid"
		rate=$(awk '$1 == 64 && NF >= 5 { print $5 }' "$work/out.log")
		api=perftest
		[[ -n $rate ]] && return 0
		echo "# perftest $* -q $q try $try: no rate:" \
			"$(grep -i -e error -e fail -e "can't" "$work/out.log" |
				head -n 2 | tr -s ' \t\n' ' ')"
	done
	return 1
}

# name | runner | flags
cases=(
	"rdmaperf (ibv_wr_*)|rdp_run|"
	"ib_write_bw (default)|pt_run|"
	"rdmaperf --use_old_post_send|rdp_run|--use_old_post_send"
	"ib_write_bw --use_old_post_send|pt_run|--use_old_post_send"
)
qps=(1 8)

for ((r = 1; r <= rounds; r++)); do
	for q in "${qps[@]}"; do
		for c in "${!cases[@]}"; do
			IFS='|' read -r name runner flags <<<"${cases[c]}"
			# shellcheck disable=SC2086 # the case's flags
			if ! $runner "$q" $flags; then
				echo "# round $r -q $q $name: FAILED: $(tail -n 2 "$work/out.log" | tr -s ' \t\n' ' ')"
				continue
			fi
			echo "# round $r -q $q $name: $rate Mpps ($api)"
			echo "$rate" >>"$work/$q.$c"
		done
	done
done

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; else print "-" }'; }
all() { if [[ -s $1 ]]; then tr '\n' ' ' <"$1" | sed 's/ $//'; else echo -; fi; }

mtu=$(ibv_devinfo -d "$dev" | awk '/active_mtu/ { print $2; exit }')
echo "write_bw, 64 B, -D $secs, $rounds rounds, cases alternating; Soft-RoCE $dev (active MTU $mtu), server and client on it"
echo "kernel $(uname -r), guest CPUs $(nproc), $(ib_write_bw --version 2>/dev/null | head -1 | tr -d '\n')"
printf '| %-32s | %3s | %9s | %-28s |\n' case q "Mpps med" runs
for q in "${qps[@]}"; do
	for c in "${!cases[@]}"; do
		printf '| %-32s | %3s | %9s | %-28s |\n' "${cases[c]%%|*}" "$q" \
			"$(median <"$work/$q.$c" 2>/dev/null || echo -)" \
			"$(all "$work/$q.$c")"
	done
done
