#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The loop engines promise one timed loop per variant, each compiled with
# its variant as a constant: src/bench/bw.c (bandwidth),
# src/bench/pingpong.c (the ping-pongs, perftest's sequence included, and
# the server's echo) and src/bench/lat.c (READ and atomic round trips).
# Read the object code and fail where a variant jumps to or calls a shared
# loop (or a shared per-message helper), which would test the variant on
# every message again.
# Usage: tests/check-hotloop.sh [BW_OBJ [PINGPONG_OBJ [LAT_OBJ]]]   (default:
# the objects of librdmaperf.a in the build directory). Exit 77 without
# objdump.
set -uo pipefail
srcdir=${srcdir:-.}

command -v objdump >/dev/null ||
	{ echo "SKIP: objdump not installed (apt-get install binutils)"; exit 77; }

# check OBJECT SOURCE TABLE_SED SHARED: the variants are the functions the
# source's table (TABLE_SED prints their names) points at; SHARED names
# the per-message code that must exist only inlined into each of them.
check() {
	local obj=$1 src=$2 table=$3 shared=$4 dis generic v body bad
	local -a variants
	[[ -r $obj ]] || { echo "ERROR: $obj not built (run make first)"; return 99; }
	[[ -r $src ]] || { echo "ERROR: $src not found (set srcdir)"; return 99; }
	mapfile -t variants < <(sed -n "$table" "$src")
	((${#variants[@]} >= 2)) ||
		{ echo "ERROR: no table of loop variants in $src"; return 99; }

	# With relocations: a call to another object's function shows,
	# unlinked, as a call to whatever follows it here; its relocation
	# names the target.
	dis=$(objdump -dr --no-show-raw-insn "$obj") ||
		{ echo "ERROR: objdump -d $obj failed"; return 99; }

	local status=0
	generic=$(grep -oE "^[0-9a-f]+ <($shared)(\.[a-z0-9.]+)?>:" <<<"$dis")
	if [[ -n $generic ]]; then
		echo "FAIL: $obj: out-of-line copies of the per-message code:" \
			"$(tr "\n" " " <<<"$generic")"
		status=1
	fi
	for v in "${variants[@]}"; do
		body=$(awk -v f="<$v>:" '$2 == f { on = 1; next }
			on && /^[0-9a-f]+ </ { exit } on' <<<"$dis")
		if [[ -z $body ]]; then
			echo "FAIL: $v not found in $obj"
			status=1
			continue
		fi
		# Branches to another function's symbol (a relocation's, where
		# one follows); the variant's own split parts (.cold, .part)
		# are its own code.
		bad=$(awk '
			function flush() { if (pend != "") print pend; pend = "" }
			/R_X86_64_|R_AARCH64_/ {
				if (pend != "") { s = $NF; sub(/[-+].*$/, "", s); print s }
				pend = ""; next
			}
			{ flush() }
			/(jmp|call|b|bl)[a-z.]* +[0-9a-f]+ </ {
				match($0, /<[^>+]*[>+]/)
				pend = substr($0, RSTART + 1, RLENGTH - 2)
			}
			END { flush() }' <<<"$body" |
			grep -E "^($shared)" | grep -vE "^$v(\.|$)" | sort -u)
		if [[ -n $bad ]]; then
			echo "FAIL: $v branches to shared code:" "$(tr "\n" " " <<<"$bad")"
			status=1
		else
			echo "ok: $v is its own loop ($(wc -l <<<"$body") instructions)"
		fi
	done
	return $status
}

status=0
check "${1:-src/bench/librdmaperf_a-bw.o}" "$srcdir/src/bench/bw.c" \
	's/^[[:space:]]*\[BW_[A-Z_]*\] = \(timed_loop_[a-z_]*\),.*/\1/p' \
	'timed_loop|post_all|post_window|reap|next_chain'
status=$?
# The ping-pong engine's two tables: the stamping side's loops and the
# server's echoes.
check "${2:-src/bench/librdmaperf_a-pingpong.o}" "$srcdir/src/bench/pingpong.c" \
	's/^[[:space:]]*\[PP_[A-Z_]*\] = \(\(ping\|echo\|pt_first\|pt_reply\)_loop_[a-z_]*\),.*/\1/p' \
	'ping_loop|echo_loop|pt_first_loop|pt_reply_loop|poll_one|wait_count|wait_tag|wait_msg|pt_wait|post_msg|repost|drain|stalled'
s=$?
((s > status)) && status=$s
# The one-sided round trips (READ and atomic latency).
check "${3:-src/bench/librdmaperf_a-lat.o}" "$srcdir/src/bench/lat.c" \
	's/^[[:space:]]*\[RTT_[A-Z_]*\] = \(rtt_loop_[a-z_]*\),.*/\1/p' \
	'rtt_loop|rtt_wait'
s=$?
((s > status)) && status=$s
exit $status
