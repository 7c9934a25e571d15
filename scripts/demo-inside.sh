#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Runs next to a Soft-RoCE device (see demo.sh): server, then two clients.
set -euo pipefail
build=${1:?build directory}
"$build/rdmaperf-server" -d "$RDP_RXE_DEV0" >"$build/demo-server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null' EXIT
for _ in $(seq 50); do
	grep -q listening "$build/demo-server.log" && break
	sleep 0.1
done
"$build/rdmaperf" write_bw -d "$RDP_RXE_DEV0" -s 64K -n 5000 --report_gbits \
	"$RDP_RXE_ADDR0"
echo
"$build/rdmaperf" write_lat -d "$RDP_RXE_DEV0" -s 2 -n 5000 "$RDP_RXE_ADDR0"
echo
echo "server log:"
cat "$build/demo-server.log"
