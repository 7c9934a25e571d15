#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The size limits of STYLE's "Size and comments", as a check: no C file or
# header under src/ or include/ over 800 lines, no function over 150 lines.
# A function is what clang-format's Linux braces make of one: its body from
# a line that is "{" alone to the next line that is "}" alone; its name is
# read from the last line before it that starts at column 0 with a "(".
# Tables (a "= {" at the end of a line, "};" closing it) are not functions.
# Usage: check-size.sh [ROOT]   (ROOT defaults to $srcdir, then ".")
#        check-size.sh --selftest   (fails on made-up files, passes clean)
# Exit 0 when nothing is over, 1 with one line per file or function.

MAX_FILE_LINES=800
MAX_FUNC_LINES=150

# check ROOT: one line per offender, exit 1 if any.
check()
{
	files=$(cd "$1" && find src include -type f \( -name '*.c' -o \
		-name '*.h' \) 2>/dev/null | LC_ALL=C sort)
	[ -n "$files" ] || { echo "check-size: no sources under $1"; return 1; }
	# shellcheck disable=SC2086 # one word a path: no spaces in the tree
	(cd "$1" && awk -v max_file="$MAX_FILE_LINES" \
		-v max_func="$MAX_FUNC_LINES" '
		FNR == 1 {
			if (prev != "" && prev_n > max_file)
				over(prev ": " prev_n " lines (at most " \
				     max_file " a file)")
			sig = ""
			start = 0
		}
		{ prev = FILENAME; prev_n = FNR }
		/^[A-Za-z_].*\(/ { sig = $0 }
		/^\{$/ { start = FNR; name = sig }
		/^\}$/ && start {
			n = FNR - start + 1
			if (n > max_func)
				over(FILENAME ":" start ": " fname(name) \
				     "() is " n " lines (at most " \
				     max_func " a function)")
			start = 0
		}
		END {
			if (prev != "" && prev_n > max_file)
				over(prev ": " prev_n " lines (at most " \
				     max_file " a file)")
			exit bad
		}
		function fname(s)
		{
			sub(/\(.*/, "", s)
			sub(/.*[^A-Za-z0-9_]/, "", s)
			return s == "" ? "?" : s
		}
		function over(line)
		{
			print line
			bad = 1
		}
	' $files)
}

# The check on a made-up tree: clean passes, an 801-line file and a
# 151-line function fail by name; the real limits pass at the edge.
selftest()
{
	tmp=$(mktemp -d) || return 1
	trap 'rm -rf "$tmp"' EXIT
	fails=0
	mkdir -p "$tmp/t/src/x" "$tmp/t/include/rdmaperf"
	# body N: a function of N lines, braces included.
	body()
	{
		printf 'static int %s(int a)\n{\n' "$1"
		i=2
		while [ "$i" -lt $(($2 - 1)) ]; do
			printf '\ta += %d;\n' "$i"
			i=$((i + 1))
		done
		printf '\treturn a;\n}\n'
	}
	body edge 150 >"$tmp/t/src/x/ok.c"
	printf 'static const int rows[] = {\n' >"$tmp/t/src/x/table.c"
	i=0
	while [ "$i" -lt 300 ]; do
		printf '\t%d,\n' "$i" >>"$tmp/t/src/x/table.c"
		i=$((i + 1))
	done
	printf '};\n' >>"$tmp/t/src/x/table.c"
	i=0
	while [ "$i" -lt 800 ]; do
		echo "/* line */"
		i=$((i + 1))
	done >"$tmp/t/include/rdmaperf/full.h"
	out=$(check "$tmp/t") ||
		{ echo "selftest: a clean tree failed: $out"; fails=1; }

	echo "/* one too many */" >>"$tmp/t/include/rdmaperf/full.h"
	body too_long 151 >"$tmp/t/src/x/long.c"
	out=$(check "$tmp/t") &&
		{ echo "selftest: an oversized tree passed"; fails=1; }
	expect="include/rdmaperf/full.h: 801 lines (at most 800 a file)"
	case $out in
	*"$expect"*) ;;
	*) echo "selftest: no '$expect' in: $out"; fails=1 ;;
	esac
	expect="src/x/long.c:2: too_long() is 151 lines (at most 150 a function)"
	case $out in
	*"$expect"*) ;;
	*) echo "selftest: no '$expect' in: $out"; fails=1 ;;
	esac
	n=$(printf '%s\n' "$out" | wc -l)
	[ "$n" -eq 2 ] ||
		{ echo "selftest: $n lines, not 2: $out"; fails=1; }
	rm -rf "$tmp"
	trap - EXIT
	[ "$fails" -eq 0 ] && echo "check-size selftest: ok"
	return "$fails"
}

case ${1:-} in
--selftest) selftest; exit $? ;;
esac

# Under make check: prove the check fails where it should, then run it.
selftest >/dev/null || { selftest; exit 1; }
check "${1:-${srcdir:-.}}"
