# SPDX-License-Identifier: BSD-2-Clause
# Failure cases: each must end quickly with a non-zero exit and one line
# that names the cause. Sourced by run.sh.

# expect_fail RC_WANTED PATTERN SECONDS CMD...: the exit code (the one the
# failure means: 1 failure, 2 usage, 77 a capability missing), the message,
# and the time bound.
expect_fail() {
	local want=$1 pat=$2 secs=$3 rc t0 t1
	shift 3
	t0=$(date +%s)
	run_limited "$((secs + 10))" "$@" >"$WORK/out" 2>&1
	rc=$?
	t1=$(date +%s)
	case $rc in 124 | 137) fail "hung (exit $rc), wanted exit $want"; return ;; esac
	[ "$rc" -eq "$want" ] || { fail "exit $rc, wanted $want"; return; }
	[ $((t1 - t0)) -le "$secs" ] ||
		{ fail "took $((t1 - t0)) s, limit $secs s"; return; }
	grep -Eq -- "$pat" "$WORK/out" || { fail "no message /$pat/"; return; }
	CUR="$CUR [error after $((t1 - t0)) s]"
	pass
}

# wait_log_more PATTERN BEFORE SECONDS: until the server log holds more
# lines matching PATTERN than BEFORE (a count taken before the fault).
wait_log_more() {
	local pat=$1 before=$2 secs=$3
	run_limited "$secs" bash -c "until [ \$(grep -c -- '$pat' '$WORK/server.log') -gt $before ]; do sleep 0.2; done"
}

# wait_file FILE SECONDS: until FILE exists.
wait_file() {
	run_limited "$2" bash -c "until [ -e '$1' ]; do sleep 0.1; done"
}

# server_moves_on PATTERN BEFORE WHY TEST [ARGS...]: within 60 s the
# server log holds more lines matching PATTERN than BEFORE (else the case
# fails: WHY); then the server serves the client TEST ARGS.
server_moves_on() {
	local pat=$1 before=$2 why=$3
	shift 3
	wait_log_more "$pat" "$before" 60 || { fail "$why"; return; }
	client "$@" || { fail "next client: exit $?"; return; }
	pass
}

# wait_exit PID: wait for it; ELAPSED is the seconds since T_KILL.
wait_exit() {
	wait "$1"
	local rc=$?
	ELAPSED=$(($(date +%s) - T_KILL))
	return "$rc"
}

t_fail_usage() {
	begin "bad flag value: usage error, exit 2"
	expect_fail 2 "-s needs a value, a list" 10 "$BUILD/rdmaperf" write_bw -s 12X "$ADDR"
	begin "unknown option: exit 2"
	expect_fail 2 "unknown option --frobnicate" 10 \
		"$BUILD/rdmaperf" write_bw --frobnicate "$ADDR"
}

t_fail_device() {
	begin "unknown device: names the devices present, exit 2"
	expect_fail 2 "device 'nosuch0' not found; devices present: .*$DEV" 10 \
		"$BUILD/rdmaperf" write_bw -d nosuch0 -p "$PORT" "$ADDR"
	begin "empty GID index: names -x, exit 2"
	expect_fail 2 "GID index 200 .* is empty.*-x" 20 \
		"$BUILD/rdmaperf" write_bw -d "$DEV" -x 200 -p "$PORT" "$ADDR"
}

t_fail_refused() {
	begin "no server listening: connection refused, within the timeout"
	expect_fail 1 "connect to $ADDR port 18699: Connection refused.*rdmaperf-server" 10 \
		"$BUILD/rdmaperf" write_bw -d "$DEV" -p 18699 --connect-timeout 1 "$ADDR"
}

t_fail_garbage() {
	local n
	begin "garbage on the server port: server says why and survives"
	n=$(grep -c 'not speaking the rdmaperf protocol' "$WORK/server.log")
	printf 'GET / HTTP/1.0\r\n\r\n' | run_limited 10 \
		bash -c "cat >/dev/tcp/$ADDR/$PORT" 2>/dev/null
	# this client's line, not one an earlier case left
	wait_log_more 'not speaking the rdmaperf protocol' "$n" 10 ||
		{ fail "no protocol message in the server log"; return; }
	kill -0 "$SERVER_PID" 2>/dev/null || { fail "server died"; return; }
	pass
}

