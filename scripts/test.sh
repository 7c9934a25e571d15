#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The whole test suite: install, build, unit tests (cmocka), integration
# tests on a real Soft-RoCE device, format check, the same unit and
# integration tests again in an ASan+UBSan build, and a short fuzzing run.
# Ends with one line "N passed, N failed, N skipped" over individual cases.
# RDP_QUICK=1 skips the sanitizer build and the fuzzing.
set -uo pipefail
cd "$(dirname "$0")/.."
top=$PWD

scripts/install-deps.sh >/dev/null || { echo "dependency install failed"; exit 1; }
scripts/build.sh || { echo "build failed"; echo "0 passed, 1 failed, 0 skipped"; exit 1; }

pass=0 fail=0 skip=0
add() { pass=$((pass + $1)); fail=$((fail + $2)); skip=$((skip + $3)); }

# Counts from the logs of one `make check` in directory $1; $2 labels them.
count_check() {
	local dir=$1 label=$2 rc=$3 log p f s line
	echo "== $label: unit tests (cmocka)"
	for log in "$dir"/tests/unit/test_*.log; do
		p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
		f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
		echo "$(basename "$log" .log): ${p:-0} passed, ${f:-0} failed"
		add "${p:-0}" "${f:-0}" 0
		[[ -n $p || -n $f ]] || { echo "  no result in $log"; add 0 1 0; }
	done
	echo "== $label: integration tests (Soft-RoCE)"
	log=$dir/tests/integration/softroce.log
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
	if [[ $rc -ne 0 && $fail -eq 0 ]]; then
		echo "make check failed without a failing case: see $dir/test-suite.log"
		add 0 1 0
	fi
}

format_check() {
	local bad
	echo "== format (clang-format, .clang-format)"
	if ! command -v clang-format >/dev/null; then
		echo "clang-format not installed"; add 0 0 1; return
	fi
	bad=$(for f in $(git ls-files '*.c' '*.h' 2>/dev/null); do
		clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || echo "$f"
	done)
	if [[ -z $bad ]]; then
		echo "all C files formatted"; add 1 0 0
	else
		echo "not formatted (run clang-format -i):" $bad; add 0 1 0
	fi
}

# The working tree's tracked files, built apart with the sanitizers on.
sanitizer_pass() {
	local dir=$top/build-asan rc
	rm -rf "$dir" && mkdir -p "$dir"
	git ls-files -z | xargs -0 cp --parents -t "$dir"
	if ! (cd "$dir" && ./autogen.sh >/dev/null 2>&1 &&
		./configure -q --enable-sanitizers --enable-werror &&
		make -s -j"$(nproc)" >/dev/null); then
		echo "== asan: build failed"; add 0 1 0; return
	fi
	# Any report aborts the process, which fails its test.
	(cd "$dir" && ASAN_OPTIONS=abort_on_error=1:detect_leaks=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		make -s check >/dev/null 2>&1)
	rc=$?
	count_check "$dir" "asan+ubsan" "$rc"
}

# The same sources configured without CUDA: they must build, and the unit
# tests (the GPU option's refusal included) must pass.
no_cuda_pass() {
	local dir=$top/build-nocuda rc log p f
	echo "== build without CUDA (--without-cuda): unit tests"
	rm -rf "$dir" && mkdir -p "$dir"
	git ls-files -z | xargs -0 cp --parents -t "$dir"
	if ! (cd "$dir" && ./autogen.sh >/dev/null 2>&1 &&
		./configure -q --without-cuda --enable-werror &&
		grep -q '#undef HAVE_CUDA' config.h &&
		make -s -j"$(nproc)" >/dev/null); then
		echo "build without CUDA failed"; add 0 1 0; return
	fi
	# shellcheck disable=SC2016 # make expands it
	(cd "$dir" && make -s check TESTS='$(unit_tests)' >/dev/null 2>&1)
	rc=$?
	for log in "$dir"/tests/unit/test_*.log; do
		p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
		f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
		echo "$(basename "$log" .log): ${p:-0} passed, ${f:-0} failed"
		add "${p:-0}" "${f:-0}" 0
	done
	[[ $rc -eq 0 ]] || { echo "unit tests failed without CUDA"; add 0 1 0; }
}

fuzz_pass() {
	echo "== fuzz (libFuzzer, ${RDP_FUZZ_SECONDS:-60} s per target)"
	local out rc
	out=$(scripts/fuzz.sh "${RDP_FUZZ_SECONDS:-60}" 2>&1)
	rc=$?
	echo "$out"
	if [[ $rc -eq 0 ]]; then
		add 2 0 0
	else
		add 0 1 0
	fi
}

make -s check >/dev/null 2>&1
count_check "$top" "build" $?
format_check
if [[ ${RDP_QUICK:-0} != 1 ]]; then
	no_cuda_pass
	sanitizer_pass
	fuzz_pass
fi

echo "$pass passed, $fail failed, $skip skipped"
[[ $fail -eq 0 ]]
