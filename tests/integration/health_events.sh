# SPDX-License-Identifier: BSD-2-Clause
# The link's health: a port that goes down and comes back during a run
# fails it, with the event and its time, though the run completed; a soak
# names the bad interval and goes on to its end, and SIGINT ends one with
# the summary so far and exit 130. Sourced by run.sh.

# health_port STATE: until port 1 of DEV is in STATE, 10 s at most.
health_port() {
	local _
	for _ in $(seq 1 100); do
		grep -q "$1" "/sys/class/infiniband/$DEV/ports/1/state" &&
			return 0
		sleep 0.1
	done
	return 1
}

# health_flap BRPORT: the link of DEV cut at the bridge port facing it
# (the veth keeps its routes and neighbours), 2 s down, then back; 1 when
# the port did not follow. The link is back up on return, either way.
health_flap() {
	local rc=0
	ip link set "$1" down
	health_port DOWN || rc=1
	sleep 2
	ip link set "$1" up
	health_port ACTIVE || { echo "# warning: $DEV did not come back ACTIVE"; rc=1; }
	return "$rc"
}

t_health_events() {
	local brport=${RDP_RXE_BRPORT0:-} cpid rc mark n
	begin "link down and up mid-run: write_bw fails, naming the event and its time"
	[ -n "$brport" ] || { skip "no bridge port known for $DEV"; return; }
	mark=$(dev_sent_pkts)
	# -u 18: each retry waits about 1 s, so the QPs outlive the 2 s cut
	run_limited 60 "$BUILD/rdmaperf" write_bw -D 8 -u 18 -d "$DEV" \
		-p "$PORT" "$ADDR" >"$WORK/out" 2>&1 &
	cpid=$!
	wait_traffic "$mark" 500 ||
		{ kill -9 "$cpid"; fail "no traffic from the run in 30 s"; return; }
	health_flap "$brport" ||
		{ wait "$cpid"; fail "port 1 of $DEV did not follow its link"; return; }
	wait "$cpid"
	rc=$?
	[ "$rc" -eq 1 ] || { fail "client exit $rc, wanted 1"; return; }
	expect_out "port 1 went down [0-9]+\.[0-9]{3} s into the run \(IBV_EVENT_PORT_ERR\)" \
		"FAIL link down: port 1 went down [0-9.]+ s into the run \(IBV_EVENT_PORT_ERR\); active again at [0-9.]+ s" ||
		return
	wait_in "$WORK/server.log" "device event: port 1 went down [0-9.]+ s into the run" 10 ||
		{ fail "the server did not log its port's event"; return; }
	pass

	begin "--soak 8 --interval 1 through a link flap: the bad interval, the run to its end, exit 1"
	run_limited 60 "$BUILD/rdmaperf" write_bw --soak 8 --interval 1 -u 18 \
		--json-file "$WORK/soak.json" -d "$DEV" -p "$PORT" "$ADDR" \
		>"$WORK/out" 2>&1 &
	cpid=$!
	wait_in "$WORK/out" '^ +\[ *[0-9.]+- *[0-9.]+ s\] ' 30 ||
		{ kill -9 "$cpid"; fail "no live report from the soak in 30 s"; return; }
	health_flap "$brport" ||
		{ wait "$cpid"; fail "port 1 of $DEV did not follow its link"; return; }
	wait "$cpid"
	rc=$?
	[ "$rc" -eq 1 ] || { fail "client exit $rc, wanted 1"; return; }
	expect_out "^   \^ BAD \[ *[0-9.]+- *[0-9.]+ s\] .*port 1 went down \(IBV_EVENT_PORT_ERR\)" \
		"^ Soak            : FAIL, [1-9][0-9]* of [0-9]+ interval\(s\) bad over [0-9.]+ s$" \
		"^ Data check      : ok" || return
	n=$(grep -cE '^ +\[ *[0-9.]+- *[0-9.]+ s\] ' "$WORK/out")
	[ "$n" -ge 8 ] || { fail "$n interval reports, wanted 8: the soak stopped early"; return; }
	expect_json "$WORK/soak.json" '.soak.intervals >= 8' \
		'.soak.ended_by == "time"' '(.soak.bad | length) >= 1' \
		'[.soak.bad[].why | test("IBV_EVENT_PORT_ERR")] | any' \
		'.verdict.pass == false' \
		'.results[0].events | map(.type) | index("PORT_ERR") != null' ||
		return
	pass

	begin "--soak 600 ended by SIGINT: the summary so far, exit 130"
	signal_after_lines INT 2 '^ +\[ *[0-9.]+- *[0-9.]+ s\] ' "$WORK/out" \
		"$WORK/err" "$BUILD/rdmaperf" write_bw --soak 600 --interval 1 \
		-d "$DEV" -p "$PORT" "$ADDR"
	rc=$?
	[ "$rc" -eq 130 ] || { cat "$WORK/err" >>"$WORK/out"; fail "client exit $rc, wanted 130"; return; }
	expect_out "^ Soak            : pass, 0 of [0-9]+ interval\(s\) bad over [0-9.]+ s \(ended early by SIGINT; asked for 600 s\)$" \
		"^ Data check      : ok" || return
	pass
}
