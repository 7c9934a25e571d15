# SPDX-License-Identifier: BSD-2-Clause
# Per-QP paths: --flow_label's list gives each QP its own label on both
# sides, --report-per-qp shows each QP's part, rows and JSON; a list that
# does not match -q is refused in one line. Sourced by run.sh.

# per_qp_sum FILE: the messages of the [QPn] rows, added up.
per_qp_sum() {
	awk '$1 ~ /^\[QP[0-9]+\]$/ { s += $2 } END { print s + 0 }' "$1"
}

t_per_qp() {
	local doc=$WORK/perqp.json n=500 t want rc
	begin "write_bw -q 4 --flow_label 1,2,3,4 --report-per-qp: 4 rows adding up to the total, per_qp with the labels"
	client write_bw -s 4096 -n "$n" -q 4 --flow_label 1,2,3,4 \
		--report-per-qp --json-file "$doc" || { fail "exit $?"; return; }
	expect_out "^ 4096 +$((n * 4)) " \
		'^ \[QP0\] +[0-9]+ +- +[0-9.]+ +[0-9.]+ +qp 0x[0-9a-f]+, flow label 1$' \
		'^ \[QP1\] +[0-9]+ +- +[0-9.]+ +[0-9.]+ +qp 0x[0-9a-f]+, flow label 2$' \
		'^ \[QP2\] +[0-9]+ +- +[0-9.]+ +[0-9.]+ +qp 0x[0-9a-f]+, flow label 3$' \
		'^ \[QP3\] +[0-9]+ +- +[0-9.]+ +[0-9.]+ +qp 0x[0-9a-f]+, flow label 4$' \
		"Path +: SL 0, traffic class [0-9]+, flow labels per QP \(4, first 0x1\), hop limit 64," \
		"Data check +: ok" || return
	[ "$(grep -c '^ \[QP[0-9]*\]' "$WORK/out")" -eq 4 ] ||
		{ fail "not 4 QP rows"; return; }
	[ "$(per_qp_sum "$WORK/out")" -eq $((n * 4)) ] ||
		{ fail "the QP rows add up to $(per_qp_sum "$WORK/out"), not $((n * 4))"; return; }
	expect_json "$doc" '.results[0].per_qp | length == 4' \
		'[.results[0].per_qp[].qp] == [0, 1, 2, 3]' \
		'[.results[0].per_qp[].flow_label] == [1, 2, 3, 4]' \
		"[.results[0].per_qp[].msgs] | add == $((n * 4))" \
		'.results[0] as $r | ([$r.per_qp[].msgs] | add) == $r.iterations' \
		'[.results[0].per_qp[] | .bytes == .msgs * 4096 and .bw_gbps > 0 and .qp_num > 0] | all' \
		'.parameters.flow_label == 1' \
		'.parameters.flow_labels == [1, 2, 3, 4]' || return
	pass
	# READ responses and -b's messages go out on the server's QPs: the
	# list reaches them, and the runs check their data.
	for t in "5, 6|read_bw -q 2 --flow_label 5,6" \
		"7, 8|send_bw -b -q 2 --flow_label 7,8" \
		"9, 10, 11, 12|write_bw --threads 2 -q 4 --flow_label 9:12:+1"; do
		want=${t%%|*} t=${t#*|}
		begin "$t --report-per-qp: runs, data checked, each QP's label in the JSON"
		# shellcheck disable=SC2086 # the case's words
		client $t -s 4096 -n 200 --report-per-qp --json-file "$doc" ||
			{ fail "exit $?"; continue; }
		expect_out "Data check +: ok" || continue
		expect_json "$doc" '.results[0].data_check.ok' \
			'.results[0] as $r | ($r.per_qp | length) == $r.num_qps' \
			'.results[0] as $r | ([$r.per_qp[].msgs] | add) == $r.iterations' \
			"[.results[0].per_qp[].flow_label] == [$want]" || continue
		pass
	done
	begin "--flow_label 1,2,3 with -q 4: one line naming both counts, exit 2"
	client write_bw -n 10 -q 4 --flow_label 1,2,3
	rc=$?
	[ "$rc" -eq 2 ] || { fail "exit $rc, wanted 2"; return; }
	expect_out "--flow_label lists 3 labels for 4 QPs \(-q\): give one label per QP, or one for all" ||
		return
	[ "$(grep -c . "$WORK/out")" -eq 1 ] || { fail "not one line"; return; }
	client write_bw -n 100 || { fail "the next run: exit $?"; return; }
	pass
}
