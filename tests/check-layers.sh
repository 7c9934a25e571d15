#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Includes point down the layers only:
#   cli -> mesh -> session -> {report | oob} -> bench -> engine -> mem -> sys
# report and oob sit side by side and never include each other. A header's
# layer is its " * Layer: NAME" line; a source file's is its folder under
# src/ (src/tools and src/client.c, src/server.c are cli).
# Usage: check-layers.sh [ROOT]   (ROOT defaults to $srcdir, then ".")
# Exit 0 when clean, 1 with one line per offending include.

root=${1:-${srcdir:-.}}

# Known exceptions, each with its reason; remove a line once its include
# is gone (none today). Format: "including-file include/rdmaperf/header.h".
allowed='
'

rank()
{
	case $1 in
	cli) echo 8 ;;
	mesh) echo 7 ;;
	session) echo 6 ;;
	report | oob) echo 5 ;;
	bench) echo 4 ;;
	engine) echo 3 ;;
	mem) echo 2 ;;
	sys) echo 1 ;;
	*) echo 0 ;;
	esac
}

# The layer a header declares in its top comment block, or nothing.
header_layer()
{
	awk '/^\/\* SPDX/ && NR == 1 { next }
	     /^ \* Layer: [a-z]+$/ { print $3; exit }
	     /\*\// { exit }' "$1"
}

# The layer of a source file from where it lives.
file_layer()
{
	case $1 in
	src/client.c | src/server.c | src/tools/*) echo cli ;;
	src/*/*) d=${1#src/}; echo "${d%%/*}" ;;
	*) echo "" ;;
	esac
}

fail=0
cd "$root" || exit 1
tab=$(mktemp) || exit 1
trap 'rm -f "$tab"' EXIT

for h in include/rdmaperf/*.h; do
	[ -e "$h" ] || continue
	l=$(header_layer "$h")
	if [ "$(rank "$l")" = 0 ]; then
		echo "$h: no ' * Layer: NAME' line in its top comment" \
			"(NAME: cli mesh session report oob bench engine mem sys)"
		fail=1
		continue
	fi
	echo "${h#include/} $l" >>"$tab"
done

files=$(find src include/rdmaperf -name '*.[ch]' 2>/dev/null | sort)
for f in $files; do
	case $f in
	include/*) fl=$(header_layer "$f") ;;
	*) fl=$(file_layer "$f") ;;
	esac
	fr=$(rank "$fl")
	if [ "$fr" = 0 ]; then
		echo "$f: not in a layer (move it under src/<layer>/)"
		fail=1
		continue
	fi
	# A quoted include stays in the file's own folder: "../" would reach
	# another layer's internals past this check.
	for inc in $(sed -n 's/^#[ \t]*include[ \t]*"\(\.\.\/[^"]*\)".*/\1/p' "$f"); do
		echo "$f: includes \"$inc\" outside its folder:" \
			"declare what it needs in include/rdmaperf/"
		fail=1
	done
	for inc in $(sed -n 's/^#[ \t]*include[ \t]*[<"]\(rdmaperf\/[^>"]*\)[>"].*/\1/p' "$f"); do
		il=$(awk -v h="$inc" '$1 == h { print $2 }' "$tab")
		if [ -z "$il" ]; then
			echo "$f: includes $inc, which has no layer"
			fail=1
			continue
		fi
		[ "$il" = "$fl" ] && continue
		[ "$(rank "$il")" -lt "$fr" ] && continue
		case $allowed in
		*"
$f include/$inc
"*) continue ;;
		esac
		dir=up
		[ "$(rank "$il")" = "$fr" ] && dir=sideways
		echo "$f ($fl) includes $inc ($il): points $dir"
		fail=1
	done
done
exit $fail
