#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# fuzz_server_seq's seeds (and any crash kept beside them) replayed through
# the plain build of the target: each must end without an abort.
set -e
dir="${srcdir:-.}/tests/fuzz/corpus/server_seq"
ls "$dir"/* >/dev/null
exec tests/fuzz/fuzz_server_seq_replay "$dir"/* 2>/dev/null
