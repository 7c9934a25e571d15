#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# What the public headers export and who uses it, read from the built
# objects (nm): each symbol that an object under src/ defines and a header
# in include/rdmaperf/ names, with the folders whose objects leave it
# undefined (src/tools/doctor counts as src/tools; the mains as "main";
# tests/ as "tests").
# Prints one line per symbol that no other folder uses:
#   private SYMBOL FOLDER   only its own folder uses it: a folder header
#   tests   SYMBOL FOLDER   its folder and the tests, no other folder
#   unused  SYMBOL FOLDER   no other object at all: static, or dead
# then a count of each. Report only: exits 0 once it has read objects.
# Usage: check-exports.sh [ROOT [OBJDIR]]   (ROOT defaults to $srcdir,
# then "."; OBJDIR, where the build left its objects, to the current folder)
# -q: the counts only.

quiet=0
if [ "$1" = -q ]; then
	quiet=1
	shift
fi
root=$(cd "${1:-${srcdir:-.}}" && pwd) || exit 1
objdir=$(cd "${2:-.}" && pwd) || exit 1
nm=${NM:-nm}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

objs=$(cd "$objdir" && find src tests -name '*.o' 2>/dev/null | sort)
if [ -z "$objs" ]; then
	echo "$objdir: no objects under src/ or tests/: build first"
	exit 1
fi
# One nm for all: "OBJ: SYMBOL TYPE ..." into "U|D SYMBOL FOLDER OBJ".
# shellcheck disable=SC2086 # the object names have no blanks
(cd "$objdir" && "$nm" -A -P -g $objs 2>/dev/null) | awk '
	{
		o = $1; sub(/:$/, "", o)
		f = o
		if (f ~ /^tests\//) f = "tests"
		else {
			sub(/^src\//, "", f)
			if (f ~ /\//) sub(/\/.*/, "", f); else f = "main"
		}
		if ($3 == "U") print "U", $2, f, o
		else if ($3 ~ /^[A-TV-Z]$/ && f != "tests") print "D", $2, f, o
	}' >"$tmp/syms"

# Every rdp_ name the headers mention.
cat "$root"/include/rdmaperf/*.h |
	grep -o '\<rdp_[A-Za-z0-9_]*' | sort -u >"$tmp/named"

awk -v quiet="$quiet" '
	FILENAME == ARGV[1] { named[$1] = 1; next }
	$1 == "D" { if ($2 in named && !($2 in def)) def[$2] = $3; next }
	{ users[$2] = users[$2] " " $3 }
	END {
		for (s in def) {
			n++
			f = def[s]
			split(users[s], u, " ")
			own = other = test = 0
			for (i in u) {
				if (u[i] == f)
					own = 1
				else if (u[i] == "tests")
					test = 1
				else
					other = 1
			}
			if (other)
				continue
			kind = test ? "tests" : own ? "private" : "unused"
			count[kind]++
			if (!quiet)
				printf "%-7s %s %s\n", kind, s, f | "sort"
		}
		close("sort")
		priv = count["private"] + count["tests"] + count["unused"]
		printf "%d symbols declared in include/ and defined in src/; " \
		       "%d (%d%%) no other folder uses: %d its own folder " \
		       "only, %d its folder and the tests, %d no other " \
		       "object\n", n, priv, n ? 100 * priv / n : 0,
		       count["private"] + 0, count["tests"] + 0,
		       count["unused"] + 0
	}' "$tmp/named" "$tmp/syms"
