#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Build the libFuzzer targets (clang, ASan+UBSan) and run each for SECONDS
# (default 60) from the corpus in tests/fuzz/corpus. Exit 0 when no target
# found a crash. Usage: scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
out=${RDP_FUZZ_DIR:-build-fuzz}
mkdir -p "$out"
cflags=(-std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined
	-fno-sanitize-recover=undefined -D_GNU_SOURCE -Iinclude
	-DPACKAGE_VERSION='"fuzz"')
# The whole library, instrumented, so the option parser runs with every
# option group it dispatches to; the decoder needs only the codec.
lib=(src/*/*.c)
clang "${cflags[@]}" tests/fuzz/fuzz_wire.c src/oob/wire.c \
	-o "$out/fuzz_wire"
clang "${cflags[@]}" tests/fuzz/fuzz_opts.c "${lib[@]}" -libverbs -lrdmacm \
	-lnuma -lhwloc -ljansson -ldl -lm -o "$out/fuzz_opts"
status=0
for t in wire opts; do
	work=$(mktemp -d)
	echo "fuzz_$t: ${secs} s"
	if ! "$out/fuzz_$t" -max_total_time="$secs" -max_len=4200 \
		-artifact_prefix="$out/crash-$t-" "$work" \
		"tests/fuzz/corpus/$t" >"$out/fuzz_$t.log" 2>&1; then
		echo "fuzz_$t: FAILED, see $out/fuzz_$t.log and $out/crash-$t-*"
		tail -n 30 "$out/fuzz_$t.log"
		status=1
	else
		grep -E '^Done [0-9]+ runs' "$out/fuzz_$t.log" | tail -1 || true
	fi
	rm -rf "$work"
done
exit $status
