#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# A made-up leaf-spine fabric as a --topology list (NODE RAIL SWITCH PORT,
# SWITCH PORT SWITCH PORT), for sizing plans and timing the loader at
# cluster scale: N nodes named node0..., R rails, P nodes a leaf (rail r's
# leaves leafG-r), each leaf joined once to each of rail r's U spines
# (spine<r>-<s>; a leaf's uplinks on ports P+1...).
# Usage: scripts/gen-fabric.sh N [RAILS] [PER_LEAF] [UPLINKS] >FILE
#   defaults: 8 rails, 32 nodes a leaf, 16 uplinks a leaf.
set -euo pipefail
usage() {
	echo "usage: $0 N [RAILS] [PER_LEAF] [UPLINKS] (numbers from 1)" >&2
	exit 2
}
[[ $# -ge 1 && $# -le 4 ]] || usage
for v in "$@"; do
	[[ $v =~ ^[1-9][0-9]*$ ]] || usage
done
exec awk -v n="$1" -v rails="${2:-8}" -v per="${3:-32}" -v up="${4:-16}" '
BEGIN {
	leaves = int((n + per - 1) / per)
	for (i = 0; i < n; i++) {
		g = int(i / per)
		for (r = 0; r < rails; r++)
			printf "node%d %d leaf%d-%d %d\n", i, r, g, r, 1 + i % per
	}
	for (g = 0; g < leaves; g++)
		for (r = 0; r < rails; r++)
			for (s = 0; s < up; s++)
				printf "leaf%d-%d %d spine%d-%d %d\n", g, r,
				       per + 1 + s, r, s, 1 + g
}'
