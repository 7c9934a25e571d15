#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The layer check on tiny fake trees: clean trees pass; an include that
# points up or sideways, and a header without a layer, fail by name.
here=$(cd "$(dirname "$0")" && pwd)
check="$here/check-layers.sh"
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
}

# expect WANT_RC TEXT CASE: run the check, compare rc and output.
expect()
{
	out=$("$check" "$tmp/t" 2>&1)
	rc=$?
	if [ "$rc" != "$1" ] || ! printf '%s\n' "$out" | grep -q -- "$2"; then
		echo "FAIL $3: rc $rc, output: $out"
		fails=$((fails + 1))
	else
		echo "ok   $3"
	fi
}

fresh
expect 0 "" "a tree whose includes point down passes"

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

[ "$fails" = 0 ]
