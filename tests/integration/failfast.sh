# SPDX-License-Identifier: BSD-2-Clause
# Mistakes found before anything connects: each case ends in under 2 s
# with its exit code and exactly one line on stderr naming the problem
# and the fix, and the server (the run's own, on $PORT) sees no client.
# Sourced by run.sh.

# The clients the run's server has logged so far.
ff_clients() {
	grep -c "^client " "$WORK/server.log"
}

# ff_case RC REGEX CMD...: CMD exits RC within 2 s, stderr is one line
# matching REGEX, and the run's server logged no client meanwhile; 1
# (the case failed, naming why) otherwise. A case's commands are timed
# in its line.
ff_case() {
	local want=$1 re=$2 before rc t0 ms what
	shift 2
	what=${*##*/}
	before=$(ff_clients)
	t0=$(date +%s%N)
	run_limited 20 "$@" >"$WORK/ff.stdout" 2>"$WORK/out"
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	CUR="$CUR [$ms ms]"
	[ "$rc" -eq "$want" ] || { fail "$what: exit $rc, wanted $want"; return 1; }
	[ "$(grep -c . "$WORK/out")" -eq 1 ] ||
		{ fail "$what: $(grep -c . "$WORK/out") lines on stderr, wanted 1"; return 1; }
	expect_out "$re" || return 1
	[ "$ms" -lt 2000 ] || { fail "$what: took $ms ms, limit 2000"; return 1; }
	[ "$(ff_clients)" -eq "$before" ] ||
		{ fail "$what: the server saw a client"; return 1; }
}

# The first empty slot of DEV's port 1 GID table (sysfs shows it zero).
ff_empty_gid() {
	local i=0 g
	while g=$(cat "/sys/class/infiniband/$DEV/ports/1/gids/$i" 2>/dev/null); do
		[ "$g" = 0000:0000:0000:0000:0000:0000:0000:0000 ] &&
			{ echo "$i"; return 0; }
		i=$((i + 1))
	done
	return 1
}

t_failfast_gid() {
	local dead=$((PORT + 9)) empty
	begin "-x checked before connecting: past the table (no server up), an empty slot (the server sees no client), in rdmaperf-server and the one-shot server: one line with the valid indexes, exit 2"
	empty=$(ff_empty_gid) || { skip "no empty GID slot on $DEV"; return; }
	ff_case 2 "GID index 65535 of $DEV port 1 is past its table of [0-9]+: valid indexes [0-9].*, fix -x \(rdmaperf doctor" \
		"$BUILD/rdmaperf" write_bw -d "$DEV" -x 65535 -p "$dead" "$ADDR" &&
		ff_case 2 "GID index $empty of $DEV port 1 is empty: valid indexes" \
			"$BUILD/rdmaperf" write_bw -d "$DEV" -x "$empty" -p "$PORT" "$ADDR" &&
		ff_case 2 "GID index 65535 of $DEV port 1 is past its table" \
			"$BUILD/rdmaperf-server" -d "$DEV" -x 65535 -p "$dead" &&
		ff_case 2 "GID index $empty of $DEV port 1 is empty" \
			"$BUILD/rdmaperf" write_bw -d "$DEV" -x "$empty" -p "$dead" &&
		pass
}

t_failfast_device() {
	begin "-d nosuch0 in rdmaperf-server and before the client connects: the devices present, exit 2"
	ff_case 2 "device 'nosuch0' not found; devices present: .*$DEV.*\(choose one with -d\)" \
		"$BUILD/rdmaperf-server" -d nosuch0 -p "$((PORT + 9))" &&
		ff_case 2 "device 'nosuch0' not found; devices present: .*$DEV" \
			"$BUILD/rdmaperf" write_bw -d nosuch0 -p "$PORT" "$ADDR" &&
		pass
}

t_failfast_bind() {
	local p=$((PORT + 9))
	begin "--bind: not an address (parse time, exit 2), another host's or a port in use (address, port and why, exit 1)"
	ff_case 2 "--bind 10.0.0 is not an IPv4 or IPv6 address: give a numeric address of this host" \
		"$BUILD/rdmaperf-server" -d "$DEV" --bind 10.0.0 -p "$p" &&
		ff_case 1 "listen on 192.0.2.1 port $p: Cannot assign requested address \(not an address of this host" \
			"$BUILD/rdmaperf-server" -d "$DEV" --bind 192.0.2.1 -p "$p" &&
		ff_case 1 "listen on $ADDR port $PORT: Address already in use \(another server runs there: pick -p\)" \
			"$BUILD/rdmaperf-server" -d "$DEV" --bind "$ADDR" -p "$PORT" &&
		pass
}

t_failfast_parse() {
	local mesh="mesh: measuring a mesh needs MPI: configure --with-mpi"
	[ -x "$BUILD/rdmaperf-mesh" ] &&
		mesh="mesh: a mesh is measured by rdmaperf-mesh, under MPI: run mpirun -np N rdmaperf-mesh"
	begin "-s x1 and backwards ranges, --json=yes, --json-file in no directory (the server logs the client neither done nor failed), rdmaperf mesh: one line each, exit 2"
	ff_case 2 "-s 1:8M:x1: a factor of 1 never grows: use a factor from x2" \
		"$BUILD/rdmaperf" write_bw -d "$DEV" -s 1:8M:x1 -p "$PORT" "$ADDR" &&
		ff_case 2 "-s 4K:1K:x2 runs backwards \(start above end\)" \
			"$BUILD/rdmaperf" write_bw -d "$DEV" -s 4K:1K:x2 -p "$PORT" "$ADDR" &&
		ff_case 2 "--json takes no value: give --json alone" \
			"$BUILD/rdmaperf" write_bw -d "$DEV" --json=yes -p "$PORT" "$ADDR" &&
		ff_case 2 "--json-file /nonexistent/x.json: no directory /nonexistent" \
			"$BUILD/rdmaperf" write_bw -d "$DEV" \
			--json-file /nonexistent/x.json -p "$PORT" "$ADDR" &&
		ff_case 2 "$mesh" "$BUILD/rdmaperf" mesh &&
		pass
}

# A refusal is logged in its own words, not its errno's.
t_failfast_log() {
	local n=3 log
	log=$WORK/s$n.log
	begin "a --max-memory refusal: the server's line gives its reason, no errno text"
	own_server "$n" --max-memory 1M
	wait_listening "$log" "$OWN_PID" ||
		{ fail "server did not start"; kill "$OWN_PID"; return; }
	run_limited 20 "$BUILD/rdmaperf" write_bw -d "$DEV" -s 1M -q 4 -n 10 \
		-p "$((PORT + n))" "$ADDR" >"$WORK/out" 2>&1 &&
		{ fail "client succeeded"; kill "$OWN_PID"; return; }
	wait_in "$log" "client .*: write_bw: failed" 10
	kill "$OWN_PID"
	wait "$OWN_PID" 2>/dev/null
	expect_file "$log" "client .*: write_bw: failed \(refused: 1048576 B x 4 QPs needs .*--max-memory of 1 MiB" ||
		return
	! grep -q "Argument list too long" "$log" ||
		{ fail "errno text in the server's log"; return; }
	pass
}

t_failfast() {
	t_failfast_gid
	t_failfast_device
	t_failfast_bind
	t_failfast_parse
	t_failfast_log
}
