#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# A mesh round's overhead with and without kept resources: RUNS
# alternating pairs of 4-node pairwise write_bw meshes at -D 2, first
# RDP_MESH_KEEP=0 (every session opens and closes everything), then the
# default (device, buffer, CQs and clock kept for the job); per round
# (wall - measured) / wall from mesh.json, the client's phases from each
# cell's document, the servers' from the rank logs.
# With --base BASE_DIR, each pair is instead BASE_DIR's build, then
# BUILD_DIR's, both keeping their resources: two trees compared.
# Run under tests/softroce/rxe-run --devices 4.
# Usage: mesh-round-overhead.sh [--base BASE_DIR] BUILD_DIR OUT_DIR [RUNS [MESH ARGS...]]
set -u
BASE=
if [ "${1:-}" = --base ]; then
	BASE=$(cd "${2:?base build directory}" && pwd) || exit 2
	shift 2
fi
BUILD=$(cd "${1:?build directory}" && pwd)
OUT=${2:?output directory}
RUNS=${3:-3}
shift 3 2>/dev/null || shift $#
ARGS=("$@")
[ ${#ARGS[@]} -gt 0 ] || ARGS=(write_bw -D 2 --tolerance 90)
DEVS="$RDP_RXE_DEV0,$RDP_RXE_DEV1,$RDP_RXE_DEV2,$RDP_RXE_DEV3"
mkdir -p "$OUT" 2>/dev/null || OUT=$(mktemp -d)
# Open MPI refuses a host named "(none)": name the throw-away guest.
if [ "${RDP_RXE_MODE:-}" = qemu ] && [ "$(hostname)" = "(none)" ]; then
	hostname rdp-guest
fi

# one RUN KEEP [BUILD LABEL]
one() {
	local run=$1 keep=$2 build=${3:-$BUILD} label=${4:-keep$2}
	local dir=$OUT/run$1-$label rc t0 t1
	rm -rf "$dir"
	t0=$(date +%s.%N)
	RDP_MESH_NODE='node%r' RDP_MESH_KEEP=$keep timeout 600 \
		mpirun --allow-run-as-root --oversubscribe -np 4 \
		-x RDP_MESH_NODE -x RDP_MESH_KEEP --mca pml ob1 \
		--mca btl self,vader,tcp "$build/rdmaperf-mesh" "${ARGS[@]}" \
		-d "$DEVS" --output-dir "$dir" >"$dir.out" 2>&1
	rc=$?
	t1=$(date +%s.%N)
	echo "== run $run, $label ($build), RDP_MESH_KEEP=$keep: exit $rc, mpirun wall $(echo "$t1 - $t0" | bc) s"
	grep -h "^time:" "$dir.out"
	[ -s "$dir/mesh.json" ] || { tail -5 "$dir.out"; return; }
	echo "round wall_s pair_s measured_s overhead_pct"
	jq -r '.rounds[] | select(.timing) | .timing as $t |
		"\(.round) \($t.wall_s * 1000 | round / 1000) \($t.pair_s * 1000 | round / 1000) \($t.measured_s * 1000 | round / 1000) \(100 * ($t.wall_s - $t.measured_s) / $t.wall_s * 10 | round / 10)"' \
		"$dir/mesh.json"
	jq -r '"all rounds: \(.timing.overhead_pct * 10 | round / 10) % overhead, wall \(.timing.wall_s * 100 | round / 100) s, measured \(.timing.measured_s * 100 | round / 100) s"' \
		"$dir/mesh.json"
	jq -r '[.cells[] | .result.phases_s | select(. != null)] as $p |
		if ($p | length) == 0 then "client phases: none" else
		"client phases, mean ms: " + ([$p[0] | keys_unsorted[] as $k |
		"\($k) \([$p[][$k]] | add / length * 1000 | round)"] | join(", ")) end' \
		"$dir/mesh.json"
	jq -r '[.cells[] | .result.results[-1].elapsed_s | select(. != null)] | "cells elapsed_s: min \(min * 1000 | round) ms, mean \(add / length * 1000 | round) ms, max \(max * 1000 | round) ms"' \
		"$dir/mesh.json"
	jq -r '[.cells[] | .result | select(.phases_s.loop != null and
		.results[-1].elapsed_s != null) |
		.phases_s.loop - .results[-1].elapsed_s] |
		if length == 0 then "loop - elapsed_s: none" else
		"client loop phase - elapsed_s: min \(min * 1000 | round) ms, mean \(add / length * 1000 | round) ms, max \(max * 1000 | round) ms" end' \
		"$dir/mesh.json"
	jq -r '[.cells[] | .result.kept | select(. != null)] | "kept (client side, at each cell): " + (map("\(.sessions)/\(.device_opens)/\(.clock_calibrations)/\(.conns_built)/\(.conns_reused)") | join(" ")) + "  (sessions/device opens/clock calibrations/conns built/reused)"' \
		"$dir/mesh.json"
	grep -h "times:" "$dir"/rank-*.log | sed 's/^/server: /'
}

for ((i = 1; i <= RUNS; i++)); do
	if [ -n "$BASE" ]; then
		one "$i" 1 "$BASE" base
		one "$i" 1 "$BUILD" new
	else
		one "$i" 0
		one "$i" 1
	fi
done
