#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The whole test suite: install, build, unit tests (cmocka, through the TAP
# driver), integration tests on a real Soft-RoCE device, the cluster tier,
# then the unit tests and the Soft-RoCE groups again in an ASan+UBSan build
# and in a ThreadSanitizer build without CUDA and MPI. Beside the device
# tiers, at the lowest priority: those two builds, the format check, make
# distcheck, the Debian packages (built, linted, installed, purged), a
# short fuzzing run and the report pages in headless Chromium. Only the
# Soft-RoCE and package tiers (and installing packages) need root; without
# root they are counted skipped.
# Ends with each tier's time, every skip's reason with its count, and one
# line "N passed, N failed, N skipped" over individual cases.
# RDP_QUICK=1 skips distcheck, the packages, the other builds and the
# fuzzing, and the Soft-RoCE groups run their reduced set (one case per
# code path). With CI=true a Soft-RoCE tier that does not run is a failure,
# not a skip.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
top=$PWD

pass=0 fail=0 skip=0
SKIPS=$(mktemp) TIERS=$(mktemp)
trap 'rm -f "$SKIPS" "$TIERS"' EXIT
# add PASSED FAILED SKIPPED [REASON]: REASON is the skips' (one per skip).
add() {
	pass=$((pass + $1)); fail=$((fail + $2)); skip=$((skip + $3))
	(($3 > 0)) || return 0
	printf '%s\t%s\n' "$3" "${4:-no reason given}" >>"$SKIPS"
}

# timed NAME CMD...: runs CMD here (its counts stay), and notes its time.
timed() {
	local name=$1 t0=$SECONDS
	shift
	"$@"
	echo "$((SECONDS - t0)) $name" >>"$TIERS"
}

# The closing summary: the tiers' times in the order they ran, the skips'
# reasons with a count each, the counts.
closing() {
	echo "== summary"
	awk -v wall="$SECONDS" '{ t = $1; $1 = ""; sub(/^ /, ""); printf "tier %-56s %5d s\n", $0, t }
		END { printf "tier %-56s %5d s\n", "all (wall clock)", wall }' "$TIERS"
	if [[ -s $SKIPS ]]; then
		awk -F '\t' '{ n[$2] += $1 } END { for (r in n) printf "%d\t%s\n", n[r], r }' \
			"$SKIPS" | sort -k1,1nr -k2 | awk -F '\t' '{ printf "skipped %d x %s\n", $1, $2 }'
	fi
	echo "$pass passed, $fail failed, $skip skipped"
}

# A failure before any case ran: the summary line still ends the output.
early_failure() {
	echo "$1"
	add 0 1 0
	closing
	exit 1
}

# CI=true: the Soft-RoCE and browser tiers must run; a skip of theirs is a
# failure.
ci() {
	[[ ${CI:-} == true ]]
}

t0=$SECONDS
if [[ $(id -u) -eq 0 ]]; then
	scripts/install-deps.sh >"$top/install-deps.log" 2>&1 || {
		tail -n 20 "$top/install-deps.log"
		early_failure "dependency install failed (scripts/install-deps.sh), see $top/install-deps.log"
	}
	echo "$((SECONDS - t0)) install-deps" >>"$TIERS"
elif ci; then
	early_failure "CI=true but not root: the Soft-RoCE tiers need root (and scripts/install-deps.sh)"
else
	echo "not root: dependencies not installed (scripts/install-deps.sh needs" \
		"root); the Soft-RoCE tier needs root and is counted skipped"
fi
t0=$SECONDS
scripts/build.sh || early_failure "build failed"
echo "$((SECONDS - t0)) build" >>"$TIERS"

