#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Runs next to four Soft-RoCE devices (see mesh-demo.sh): one rank per
# device, each its own node (RDP_MESH_NODE=node%r), MPI's own traffic on
# TCP and shared memory. Soft-RoCE under emulation varies from cell to cell
# far more than a real fabric: the tolerance is wide (60 %), as in CI.
set -euo pipefail
build=${1:?build directory} out=${2:?output directory}
start=$SECONDS
status=0
RDP_MESH_NODE='node%r' mpirun --allow-run-as-root --oversubscribe -np 4 \
	-x RDP_MESH_NODE --mca pml ob1 --mca btl self,vader,tcp \
	"$build/rdmaperf-mesh" write_bw -s 64K -D 2 --tolerance 60 \
	-d "$RDP_RXE_DEV0,$RDP_RXE_DEV1,$RDP_RXE_DEV2,$RDP_RXE_DEV3" \
	--output-dir "$out" || status=$?
echo
echo "mesh of 4 nodes, 6 rounds of -D 2: $((SECONDS - start)) s wall, mpirun included"
echo "files in $out: $(cd "$out" && echo *)"
exit "$status"
