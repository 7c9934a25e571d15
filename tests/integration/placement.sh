# SPDX-License-Identifier: BSD-2-Clause
# rdmaperf doctor, placement and port counters on a real rxe device.
# Sourced by run.sh: uses its client(), DEV, ADDR, PORT, WORK and BUILD.

t_place_doctor() {
	begin "doctor -d DEV --json: valid document, verdicts from the device"
	run_limited 30 "$BUILD/rdmaperf" doctor -d "$DEV" --json >"$WORK/out" 2>"$WORK/err" ||
		{ fail "exit $?: $(cat "$WORK/err")"; return; }
	expect_json "$WORK/out" '.command == "doctor"' ".device == \"$DEV\"" \
		'.link_layer == "Ethernet"' \
		'.checks[] | select(.id == "port_state") | .verdict == "PASS"' \
		'.checks[] | select(.id == "gid") | .verdict == "PASS"' \
		'.checks[] | select(.id == "link_layer") | .value | test("Ethernet")' \
		'.checks[] | select(.id == "mtu") | (.verdict == "PASS" or .verdict == "WARN") and (.value | test("^active [0-9]+, max [0-9]+"))' \
		'.checks[] | select(.id == "pcie_link") | .verdict == "SKIP"' \
		'[.checks[] | select(.verdict != "PASS" and .verdict != "SKIP" and .fix == null)] | length == 0' \
		"[.gid_table[] | select(.used)] | length == 1" \
		".gid_table[] | select(.used) | .ipv4 == \"$ADDR\" and .type == \"RoCE v2\"" \
		'.summary.fail == 0 and .summary.ok and .peer == null' \
		'(.summary.pass + .summary.warn + .summary.skip) == (.checks | length)' || return
	pass
	begin "doctor text: one line per check and the GID table"
	run_limited 30 "$BUILD/rdmaperf" doctor -d "$DEV" >"$WORK/out" 2>&1 ||
		{ fail "exit $?"; return; }
	expect_out "^ PASS  Port state +ACTIVE, physical LinkUp" \
		"<- used by rdmaperf" "Summary: [0-9]+ PASS, [0-9]+ WARN, 0 FAIL" || return
	pass
}

t_place_doctor_pair() {
	begin "doctor HOST: the server's view and an RDMA exchange"
	run_limited 60 "$BUILD/rdmaperf" doctor -d "$DEV" -p "$PORT" --json \
		"$ADDR" >"$WORK/out" 2>"$WORK/err" ||
		{ fail "exit $?: $(cat "$WORK/err")"; return; }
	expect_json "$WORK/out" ".peer.device == \"$DEV\"" \
		'.peer.gid_type == "RoCE v2"' \
		'.checks[] | select(.id == "peer") | .verdict == "PASS"' \
		'.checks[] | select(.id == "pair_mtu") | .verdict == "PASS"' \
		'.checks[] | select(.id == "pair_gid_type") | .verdict == "PASS"' \
		'.checks[] | select(.id == "rdma_exchange") | .verdict == "PASS" and (.value | test("median [0-9.]+ us"))' || return
	# The server ran the exchange as a test and checked its data.
	grep -q "write_lat, 2 B, 1 QP(s): done, data ok" "$WORK/server.log" ||
		{ fail "the server did not serve the exchange"; return; }
	pass
	begin "doctor HOST without a server: FAIL, exit 1, the exchange not tried"
	run_limited 60 "$BUILD/rdmaperf" doctor -d "$DEV" -p $((PORT + 7)) \
		--oob-timeout 2 --json "$ADDR" >"$WORK/out" 2>/dev/null
	[ $? -eq 1 ] || { fail "exit code is not 1"; return; }
	expect_json "$WORK/out" '.checks[] | select(.id == "peer") | .verdict == "FAIL" and (.fix | test("rdmaperf-server"))' \
		'.checks[] | select(.id == "rdma_exchange") | .verdict == "SKIP"' \
		'.summary.ok == false' || return
	pass
	begin "doctor: bad device exits 77, bad option exits 2"
	run_limited 10 "$BUILD/rdmaperf" doctor -d nosuchdev >"$WORK/out" 2>&1
	[ $? -eq 77 ] && grep -q "device 'nosuchdev' not found" "$WORK/out" ||
		{ fail "no device: not 77 with the cause"; return; }
	run_limited 10 "$BUILD/rdmaperf" doctor -i 0 >"$WORK/out" 2>&1
	[ $? -eq 2 ] && grep -q -- "-i 0 is out of range: use 1..254" "$WORK/out" ||
		{ fail "bad -i: not 2 with the cause"; return; }
	pass
}

