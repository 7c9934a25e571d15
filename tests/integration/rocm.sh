# SPDX-License-Identifier: BSD-2-Clause
# AMD GPU buffers (--use_rocm) on Soft-RoCE, without a GPU. The "GPU" is
# the test library tests/fake/libamdhip64.so (host memory behind the HIP
# calls, loaded through RDP_HIP_LIBRARY): the real loader, DMA-BUF attempt,
# fallback registration, host copies and data checks run, and rxe moves the
# bytes. Nothing here measures a GPU. Sourced by run.sh.

ROCM_PORT=18640
FAKE_HIP="$BUILD/tests/fake/libamdhip64.so"
MEM_ROCM="GPU 0 Fake AMD GPU 0 \(host memory\) \(0000:c1:00.0\)"

rocm_client() {
	RDP_HIP_LIBRARY=$FAKE_HIP run_limited "$LIMIT" "$BUILD/rdmaperf" \
		"$@" -d "$DEV" -p "$ROCM_PORT" "$ADDR" >"$WORK/out" 2>&1
}

# One test with "GPU" buffers on both sides: exit 0, the data check, and
# the header naming the fake GPU and the fallback from DMA-BUF.
rocm_run() {
	local test=$1 check=$2
	shift 2
	begin "fake HIP runtime (host memory): $test $*"
	rocm_client "$test" "$@" || { fail "exit $?"; return; }
	expect_out "Data check +: ok, $check" \
		"Memory +: $MEM_ROCM \(.*\), registered by peer memory" \
		"DMA-BUF +: not used: $DEV refused the DMA-BUF region" || return
	pass
}

t_rocm_fake() {
	local main_server=$SERVER_PID
	[ -f "$FAKE_HIP" ] || { skip "no $FAKE_HIP: build it with make check"; return; }
	RDP_HIP_LIBRARY=$FAKE_HIP start_server "$ROCM_PORT" \
		"$WORK/rocm-server.log" --use_rocm=0 ||
		{ begin "ROCm server starts"; fail "$(cat "$WORK/rocm-server.log")";
		  SERVER_PID=$main_server; return; }
	rocm_run write_bw "$((65536 * 2)) bytes verified" --use_rocm=auto \
		-s 64K -n 200 -q 2
	rocm_run read_bw "4096 bytes verified" --use_rocm=0 -s 4096 -n 200
	rocm_run send_lat "$((2 * 64)) bytes verified" --use_rocm=0 -s 64 -n 200
	begin "fake HIP runtime: --bounce stages each message; the JSON names both sides' memory rocm"
	rocm_client write_bw --use_rocm=0 --bounce -s 4K -n 200 \
		--json-file "$WORK/rocm.json" || { fail "exit $?"; return; }
	expect_out "Data check +: ok" \
		"Memory +: $MEM_ROCM \(as asked\), staged through host memory" ||
		return
	expect_json "$WORK/rocm.json" '.memory.type == "rocm"' \
		'.peer_memory.type == "rocm" and .peer_memory.bounce == false' ||
		return
	pass
	begin "--use_rocm_dmabuf on rxe: DMA-BUF refused, no fallback, one line"
	rocm_client write_bw --use_rocm_dmabuf -n 50 && { fail "exit 0"; return; }
	expect_out "DMA-BUF: .*; peer memory: not tried \(--use_rocm_dmabuf" ||
		return
	pass
	stop_server
	SERVER_PID=$main_server
	begin "fake HIP runtime: the server names its GPU in its log"
	grep -q "$DEV: buffers on GPU 0 Fake AMD GPU 0" "$WORK/rocm-server.log" &&
		pass || fail "not in its log"
	begin "--use_rocm without the HIP runtime: one line, exit 77"
	RDP_HIP_LIBRARY=/nonexistent/libamdhip64.so expect_fail 77 \
		"no HIP runtime: .*install ROCm's libamdhip64 or set LD_LIBRARY_PATH" \
		10 "$BUILD/rdmaperf" write_bw --use_rocm=0 -d "$DEV" -p 18699 "$ADDR"
}
