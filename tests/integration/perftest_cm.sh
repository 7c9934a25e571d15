# SPDX-License-Identifier: BSD-2-Clause
# perftest's -R on the other side: its dialogue over a channel of RDMA CM,
# the test QPs connected by RDMA CM on the same port. rdmaperf's client
# against ib_write_bw -R and ib_write_lat -R, ib_write_bw -R and
# ib_send_bw -R against rdmaperf's one-shot server; both ends exit 0 and
# print the same row; perftest 6.28 and later (RDP_PERFTEST_NEW_DIR) with
# their parameter block. Sourced by run.sh.

# pt_cm_client TEST ARGS: ib_TEST -R ARGS serves, rdmaperf TEST --perftest
# -R ARGS dials it (retrying while nothing listens on the port yet).
pt_cm_client() {
	local test=$1 port=$((PORT + 12)) spid rc src mine theirs
	shift
	begin "rdmaperf $test --perftest -R $* against ${PT_CM_WHO:-}ib_$test -R: both ends agree"
	run_limited 60 "ib_$test" -R -d "$DEV" -p "$port" "$@" \
		>"$WORK/pt-server.log" 2>&1 &
	spid=$!
	run_limited 60 "$BUILD/rdmaperf" "$test" --perftest -R -d "$DEV" \
		-p "$port" "$@" "$ADDR" >"$WORK/out" 2>&1
	rc=$?
	wait "$spid"
	src=$?
	if [ "$src" -ne 0 ] || [ "$rc" -ne 0 ]; then
		tail -n 15 "$WORK/pt-server.log" >>"$WORK/out"
		fail "ib_$test -R: exit $src, rdmaperf: exit $rc"
		return
	fi
	expect_out "Peer +: perftest [0-9.]+ server at" || return
	mine=$(pt_row "$WORK/out")
	theirs=$(pt_row "$WORK/pt-server.log")
	# PT_FIELDS=0: a passive perftest server, which prints no row
	[ "${PT_FIELDS:-3}" = 0 ] && mine=${mine:+none}
	[ -n "$mine" ] && [ "${mine#none}" = "$theirs" ] ||
		{ fail "rdmaperf row '$mine', ib_$test -R row '$theirs'"; return; }
	pass
}

# pt_cm_server TEST ARGS: rdmaperf's one-shot TEST --perftest -R ARGS
# serves, ib_TEST -R ARGS dials it once it says it waits.
pt_cm_server() {
	local test=$1 port=$((PORT + 13)) spid rc src mine theirs i
	shift
	begin "${PT_CM_WHO:-}ib_$test -R $* against rdmaperf $test --perftest -R (one-shot): both ends agree"
	run_limited 60 "$BUILD/rdmaperf" "$test" --perftest -R -d "$DEV" \
		-p "$port" "$@" >"$WORK/pt-server.log" 2>&1 &
	spid=$!
	for i in $(seq 1 100); do
		grep -q "waiting for one perftest client" "$WORK/pt-server.log" &&
			break
		sleep 0.05
	done
	run_limited 60 "ib_$test" -R -d "$DEV" -p "$port" "$@" "$ADDR" \
		>"$WORK/out" 2>&1
	rc=$?
	wait "$spid"
	src=$?
	if [ "$src" -ne 0 ] || [ "$rc" -ne 0 ]; then
		tail -n 15 "$WORK/pt-server.log" >>"$WORK/out"
		fail "rdmaperf: exit $src, ib_$test -R: exit $rc"
		return
	fi
	expect_file "$WORK/pt-server.log" "Peer +: perftest [0-9.]+ client from" ||
		return
	mine=$(pt_row "$WORK/pt-server.log")
	theirs=$(pt_row "$WORK/out")
	[ -n "$mine" ] && [ "$mine" = "$theirs" ] ||
		{ fail "rdmaperf row '$mine', ib_$test -R row '$theirs'"; return; }
	pass
}

t_perftest_cm() {
	if ! command -v ib_write_bw >/dev/null; then
		begin "rdmaperf write_bw --perftest -R against ib_write_bw -R"
		skip "perftest not installed"
		return
	fi
	pt_cm_client write_bw -n 500
	PT_FIELDS=1 pt_cm_client write_lat -n 200
	pt_cm_server write_bw -n 500
	PT_FIELDS=2 pt_cm_server send_bw -n 500
	pt_cm_new
	pt_cm_one_side
	# The rest of the dialogue's sequences, in RDP_PT_MATRIX=full
	pt_every || return 0
	PT_FIELDS=2 pt_cm_client send_bw -n 500
	pt_cm_client read_bw -n 500 -q 2
	PT_FIELDS=1 pt_cm_client send_lat -n 200
	PT_FIELDS=0 pt_cm_client read_lat -n 200
	pt_cm_server read_bw -n 500 -q 2
	PT_FIELDS=1 pt_cm_server write_lat -n 200
	# -D: the send_bw receiver stops at the client's next message
	PT_FIELDS=1 pt_cm_server send_bw -D 2 -q 2
}

# perftest 6.28 or later (RDP_PERFTEST_NEW_DIR): the parameter block goes
# over the channel first, 6.29's key messages are 8 bytes longer.
pt_cm_new() {
	local dir=${RDP_PERFTEST_NEW_DIR:-}
	if ! [ -x "$dir/ib_write_bw" ]; then
		begin "perftest 6.28+ ib_write_bw -R server: the block over RDMA CM agrees"
		skip "no perftest 6.28 or later (RDP_PERFTEST_NEW_DIR)"
		return
	fi
	PATH="$dir:$PATH" PT_CM_WHO="perftest 6.28+ " pt_cm_client write_bw -n 500
	PATH="$dir:$PATH" PT_CM_WHO="perftest 6.28+ " PT_FIELDS=2 \
		pt_cm_server send_bw -n 500
}

# -R on one side only: the client finds no RDMA CM listener on the port
# (a perftest server on TCP there), says so in one line by its
# --connect-timeout, and exits 1.
pt_cm_one_side() {
	local port=$((PORT + 12)) spid rc
	begin "rdmaperf write_bw --perftest -R against ib_write_bw without -R: one line by --connect-timeout, exit 1"
	run_limited 30 ib_write_bw -d "$DEV" -p "$port" -n 100 \
		>"$WORK/pt-server.log" 2>&1 &
	spid=$!
	wait_tcp_listen "$port" ||
		{ fail "ib_write_bw did not listen: $(cat "$WORK/pt-server.log")"; return; }
	run_limited 30 "$BUILD/rdmaperf" write_bw --perftest -R -n 100 \
		--connect-timeout 1 -d "$DEV" -p "$port" "$ADDR" >"$WORK/out" 2>&1
	rc=$?
	kill "$spid" 2>/dev/null
	wait "$spid"
	[ "$rc" -eq 1 ] || { fail "rdmaperf: exit $rc"; return; }
	expect_out "RDMA CM: no connection to [0-9.]+ port $port: .*is the server running with -R, on that port\?" ||
		return
	pass
}