# server_killed SPID WHEN PATTERN ARGS...: rdmaperf ARGS in the
# background, and kill -9 its server SPID: once the run's data flows (WHEN
# "mid-run": 500 packets on the device), or at once (WHEN "now", with
# KILL_WHEN below); the client must fail in time, naming PATTERN.
server_killed() {
	local spid=$1 when=$2 pat=$3 cpid rc mark
	shift 3
	mark=$(dev_sent_pkts)
	run_limited 60 "$BUILD/rdmaperf" "$@" >"$WORK/out" 2>&1 &
	cpid=$!
	if [ "$when" = mid-run ] && ! wait_traffic "$mark" 500; then
		kill "$cpid"; wait "$cpid"
		fail "no traffic from the run in 30 s"; return 1
	fi
	# KILL_WHEN: a command that holds once the client got as far as the
	# case needs (30 s at most), for starts a slow build may stretch
	if [ -n "${KILL_WHEN:-}" ]; then
		run_limited 30 bash -c "until $KILL_WHEN; do sleep 0.1; done"
	fi
	T_KILL=$(date +%s)
	kill -9 "$spid"
	wait "$spid" 2>/dev/null
	wait_exit "$cpid"
	rc=$?
	# a run that failed: 1 (124, 137: it hung until killed)
	[ "$rc" -eq 1 ] || { fail "client exit $rc, wanted 1"; return 1; }
	grep -Eq -- "$pat" "$WORK/out" ||
		{ fail "no cause in the client output"; return 1; }
	CUR="$CUR [error after $ELAPSED s]"
	# in time: well inside the 30 s a -D 30 run would take to end anyway
	[ "$ELAPSED" -le 20 ] ||
		{ fail "the client noticed only after $ELAPSED s (limit 20)"; return 1; }
	pass
}

# server_killed_mid_run N TEST [ARGS...]: a 30 s run of TEST against
# own_server N, whose server is killed once the data flows; the client
# must fail within its --cq-timeout, naming the silence.
server_killed_mid_run() {
	local n=$1
	shift
	own_server "$n"
	wait_listening "$WORK/s$n.log" "$OWN_PID" ||
		{ fail "server $n did not start"; kill "$OWN_PID"; return 1; }
	server_killed "$OWN_PID" mid-run \
		"stopped responding|work completion failed|closed the connection" \
		"$@" -D 30 --cq-timeout 3 -d "$DEV" -p "$((PORT + n))" "$ADDR"
}

# Server killed mid-latency run: the client reports the silence in time.
t_fail_server_dies() {
	begin "server killed during write_lat: client fails within its timeout"
	server_killed_mid_run 2 write_lat -s 8
}

# client_killed_mid_run ARGS: a client run with ARGS against the server
# (on KILLED_PORT, $PORT unless set), killed (-9) once its traffic shows;
# returns 1 (the case failed) when no traffic came.
client_killed_mid_run() {
	local cpid mark
	mark=$(dev_sent_pkts)
	"$BUILD/rdmaperf" "$@" -d "$DEV" -p "${KILLED_PORT:-$PORT}" "$ADDR" \
		>"$WORK/killed.log" 2>&1 &
	cpid=$!
	wait_traffic "$mark" 500 ||
		{ kill -9 "$cpid"; fail "no traffic from the run in 30 s"; return 1; }
	kill -9 "$cpid"
	wait "$cpid" 2>/dev/null
	return 0
}

