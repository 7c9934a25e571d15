#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# A cluster mesh end to end on a fresh Debian 12 machine, as root: install,
# build with MPI, bring up four Soft-RoCE devices (each standing for one
# node), run a 4-node pairwise write_bw mesh under mpirun, print the matrix
# and the outliers. mesh.json and the other files go to DIR.
# Usage: scripts/mesh-demo.sh [DIR]   (default mesh-demo/)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
out=$(realpath -m "${1:-mesh-demo}")

# Whether path $1 is $2 or inside it.
under() { case $1/ in "$2"/*) return 0 ;; esac; return 1; }
# The Soft-RoCE guest mounts its own /tmp, /run and /dev/shm over this
# machine's; of those it keeps only the directory rxe-run starts in.
guest_own() { under "$1" /tmp || under "$1" /run || under "$1" /dev/shm; }

cwd=$repo
if guest_own "$out" && ! under "$out" "$repo"; then
	if under "$out" /dev/shm || { guest_own "$repo" && ! under "$repo" "$out"; }; then
		echo "mesh-demo: $out would be lost: the Soft-RoCE guest mounts its own /tmp, /run and /dev/shm; give a directory elsewhere (default ./mesh-demo)" >&2
		exit 2
	fi
	cwd=$out # rxe-run keeps the directory it starts in
fi
scripts/install-deps.sh >/dev/null
scripts/build.sh --with-mpi
mkdir -p "$out"
cd "$cwd"
exec "$repo/tests/softroce/rxe-run" --devices 4 --timeout 900 -- \
	"$repo/scripts/mesh-demo-inside.sh" "$repo" "$out"
