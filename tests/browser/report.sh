#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The pages of `rdmaperf report` in a real browser: each fixture of
# tests/fixtures/report (a run, a sweep with latency, a certify folder, a
# compare pair, a 4-node mesh) and a 1 024-node mesh made by `rdmaperf
# mesh --simulate`, loaded in headless Chromium. A page passes when its
# script wrote #rdp-done (it does so only after drawing everything), no
# #rdp-error, what its kind draws is in the DOM, and the browser logged
# no console message ("Uncaught", a refused load); a screenshot of each
# is kept. Not timed: scripts/bench-report-html.sh measures.
# Usage: tests/browser/report.sh [BUILD [OUT]]
#   BUILD: where rdmaperf is (default .); OUT: the pages, DOMs, logs and
#   screenshots (default BUILD/tests/browser/out).
#   RDP_CHROMIUM: the browser (default chromium, chromium-browser);
#   RDP_BROWSER_BIG=0 leaves the 1 024-node mesh out.
# Exit 0 when every page passed, 1 otherwise, 77 without a browser.
set -uo pipefail
build=$(cd "${1:-.}" && pwd)
out=${2:-$build/tests/browser/out}
src=$(cd "$(dirname "$0")/../.." && pwd)
fix=$src/tests/fixtures/report
tool=$build/rdmaperf
[[ -x $tool ]] || { echo "report.sh: no $tool (build first)"; exit 1; }
browser=${RDP_CHROMIUM:-}
if [[ -z $browser ]]; then
	for b in chromium chromium-browser; do
		command -v "$b" >/dev/null && { browser=$b; break; }
	done
fi
if [[ -z $browser ]]; then
	echo "SKIP: no headless browser (Debian: apt-get install chromium; or set RDP_CHROMIUM)"
	exit 77
fi
rm -rf "$out" && mkdir -p "$out"
pass=0 fail=0 n=0

# chrome NAME ARGS...: the browser on OUT/NAME.html, its log in NAME.log.
chrome() {
	local name=$1
	shift
	timeout 300 "$browser" --headless --disable-gpu --no-sandbox \
		--no-first-run --disable-extensions --hide-scrollbars \
		--enable-logging=stderr --v=0 --virtual-time-budget=20000 \
		"$@" "file://$out/$name.html" 2>>"$out/$name.log"
}

# page NAME "DOM WORDS|..." REPORT-ARGS...: the page made, loaded, checked.
page() {
	local name=$1 want=$2 why='' w
	shift 2
	n=$((n + 1))
	if ! "$tool" report "$@" --html "$out/$name.html" >"$out/$name.log" 2>&1; then
		why="rdmaperf report failed: $(tail -n 1 "$out/$name.log")"
	elif ! chrome "$name" --dump-dom >"$out/$name.dom"; then
		why="the browser failed (exit $?), see $out/$name.log"
	elif ! grep -q 'id="rdp-done"' "$out/$name.dom"; then
		why="no #rdp-done: the script did not finish"
	elif grep -q '<div id="rdp-error"' "$out/$name.dom"; then
		why="#rdp-error: $(grep -o '<div id="rdp-error">[^<]*' "$out/$name.dom" | head -c 300)"
	elif grep -qE 'Uncaught|CONSOLE|Refused to' "$out/$name.log"; then
		why="console: $(grep -E 'Uncaught|CONSOLE|Refused to' "$out/$name.log" | head -n 2)"
	else
		IFS='|' read -ra words <<<"$want"
		for w in "${words[@]}"; do
			grep -qF -- "$w" "$out/$name.dom" || { why="the DOM lacks '$w'"; break; }
		done
	fi
	if [[ -z $why ]]; then
		chrome "$name" --window-size=1280,2000 \
			--screenshot="$out/$name.png" >/dev/null
		[[ -s $out/$name.png ]] || why="no screenshot"
	fi
	if [[ -z $why ]]; then
		echo "ok $n - $name ($(grep -o 'data-ms="[^"]*"' "$out/$name.dom"))"
		pass=$((pass + 1))
	else
		echo "not ok $n - $name: $why"
		fail=$((fail + 1))
	fi
}

page run '<svg|Bandwidth|below the limit|min 50 Gb/s' "$fix/run.json"
page sweep-lat '<svg|Latency percentiles|Latency histogram|max p99.9' \
	"$fix/sweep-lat.json"
page certify 'Certification|band 90-98.75%|write_lat.json' "$fix/certify"
page compare 'Compare|REGRESSION|MISSING|(base)' --compare \
	"$fix/compare-base.json" "$fix/compare-new.json"
page mesh4 '<canvas|Rail 1|Outliers|Faults located' "$fix/mesh4/mesh.json"
if [[ ${RDP_BROWSER_BIG:-1} != 0 ]]; then
	"$tool" mesh --simulate 1024 --inject \
		nic:node17=50%,uplink:leaf3:spine1=down,errors:node200=5 \
		--output-dir "$out/mesh1024" >"$out/mesh1024-sim.log" 2>&1
	page mesh1024 '<canvas|Outliers|uplink leaf3' "$out/mesh1024/mesh.json"
	rm -f "$out/mesh1024"/cells.* "$out/mesh1024"/*.csv
fi
echo "browser: $pass passed, $fail failed, 0 skipped ($browser, pages in $out)"
[[ $fail -eq 0 ]]
