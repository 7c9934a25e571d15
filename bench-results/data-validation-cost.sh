#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# What --data_validation costs: send_bw -D 2 at 64 B and 64 KiB, a plain
# run and a --data_validation run alternating, RUNS of each, one server
# for all, in one boot. Prints per run the average bandwidth, the message
# rate and, for the checked runs, the server's checking time (it checks
# SEND) from its clean verdict line.
# Run under tests/softroce/rxe-run --devices 2, from the repository top:
#   tests/softroce/rxe-run --devices 2 -- bench-results/data-validation-cost.sh $PWD [RUNS]
set -u
BUILD=$(cd "${1:?build directory}" && pwd)
RUNS=${2:-3}
DEV=$RDP_RXE_DEV0
ADDR=$RDP_RXE_ADDR0
PORT=18790
WORK=$(mktemp -d)

"$BUILD/rdmaperf-server" -d "$DEV" -p "$PORT" >"$WORK/server.log" 2>&1 &
spid=$!
for _ in $(seq 1 100); do
	grep -q listening "$WORK/server.log" && break
	sleep 0.1
done

echo "size mode run bw_avg_gbps msg_rate_mpps check_ms check_ns_per_msg"
for size in 64 65536; do
	for run in $(seq 1 "$RUNS"); do
		for mode in plain validate; do
			opt=()
			[ "$mode" = validate ] && opt=(--data_validation)
			n=$(grep -c "none corrupt" "$WORK/server.log")
			timeout 60 "$BUILD/rdmaperf" send_bw -s "$size" -D 2 \
				"${opt[@]}" --json-file "$WORK/r.json" -d "$DEV" \
				-p "$PORT" "$ADDR" >"$WORK/out" 2>&1 ||
				{ echo "$size $mode $run failed: $(tail -1 "$WORK/out")"; continue; }
			check="- -"
			if [ "$mode" = validate ]; then
				for _ in $(seq 1 50); do
					[ "$(grep -c "none corrupt" "$WORK/server.log")" -gt "$n" ] && break
					sleep 0.1
				done
				check=$(grep "none corrupt" "$WORK/server.log" | tail -1 |
					sed -E 's/.*took ([0-9.]+) ms, ([0-9]+) ns a message.*/\1 \2/')
			fi
			echo "$size $mode $run $(jq -r '.results[0] | "\(.bw_avg_gbps * 1000 | round / 1000) \(.msg_rate_mpps * 10000 | round / 10000)"' "$WORK/r.json") $check"
		done
	done
done
kill "$spid" 2>/dev/null
wait "$spid" 2>/dev/null
rm -rf "$WORK"
