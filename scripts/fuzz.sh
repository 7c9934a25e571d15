#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Build the libFuzzer targets (clang, ASan+UBSan, the whole library
# instrumented: `configure --enable-fuzzing` in a copy of the tree) and run
# each for SECONDS (default 60) from the corpus in tests/fuzz/corpus. Exit 0
# when no target found a crash. Usage: scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD
secs=${1:-60}
out=$(realpath -m "${RDP_FUZZ_DIR:-build-fuzz}")
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined"

command -v clang >/dev/null ||
	{ echo "clang not installed (apt-get install clang)"; exit 1; }
# The tracked files, configured apart: the source tree may be configured
# for gcc already.
rm -rf "$out" && mkdir -p "$out"
git ls-files -z | xargs -0 cp --parents -t "$out"
(cd "$out" && ./autogen.sh >/dev/null 2>&1 &&
	./configure -q --enable-fuzzing CC=clang \
		CFLAGS="-g -O1 -fsanitize=fuzzer-no-link $san" &&
	make -s -j"$(nproc)" tests/fuzz/fuzz_wire tests/fuzz/fuzz_opts \
		tests/fuzz/fuzz_perftest tests/fuzz/fuzz_server_seq) \
	>"$out/build.log" 2>&1 ||
	{ echo "fuzz build failed, see $out/build.log"; tail -n 20 "$out/build.log"; exit 1; }
status=0
for t in wire opts perftest server_seq; do
	work=$(mktemp -d)
	echo "fuzz_$t: ${secs} s"
	if ! "$out/tests/fuzz/fuzz_$t" -max_total_time="$secs" -max_len=4200 \
		-artifact_prefix="$out/crash-$t-" "$work" \
		"$top/tests/fuzz/corpus/$t" >"$out/fuzz_$t.log" 2>&1; then
		echo "fuzz_$t: FAILED, see $out/fuzz_$t.log and $out/crash-$t-*"
		tail -n 30 "$out/fuzz_$t.log"
		status=1
	else
		grep -E '^Done [0-9]+ runs' "$out/fuzz_$t.log" | tail -1 || true
	fi
	rm -rf "$work"
done
exit $status
