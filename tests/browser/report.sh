#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The pages of `rdmaperf report` in a real browser: each fixture of
# tests/fixtures/report (a run, a sweep with latency, a certify folder, a
# compare pair, a 4-node mesh, the same with latency, retests and timing) and a 1 024-node mesh made by `rdmaperf
# mesh --simulate`, loaded in headless Chromium. A page passes when its
# script wrote #rdp-done (it does so only after drawing everything), no
# #rdp-error, what its kind draws is in the DOM, and the browser logged
# no console message ("Uncaught", a refused load); a screenshot of each
# is kept. Then a hover and a click on the 4-node heatmap must show the
# cell's figures and record, and a page whose script throws must be
# caught by these checks. Not timed: scripts/bench-report-html.sh measures.
# Usage: tests/browser/report.sh [BUILD [OUT]]
#   BUILD: where rdmaperf is (default .); OUT: the pages, DOMs, logs and
#   screenshots (default BUILD/tests/browser/out).
#   RDP_CHROMIUM: the browser (default chromium, chromium-browser);
#   RDP_BROWSER_BIG=0 leaves the 1 024-node mesh out; RDP_BROWSER_BED=DIR
#   loads the pages of real runs' documents instead (see below).
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

# RDP_BROWSER_BED=DIR: only the pages of the documents real runs on the
# Soft-RoCE bed left in DIR (tests/integration/lib.sh's bed_page): a
# bandwidth sweep, a latency run and a 4-node mesh.
if [[ -n ${RDP_BROWSER_BED:-} ]]; then
	bed=$RDP_BROWSER_BED
	for kind in sweep lat mesh; do
		[[ -s $bed/$kind.json ]] && continue
		n=$((n + 1)); fail=$((fail + 1))
		echo "not ok $n - bed-$kind: no $bed/$kind.json (the bed's run did not leave it)"
	done
	[[ -s $bed/sweep.json ]] &&
		page bed-sweep '<svg|Bandwidth|write_bw' "$bed/sweep.json"
	[[ -s $bed/lat.json ]] &&
		page bed-lat '<svg|Latency percentiles|write_lat' "$bed/lat.json"
	[[ -s $bed/mesh.json ]] &&
		page bed-mesh '<canvas|node3' "$bed/mesh.json"
	echo "browser: $pass passed, $fail failed, 0 skipped ($browser, pages in $out)"
	[[ $fail -eq 0 ]]
	exit
fi

page run '<svg|Bandwidth|below the limit|min 50 Gb/s' "$fix/run.json"
page sweep-lat '<svg|Latency percentiles|Latency histogram|max p99.9' \
	"$fix/sweep-lat.json"
page certify 'Certification|band 90-98.75%|write_lat.json' "$fix/certify"
page compare 'Compare|REGRESSION|MISSING|(base)' --compare \
	"$fix/compare-base.json" "$fix/compare-new.json"
page mesh4 '<canvas|Rail 1|Outliers|Faults located' "$fix/mesh4/mesh.json"
page mesh4-more '<canvas|latency vs median|Retests: 2|cleared|Timing|Each round|pruned' \
	"$fix/mesh4-more/mesh.json"
# Hover and click on the 4-node page: a script added after the page's
# moves over and clicks cell node0 -> node1 of rail 0 and leaves what the
# tooltip and the cell's panel say in the DOM.
interact() {
	local name=mesh4-click why=''
	n=$((n + 1))
	sed 's|</body>|<script>(function () {\
var c = document.querySelector("canvas"), r = c.getBoundingClientRect();\
var at = { clientX: r.left + r.width * 0.375, clientY: r.top + r.height * 0.125, bubbles: true };\
c.dispatchEvent(new MouseEvent("mousemove", at));\
c.dispatchEvent(new MouseEvent("click", at));\
var o = document.createElement("div"); o.id = "probe";\
o.textContent = "TIP[" + document.querySelector(".tip").textContent + "] PANEL[" +\
	document.querySelector(".cell").textContent + "]";\
document.body.appendChild(o); }());</script></body>|' \
		"$out/mesh4.html" >"$out/$name.html"
	chrome "$name" --dump-dom | tr '\n' ' ' >"$out/$name.dom"
	if ! grep -q 'id="probe"' "$out/$name.dom"; then
		why="the probe did not run"
	elif ! grep -q 'TIP\[node0 → node1, rail 0' "$out/$name.dom"; then
		why="no tooltip for node0 -> node1"
	elif ! grep -q 'PANEL\[node0 → node1, rail 0.*"tx": "node0"' "$out/$name.dom"; then
		why="no record of node0 -> node1 in the cell's panel"
	elif grep -qE 'Uncaught|CONSOLE' "$out/$name.log"; then
		why="console: $(grep -E 'Uncaught|CONSOLE' "$out/$name.log" | head -n 2)"
	fi
	if [[ -z $why ]]; then
		echo "ok $n - $name"; pass=$((pass + 1))
	else
		echo "not ok $n - $name: $why"; fail=$((fail + 1))
	fi
}
interact

# The checks catch a page whose script throws: run.html with its results
# made a number must show #rdp-error, no #rdp-done, and "Uncaught".
selftest() {
	local name=selftest-throw why=''
	n=$((n + 1))
	sed 's/"results":\[/"results":7,"was":[/' "$out/run.html" >"$out/$name.html"
	chrome "$name" --dump-dom >"$out/$name.dom"
	if ! grep -q '<div id="rdp-error"' "$out/$name.dom"; then
		why="no #rdp-error on a page that throws"
	elif grep -q 'id="rdp-done"' "$out/$name.dom"; then
		why="#rdp-done on a page that throws"
	elif ! grep -q 'Uncaught' "$out/$name.log"; then
		why="no 'Uncaught' in the browser's log"
	fi
	if [[ -z $why ]]; then
		echo "ok $n - $name (a throwing page is caught)"; pass=$((pass + 1))
	else
		echo "not ok $n - $name: $why"; fail=$((fail + 1))
	fi
}
selftest
if [[ ${RDP_BROWSER_BIG:-1} != 0 ]]; then
	"$tool" mesh --simulate 1024 --inject \
		nic:node17=50%,uplink:leaf3:spine1=down,errors:node200=5 \
		--output-dir "$out/mesh1024" >"$out/mesh1024-sim.log" 2>&1
	page mesh1024 '<canvas|Outliers|uplink leaf3' "$out/mesh1024/mesh.json"
	rm -f "$out/mesh1024"/cells.* "$out/mesh1024"/*.csv
fi
echo "browser: $pass passed, $fail failed, 0 skipped ($browser, pages in $out)"
[[ $fail -eq 0 ]]
