# SPDX-License-Identifier: BSD-2-Clause
# rdmaperf-server under the settings of contrib/systemd/rdmaperf-server.service.
# Sourced by run.sh. The test bed's guest has no systemd to start the unit,
# so its settings are applied here by hand, which is how they are checked
# on Soft-RoCE: setpriv gives the server an unprivileged user (61234
# stands in for DynamicUser=), CAP_IPC_LOCK as its only capability,
# ambient and bounding (AmbientCapabilities=, CapabilityBoundingSet=) and
# no new privileges (NoNewPrivileges=); prlimit lifts the locked-memory
# limit (LimitMEMLOCK=infinity) and forbids core dumps (LimitCORE=0); the
# secret is a 0600 file of the server's user, as the unit's credential
# is. MemoryMax= and TasksMax= are cgroup settings, which only
# systemd-analyze verify checks (scripts/test.sh, the package tier). The options are the unit's
# ExecStart= ones: --auth-file, then the defaults file's -d and -p.

SVC_UID=61234

# The server as the unit runs it, on its own port: svc_server LOG PRLIMIT
# SETPRIV_CAPS... (the caps arguments are setpriv's). Its pid in SVC_PID.
svc_server() {
	local log=$1 limit=$2
	shift 2
	# shellcheck disable=SC2086 # SVC_AUTH is empty or two words
	prlimit "--memlock=$limit" --core=0 setpriv --reuid="$SVC_UID" \
		--regid="$SVC_UID" --clear-groups --no-new-privs "$@" \
		"$SVC_DIR/rdmaperf-server" $SVC_AUTH -d "$DEV" -p "$SVC_PORT" \
		>"$log" 2>&1 &
	SVC_PID=$!
	wait_listening "$log" "$SVC_PID"
}

svc_stop() {
	kill "$SVC_PID" 2>/dev/null
	wait "$SVC_PID" 2>/dev/null
}

# The server's user must reach the program and the secret: both go to a
# directory of their own (the build directory may be one only root can
# enter). The client has its own copy of the secret, as on another host,
# and finds it through RDMAPERF_AUTH_FILE.
svc_setup() {
	SVC_DIR=$(mktemp -d /tmp/rdp-svc.XXXXXX) && chmod 755 "$SVC_DIR" &&
		cp "$BUILD/rdmaperf-server" "$SVC_DIR/" || return 1
	SVC_AUTH='' SVC_CLIENT_AUTH=''
	"$BUILD/rdmaperf-server" --help 2>&1 | grep -q -- '--auth-file' ||
		return 0
	(umask 077 && head -c 32 /dev/urandom | base64 >"$SVC_DIR/auth" &&
		cp "$SVC_DIR/auth" "$WORK/client-auth") || return 1
	chown "$SVC_UID:$SVC_UID" "$SVC_DIR/auth" || return 1
	SVC_AUTH="--auth-file $SVC_DIR/auth"
	SVC_CLIENT_AUTH=$WORK/client-auth
}

# svc_dontdump PID: 0 when an anonymous private mapping of PID is marked
# MADV_DONTDUMP ("dd"), as the secret's page is; [vvar] has the flag too,
# so named mappings do not count.
svc_dontdump() {
	awk '/^[0-9a-f]+-[0-9a-f]+ / { anon = ($2 == "rw-p" && NF == 5) }
		/^VmFlags:/ && anon && / dd( |$)/ { found = 1 }
		END { exit !found }' "/proc/$1/smaps"
}

svc_client() {
	RDMAPERF_AUTH_FILE=$SVC_CLIENT_AUTH run_limited "$LIMIT" \
		"$BUILD/rdmaperf" "$@" -d "$DEV" -p "$SVC_PORT" "$ADDR" \
		>"$WORK/out" 2>&1
}

t_service() {
	local log=$WORK/svc.log
	SVC_PORT=$((PORT + 30))
	begin "the service's settings (setpriv: uid $SVC_UID, CAP_IPC_LOCK only, no new privileges; prlimit: memlock unlimited): write_bw, data checked"
	if ! command -v setpriv >/dev/null || ! command -v prlimit >/dev/null; then
		skip "setpriv or prlimit missing (util-linux)"; return
	fi
	svc_setup || { fail "cannot set up $SVC_DIR"; return; }
	[ -n "$SVC_AUTH" ] || echo "# rdmaperf-server has no --auth-file yet: run without a secret"
	if ! svc_server "$log" unlimited:unlimited --inh-caps=-all,+ipc_lock \
		--ambient-caps=-all,+ipc_lock --bounding-set=-all,+ipc_lock; then
		cp "$log" "$WORK/out"; fail "the server did not start"
	elif ! svc_client write_bw -s 1048576 -n 100 -q 2 -Q 10; then
		fail "exit $?"
	elif expect_out "Data check +: ok, $((1048576 * 2)) bytes verified" &&
		{ [ -z "$SVC_AUTH" ] ||
			expect_file "$log" "authentication: shared secret"; }; then
		if awk '/^Cap(Eff|Bnd|Amb):/ { if ($2 !~ /^0+4000$/) bad = 1 }
			/^Uid:/ { if ($2 != uid) bad = 1 }
			/^NoNewPrivs:/ { if ($2 != 1) bad = 1 }
			END { exit bad }' uid="$SVC_UID" "/proc/$SVC_PID/status"; then
			# LimitCORE=0, and the secret's page out of any dump
			if ! grep -Eq '^Max core file size +0 +0 ' "/proc/$SVC_PID/limits"; then
				grep '^Max core' "/proc/$SVC_PID/limits" >"$WORK/out"
				fail "core dumps are not off"
			elif [ -n "$SVC_AUTH" ] && ! svc_dontdump "$SVC_PID"; then
				fail "no anonymous mapping of the server is MADV_DONTDUMP: the secret would be in a core dump"
			else
				pass
			fi
		else
			grep -E '^(Uid|Cap|NoNewPrivs)' "/proc/$SVC_PID/status" >"$WORK/out"
			fail "the server did not run with the unit's identity"
		fi
	fi
	svc_stop
	begin "the same server without CAP_IPC_LOCK, memlock 64 KiB: one line names the locked-memory limit"
	if ! svc_server "$log" 65536:65536 --inh-caps=-all --ambient-caps=-all \
		--bounding-set=-all; then
		cp "$log" "$WORK/out"; fail "the server did not start"
	elif svc_client write_bw -s 1048576 -n 10; then
		fail "exit 0 with 64 KiB of locked memory"
	elif expect_out "the locked-memory limit is 64 KiB: raise it .*LimitMEMLOCK=" &&
		expect_file "$log" "the locked-memory limit is 64 KiB"; then
		pass
	fi
	svc_stop
	rm -rf "$SVC_DIR"
}
