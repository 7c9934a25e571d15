#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Checks the test bed's leaf-spine fabric: every device's port is on the
# leaf its variables name, the topology file is in its format and numbers
# the ports as the bridges do, and a shaped cable between a leaf and the
# spine slows a pair of devices across it and not a pair inside a leaf.
# Prints each write_bw figure; exits 1 when any of that does not hold.
#   tests/softroce/rxe-run --devices N --leaves L -- \
#       tests/softroce/uplink-check.sh BUILD [RATE_MBIT]
# Needs a leaf holding two devices (N > L) and L >= 2.
set -uo pipefail

readonly ITERS=1000 SIZE=4096 PORT=${RDP_MESH_PORT:-18700} LIMIT_S=120

BUILD=${1:?usage: uplink-check.sh BUILD_DIR [RATE_MBIT] (inside rxe-run)}
RATE=${2:-50}
: "${RDP_RXE_DEVS:?run this inside tests/softroce/rxe-run --leaves L}"
read -ra DEVS <<<"$RDP_RXE_DEVS"
N=${#DEVS[@]}
L=${RDP_RXE_LEAVES:-1}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/uplink-check.XXXXXX")
SERVERS=() SHAPED=() FAILED=0

# shellcheck disable=SC2317 # reached through the EXIT trap
cleanup() {
	local dev
	for dev in "${SHAPED[@]}"; do
		tc qdisc del dev "$dev" root 2>/dev/null
	done
	((${#SERVERS[@]} == 0)) || kill "${SERVERS[@]}" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT

bad() {
	echo "uplink-check: FAIL: $*"
	FAILED=$((FAILED + 1))
}

var() { local v=$1; echo "${!v}"; }

# The bridge a port hangs from, and its port number there (decimal).
master_of() { basename "$(readlink "/sys/class/net/$1/master")"; }
port_no() { echo $(($(cat "/sys/class/net/$1/brport/port_no"))); }

# Each device's bridge port on its leaf, each topology line in its format
# and on the port the bridge gave it.
check_wiring() {
	local i k a b c d lines=0 want
	for ((i = 0; i < N; i++)); do
		[[ $(master_of "$(var "RDP_RXE_BRPORT$i")") == \
			"$(var "RDP_RXE_LEAF$i")" ]] ||
			bad "rxe$i: its port is not on $(var "RDP_RXE_LEAF$i")"
	done
	while read -r a b c d; do
		[[ -n $a && $a != \#* ]] || continue
		lines=$((lines + 1))
		# The last match fills BASH_REMATCH.
		if [[ $b =~ ^[0-9]+$ && $a =~ ^node([0-9]+)$ ]]; then
			i=${BASH_REMATCH[1]}
			want="RDP_RXE_BRPORT$i"
			[[ $c == "$(var "RDP_RXE_LEAF$i")" &&
				$d == "$(port_no "${!want}")" ]] ||
				bad "topology: '$a $b $c $d' is not rxe$i's port"
		elif [[ $c == spine && $b =~ ^[0-9]+$ && $d =~ ^[0-9]+$ &&
			$a =~ ^leaf([0-9]+)$ ]]; then
			k=${BASH_REMATCH[1]}
			[[ $b == "$(port_no "$(var "RDP_RXE_UPLINK$k")")" &&
				$d == "$(port_no "$(var "RDP_RXE_DOWNLINK$k")")" &&
				$(master_of "$(var "RDP_RXE_DOWNLINK$k")") == spine ]] ||
				bad "topology: '$a $b $c $d' is not leaf$k's cable"
		else
			bad "topology: '$a $b $c $d' is in neither format"
		fi
	done <"$RDP_RXE_TOPOLOGY"
	((lines == N + L)) ||
		bad "topology: $lines links, wanted $N devices + $L cables"
	echo "uplink-check: wiring of $N devices on $L leaves:" \
		"$RDP_RXE_TOPOLOGY has $lines links"
}

packets() { cat "/sys/class/net/$1/statistics/tx_packets"; }

# write_bw from device $1 to device $2 under the label $3; prints its
# line with the packets the cable $4's two ends sent meanwhile, and sets
# BW (Gb/s) and CROSSED (those packets).
run_pair() {
	local i=$1 j=$2 up dn u0 d0 rc
	up=$(var "RDP_RXE_UPLINK$4") dn=$(var "RDP_RXE_DOWNLINK$4")
	u0=$(packets "$up") d0=$(packets "$dn")
	timeout "$LIMIT_S" "$BUILD/rdmaperf" write_bw -d "rxe$i" \
		--bind_source_ip="$(var "RDP_RXE_ADDR$i")" -n "$ITERS" -s "$SIZE" \
		--report_gbits -p "$PORT" "$(var "RDP_RXE_ADDR$j")" \
		>"$WORK/out" 2>&1
	rc=$?
	CROSSED=$(($(packets "$up") - u0 + $(packets "$dn") - d0))
	BW=$(awk -v s="$SIZE" '$1 == s && NF >= 4 { print $4 }' "$WORK/out")
	printf 'uplink-check: %-26s rxe%d -> rxe%d: %s Gb/s, %d packets on %s\n' \
		"$3" "$i" "$j" "${BW:-none}" "$CROSSED" "$up/$dn"
	if ((rc != 0)) || [[ -z $BW ]] ||
		! grep -q '^ *Data check *: ok' "$WORK/out"; then
		sed 's/^/    | /' "$WORK/out"
		bad "rxe$i -> rxe$j ($3): exit $rc"
		BW=0
	fi
}

# $1 < $2 * $3 for decimal figures.
below() { awk -v a="$1" -v b="$2" -v f="$3" 'BEGIN { exit !(a < b * f) }'; }

main() {
	local i a=0 b=1 x k in0 x0 in1 x1 dev
	if ((L < 2 || N <= L)); then
		echo "uplink-check: needs rxe-run --leaves 2 or more, and more" \
			"devices than leaves" >&2
		exit 2
	fi
	check_wiring
	# A pair inside leaf 0 and one from leaf 0 to the last leaf, whose
	# cable is the one shaped.
	[[ $(var RDP_RXE_LEAF0) == "$(var RDP_RXE_LEAF1)" ]] ||
		{ echo "uplink-check: rxe0 and rxe1 on different leaves" >&2; exit 2; }
	x=$((N - 1)) k=$((L - 1))
	for ((i = 0; i < N; i++)); do
		"$BUILD/rdmaperf-server" -d "rxe$i" --bind \
			"$(var "RDP_RXE_ADDR$i")" -p "$PORT" \
			>"$WORK/server$i.log" 2>&1 &
		SERVERS+=($!)
	done
	run_pair "$a" "$b" "inside leaf0, unshaped" "$k"
	in0=$BW
	((CROSSED < ITERS / 10)) || bad "a pair inside leaf0 used uplink$k"
	run_pair "$a" "$x" "across, unshaped" "$k"
	x0=$BW
	((CROSSED >= 2 * ITERS)) || bad "rxe$a -> rxe$x missed uplink$k"
	for dev in "$(var "RDP_RXE_UPLINK$k")" "$(var "RDP_RXE_DOWNLINK$k")"; do
		tc qdisc add dev "$dev" root tbf rate "${RATE}mbit" \
			burst 16kb latency 100ms || bad "tc on $dev failed"
		SHAPED+=("$dev")
	done
	echo "uplink-check: leaf$k's cable shaped to $RATE Mbit/s each way"
	run_pair "$a" "$b" "inside leaf0, shaped" "$k"
	in1=$BW
	run_pair "$a" "$x" "across, shaped" "$k"
	x1=$BW
	# The shaper holds the pair across under its rate (with its burst);
	# the pair inside a leaf keeps at least half its speed (emulation
	# noise) and stays faster than the shaped rate.
	below "$x1" "$RATE" 0.0013 || bad "across: $x1 Gb/s, over $RATE Mbit/s"
	below "$x1" "$x0" 0.8 || bad "across: $x1 Gb/s shaped, $x0 unshaped"
	below "$in0" "$in1" 2 || bad "inside: $in1 Gb/s shaped, $in0 unshaped"
	below "$x1" "$in1" 1 || bad "inside $in1 Gb/s, not over across $x1"
	echo "uplink-check: $FAILED failed"
	((FAILED == 0))
}

main
