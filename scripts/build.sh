#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Configure and build in the source tree (warnings are errors here).
# Extra arguments go to configure.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -x configure ]] || ./autogen.sh >/dev/null
if [[ ! -f Makefile ]] || [[ $# -gt 0 ]]; then
	./configure -q --enable-werror "$@"
fi
make -s -j"$(nproc)"
