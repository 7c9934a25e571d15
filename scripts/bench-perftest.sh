#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Benchmark (not a test): rdmaperf against perftest on the same Soft-RoCE
# device in one boot, alternating tool by tool, several rounds; prints the
# median of each figure and the ratio rdmaperf / perftest.
# Usage: scripts/bench-perftest.sh [ROUNDS] [rc|transports]   (as root;
# builds first). "transports" measures UD and UC against perftest -c UD/UC,
# with RC beside them, on 9000-byte veths (active MTU 4096), so that a
# 2 KiB UD message is one packet.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ${1:-} != --inside ]]; then
	set_=${2:-rc}
	case $set_ in
	rc) mtu_opt=() ;;
	transports) mtu_opt=(--mtu 9000) ;;
	*) echo "unknown set '$set_': rc or transports" >&2; exit 2 ;;
	esac
	scripts/install-deps.sh >/dev/null
	scripts/build.sh
	exec tests/softroce/rxe-run "${mtu_opt[@]}" --timeout 1800 -- "$0" --inside "${1:-5}" "$set_"
fi
set +e
rounds=${2:-5} set_=${3:-rc}
dev=$RDP_RXE_DEV0 addr=$RDP_RXE_ADDR0 gid=$RDP_RXE_GID_INDEX0
work=$(mktemp -d)
./rdmaperf-server -d "$dev" -p 18515 >"$work/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
sleep 1

# Print field N of the result row for size S from a report on stdin.
row_field() {
	awk -v s="$1" -v n="$2" '$1 == s && NF >= 5 { print $n; exit }'
}

# Is something listening on TCP port $1 (IPv4 or IPv6)?
listening() {
	local hex
	hex=$(printf ':%04X ' "$1")
	grep -qs "$hex.* 0A " /proc/net/tcp /proc/net/tcp6
}

# perftest: a fresh one-shot server per run, as it requires, on a fresh port,
# and the client started only once the server listens (a client that comes
# too early leaves the server waiting forever).
pt_port=18600
perftest() {
	local tool=$1 size=$2 field=$3 i
	shift 3
	pt_port=$((pt_port + 1))
	timeout 300 "$tool" -d "$dev" -x "$gid" -p "$pt_port" -s "$size" "$@" \
		>/dev/null 2>&1 &
	local spid=$!
	for i in $(seq 100); do
		listening "$pt_port" && break
		sleep 0.1
	done
	timeout 300 "$tool" -d "$dev" -x "$gid" -p "$pt_port" -s "$size" "$@" \
		"$addr" 2>/dev/null | row_field "$size" "$field"
	wait "$spid" || true
}

rdmaperf() {
	local test=$1 size=$2 field=$3
	shift 3
	timeout 300 ./rdmaperf "$test" -d "$dev" -s "$size" "$@" "$addr" \
		2>/dev/null | row_field "$size" "$field"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# name | rdmaperf args | perftest tool and args | result field. Bandwidth in
# both tools' default unit, 2^20 bytes/s, printed with two decimals: finer
# than Gb/s at Soft-RoCE rates.
rc_cases=(
	"write_bw 64 KiB -q 1 [MiB/s]|write_bw 65536 4 -n 2000|ib_write_bw 65536 4 -n 2000"
	"write_bw 64 KiB -q 4 [MiB/s]|write_bw 65536 4 -n 500 -q 4|ib_write_bw 65536 4 -n 500 -q 4"
	"read_bw 64 KiB -q 1 [MiB/s]|read_bw 65536 4 -n 2000|ib_read_bw 65536 4 -n 2000"
	"send_bw 64 KiB -q 1 [MiB/s]|send_bw 65536 4 -n 2000|ib_send_bw 65536 4 -n 2000"
	"write_lat 2 B t_typical [us]|write_lat 2 5 -n 5000|ib_write_lat 2 5 -n 5000"
	"read_lat 2 B t_typical [us]|read_lat 2 5 -n 5000|ib_read_lat 2 5 -n 5000"
	"send_lat 2 B t_typical [us]|send_lat 2 5 -n 5000|ib_send_lat 2 5 -n 5000"
)
# The senders' figures on both sides (on UD a receiver may see fewer).
transport_cases=(
	"UD send_bw 2 KiB [MiB/s]|send_bw 2048 4 -n 5000 -c UD|ib_send_bw 2048 4 -n 5000 -c UD"
	"RC send_bw 2 KiB [MiB/s]|send_bw 2048 4 -n 5000|ib_send_bw 2048 4 -n 5000"
	"UD send_lat 2 B t_typical [us]|send_lat 2 5 -n 5000 -c UD|ib_send_lat 2 5 -n 5000 -c UD"
	"RC send_lat 2 B t_typical [us]|send_lat 2 5 -n 5000|ib_send_lat 2 5 -n 5000"
	"UC write_bw 64 KiB [MiB/s]|write_bw 65536 4 -n 2000 -c UC|ib_write_bw 65536 4 -n 2000 -c UC"
	"RC write_bw 64 KiB [MiB/s]|write_bw 65536 4 -n 2000|ib_write_bw 65536 4 -n 2000"
)
if [[ $set_ == transports ]]; then
	cases=("${transport_cases[@]}")
else
	cases=("${rc_cases[@]}")
fi

for ((r = 1; r <= rounds; r++)); do
	for i in "${!cases[@]}"; do
		IFS='|' read -r _ mine theirs <<<"${cases[$i]}"
		# shellcheck disable=SC2086
		rdmaperf $mine >>"$work/mine.$i"
		# shellcheck disable=SC2086
		perftest $theirs >>"$work/theirs.$i"
	done
	echo "round $r of $rounds done" >&2
done

mtu=$(ibv_devinfo -d "$dev" | awk '/active_mtu/ { print $2; exit }')
echo "rdmaperf vs perftest on Soft-RoCE ($dev, active MTU $mtu), $rounds rounds alternating, medians"
echo "kernel $(uname -r), $(nproc) CPUs, $(ib_write_bw --version 2>/dev/null | head -1 | tr -d '\n' || true)"
printf '%-30s %12s %12s %8s\n' "figure" "rdmaperf" "perftest" "ratio"
for i in "${!cases[@]}"; do
	IFS='|' read -r name _ _ <<<"${cases[$i]}"
	m=$(median <"$work/mine.$i")
	t=$(median <"$work/theirs.$i")
	printf '%-30s %12s %12s %8s\n' "$name" "$m" "$t" \
		"$(awk -v a="$m" -v b="$t" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "n/a" }')"
	echo "  samples rdmaperf: $(tr '\n' ' ' <"$work/mine.$i")"
	echo "  samples perftest: $(tr '\n' ' ' <"$work/theirs.$i")"
done
