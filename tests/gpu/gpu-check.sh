#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# GPU check, one command, a few minutes at most: on a host with an NVIDIA
# GPU, allocate on it, export the buffer as DMA-BUF, check the data there
# and back, and see --use_cuda fail with one clear line when there is no
# RDMA device (or run a loopback write_bw with GPU buffers when there is,
# then the same staged through host memory with --bounce, side by side).
# Exit 0 all passed, 1 a check failed, 77 no GPU here.
# Usage: tests/gpu/gpu-check.sh [BUILD_DIR] [GPU]
set -u
BUILD=$(cd "${1:-.}" && pwd)
GPU=${2:-0}
PROBE=$BUILD/tests/gpu/gpu_probe
FAILED=0

say() { echo "gpu-check: $*"; }

[ -x "$PROBE" ] || make -C "$BUILD" -s tests/gpu/gpu_probe >/dev/null 2>&1
[ -x "$PROBE" ] || { say "no $PROBE: build it with make check"; exit 1; }

# The real driver only: the test hook must not stand in for a GPU here.
unset RDP_CUDA_LIBRARY
timeout 120 "$PROBE" "$GPU"
rc=$?
if [ "$rc" -eq 77 ]; then
	say "SKIP: no CUDA driver or no GPU on this host"
	exit 77
fi
[ "$rc" -eq 0 ] || FAILED=1

port=18790
if ! ls /sys/class/infiniband/ 2>/dev/null | grep -q .; then
	out=$(timeout 30 "$BUILD/rdmaperf" write_bw --use_cuda="$GPU" \
		-p "$port" 127.0.0.1 2>&1)
	rc=$?
	if [ "$rc" -eq 77 ] && echo "$out" | grep -q "no RDMA devices found"; then
		say "ok   no RDMA device: exit 77, '$(echo "$out" | head -1)'"
	else
		say "FAIL no RDMA device: exit $rc, '$out'"
		FAILED=1
	fi
	out=$(timeout 30 "$BUILD/rdmaperf" write_bw --use_cuda="$GPU" \
		--bounce -p "$port" 127.0.0.1 2>&1)
	rc=$?
	if [ "$rc" -eq 77 ] && echo "$out" | grep -q "no RDMA devices found"; then
		say "ok   --bounce, no RDMA device: exit 77"
	else
		say "FAIL --bounce, no RDMA device: exit $rc, '$out'"
		FAILED=1
	fi
else
	"$BUILD/rdmaperf-server" --use_cuda="$GPU" -p "$port" \
		>"$BUILD/gpu-server.log" 2>&1 &
	spid=$!
	sleep 2
	out=$(timeout 120 "$BUILD/rdmaperf" write_bw --use_cuda="$GPU" \
		-s 1M -n 2000 -p "$port" 127.0.0.1 2>&1)
	rc=$?
	kill "$spid" 2>/dev/null
	echo "$out" | grep -E "Memory|DMA-BUF|Data check|^ *1048576 "
	[ "$rc" -eq 0 ] && say "ok   loopback write_bw with GPU buffers" ||
		{ say "FAIL loopback write_bw: exit $rc"; echo "$out" | tail -5;
		  FAILED=1; }
	# The same test staged through host memory on both sides: the
	# difference between the two figures is what GPUDirect saves.
	"$BUILD/rdmaperf-server" --use_cuda="$GPU" --bounce -p "$port" \
		>"$BUILD/gpu-server-bounce.log" 2>&1 &
	spid=$!
	sleep 2
	out=$(timeout 120 "$BUILD/rdmaperf" write_bw --use_cuda="$GPU" \
		--bounce -s 1M -n 2000 -p "$port" 127.0.0.1 2>&1)
	rc=$?
	kill "$spid" 2>/dev/null
	echo "$out" | grep -E "Memory|Staging|Data check|^ *1048576 "
	if [ "$rc" -eq 0 ] && echo "$out" | grep -q "staged through host memory (--bounce)"; then
		say "ok   loopback write_bw --bounce (staged through host memory)"
	else
		say "FAIL loopback write_bw --bounce: exit $rc"
		echo "$out" | tail -5
		FAILED=1
	fi
fi
[ "$FAILED" -eq 0 ] && say "all passed" || say "FAILED"
exit "$FAILED"
