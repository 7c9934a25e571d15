# SPDX-License-Identifier: BSD-2-Clause
# perftest's loop shapes on real devices: receives posted in chains
# (--recv_post_list), a pause between round trips that the figures leave
# out (--latency_gap), paced bursts (--burst_size), and the server sending
# (--reversed) to rdmaperf-server and to the one-shot server. Sourced by
# run.sh.

# now_ms: the wall clock in milliseconds.
now_ms() {
	echo $(($(date +%s%N) / 1000000))
}

# loops_reversed_ok DOC N: the JSON of a reversed point of N messages.
loops_reversed_ok() {
	expect_json "$1" '.parameters.reversed == true' \
		'.results[0].sender == "server"' \
		".results[0].iterations == $2" \
		'.results[0].bw_avg_gbps > 0' \
		'.results[0].bw_peak_gbps >= .results[0].bw_avg_gbps' \
		'.results[0].data_check.ok'
}

t_loops() {
	local doc=$WORK/loops.json n t0 ms t port spid rc
	for t in "-n 2000 -q 2|4000" "-n 1001 -r 10|1001"; do
		n=${t#*|} t=${t%|*}
		begin "send_bw --recv_post_list 4 $t: receives in chains of 4, every message counted, data check ok"
		# shellcheck disable=SC2086 # the case's words
		client send_bw -s 4096 $t --recv_post_list 4 --json-file "$doc" ||
			{ fail "exit $?"; continue; }
		expect_out "^ 4096 +$n " "Data check +: ok" || continue
		expect_json "$doc" '.parameters.recv_post_list == 4' \
			".results[0].iterations == $n" || continue
		pass
		short_pass && break
	done

	for t in write_lat read_lat; do
		begin "$t --latency_gap 5000 (us): 400 pauses of 5 ms made, none in the figures"
		t0=$(now_ms)
		client "$t" -s 64 -n 300 --latency_gap 5000 --json-file "$doc" ||
			{ fail "exit $?"; continue; }
		ms=$(($(now_ms) - t0))
		[ "$ms" -ge 2000 ] ||
			{ fail "the run took $ms ms: fewer than 400 pauses of 5 ms"; continue; }
		expect_out "Data check +: ok" || continue
		expect_json "$doc" '.parameters.latency_gap_us == 5000' \
			'.results[0].lat_samples == 300' \
			'.results[0].lat_p50_us < 1000' || continue
		echo "# $t --latency_gap 5000: $ms ms, median $(jq .results[0].lat_p50_us "$doc") us"
		pass
		short_pass && break
	done

	begin "write_bw --rate_limit 0.05 --burst_size 16: paced in bursts within 10 % of the rate"
	client write_bw -s 4096 -n 3000 --rate_limit 0.05 --rate_limit_type SW \
		--burst_size 16 --json-file "$doc" || { fail "exit $?"; return; }
	expect_out "Rate +: asked [0-9.]+ Gb/s, achieved [0-9.]+ Gb/s \([0-9.]+ %\), paced by the loop, in bursts of 16 messages" \
		"Data check +: ok" || return
	expect_json "$doc" '.parameters.burst_size == 16' \
		'.results[0].rate.achieved_pct >= 90' \
		'.results[0].rate.achieved_pct <= 110' || return
	echo "# burst: $(jq -c .results[0].rate "$doc")"
	pass

	for t in "write_bw -n 2000 -q 2|4000" "send_bw -n 2000 -q 2|4000" \
		"write_bw -D 1|"; do
		n=${t#*|} t=${t%|*}
		begin "$t --reversed: rdmaperf-server sends, its figures in the report and the JSON"
		# shellcheck disable=SC2086 # the case's words
		client $t -s 4096 --reversed --json-file "$doc" ||
			{ fail "exit $?"; continue; }
		expect_out "Direction +: the server sent, this side received \(--reversed\)" \
			"Data check +: ok" || continue
		[ -n "$n" ] || n=$(jq .results[0].iterations "$doc")
		loops_reversed_ok "$doc" "$n" || continue
		[ "$n" -gt 0 ] || { fail "no message counted"; continue; }
		echo "# $t --reversed: $(jq -c '.results[0] | {iterations, bw_avg_gbps}' "$doc")"
		pass
		short_pass && break
	done

	begin "write_bw --reversed to the one-shot server: both exit 0, the server's figures"
	port=$((PORT + 7))
	run_limited "$LIMIT" "$BUILD/rdmaperf" write_bw --reversed -d "$DEV" \
		-p "$port" >"$WORK/oneshot.log" 2>&1 &
	spid=$!
	wait_listening "$WORK/oneshot.log" "$spid" ||
		{ fail "the one-shot server did not start"; kill "$spid"; return; }
	run_limited "$LIMIT" "$BUILD/rdmaperf" write_bw -s 4096 -n 1000 \
		--reversed --json-file "$doc" -d "$DEV" -p "$port" "$ADDR" \
		>"$WORK/out" 2>&1 || { fail "client exit $?"; kill "$spid"; return; }
	wait "$spid"
	rc=$?
	[ "$rc" -eq 0 ] || { fail "one-shot server exit $rc"; return; }
	loops_reversed_ok "$doc" 1000 || return
	pass

	begin "write_lat --reversed: one line naming the tests it applies to, exit 2"
	client write_lat -n 10 --reversed
	rc=$?
	[ "$rc" -eq 2 ] || { fail "exit $rc, wanted 2"; return; }
	expect_out "write_lat: --reversed applies to write_bw and send_bw" || return
	[ "$(grep -c . "$WORK/out")" -eq 1 ] || { fail "not one line"; return; }
	pass
}
