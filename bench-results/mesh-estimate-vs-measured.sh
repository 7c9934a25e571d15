#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# What `rdmaperf mesh --plan N --estimate -D 2` says a mesh takes, next to
# what rdmaperf-mesh took for the same plan: for each node count and
# pattern, the estimate at the default --round-overhead, the mesh's
# timing from mesh.json (rounds, wall, measured, bootstrap), mpirun's own
# wall, the overhead a round it measured, and the estimate again with that
# overhead (its own, and the one measured on the pairwise mesh of the same
# node count). The guest's free memory is sampled while each mesh runs.
# Run under tests/softroce/rxe-run --devices 8 (or as many devices as the
# largest node count).
# Usage: mesh-estimate-vs-measured.sh BUILD_DIR OUT_DIR [NODES...]
# (default nodes: 4 6 8; a count beyond the bed's devices is left out,
# saying so)
set -u
BUILD=$(cd "${1:?build directory}" && pwd)
OUT=${2:?output directory}
shift 2
NODES=("$@")
[ ${#NODES[@]} -gt 0 ] || NODES=(4 6 8)
D=2
TEST=(write_bw -D "$D" --tolerance 90)
# name: the plan's options, the same for the estimate and the mesh
CASES=("pairwise:" "pairwise-b:-b"
	"bisection:--pattern bisection --permutations 2"
	"bisection-b:--pattern bisection --permutations 2 -b")
mkdir -p "$OUT" || exit 1
# Open MPI refuses a host named "(none)": name the throw-away guest.
if [ "${RDP_RXE_MODE:-}" = qemu ] && [ "$(hostname)" = "(none)" ]; then
	hostname rdp-guest
fi
echo "bed: ${RDP_RXE_MODE:-?}, devices: ${RDP_RXE_DEVS:-none}," \
	"$(nproc) CPUs, $(awk '/MemTotal/ { print int($2 / 1024) }' \
		/proc/meminfo) MiB, up $(cut -d' ' -f1 /proc/uptime) s"

# The first N devices of the bed, as -d takes them.
devs() {
	local i list=""
	for ((i = 0; i < $1; i++)); do
		eval "list=\$list\${list:+,}\$RDP_RXE_DEV$i"
	done
	echo "$list"
}

# The estimate's rounds and wall seconds: "ROUNDS WALL_S".
estimate() {
	local n=$1 over=$2
	shift 2
	"$BUILD/rdmaperf" mesh --plan "$n" --estimate -D "$D" \
		${over:+--round-overhead "$over"} "$@" |
		awk '/^rounds:/ { r = $2 }
			/^round time:/ { t = $3 }
			END { printf "%d %.2f\n", r, r * t }'
}

# The lowest MemAvailable (MiB) seen while pid $1 runs, into $2.
watch_memory() {
	local low=999999 m
	while kill -0 "$1" 2>/dev/null; do
		m=$(awk '/MemAvailable/ { print int($2 / 1024) }' /proc/meminfo)
		((m < low)) && low=$m
		sleep 0.5
	done
	echo "$low" >"$2"
}

# One mesh: prints one table row, keeps its files in $OUT/mN-NAME.
one() {
	local n=$1 name=$2 dir=$OUT/m$1-$2 rc t0 t1 pid est mine
	local -a plan
	read -r -a plan <<<"$3"
	rm -rf "$dir" "$dir.out"
	mkdir -p "$dir"
	est=$(estimate "$n" "" "${plan[@]}")
	t0=$(date +%s.%N)
	RDP_MESH_NODE='node%r' timeout 900 \
		mpirun --allow-run-as-root --oversubscribe -np "$n" \
		-x RDP_MESH_NODE --mca pml ob1 --mca btl self,vader,tcp \
		"$BUILD/rdmaperf-mesh" "${TEST[@]}" "${plan[@]}" \
		-d "$(devs "$n")" --output-dir "$dir" >"$dir.out" 2>&1 &
	pid=$!
	watch_memory "$pid" "$dir.mem" &
	wait "$pid"
	rc=$?
	t1=$(date +%s.%N)
	wait
	if [ ! -s "$dir/mesh.json" ]; then
		echo "$n $name exit $rc: no mesh.json"
		tail -5 "$dir.out"
		return
	fi
	# rounds wall measured bootstrap overhead-a-round cells ok
	mine=$(jq -r --argjson d "$D" '.timing as $t |
		"\($t.rounds) \($t.wall_s) \($t.measured_s) \($t.bootstrap_s)" +
		" \($t.wall_s / $t.rounds - $d)" +
		" \(.cells | length) \([.cells[] | select(.status == "ok")] | length)"' \
		"$dir/mesh.json")
	echo "$n $name $rc $est $(echo "$t1 - $t0" | bc) $mine $(cat "$dir.mem")" |
		awk '{ printf "%s %s exit %s | estimate %s rounds %s s |" \
			" mpirun %.2f s | mesh.json %s rounds, wall %.2f s," \
			" measured %.2f s, bootstrap %.2f s, overhead %.3f s a" \
			" round | cells %s, ok %s | low MemAvailable %s MiB\n",
			$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12,
			$13, $14 }'
	echo "$mine" | awk '{ print $5 }' >"$dir.over"
}

# The estimate again with a measured overhead a round: "ROUNDS WALL_S".
again() {
	local n=$1 name=$2 over_from=$3 over
	local -a plan
	read -r -a plan <<<"$4"
	over=$(cat "$OUT/m$n-$over_from.over" 2>/dev/null) || return
	over=$(awk -v o="$over" 'BEGIN { printf "%.3f", o < 0 ? 0 : o }')
	echo "$n $name: with $over_from's $over s a round:" \
		"$(estimate "$n" "$over" "${plan[@]}" |
			awk '{ printf "%s rounds %s s", $1, $2 }')"
}

for n in "${NODES[@]}"; do
	if ! eval "[ -n \"\${RDP_RXE_DEV$((n - 1)):-}\" ]"; then
		echo "$n nodes: left out, the bed has fewer devices"
		continue
	fi
	echo "== $n nodes"
	for c in "${CASES[@]}"; do
		one "$n" "${c%%:*}" "${c#*:}"
	done
	for c in "${CASES[@]}"; do
		again "$n" "${c%%:*}" "${c%%:*}" "${c#*:}"
		[ "${c%%:*}" = pairwise ] ||
			again "$n" "${c%%:*}" pairwise "${c#*:}"
	done
done
