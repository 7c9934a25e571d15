# SPDX-License-Identifier: BSD-2-Clause
# --bounce on Soft-RoCE with the fake CUDA library: RDMA on host buffers,
# every message copied to or from "GPU" memory (host memory behind the
# CUDA driver API) by the side that owns it. The fake counts its copies
# (RDP_FAKE_CUDA_STATS), so the tests see one copy per message, not just a
# passing data check. Nothing here measures a GPU. Sourced by run.sh after
# gpu.sh (have_fake_cuda, cuda_built, FAKE_CUDA).

BOUNCE_PORT=18640
MEM_GPU='GPU 0 Fake GPU 0 \(host memory\) \(0000:3b:00.0\)'

bounce_client() {
	RDP_CUDA_LIBRARY=$FAKE_CUDA RDP_FAKE_CUDA_STATS=$WORK/client-stats \
		run_limited "$LIMIT" "$BUILD/rdmaperf" "$@" -d "$DEV" \
		"$ADDR" >"$WORK/out" 2>&1
}

# The largest count of one kind ("htod" or "dtoh") any process wrote.
copies() {
	awk -v k="$2" '{ for (i = 1; i < NF; i++) if ($i == k && $(i + 1) > m)
		m = $(i + 1) } END { print m + 0 }' "$1" 2>/dev/null
}

# bounce_run TEST KIND MIN STAGING PEER ARGS...: exit 0, the data check,
# the memory lines of both sides, and at least MIN copies of KIND here.
bounce_run() {
	local test=$1 kind=$2 min=$3 staging=$4 peer=$5 n
	shift 5
	begin "--bounce $test: $staging; data checked; $min+ copies"
	rm -f "$WORK/client-stats"
	bounce_client "$test" --use_cuda=0 --bounce -p "$BOUNCE_PORT" "$@" ||
		{ fail "exit $?"; return; }
	expect_out "Data check +: ok" \
		"Memory +: $MEM_GPU \(as asked\), staged through host memory \(--bounce\)" \
		"Staging +: each message copied $staging, host buffer page-locked" \
		"Peer memory +: $MEM_GPU, staged through host memory \(--bounce\): $peer" || return
	n=$(copies "$WORK/client-stats" "$kind")
	[ "$n" -ge "$min" ] || { fail "$n $kind copies, wanted $min or more"; return; }
	CUR="$CUR [$n]"
	pass
}

t_bounce_fake() {
	local main_server=$SERVER_PID n
	have_fake_cuda && cuda_built || return
	RDP_CUDA_LIBRARY=$FAKE_CUDA RDP_FAKE_CUDA_STATS=$WORK/server-stats \
		start_server "$BOUNCE_PORT" "$WORK/bounce-server.log" \
		--use_cuda=0 --bounce ||
		{ begin "--bounce server starts"; fail "$(cat "$WORK/bounce-server.log")";
		  SERVER_PID=$main_server; return; }
	bounce_run write_bw dtoh 600 "GPU->host before it is posted" \
		"nothing to stage on the passive side" -s 4K -n 300 -q 2
	bounce_run read_bw htod 300 "host->GPU after its completion" \
		"nothing to stage on the passive side" -s 4K -n 300
	rm -f "$WORK/server-stats"
	bounce_run send_bw dtoh 300 "GPU->host before it is posted" \
		"each message copied host->GPU after its completion" \
		-s 4K -n 300
	begin "--bounce send_bw: the receiving server copied each message"
	n=$(copies "$WORK/server-stats" htod)
	[ "$n" -ge 300 ] && pass || fail "server made $n host->GPU copies"
	bounce_run write_bw dtoh 200 "GPU->host before it is posted" \
		"each message copied GPU->host before it is posted" \
		-s 4K -n 200 -b
	bounce_json
	bounce_direct
	bounce_refused
	stop_server
	SERVER_PID=$main_server
	begin "--bounce: the server pinned and released every host buffer"
	grep -q "pinned [1-9]" "$WORK/server-stats" "$WORK/client-stats" &&
		{ fail "a host buffer left registered"; return; }
	grep -Eq "data on $MEM_GPU.*staged through host buffers" \
		"$WORK/bounce-server.log" && pass || fail "not in its log"
}

bounce_json() {
	begin "--bounce --json: memory.bounce, staging, peer_memory"
	RDP_CUDA_LIBRARY=$FAKE_CUDA run_limited "$LIMIT" "$BUILD/rdmaperf" \
		write_bw --use_cuda=0 --bounce -n 50 --json -d "$DEV" \
		-p "$BOUNCE_PORT" "$ADDR" >"$WORK/out" 2>"$WORK/err" ||
		{ fail "exit $?: $(cat "$WORK/err")"; return; }
	jq -e '.memory.bounce == true and .memory.staging == "gpu_to_host"
		and .memory.type == "cuda" and .memory.registration == "host"
		and .memory.gpu_bus_id == "0000:3b:00.0"
		and .peer_memory.bounce == true and .peer_memory.type == "cuda"
		and .peer_memory.staging == "none"
		and .peer_memory.registration == "host"' "$WORK/out" \
		>/dev/null || { fail "memory objects wrong"; return; }
	pass
}

# The direct path against the same server: no per-message copies here,
# and the report says how the GPU buffer was registered.
bounce_direct() {
	begin "--use_cuda without --bounce: registered GPU buffer, no copies"
	rm -f "$WORK/client-stats"
	bounce_client write_bw --use_cuda=0 -s 4K -n 300 -p "$BOUNCE_PORT" ||
		{ fail "exit $?"; return; }
	expect_out "Memory +: $MEM_GPU \(as asked\), registered by peer memory" \
		"Peer memory +: $MEM_GPU, staged through host memory" || return
	grep -q "Staging" "$WORK/out" && { fail "a Staging line"; return; }
	n=$(copies "$WORK/client-stats" dtoh)
	[ "$n" -lt 10 ] || { fail "$n GPU->host copies"; return; }
	pass
	begin "--bounce against a host-memory server: Peer memory says host"
	bounce_client read_bw --use_cuda=0 --bounce -n 50 -p "$PORT" ||
		{ fail "exit $?"; return; }
	expect_out "Peer memory +: host$" "Data check +: ok" || return
	pass
}

bounce_refused() {
	begin "--bounce write_lat: refused as a usage error"
	bounce_client write_lat --use_cuda=0 --bounce -p "$BOUNCE_PORT"
	local rc=$?
	[ "$rc" -eq 2 ] || { fail "exit $rc, wanted 2"; return; }
	expect_out "write_lat has none to stage .*drop --bounce" || return
	pass
	begin "--bounce without --use_cuda: usage error"
	bounce_client write_bw --bounce -p "$BOUNCE_PORT"
	rc=$?
	[ "$rc" -eq 2 ] || { fail "exit $rc, wanted 2"; return; }
	expect_out "add --use_cuda" || return
	pass
	begin "atomic_bw against a --bounce server: the server says why"
	bounce_client atomic_bw -n 10 -p "$BOUNCE_PORT" &&
		{ fail "exit 0"; return; }
	expect_out "atomic_bw has none to stage" || return
	pass
}
