# SPDX-License-Identifier: BSD-2-Clause
# Least exposure on Soft-RoCE: what each test's buffers grant (the Access
# line, JSON memory.access, the server's log line), a test never finding
# the data of the one before it, and a server whose client is killed
# mid-test destroying that client's QPs. Sourced by run.sh after gpu.sh
# (have_fake_cuda, cuda_built, FAKE_CUDA).

EXPOSURE_PORT=$((PORT + 60))

# The newest "done, data ok" line of a server log, once its session has
# ended (the server flushes its output then).
served_line() {
	local log=$1 before=$2 i
	for i in $(seq 1 50); do
		[ "$(grep -c ': done, data ok' "$log")" -gt "$before" ] && break
		sleep 0.1
	done
	grep ': done, data ok' "$log" | tail -n 1
}

# exposure_access TEST CLIENT SERVER TEXT GRANT ARGS...: under -D (so the
# run ends with the closing operation of the test's own verb), exit 0 and
# the data check; memory.access.client and .server are the jq arrays
# CLIENT and SERVER; the Access line reads TEXT; the server's log line
# says it granted GRANT.
exposure_access() {
	local test=$1 cl=$2 sv=$3 text=$4 grant=$5 doc=$WORK/acc.json before line
	shift 5
	begin "$test $*: server grants $grant; Access line, JSON, server log"
	before=$(grep -c ': done, data ok' "$WORK/server.log")
	client "$test" -D 1 --json-file "$doc" "$@" || { fail "exit $?"; return; }
	expect_out "Data check +: ok" "Access +: $text" || return
	expect_json "$doc" ".memory.access.client == $cl" \
		".memory.access.server == $sv" || return
	line=$(served_line "$WORK/server.log" "$before")
	case $line in
	*"$test,"*"granted it $grant") ;;
	*) fail "server log: '$line'"; return ;;
	esac
	pass
}

t_exposure_access() {
	exposure_access write_bw '[]' '["local_write","remote_write"]' \
		"client no local write, grants nothing; server local_write, grants remote_write" \
		remote_write -s 4096
	exposure_access read_bw '["local_write"]' '["remote_read"]' \
		"client local_write, grants nothing; server no local write, grants remote_read" \
		remote_read -s 4096
	exposure_access atomic_bw '["local_write"]' '["local_write","remote_atomic"]' \
		"client local_write, grants nothing; server local_write, grants remote_atomic" \
		remote_atomic
	exposure_access send_bw '[]' '["local_write"]' \
		"client no local write, grants nothing; server local_write, grants nothing" \
		nothing -s 4096
	short_pass && return # the same code, other tests and options
	exposure_access write_bw '["local_write","remote_write"]' \
		'["local_write","remote_write"]' \
		"client local_write, grants remote_write; server local_write, grants remote_write" \
		remote_write -s 4096 -b
	exposure_access read_bw '["local_write"]' '["remote_read"]' \
		"client local_write, grants nothing; server no local write, grants remote_read" \
		remote_read -s 4096 -R
	exposure_access write_lat '["local_write","remote_write"]' \
		'["local_write","remote_write"]' \
		"client local_write, grants remote_write; server local_write, grants remote_write" \
		remote_write -s 64
}

# A second test never sees the first one's data. One session of four
# points, each on fresh buffers: 4032 B on 1 QP fills the server's only
# receive slot of an 8 KiB buffer; 1000 B on 4 QPs later gets a buffer of
# the same 8 KiB, and the server checks that every byte of it no message
# of that point reached reads zero (check_untouched in bench/common.c).
# That is where the first point's data would be if memory went from one
# test to the next without being zeroed, so the check would fail then.
# Host buffers are fresh mappings, which the kernel zeroes too; the "GPU"
# run makes the reuse real: the fake CUDA driver hands a freed block of
# the same size back as it was (RDP_FAKE_CUDA_RECYCLE), as a device
# allocator may, and counts every block freed while it still held data:
# none may be, each buffer being zeroed between its deregistration and its
# free. A one-shot server, whose normal exit writes those counts.
EXPOSURE_SWEEP="-s 4032,1000 -q 1,4 -n 200"

exposure_client() {
	local port=$1
	shift
	run_limited "$LIMIT" "$BUILD/rdmaperf" "$@" -d "$DEV" -p "$port" \
		"$ADDR" >"$WORK/out" 2>&1
}

