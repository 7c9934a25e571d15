# SPDX-License-Identifier: BSD-2-Clause
# Who may use a server: the shared secret both ways, --allow, a replayed
# handshake, a client that trickles its bytes. Real servers on ports of
# their own, real clients and real sockets. Sourced by run.sh.

AUTH_PORT=$((PORT + 40))
# -I -S: no site packages, which take long to start in an emulated guest
AUTH_PEER="python3 -I -S $HERE/auth_peer.py"

# secret NAME TEXT: a 0600 secret file in $WORK; its path on stdout.
secret() {
	local f=$WORK/$1.secret
	(umask 077 && printf '%s\n' "$2" >"$f")
	echo "$f"
}

# auth_server N ARGS...: a server on AUTH_PORT + N, log $WORK/auth$N.log,
# pid in AUTH_PID; 1 when it did not start.
auth_server() {
	local n=$1 log=$WORK/auth$1.log
	shift
	"$BUILD/rdmaperf-server" -d "$DEV" -p "$((AUTH_PORT + n))" "$@" \
		>"$log" 2>&1 &
	AUTH_PID=$!
	wait_listening "$log" "$AUTH_PID" && return 0
	fail "server on port $((AUTH_PORT + n)) did not start: $(cat "$log")"
	return 1
}

# wait_line FILE TEXT: until a line of FILE holds TEXT, 90 s at most
# (Python starts slowly in an emulated guest).
wait_line() {
	local i
	for i in $(seq 1 900); do
		grep -q "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

auth_stop() {
	kill "$AUTH_PID" 2>/dev/null
	wait "$AUTH_PID" 2>/dev/null
}

# auth_client N ARGS...: a write_bw client of server N, output in out.
auth_client() {
	local n=$1
	shift
	run_limited 60 "$BUILD/rdmaperf" write_bw -n 200 -d "$DEV" \
		-p "$((AUTH_PORT + n))" "$@" "$ADDR" >"$WORK/out" 2>&1
}

t_auth() {
	local key other phrase rc log=$WORK/auth0.log
	key=$(secret key "$(head -c 32 /dev/urandom | base64)")
	other=$(secret other "$(head -c 32 /dev/urandom | base64)")

	begin "auth: right secret on both sides: the test runs, both say so"
	auth_server 0 --auth-file "$key" || return
	auth_client 0 --auth-file "$key" --json-file "$WORK/auth.json" ||
		{ fail "exit $?"; auth_stop; return; }
	expect_out "Authentication +: shared secret, proved by both sides" \
		"Data check +: ok" || { auth_stop; return; }
	expect_json "$WORK/auth.json" '.authentication == "shared-secret"' ||
		{ auth_stop; return; }
	expect_in "$log" "^authentication: shared secret \\(HMAC-SHA256" \
		"done, data ok" >"$WORK/why" || { fail "$(cat "$WORK/why")"; auth_stop; return; }
	pass

	begin "auth: the secret from RDMAPERF_AUTH_FILE"
	RDMAPERF_AUTH_FILE=$key auth_client 0 || { fail "exit $?"; auth_stop; return; }
	expect_out "Authentication +: shared secret" || { auth_stop; return; }
	pass

	begin "auth: wrong secret: the client refuses the server, exit 1"
	auth_client 0 --auth-file "$other"
	rc=$?
	[ $rc -eq 1 ] || { fail "exit $rc"; auth_stop; return; }
	expect_out "server .* failed to prove it knows the shared secret: refusing it" ||
		{ auth_stop; return; }
	pass

	begin "auth: no secret against a server with one: 'authentication required'"
	auth_client 0
	rc=$?
	[ $rc -eq 1 ] || { fail "exit $rc"; auth_stop; return; }
	expect_out "reports: authentication required: this server needs the shared secret" ||
		{ auth_stop; return; }
	expect_in "$log" "client $ADDR: refused: authentication required" \
		>"$WORK/why" || { fail "$(cat "$WORK/why")"; auth_stop; return; }
	pass

	begin "auth: a group-readable secret is refused at start, exit 2"
	chmod 640 "$other"
	run_limited 10 "$BUILD/rdmaperf-server" -d "$DEV" -p "$((AUTH_PORT + 9))" \
		--auth-file "$other" >"$WORK/out" 2>&1
	rc=$?
	chmod 600 "$other"
	[ $rc -eq 2 ] || { fail "exit $rc"; auth_stop; return; }
	expect_out "readable or writable by group or others \\(mode 0640\\): chmod 600" ||
		{ auth_stop; return; }
	pass

	begin "auth: a passphrase is not a secret: refused at start, exit 2, with how to make one"
	phrase=$(secret phrase "correct horse battery staple")
	run_limited 10 "$BUILD/rdmaperf-server" -d "$DEV" -p "$((AUTH_PORT + 10))" \
		--auth-file "$phrase" >"$WORK/out" 2>&1
	rc=$?
	[ $rc -eq 2 ] || { fail "exit $rc"; auth_stop; return; }
	expect_out "^rdmaperf-server: error: --auth-file $phrase: the secret is not one line of hex or base64 \\(28 characters\\): make one with 'head -c 32 /dev/urandom \\| base64 > $phrase && chmod 600 $phrase'\$" ||
		{ auth_stop; return; }
	pass

	begin "auth: RDMAPERF_AUTH_FILE with --perftest: one warning that the secret is not used"
	RDMAPERF_AUTH_FILE=$key run_limited 30 "$BUILD/rdmaperf" write_bw --perftest \
		-d "$DEV" -p "$((AUTH_PORT + 11))" "$ADDR" >"$WORK/out" 2>&1
	rc=$?
	[ $rc -ne 0 ] || { fail "a client with nobody to talk to: exit 0"; auth_stop; return; }
	expect_out "^rdmaperf: warning: RDMAPERF_AUTH_FILE is set but not used: perftest's programs cannot authenticate, so --perftest runs without the shared secret\$" ||
		{ auth_stop; return; }
	[ "$(grep -c 'RDMAPERF_AUTH_FILE' "$WORK/out")" -eq 1 ] ||
		{ fail "not one warning: $(cat "$WORK/out")"; auth_stop; return; }
	pass

	# The replay repeats the wrong-proof path above with recorded bytes.
	short_pass || auth_replay
	auth_tamper
	auth_stop

	begin "auth: a server without a secret, a client with one: refused, exit 1"
	auth_server 1 || return
	grep -q "^authentication: none" "$WORK/auth1.log" ||
		{ fail "no mode line: $(cat "$WORK/auth1.log")"; auth_stop; return; }
	auth_client 1 --auth-file "$key"
	rc=$?
	[ $rc -eq 1 ] || { fail "exit $rc"; auth_stop; return; }
	expect_out "did not prove it knows the shared secret \\(it says: this server runs without authentication" ||
		{ auth_stop; return; }
	auth_client 1 || { fail "a client without a secret: exit $?"; auth_stop; return; }
	expect_out "Authentication +: none" || { auth_stop; return; }
	auth_stop
	pass

	auth_allow
	# The admission's timing (deadline, rates, one handshake per address)
	# runs in process on real sockets (test_gate, test_gate_admit, in the
	# sanitized builds too); the reduced set leaves its slow real-time
	# cases to the main pass.
	short_pass || auth_slowloris
}

# A handshake captured from a real run (through a recording relay) and
# sent again: the server's new nonce makes the recorded proof worthless.
auth_replay() {
	local rec=$WORK/auth.rec rpid
	begin "auth: a replayed handshake captured from a real run is refused"
	$AUTH_PEER record "$((AUTH_PORT + 8))" "$ADDR" "$AUTH_PORT" "$rec" \
		>"$WORK/relay.out" 2>&1 &
	rpid=$!
	wait_line "$WORK/relay.out" listening ||
		{ fail "the relay did not start: $(cat "$WORK/relay.out")"; kill $rpid; return; }
	run_limited 60 "$BUILD/rdmaperf" write_bw -n 200 -d "$DEV" \
		-p "$((AUTH_PORT + 8))" --auth-file "$key" "$ADDR" >"$WORK/out" 2>&1 ||
		{ fail "the recorded run: exit $?"; kill $rpid; return; }
	wait $rpid
	grep -q "recorded [1-9]" "$WORK/relay.out" ||
		{ fail "nothing recorded: $(cat "$WORK/relay.out")"; return; }
	run_limited 30 $AUTH_PEER replay "$ADDR" "$AUTH_PORT" "$rec" >"$WORK/out" 2>&1
	expect_out "^ERROR: authentication failed$" || return
	! grep -q "message type 3" "$WORK/out" ||
		{ fail "the server sent ACCEPT to a replay"; return; }
	expect_in "$log" "refused: authentication failed: wrong proof" >"$WORK/why" ||
		{ fail "$(cat "$WORK/why")"; return; }
	pass
}

# wait_new FILE N TEXT: until a line of FILE after its first N holds TEXT
# (an extended regex), 90 s at most.
wait_new() {
	local i
	for i in $(seq 1 900); do
		tail -n +"$(($2 + 1))" "$1" | grep -Eq -- "$3" && return 0
		sleep 0.1
	done
	return 1
}

# relayed N ACTION...: a client of server 0 (--auth-file $key) through
# the tamper relay on AUTH_PORT + N; the client's exit code in RC, its
# output in out, the relay's in relay.out, the server's log lines from
# this run in srv.new once it logged the end of this client's session.
relayed() {
	local n=$1 rpid before
	shift
	before=$(wc -l <"$log")
	$AUTH_PEER tamper "$((AUTH_PORT + n))" "$ADDR" "$AUTH_PORT" "$@" \
		>"$WORK/relay.out" 2>&1 &
	rpid=$!
	wait_line "$WORK/relay.out" listening ||
		{ fail "the relay did not start: $(cat "$WORK/relay.out")"; kill $rpid; return 1; }
	auth_client "$n" --auth-file "$key"
	RC=$?
	wait $rpid
	wait_new "$log" "$before" "client $ADDR: .*(failed|done)" ||
		{ fail "the server logged no end of the session: $(tail -n 5 "$log")"; return 1; }
	tail -n +"$((before + 1))" "$log" >"$WORK/srv.new"
}

# expect_shown FILE PATTERN...: as expect_file, and a failing case shows
# FILE after the missing pattern.
expect_shown() {
	expect_in "$@" >"$WORK/why" ||
		{ fail "$(cat "$WORK/why"): $(cat "$1")"; return 1; }
}

# client_exited CODE: the last relayed client ended with CODE, or the
# case fails with its output.
client_exited() {
	[ "$RC" -eq "$1" ] || { fail "client exit $RC: $(cat "$WORK/out")"; return 1; }
}

# Nothing of the test reached the server's resources: no test ran, no
# access was granted.
nothing_granted() {
	! grep -Eq "done, data ok|granted it" "$WORK/srv.new" ||
		{ fail "the server ran the test: $(cat "$WORK/srv.new")"; return 1; }
}

# A relay between a real client and the real server, past a correct AUTH:
# one byte of PARAMS, then of QP_INFO either way, changed (a field each
# side would take as it is, but for the MAC), and a PARAMS recorded from
# an earlier run, the very same payload, put in place of the client's.
# Both ends stop with the authentication error; the server, given a
# changed PARAMS, sets nothing up (its failure is the handshake's).
auth_tamper() {
	local why="failed its authentication check \\(altered, replayed or out of order on the way\\): ending the session"
	begin "sealed: one byte of PARAMS changed after AUTH: both ends stop, the server sets nothing up"
	relayed 11 flip c2s PARAMS || return
	client_exited 1 || return
	expect_shown "$WORK/relay.out" "changed the first PARAMS, client to server: size_bytes 65536 -> 65792" || return
	expect_out "peer $ADDR:[0-9]+ reports: your PARAMS message $why" || return
	expect_shown "$WORK/srv.new" "error: peer $ADDR: a PARAMS message $why" \
		"client $ADDR: handshake: failed \\(a message failed its authentication check\\)" || return
	nothing_granted || return
	pass

	begin "sealed: one byte of QP_INFO changed, server to client: the client stops, the server hears why"
	relayed 12 flip s2c QP_INFO || return
	client_exited 1 || return
	expect_shown "$WORK/relay.out" "changed the first QP_INFO, server to client: rkey" || return
	expect_out "error: peer $ADDR:[0-9]+: a QP_INFO message $why" || return
	expect_shown "$WORK/srv.new" "peer $ADDR reports: your QP_INFO message $why" \
		"client $ADDR: write_bw: failed" || return
	nothing_granted || return
	pass

	begin "sealed: one byte of QP_INFO changed, client to server: the server stops, the client hears why"
	relayed 13 flip c2s QP_INFO || return
	client_exited 1 || return
	expect_out "peer $ADDR:[0-9]+ reports: your QP_INFO message $why" || return
	expect_shown "$WORK/srv.new" "error: peer $ADDR: a QP_INFO message $why" \
		"client $ADDR: write_bw: failed \\(a message failed its authentication check\\)" || return
	nothing_granted || return
	pass

	auth_splice
}

# A PARAMS recorded from a real run, sent in a new authenticated session
# at the same place (after a fresh HELLO): another session's key.
auth_splice() {
	local rec=$WORK/seal.rec rpid why
	why="failed its authentication check \\(altered, replayed or out of order on the way\\): ending the session"
	begin "sealed: a PARAMS recorded from a real run, replayed into a new authenticated session, is refused"
	$AUTH_PEER record "$((AUTH_PORT + 14))" "$ADDR" "$AUTH_PORT" "$rec" \
		>"$WORK/relay.out" 2>&1 &
	rpid=$!
	wait_line "$WORK/relay.out" listening ||
		{ fail "the recorder did not start: $(cat "$WORK/relay.out")"; kill $rpid; return; }
	auth_client 14 --auth-file "$key" ||
		{ fail "the recorded run: exit $?: $(cat "$WORK/out")"; kill $rpid; return; }
	wait $rpid
	relayed 15 splice PARAMS "$rec" || return
	client_exited 1 || return
	expect_shown "$WORK/relay.out" "spliced the recorded PARAMS in place of the client's \\(the same payload: yes\\)" || return
	expect_out "peer $ADDR:[0-9]+ reports: your PARAMS message $why" || return
	expect_shown "$WORK/srv.new" "error: peer $ADDR: a PARAMS message $why" \
		"client $ADDR: handshake: failed \\(a message failed its authentication check\\)" || return
	nothing_granted || return
	pass
}

auth_allow() {
	begin "--allow: an address outside the ranges is refused before a byte is read"
	auth_server 2 --allow 192.0.2.0/24,2001:db8::/32 || return
	expect_in "$WORK/auth2.log" "clients allowed from: 192.0.2.0/24,2001:db8::/32" \
		>"$WORK/why" || { fail "$(cat "$WORK/why")"; auth_stop; return; }
	auth_client 2
	rc=$?
	[ $rc -eq 1 ] || { fail "exit $rc"; auth_stop; return; }
	expect_out "does not take connections from your address \\(--allow\\)" ||
		{ auth_stop; return; }
	expect_in "$WORK/auth2.log" "client $ADDR: refused: not in --allow" \
		>"$WORK/why" || { fail "$(cat "$WORK/why")"; auth_stop; return; }
	auth_stop
	pass

	begin "--allow: the client's own range lets it in"
	auth_server 3 --allow "192.0.2.0/24,$ADDR/32" || return
	auth_client 3 || { fail "exit $?"; auth_stop; return; }
	expect_out "Data check +: ok" || { auth_stop; return; }
	auth_stop
	pass
}

# A client that sends a byte every half second from the second address
# holds a handshake thread until --handshake-timeout (12 s), while a real client
# from the first address runs its test; a second trickler from the same
# address is turned away at once (answered and closed by the accepting
# thread, not held); the rate cap turns away a burst; one address that
# connects and closes in a loop spends its own --max-prefix-rate, and a
# client from the other address is served right after, with the refusals
# logged once and then counted.
auth_slowloris() {
	local src=${RDP_RXE_ADDR1:-} t1
	begin "slowloris: dropped at its deadline while a real client is served"
	[ -n "$src" ] || { skip "needs a second address (--devices 2)"; return; }
	auth_server 4 --handshake-timeout 12 --auth-file "$key" || return
	$AUTH_PEER trickle "$ADDR" "$((AUTH_PORT + 4))" "$src" 0.5 \
		>"$WORK/trickle.out" 2>&1 &
	t1=$!
	wait_line "$WORK/trickle.out" ready ||
		{ fail "no trickler: $(cat "$WORK/trickle.out")"; kill $t1; auth_stop; return; }
	# The real client starts while the trickler holds its handshake.
	! grep -q "client 1 closed" "$WORK/trickle.out" ||
		{ fail "the trickler was gone before the real client started"; auth_stop; return; }
	auth_client 4 --auth-file "$key" || { fail "real client: exit $?"; auth_stop; return; }
	expect_out "Data check +: ok" || { auth_stop; return; }
	wait $t1
	expect_in "$WORK/trickle.out" "client 1 closed after 1[234]\\.[0-9] s" \
		"client 2 closed after 1\\.[0-4] s" \
		"ERROR: a handshake from this address is in progress" >"$WORK/why" ||
		{ fail "$(cat "$WORK/why"): $(cat "$WORK/trickle.out")"; auth_stop; return; }
	expect_in "$WORK/auth4.log" \
		"client $src: refused: handshake not done within 12000 ms" \
		"client $src: refused: a handshake from this address is in progress" \
		"client $ADDR: write_bw, .*done, data ok" >"$WORK/why" ||
		{ fail "$(cat "$WORK/why"): $(cat "$WORK/auth4.log")"; auth_stop; return; }
	auth_stop
	pass

	# Two connections from two addresses in the same millisecond against
	# a rate of one a second: whichever the server takes second is over
	# the rate (one address each, so the one-handshake-per-address rule
	# plays no part).
	begin "--max-handshake-rate: a handshake over the rate is refused and logged; the next second's client runs"
	auth_server 5 --max-handshake-rate 1 || return
	run_limited 60 $AUTH_PEER burst "$ADDR" "$((AUTH_PORT + 5))" "$ADDR" \
		"$src" >"$WORK/out" 2>&1
	expect_out "^client [12]: ERROR: over the handshake rate \\(--max-handshake-rate\\)$" ||
		{ auth_stop; return; }
	expect_in "$WORK/auth5.log" "client ($ADDR|$src): refused: over the handshake rate" \
		>"$WORK/why" || { fail "$(cat "$WORK/why")"; auth_stop; return; }
	sleep 1.5
	auth_client 5 || { fail "the next client: exit $?"; auth_stop; return; }
	auth_stop
	pass

	auth_prefix_rate
}

# Thirty connect/close rounds from the second address against 2 a second
# per address and 5 over all: most are told they are over their own rate,
# which leaves the others' share, so a client from the first address runs
# at once (with one global bucket of 5 it would have been refused).
auth_prefix_rate() {
	local n
	begin "--max-prefix-rate: an address connecting in a loop spends its own share; another is served at once"
	auth_server 6 --max-handshake-rate 5 --max-prefix-rate 2 || return
	run_limited 60 $AUTH_PEER hammer "$ADDR" "$((AUTH_PORT + 6))" "$src" 30 \
		>"$WORK/hammer.out" 2>&1
	expect_in "$WORK/hammer.out" \
		"^[0-9]+ x ERROR: over the handshake rate of one address \\(--max-prefix-rate\\)$" \
		>"$WORK/why" || { fail "$(cat "$WORK/why")"; auth_stop; return; }
	n=$(sed -n 's/^\([0-9]*\) x ERROR: over the handshake rate of one.*/\1/p' \
		"$WORK/hammer.out")
	[ "${n:-0}" -ge 10 ] ||
		{ fail "only ${n:-0} of 30 over the address's rate: $(cat "$WORK/hammer.out")"; auth_stop; return; }
	auth_client 6 || { fail "the other address's client: exit $?"; auth_stop; return; }
	expect_out "Data check +: ok" || { auth_stop; return; }
	# One line for the first refusal, a count for the others when the
	# 10 s window ends.
	wait_line "$WORK/auth6.log" "refused [0-9]* more connections in the last 1[01] s: over the handshake rate of one address" ||
		{ fail "no count of the refusals: $(cat "$WORK/auth6.log")"; auth_stop; return; }
	n=$(grep -c "client $src: refused: over the handshake rate of one address" "$WORK/auth6.log")
	[ "$n" -eq 1 ] ||
		{ fail "$n refusal lines for one address, not 1: $(cat "$WORK/auth6.log")"; auth_stop; return; }
	auth_stop
	pass
}