# Cases of each test's .trs file (automake's record: one :test-result: line
# per TAP case of a unit test, one for a script test). XFAIL counts as
# passed, XPASS and ERROR as failed.
count_trs() {
	local trs p f s
	for trs in "$@"; do
		[[ -f $trs ]] || continue
		p=$(grep -cE '^:test-result: (PASS|XFAIL)' "$trs")
		f=$(grep -cE '^:test-result: (FAIL|XPASS|ERROR)' "$trs")
		s=$(grep -cE '^:test-result: SKIP' "$trs")
		echo "$(basename "$trs" .trs): $p passed, $f failed, $s skipped"
		add "$p" "$f" 0
		((s == 0)) || skip_reasons_of "${trs%.trs}.log" "$s" \
			"$(basename "$trs" .trs)"
		((p + f + s > 0)) || { echo "  no result in $trs"; add 0 1 0; }
	done
}

# skip_reasons_of LOG N NAME: N skips, with the reasons LOG gives (TAP's
# "# SKIP why", a script's "SKIP: why"); any left without one say so.
skip_reasons_of() {
	local log=$1 n=$2 name=$3 r
	while IFS= read -r r && ((n > 0)); do
		add 0 0 1 "$name: $r"
		n=$((n - 1))
	done < <(sed -nE 's/^(ok .*# SKIP|SKIP:) *(.*)$/\2/p' "$log" 2>/dev/null)
	((n == 0)) || add 0 0 "$n" "$name: no reason in $log"
}

# The records of an earlier run (a test since dropped from TESTS, a run
# of other TESTS) must not be counted as this run's: gone before each
# `make check`.
clear_records() {
	find "$1/tests" -name '*.trs' -print0 2>/dev/null |
		while IFS= read -r -d '' trs; do
			rm -f "$trs" "${trs%.trs}.log"
		done
}

