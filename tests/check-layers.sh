#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Includes and calls point down the layers only:
#   cli -> mesh -> session -> {report | oob} -> bench -> engine -> mem -> sys
# report and oob sit side by side and never include or call each other. A
# header's layer is its " * Layer: NAME" line; a source file's is its folder
# under src/ (src/tools and src/client.c, src/server.c are cli).
# Calls are read from the built objects (nm): what each folder's objects
# leave undefined, and which folder's objects define it. For calls the mains
# sit above src/tools, and src/tools above src/cli: a subcommand may call
# the option parser, never the other way round.
# Usage: check-layers.sh [ROOT [OBJDIR]]   (ROOT defaults to $srcdir, then
# "."; OBJDIR, where the build left src/**/*.o, to the current folder)
# Exit 0 when clean, 1 with one line per offending include or call.

root=${1:-${srcdir:-.}}
objdir=$(cd "${2:-.}" && pwd) || exit 1
nm=${NM:-nm}

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

# Known exceptions for calls, each with its reason; remove a line once the
# call is gone (none today). Format: "calling-folder symbol".
allowed_calls='
'

# A folder's rank for calls: the mains, then src/tools, then the layers.
call_rank()
{
	case $1 in
	main) echo 10 ;;
	tools) echo 9 ;;
	*) rank "$1" ;;
	esac
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
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
tab=$tmp/layers
syms=$tmp/syms

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

# Calls, from the objects. One line per object symbol: "OBJ FOLDER U SYM"
# for what it leaves undefined, "OBJ FOLDER D SYM" for what it defines. An
# object whose source is gone (a stale build) is left out.
objs=$(cd "$objdir" && find src -name '*.o' 2>/dev/null | sort)
if [ -z "$objs" ]; then
	echo "$objdir: no objects under src/: build first" \
		"(the call check reads them)"
	exit 1
fi
live=
for o in $objs; do
	base=${o##*/}
	case $base in
	*-*) base=${base#*-} ;;
	esac
	[ -e "${o%/*}/${base%.o}.c" ] && live="$live $o"
done
# One nm for all: "OBJ: SYMBOL TYPE ...".
# shellcheck disable=SC2086 # the object names have no blanks
(cd "$objdir" && "$nm" -A -P -g $live 2>/dev/null) | awk '
	{
		o = $1; sub(/:$/, "", o)
		f = o; sub(/^src\//, "", f)
		if (f ~ /\//) sub(/\/.*/, "", f); else f = "main"
		if ($3 == "U") print o, f, "U", $2
		else if ($3 ~ /^[A-TV-Z]$/) print o, f, "D", $2
	}' >"$syms"
for f in $(awk '{ print $2 }' "$syms" | sort -u); do
	echo "$f $(call_rank "$f")"
done >"$tmp/ranks"
export allowed_calls
bad=$(awk '
	FILENAME == ARGV[1] { rank[$1] = $2; next }
	$3 == "D" { if (!($4 in def)) def[$4] = $2; next }
	{ use[++n] = $0 }
	END {
		for (i = 1; i <= n; i++) {
			split(use[i], u, " ")
			o = u[1]; f = u[2]; s = u[4]
			if (!(s in def) || def[s] == f)
				continue
			g = def[s]
			if (rank[g] < rank[f])
				continue
			if (index(ENVIRON["allowed_calls"], "\n" f " " s "\n"))
				continue
			dir = rank[g] == rank[f] ? "sideways" : "up"
			printf "%s (%s) calls %s, defined in %s: points %s\n",
			       o, f, s, g, dir
		}
	}' "$tmp/ranks" "$syms" | sort -u)
if [ -n "$bad" ]; then
	echo "$bad"
	fail=1
fi
exit $fail
