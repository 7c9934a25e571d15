#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Install the Debian packages the Soft-RoCE test bed (rxe-run) needs.
# Safe to run repeatedly: it does nothing when everything is present.
set -euo pipefail

# QEMU and the initramfs tools build the guest (zstd only for kernels
# packed that way); the RDMA userland is shared from this machine into the
# guest, so it must be installed here too.
PACKAGES=(
	qemu-system-x86 busybox-static cpio xz-utils zstd kmod util-linux
	rdma-core ibverbs-providers ibverbs-utils rdmacm-utils perftest
	iproute2
)

missing_packages() {
	local pkg status
	for pkg in "${PACKAGES[@]}"; do
		status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" \
			2>/dev/null) || status=''
		[[ $status == installed ]] || echo "$pkg"
	done
}

# rxe-run resolves and downloads the kernel through the package lists, so
# they are needed even when every package is already installed.
lists_usable() {
	local pkg out
	out=$(apt-cache depends linux-image-amd64 2>/dev/null) || return 1
	[[ $out == *"Depends: linux-image-"* ]] || return 1
	for pkg in "$@"; do
		out=$(apt-cache policy "$pkg" 2>/dev/null) || return 1
		[[ $out == *"Candidate: "[!\(]* ]] || return 1
	done
}

main() {
	local missing
	if [[ $(id -u) -ne 0 ]]; then
		echo "install-deps.sh: must run as root" >&2
		exit 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	mapfile -t missing < <(missing_packages)
	if ! lists_usable "${missing[@]}"; then
		apt-get update
	fi
	if [[ ${#missing[@]} -gt 0 ]]; then
		apt-get install -y --no-install-recommends "${missing[@]}"
	fi
}

main "$@"
