#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The main job end to end on a fresh Debian 12 machine, as root: install,
# build, bring up Soft-RoCE, start rdmaperf-server, run write_bw and
# write_lat from an rdmaperf client against it, print both reports.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh >/dev/null
scripts/build.sh
exec tests/softroce/rxe-run --timeout 600 -- scripts/demo-inside.sh "$PWD"
