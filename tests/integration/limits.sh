# SPDX-License-Identifier: BSD-2-Clause
# Thresholds, certification runs and CI regression: line rate, compare, the
# Soft-RoCE baseline, plots. Sourced by run.sh.

BASELINE_TOL=60%

t_thresholds() {
	local doc=$WORK/lim.json
	begin "--min-bw above the link: exit 1, every failing point named and marked"
	client write_bw -s 4K,64K -n 100 --min-bw 1000 --json-file "$doc"
	[ $? -eq 1 ] || { fail "exit code is not 1"; return; }
	expect_out \
		"4096 B x 1 QP\\(s\\): .* below the limit of 1000.000 Gb/s \\(--min-bw\\)" \
		"65536 B x 1 QP\\(s\\): .* below the limit of 1000.000 Gb/s" \
		"^   \\^ FAIL .*--min-bw" "Limits +: FAIL \\(2 of 2 points fail\\)" || return
	jq_true "$doc" '.verdict.pass == false and .verdict.failed_points == 2
		and .verdict.limits.min_bw_gbps == 1000
		and ([.results[].thresholds.failed[0].limit] == ["min_bw", "min_bw"])' ||
		{ fail "JSON verdict wrong: $(jq -c .verdict "$doc")"; return; }
	pass

	begin "--min-bw and --min-msgrate below the figures: exit 0, verdict pass"
	client write_bw -s 4K,64K -n 100 --min-bw 0.0001 --min-msgrate 0.000001 \
		--json-file "$doc" || { fail "exit $?"; return; }
	grep -Eq "Limits +: pass \\(0 of 2 points fail\\)" "$WORK/out" ||
		{ fail "no pass line"; return; }
	jq_true "$doc" '.verdict.pass and .verdict.points == 2
		and ([.results[].thresholds.pass] | all)' ||
		{ fail "JSON verdict wrong: $(jq -c .verdict "$doc")"; return; }
	pass

	begin "one point fails, the other passes: only that point fails (AND per point)"
	local mid
	client write_bw -s 64,64K -n 100 --json-file "$doc" || { fail "exit $?"; return; }
	# A limit between the two sizes' figures fails the small one only.
	mid=$(jq '[.results[].bw_avg_gbps] | (.[0] + .[1]) / 2' "$doc")
	client write_bw -s 64,64K -n 100 --min-bw "$mid" --json-file "$doc"
	[ $? -eq 1 ] || { fail "exit code is not 1 (limit $mid)"; return; }
	jq_true "$doc" '.verdict.failed_points == 1
		and .results[0].thresholds.pass == false
		and .results[1].thresholds.pass == true' ||
		{ fail "wrong points failed: $(jq -c '[.results[].bw_avg_gbps]' "$doc") vs $mid"; return; }
	pass

	begin "--min-bw as a share of the line rate; % of line rate in text and JSON"
	client write_bw -s 64K -n 100 --min-bw 0.001% --json-file "$doc" ||
		{ fail "exit $?"; return; }
	expect_out "Line rate +: [0-9.]+ Gb/s \\(" "LineRate\\[%\\]" || return
	jq_true "$doc" '.device.line_rate_gbps > 0
		and (.results[0].line_rate_pct - 100 * .results[0].bw_avg_gbps
		     / .device.line_rate_gbps | fabs) < 1e-6
		and .verdict.limits.min_bw_line_rate_pct == 0.001' ||
		{ fail "line rate keys wrong"; return; }
	pass

	begin "--max-lat p99 below the figure: exit 1 naming the percentile"
	client write_lat -s 2 -n 100 --max-lat p99=1ns
	[ $? -eq 1 ] || { fail "exit code is not 1"; return; }
	expect_out "2 B x 1 QP\\(s\\): p99 latency .* above the limit of 0.001 us" || return
	pass
	begin "--max-lat p50 far above the figure: exit 0"
	client write_lat -s 2 -n 100 --max-lat p50=10s,p99=100000ms
	[ $? -eq 2 ] || { fail "10s was accepted as a unit"; return; }
	client write_lat -s 2 -n 100 --max-lat p50=1000ms || { fail "exit $?"; return; }
	grep -Eq "Limits +: pass" "$WORK/out" || { fail "no pass line"; return; }
	pass
}

