# SPDX-License-Identifier: BSD-2-Clause
# --threads: the QPs split over threads on both sides, each thread's count
# adding up to what was posted, the sum over the common window, a thread
# whose QP fails named without a hang, and the refusals on real CPUs.
# Real servers, real clients on rxe. Sourced by run.sh.

THREADS_PORT=$((PORT + 80))

# threads_client TEST ARGS...: against the main server, JSON in
# $WORK/thr.json.
threads_client() {
	client "$@" --threads 2 -q 4 --json-file "$WORK/thr.json"
}

# Thread rows, the sum row, and counts that add up to -n x -q.
threads_counts() {
	local t n=400
	for t in write_bw read_bw send_bw; do
		begin "$t --threads 2 -q 4 -n $n: a row per thread, their counts add up to what was posted, data check ok"
		threads_client "$t" -s 4096 -n "$n" || { fail "exit $?"; continue; }
		expect_out '^ \[T0\] +[0-9]+ .* CPU 0, QPs 0-1, ' \
			'^ \[T1\] +[0-9]+ .* CPU 1, QPs 2-3, ' \
			"^ 4096 +$((n * 4)) .*\[SUM\] over [0-9.]+-[0-9.]+ s, when all 2 ran" \
			"split over 2 threads" "Data check +: ok" || continue
		expect_json "$WORK/thr.json" \
			'.results[0].threads | length == 2' \
			"[.results[0].threads[].msgs] | add == $((n * 4))" \
			"[.results[0].threads[].msgs] == [$((n * 2)), $((n * 2))]" \
			"[.results[0].threads[] | [.first_qp, .num_qps]] == [[0, 2], [2, 2]]" \
			"[.results[0].threads[].cpu] == [0, 1]" \
			".results[0].iterations == $((n * 4))" \
			'.results[0].sum.msgs_in_window <= .results[0].iterations' \
			'.results[0].sum.overlap_pct > 0 and .results[0].sum.overlap_pct <= 100' \
			'.results[0].msg_rate_mpps > 0' \
			'.parameters.threads == 2' || continue
		pass
	done
}

# -D: the window is most of the run; the sum's rate is the window's.
threads_duration() {
	begin "write_bw --threads 2 -q 4 -D 2 -s 64: the sum is taken over the window both threads ran"
	threads_client write_bw -D 2 -s 64 || { fail "exit $?"; return; }
	expect_json "$WORK/thr.json" \
		'.results[0].sum.window_s > 1' \
		'.results[0].sum.overlap_pct > 50' \
		'.results[0] as $r | (($r.sum.msgs_in_window / $r.sum.window_s / 1e6 - $r.msg_rate_mpps) | fabs) < 0.001 * $r.msg_rate_mpps' \
		'.results[0].data_check.ok' || return
	pass
}

# A QP of thread 1 is moved to the error state 300 ms into a 3 s run: the
# run ends with that thread named once the other thread has run its
# duration, and the server serves the next client.
threads_failure() {
	local t0=$SECONDS rc
	begin "write_bw --threads 2 -q 4: a thread's QP fails mid-run: the thread is named, nothing hangs"
	RDMAPERF_TEST_QP_ERROR=2:300 run_limited 60 "$BUILD/rdmaperf" write_bw \
		--threads 2 -q 4 -D 3 -d "$DEV" -p "$PORT" "$ADDR" \
		>"$WORK/out" 2>&1
	rc=$?
	[ "$rc" -eq 1 ] || { fail "exit $rc"; return; }
	expect_out "thread 1 of 2 \(QPs 2-3 on CPU 1\) failed: qp 0x[0-9a-f]+: " ||
		return
	# the other thread ran its 3 s: not much more than that
	[ $((SECONDS - t0)) -lt 25 ] ||
		{ fail "took $((SECONDS - t0)) s"; return; }
	grep -q "reports: thread 1 of 2" "$WORK/server.log" ||
		{ fail "the server's log does not name the thread"; return; }
	pass
	begin "after a thread's failure the server serves the next --threads client"
	threads_client write_bw -n 100 || { fail "exit $?"; return; }
	pass
}

# Where the CPUs are fewer than the threads, each side says so.
threads_refused() {
	local rc spid
	begin "--threads 3 on a host whose client may use 2 CPUs: one line naming them, exit 2"
	client write_bw --threads 3 -q 3 -n 10
	rc=$?
	[ "$rc" -eq 2 ] || { fail "exit $rc"; return; }
	expect_out "--threads 3: only 2 CPU\(s\) are allowed here \(0-1\)" ||
		return
	pass
	begin "send_bw --threads 2 against a server pinned to one CPU: the server's refusal, in the client's words; write_bw runs (its server only lends memory)"
	taskset -c 0 "$BUILD/rdmaperf-server" -d "$DEV" -p "$THREADS_PORT" \
		>"$WORK/thr-server.log" 2>&1 &
	spid=$!
	wait_listening "$WORK/thr-server.log" "$spid" ||
		{ fail "server did not start"; kill "$spid"; return; }
	run_limited "$LIMIT" "$BUILD/rdmaperf" send_bw --threads 2 -q 2 \
		-n 10 -d "$DEV" -p "$THREADS_PORT" "$ADDR" >"$WORK/out" 2>&1
	rc=$?
	if [ "$rc" -eq 0 ]; then
		fail "exit 0"
	elif expect_out "--threads 2: only 1 CPU\(s\) are allowed here \(0\)"; then
		run_limited "$LIMIT" "$BUILD/rdmaperf" write_bw --threads 2 \
			-q 2 -n 10 -d "$DEV" -p "$THREADS_PORT" "$ADDR" \
			>"$WORK/out" 2>&1
		rc=$?
		if [ "$rc" -ne 0 ]; then
			fail "write_bw: exit $rc"
		else
			expect_out "Data check +: ok" && pass
		fi
	fi
	kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
}

t_threads() {
	threads_counts
	threads_failure
	short_pass && return 0
	threads_duration
	threads_refused
}
