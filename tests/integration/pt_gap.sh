# SPDX-License-Identifier: BSD-2-Clause
# --latency_gap facing perftest: rdmaperf write_lat --perftest pauses before
# each message it posts, as perftest's own pause, and leaves the pauses out
# of its figures; ib_write_lat, given none, runs as ever. Sourced by run.sh.

t_pt_gap() {
	local port=$((PORT + 57)) spid rc doc=$WORK/ptgap.json
	begin "write_lat --perftest --latency_gap 5000 against ib_write_lat: exit 0, 299 round trips, none 5 ms long"
	command -v ib_write_lat >/dev/null || { skip "perftest not installed"; return; }
	run_limited 60 ib_write_lat -d "$DEV" -p "$port" -n 300 \
		>"$WORK/pt-server.log" 2>&1 &
	spid=$!
	wait_tcp_listen "$port" || { fail "ib_write_lat did not listen"; return; }
	run_limited 60 "$BUILD/rdmaperf" write_lat --perftest --latency_gap 5000 \
		-n 300 --json-file "$doc" -d "$DEV" -p "$port" "$ADDR" \
		>"$WORK/out" 2>&1
	rc=$?
	wait "$spid" || { fail "ib_write_lat: exit $?"; return; }
	[ "$rc" -eq 0 ] || { fail "rdmaperf: exit $rc"; return; }
	expect_json "$doc" '.parameters.latency_gap_us == 5000' \
		'.results[0].iterations == 299' \
		'.results[0].lat_p50_us > 0 and .results[0].lat_p50_us < 5000' ||
		return
	echo "# write_lat --perftest --latency_gap 5000: median $(jq .results[0].lat_p50_us "$doc") us"
	pass
}
