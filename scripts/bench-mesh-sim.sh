#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Benchmark (not a test): the mesh analysis at cluster size, through
# `rdmaperf mesh --simulate`, which drives the same store, analysis, fault
# localisation and writers as rdmaperf-mesh. Prints, for N nodes and R
# rails over a full pairwise plan, the wall time and peak memory with every
# file written; then, over seeds, how many injected faults of each kind
# were found at 1, 3 and 10 % noise, and how many parts were named that
# were not injected (precision and recall).
# Usage: scripts/bench-mesh-sim.sh [BUILD] [SIZES] [SEEDS]
#   BUILD: the build folder (default: the tree); SIZES: "256 1024";
#   SEEDS: seeds per noise level (default 3). Needs GNU time.
set -euo pipefail
build=${1:-.}
sizes=${2:-256 1024}
seeds=${3:-3}
rails=8
tool=$build/rdmaperf
[[ -x $tool ]] || { echo "bench-mesh-sim: no $tool (build first)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "bench-mesh-sim: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Faults placed by node number, so that every N has them.
inject() {
	local n=$1
	echo "nic:node$((n / 7))=60%,nic:node$((n / 5)):2=60%,cable:node$((n / 3)):3=down,uplink:leaf1:spine2=50%,flaky:node$((n / 2)):1=20%"
}

echo "== time and peak memory, every file written ($rails rails, pairwise, 3 % noise)"
printf '%-7s %-10s %-9s %-11s %s\n' nodes cells wall "peak RSS" "steps"
for n in $sizes; do
	rm -rf "$out/dir"
	/usr/bin/time -f '%e %M' -o "$out/time" "$tool" mesh --simulate "$n" \
		--rails "$rails" --inject "$(inject "$n")" --seed 1 --noise 3 \
		--output-dir "$out/dir" >"$out/log" 2>&1 || true
	read -r wall rss <"$out/time"
	cells=$(sed -n 's/^simulated \([0-9]*\) cells.*/\1/p' "$out/log")
	steps=$(sed -n 's/^time: //p' "$out/log")
	printf '%-7s %-10s %-9s %-11s %s\n' "$n" "$cells" "${wall} s" \
		"$((rss / 1024)) MiB" "$steps"
done

echo "== found / injected per kind, false parts named ($rails rails, $seeds seeds a level)"
printf '%-7s %-6s %-8s %-8s %-8s %-8s %-8s %-6s %s\n' nodes noise nic cable \
	uplink flaky "false" prec recall
for n in $sizes; do
	for noise in 1 3 10; do
		declare -A found=() total=()
		fp=0 named=0 inj=0 hit=0
		for s in $(seq 1 "$seeds"); do
			"$tool" mesh --simulate "$n" --rails "$rails" \
				--inject "$(inject "$n")" --seed "$s" \
				--noise "$noise" >"$out/log" 2>&1 || true
			while read -r kind f t; do
				found[$kind]=$((${found[$kind]:-0} + f))
				total[$kind]=$((${total[$kind]:-0} + t))
			done < <(sed -n 's/^\([a-z]*\): \([0-9]*\) of \([0-9]*\) found$/\1 \2 \3/p' "$out/log")
			read -r i f nm fa < <(sed -n 's/^injected \([0-9]*\), found \([0-9]*\), missed [0-9]*, named \([0-9]*\), false \([0-9]*\).*/\1 \2 \3 \4/p' "$out/log")
			inj=$((inj + i)) hit=$((hit + f)) named=$((named + nm)) fp=$((fp + fa))
		done
		printf '%-7s %-6s %-8s %-8s %-8s %-8s %-8s %-6s %s\n' "$n" "$noise%" \
			"${found[nic]:-0}/${total[nic]:-0}" \
			"${found[cable]:-0}/${total[cable]:-0}" \
			"${found[uplink]:-0}/${total[uplink]:-0}" \
			"${found[flaky]:-0}/${total[flaky]:-0}" "$fp" \
			"$(awk -v a="$named" -v b="$fp" 'BEGIN { printf "%.2f", a ? (a - b) / a : 1 }')" \
			"$(awk -v a="$hit" -v b="$inj" 'BEGIN { printf "%.2f", b ? a / b : 1 }')"
		unset found total
	done
done
