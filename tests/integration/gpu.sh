# SPDX-License-Identifier: BSD-2-Clause
# GPU buffers (--use_cuda) on Soft-RoCE, without a GPU. The "GPU" here is
# the test library tests/fake/libcuda.so.1 (host memory behind the CUDA
# driver API, loaded through RDP_CUDA_LIBRARY): the real loader, DMA-BUF
# attempt, fallback registration, host copies and data checks run, and rxe
# moves the bytes. Nothing here measures a GPU. Sourced by run.sh.

GPU_PORT=18620
FAKE_CUDA="$BUILD/tests/fake/libcuda.so.1"

have_fake_cuda() {
	[ -f "$FAKE_CUDA" ] && return 0
	skip "no $FAKE_CUDA: build it with make check"
	return 1
}

# Built without CUDA support: --use_cuda says so and exits 77.
cuda_built() {
	grep -q '^#define HAVE_CUDA 1' "$BUILD/config.h" 2>/dev/null && return 0
	skip "built without CUDA support"
	return 1
}

fake_client() {
	RDP_CUDA_LIBRARY=$FAKE_CUDA run_limited "$LIMIT" "$BUILD/rdmaperf" \
		"$@" -d "$DEV" -p "$GPU_PORT" "$ADDR" >"$WORK/out" 2>&1
}

# One test with "GPU" buffers on both sides: exit 0, the data check, and
# the header naming the fake GPU and the fallback from DMA-BUF.
gpu_run() {
	local test=$1 check=$2
	shift 2
	begin "fake CUDA driver (host memory): $test --use_cuda both sides"
	fake_client "$test" --use_cuda=auto "$@" || { fail "exit $?"; return; }
	expect_out "Data check +: ok, $check" \
		"Memory +: GPU 0 Fake GPU 0 \(host memory\) \(0000:3b:00.0\) \($DEV is not a PCI device: GPU 0\), registered by peer memory" \
		"DMA-BUF +: not used: $DEV refused the DMA-BUF region" || return
	pass
}

t_gpu_fake_loops() {
	local main_server=$SERVER_PID
	have_fake_cuda && cuda_built || return
	RDP_CUDA_LIBRARY=$FAKE_CUDA start_server "$GPU_PORT" \
		"$WORK/gpu-server.log" --use_cuda=0 ||
		{ begin "GPU server starts"; fail "$(cat "$WORK/gpu-server.log")";
		  SERVER_PID=$main_server; return; }
	gpu_run write_bw "$((65536 * 2)) bytes verified" -s 64K -n 200 -q 2
	gpu_run read_bw "4096 bytes verified" -s 4096 -n 200
	gpu_run send_bw "4096 bytes verified" -s 4096 -n 200
	gpu_run atomic_bw "200 atomic operations counted" -n 200
	gpu_run send_lat "$((2 * 64)) bytes verified" -s 64 -n 200
	gpu_run read_lat "64 bytes verified" -s 64 -n 200
	gpu_json
	gpu_corrupt
	gpu_write_lat_refused
	stop_server
	SERVER_PID=$main_server
	begin "fake CUDA driver: the server names its GPU in its log"
	grep -q "$DEV: buffers on GPU 0 Fake GPU 0" "$WORK/gpu-server.log" &&
		pass || fail "not in its log"
}

# The JSON names the memory and the registration path.
gpu_json() {
	begin "fake CUDA driver: --json memory object"
	RDP_CUDA_LIBRARY=$FAKE_CUDA run_limited "$LIMIT" "$BUILD/rdmaperf" \
		write_bw --use_cuda=0 -n 50 --json -d "$DEV" -p "$GPU_PORT" \
		"$ADDR" >"$WORK/out" 2>"$WORK/err" ||
		{ fail "exit $?: $(cat "$WORK/err")"; return; }
	jq -e '.memory.type == "cuda" and .memory.registration == "peermem"
		and .memory.gpu_bus_id == "0000:3b:00.0"
		and (.memory.dmabuf_note | test("refused"))' "$WORK/out" \
		>/dev/null || { fail "memory object wrong"; return; }
	pass
}

# A corrupted copy back must fail the check: it is really compared. With
# 4 KiB messages the receive slot starts at byte 4096 of the buffer; the
# fake flips byte 4100, the receive slot's byte 4.
gpu_corrupt() {
	begin "fake CUDA driver: a corrupted copy back fails the data check"
	RDP_FAKE_CUDA_CORRUPT=4100 fake_client read_bw --use_cuda=0 -s 4096 \
		-n 50
	local rc=$?
	[ "$rc" -eq 1 ] || { fail "exit $rc, wanted 1"; return; }
	expect_out "data check failed on this side.*byte 4 differs" || return
	pass
}

# write_lat polls its buffer with the CPU: refused on either side.
gpu_write_lat_refused() {
	begin "--use_cuda write_lat: refused as a usage error"
	fake_client write_lat --use_cuda=0 -n 10
	local rc=$?
	[ "$rc" -eq 2 ] || { fail "exit $rc, wanted 2"; return; }
	expect_out "write_lat polls its receive buffer with the CPU" || return
	pass
	begin "write_lat against a GPU server: the server says why"
	fake_client write_lat -n 10 && { fail "exit 0"; return; }
	expect_out "write_lat polls its receive buffer" || return
	pass
}

t_gpu_no_driver() {
	cuda_built || return
	begin "--use_cuda without a CUDA driver: one line, exit 77"
	RDP_CUDA_LIBRARY=/nonexistent/libcuda.so.1 expect_fail 77 \
		"no CUDA driver: cannot load .*drop --use_cuda" 10 \
		"$BUILD/rdmaperf" write_bw --use_cuda=0 -d "$DEV" -p 18699 "$ADDR"
	begin "rdmaperf-server --use_cuda without a driver: exits at start"
	RDP_CUDA_LIBRARY=/nonexistent/libcuda.so.1 expect_fail 77 \
		"no CUDA driver" 10 \
		"$BUILD/rdmaperf-server" --use_cuda=auto -d "$DEV" -p 18698
	begin "--use_cuda on this host's own driver search (no driver here)"
	if ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then
		skip "this host has a CUDA driver"
	else
		expect_fail 77 "no CUDA driver: cannot load libcuda.so.1" 10 \
			"$BUILD/rdmaperf" write_bw --use_cuda=0 -d "$DEV" \
			-p 18699 "$ADDR"
	fi
}

t_gpu_fake_failures() {
	have_fake_cuda && cuda_built || return
	begin "fake CUDA driver, no GPU: one line, exit 77"
	RDP_CUDA_LIBRARY=$FAKE_CUDA RDP_FAKE_CUDA_DEVICES=0 expect_fail 77 \
		"no GPU: the CUDA driver .* sees no device" 10 \
		"$BUILD/rdmaperf" write_bw --use_cuda=0 -d "$DEV" -p 18699 "$ADDR"
	begin "fake CUDA driver, --use_cuda names a bus id not present"
	RDP_CUDA_LIBRARY=$FAKE_CUDA expect_fail 77 \
		"no GPU at 0000:86:00.0; present: 0: 0000:3b:00.0" 10 \
		"$BUILD/rdmaperf" write_bw --use_cuda=86:00.0 -d "$DEV" \
		-p 18699 "$ADDR"
	begin "--use_cuda with a malformed value: usage error"
	expect_fail 2 "--use_cuda gpu0: give a GPU number" 10 \
		"$BUILD/rdmaperf" write_bw --use_cuda=gpu0 "$ADDR"
}