# Every test of one `make check` in directory $1 but the Soft-RoCE suite.
count_fast() {
	local trs=()
	mapfile -t trs < <(find "$1/tests" -name '*.trs' ! -name softroce.trs \
		! -name cluster.trs | sort)
	((${#trs[@]} > 0)) || { echo "no test results under $1/tests"; add 0 1 0; }
	count_trs "${trs[@]}"
}

# The Soft-RoCE tiers report their own cases in a closing line of their
# log: $3 names the tier's test (softroce, cluster).
count_softroce() {
	local log=$1/tests/integration/$3.log line p f s why n r
	echo "== $2: $4"
	if grep -q '^:test-result: SKIP' "$1/tests/integration/$3.trs" 2>/dev/null; then
		why=$(sed -n 's/^SKIP: *//p' "$log" | head -n 1)
		echo "SKIP: ${why:-no reason in $log}"
		if ci; then
			echo "CI=true: the $3 tier must run, a skip is a failure"
			add 0 1 0
		else
			add 0 0 1 "$3 tier: ${why:-no reason in $log}"
		fi
		return
	fi
	cat "$log" 2>/dev/null
	line=$(grep -E '^integration: [0-9]+ passed' "$log" 2>/dev/null | tail -1)
	if [[ -n $line ]]; then
		read -r p f s < <(echo "$line" | sed -E 's/^integration: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped.*/\1 \2 \3/')
		add "$p" "$f" 0
		# the cases' skips, by reason ("# skipped N x REASON", lib.sh)
		while read -r n r; do
			add 0 0 "$n" "$3: $r"
			s=$((s - n))
		done < <(sed -nE 's/^# skipped ([0-9]+) x (.*)$/\1 \2/p' "$log")
		((s == 0)) || add 0 0 "$s" "$3: no reason in $log"
	else
		echo "the $3 tier did not report (test bed failure?)"
		add 0 1 0
	fi
}

# Counts from one `make check` in directory $1; $2 labels them; $3 is its
# exit status; "nocluster" as $4: a build without MPI, whose cluster tier
# has nothing to run (not a skip).
count_check() {
	local dir=$1 label=$2 rc=$3 before=$fail
	echo "== $label: unit and object-code tests"
	count_fast "$dir"
	count_softroce "$dir" "$label" softroce \
		"integration tests (Soft-RoCE, needs root)"
	if [[ ${4:-} == nocluster ]]; then
		echo "== $label: cluster tier: not in this build (--without-mpi)"
	else
		count_softroce "$dir" "$label" cluster \
			"cluster tier (rdmaperf-mesh on six Soft-RoCE devices on three leaves, needs root and MPI)"
	fi
	if [[ $rc -ne 0 && $fail -eq $before ]]; then
		echo "make check failed without a failing case: see $dir/test-suite.log"
		add 0 1 0
	fi
}

format_check() {
	local bad
	echo "== format (clang-format, .clang-format)"
	if ! command -v clang-format >/dev/null; then
		echo "clang-format not installed"
		add 0 0 1 "format: clang-format not installed"; return
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

# The working tree's tracked files, copied to DIR and configured there
# with ARGS...; built with the test programs. Exit status: the build's.
build_apart() {
	local dir=$1
	shift
	rm -rf "$dir" && mkdir -p "$dir"
	git ls-files -z | xargs -0 cp --parents -t "$dir"
	(cd "$dir" && ./autogen.sh >/dev/null 2>&1 && ./configure -q "$@" &&
		make -s -j"$(nproc)" >/dev/null &&
		make -s -j"$(nproc)" check TESTS= >/dev/null 2>&1)
}

# The ASan+UBSan build, without MPI: Open MPI keeps allocations past exit
# that LeakSanitizer would report in every rank; the mesh's own code runs
# here through its unit tests (test_mesh, test_mesh_run).
ASAN_DIR=$top/build-asan
asan_build() {
	build_apart "$ASAN_DIR" --enable-sanitizers --enable-werror --without-mpi
}

# Its tests: every unit test, and the Soft-RoCE groups whose code paths
# differ (every loop, transport, -b, live runs, SRQ, threads,
# authentication, exposure, failures, RDMA CM) in their reduced set (one
# case per code path); the groups that repeat them with other figures
# and options run in the main pass only. Any report aborts the process,
# which fails its test; the Soft-RoCE guest gets the settings as RDP_*
# variables (tests/integration/lib.sh), and a case fails on any report
# in its logs.
SANITIZER_GROUPS="t_all_loops t_bidir t_transports t_live t_srq t_threads
	t_auth t_exposure t_failures t_cm"
asan_check() {
	local asan=abort_on_error=1:detect_leaks=1 rc
	local ubsan=print_stacktrace=1:halt_on_error=1
	(cd "$ASAN_DIR" && ASAN_OPTIONS=$asan UBSAN_OPTIONS=$ubsan \
		RDP_ASAN_OPTIONS=$asan RDP_UBSAN_OPTIONS=$ubsan \
		RDP_GROUPS="$SANITIZER_GROUPS" \
		RDP_QUICK=1 make -s check >/dev/null 2>&1)
	rc=$?
	count_check "$ASAN_DIR" "asan+ubsan" "$rc" nocluster
}

# The same sources configured without CUDA and without MPI, taking their
# HMAC from libsodium (the other crypto library configure offers), built
# with ThreadSanitizer: they must build without rdmaperf-mesh, and
# `rdmaperf mesh` must say how to get MPI (exit 2). One build for the
# configurations the main build leaves out, as each leaves the others'
# code alone.
TSAN_DIR=$top/build-reduced
tsan_build() {
	build_apart "$TSAN_DIR" --without-cuda --without-mpi \
		--with-crypto=libsodium --enable-sanitizers=thread --enable-werror
}

# Its tests: every unit test (the GPU option's refusal without CUDA, the
# mesh's plans, cells and files without MPI, test_auth on the second
# library, and, under ThreadSanitizer, every in-process test that runs
# threads: the server's serving and handshake threads, the gate's
# watchdog), then the Soft-RoCE groups that run threads of their own
# (--threads, the live reporter, rails), in their reduced set.
TSAN_GROUPS="t_threads t_live t_limits_rails"
tsan_check() {
	local tsan=halt_on_error=1:second_deadlock_stack=1 rc
	echo "== build without CUDA and MPI, with libsodium, under ThreadSanitizer"
	if ! grep -q '#undef HAVE_CUDA' "$TSAN_DIR/config.h" ||
		! grep -q '#define HAVE_LIBSODIUM 1' "$TSAN_DIR/config.h" ||
		[[ -e $TSAN_DIR/rdmaperf-mesh ]]; then
		echo "configured with CUDA, without libsodium, or built rdmaperf-mesh"
		add 0 1 0
	fi
	(cd "$TSAN_DIR" && ./rdmaperf mesh write_bw >/dev/null 2>&1)
	rc=$?
	if [[ $rc -ne 2 ]]; then
		echo "rdmaperf mesh without MPI: exit $rc, not 2"; add 0 1 0
	fi
	# shellcheck disable=SC2016 # make expands it
	(cd "$TSAN_DIR" && TSAN_OPTIONS=$tsan RDP_TSAN_OPTIONS=$tsan \
		RDP_GROUPS="$TSAN_GROUPS" RDP_QUICK=1 \
		make -s check TESTS='$(unit_tests) tests/integration/softroce.test' \
		>/dev/null 2>&1)
	rc=$?
	count_check "$TSAN_DIR" "tsan, no CUDA, no MPI" "$rc" nocluster
}

# The release tarball builds, installs, uninstalls and cleans apart from
# the tree (make distcheck, in a copy of the tracked files, as it runs
# beside the Soft-RoCE tiers). Its check runs the unit tests that read the
# source tree's fixtures and the checks that read the sources (what a
# tarball lacking a file would fail), not the whole unit tier again: the
# main and the sanitized builds run that. Then every tracked file but the
# few left out on purpose must be in the tarball.
DIST_TESTS="tests/unit/test_compare tests/unit/test_report tests/unit/test_topo
	tests/unit/test_opts tests/check-layers.sh tests/check-hotloop.sh"
distcheck_pass() {
	local dir=$top/build-dist log=$top/distcheck.log tests
	tests=$(tr -s ' \t\n' ' ' <<<"$DIST_TESTS")
	echo "== make distcheck (at most ${RDP_DISTCHECK_SECONDS:-1200} s; its check: $tests)"
	rm -rf "$dir" && mkdir -p "$dir"
	git ls-files -z | xargs -0 cp --parents -t "$dir"
	if (cd "$dir" && ./autogen.sh >/dev/null 2>&1 && ./configure -q &&
		timeout "${RDP_DISTCHECK_SECONDS:-1200}" \
			make -s distcheck TESTS="$tests") >"$log" 2>&1; then
		grep -E 'archives ready for distribution' -A1 "$log" | tail -1
		add 1 0 0
		dist_has_files "$dir"
	else
		echo "distcheck failed, see $log:"; tail -n 20 "$log"
		# Which tests failed, and their failing cases.
		find "$dir"/rdmaperf-*/_build -name '*.log' ! -name 'test-suite.log' \
			-exec grep -lE '^(not ok|FAIL|ERROR)' {} + 2>/dev/null |
			while read -r f; do
				echo "-- $f"; grep -E -B2 -A8 '^(not ok|FAIL|ERROR)' "$f" | head -n 40
			done
		add 0 1 0
	fi
}

# Every tracked file is in the release tarball (Makefile.am's EXTRA_DIST
# and sources lists) but .gitignore and the recorded benchmark results: a
# run.sh there that sources a file left out, or a unit test's fixture
# left out, fails only where someone builds from the tarball.
dist_has_files() {
	local tar missing
	tar=$(find "$1" -maxdepth 1 -name 'rdmaperf-*.tar.gz' | head -n 1)
	[[ -n $tar ]] || { echo "no rdmaperf-*.tar.gz after distcheck"; add 0 1 0; return; }
	missing=$(comm -23 <(git ls-files | grep -vE '^(\.gitignore|bench-results/)' | sort) \
		<(tar -tzf "$tar" | sed 's|^[^/]*/||' | sort))
	if [[ -z $missing ]]; then
		echo "${tar##*/}: every tracked file but .gitignore and bench-results/"
		add 1 0 0
	else
		echo "${tar##*/} lacks (add to EXTRA_DIST in Makefile.am):" \
			"$(tr '\n' ' ' <<<"$missing")"
		add 0 1 0
	fi
}

# The Debian packages, built from the tracked files as a user would
# (dpkg-buildpackage; their own unit test run is left out, the builds
# above run the same tests), checked with lintian, installed, their
# programs, manual page, service unit and completion checked, and purged:
# nothing after this tier runs the installed programs. Needs root (dpkg -i).
package_pass() {
	local dir=$top/build-deb start=$SECONDS debs rc
	echo "== Debian packages: build, lintian, install, unit, completion, purge"
	if [[ $(id -u) -ne 0 ]]; then
		echo "not root: the packages cannot be installed (dpkg -i needs root)"
		add 0 0 1 "packages: not root (dpkg -i needs root)"; return
	fi
	rm -rf "$dir" && mkdir -p "$dir/src"
	git ls-files -z | xargs -0 cp --parents -t "$dir/src"
	if ! (cd "$dir/src" && DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" \
		dpkg-buildpackage -us -uc -b -Pnocheck >"$dir/build.log" 2>&1); then
		echo "package build failed, see $dir/build.log:"
		tail -n 20 "$dir/build.log"; add 0 1 0; return
	fi
	mapfile -t debs < <(find "$dir" -maxdepth 1 -name '*.deb' \
		! -name '*-dbgsym_*' | sort)
	echo "built:" "${debs[@]##*/}"; add 1 0 0
	package_lint "$dir"
	if dpkg -i "${debs[@]}" >"$dir/install.log" 2>&1; then
		package_checks
	else
		echo "dpkg -i failed:"; tail -n 20 "$dir/install.log"; add 0 1 0
	fi
	package_purge
	echo "packaging tier: $((SECONDS - start)) s"
}

# lintian on the .changes: no error and no warning (info lines pass).
package_lint() {
	local out rc
	out=$(lintian --fail-on error,warning "$1"/*.changes 2>&1)
	rc=$?
	if [[ $rc -eq 0 ]] && ! grep -qE '^[EW]: ' <<<"$out"; then
		echo "lintian: no errors, no warnings"; add 1 0 0
	else
		echo "lintian:"; grep -E '^[EW]: ' <<<"$out" || echo "$out"
		add 0 1 0
	fi
}

# Each check of the installed packages is one case.
package_checks() {
	local ver out secret=/etc/rdmaperf/auth-secret unit man=yes
	local comp=/usr/share/bash-completion/completions
	unit=/lib/systemd/system/rdmaperf-server.service
	if [[ $(stat -c '%a %U' "$secret" 2>/dev/null) == "600 root" ]] &&
		[[ $(base64 -d "$secret" 2>/dev/null | wc -c) -eq 32 ]]; then
		echo "installed; $secret: 32 random bytes, mode 0600, root"; add 1 0 0
	else
		echo "installed, but $secret is not 32 bytes, mode 0600, root"
		add 0 1 0
	fi
	ver=$(dpkg-query -W -f='${Version}' rdmaperf)
	out=$(/usr/bin/rdmaperf --version 2>&1)
	if [[ $out == "rdmaperf ${ver%%-*}" ]]; then
		echo "/usr/bin/rdmaperf --version: $out"; add 1 0 0
	else
		echo "/usr/bin/rdmaperf --version: '$out', package $ver"; add 0 1 0
	fi
	# Images that leave out documentation (dpkg path-exclude) have no
	# manual pages to find, nor for systemd-analyze to check.
	if grep -qs '^path-exclude=/usr/share/man' /etc/dpkg/dpkg.cfg.d/*; then
		echo "man -w: this system's dpkg leaves out manual pages (path-exclude)"
		add 0 0 1 "packages: man -w: dpkg leaves out manual pages (path-exclude)"
		man=no
	elif out=$(man -w rdmaperf 2>&1) && man -w rdmaperf-server >/dev/null 2>&1; then
		echo "man -w rdmaperf: $out"; add 1 0 0
	else
		echo "man -w rdmaperf: $out"; add 0 1 0
	fi
	# A warning about the unit (an unknown setting, say) fails it too.
	if out=$(systemd-analyze verify --man="$man" "$unit" 2>&1) &&
		! grep -q rdmaperf-server <<<"$out"; then
		echo "systemd-analyze verify $unit: clean"; add 1 0 0
	else
		echo "systemd-analyze verify $unit:"; echo "$out"; add 0 1 0
	fi
	out=$(systemd-analyze security --offline=yes "$unit" 2>&1 |
		sed -n 's/.*Overall exposure level for [^:]*: //p')
	if awk -v s="${out%% *}" 'BEGIN { exit !(s != "" && s < 5.0) }'; then
		echo "systemd-analyze security: exposure $out"; add 1 0 0
	else
		echo "systemd-analyze security: exposure '$out', not below 5.0"
		add 0 1 0
	fi
	# The last line: what completing the word offers.
	# shellcheck disable=SC2016 # for the inner bash
	out=$(bash -c 'source "$1" && complete -p rdmaperf rdmaperf-server &&
		COMP_WORDS=(rdmaperf write_bw --rep) COMP_CWORD=2 && _rdmaperf &&
		echo "${COMPREPLY[*]}"' _ "$comp/rdmaperf" 2>&1)
	if [[ -L $comp/rdmaperf-server && -f $comp/rdmaperf-server ]] &&
		[[ " ${out##*$'\n'} " == *" --report_gbits "* ]]; then
		echo "completion: rdmaperf write_bw --rep<TAB> offers ${out##*$'\n'}"
		add 1 0 0
	else
		echo "completion in $comp: rdmaperf write_bw --rep<TAB>: $out"
		add 0 1 0
	fi
}

# Purge both packages; the programs and the secret must be gone.
package_purge() {
	dpkg --purge rdmaperf-mesh rdmaperf >/dev/null 2>&1
	if [[ ! -e /usr/bin/rdmaperf && ! -e /etc/rdmaperf ]] &&
		! dpkg-query -W rdmaperf >/dev/null 2>&1; then
		echo "purged: programs and /etc/rdmaperf gone"; add 1 0 0
	else
		echo "dpkg --purge left rdmaperf behind"; add 0 1 0
	fi
}

# One case per fuzz target (scripts/fuzz.sh prints "fuzz_T: N s" as each
# starts and "fuzz_T: FAILED" for each that found a crash); a build that
# failed is one failure.
fuzz_pass() {
	echo "== fuzz (libFuzzer, ${RDP_FUZZ_SECONDS:-20} s per target)"
	local out rc ran failed
	out=$(scripts/fuzz.sh "${RDP_FUZZ_SECONDS:-20}" 2>&1)
	rc=$?
	echo "$out"
	ran=$(grep -cE '^fuzz_[a-z_]+: [0-9]+ s$' <<<"$out")
	failed=$(grep -cE '^fuzz_[a-z_]+: FAILED' <<<"$out")
	if ((ran == 0)); then
		add 0 1 0
	elif [[ $rc -ne 0 && $failed -eq 0 ]]; then
		echo "fuzz.sh: exit $rc without a failed target"
		add $((ran - failed)) 1 0
	else
		add $((ran - failed)) "$failed" 0
	fi
}

# The main build's `make check` in three runs, one per tier, each timed:
# every test but the Soft-RoCE ones (TESTS as Makefile.am lists them),
# then the Soft-RoCE suite, then the cluster tier; counted together.
# shellcheck disable=SC2016 # make expands it
fast_tests() {
	printf 'rdp-print-tests:\n\t@echo $(TESTS)\n' |
		make -s -f Makefile -f - rdp-print-tests | tr ' ' '\n' |
		grep -vE '^$|^tests/integration/(softroce|cluster)\.test$' | tr '\n' ' '
}

check_tier() {
	make -s check TESTS="$1" >/dev/null 2>&1 || main_rc=1
}

# Work that needs no device runs beside the device tiers, at the lowest
# CPU and I/O priority, so that the emulated guest (about 1.2 of the 2
# cores) keeps its share: the two sanitizer builds first (the sanitized
# device runs wait for them after the cluster tier), then the format
# check, distcheck, the packages and the fuzzing. Each step keeps its
# output, counts and time in $BESIDE; they join the summary, in order,
# once all have ended.
BESIDE=$(mktemp -d)
trap 'rm -rf "$SKIPS" "$TIERS" "$BESIDE"' EXIT
# beside_step KEY TITLE CMD...
beside_step() {
	local key=$1 title=$2 t0=$SECONDS
	shift 2
	pass=0 fail=0 skip=0
	"$@" >"$BESIDE/$key.log" 2>&1
	echo "$pass $fail $skip" >"$BESIDE/$key.counts"
	echo "$((SECONDS - t0)) $title (beside the device tiers)" >"$BESIDE/$key.time"
	echo "$key" >>"$BESIDE/order"
}

# build_step KEY: KEY_build, marked KEY.ok or KEY.failed when it ends.
build_step() {
	if "${1}_build"; then
		echo "$1: built"; touch "$BESIDE/$1.ok"
	else
		echo "$1: build failed"; add 0 1 0; touch "$BESIDE/$1.failed"
	fi
}

# The report pages in headless Chromium (tests/browser/report.sh): its
# cases counted, its skip (no browser) with the reason. With an argument,
# the pages of the documents that real runs on the Soft-RoCE bed left in
# that folder (a sweep, a latency run, a mesh), loaded after the device
# tiers; outside CI, a bed that did not leave all of them is a skip with
# the reason.
browser_pass() {
	local out rc p f k bed=${1:-}
	if [[ -z $bed ]]; then
		echo "== report pages in headless Chromium (tests/browser/report.sh)"
		out=$(tests/browser/report.sh "$top" "$top/tests/browser/out" 2>&1)
	else
		echo "== report pages of the bed's runs in headless Chromium"
		if ! ci; then
			for k in sweep lat mesh; do
				[[ -s $bed/$k.json ]] && continue
				add 0 0 1 "browser: no $k document from the Soft-RoCE bed (its tiers did not run it)"
				return
			done
		fi
		out=$(RDP_BROWSER_BED=$bed tests/browser/report.sh "$top" \
			"$top/tests/browser/out-bed" 2>&1)
	fi
	rc=$?
	echo "$out"
	if [[ $rc -eq 77 ]]; then
		if ci; then
			echo "CI=true: the browser tier must run (scripts/install-deps.sh installs chromium), a skip is a failure"
			add 0 1 0
		else
			add 0 0 1 "browser: $(sed -n 's/^SKIP: //p' <<<"$out" | head -n 1)"
		fi
		return
	fi
	p=$(grep -c '^ok ' <<<"$out")
	f=$(grep -c '^not ok ' <<<"$out")
	((rc == 0 || f > 0)) || f=1
	add "$p" "$f" 0
}

# The --metrics files that real runs on the Soft-RoCE bed left in $1 (a
# write_bw sweep's, a 4-node mesh's), read here by prometheus_client's
# OpenMetrics parser (tests/unit/check-metrics.sh), each with a family it
# must have; the bed checked their samples. Outside CI, a file the bed did
# not leave, or no parser, is a skip with the reason.
metrics_pass() {
	local bed=$1 k fam out rc
	echo "== the bed's --metrics files, read by the OpenMetrics parser"
	for k in run:rdmaperf_bandwidth_bytes_per_second mesh:rdmaperf_mesh_cells; do
		fam=${k#*:} k=${k%%:*}
		if [[ ! -s $bed/$k.prom ]]; then
			echo "not ok - $k.prom: the bed did not leave it"
			if ci; then add 0 1 0; else add 0 0 1 "metrics: no $k.prom from the Soft-RoCE bed (its tiers did not run it)"; fi
			continue
		fi
		out=$(tests/unit/check-metrics.sh "$bed/$k.prom" 2>&1)
		rc=$?
		if [[ $rc -eq 77 ]] && ! ci; then
			add 0 0 1 "metrics: $(tail -n 1 <<<"$out")"
		elif [[ $rc -eq 0 ]] && grep -q "^$fam " <<<"$out"; then
			echo "ok - $k.prom parses, with $fam"
			add 1 0 0
		else
			echo "not ok - $k.prom: exit $rc, no $fam: $(tail -n 1 <<<"$out")"
			add 0 1 0
		fi
	done
}

beside_chain() {
	renice -n 19 -p "$BASHPID" >/dev/null 2>&1
	ionice -c 3 -p "$BASHPID" >/dev/null 2>&1
	beside_step asan "asan+ubsan build" build_step asan
	beside_step tsan "tsan build, no CUDA, no MPI" build_step tsan
	beside_step format "format" format_check
	beside_step distcheck "distcheck" distcheck_pass
	beside_step packages "Debian packages" package_pass
	beside_step fuzz "fuzz" fuzz_pass
	beside_step browser "report pages in Chromium" browser_pass
}

# await_build KEY: 0 once KEY is built; 1 when its build failed or the
# chain ended without it.
await_build() {
	while [[ ! -e $BESIDE/$1.ok && ! -e $BESIDE/$1.failed ]] &&
		kill -0 "$CHAIN" 2>/dev/null; do
		sleep 1
	done
	[[ -e $BESIDE/$1.ok ]]
}

# The chain's steps, in order: output, counts, times.
join_chain() {
	local key p f s
	wait "$CHAIN"
	[[ -s $BESIDE/order ]] || { echo "the work beside the device tiers did not run"; add 0 1 0; return; }
	while read -r key; do
		cat "$BESIDE/$key.log"
		read -r p f s <"$BESIDE/$key.counts"
		pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
		cat "$BESIDE/$key.time" >>"$TIERS"
	done <"$BESIDE/order"
}

main_rc=0
clear_records "$top"
timed "unit and object-code tests" check_tier "$(fast_tests)"
if [[ ${RDP_QUICK:-0} != 1 ]]; then
	beside_chain &
	CHAIN=$!
fi
rm -rf "$top/tests/browser/bed"
timed "Soft-RoCE integration" check_tier tests/integration/softroce.test
timed "cluster (rdmaperf-mesh)" check_tier tests/integration/cluster.test
[[ ${RDP_QUICK:-0} == 1 ]] ||
	timed "report pages of the bed's runs in Chromium" \
		browser_pass "$top/tests/browser/bed"
[[ ${RDP_QUICK:-0} == 1 ]] ||
	timed "the bed's --metrics files, parsed" \
		metrics_pass "$top/tests/browser/bed"
count_check "$top" "build" "$main_rc"
if [[ ${RDP_QUICK:-0} != 1 ]]; then
	if await_build asan; then
		timed "asan+ubsan tests" asan_check
	else
		echo "== asan+ubsan: no build to test (see its build below)"
	fi
	if await_build tsan; then
		timed "tsan tests, no CUDA, no MPI" tsan_check
	else
		echo "== tsan: no build to test (see its build below)"
	fi
	join_chain
else
	timed "format" format_check
fi

closing
[[ $fail -eq 0 ]]
