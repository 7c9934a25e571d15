#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# fuzz_server_seq's seeds (and any crash kept beside them) replayed through
# the plain build of the target: each must end without an abort. Then the
# seeds of whole sessions must still take the server to the end of each
# point: one RESULT for `point`, two for `points2` (the fake engine's QP
# numbers in their QP_INFO, the syncs in order).
set -e
dir="${srcdir:-.}/tests/fuzz/corpus/server_seq"
ls "$dir"/* >/dev/null
steps=$(RDP_FUZZ_STEPS=1 tests/fuzz/fuzz_server_seq_replay "$dir"/* \
	2>/dev/null)
printf '%s\n' "$steps"
for want in "point: .* RESULT 1 " "points2: .* RESULT 2 "; do
	printf '%s\n' "$steps" | grep -q "^$want" ||
		{ echo "no seed line matches '$want'"; exit 1; }
done
