#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# A cluster mesh end to end on a fresh Debian 12 machine, as root: install,
# build with MPI, bring up four Soft-RoCE devices (each standing for one
# node), run a 4-node pairwise write_bw mesh under mpirun, print the matrix
# and the outliers. mesh.json and the other files go to DIR.
# Usage: scripts/mesh-demo.sh [DIR]   (default mesh-demo/)
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-mesh-demo}")
scripts/install-deps.sh >/dev/null
scripts/build.sh --with-mpi
mkdir -p "$out"
exec tests/softroce/rxe-run --devices 4 --timeout 900 -- \
	scripts/mesh-demo-inside.sh "$PWD" "$out"
