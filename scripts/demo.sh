#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The main job end to end on a fresh Debian 12 machine, as root: install
# what the demo needs, build, bring up Soft-RoCE, start rdmaperf-server, run
# write_bw and write_lat from an rdmaperf client against it, print both
# reports. One line per step; each step's own output goes to a log under
# demo-logs/, named when the step fails.
set -euo pipefail
cd "$(dirname "$0")/.."
logs=$PWD/demo-logs
mkdir -p "$logs"

# step TITLE LOG COMMAND...: one line, the command's output in LOG.
step() {
	local title=$1 log=$logs/$2 t0=$SECONDS
	shift 2
	printf 'demo: %s ... ' "$title"
	if "$@" >"$log" 2>&1; then
		echo "done ($((SECONDS - t0)) s)"
	else
		echo "failed; the last lines of $log:"
		tail -n 20 "$log"
		exit 1
	fi
}

step "installing packages (scripts/install-deps.sh demo)" install.log \
	scripts/install-deps.sh demo
step "building (scripts/build.sh)" build.log scripts/build.sh
echo "demo: starting Soft-RoCE (the first run downloads a ~70 MB kernel" \
	"once) and running the tests"
exec tests/softroce/rxe-run --timeout 600 -- scripts/demo-inside.sh "$PWD"
