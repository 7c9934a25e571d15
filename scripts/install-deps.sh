#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Install what building and testing rdmaperf needs on Debian 12, as root:
# the toolchain and -dev packages, then the Soft-RoCE test bed's packages.
#   scripts/install-deps.sh        everything the whole suite uses
#   scripts/install-deps.sh demo   only what scripts/demo.sh needs: the
#                                  build's required packages and the bed's
set -euo pipefail
cd "$(dirname "$0")/.."

# What configure cannot do without (configure.ac's RDP_REQUIRE_PKG and
# one crypto library) and what autogen.sh runs: enough for rdmaperf and
# rdmaperf-server. MPI, CUDA and cmocka are optional there: without them
# rdmaperf-mesh and the unit tests are not built.
DEMO_PACKAGES=(
	build-essential autoconf automake libtool pkg-config
	libibverbs-dev librdmacm-dev libnuma-dev libhwloc-dev libjansson-dev
	libssl-dev
)

BUILD_PACKAGES=(
	build-essential autoconf automake libtool pkg-config
	libibverbs-dev librdmacm-dev libnuma-dev libhwloc-dev
	libcmocka-dev libjansson-dev jq clang-format clang libclang-rt-14-dev
	gnuplot-nox libopenmpi-dev openmpi-bin
	libssl-dev libsodium-dev
)

# What the Soft-RoCE tiers run besides rdmaperf: valgrind (t_valgrind),
# python3 (the handshake peers of t_auth), iproute2 (rdma resource, ss),
# util-linux (setpriv, prlimit). The test bed's own packages (QEMU,
# rdma-core, perftest) come from tests/softroce/install-deps.sh below.
TEST_PACKAGES=(valgrind python3 iproute2 util-linux)
# The browser tier (tests/browser/report.sh): headless Chromium.
TEST_PACKAGES+=(chromium)
# The parser that reads --metrics files in test_metrics (OpenMetrics).
TEST_PACKAGES+=(python3-prometheus-client)

# The package tier: dpkg-buildpackage (debhelper's dh, autoreconf),
# lintian, the package's build dependencies that the list above lacks
# (mpi-default-dev, the architecture's MPI), man-db for man -w
# and systemd for systemd-analyze (both already on a new Debian 12 image).
PACKAGING_PACKAGES=(
	debhelper dpkg-dev fakeroot lintian man-db systemd
	mpi-default-dev
)

# The cluster tier also launches rdmaperf-mesh with srun --mpi=pmix, through
# a one-node Slurm it starts inside the test bed's guest. Their services are
# neither started nor left enabled here.
SLURM_PACKAGES=(slurmd slurmctld slurm-client)
SLURM_SERVICES=(slurmd.service slurmctld.service munge.service)

missing() {
	local pkg
	for pkg in "$@"; do
		dpkg-query -W -f='${db:Status-Status}\n' "$pkg" 2>/dev/null |
			grep -qx installed || echo "$pkg"
	done
}

set_name=${1:-all}
case $set_name in
all | demo) ;;
*)
	echo "install-deps.sh: unknown set '$set_name': give demo (what" \
		"scripts/demo.sh needs) or nothing (everything)" >&2
	exit 2
	;;
esac
if [[ $(id -u) -ne 0 ]]; then
	echo "install-deps.sh: run as root (apt-get installs packages)" >&2
	exit 1
fi
# Whatever step fails, the last line says so (set -e ends the script).
step="checking what is installed"
made_policy=''
finish() {
	local rc=$?
	[[ -z $made_policy ]] || rm -f /usr/sbin/policy-rc.d
	[[ $rc -eq 0 ]] || echo "install-deps.sh: failed (exit $rc) while $step" >&2
}
trap finish EXIT
export DEBIAN_FRONTEND=noninteractive
if [[ $set_name == demo ]]; then
	mapfile -t need < <(missing "${DEMO_PACKAGES[@]}")
	if [[ ${#need[@]} -gt 0 ]]; then
		step="installing ${need[*]}"
		apt-get update -q
		apt-get install -y -q --no-install-recommends "${need[@]}"
	fi
	step="installing the test bed's packages (tests/softroce/install-deps.sh)"
	tests/softroce/install-deps.sh
	exit 0
fi
mapfile -t need < <(missing "${BUILD_PACKAGES[@]}" "${TEST_PACKAGES[@]}" \
	"${PACKAGING_PACKAGES[@]}")
if [[ ${#need[@]} -gt 0 ]]; then
	step="installing ${need[*]}"
	apt-get update -q
	apt-get install -y -q --no-install-recommends "${need[@]}"
fi
mapfile -t need < <(missing "${SLURM_PACKAGES[@]}")
if [[ ${#need[@]} -gt 0 ]]; then
	step="installing ${need[*]}"
	apt-get update -q
	# policy-rc.d 101: "do not start", for the length of this install.
	if [[ ! -e /usr/sbin/policy-rc.d ]]; then
		printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
		chmod 755 /usr/sbin/policy-rc.d
		made_policy=1
	fi
	apt-get install -y -q --no-install-recommends "${need[@]}"
	if [[ -n $made_policy ]]; then
		rm -f /usr/sbin/policy-rc.d
		made_policy=''
	fi
	if command -v systemctl >/dev/null; then
		systemctl disable "${SLURM_SERVICES[@]}" >/dev/null 2>&1 || true
	fi
fi
step="installing the test bed's packages (tests/softroce/install-deps.sh)"
tests/softroce/install-deps.sh
