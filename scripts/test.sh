#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The whole test suite: install, build, unit tests (cmocka), then the
# integration tests on a real Soft-RoCE device. Ends with one line
# "N passed, N failed, N skipped" counting individual test cases.
set -uo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh >/dev/null || { echo "dependency install failed"; exit 1; }
scripts/build.sh || { echo "build failed"; echo "0 passed, 1 failed, 0 skipped"; exit 1; }

pass=0 fail=0 skip=0
add() { pass=$((pass + $1)); fail=$((fail + $2)); skip=$((skip + $3)); }

# One `make check` runs both layers; the counts come from their logs.
make -s check >/dev/null 2>&1
check_rc=$?

echo "== unit tests (cmocka)"
for log in tests/unit/test_*.log; do
	p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
	f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
	echo "$(basename "$log" .log): ${p:-0} passed, ${f:-0} failed"
	add "${p:-0}" "${f:-0}" 0
	[[ -n $p || -n $f ]] || { echo "  no result in $log"; add 0 1 0; }
done

echo "== integration tests (Soft-RoCE)"
log=tests/integration/softroce.log
cat "$log" 2>/dev/null
line=$(grep -E '^integration: [0-9]+ passed' "$log" 2>/dev/null | tail -1)
if [[ -n $line ]]; then
	read -r p f s < <(echo "$line" | sed -E 's/^integration: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped.*/\1 \2 \3/')
	add "$p" "$f" "$s"
elif grep -q '^SKIP' "$log" 2>/dev/null; then
	add 0 0 1
else
	echo "the integration suite did not report (test bed failure?)"
	add 0 1 0
fi
echo "== format (clang-format, .clang-format)"
if command -v clang-format >/dev/null; then
	bad=$(for f in $(git ls-files '*.c' '*.h' 2>/dev/null); do
		clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || echo "$f"
	done)
	if [[ -z $bad ]]; then
		echo "all C files formatted"; add 1 0 0
	else
		echo "not formatted (run clang-format -i):" $bad; add 0 1 0
	fi
else
	echo "clang-format not installed"; add 0 0 1
fi

if [[ $check_rc -ne 0 && $fail -eq 0 ]]; then
	echo "make check failed without a failing case: see test-suite.log"
	add 0 1 0
fi

echo "$pass passed, $fail failed, $skip skipped"
[[ $fail -eq 0 ]]