t_limits_compare() {
	local base=$WORK/base.json drop=$WORK/drop.json
	begin "compare: a 4% drop passes at the default 5%, a 6% drop and a 30% drop are flagged"
	client write_bw -s 4K,64K -n 200 --json-file "$base" || { fail "exit $?"; return; }
	# Either side of the tolerance, each figure named with its change
	# (a file against itself would pass whatever compare computed).
	jq '.results[1].bw_avg_gbps *= 0.96' "$base" >"$drop"
	run_limited 10 "$BUILD/rdmaperf" compare "$base" "$drop" >"$WORK/out" 2>&1 ||
		{ fail "4% drop: exit $?"; return; }
	expect_out "^ write_bw +65536 +1 +bw_avg_gbps .* -4.0% +ok$" \
		"0 regression\(s\) beyond 5.0%.*pass" || return
	jq '.results[1].bw_avg_gbps *= 0.94' "$base" >"$drop"
	run_limited 10 "$BUILD/rdmaperf" compare "$base" "$drop" >"$WORK/out" 2>&1
	[ $? -eq 1 ] || { fail "6% drop not an exit 1"; return; }
	expect_out "^ write_bw +65536 +1 +bw_avg_gbps .* -6.0%  REGRESSION" || return
	jq '.results[1].bw_avg_gbps *= 0.7' "$base" >"$drop"
	run_limited 10 "$BUILD/rdmaperf" compare "$base" "$drop" >"$WORK/out" 2>&1
	[ $? -eq 1 ] || { fail "30% drop not an exit 1"; return; }
	expect_out "^ write_bw +65536 +1 +bw_avg_gbps .* -30.0%  REGRESSION" \
		"^ write_bw +4096 .* ok$" "1 regression\\(s\\) beyond 5.0%.*FAIL" || return
	run_limited 10 "$BUILD/rdmaperf" compare "$base" "$drop" --tolerance 35% \
		>"$WORK/out" 2>&1 || { fail "35% tolerance: exit $?"; return; }
	pass
	begin "compare: unreadable input is exit 2 with one line"
	expect_fail 2 "compare: .*/nothing.json" 10 \
		"$BUILD/rdmaperf" compare "$base" "$WORK/nothing.json"
}

# CI regression: a fresh short run against the committed Soft-RoCE
# baseline, with a tolerance that absorbs emulation noise.
t_limits_baseline() {
	local doc=$WORK/fresh.json base=$HERE/../../bench-results/softroce-baseline.json
	begin "CI: fresh run within $BASELINE_TOL of bench-results/softroce-baseline.json"
	[ -f "$base" ] || { fail "no baseline at $base"; return; }
	# The baseline was taken with a plain build; instrumented code would
	# be compared with figures it cannot match.
	if sanitizer_build; then
		skip "sanitizer build: the baseline is for a plain build"
		return
	fi
	client $(jq -r '.baseline_command' "$base") --json-file "$doc" ||
		{ fail "exit $?"; return; }
	run_limited 10 "$BUILD/rdmaperf" compare "$base" "$doc" \
		--tolerance "$BASELINE_TOL" >"$WORK/out" 2>&1 ||
		{ fail "regression against the baseline"; return; }
	# every point of the baseline measured again, none extra
	expect_out "compare: $(jq '.results | length' "$base") point\(s\), 0 regression\(s\) beyond [0-9.]+%, 0 missing, 0 only in the new run: pass" ||
		return
	pass
}

t_limits_plot() {
	local doc=$WORK/plot.json svg=$WORK/plot.svg
	if ! command -v gnuplot >/dev/null; then
		begin "plot"; skip "gnuplot not installed (gnuplot-nox)"; return
	fi
	begin "plot: a valid SVG naming its axes, from a run's JSON"
	client write_bw -s 4K,64K -q 1,2 -n 100 --json-file "$doc" ||
		{ fail "exit $?"; return; }
	run_limited 30 "$BUILD/rdmaperf" plot "$doc" --svg "$svg" >"$WORK/out" 2>&1 ||
		{ fail "exit $?"; return; }
	python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' \
		"$svg" 2>"$WORK/out" || { fail "not well-formed XML"; return; }
	expect_file "$svg" "<svg" "message size" "bandwidth \\[Gb/s\\]" \
		"write_bw, 1 QP" "write_bw, 2 QPs" \
		"acceptance band|line rate [0-9.]+ Gb/s \\(band [0-9.]+-[0-9.]+ Gb/s\\) is above this range" ||
		return
	pass
	begin "--plot on a latency run draws the percentiles"
	rm -f "$svg"
	client write_lat -s 2,64 -n 100 --plot "$svg" || { fail "exit $?"; return; }
	expect_file "$svg" "latency \\[us\\]" "p99.9" || return
	pass
	begin "plot without gnuplot: exit 77 and how to install it"
	RDP_GNUPLOT=/nonexistent/gnuplot expect_fail 77 "install gnuplot.*gnuplot-nox" 10 \
		"$BUILD/rdmaperf" plot "$doc" --svg "$svg"
}

