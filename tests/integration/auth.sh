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
	local key other log=$WORK/auth0.log
	key=$(secret key "$(head -c 32 /dev/urandom | base64)")
	other=$(secret other "$(head -c 32 /dev/urandom | base64)")
	# The admission's timing (deadline, rates, one handshake per address)
	# runs in process on real sockets (test_gate, test_gate_admit, in the
	# sanitized builds too); the reduced set leaves its slow real-time
	# cases to the main pass. Those wait on the servers' clocks (a 12 s
	# handshake deadline, a rate's second, a 10 s window of refusals):
	# they start here, on servers of their own, and are checked at the
	# end, the other cases running meanwhile.
	short_pass || auth_clocks_start
	# The replay's recording relay: Python starts while the first cases
	# run.
	local -a RELAY_PID=()
	short_pass || relay_start 8 record "$WORK/auth.rec"
	auth_cases
	# a relay that a failure left waiting
	if [ "${#RELAY_PID[@]}" -gt 0 ]; then
		kill "${RELAY_PID[@]}" 2>/dev/null
		wait "${RELAY_PID[@]}" 2>/dev/null
	fi
	short_pass || auth_clocks_check
}

auth_cases() {
	local phrase rc
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
	# Nobody listens there: --connect-timeout 1, not the default 10 s of
	# retries, ends the run once the warning is out.
	RDMAPERF_AUTH_FILE=$key run_limited 30 "$BUILD/rdmaperf" write_bw --perftest \
		--connect-timeout 1 -d "$DEV" -p "$((AUTH_PORT + 11))" "$ADDR" \
		>"$WORK/out" 2>&1
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
}

