# SPDX-License-Identifier: BSD-2-Clause
# Multicast on UD (-g, -M): the server's QPs join a group, the client sends
# to it; each QP of the group takes a copy of every message (one line per
# QP in the server's log, a row per QP in the client's report), and
# send_bw counts the copies that never came.
# t_mcast attaches the QPs by MGID; t_mcast_cm (-g -R) joins the group
# through the RDMA CM. Sourced by run.sh.

# mcast_qp_lines LOG FROM GROUP: the server's per-QP lines for GROUP after
# line FROM of LOG, as "QPN COUNT".
mcast_qp_lines() {
	tail -n "+$(($2 + 1))" "$1" |
		sed -En "s/^.*multicast group $3: qp (0x[0-9a-f]+) received ([0-9]+) messages\$/\\1 \\2/p"
}

t_mcast() {
	local doc=$WORK/mcast.json log=$WORK/server.log n=2000 from rows rc
	local v4=::ffff:239.255.82.80
	begin "send_bw -c UD -g -q 2: both QPs of the group receive, each counted in the server's log, loss counted per copy"
	from=$(wc -l <"$log")
	client send_bw -c UD -g -q 2 -s 1024 -n "$n" --json-file "$doc" ||
		{ fail "exit $?"; return; }
	expect_out "Data check +: ok" \
		"QPs +: 2 UD, .*, sent to the multicast group $v4 \(attached by MGID\)" \
		"Loss +: [0-9]+ of $((n * 4)) copies never arrived \([0-9.]+ %\): $((n * 2)) messages sent to a group of 2 QPs, counted by the receiver" ||
		return
	expect_json "$doc" '.parameters.mcg == true' '.parameters.mgid == null' \
		'.parameters.mcg_join == "mgid"' \
		'(.results[0].loss.per_qp | length) == 2' \
		'.results[0].loss.sent == 4000' \
		'.results[0].loss.group_qps == 2' \
		'.results[0].loss.expected == 8000' \
		'.results[0].loss.received > 0' \
		'.results[0].loss.lost == .results[0].loss.expected - .results[0].loss.received' ||
		return
	wait_in "$log" "multicast group $v4: qp 0x[0-9a-f]+ received" 5
	rows=$(mcast_qp_lines "$log" "$from" "$v4")
	echo "# send_bw -g -q 2, each QP of the group: $(echo "$rows" | tr "\n" " ")"
	[ "$(echo "$rows" | awk '$2 > 0' | wc -l)" -eq 2 ] ||
		{ fail "not 2 QPs with messages in the server's log: '$rows'"; return; }
	[ "$(echo "$rows" | awk '{ print $1 }' | sort -u | wc -l)" -eq 2 ] ||
		{ fail "the 2 lines name one QP: '$rows'"; return; }
	[ "$(echo "$rows" | awk '{ s += $2 } END { print s }')" -eq \
		"$(jq .results[0].loss.received "$doc")" ] ||
		{ fail "the QPs' counts do not add up to loss.received"; return; }
	pass
	begin "send_bw -c UD -g -q 2 from the second device: the group's packets cross the bridge to both QPs"
	if [ -z "${RDP_RXE_DEV1:-}" ]; then
		skip "needs a second rxe device"
	else
		from=$(wc -l <"$log")
		run_limited 60 "$BUILD/rdmaperf" send_bw -c UD -g -q 2 -s 1024 \
			-n 1000 -d "$RDP_RXE_DEV1" --bind_source_ip "$RDP_RXE_ADDR1" \
			-p "$PORT" "$ADDR" \
			>"$WORK/out" 2>&1 || { fail "exit $?"; return; }
		expect_out "Local device +: $RDP_RXE_DEV1 " "Data check +: ok" \
			"Loss +: [0-9]+ of 4000 copies never arrived" || return
		wait_in "$log" "multicast group $v4: qp 0x[0-9a-f]+ received" 5
		rows=$(mcast_qp_lines "$log" "$from" "$v4")
		echo "# from $RDP_RXE_DEV1, each QP of the group: $(echo "$rows" | tr "\n" " ")"
		[ "$(echo "$rows" | awk '$2 > 0' | wc -l)" -eq 2 ] ||
			{ fail "not 2 QPs with messages in the server's log: '$rows'"; return; }
		pass
	fi
	begin "send_lat -c UD -g: round trips through a group of one QP, data checked"
	client send_lat -c UD -g -n 300 || { fail "exit $?"; return; }
	expect_out "Data check +: ok" "QPs +: 1 UD, " || return
	pass
	if ! short_pass; then
		begin "send_bw -c UD -g -M ::ffff:239.1.2.3: the group asked is the one joined"
		from=$(wc -l <"$log")
		client send_bw -c UD -g -M ::ffff:239.1.2.3 -s 512 -n 500 ||
			{ fail "exit $?"; return; }
		expect_out "Data check +: ok" "Loss +: [0-9]+ of 500 copies never arrived" \
			"sent to the multicast group ::ffff:239.1.2.3" ||
			return
		wait_in "$log" "multicast group ::ffff:239.1.2.3: qp " 5
		rows=$(mcast_qp_lines "$log" "$from" ::ffff:239.1.2.3)
		[ "$(echo "$rows" | awk '$2 > 0' | wc -l)" -eq 1 ] ||
			{ fail "no QP of ::ffff:239.1.2.3 received: '$rows'"; return; }
		pass
	fi
	t_mcast_ipv6 || return
	begin "-g on RC: one line, exit 2; an IPv6 group on IPv4 GIDs: the server's line; the server goes on"
	client send_bw -g -n 10
	rc=$?
	[ "$rc" -eq 2 ] || { fail "RC: exit $rc, wanted 2"; return; }
	expect_out "^rdmaperf: error: -g sends to a multicast group, which takes UD datagrams: add -c UD \(-c RC connects each QP to one peer QP\)$" ||
		return
	[ "$(grep -c . "$WORK/out")" -eq 1 ] || { fail "not one line"; return; }
	client send_bw -c UD -g -M ff0e::1 -n 10
	rc=$?
	[ "$rc" -ne 0 ] || { fail "ff0e::1 on IPv4 GIDs: exit 0"; return; }
	expect_out "-M ff0e::1: the GID here \(index [0-9]+\) is an IPv4 one, and a RoCE v2 group must be of its family: give an IPv4 group as ::ffff:239.x.y.z" ||
		return
	client send_bw -c UD -g -n 100 || { fail "the next run: exit $?"; return; }
	pass
}