t_limits_sweep() {
	local doc=$WORK/adapt.json
	begin "a sweep on a terminal prints progress on stderr (point k of n, elapsed, ETA)"
	# script(1) gives the client a terminal; the report goes elsewhere.
	run_limited "$LIMIT" script -qfec "$BUILD/rdmaperf write_lat -s 2,16,64 \
		-n 50 -d $DEV -p $PORT $ADDR >/dev/null" /dev/null \
		</dev/null >"$WORK/out" 2>&1 || { fail "exit $?"; return; }
	expect_out "point 1 of 3: 2 B x 1 QP, 00:0[0-9] elapsed, ETA --:--" \
		"point 3 of 3: 64 B x 1 QP, [0-9:]+ elapsed, ETA [0-9]" || return
	pass
	begin "no progress line when stderr is not a terminal"
	client write_lat -s 2,16 -n 50 || { fail "exit $?"; return; }
	! grep -q "point 1 of" "$WORK/out" || { fail "progress in a pipe"; return; }
	pass

	begin "--time-per-point: batches double until stable or out of time, bounded"
	local t0 t1
	t0=$(date +%s)
	client write_bw -s 64,64K -q 1,2 --time-per-point 1 --target-error 5 \
		--json-file "$doc" || { fail "exit $?"; return; }
	t1=$(date +%s)
	# Four points of at most 1 s each, plus a batch's setup per point.
	[ $((t1 - t0)) -le 20 ] || { fail "took $((t1 - t0)) s"; return; }
	jq_true "$doc" '[.results[] | .adaptive.batches >= 1
		and .adaptive.wall_s < 5
		and .iterations == .adaptive.last_iterations * .num_qps
		and (.adaptive.stable == (.adaptive.change_pct != null
		     and .adaptive.change_pct <= 5))] | all' ||
		{ fail "adaptive keys wrong: $(jq -c '[.results[].adaptive]' "$doc")"; return; }
	expect_out "adaptive: [0-9]+ batch" || return
	pass
}

t_certify_record() {
	local dir=$WORK/cert rc t
	begin "certify: the matrix runs, a one-page record with its JSON (and plots)"
	run_limited 600 "$BUILD/rdmaperf" certify "$ADDR" -d "$DEV" -p "$PORT" \
		--dir "$dir" --sizes 4K,64K --lat-sizes 2 --qp 1,2 \
		--time-per-point 0.5 --band 0.0001-150 >"$WORK/out" 2>&1
	rc=$?
	[ "$rc" -eq 0 ] || { fail "exit $rc"; return; }
	expect_file "$dir/certify.md" "^# Certification record: $DEV to $ADDR" \
		"^\\| Verdict \\| \\*\\*PASS\\*\\* \\|" \
		"^\\| Device \\| $DEV port 1, Ethernet, firmware .*, [0-9.]+ Gb/s Ethernet \\|" \
		"^\\| write_bw \\| 2 \\| 65536 \\| [0-9.]+ \\| [0-9.]+ \\| in band \\|" \
		"^\\| read_bw \\| 1 \\| 4096 \\| " "^\\| send_lat \\| 2 \\| " \
		"^\\| write_lat \\| 0 \\| - \\| \\[write_lat.json\\]" || return
	for t in write_bw read_bw write_lat read_lat send_lat; do
		jq -e '.results | length > 0' "$dir/$t.json" >/dev/null ||
			{ fail "no results in $t.json"; return; }
	done
	if command -v gnuplot >/dev/null; then
		grep -q "^!\\[write_bw\\](write_bw.svg)" "$dir/certify.md" &&
			[ -s "$dir/write_bw.svg" ] || { fail "no plot"; return; }
	fi
	pass
	begin "certify: a band above what the link gives fails, naming the points"
	run_limited 600 "$BUILD/rdmaperf" certify "$ADDR" -d "$DEV" -p "$PORT" \
		--dir "$dir" --sizes 64K --lat-sizes 2 --qp 1 \
		--time-per-point 0.3 --band 140-150 >"$WORK/out" 2>&1
	rc=$?
	[ "$rc" -eq 1 ] || { fail "exit $rc, wanted 1"; return; }
	expect_file "$dir/certify.md" "\\*\\*FAIL\\*\\*" "\\*\\*below\\*\\*" \
		"\\| write_bw \\| 0 \\| 1 of 1 below" || return
	pass
	begin "certify: a bad size list is a usage error at once"
	expect_fail 2 "-s needs a value" 30 "$BUILD/rdmaperf" certify "$ADDR" \
		-d "$DEV" -p "$PORT" --dir "$dir" --sizes 12X
}

