#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Benchmark (not a test): how long the page of `rdmaperf report` takes for
# a 1 024-node mesh (a million cells a rail) made by `rdmaperf mesh
# --simulate`. Prints, and writes to bench-results/report-html.md: the
# time rdmaperf report takes to write the page, its size, and over RUNS
# loads in headless Chromium the page's own figures (it writes them into
# #rdp-done): its script, from parsing the data to the last drawing, and
# the time from the start of the load to then.
# Usage: scripts/bench-report-html.sh [BUILD] [NODES] [RAILS] [RUNS]
#   defaults: the tree, 1024 nodes, 1 rail, 3 runs. RDP_CHROMIUM: the browser.
set -euo pipefail
build=${1:-.}
nodes=${2:-1024}
rails=${3:-1}
runs=${4:-3}
tool=$build/rdmaperf
top=$(cd "$(dirname "$0")/.." && pwd)
result=$top/bench-results/report-html.md
[[ -x $tool ]] || { echo "bench-report-html: no $tool (build first)" >&2; exit 2; }
browser=${RDP_CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
[[ -n $browser ]] || { echo "bench-report-html: needs chromium (apt-get install chromium)" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

"$tool" mesh --simulate "$nodes" --rails "$rails" --seed 1 \
	--inject "nic:node$((nodes / 7))=60%,uplink:leaf1:spine2=down,errors:node$((nodes / 3))=5" \
	--output-dir "$out/mesh" >"$out/sim.log" 2>&1 || true
[[ -s $out/mesh/mesh.json ]] || { cat "$out/sim.log"; exit 1; }
t0=$(date +%s.%N)
"$tool" report "$out/mesh/mesh.json" --html "$out/page.html" >/dev/null
t1=$(date +%s.%N)
write_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
size=$(stat -c %s "$out/page.html")
cells=$(grep -o '"cells": *[0-9]*' "$out/mesh/mesh.json" | head -n 1 | grep -o '[0-9]*$')

script_ms=() page_ms=()
for ((i = 1; i <= runs; i++)); do
	timeout 600 "$browser" --headless --disable-gpu --no-sandbox \
		--no-first-run --virtual-time-budget=60000 --dump-dom \
		"file://$out/page.html" >"$out/dom" 2>/dev/null
	grep -q 'id="rdp-done"' "$out/dom" || { echo "run $i: the page did not finish drawing" >&2; exit 1; }
	script_ms+=("$(sed -n 's/.*id="rdp-done" data-ms="\([0-9.]*\)".*/\1/p' "$out/dom")")
	page_ms+=("$(sed -n 's/.*data-page-ms="\([0-9.]*\)".*/\1/p' "$out/dom")")
done

{
	echo "# rdmaperf report: the page of a ${nodes}-node mesh"
	echo
	echo "$(date -u +%Y-%m-%d), $(nproc) CPUs ($(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n 1)),"
	echo "$("$browser" --version 2>/dev/null | head -n 1), headless. Made by"
	echo "\`scripts/bench-report-html.sh $build $nodes $rails $runs\` (not a test)."
	echo
	echo "| nodes | rails | cells | page | rdmaperf report | script (ms), each load | load to drawn (ms), each load |"
	echo "|---|---|---|---|---|---|---|"
	echo "| $nodes | $rails | $cells | $((size / 1024 / 1024)) MiB | ${write_s} s | ${script_ms[*]} | ${page_ms[*]} |"
	echo
	echo "The script's time runs from parsing the data element to the last"
	echo "drawing (the heatmap's pixels, the tables); load to drawn adds reading and"
	echo "parsing the HTML. Both are the page's own figures from #rdp-done."
} | tee "$result"