t_exposure_reuse() {
	local port=$((EXPOSURE_PORT + 1)) spid rc stats=$WORK/exposure-stats
	begin "host buffers: no point finds a byte of the point before it"
	# shellcheck disable=SC2086
	client write_bw $EXPOSURE_SWEEP || { fail "exit $?"; return; }
	expect_out "Data check +: ok at all 4 points" || return
	pass
	have_fake_cuda && cuda_built || return
	begin "GPU buffers handed back as they were (fake CUDA): no point finds a byte of the point before it"
	rm -f "$stats"
	RDP_CUDA_LIBRARY=$FAKE_CUDA RDP_FAKE_CUDA_RECYCLE=1 \
		RDP_FAKE_CUDA_STATS=$stats run_limited "$LIMIT" \
		"$BUILD/rdmaperf" write_bw --use_cuda=0 -d "$DEV" -p "$port" \
		>"$WORK/exposure-server.log" 2>&1 &
	spid=$!
	wait_listening "$WORK/exposure-server.log" "$spid" ||
		{ fail "the one-shot server did not start"; kill "$spid"; wait "$spid"; return; }
	# shellcheck disable=SC2086
	exposure_client "$port" write_bw $EXPOSURE_SWEEP ||
		{ fail "exit $?"; kill "$spid"; wait "$spid"; return; }
	wait "$spid"
	rc=$?
	[ "$rc" -eq 0 ] || { fail "one-shot server exit $rc"; return; }
	expect_out "Data check +: ok at all 4 points" \
		"Peer memory +: GPU 0 Fake GPU 0" || return
	pass
	begin "GPU buffers: every block zeroed before it went back to the driver"
	expect_file "$stats" "freed ([4-9]|[1-9][0-9]+) dirty 0$" || return
	CUR="$CUR [$(tail -n 1 "$stats")]"
	pass
}

# The server's QPs: `rdma resource show qp` lines of its pid.
server_qps() {
	rdma resource show qp 2>/dev/null | grep -c " pid $1 "
}

# exposure_kill WHAT ARGS...: a client killed (SIGKILL) mid-test; the
# server's QP count comes back to what it was, and it serves again.
exposure_kill() {
	local what=$1 port=$((EXPOSURE_PORT + 2)) spid=$2 base cpid n mark end
	shift 2
	begin "client killed during $what: the server destroys its QPs"
	base=$(server_qps "$spid")
	mark=$(dev_sent_pkts)
	# started directly, not under timeout(1), so that $! is the client
	# itself and SIGKILL reaches it (killing a timeout leaves its child
	# running); -D 30 bounds it should the kill never come
	"$BUILD/rdmaperf" "$@" -D 30 -d "$DEV" -p "$port" \
		"$ADDR" >"$WORK/out" 2>&1 &
	cpid=$!
	# well into the timed run: its data flows, so both sides' QPs are up
	# (read from the packet counter: each `rdma` call costs a process,
	# which a loaded emulated guest makes slow)
	wait_traffic "$mark" 500 ||
		{ fail "no traffic from the run"; kill -9 "$cpid"; wait "$cpid"; return; }
	n=$(server_qps "$spid")
	[ "$n" -gt "$base" ] || { fail "no server QPs seen ($n)"; kill "$cpid"; return; }
	kill -KILL "$cpid" 2>/dev/null
	wait "$cpid" 2>/dev/null
	# 30 s of wall time, however long each count takes
	end=$((SECONDS + 30))
	while [ "$(server_qps "$spid")" -gt "$base" ] && [ "$SECONDS" -lt "$end" ]; do
		sleep 0.1
	done
	[ "$(server_qps "$spid")" -le "$base" ] ||
		{ fail "server holds $(server_qps "$spid") QPs, $base before, $n during"; return; }
	CUR="$CUR [$n QPs, back to $base]"
	exposure_client "$port" write_bw -s 4096 -n 100 ||
		{ fail "next client: exit $?"; return; }
	pass
}

