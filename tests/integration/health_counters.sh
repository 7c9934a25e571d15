# SPDX-License-Identifier: BSD-2-Clause
# Fabric health from the port counters: loss on the link shows as transport
# retries on both ends, which --max-errors turns into a failed point; left
# to the defaults (no link error allowed, retries any) the run passes and
# its JSON carries the sums. The loss is light and the messages short:
# go-back-N resends everything after a lost packet, and Soft-RoCE under
# emulation stalls on heavier loss or longer messages. Needs
# tests/softroce/rxe-run --devices 2: the client on the second device, from
# its address, so that its packets cross its veth, where netem drops them.
# Sourced by run.sh.

# The cases, with netem already on the client's veth; the caller removes it
# whatever they return.
health_lossy() {
	local doc=$WORK/health.json rc
	run_limited 60 "$BUILD/rdmaperf" write_bw -s 4K -D 2 --max-errors retries=0 \
		-d "$RDP_RXE_DEV1" --bind_source_ip "$RDP_RXE_ADDR1" \
		-p "$PORT" "$ADDR" >"$WORK/out" 2>&1
	rc=$?
	[ "$rc" -eq 1 ] || { fail "exit $rc, wanted 1"; return; }
	expect_out \
		"4096 B x 1 QP\\(s\\): (this side's port \\($RDP_RXE_DEV1 port 1\\)|the peer's port): transport retries \\+[0-9]+ \\((out_of_seq_request|rcvd_seq_err|duplicate_request|completer_retry_err) \\+[0-9]+.*over the limit of 0 \\(--max-errors retries=0\\)" \
		"^   \\^ FAIL .*transport retries" \
		"Limits +: FAIL \\(1 of 1 points fail\\)" || return
	pass

	begin "netem loss 1%: without --max-errors the run passes, its JSON counts the retries"
	run_limited 60 "$BUILD/rdmaperf" write_bw -s 4K -D 2 --json-file "$doc" \
		-d "$RDP_RXE_DEV1" --bind_source_ip "$RDP_RXE_ADDR1" \
		-p "$PORT" "$ADDR" >"$WORK/out" 2>&1 ||
		{ fail "exit $?"; return; }
	expect_out "Port errors +: .*retries \\+[0-9]+" || return
	expect_json "$doc" \
		'.results[0].errors.local.retries > 0 or .results[0].errors.peer.retries > 0' \
		'.results[0].errors.local.link == 0 and .results[0].errors.peer.link == 0' \
		'.verdict.pass' || return
	pass
}

t_health_counters() {
	local net=${RDP_RXE_NETDEV1:-}
	begin "netem loss 1%: --max-errors retries=0 fails the point, naming the retries"
	if [ -z "${RDP_RXE_DEV1:-}" ] || [ -z "$net" ]; then
		skip "one device (rxe-run --devices 2 gives two)"
		return
	fi
	if ! tc qdisc add dev "$net" root netem loss 1% 2>"$WORK/out"; then
		skip "no netem on $net: $(head -n 1 "$WORK/out")"
		return
	fi
	health_lossy
	tc qdisc del dev "$net" root 2>/dev/null ||
		echo "# warning: netem could not be removed from $net"
}
