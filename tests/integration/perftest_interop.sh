# SPDX-License-Identifier: BSD-2-Clause
# perftest on one side with no flag but the device and port on either:
# --perftest takes perftest's defaults for the test (5000 iterations for
# write_bw); perftest 6.28+ peers (RDP_PERFTEST_NEW_DIR) compare their
# block with rdmaperf's, --run_infinitely's too; --perform_warm_up gives
# the bandwidth tests a warm-up that is not counted. Sourced by run.sh.

t_perftest_interop() {
	if ! command -v ib_write_bw >/dev/null; then
		begin "rdmaperf write_bw --perftest against a plain ib_write_bw"
		skip "perftest not installed"
	else
		pt_interop_plain
	fi
	pt_interop_new
	pt_interop_warm_up
}

# Plain perftest on the other side: each exits 0, both print the same
# row, with perftest's own iteration count (at 2 B, which 5000 times
# takes no time) and its own size (counted).
pt_interop_plain() {
	pt_client write_bw -s 2
	cp "$WORK/out" "$WORK/pt-client.log" # begin empties out
	begin "rdmaperf write_bw --perftest with no -n: perftest's 5000 iterations on both sides"
	expect_file "$WORK/pt-server.log" "^ +2 +5000 " &&
		expect_file "$WORK/pt-client.log" "^ +2 +5000 " && pass
	pt_server write_bw -n 100
	begin "ib_write_bw against the one-shot server with no -s: 65536 B"
	expect_file "$WORK/pt-server.log" "^ +65536 +100 " && pass
	PT_FIELDS=2 pt_client send_bw
	PT_FIELDS=1 pt_client write_lat
	pt_server read_bw
	PT_FIELDS=2 pt_server send_bw
	# ib_atomic_bw -b: read_bw's duplex sequence, both ways
	PT_FIELDS=2 pt_client atomic_bw -b -n 1000
	PT_FIELDS=2 pt_client write_bw -b -n 1000 -s 64 -q 2
	PT_FIELDS=2 pt_server atomic_bw -b -n 1000 -q 2
}