# Needs tests/softroce/rxe-run --devices 2.
t_limits_rails() {
	local port=$((PORT + 7)) s0 s1 rc
	begin "two rxe devices as two rails: per-rail rows and a [SUM] row"
	if [ -z "${RDP_RXE_DEV1:-}" ]; then
		skip "one device (rxe-run --devices 2 gives two)"; return
	fi
	"$BUILD/rdmaperf-server" -d "$RDP_RXE_DEV0" --bind "$RDP_RXE_ADDR0" \
		-p "$port" >"$WORK/rail0.log" 2>&1 &
	s0=$!
	"$BUILD/rdmaperf-server" -d "$RDP_RXE_DEV1" --bind "$RDP_RXE_ADDR1" \
		-p "$port" >"$WORK/rail1.log" 2>&1 &
	s1=$!
	wait_listening "$WORK/rail0.log" "$s0" && wait_listening "$WORK/rail1.log" "$s1" ||
		{ fail "the rails' servers did not start"; kill "$s0" "$s1"; return; }
	run_limited "$LIMIT" "$BUILD/rdmaperf" write_bw -s 4K,64K -n 200 \
		--report_gbits -d "$RDP_RXE_DEV0,$RDP_RXE_DEV1" -p "$port" \
		"$RDP_RXE_ADDR0,$RDP_RXE_ADDR1" >"$WORK/out" 2>&1
	rc=$?
	kill "$s0" "$s1" 2>/dev/null
	wait "$s0" "$s1" 2>/dev/null
	[ "$rc" -eq 0 ] || { fail "exit $rc"; return; }
	expect_out "== rail 0: $RDP_RXE_DEV0 to $RDP_RXE_ADDR0, exit 0 ==" \
		"== rail 1: $RDP_RXE_DEV1 to $RDP_RXE_ADDR1, exit 0 ==" \
		"Local device +: $RDP_RXE_DEV1 port" \
		"^ 65536 +1 +$RDP_RXE_DEV0 +[0-9.]+" "^ 65536 +1 +\\[SUM\\] +[0-9.]+" || return
	# The sum is the sum of the rails' rows.
	awk '$1 == 65536 && NF == 5 && $3 !~ /^[0-9.]+$/ { if ($3 == "[SUM]") s = $4; else t += $4 }
		END { exit !(s > 0 && (s - t) ^ 2 < 1e-4) }' "$WORK/out" ||
		{ fail "[SUM] is not the sum of the rails"; return; }
	# Both points' loops were released together, within the bound.
	expect_out "Start barrier: 2 point\\(s\\), each released when all 2 rails were ready; at most [0-9.]+ ms" ||
		return
	awk '/Start barrier:/ { for (i = 1; i <= NF; i++) if ($i == "ms") ms = $(i - 1) }
		END { exit !(ms >= 0 && ms < 10000) }' "$WORK/out" ||
		{ fail "barrier spread out of the bound"; return; }
	pass

	begin "rails: a rail that ends before the barrier cancels the other, by name"
	# Rail 1's server is not there: it fails to connect, rail 0 is
	# released never and says which rail ended the run.
	"$BUILD/rdmaperf-server" -d "$RDP_RXE_DEV0" --bind "$RDP_RXE_ADDR0" \
		-p "$port" >"$WORK/rail0.log" 2>&1 &
	s0=$!
	wait_listening "$WORK/rail0.log" "$s0" ||
		{ fail "rail 0's server did not start"; kill "$s0"; return; }
	run_limited 60 "$BUILD/rdmaperf" write_bw -n 200 --connect-timeout 2 \
		-d "$RDP_RXE_DEV0,$RDP_RXE_DEV1" -p "$port" \
		"$RDP_RXE_ADDR0,$RDP_RXE_ADDR1" >"$WORK/out" 2>&1
	rc=$?
	kill "$s0" 2>/dev/null
	wait "$s0" 2>/dev/null
	[ "$rc" -eq 1 ] || { fail "exit $rc"; return; }
	# Rail 1 gives up connecting after --connect-timeout 2, the barrier
	# after 2000 ms of rail 0's readiness: whichever comes first (a
	# loaded guest decides) cancels the run, naming rail 1.
	expect_out "rails: rail 1 \\($RDP_RXE_DEV1\\) (ended while the others waited to start|was not ready within 2000 ms of the first rail)" \
		"rail 1 \\($RDP_RXE_DEV1\\) (ended before the start barrier|was not ready within 2000 ms of the first rail): start barrier cancelled" \
		"== rail 0: $RDP_RXE_DEV0 to $RDP_RXE_ADDR0, exit 1 ==" || return
	! grep -q "\\[SUM\\]" "$WORK/out" || { fail "a [SUM] of a cancelled run"; return; }
	pass
	begin "rails: a device list without as many hosts is a usage error"
	expect_fail 2 "as many hosts as devices" 10 "$BUILD/rdmaperf" write_bw \
		-d "$RDP_RXE_DEV0,$RDP_RXE_DEV1" -p "$port" "$RDP_RXE_ADDR0"
}
