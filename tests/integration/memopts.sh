# SPDX-License-Identifier: BSD-2-Clause
# perftest's memory and addressing options on a real device: buffers
# mapped from a file (--mmap, on both sides), a file too short for them,
# the null MR (--use-null-mr: its run, or the device's refusal), the wait
# before the teardown (--wait_destroy), and the refusals of --dlid on
# RoCE and of --dualport on a one-port device. Sourced by run.sh.

# fill_file FILE BYTES: FILE of BYTES bytes of 0xff.
fill_file() {
	head -c "$2" /dev/zero | tr '\0' '\377' >"$1"
}

# mem_client PORT ARGS...: the client against the server on PORT.
mem_client() {
	local port=$1
	shift
	run_limited "$LIMIT" "$BUILD/rdmaperf" "$@" -d "$DEV" -p "$port" \
		"$ADDR" >"$WORK/out" 2>&1
}

t_memopts_mmap() {
	local cf=$WORK/client.buf sf=$WORK/server.buf doc=$WORK/mmap.json rc
	begin "write_bw --mmap on both sides: the data check passes, the client's pattern is in both files"
	fill_file "$cf" 65536
	fill_file "$sf" 65536
	cp "$cf" "$WORK/orig.buf"
	own_server 71 --mmap "$sf" --mmap-offset 4096
	wait_listening "$WORK/s71.log" "$OWN_PID" ||
		{ fail "server with --mmap did not start"; return; }
	mem_client "$((PORT + 71))" write_bw -s 4096 -n 200 --mmap "$cf" \
		--json-file "$doc"
	rc=$?
	kill "$OWN_PID" 2>/dev/null
	wait "$OWN_PID" 2>/dev/null
	[ "$rc" -eq 0 ] || { fail "exit $rc"; cat "$WORK/out"; return; }
	expect_out "buffers on file $cf from offset 0 \(--mmap\)" \
		"Memory +: host, file $cf from offset 0, mapped shared \(--mmap\)" \
		"Data check +: ok, 4096 bytes verified" || return
	expect_json "$doc" ".memory.mmap.file == \"$cf\"" \
		'.memory.mmap.offset == 0' '.results[0].data_check.ok' || return
	expect_file "$WORK/s71.log" "buffers on file $sf from offset 4096 \(--mmap\)" ||
		return
	# The client's send slot (offset 0) holds its pattern; the server's
	# receive slot (after its 4096-byte send slot, from the offset) the
	# same bytes; the page before the offset is untouched.
	cmp -s -n 4096 "$cf" "$WORK/orig.buf" &&
		{ fail "the client's file still holds its old bytes"; return; }
	cmp -s -n 4096 -i 0:8192 "$cf" "$sf" ||
		{ fail "the server's file lacks the client's data"; return; }
	cmp -s -n 4096 "$sf" "$WORK/orig.buf" ||
		{ fail "the server's file changed before its offset"; return; }
	pass
}

t_memopts_short() {
	local f=$WORK/short.buf rc
	begin "--mmap with a file too short for the point: one line naming the file, its size and the size needed, exit 1"
	fill_file "$f" 4096
	client write_bw -s 65536 -n 10 --mmap "$f"
	rc=$?
	[ "$rc" -eq 1 ] || { fail "exit $rc, wanted 1"; return; }
	expect_out "error: --mmap $f: the file holds 4096 bytes, the run needs 131072 \(131072 from offset 0\): make it larger \(truncate -s 131072 $f\) or run smaller points$" ||
		return
	client write_bw -n 100 || { fail "the next run: exit $?"; return; }
	pass
}

t_memopts_null_mr() {
	local rc
	begin "--use-null-mr on $DEV: a run without a data check, or one line naming the device, exit 77"
	client write_bw -s 4096 -n 200 --use-null-mr
	rc=$?
	case $rc in
	0)
		grep -q "Data check" "$WORK/out" &&
			{ fail "a data check over the null MR"; return; }
		echo "#   $DEV has a null MR: the run went without a data check"
		pass ;;
	77)
		expect_out "error: --use-null-mr: $DEV has no null MR \(ibv_alloc_null_mr: [^)]*\): run without the option, on host memory$" ||
			return
		[ "$(grep -c . "$WORK/out")" -eq 1 ] ||
			{ fail "not one line"; cat "$WORK/out"; return; }
		echo "#   $(cat "$WORK/out")"
		pass ;;
	*) fail "exit $rc, wanted 0 or 77" ;;
	esac
}

