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
# Say what the figures are before they are read as a NIC's (or a broken
# link's): demo.sh boots its guest without KVM.
if [[ ${RDP_RXE_MODE:-} == qemu ]]; then
	echo "Note: Soft-RoCE in a QEMU guest without KVM (emulated CPU):" \
		"the figures below are bound by the emulator's CPU, far below" \
		"a real NIC, and the retransmit counters that rise with them" \
		"come from the emulation, not from a broken link."
else
	echo "Note: Soft-RoCE moves every packet on this host's CPU: the" \
		"figures below are bound by that CPU, far below a real NIC," \
		"and retransmit counters that rise with them come from the" \
		"software device, not from a broken link."
fi
echo
"$build/rdmaperf" write_bw -d "$RDP_RXE_DEV0" -s 64K -n 5000 --report_gbits \
	"$RDP_RXE_ADDR0"
echo
"$build/rdmaperf" write_lat -d "$RDP_RXE_DEV0" -s 2 -n 5000 "$RDP_RXE_ADDR0"
echo
echo "server log:"
cat "$build/demo-server.log"
