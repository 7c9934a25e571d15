# SPDX-License-Identifier: BSD-2-Clause
# RDMA CM mode (-R): every loop twice back to back, QP counts, a client
# that starts before its server, rapid one-shot restarts. Sourced by run.sh.

# One -R run against the persistent server: exit 0, the CM line in the
# header, and the data check.
cm_run() {
	client "$@" -R || { fail "exit $?"; return 1; }
	expect_file "$WORK/out" "QPs +: [0-9]+ RC connected by RDMA CM" \
		"GID +: index [0-9]+ RoCE v2 .*chosen by RDMA CM" \
		"Data check +: ok" || return 1
}

t_cm_all_loops() {
	local test round
	for test in write_bw write_lat read_bw read_lat send_bw send_lat \
		atomic_bw atomic_lat; do
		for round in 1 2; do
			# the reduced set: one run of each (the second shows
			# no stale state, which the main pass checks)
			short_pass && [ "$round" = 2 ] && continue
			begin "-R: $test, run $round of 2 back to back"
			cm_run "$test" -n 200 && pass
		done
	done
}

t_cm_qps() {
	local before
	begin "-R: write_bw on 4 QPs, two sizes, one connection per point"
	cm_run write_bw -q 4 -s 4K,64K -n 200 || return
	[ "$(grep -Ec '^ +(4096|65536) ' "$WORK/out")" -eq 2 ] ||
		{ fail "not two result rows"; return; }
	pass
	# The guest's kernel takes RDMA_OPTION_ID_TOS on rxe: no warning on
	# either side, 96 in the Path line and the JSON (the byte sent).
	begin "-R: -T 96 sets the type of service: in the header and the JSON, no warning on either side"
	before=$(grep -c 'does not take the type of service' "$WORK/server.log")
	cm_run read_bw -T 96 -n 200 --json-file "$WORK/tos.json" || return
	expect_out "Path +: SL [0-9]+, traffic class 96, " || return
	! grep -q "does not take the type of service" "$WORK/out" ||
		{ fail "the client could not set it: $(grep 'type of service' "$WORK/out")"; return; }
	[ "$(grep -c 'does not take the type of service' "$WORK/server.log")" -eq "$before" ] ||
		{ fail "the server could not set it: $(grep 'type of service' "$WORK/server.log" | tail -n 1)"; return; }
	expect_json "$WORK/tos.json" '.parameters.tclass == 96' \
		'.parameters.connection == "rdma_cm"' || return
	pass
	begin "-R: the JSON names the connection method"
	client write_bw -R -n 100 --json || { fail "exit $?"; return; }
	jq -e '.parameters.connection == "rdma_cm"' "$WORK/out" >/dev/null ||
		{ fail "no \"connection\": \"rdma_cm\" in the JSON"; return; }
	pass
}

# The client starts first; the one-shot server comes up 2 s later.
t_cm_client_first() {
	local port=$((PORT + 5)) cpid spid rc
	begin "-R: a client started before its server connects once it is up"
	run_limited 60 "$BUILD/rdmaperf" write_bw -R -n 200 -d "$DEV" \
		-p "$port" --connect-timeout 20 "$ADDR" >"$WORK/out" 2>&1 &
	cpid=$!
	sleep 2
	run_limited 60 "$BUILD/rdmaperf" write_bw -d "$DEV" -p "$port" \
		>"$WORK/cm-oneshot.log" 2>&1 &
	spid=$!
	wait "$cpid"
	rc=$?
	wait "$spid" || { fail "one-shot server exit $?"; return; }
	[ "$rc" -eq 0 ] || { fail "client exit $rc"; return; }
	expect_out "connected by RDMA CM" "Data check +: ok" || return
	pass
}

# One-shot servers restarted at once on the same port, five times.
t_cm_restarts() {
	local port=$((PORT + 6)) i spid
	begin "-R: five one-shot servers in a row on one port, no stale binds"
	for i in 1 2 3 4 5; do
		run_limited 60 "$BUILD/rdmaperf" send_lat -d "$DEV" -p "$port" \
			>"$WORK/cm-restart.log" 2>&1 &
		spid=$!
		run_limited 60 "$BUILD/rdmaperf" send_lat -R -n 100 -d "$DEV" \
			-p "$port" "$ADDR" >"$WORK/out" 2>&1 ||
			{ fail "round $i: client exit $?"; kill "$spid"; return; }
		wait "$spid" ||
			{ fail "round $i: server exit $?"; cat "$WORK/cm-restart.log"; return; }
	done
	pass
}

t_cm_usage() {
	begin "-R with -m: usage error naming the route's MTU"
	expect_fail 2 "-m does not apply with -R" 10 \
		"$BUILD/rdmaperf" write_bw -R -m 1024 "$ADDR"
}

# -d names the second device, the server listens on the first: RDMA CM
# resolves from the second device's address, so the QPs go through the
# device the user gave (before, the route to the server's address picked
# the first device and the run stopped). Runs before t_failures, whose
# link-down cases drop the routes between the devices.
t_cm_other_device() {
	begin "-R with -d the second device: connected through it, data ok"
	if [ -z "${RDP_RXE_DEV1:-}" ]; then
		skip "needs a second rxe device"
		return
	fi
	run_limited 30 "$BUILD/rdmaperf" write_bw -R -n 100 -d "$RDP_RXE_DEV1" \
		-p "$PORT" "$ADDR" >"$WORK/out" 2>&1 || { fail "exit $?"; return; }
	expect_out "connected by RDMA CM" "Local device +: $RDP_RXE_DEV1 " \
		"Data check +: ok" || return
	pass
}

t_cm() {
	t_cm_all_loops
	t_cm_qps
	t_cm_client_first
	t_cm_restarts
	t_cm_usage
}

# Short runs under valgrind (memcheck): no invalid access, no definite
# leak, on both connection methods. Not in a sanitizer build: valgrind
# cannot run ASan binaries, and that build already checks the same.
t_valgrind() {
	local args
	for args in "write_bw -n 50" "write_lat -R -n 50"; do
		begin "valgrind: rdmaperf $args"
		command -v valgrind >/dev/null || { skip "valgrind not installed"; continue; }
		if sanitizer_build; then
			skip "sanitizer build"
			continue
		fi
		# shellcheck disable=SC2086
		run_limited 300 valgrind -q --error-exitcode=99 --leak-check=full \
			--errors-for-leak-kinds=definite "$BUILD/rdmaperf" $args \
			-d "$DEV" -p "$PORT" "$ADDR" >"$WORK/out" 2>&1 ||
			{ fail "exit $? (99: valgrind found errors)"; continue; }
		grep -Eq "Data check +: ok" "$WORK/out" || { fail "no data check"; continue; }
		pass
	done
}
