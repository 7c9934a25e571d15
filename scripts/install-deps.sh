#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Install what building and testing rdmaperf needs on Debian 12, as root:
# the toolchain and -dev packages, then the Soft-RoCE test bed's packages.
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD_PACKAGES=(
	build-essential autoconf automake libtool pkg-config
	libibverbs-dev librdmacm-dev libnuma-dev libhwloc-dev
	libcmocka-dev libjansson-dev jq clang-format clang libclang-rt-14-dev
	gnuplot-nox libopenmpi-dev openmpi-bin
	libssl-dev libsodium-dev
)

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

if [[ $(id -u) -ne 0 ]]; then
	echo "install-deps.sh: run as root (apt-get installs packages)" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
mapfile -t need < <(missing "${BUILD_PACKAGES[@]}" "${PACKAGING_PACKAGES[@]}")
if [[ ${#need[@]} -gt 0 ]]; then
	apt-get update -q
	apt-get install -y -q --no-install-recommends "${need[@]}"
fi
mapfile -t need < <(missing "${SLURM_PACKAGES[@]}")
if [[ ${#need[@]} -gt 0 ]]; then
	apt-get update -q
	# policy-rc.d 101: "do not start", for the length of this install.
	made_policy=''
	if [[ ! -e /usr/sbin/policy-rc.d ]]; then
		printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
		chmod 755 /usr/sbin/policy-rc.d
		made_policy=1
		trap 'rm -f /usr/sbin/policy-rc.d' EXIT
	fi
	apt-get install -y -q --no-install-recommends "${need[@]}"
	if [[ -n $made_policy ]]; then
		rm -f /usr/sbin/policy-rc.d
		trap - EXIT
	fi
	if command -v systemctl >/dev/null; then
		systemctl disable "${SLURM_SERVICES[@]}" >/dev/null 2>&1 || true
	fi
fi
tests/softroce/install-deps.sh
