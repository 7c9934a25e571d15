# SPDX-License-Identifier: BSD-2-Clause
# --data_validation: send_bw, read_bw and write_bw --write_with_imm check
# every message as it completes and pass clean; one byte flipped by the
# test hook (RDP_TEST_FLIP on the side whose data travels) fails the run
# with exit 1 and the line naming the QP, the sequence and the offset; a
# plain write_bw is refused with its reason. Sourced by run.sh.

# validate_server_line LOG REGEX: the persistent server logged it (its
# check ran before the client's exit, the line may still be on its way).
validate_server_line() {
	wait_in "$1" "$2" 5 || { fail "the server did not log /$2/"; return 1; }
}

t_validate() {
	local t doc=$WORK/validate.json n rc log=$WORK/server.log lines
	for t in "send_bw|server" "write_bw --write_with_imm|server" \
		"read_bw|client"; do
		n=$(grep -c "none corrupt" "$log")
		begin "${t%%|*} --data_validation -q 2: exit 0, 4000 messages checked on the ${t#*|}"
		# shellcheck disable=SC2086 # the case's words
		client ${t%%|*} --data_validation -s 4096 -n 2000 -q 2 \
			--json-file "$doc" || { fail "exit $?"; continue; }
		expect_out "Data check +: ok, 4000 messages checked as they completed: sequence and checksum" \
			"Check cost +: [0-9.]+ ms in the checks, [0-9]+ ns a message, on the ${t#*|}" ||
			continue
		expect_json "$doc" '.results[0].data_check.ok' || continue
		expect_json "$doc" ".results[0].data_check.checked_on == \"${t#*|}\" and .results[0].data_check.check_ns > 0" ||
			continue
		if [ "${t#*|}" = client ]; then
			expect_out "data validation: 4000 messages \(16384000 bytes\) checked as they completed, none corrupt; checking took [0-9.]+ ms, [0-9]+ ns a message" ||
				continue
		else
			wait_in "$log" "none corrupt" 5
			[ "$(grep -c "none corrupt" "$log")" -gt "$n" ] ||
				{ fail "no clean verdict in the server's log"; continue; }
			grep "none corrupt" "$log" | tail -1 |
				grep -Eq "data validation: 4000 messages \(16384000 bytes\) checked as they completed" ||
				{ fail "the server's verdict: $(grep "none corrupt" "$log" | tail -1)"; continue; }
		fi
		pass
	done

	begin "send_bw --data_validation with byte 100 of QP 1's message 7 flipped: exit 1, the server names QP, sequence, offset"
	rm -f "$doc"
	RDP_TEST_FLIP=1:7:100 client send_bw --data_validation -s 4096 -n 500 -q 2 \
		--json-file "$doc"
	rc=$?
	[ "$rc" -eq 1 ] || { fail "exit $rc, wanted 1"; return; }
	expect_out "RDP_TEST_FLIP: byte 100 of QP 1's message 7 flipped after stamping" \
		"data check failed on the server" \
		"^ 4096 +[0-9]+ " \
		"Data check +: FAILED at 1 of 1 point\(s\)" || return
	expect_json "$doc" '.results[0].data_check.ok == false' || return
	validate_server_line "$log" "data validation: QP 1 message sequence 7 is corrupt at offset 100 of 4096 bytes: expected 0x[0-9a-f]{2}, got 0x[0-9a-f]{2}" ||
		return
	client send_bw -n 100 || { fail "the next run: exit $?"; return; }
	pass

	begin "read_bw --data_validation with byte 9 of QP 0's message 3 flipped on the server: exit 1, the client names QP, sequence, offset"
	RDP_TEST_FLIP=0:3:9 own_server 71
	wait_listening "$WORK/s71.log" "$OWN_PID" ||
		{ fail "server did not start"; kill "$OWN_PID" 2>/dev/null; return; }
	run_limited "$LIMIT" "$BUILD/rdmaperf" read_bw --data_validation \
		-s 4096 -n 500 --json-file "$doc" -d "$DEV" -p "$((PORT + 71))" \
		"$ADDR" >"$WORK/out" 2>&1
	rc=$?
	kill "$OWN_PID" 2>/dev/null
	wait "$OWN_PID" 2>/dev/null
	[ "$rc" -eq 1 ] || { fail "exit $rc, wanted 1"; return; }
	expect_out "data validation: QP 0 message sequence 3 is corrupt at offset 9 of 4096 bytes: expected 0x[0-9a-f]{2}, got 0x[0-9a-f]{2}" \
		"Data check +: FAILED at 1 of 1 point\(s\)" || return
	expect_json "$doc" '.results[0].data_check.ok == false' || return
	expect_file "$WORK/s71.log" "RDP_TEST_FLIP: byte 9 of QP 0's message 3 flipped after stamping" ||
		return
	pass

	begin "send_bw --data_validation_debug -n 20: a line per message on the server"
	n=$(grep -c "data validation: QP 0 sequence [0-9]* (place" "$log")
	client send_bw --data_validation_debug -s 64 -n 20 ||
		{ fail "exit $?"; return; }
	wait_in "$log" "data validation: QP 0 sequence 19 \(place 19 of 641\): checksum 0x[0-9a-f]{8}, ok" 5
	lines=$(grep -c "data validation: QP 0 sequence [0-9]* (place" "$log")
	[ "$((lines - n))" -eq 20 ] ||
		{ fail "$((lines - n)) lines, wanted 20"; return; }
	pass

	begin "write_bw --data_validation without --write_with_imm: refused in one line, exit 2"
	client write_bw --data_validation -n 10
	rc=$?
	[ "$rc" -eq 2 ] || { fail "exit $rc, wanted 2"; return; }
	expect_out "a plain RDMA WRITE completes only at the writer, so the server cannot check each message as it lands: add --write_with_imm" ||
		return
	pass
}
