#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The layer check on tiny fake trees: clean trees pass; an include or a
# call that points up or sideways, and a header without a layer, fail by
# name. The fake sources are compiled ($CC) so that the calls are read from
# real objects.
here=$(cd "$(dirname "$0")" && pwd)
check="$here/check-layers.sh"
cc=${CC:-cc}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fails=0

header()
{
	mkdir -p "$tmp/t/include/rdmaperf"
	printf '/* SPDX-License-Identifier: BSD-2-Clause */\n/*\n * %s\n * Layer: %s\n */\n%s\n' \
		"$2" "$3" "$4" >"$tmp/t/include/rdmaperf/$1"
}

source_file()
{
	mkdir -p "$tmp/t/$(dirname "$1")"
	printf '#include <rdmaperf/%s>\n' "$2" >"$tmp/t/$1"
}

# code FILE TEXT: append a line of C to a source file.
code()
{
	mkdir -p "$tmp/t/$(dirname "$1")"
	printf '%s\n' "$2" >>"$tmp/t/$1"
}

# define FILE NAME: FILE defines the function NAME.
define()
{
	code "$1" "void $2(void); void $2(void) {}"
}

# call FILE NAME: FILE calls NAME, declared in place (no include).
call()
{
	f=$(basename "$1" .c)
	code "$1" "void $2(void); void ${f}_calls_$2(void); void ${f}_calls_$2(void) { $2(); }"
}

fresh()
{
	rm -rf "$tmp/t"
	header log.h "Logging." sys ""
	header mem.h "Memory." mem "#include <rdmaperf/log.h>"
	header engine.h "Engine." engine "#include <rdmaperf/mem.h>"
	header wire.h "Codec." oob "#include <rdmaperf/engine.h>"
	header report.h "Report." report "#include <rdmaperf/engine.h>"
	source_file src/engine/conn.c mem.h
	source_file src/session/client.c wire.h
	source_file src/client.c report.h
	define src/sys/log.c rdp_log
	define src/engine/qp.c rdp_qp
	call src/engine/conn.c rdp_log
	call src/session/client.c rdp_qp
	call src/client.c rdp_qp
}

# The objects the build would leave beside each source. The fake headers
# only carry layers, so the includes are left out of what is compiled.
build()
{
	for c in $(cd "$tmp/t" && find src -name '*.c'); do
		grep -v '^#include' "$tmp/t/$c" |
			"$cc" -x c -c -o "$tmp/t/${c%.c}.o" - || return 1
	done
}

# expect WANT_RC TEXT CASE: run the check on the includes of the fake
# tree and the objects of a clean one, compare rc and output.
expect()
{
	check_with "$tmp/clean" "$@"
}

# expect_calls WANT_RC TEXT CASE: the same on the fake tree's objects.
expect_calls()
{
	if ! build; then
		echo "FAIL $3: $cc cannot compile the fake tree"
		fails=$((fails + 1))
		return
	fi
	check_with "$tmp/t" "$@"
}

check_with()
{
	objs=$1
	shift
	out=$("$check" "$tmp/t" "$objs" 2>&1)
	rc=$?
	if [ "$rc" != "$1" ] || ! printf '%s\n' "$out" | grep -q -- "$2"; then
		echo "FAIL $3: rc $rc, output: $out"
		fails=$((fails + 1))
	else
		echo "ok   $3"
	fi
}

fresh
if ! build; then
	echo "FAIL $cc cannot compile the fake tree"
	exit 1
fi
cp -R "$tmp/t" "$tmp/clean"
expect_calls 0 "" "a tree whose includes and calls point down passes"

fresh
source_file src/mem/bad.c engine.h
expect 1 "src/mem/bad.c (mem) includes rdmaperf/engine.h (engine): points up" \
	"mem including engine fails"

fresh
mkdir -p "$tmp/t/src/tools/doctor"
printf '#include "../../session/session_int.h"\n' >"$tmp/t/src/tools/doctor/peer.c"
expect 1 'src/tools/doctor/peer.c: includes "../../session/session_int.h" outside its folder' \
	"a relative include into another folder fails"

fresh
source_file src/report/bad.c wire.h
expect 1 "includes rdmaperf/wire.h (oob): points sideways" \
	"report including oob fails"

fresh
header mem.h "Memory." mem "#include <rdmaperf/engine.h>"
expect 1 "include/rdmaperf/mem.h (mem) includes rdmaperf/engine.h" \
	"a header including upward fails"

fresh
printf '/* SPDX-License-Identifier: BSD-2-Clause */\n/* No layer. */\n' \
	>"$tmp/t/include/rdmaperf/bare.h"
expect 1 "include/rdmaperf/bare.h: no ' \* Layer: NAME' line" \
	"a header without a layer fails"

fresh
header odd.h "Odd." kernel ""
expect 1 "include/rdmaperf/odd.h: no ' \* Layer: NAME' line" \
	"an unknown layer name fails"

fresh
source_file src/misc/x.c log.h
expect 1 "src/misc/x.c: not in a layer" "a folder that is no layer fails"

fresh
source_file src/tools/x.c report.h
expect 0 "" "src/tools is cli"

fresh
header mesh.h "Mesh." mesh "#include <rdmaperf/wire.h>"
source_file src/mesh/plan.c report.h
source_file src/tools/mesh.c mesh.h
expect 0 "" "mesh sits between cli and session"

fresh
header mesh.h "Mesh." mesh ""
source_file src/session/bad.c mesh.h
expect 1 "src/session/bad.c (session) includes rdmaperf/mesh.h (mesh): points up" \
	"session including mesh fails"

# one_call CALLER DEFINER SYMBOL WANT_RC TEXT CASE: a clean tree where
# CALLER calls SYMBOL, which DEFINER defines.
one_call()
{
	fresh
	define "$2" "$3"
	call "$1" "$3"
	shift 3
	expect_calls "$@"
}

# CALLER|DEFINER|SYMBOL|WANT_RC|TEXT|CASE
while IFS='|' read -r caller definer sym want text name; do
	one_call "$caller" "$definer" "$sym" "$want" "$text" "$name" \
		</dev/null
done <<'EOF'
src/mem/up.c|src/engine/cq.c|rdp_cq|1|src/mem/up.o (mem) calls rdp_cq, defined in engine: points up|mem calling engine fails
src/report/text.c|src/oob/tcp.c|rdp_tcp|1|src/report/text.o (report) calls rdp_tcp, defined in oob: points sideways|report calling oob fails
src/cli/opts.c|src/tools/registry.c|rdp_tool_all|1|src/cli/opts.o (cli) calls rdp_tool_all, defined in tools: points up|cli calling tools fails
src/mesh/run.c|src/tools/registry.c|rdp_tool_find|1|src/mesh/run.o (mesh) calls rdp_tool_find, defined in tools: points up|mesh calling tools fails
src/tools/doctor/cmd.c|src/cli/parse.c|rdp_cli_parse|0||a subcommand calling cli passes
EOF
call src/client.c rdp_cli_parse
expect_calls 0 "" "a main calling cli passes"

fresh
call src/mem/gone.c rdp_qp
build
rm -f "$tmp/t/src/mem/gone.c"
check_with "$tmp/t" 0 "" "an object whose source is gone is left out"

fresh
check_with "$tmp/t" 1 "no objects under src/: build first" \
	"a tree without objects fails"

[ "$fails" = 0 ]