# A handshake captured from a real run (through a recording relay) and
# sent again: the server's new nonce makes the recorded proof worthless.
auth_replay() {
	local rec=$WORK/auth.rec
	begin "auth: a replayed handshake captured from a real run is refused"
	# the recording relay, started with t_auth (relay_start)
	relay_ready 8 || return
	run_limited 60 "$BUILD/rdmaperf" write_bw -n 200 -d "$DEV" \
		-p "$((AUTH_PORT + 8))" --auth-file "$key" "$ADDR" >"$WORK/out" 2>&1 ||
		{ fail "the recorded run: exit $?"; kill "$RPID"; return; }
	wait "$RPID"
	grep -q "recorded [1-9]" "$WORK/relay8.out" ||
		{ fail "nothing recorded: $(cat "$WORK/relay8.out")"; return; }
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

# relay_start N tamper|record ARGS...: the relay on AUTH_PORT + N to
# server 0, started ahead of its case, its output in $WORK/relayN.out.
# Python takes seconds to start in an emulated guest, the more so on a
# loaded host: the relays of the sealed cases start together, each then
# waiting (60 s at most) for its one client.
relay_start() {
	local n=$1 what=$2
	shift 2
	$AUTH_PEER "$what" "$((AUTH_PORT + n))" "$ADDR" "$AUTH_PORT" "$@" \
		>"$WORK/relay$n.out" 2>&1 &
	RELAY_PID[n]=$!
}

# relay_ready N: relay N (relay_start) listens; its pid in RPID; the case
# fails (1) when it does not.
relay_ready() {
	RPID=${RELAY_PID[$1]}
	unset "RELAY_PID[$1]"
	wait_line "$WORK/relay$1.out" listening && return 0
	fail "the relay did not start: $(cat "$WORK/relay$1.out")"
	kill "$RPID"
	return 1
}

# relayed N [ACTION...]: a client of server 0 (--auth-file $key) through
# the tamper relay on AUTH_PORT + N (started here with ACTION, unless
# relay_start did); the client's exit code in RC, its output in out, the
# relay's in relay.out, the server's log lines from this run in srv.new
# once it logged the end of this client's session.
relayed() {
	local n=$1 before
	shift
	[ -n "${RELAY_PID[n]:-}" ] || relay_start "$n" tamper "$@"
	before=$(wc -l <"$log")
	relay_ready "$n" || return 1
	auth_client "$n" --auth-file "$key"
	RC=$?
	wait "$RPID"
	cp "$WORK/relay$n.out" "$WORK/relay.out"
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
	relay_start 11 tamper flip c2s PARAMS
	relay_start 12 tamper flip s2c QP_INFO
	relay_start 13 tamper flip c2s QP_INFO
	relay_start 14 record "$WORK/seal.rec"
	# (t_auth stops those a failure left waiting)
	splice_record
	auth_tamper_cases "$why"
}

# The splice case's recording, made before the sealed cases so that its
# tamper relay (on AUTH_PORT + 15) starts while they run; what went
# wrong in SPLICE_WHY, for that case to report.
splice_record() {
	local rpid=${RELAY_PID[14]} rc
	unset "RELAY_PID[14]"
	SPLICE_WHY=""
	wait_line "$WORK/relay14.out" listening ||
		{ SPLICE_WHY="the recorder did not start: $(cat "$WORK/relay14.out")"; kill "$rpid"; return; }
	auth_client 14 --auth-file "$key"
	rc=$?
	cp "$WORK/out" "$WORK/splice-rec.out"
	[ "$rc" -eq 0 ] ||
		{ SPLICE_WHY="the recorded run: exit $rc: $(cat "$WORK/out")"; kill "$rpid"; return; }
	wait "$rpid"
	relay_start 15 tamper splice PARAMS "$WORK/seal.rec"
}

auth_tamper_cases() {
	local why=$1
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

	auth_splice "$why"
}

# A PARAMS recorded from a real run (splice_record, through the
# recording relay on AUTH_PORT + 14), sent in a new authenticated session
# at the same place (after a fresh HELLO): another session's key.
auth_splice() {
	local rec=$WORK/seal.rec why=$1
	begin "sealed: a PARAMS recorded from a real run, replayed into a new authenticated session, is refused"
	[ -z "$SPLICE_WHY" ] || { fail "$SPLICE_WHY"; return; }
	# the recorded run's output is this case's (a sanitizer's report in
	# it too)
	touch "$WORK/splice-rec.out"
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
#
# auth_clocks_start takes each of these cases as far as the point where
# it waits on a server's clock, each on a server of its own, and keeps
# what went wrong in SLOW_WHY, RATE_WHY and PREFIX_WHY;
# auth_clocks_check then reports the three in order, waiting for
# whatever has not happened yet, and stops their servers.
auth_clocks_start() {
	SRC2=${RDP_RXE_ADDR1:-} CLOCK_PIDS=""
	SLOW_WHY="" RATE_WHY="" PREFIX_WHY=""
	[ -n "$SRC2" ] || return 0
	slowloris_start
	rate_start
	prefix_rate_start
}

auth_clocks_check() {
	begin "slowloris: dropped at its deadline while a real client is served"
	[ -n "$SRC2" ] || { skip "needs a second address (--devices 2)"; return; }
	# What these cases' processes wrote so far is theirs: a sanitizer's
	# report in it fails them as it would have then.
	touch "$WORK"/auth[456].log "$WORK"/slow-client.out "$WORK"/trickle.out \
		"$WORK"/burst.out "$WORK"/hammer.out "$WORK"/prefix-client.out \
		2>/dev/null
	slowloris_check
	rate_check
	prefix_rate_check
	# shellcheck disable=SC2086 # pids
	kill $CLOCK_PIDS 2>/dev/null
	# shellcheck disable=SC2086
	wait $CLOCK_PIDS 2>/dev/null
}

# clock_server N ARGS...: a server on AUTH_PORT + N, log
# $WORK/authN.log, its pid in CLOCK_PIDS; 1 with CLOCK_WHY set when it
# did not start.
clock_server() {
	local n=$1 log=$WORK/auth$1.log
	shift
	"$BUILD/rdmaperf-server" -d "$DEV" -p "$((AUTH_PORT + n))" "$@" \
		>"$log" 2>&1 &
	CLOCK_PIDS="$CLOCK_PIDS $!"
	wait_listening "$log" "$!" && return 0
	CLOCK_WHY="server on port $((AUTH_PORT + n)) did not start: $(cat "$log")"
	return 1
}

# The trickler holds server 4's only handshake from the second address;
# the real client runs meanwhile. The deadline comes 12 s later.
slowloris_start() {
	local rc
	clock_server 4 --handshake-timeout 12 --auth-file "$key" ||
		{ SLOW_WHY=$CLOCK_WHY; return; }
	$AUTH_PEER trickle "$ADDR" "$((AUTH_PORT + 4))" "$SRC2" 0.5 \
		>"$WORK/trickle.out" 2>&1 &
	CLOCK_PIDS="$CLOCK_PIDS $!"
	SLOW_TPID=$!
	wait_line "$WORK/trickle.out" ready ||
		{ SLOW_WHY="no trickler: $(cat "$WORK/trickle.out")"; return; }
	# The real client starts while the trickler holds its handshake.
	! grep -q "client 1 closed" "$WORK/trickle.out" ||
		{ SLOW_WHY="the trickler was gone before the real client started"; return; }
	auth_client 4 --auth-file "$key"
	rc=$?
	cp "$WORK/out" "$WORK/slow-client.out"
	[ "$rc" -eq 0 ] ||
		{ SLOW_WHY="real client: exit $rc: $(tail -n 20 "$WORK/out")"; return; }
	expect_in "$WORK/out" "Data check +: ok" >"$WORK/why" ||
		SLOW_WHY="real client: $(cat "$WORK/why")"
}

slowloris_check() {
	[ -z "$SLOW_WHY" ] || { fail "$SLOW_WHY"; return; }
	wait "$SLOW_TPID"
	expect_in "$WORK/trickle.out" "client 1 closed after 1[234]\\.[0-9] s" \
		"client 2 closed after 1\\.[0-4] s" \
		"ERROR: a handshake from this address is in progress" >"$WORK/why" ||
		{ fail "$(cat "$WORK/why"): $(cat "$WORK/trickle.out")"; return; }
	expect_in "$WORK/auth4.log" \
		"client $SRC2: refused: handshake not done within 12000 ms" \
		"client $SRC2: refused: a handshake from this address is in progress" \
		"client $ADDR: write_bw, .*done, data ok" >"$WORK/why" ||
		{ fail "$(cat "$WORK/why"): $(cat "$WORK/auth4.log")"; return; }
	pass
}

# Two connections from two addresses in the same millisecond against
# a rate of one a second: whichever the server takes second is over
# the rate (one address each, so the one-handshake-per-address rule
# plays no part). The next client comes 1.5 s later at the earliest.
rate_start() {
	clock_server 5 --max-handshake-rate 1 ||
		{ RATE_WHY=$CLOCK_WHY; return; }
	run_limited 60 $AUTH_PEER burst "$ADDR" "$((AUTH_PORT + 5))" "$ADDR" \
		"$SRC2" >"$WORK/burst.out" 2>&1
	RATE_MS=$(($(date +%s%N) / 1000000))
}

rate_check() {
	local left
	begin "--max-handshake-rate: a handshake over the rate is refused and logged; the next second's client runs"
	[ -z "$RATE_WHY" ] || { fail "$RATE_WHY"; return; }
	expect_in "$WORK/burst.out" \
		"^client [12]: ERROR: over the handshake rate \\(--max-handshake-rate\\)$" \
		>"$WORK/why" || { fail "$(cat "$WORK/why"): $(cat "$WORK/burst.out")"; return; }
	expect_in "$WORK/auth5.log" "client ($ADDR|$SRC2): refused: over the handshake rate" \
		>"$WORK/why" || { fail "$(cat "$WORK/why")"; return; }
	left=$((RATE_MS + 1500 - $(date +%s%N) / 1000000))
	[ "$left" -le 0 ] || sleep "$((left / 1000)).$(printf %03d $((left % 1000)))"
	auth_client 5 || { fail "the next client: exit $?"; return; }
	pass
}

# Thirty connect/close rounds from the second address against 2 a second
# per address and 5 over all: most are told they are over their own rate,
# which leaves the others' share, so a client from the first address runs
# at once (with one global bucket of 5 it would have been refused). The
# count of the refusals comes when the 10 s window ends.
prefix_rate_start() {
	local n rc
	clock_server 6 --max-handshake-rate 5 --max-prefix-rate 2 ||
		{ PREFIX_WHY=$CLOCK_WHY; return; }
	run_limited 60 $AUTH_PEER hammer "$ADDR" "$((AUTH_PORT + 6))" "$SRC2" 30 \
		>"$WORK/hammer.out" 2>&1
	expect_in "$WORK/hammer.out" \
		"^[0-9]+ x ERROR: over the handshake rate of one address \\(--max-prefix-rate\\)$" \
		>"$WORK/why" || { PREFIX_WHY="$(cat "$WORK/why"): $(cat "$WORK/hammer.out")"; return; }
	n=$(sed -n 's/^\([0-9]*\) x ERROR: over the handshake rate of one.*/\1/p' \
		"$WORK/hammer.out")
	[ "${n:-0}" -ge 10 ] ||
		{ PREFIX_WHY="only ${n:-0} of 30 over the address's rate: $(cat "$WORK/hammer.out")"; return; }
	auth_client 6
	rc=$?
	cp "$WORK/out" "$WORK/prefix-client.out"
	[ "$rc" -eq 0 ] ||
		{ PREFIX_WHY="the other address's client: exit $rc: $(tail -n 20 "$WORK/out")"; return; }
	expect_in "$WORK/out" "Data check +: ok" >"$WORK/why" ||
		PREFIX_WHY="the other address's client: $(cat "$WORK/why")"
}

prefix_rate_check() {
	local n
	begin "--max-prefix-rate: an address connecting in a loop spends its own share; another is served at once"
	[ -z "$PREFIX_WHY" ] || { fail "$PREFIX_WHY"; return; }
	# One line for the first refusal, a count for the others when the
	# 10 s window ends.
	wait_line "$WORK/auth6.log" "refused [0-9]* more connections in the last 1[01] s: over the handshake rate of one address" ||
		{ fail "no count of the refusals: $(cat "$WORK/auth6.log")"; return; }
	n=$(grep -c "client $SRC2: refused: over the handshake rate of one address" "$WORK/auth6.log")
	[ "$n" -eq 1 ] ||
		{ fail "$n refusal lines for one address, not 1: $(cat "$WORK/auth6.log")"; return; }
	pass
}
