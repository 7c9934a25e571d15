# SPDX-License-Identifier: BSD-2-Clause
# Runs that end early: SIGINT mid-sweep reports the rows done and the one
# cut short (text and JSON), exit 130; SIGTERM, 143; a latency client
# killed mid-run frees the server at once, so the next client is served;
# a server killed mid-run is named by its client at once, exit 1. Every
# wait is on an event (a row, a log line, traffic, an exit). Sourced by
# run.sh.

# now_ms: the clock in milliseconds.
now_ms() {
	echo $(($(date +%s%N) / 1000000))
}

# SIGINT after the first row of a sweep.
interrupt_sweep() {
	local doc=$WORK/interrupt.json rc n
	local row='^ 64 +[0-9]+ +[0-9.]+ '
	begin "write_bw -s 64,4K,64K -D 2, SIGINT after the first row: its rows, the one cut short marked, text and JSON, exit 130"
	signal_after_lines INT 1 "$row" "$WORK/out" "$WORK/err" \
		"$BUILD/rdmaperf" write_bw -s 64,4K,64K -D 2 --json-file "$doc" \
		-d "$DEV" -p "$PORT" "$ADDR"
	rc=$?
	cat "$WORK/err" >>"$WORK/out"
	[ "$rc" -eq 130 ] || { fail "exit $rc, wanted 130"; return; }
	n=$(jq '.results | length' "$doc")
	expect_out "$row" \
		"^ Run +: interrupted by SIGINT after $n of 3 points" || return
	! grep -Eq '^ 65536 ' "$WORK/out" || { fail "the third size ran"; return; }
	expect_json "$doc" '.results[0].size_bytes == 64' \
		'.results[0].interrupted == null' \
		'.interrupted.signal == "SIGINT"' \
		'.interrupted.points_planned == 3' \
		'.interrupted.points_done == (.results | length)' \
		'.interrupted.partial_point == (.results[-1].interrupted == true)' || return
	# The signal came in the second point's loop (it runs 2 s): that
	# row is marked, and its figures are up to the signal.
	if [ "$n" -eq 2 ]; then
		expect_out '^ 4096 +[0-9]+ .*  \(interrupted\)$' || return
		expect_json "$doc" '.results[1].interrupted == true' \
			'.results[1].iterations > 0' || return
	fi
	pass
}

# SIGTERM during a latency run with --json on standard output.
interrupt_term_json() {
	local rc cpid mark
	begin "write_lat -s 88,96 -D 2 --json, SIGTERM mid-run: one JSON document, the point cut short, exit 143"
	mark=$(dev_sent_pkts)
	# not under timeout(1): the signal goes to rdmaperf alone
	"$BUILD/rdmaperf" write_lat -s 88,96 -D 2 --json -d "$DEV" -p "$PORT" \
		"$ADDR" >"$WORK/lat.json" 2>"$WORK/out" &
	cpid=$!
	wait_traffic "$mark" 500 ||
		{ kill -9 "$cpid"; wait "$cpid"; fail "no traffic from the run in 30 s"; return; }
	kill -TERM "$cpid"
	run_limited 30 bash -c "while kill -0 $cpid 2>/dev/null; do sleep 0.1; done" ||
		kill -9 "$cpid"
	wait "$cpid"
	rc=$?
	[ -s "$WORK/lat.json" ] || { fail "no JSON document (exit $rc)"; return; }
	cat "$WORK/lat.json" >>"$WORK/out"
	[ "$rc" -eq 143 ] || { fail "exit $rc, wanted 143"; return; }
	expect_json "$WORK/lat.json" '.results[0].size_bytes == 88' \
		'.results[0].lat_p50_us > 0' \
		'.results[-1].interrupted == true' \
		'.interrupted.signal == "SIGTERM"' \
		'.interrupted.points_done == (.results | length)' \
		'.interrupted.points_planned == 2' || return
	pass
}

# A latency client killed: the server is free again at once.
interrupt_client_killed() {
	local t0 ms before cpid mark
	begin "write_lat client killed (SIGKILL) mid-run: the server lets it go at once and serves the next client within 2 s"
	before=$(grep -c "went away mid-test" "$WORK/server.log")
	mark=$(dev_sent_pkts)
	"$BUILD/rdmaperf" write_lat -s 8 -D 30 -d "$DEV" -p "$PORT" "$ADDR" \
		>"$WORK/killed.log" 2>&1 &
	cpid=$!
	wait_traffic "$mark" 500 ||
		{ kill -9 "$cpid"; fail "no traffic from the run in 30 s"; return; }
	kill -9 "$cpid"
	t0=$(now_ms)
	wait "$cpid" 2>/dev/null
	if ! wait_log_more "went away mid-test" "$before" 10; then
		tail -n 8 "$WORK/server.log" >>"$WORK/out"
		fail "no 'went away mid-test' line in the server's log"
	elif ! client write_lat -s 8 -n 200; then
		fail "the next client: exit $?"
	else
		ms=$(($(now_ms) - t0))
		CUR="$CUR [next client served $ms ms after the kill]"
		if [ "$ms" -le 2000 ]; then
			pass
		else
			fail "the next client was served after $ms ms"
		fi
	fi
}

# A server killed: its client names it at once.
interrupt_server_killed() {
	local t t0 ms rc cpid mark
	for t in write_lat write_bw; do
		begin "$t server killed mid-run: the client names it within 2 s, exit 1"
		own_server 47
		wait_listening "$WORK/s47.log" "$OWN_PID" ||
			{ fail "server 47 did not start"; kill "$OWN_PID"; return; }
		mark=$(dev_sent_pkts)
		run_limited 60 "$BUILD/rdmaperf" "$t" -s 64 -D 30 -d "$DEV" \
			-p "$((PORT + 47))" "$ADDR" >"$WORK/out" 2>&1 &
		cpid=$!
		wait_traffic "$mark" 500 ||
			{ kill "$cpid" "$OWN_PID"; wait "$cpid" "$OWN_PID"; fail "no traffic in 30 s"; return; }
		kill -9 "$OWN_PID"
		t0=$(now_ms)
		wait "$OWN_PID" 2>/dev/null
		wait "$cpid"
		rc=$?
		ms=$(($(now_ms) - t0))
		[ "$rc" -eq 1 ] || { fail "exit $rc, wanted 1"; continue; }
		expect_out "the server at $ADDR:$((PORT + 47)) closed the connection mid-test \(it died or was stopped\)" ||
			continue
		CUR="$CUR [client's line after $ms ms]"
		[ "$ms" -le 2000 ] || { fail "the client noticed after $ms ms"; continue; }
		pass
	done
}

t_interrupt() {
	interrupt_sweep
	interrupt_term_json
	interrupt_client_killed
	interrupt_server_killed
}
