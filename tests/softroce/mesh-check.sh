#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Checks the test bed's mesh: every ordered pair of rxe devices connects and
# moves data that arrives intact, out of the sender's veth and into the
# receiver's (not through lo).  One line per pair; exits 1 when any fails.
#   tests/softroce/rxe-run --devices N -- tests/softroce/mesh-check.sh BUILD
set -uo pipefail

readonly ITERS=200 SIZE=4096 PORT=${RDP_MESH_PORT:-18600} LIMIT_S=120

BUILD=${1:?usage: mesh-check.sh BUILD_DIR (inside tests/softroce/rxe-run)}
: "${RDP_RXE_DEVS:?run this inside tests/softroce/rxe-run --devices N}"
read -ra DEVS <<<"$RDP_RXE_DEVS"
N=${#DEVS[@]}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mesh-check.XXXXXX")
SERVERS=()

# shellcheck disable=SC2317 # reached through the EXIT trap
cleanup() {
	((${#SERVERS[@]} == 0)) || kill "${SERVERS[@]}" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT

# $1: netdev, $2: tx or rx.
packets() { cat "/sys/class/net/$1/statistics/$2_packets"; }

# One write_bw run from device $1 to device $2's address; prints the pair's
# line and returns 1 when it failed.
check_pair() {
	local i=$1 j=$2 dev addr src ndev_i ndev_j tx rx t0 rc bw why=''
	dev=RDP_RXE_DEV$i addr=RDP_RXE_ADDR$j src=RDP_RXE_ADDR$i
	ndev_i=RDP_RXE_NETDEV$i ndev_j=RDP_RXE_NETDEV$j
	tx=$(packets "${!ndev_i}" tx)
	rx=$(packets "${!ndev_j}" rx)
	t0=${EPOCHREALTIME/./}
	timeout "$LIMIT_S" "$BUILD/rdmaperf" write_bw -d "${!dev}" \
		--bind_source_ip="${!src}" -n "$ITERS" -s "$SIZE" \
		--report_gbits -p "$PORT" \
		"${!addr}" >"$WORK/out" 2>&1
	rc=$?
	t0=$(((${EPOCHREALTIME/./} - t0) / 1000))
	tx=$(($(packets "${!ndev_i}" tx) - tx))
	rx=$(($(packets "${!ndev_j}" rx) - rx))
	# The result row: bytes, iterations, peak and average Gb/s, ...
	bw=$(awk -v s="$SIZE" '$1 == s && NF >= 4 { print $4 }' "$WORK/out")
	if ((rc != 0)); then
		why="exit $rc"
	elif [[ -z $bw ]]; then
		why="no result row"
	elif ! grep -q '^ *Data check *: ok' "$WORK/out"; then
		why="no 'Data check: ok'"
	elif ((tx < ITERS || rx < ITERS)); then
		why="the data did not cross ${!ndev_i} and ${!ndev_j}"
	fi
	printf '%s -> %s (%s): %s, %s Gb/s, %s tx +%d, %s rx +%d packets,' \
		"${!dev}" "rxe$j" "${!addr}" "${why:-ok}" "${bw:--}" \
		"${!ndev_i}" "$tx" "${!ndev_j}" "$rx"
	printf ' %d.%03d s\n' $((t0 / 1000)) $((t0 % 1000))
	[[ -z $why ]] && return 0
	sed 's/^/    | /' "$WORK/out"
	return 1
}

main() {
	local i j addr dev failed=0 pairs=0
	if ((N < 2)); then
		echo "mesh-check: needs rxe-run --devices 2 or more" >&2
		exit 2
	fi
	for ((j = 0; j < N; j++)); do
		dev=RDP_RXE_DEV$j addr=RDP_RXE_ADDR$j
		"$BUILD/rdmaperf-server" -d "${!dev}" --bind "${!addr}" \
			-p "$PORT" >"$WORK/server$j.log" 2>&1 &
		SERVERS+=($!)
	done
	# The client retries its connection until the servers listen.
	for ((i = 0; i < N; i++)); do
		for ((j = 0; j < N; j++)); do
			((i != j)) || continue
			pairs=$((pairs + 1))
			check_pair "$i" "$j" || failed=$((failed + 1))
		done
	done
	echo "mesh-check: $N devices, $pairs pairs, $failed failed," \
		"on $(hostname)"
	((failed == 0))
}

main