t_exposure_kill() {
	local spid
	begin "QPs of a killed client"
	command -v rdma >/dev/null && rdma resource show qp >/dev/null 2>&1 ||
		{ skip "no iproute2 rdma tool to count QPs with"; return; }
	own_server 62 --cq-timeout 3
	spid=$OWN_PID
	wait_listening "$WORK/s62.log" "$spid" ||
		{ fail "server 62 did not start"; kill "$spid"; return; }
	exposure_kill "a passive write_bw" "$spid" write_bw -s 4096 -q 4
	short_pass || exposure_kill "send_bw (the server receiving)" "$spid" send_bw -s 4096 -q 2
	short_pass || exposure_kill "write_bw -b (the server writing too)" \
		"$spid" write_bw -s 4096 -q 2 -b
	kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
}

# --implicit_odp would hand the peer a key to the whole address space:
# refused at parse time (exit 2), naming --odp, before any connection.
t_exposure_implicit_odp() {
	local rc before
	begin "--implicit_odp: refused (exit 2), naming --odp; the server sees no client"
	before=$(grep -c '^client ' "$WORK/server.log")
	client read_bw -n 100 --implicit_odp
	rc=$?
	[ "$rc" -eq 2 ] || { fail "exit $rc, not 2"; return; }
	expect_out "--implicit_odp: refused: .*whole address space.*use --odp" ||
		return
	[ "$(grep -c '^client ' "$WORK/server.log")" -eq "$before" ] ||
		{ fail "the server logged a client"; return; }
	pass
}

# --max-session ends a live run that would never end by itself: the
# client exits non-zero within the limit and a margin, naming the limit,
# and the server logs the session's end and serves the next client. The
# run waits on the server's clock (5 s of session, then the client's 3 s
# completion timeout): it starts before the Access cases, on a server of
# its own, and is checked after them.
max_session_start() {
	local port=$((EXPOSURE_PORT + 3)) log=$WORK/maxsess.log
	MS_WHY="" MS_CPID=""
	"$BUILD/rdmaperf-server" -d "$DEV" -p "$port" --max-session 5 >"$log" 2>&1 &
	MS_SPID=$!
	wait_listening "$log" "$MS_SPID" || { MS_WHY="no server: $(cat "$log")"; return; }
	MS_T0=$(date +%s)
	rm -f "$WORK/maxsess.rc"
	# --cq-timeout 3: the client notices the end by its completion
	# timeout; the case is about the limit, not that timeout's default
	(
		run_limited "$LIMIT" "$BUILD/rdmaperf" write_bw --run_infinitely \
			-D 1 -s 4096 --cq-timeout 3 -d "$DEV" -p "$port" "$ADDR" \
			>"$WORK/maxsess.out" 2>&1
		echo "$? $(date +%s)" >"$WORK/maxsess.rc"
	) &
	MS_CPID=$!
}

max_session_check() {
	local port=$((EXPOSURE_PORT + 3)) t1 rc log=$WORK/maxsess.log
	begin "--max-session 5: a live run ends by it, the client says why, the server serves on"
	[ -z "$MS_WHY" ] || { fail "$MS_WHY"; kill "$MS_SPID"; return; }
	wait "$MS_CPID"
	read -r rc t1 <"$WORK/maxsess.rc" || { fail "the client left no status"; kill "$MS_SPID"; return; }
	# what the run and its server wrote before this case began is
	# this case's (a sanitizer's report in it too)
	cp "$WORK/maxsess.out" "$WORK/out"
	touch "$log"
	# the session the server ended: a failed run, 1 (not 124 or 137,
	# which a run killed by its time limit gives)
	[ "$rc" -eq 1 ] || { fail "client exit $rc, wanted 1"; kill "$MS_SPID"; return; }
	CUR="$CUR [ended after $((t1 - MS_T0)) s]"
	# 5 s of session, then the 3 s completion timeout and the close
	[ $((t1 - MS_T0)) -le 30 ] || { fail "took $((t1 - MS_T0)) s"; kill "$MS_SPID"; return; }
	expect_out "max-session 5" || { kill "$MS_SPID"; return; }
	expect_in "$log" "client $ADDR: write_bw: failed" >"$WORK/why" ||
		{ fail "$(cat "$WORK/why")"; kill "$MS_SPID"; return; }
	exposure_client "$port" write_bw -n 100 -s 4096 ||
		{ fail "next client: exit $?"; kill "$MS_SPID"; return; }
	kill "$MS_SPID"
	wait "$MS_SPID"
	pass
}

t_exposure() {
	t_exposure_implicit_odp
	max_session_start
	t_exposure_access
	max_session_check
	t_exposure_reuse
	t_exposure_kill
}