# qps_of PID: the QPs `rdma resource show qp` lists for PID.
qps_of() {
	rdma resource show qp 2>/dev/null | grep -c " pid $1 "
}

t_memopts_wait() {
	local pid rc t0 t1 qps
	begin "--wait_destroy 1: the QPs outlive the report by about 1 s, then the client exits 0"
	command -v rdma >/dev/null && rdma resource show qp >/dev/null 2>&1 ||
		{ skip "no rdma tool (iproute2) to list QPs"; return; }
	"$BUILD/rdmaperf" write_bw -s 4096 -n 200 --wait_destroy 1 -d "$DEV" \
		-p "$PORT" "$ADDR" >"$WORK/out" 2>&1 &
	pid=$!
	wait_in "$WORK/out" "keeping the QPs, CQs and MRs 1 s before the teardown" 30
	t0=$(date +%s%N)
	qps=$(qps_of "$pid")
	wait "$pid"
	rc=$?
	t1=$(date +%s%N)
	[ "$rc" -eq 0 ] || { fail "exit $rc"; return; }
	expect_out "Data check +: ok" \
		"$DEV: keeping the QPs, CQs and MRs 1 s before the teardown \(--wait_destroy; Ctrl-C ends the wait\)" ||
		return
	[ "$qps" -ge 1 ] || { fail "no QP of the client listed during the wait"; return; }
	[ $(((t1 - t0) / 1000000)) -ge 700 ] ||
		{ fail "exited $(((t1 - t0) / 1000000)) ms after the wait began"; return; }
	pass
	begin "--wait_destroy 60, SIGINT during the wait: the wait ends, teardown, exit 0"
	"$BUILD/rdmaperf" write_bw -s 4096 -n 200 --wait_destroy 60 -d "$DEV" \
		-p "$PORT" "$ADDR" >"$WORK/out" 2>&1 &
	pid=$!
	wait_in "$WORK/out" "keeping the QPs" 30
	kill -INT "$pid"
	t0=$SECONDS
	wait "$pid"
	rc=$?
	[ "$rc" -eq 0 ] || { fail "exit $rc"; return; }
	[ $((SECONDS - t0)) -lt 10 ] || { fail "the wait went on after SIGINT"; return; }
	expect_out "$DEV: the wait before the teardown ended by SIGINT" || return
	[ "$(qps_of "$pid")" -eq 0 ] || { fail "QPs left behind"; return; }
	pass
}

t_memopts_refusals() {
	local rc
	begin "--dlid on RoCE: one line naming the device and port, exit 2"
	client write_bw -n 10 --dlid 1
	rc=$?
	[ "$rc" -eq 2 ] || { fail "exit $rc, wanted 2"; return; }
	expect_out "error: --dlid addresses InfiniBand ports: $DEV port 1 is Ethernet; drop it, the GID \(-x\) addresses RoCE$" ||
		return
	[ "$(grep -c . "$WORK/out")" -eq 1 ] || { fail "not one line"; return; }
	pass
	begin "--dualport on a one-port device: one line naming the device and its port count, exit 77"
	client write_bw -n 10 -q 2 --dualport
	rc=$?
	[ "$rc" -eq 77 ] || { fail "exit $rc, wanted 77"; return; }
	expect_out "error: -O/--dualport spreads the QPs over two ports: $DEV has 1 port; run a test per port \(-i\), or a device pair per port \(-d DEV0,DEV1 HOST0,HOST1\)$" ||
		return
	[ "$(grep -c . "$WORK/out")" -eq 1 ] || { fail "not one line"; return; }
	pass
}

t_memopts() {
	t_memopts_mmap
	t_memopts_short
	t_memopts_null_mr
	t_memopts_wait
	t_memopts_refusals
}
