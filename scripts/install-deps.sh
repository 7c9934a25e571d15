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
)

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
mapfile -t need < <(missing "${BUILD_PACKAGES[@]}")
if [[ ${#need[@]} -gt 0 ]]; then
	apt-get update -q
	apt-get install -y -q --no-install-recommends "${need[@]}"
fi
tests/softroce/install-deps.sh