# Client killed mid-bandwidth run: the server survives and serves again.
t_fail_client_dies() {
	begin "client killed during write_bw: server serves the next client"
	client_killed_mid_run write_bw -s 65536 -D 30 || return
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

# The locked-memory limit, without the root privilege that overrides it.
t_fail_memlock() {
	begin "memlock limit too low: the hint names the limit"
	command -v setpriv >/dev/null || { skip "no setpriv"; return; }
	expect_fail 1 "locked-memory limit is 64 KiB: raise it" 20 \
		bash -c "ulimit -l 64 && exec setpriv --inh-caps=-ipc_lock \
			--ambient-caps=-ipc_lock --bounding-set=-ipc_lock \
			'$BUILD/rdmaperf' write_bw -d '$DEV' -s 1M -n 10 \
			-p '$PORT' '$ADDR'"
}

# -x on one side only: the link-local IPv6 GID against an IPv4 one.
t_fail_wrong_gid() {
	begin "wrong -x on one side: both sides name the GID mismatch"
	expect_fail 1 "GID family mismatch: this side uses an IPv6 GID \\(index 0\\)" 20 \
		"$BUILD/rdmaperf" write_bw -d "$DEV" -x 0 -n 10 -p "$PORT" "$ADDR"
	grep -q "GID family mismatch" "$WORK/server.log" ||
		{ N_PASS=$((N_PASS - 1)); fail "the server did not say why"; }
}

# Hostile framing on the server port: it answers or drops, and survives.
t_fail_truncated() {
	local v future n1 n2 n3
	begin "truncated, oversized and future-version messages: the server survives"
	v=$(wire_version)
	[ -n "$v" ] || { fail "no RDP_WIRE_VERSION in wire.h"; return; }
	future=$(printf '%03o' $((v + 5)))
	v=$(printf '%03o' "$v")
	# A HELLO header announcing 100 bytes, then 10 bytes and EOF.
	n1=$(grep -c 'refused: left during the handshake' "$WORK/server.log")
	n2=$(grep -c 'sent an oversized HELLO message' "$WORK/server.log")
	n3=$(grep -c 'speaks protocol version' "$WORK/server.log")
	printf "RDPF\\000\\$v\\000\\001\\000\\000\\000\\144ABCDEFGHIJ" |
		run_limited 10 bash -c "cat >/dev/tcp/$ADDR/$PORT" 2>/dev/null
	# One client at a time: the next once the server logged this one.
	wait_log_more 'refused: left during the handshake' "$n1" 10
	# A header announcing 4 GiB - 1.
	printf "RDPF\\000\\$v\\000\\001\\377\\377\\377\\377" |
		run_limited 10 bash -c "cat >/dev/tcp/$ADDR/$PORT" 2>/dev/null
	wait_log_more 'sent an oversized HELLO message' "$n2" 10
	# A protocol version from the future.
	printf "RDPF\\000\\$future\\000\\001\\000\\000\\000\\000" |
		run_limited 10 bash -c "cat >/dev/tcp/$ADDR/$PORT" 2>/dev/null
	wait_log_more 'speaks protocol version' "$n3" 10
	kill -0 "$SERVER_PID" 2>/dev/null || { fail "server died"; return; }
	expect_file "$WORK/server.log" "client $ADDR: refused: left during the handshake" \
		"sent an oversized HELLO message" \
		"speaks protocol version $(wire_version | awk '{ print $1 + 5 }'), this side $(wire_version)" ||
		return
	client write_bw -n 10 || { fail "next client: exit $?"; return; }
	pass
}

# Server killed during a bandwidth run; client killed during a latency run.
t_fail_kills() {
	local spid rc
	begin "server killed during write_bw: client fails within its timeout"
	server_killed_mid_run 3 write_bw
	begin "client killed during write_lat: server serves the next client"
	# A server of its own: it notices the silence after its --cq-timeout,
	# 3 s here, not the main server's default 10 s.
	own_server 16 --cq-timeout 3
	spid=$OWN_PID
	wait_listening "$WORK/s16.log" "$spid" ||
		{ fail "server 16 did not start"; kill "$spid"; return; }
	KILLED_PORT=$((PORT + 16)) client_killed_mid_run write_lat -D 30 ||
		{ kill "$spid"; wait "$spid"; return; }
	if run_limited 60 bash -c "until grep -q 'write_lat: failed' '$WORK/s16.log'; do sleep 0.2; done"; then
		run_limited "$LIMIT" "$BUILD/rdmaperf" write_lat -n 50 -d "$DEV" \
			-p "$((PORT + 16))" "$ADDR" >"$WORK/out" 2>&1
		rc=$?
		if [ "$rc" -eq 0 ]; then pass; else fail "next client: exit $rc"; fi
	else
		fail "server did not give up on the dead client"
	fi
	kill "$spid"
	wait "$spid" 2>/dev/null
}

# The server dies while the client waits for its HELLO: stopped first, so
# the client is surely in the handshake, then killed.
t_fail_handshake_server() {
	local port=$((PORT + 4)) spid
	begin "server killed during the handshake: client names the closed connection"
	own_server 4
	spid=$OWN_PID
	run_limited 20 bash -c "until grep -q 'listening on port' '$WORK/s4.log'; do sleep 0.1; done" ||
		{ fail "server did not start"; kill "$spid"; return; }
	kill -STOP "$spid"
	# killed once the client's connection waits in the stopped server's
	# accept queue (ss: Recv-Q of the listening socket)
	KILL_WHEN="ss -Hltn 'sport = :$port' | awk '\$2 > 0 { f = 1 } END { exit !f }'" \
		server_killed "$spid" now \
		"closed the connection while this side waited for HELLO" \
		write_bw -n 10 --oob-timeout 30 -d "$DEV" -p "$port" "$ADDR"
}

# A client that sends its HELLO and dies before its test: the server
# answers, notices the closed connection and serves the next client.
t_fail_handshake_client() {
	local cpid before
	begin "client killed during the handshake: server serves the next client"
	mkdir -p "$WORK/seeds" && "$BUILD/tests/fuzz/make_seeds" "$WORK/seeds" ||
		{ fail "cannot write a HELLO message"; return; }
	before=$(grep -c 'left before sending its test' "$WORK/server.log")
	rm -f "$WORK/hs"
	# It sends HELLO and reads the header of the server's: the server is
	# past its handshake and waits for the test when the client dies.
	bash -c "exec 3<>/dev/tcp/$ADDR/$PORT; cat '$WORK/seeds/hello' >&3;
		head -c 12 <&3 >/dev/null; : >'$WORK/hs'; sleep 60" &
	cpid=$!
	wait_file "$WORK/hs" 30 ||
		{ kill -9 "$cpid"; fail "the server did not answer HELLO in 30 s"; return; }
	kill -9 "$cpid"
	wait "$cpid" 2>/dev/null
	wait_log_more 'left before sending its test' "$before" 20 ||
		{ tail -n 5 "$WORK/server.log" >"$WORK/out"
		  fail "the server did not report the client that left"; return; }
	client write_bw -n 10 || { fail "next client: exit $?"; return; }
	pass
}

# The device's netdev goes down during a bandwidth run: the client stops
# within its --cq-timeout and says why; with the link back the server
# serves again.
t_fail_netdev_down() {
	local netdev=${RDP_RXE_NETDEV0:-} cpid rc before mark
	begin "netdev down mid-run: the client fails in time and names the cause"
	[ -n "$netdev" ] || { skip "no netdev known for $DEV"; return; }
	before=$(grep -c 'write_bw: failed' "$WORK/server.log")
	mark=$(dev_sent_pkts)
	run_limited 60 "$BUILD/rdmaperf" write_bw -D 30 --cq-timeout 3 \
		-d "$DEV" -p "$PORT" "$ADDR" >"$WORK/out" 2>&1 &
	cpid=$!
	wait_traffic "$mark" 500 ||
		{ kill -9 "$cpid"; fail "no traffic from the run in 30 s"; return; }
	T_KILL=$(date +%s)
	ip link set "$netdev" down
	wait_exit "$cpid"
	rc=$?
	ip link set "$netdev" up
	wait_port ACTIVE || echo "# warning: $DEV did not come back ACTIVE"
	[ "$rc" -eq 1 ] || { fail "client exit $rc, wanted 1"; return; }
	grep -Eq "stopped responding|work completion failed|no ACK" \
		"$WORK/out" || { fail "no cause in the client output"; return; }
	CUR="$CUR [error after $ELAPSED s]"
	# --cq-timeout 3, not the end of -D 30
	[ "$ELAPSED" -le 20 ] ||
		{ fail "the client noticed only after $ELAPSED s (limit 20)"; return; }
	pass
	begin "netdev back up: the server serves the next client"
	server_moves_on 'write_bw: failed' "$before" \
		"server did not give up on the broken run" write_bw -n 100
}

# A client asking for more buffer than the server lends: refused with
# the limit named on both sides; the next, smaller test runs.
t_fail_max_memory() {
	local port=$((PORT + 7)) spid
	begin "--max-memory: a larger request is refused, the server goes on"
	own_server 7 --max-memory 1M
	spid=$OWN_PID
	wait_listening "$WORK/s7.log" "$spid" ||
		{ fail "server 7 did not start"; kill "$spid"; return; }
	expect_fail 1 "needs 3 MiB of buffers and queues \\(2 MiB \+ 1 MiB\\), over this server's --max-memory of 1 MiB" 20 \
		"$BUILD/rdmaperf" write_bw -s 1M -n 10 -d "$DEV" -p "$port" "$ADDR"
	grep -q "over this server's --max-memory" "$WORK/s7.log" ||
		{ N_PASS=$((N_PASS - 1)); fail "the server did not say why"; }
	begin "--max-memory: a test within the limit runs on the same server"
	run_limited 60 "$BUILD/rdmaperf" write_bw -s 64K -n 10 -d "$DEV" \
		-p "$port" "$ADDR" >"$WORK/out" 2>&1 || { fail "exit $?"; kill "$spid"; return; }
	kill "$spid"
	wait "$spid" 2>/dev/null
	pass
}

t_failures() {
	t_fail_usage
	t_fail_device
	t_fail_refused
	t_fail_garbage
	t_fail_server_dies
	t_fail_client_dies
	t_fail_memlock
	t_fail_wrong_gid
	t_fail_truncated
	t_fail_kills
	t_fail_handshake_server
	t_fail_handshake_client
	t_fail_netdev_down
	t_fail_max_memory
	t_fail_port_down
}