# -g -R over an IPv6 GID: the kernel's RDMA CM joins no IPv6 group on
# RoCE v2 (ENOTSUPP), which the server says in one line, at once.
t_mcast_cm_ipv6() {
	local a6=fd78::1 gid=fd78:0000:0000:0000:0000:0000:0000:0001
	local netdev=${RDP_RXE_NETDEV0:-} i t0
	begin "-g -R over an IPv6 GID: the RDMA CM cannot join ff0e::5250, one line at once, exit 1"
	[ -n "$netdev" ] || { skip "no netdev named for $DEV"; return 0; }
	sysctl -qw "net.ipv6.conf.$netdev.disable_ipv6=0" 2>/dev/null
	ip -6 addr add "$a6/64" dev "$netdev" nodad 2>/dev/null
	for i in $(seq 1 100); do
		grep -qx "$gid" /sys/class/infiniband/"$DEV"/ports/1/gids/* \
			2>/dev/null && break
		sleep 0.1
	done
	t0=$(date +%s%N)
	run_limited "$LIMIT" "$BUILD/rdmaperf" send_bw -c UD -g -R -s 512 \
		-n 100 -d "$DEV" -p "$PORT" "$a6" >"$WORK/out" 2>&1
	i=$?
	t0=$((($(date +%s%N) - t0) / 1000000))
	ip -6 addr del "$a6/64" dev "$netdev" 2>/dev/null
	echo "# the join refused by the kernel took $t0 ms"
	[ "$i" -eq 1 ] || { fail "exit $i, wanted 1"; return 0; }
	expect_out "join the multicast group ff0e::5250 through the RDMA CM on $DEV: the kernel's RDMA CM joins RoCE v2 groups over IPv4 only: drop -R to attach the QPs by MGID, or use an IPv4 GID" ||
		return 0
	[ "$(grep -c . "$WORK/out")" -eq 1 ] ||
		{ fail "not one line: $(cat "$WORK/out")"; return 0; }
	[ "$t0" -lt 5000 ] || { fail "took $t0 ms"; return 0; }
	pass
}

# IPv6 GIDs: the default group is ff0e::5250, joined over IPv6.
t_mcast_ipv6() {
	local a6=fd78::1 gid=fd78:0000:0000:0000:0000:0000:0000:0001
	local netdev=${RDP_RXE_NETDEV0:-} log=$WORK/server.log from rows i
	begin "send_bw -c UD -g over an IPv6 GID: the group ff0e::5250, both QPs receive"
	[ -n "$netdev" ] || { skip "no netdev named for $DEV"; return 0; }
	sysctl -qw "net.ipv6.conf.$netdev.disable_ipv6=0" 2>/dev/null
	ip -6 addr add "$a6/64" dev "$netdev" nodad 2>/dev/null
	for i in $(seq 1 100); do
		grep -qx "$gid" /sys/class/infiniband/"$DEV"/ports/1/gids/* \
			2>/dev/null && break
		sleep 0.1
	done
	from=$(wc -l <"$log")
	run_limited "$LIMIT" "$BUILD/rdmaperf" send_bw -c UD -g -q 2 -s 512 \
		-n 500 -d "$DEV" -p "$PORT" "$a6" >"$WORK/out" 2>&1
	i=$?
	ip -6 addr del "$a6/64" dev "$netdev" 2>/dev/null
	[ "$i" -eq 0 ] || { fail "exit $i"; return 0; }
	expect_out "GID +: index [0-9]+ RoCE v2 fd78::1 " "Data check +: ok" \
		"sent to the multicast group ff0e::5250" \
		"Loss +: [0-9]+ of 2000 copies never arrived" || return 0
	wait_in "$log" "multicast group ff0e::5250: qp " 5
	rows=$(mcast_qp_lines "$log" "$from" ff0e::5250)
	[ "$(echo "$rows" | awk '$2 > 0' | wc -l)" -eq 2 ] ||
		{ fail "not 2 QPs of ff0e::5250 with messages: '$rows'"; return 0; }
	pass
}

# -g -R: the server's QPs join the group through the RDMA CM (the join's
# line in its log), the client sends to the group the join named; a join
# that cannot be made is one line, at once, and the server goes on.
t_mcast_cm() {
	local doc=$WORK/mcast_cm.json log=$WORK/server.log n=1000 from rows rc t0
	local v4=::ffff:239.255.82.80
	begin "send_bw -c UD -g -q 2 -R: the group joined through the RDMA CM, both QPs receive"
	from=$(wc -l <"$log")
	client send_bw -c UD -g -q 2 -R -s 1024 -n "$n" --json-file "$doc" ||
		{ fail "exit $?"; return; }
	expect_out "Data check +: ok" \
		"QPs +: 2 UD, .*, sent to the multicast group $v4 \(joined through the RDMA CM\)" \
		"Loss +: [0-9]+ of $((n * 4)) copies never arrived" \
		"\[QP0\] +: [0-9]+ of $((n * 2)) copies received, [0-9]+ lost \([0-9.]+ %\), the server's qp 0x[0-9a-f]+" \
		"\[QP1\] +: [0-9]+ of $((n * 2)) copies received, " ||
		return
	expect_json "$doc" '.parameters.mcg == true' \
		'.parameters.mcg_join == "rdma_cm"' \
		'.parameters.connection == "tcp"' \
		'.results[0].loss.group_qps == 2' \
		'(.results[0].loss.per_qp | length) == 2' \
		'([.results[0].loss.per_qp[].received] | add) == .results[0].loss.received' \
		'.results[0].loss.received > 0' || return
	wait_in "$log" "multicast group $v4: qp 0x[0-9a-f]+ received" 5
	tail -n "+$((from + 1))" "$log" |
		grep -qE "multicast group $v4: joined through the RDMA CM on $DEV \(LID 0x[0-9a-f]+, Q_Key 0x[0-9a-f]+\)" ||
		{ fail "no join line in the server's log"; return; }
	rows=$(mcast_qp_lines "$log" "$from" "$v4")
	echo "# send_bw -g -q 2 -R, each QP of the group: $(echo "$rows" | tr "\n" " ")"
	[ "$(echo "$rows" | awk '$2 > 0' | wc -l)" -eq 2 ] ||
		{ fail "not 2 QPs with messages in the server's log: '$rows'"; return; }
	[ "$(echo "$rows" | awk '{ print $2 }' | tr "\n" " ")" = \
		"$(jq -r '.results[0].loss.per_qp[].received' "$doc" | tr "\n" " ")" ] ||
		{ fail "the client's per-QP counts are not the server's: '$rows'"; return; }
	[ "$(echo "$rows" | awk '{ s += $2 } END { print s }')" -eq \
		"$(jq .results[0].loss.received "$doc")" ] ||
		{ fail "the QPs' counts do not add up to loss.received"; return; }
	pass
	begin "-g -R -M ff0e::1 on IPv4 GIDs: the join cannot be made, one line at once, exit 1"
	t0=$(date +%s%N)
	client send_bw -c UD -g -R -M ff0e::1 -n 10
	rc=$?
	t0=$((($(date +%s%N) - t0) / 1000000))
	echo "# the refused join took $t0 ms"
	[ "$rc" -eq 1 ] || { fail "exit $rc, wanted 1"; return; }
	expect_out "-M ff0e::1: the GID here \(index [0-9]+\) is an IPv4 one, and a RoCE v2 group must be of its family: give an IPv4 group as ::ffff:239.x.y.z" ||
		return
	[ "$(grep -c . "$WORK/out")" -eq 1 ] ||
		{ fail "not one line: $(cat "$WORK/out")"; return; }
	[ "$t0" -lt 5000 ] || { fail "took $t0 ms"; return; }
	pass
	t_mcast_cm_ipv6 || return
	begin "send_lat -c UD -g -R: round trips through a group joined through the RDMA CM"
	client send_lat -c UD -g -R -n 300 || { fail "exit $?"; return; }
	expect_out "Data check +: ok" \
		"QPs +: 1 UD, .*, sent to the multicast group $v4 \(joined through the RDMA CM\)" ||
		return
	pass
}
