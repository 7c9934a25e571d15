#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Benchmark (not a test): a whole -a sweep of write_bw (2 B to 8 MiB), with
# rdmaperf's adaptive iterations against perftest's ib_write_bw -a, on the
# same Soft-RoCE device in one boot, alternating, several rounds. Prints
# each sweep's wall time and the run-to-run spread of every size's average
# bandwidth (coefficient of variation), then the medians and the ratios.
# Usage: scripts/bench-sweep.sh [ROUNDS] [PERFTEST_ITERS] [TIME_PER_POINT]
#   (as root from the repository top; builds first). perftest's default of
#   5000 iterations per size takes about half an hour per sweep on an
#   emulated device, hence PERFTEST_ITERS (default 100).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ${1:-} != --inside ]]; then
	scripts/install-deps.sh >/dev/null
	scripts/build.sh
	exec tests/softroce/rxe-run --timeout 3600 -- "$0" --inside \
		"${1:-3}" "${2:-100}" "${3:-1}"
fi
set +e
rounds=$2 pt_iters=$3 tpp=$4
dev=$RDP_RXE_DEV0 addr=$RDP_RXE_ADDR0 gid=$RDP_RXE_GID_INDEX0
work=$(mktemp -d)
./rdmaperf-server -d "$dev" -p 18515 >"$work/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
sleep 1

listening() {
	grep -qs "$(printf ':%04X ' "$1").* 0A " /proc/net/tcp /proc/net/tcp6
}

# "SIZE MIBPS" for every row of a report on stdin.
rows() { awk '$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ && NF >= 5 { print $1, $4 }'; }

now() { date +%s.%N; }

pt_port=18600
perftest_sweep() {
	local i spid
	pt_port=$((pt_port + 1))
	timeout 1800 ib_write_bw -a -n "$pt_iters" -d "$dev" -x "$gid" \
		-p "$pt_port" >/dev/null 2>&1 &
	spid=$!
	for i in $(seq 100); do listening "$pt_port" && break; sleep 0.1; done
	timeout 1800 ib_write_bw -a -n "$pt_iters" -d "$dev" -x "$gid" \
		-p "$pt_port" "$addr" 2>"$work/perftest.err" | rows
	wait "$spid"
}

rdmaperf_sweep() {
	timeout 1800 ./rdmaperf write_bw -a --time-per-point "$tpp" \
		--target-error 2 -d "$dev" "$addr" 2>/dev/null | rows
}

for ((r = 1; r <= rounds; r++)); do
	for tool in rdmaperf perftest; do
		t0=$(now)
		"${tool}_sweep" >"$work/$tool.$r"
		t1=$(now)
		sizes=$(wc -l <"$work/$tool.$r")
		echo "round $r $tool: $(echo "$t1 - $t0" | bc | cut -c1-6) s," \
			"$sizes sizes" >&2
		# Only complete sweeps count; an aborted one is reported.
		if [[ $sizes -eq 23 ]]; then
			echo "$tool $r $(echo "$t1 - $t0" | bc)" >>"$work/walls"
		else
			tail -n 3 "$work/perftest.err" 2>/dev/null >&2
			rm -f "$work/$tool.$r"
			echo "$tool" >>"$work/aborted"
		fi
	done
done

# Per tool: median wall time; per size the CV over rounds, then its median.
summary() {
	local tool=$1
	awk -v t="$tool" '$1 == t { print $3 }' "$work/walls" | sort -g |
		awk '{ v[NR] = $1 } END { printf "%.1f", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
	printf ' '
	cat "$work/$tool".* | awk '{ n[$1]++; s[$1] += $2; q[$1] += $2 * $2 }
		END { for (k in n) if (n[k] > 1 && s[k] > 0) {
			m = s[k] / n[k]; var = (q[k] - n[k] * m * m) / (n[k] - 1)
			if (var < 0) var = 0
			printf "%s %.4f\n", k, sqrt(var) / m } }' |
		sort -n >"$work/$tool.cv"
	awk '{ print $2 }' "$work/$tool.cv" | sort -g |
		awk '{ v[NR] = $1 } END { printf "%.1f", 100 * ((NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}

read -r rw rc <<<"$(summary rdmaperf)"
read -r pw pc <<<"$(summary perftest)"
echo "write_bw -a sweep on $dev, $rounds rounds alternating, medians"
echo "rdmaperf: write_bw -a --time-per-point $tpp --target-error 2"
echo "perftest: ib_write_bw -a -n $pt_iters ($(ib_write_bw --version 2>&1 | head -1))"
for tool in rdmaperf perftest; do
	echo "$tool: $(grep -c "^$tool " "$work/walls") complete sweeps," \
		"$(grep -c "^$tool\$" "$work/aborted" 2>/dev/null || true) aborted"
done
printf '%-34s %10s %10s %8s\n' figure rdmaperf perftest ratio
printf '%-34s %10s %10s %8.3f\n' "sweep wall time [s]" "$rw" "$pw" \
	"$(echo "$rw / $pw" | bc -l)"
printf '%-34s %10s %10s %8.3f\n' "median CV of BW over rounds [%]" "$rc" \
	"$pc" "$(echo "$rc / $pc" | bc -l)"
echo "per size CV [%] (size rdmaperf perftest):"
join <(sort -k1,1 "$work/rdmaperf.cv") <(sort -k1,1 "$work/perftest.cv") |
	sort -n | awk '{ printf "  %8s %7.1f %7.1f\n", $1, 100 * $2, 100 * $3 }'