t_place_json() {
	begin "write_bw --json: placement and counter deltas of both sides"
	run_limited "$LIMIT" "$BUILD/rdmaperf" write_bw -s 65536 -n 100 --json \
		-d "$DEV" -p "$PORT" "$ADDR" >"$WORK/out" 2>"$WORK/err" ||
		{ fail "exit $?: $(cat "$WORK/err")"; return; }
	expect_json "$WORK/out" '.placement.local.mode | type == "string"' \
		'.placement.peer.mode | type == "string"' \
		'.placement.local | has("cross_numa") and has("cpus") and has("nic_numa_node")' \
		'.placement.peer.cpus | length > 0' \
		'.results[0].counters.local.hw_counters.sent_pkts > 0' \
		'.results[0].counters.peer.hw_counters.sent_pkts > 0' \
		'.results[0].counters.local.hw_counters.rcvd_pkts > 0' \
		'.results[0].counters.peer | has("port_counters")' || return
	pass
	begin "text report: placement lines and non-zero counter deltas"
	client write_bw -s 65536 -n 100 || { fail "exit $?"; return; }
	# Client and server share one port here: its counters are printed
	# once (the JSON above still carries both sides).
	# The Counters line wraps when rxe retransmits (more counters move):
	# sent_pkts may stand on its continuation line.
	expect_out "^ Placement +: CPUs " "^ Peer placement +: CPUs " \
		"^ Counters +: " "^ (Counters +| +): .*sent_pkts \\+[1-9]" ||
		return
	grep -Eq "^ Counters (here|peer)" "$WORK/out" &&
		{ fail "one port's counters printed twice"; return; }
	# Only non-zero deltas are printed.
	grep -E "^ Counters" "$WORK/out" | grep -Eq " \\+0(,|$)" &&
		{ fail "a zero delta was printed"; return; }
	pass
}

t_place_cpu() {
	local nodes cpus
	begin "--cpu 1: the client runs there and says so"
	run_limited "$LIMIT" "$BUILD/rdmaperf" write_lat -n 100 --cpu 1 \
		--json-file "$WORK/p.json" -d "$DEV" -p "$PORT" "$ADDR" \
		>"$WORK/out" 2>&1 || { fail "exit $?"; return; }
	expect_out "Local host .*running on CPU 1$" "Placement +: CPUs 1, .*\\(--cpu" || return
	expect_json "$WORK/p.json" \
		'.placement.local.mode == "cpu" and .placement.local.cpus == "1"' || return
	pass
	begin "--cpu/--numa that do not exist: one line, exit 2"
	cpus=$(nproc)
	run_limited 20 "$BUILD/rdmaperf" write_lat -n 10 --cpu "$cpus" \
		-d "$DEV" -p "$PORT" "$ADDR" >"$WORK/out" 2>&1
	[ $? -eq 2 ] && grep -q "CPU $cpus is not online" "$WORK/out" ||
		{ fail "no clear refusal of CPU $cpus"; return; }
	run_limited 20 "$BUILD/rdmaperf" write_lat -n 10 --numa 63 \
		-d "$DEV" -p "$PORT" "$ADDR" >"$WORK/out" 2>&1
	[ $? -eq 2 ] && grep -q -- "--numa 63: no such node" "$WORK/out" ||
		{ fail "no clear refusal of node 63"; return; }
	pass
	begin "--cpu on another NUMA node than the NIC warns"
	nodes=$(cat /sys/devices/system/node/online 2>/dev/null)
	if [ "$(cat "/sys/class/infiniband/$DEV/device/numa_node" 2>/dev/null || echo -1)" -lt 0 ] ||
		[ "$nodes" = 0 ]; then
		# Soft-RoCE has no NUMA node and the guest one node: the
		# warning's logic is tested on the two-socket fixture.
		skip "NIC without a NUMA node or one node only (test_place covers it)"
		return
	fi
	local nic d cpu=""
	nic=$(cat "/sys/class/infiniband/$DEV/device/numa_node")
	for d in /sys/devices/system/node/node[0-9]*; do
		[ "${d##*node}" = "$nic" ] && continue
		cpu=$(cut -d, -f1 "$d/cpulist" | cut -d- -f1)
		[ -n "$cpu" ] && break
	done
	[ -n "$cpu" ] || { skip "no CPU off node $nic"; return; }
	run_limited "$LIMIT" "$BUILD/rdmaperf" write_lat -n 50 --cpu "$cpu" \
		--json-file "$WORK/x.json" -d "$DEV" -p "$PORT" "$ADDR" \
		>"$WORK/out" 2>&1 || { fail "exit $?"; return; }
	expect_out "not all on NUMA node $nic of the NIC" || return
	expect_json "$WORK/x.json" \
		'.placement.local.cross_numa == true' || return
	pass
}

t_place_server() {
	local port=$((PORT + 9)) spid
	begin "rdmaperf-server --cpu 0: its placement reaches the client"
	own_server 9 --cpu 0
	spid=$OWN_PID
	wait_listening "$WORK/s9.log" "$spid" ||
		{ fail "server 9 did not start"; kill "$spid"; return; }
	run_limited "$LIMIT" "$BUILD/rdmaperf" write_bw -n 50 --json -d "$DEV" \
		-p "$port" "$ADDR" >"$WORK/out" 2>"$WORK/err"
	kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
	expect_jq "$WORK/out" '.placement.peer.mode == "cpu"' \
		'.placement.peer.cpus == "0"' '.server.cpu == 0' \
		>"$WORK/why" || { fail "$(cat "$WORK/why") $(cat "$WORK/err")"; return; }
	pass
}

t_placement() {
	t_place_doctor
	t_place_doctor_pair
	t_place_json
	t_place_cpu
	t_place_server
}