# perftest 6.28 or later as the server: the block rdmaperf sends (320
# bytes, or the one-line fix for a 312-byte build) agrees with its own,
# for one size and for a live run, which each side ends by its exit.
pt_interop_new() {
	local dir=${RDP_PERFTEST_NEW_DIR:-} port=$((PORT + 11)) spid rc i
	if ! [ -x "$dir/ib_write_bw" ]; then
		begin "perftest 6.28+ ib_write_bw server: rdmaperf's block agrees"
		skip "no perftest 6.28 or later (RDP_PERFTEST_NEW_DIR)"
		return
	fi
	PATH="$dir:$PATH" pt_client write_bw
	PATH="$dir:$PATH" PT_FIELDS=2 pt_client send_bw -n 500
	begin "rdmaperf --perftest-block 312 against a perftest 6.28+ server of the other size: one line with the fix, no hang"
	run_limited 60 "$dir/ib_write_bw" -d "$DEV" -p "$port" -n 100 \
		>"$WORK/pt-server.log" 2>&1 &
	spid=$!
	wait_tcp_listen "$port" ||
		{ fail "ib_write_bw did not listen: $(cat "$WORK/pt-server.log")"; return; }
	run_limited 60 "$BUILD/rdmaperf" write_bw --perftest --perftest-block 312 \
		-n 100 -d "$DEV" -p "$port" "$ADDR" >"$WORK/out" 2>&1
	rc=$?
	wait "$spid"
	if grep -q "HAVE_MLX5DV 1" "$dir/config.h" 2>/dev/null; then
		[ "$rc" -eq 1 ] || { fail "rdmaperf: exit $rc"; return; }
		expect_out "closed the connection during the parameter negotiation: .*--perftest-block 320" ||
			return
	else
		[ "$rc" -eq 0 ] || { fail "rdmaperf: exit $rc"; return; }
	fi
	pass
	begin "rdmaperf write_bw --perftest --run_infinitely against perftest 6.28+ ib_write_bw --run_infinitely: no mismatch"
	run_limited 60 "$dir/ib_write_bw" -d "$DEV" -p "$port" \
		--run_infinitely >"$WORK/pt-server.log" 2>&1 &
	spid=$!
	wait_tcp_listen "$port" ||
		{ fail "ib_write_bw did not listen: $(cat "$WORK/pt-server.log")"; return; }
	timeout --preserve-status -s INT 6 "$BUILD/rdmaperf" write_bw --perftest --run_infinitely \
		-d "$DEV" -p "$port" "$ADDR" >"$WORK/out" 2>&1
	rc=$?
	kill -INT "$spid" 2>/dev/null
	wait "$spid"
	cat "$WORK/pt-server.log" >>"$WORK/out"
	! grep -q "mismatch" "$WORK/pt-server.log" ||
		{ fail "perftest saw a mismatch"; return; }
	[ "$rc" -eq 0 ] || { fail "rdmaperf: exit $rc"; return; }
	expect_out "Peer +: perftest [0-9.]+ server at" || return
	pass
	port=$((PORT + 12))
	begin "perftest 6.28+ ib_write_bw --run_infinitely against the one-shot --perftest --run_infinitely: the blocks agree, the client's exit ends the run"
	run_limited 60 "$BUILD/rdmaperf" write_bw --perftest --run_infinitely \
		-d "$DEV" -p "$port" >"$WORK/pt-server.log" 2>&1 &
	spid=$!
	for i in $(seq 1 50); do
		grep -q "waiting for one perftest client" "$WORK/pt-server.log" &&
			break
		sleep 0.1
	done
	timeout -s INT -k 30 6 "$dir/ib_write_bw" -d "$DEV" -p "$port" \
		--run_infinitely "$ADDR" >"$WORK/out" 2>&1
	wait "$spid"
	rc=$?
	tail -n 15 "$WORK/pt-server.log" >>"$WORK/out"
	! grep -q "mismatch" "$WORK/out" ||
		{ fail "perftest saw a mismatch"; return; }
	[ "$rc" -eq 0 ] || { fail "rdmaperf: exit $rc"; return; }
	expect_file "$WORK/pt-server.log" "perftest client .* ended its live run" ||
		return
	pass
}

# --perform_warm_up: a send queue's depth (the post list, 32 by default)
# per QP before the clock, not counted; the JSON says how many, and -b's
# server warms up as well.
pt_interop_warm_up() {
	local doc=$WORK/warm.json t
	for t in write_bw read_bw atomic_bw; do
		begin "$t --perform_warm_up: 32 operations per QP first, not counted"
		# shellcheck disable=SC2046 # no size for the atomics' 8 B
		client "$t" -n 1000 -q 2 $([ "$t" = atomic_bw ] || echo -s 4096) \
			--perform_warm_up --json-file "$doc" ||
			{ fail "exit $?"; continue; }
		expect_json "$doc" '.parameters.warmup_iters == 32' \
			'.results[0].warmup_iters == 32' \
			'.results[0].iterations == 2000' \
			'.results[0].data_check.ok' || continue
		pass
	done
	begin "write_bw -b --perform_warm_up -l 1 -t 64: both sides warm up, the counts stay"
	client write_bw -b -n 1000 -s 4096 -l 1 -t 64 --perform_warm_up \
		--json-file "$doc" || { fail "exit $?"; return; }
	expect_json "$doc" '.parameters.warmup_iters == 64' \
		'.results[0].warmup_iters == 64' \
		'.results[0].iterations == 1000' || return
	pass
	begin "write_bw without --perform_warm_up: no warm-up"
	client write_bw -n 1000 -s 4096 --json-file "$doc" ||
		{ fail "exit $?"; return; }
	expect_json "$doc" '.parameters.warmup_iters == 0' \
		'.results[0].warmup_iters == 0' || return
	pass
}
