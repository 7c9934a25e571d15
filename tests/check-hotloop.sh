#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# src/bench/bw.c promises one timed loop per variant, each compiled with
# its variant as a constant. Read the object code and fail where a variant
# jumps to or calls a shared loop (or a shared per-request helper), which
# would test the variant on every work request again.
# Usage: tests/check-hotloop.sh [OBJECT]   (default: the bw.c object of
# librdmaperf.a in the build directory). Exit 77 without objdump.
set -uo pipefail
srcdir=${srcdir:-.}
obj=${1:-src/bench/librdmaperf_a-bw.o}
src=$srcdir/src/bench/bw.c

command -v objdump >/dev/null ||
	{ echo "SKIP: objdump not installed (apt-get install binutils)"; exit 77; }
[[ -r $obj ]] || { echo "ERROR: $obj not built (run make first)"; exit 99; }
[[ -r $src ]] || { echo "ERROR: $src not found (set srcdir)"; exit 99; }

# The variants are the entries of bw.c's table of loops.
mapfile -t variants < <(sed -n 's/^[[:space:]]*\[BW_[A-Z_]*\] = \(timed_loop_[a-z_]*\),.*/\1/p' "$src")
((${#variants[@]} >= 2)) ||
	{ echo "ERROR: no table of timed_loop_* variants in $src"; exit 99; }

# With relocations: a call to another object's function shows, unlinked,
# as a call to whatever follows it here; its relocation names the target.
dis=$(objdump -dr --no-show-raw-insn "$obj") ||
	{ echo "ERROR: objdump -d $obj failed"; exit 99; }

# Per-request code that must exist only inlined into each variant.
shared='timed_loop|post_all|post_window|reap|next_chain'
status=0
generic=$(grep -oE "^[0-9a-f]+ <($shared)(\.[a-z0-9.]+)?>:" <<<"$dis")
if [[ -n $generic ]]; then
	echo "FAIL: out-of-line copies of the per-request code:" "$(tr "\n" " " <<<"$generic")"
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
	# Branches to another function's symbol (a relocation's, where one
	# follows); the variant's own split parts (.cold, .part) are its own
	# code.
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
exit $status
