# SPDX-License-Identifier: BSD-2-Clause
# The post APIs: by default the loops post through the ibv_wr_* builders
# of extended QPs (rxe makes them), with --use_old_post_send through
# ibv_post_send on plain QPs; every verb, transport and shape that posts
# runs with each, data checked, the header and JSON naming the API that
# ran. Sourced by run.sh.

# post_api_case WORDS: the test of WORDS, then the same with
# --use_old_post_send; each exit 0, data check ok, the API in the header
# and in decisions.post_api. POST_API_MODES: the two, or only
# --use_old_post_send for the shapes whose default (the builders) every
# other group runs.
POST_API_MODES=("" --use_old_post_send)
post_api_case() {
	local doc=$WORK/postapi.json old api line
	for old in "${POST_API_MODES[@]}"; do
		if [ -n "$old" ]; then
			api=post_send line="ibv_post_send \(--use_old_post_send\)"
		else
			api=wr line="ibv_wr_\* builders on extended QPs"
		fi
		begin "$* ${old:-(default)}: exit 0, data check ok, posting with $api"
		# shellcheck disable=SC2086 # the case's words
		client "$@" $old --json-file "$doc" || { fail "exit $?"; continue; }
		expect_out "^ Posting +: $line$" "Data check +: ok" || continue
		expect_json "$doc" "[.results[].decisions.post_api] | all(. == \"$api\")" \
			'[.results[].data_check.ok] | all' || continue
		pass
	done
}

t_post_api() {
	post_api_case write_bw -s 4096 -n 1000 -q 2
	post_api_case send_bw -s 4096 -n 1000 -q 2
	post_api_case read_bw -s 4096 -n 1000 -q 2
	post_api_case atomic_bw -n 1000 -q 2
	# the other posters: immediate data, inline, UC and UD, -l chains,
	# -b, the latency loops, RDMA CM's QPs; their builders run in
	# t_immediate, t_transports, t_all_loops, t_bidir and t_cm, so here
	# the classic poster only
	short_pass && return
	POST_API_MODES=(--use_old_post_send)
	post_api_case write_bw -s 4096 -n 1000 --write_with_imm
	post_api_case write_bw -s 64 -n 1000 -I 64
	post_api_case atomic_bw -n 1000 -A CMP_AND_SWAP
	post_api_case write_bw -s 4096 -n 1000 -c UC
	post_api_case send_bw -s 512 -n 1000 -c UD
	post_api_case send_bw -s 64 -n 1000 -c UD -I 64
	post_api_case write_bw -s 4096 -n 1000 -l 8
	post_api_case send_bw -s 4096 -n 1000 -b
	post_api_case write_lat -s 64 -n 300
	post_api_case send_lat -s 64 -n 300
	post_api_case read_lat -s 64 -n 300
	post_api_case atomic_lat -n 300
	post_api_case write_bw -s 4096 -n 1000 -R
	POST_API_MODES=("" --use_old_post_send)
}
