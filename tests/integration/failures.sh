# SPDX-License-Identifier: BSD-2-Clause
# Failure cases: each must end quickly with a non-zero exit and one line
# that names the cause. Sourced by run.sh.

# expect_fail NAME RC_WANTED PATTERN SECONDS CMD...: the exit code (or any
# non-zero when RC_WANTED is "nz"), the message, and the time bound.
expect_fail() {
	local want=$1 pat=$2 secs=$3 rc t0 t1
	shift 3
	t0=$(date +%s)
	run_limited "$((secs + 10))" "$@" >"$WORK/out" 2>&1
	rc=$?
	t1=$(date +%s)
	if [ "$rc" -eq 0 ] || { [ "$want" != nz ] && [ "$rc" -ne "$want" ]; }; then
		fail "exit $rc, wanted $want"
		return
	fi
	[ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] || { fail "hung"; return; }
	[ $((t1 - t0)) -le "$secs" ] ||
		{ fail "took $((t1 - t0)) s, limit $secs s"; return; }
	grep -Eq -- "$pat" "$WORK/out" || { fail "no message /$pat/"; return; }
	pass
}

t_fail_usage() {
	begin "bad flag value: usage error, exit 2"
	expect_fail 2 "-s needs a value, a list" 5 "$BUILD/rdmaperf" write_bw -s 12X "$ADDR"
	begin "unknown option: exit 2"
	expect_fail 2 "unknown option --frobnicate" 5 \
		"$BUILD/rdmaperf" write_bw --frobnicate "$ADDR"
}

t_fail_device() {
	begin "unknown device: names the devices present"
	expect_fail nz "device 'nosuch0' not found; devices present: .*$DEV" 10 \
		"$BUILD/rdmaperf" write_bw -d nosuch0 -p "$PORT" "$ADDR"
	begin "empty GID index: names -x"
	expect_fail nz "GID index 200 .* is empty.*-x" 20 \
		"$BUILD/rdmaperf" write_bw -d "$DEV" -x 200 -p "$PORT" "$ADDR"
}

t_fail_refused() {
	begin "no server listening: connection refused, within the timeout"
	expect_fail 1 "connect to $ADDR port 18699: Connection refused.*rdmaperf-server" 10 \
		"$BUILD/rdmaperf" write_bw -d "$DEV" -p 18699 --oob-timeout 2 "$ADDR"
}

t_fail_garbage() {
	begin "garbage on the server port: server says why and survives"
	printf 'GET / HTTP/1.0\r\n\r\n' | run_limited 10 \
		bash -c "cat >/dev/tcp/$ADDR/$PORT" 2>/dev/null
	sleep 0.5
	kill -0 "$SERVER_PID" 2>/dev/null || { fail "server died"; return; }
	grep -q "not speaking the rdmaperf protocol" "$WORK/server.log" ||
		{ fail "no protocol message in the server log"; return; }
	pass
}

# Server killed mid-latency run: the client reports the silence in time.
t_fail_server_dies() {
	local port=$((PORT + 2)) spid cpid rc
	begin "server killed during write_lat: client fails within its timeout"
	"$BUILD/rdmaperf-server" -d "$DEV" -p "$port" >"$WORK/s2.log" 2>&1 &
	spid=$!
	sleep 0.5
	run_limited 60 "$BUILD/rdmaperf" write_lat -s 8 -D 30 --cq-timeout 3 \
		-d "$DEV" -p "$port" "$ADDR" >"$WORK/out" 2>&1 &
	cpid=$!
	sleep 4
	kill -9 "$spid"
	wait "$spid" 2>/dev/null
	wait "$cpid"
	rc=$?
	case $rc in 0|124|137) fail "client exit $rc"; return ;; esac
	grep -Eq "stopped responding|work completion failed|closed the connection" \
		"$WORK/out" || { fail "no cause in the client output"; return; }
	pass
}

# Client killed mid-bandwidth run: the server survives and serves again.
t_fail_client_dies() {
	local cpid
	begin "client killed during write_bw: server serves the next client"
	"$BUILD/rdmaperf" write_bw -s 65536 -D 30 -d "$DEV" -p "$PORT" "$ADDR" \
		>"$WORK/killed.log" 2>&1 &
	cpid=$!
	sleep 4
	kill -9 "$cpid"
	wait "$cpid" 2>/dev/null
	client write_bw -s 4096 -n 100 || { fail "next client: exit $?"; return; }
	kill -0 "$SERVER_PID" 2>/dev/null || { fail "server died"; return; }
	pass
}

wait_port() {
	local want=$1 i
	for i in $(seq 1 100); do
		grep -q "$want" "/sys/class/infiniband/$DEV/ports/1/state" &&
			return 0
		sleep 0.1
	done
	return 1
}

# The netdev under the device goes down: the port follows, and the client
# says which port is in which state. Restores the link afterwards.
t_fail_port_down() {
	local netdev=${RDP_RXE_NETDEV0:-}
	begin "port down: the client names the port and its state"
	[ -n "$netdev" ] || { skip "no netdev known for $DEV"; return; }
	ip link set "$netdev" down
	if ! wait_port DOWN; then
		ip link set "$netdev" up
		skip "$DEV does not follow its netdev's state here"
		return
	fi
	expect_fail 1 "port 1 of $DEV is DOWN: .*cable" 10 \
		"$BUILD/rdmaperf" write_bw -d "$DEV" -p "$PORT" "$ADDR"
	ip link set "$netdev" up
	wait_port ACTIVE || echo "# warning: $DEV did not come back ACTIVE"
}

t_failures() {
	t_fail_usage
	t_fail_device
	t_fail_refused
	t_fail_garbage
	t_fail_server_dies
	t_fail_client_dies
	t_fail_port_down
}
