#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Configure and build in the source tree (warnings are errors here).
# Extra arguments go to configure. A tree configured before is configured
# again unless it was configured with these very arguments (configure's
# own record, config.status --config), and the line before the build says
# which configuration it builds.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -x configure ]] || ./autogen.sh >/dev/null
want=(--enable-werror "$@")
have=()
if [[ -f Makefile && -x config.status ]]; then
	# config.status quotes each argument for the shell
	eval "have=($(./config.status --config))"
	# -q only quiets configure; it is no part of the configuration
	for i in "${!have[@]}"; do
		case ${have[i]} in -q | --quiet | --silent) unset 'have[i]' ;; esac
	done
	have=("${have[@]}")
fi
if [[ ! -f Makefile ]]; then
	echo "build.sh: configuring: ${want[*]}"
	./configure -q "${want[@]}"
elif [[ "${have[*]}" != "${want[*]}" ]]; then
	echo "build.sh: this tree was configured with '${have[*]}'," \
		"not '${want[*]}': configuring again"
	./configure -q "${want[@]}"
else
	echo "build.sh: configured with: ${want[*]}"
fi
make -s -j"$(nproc)"
