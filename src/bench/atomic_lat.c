/* SPDX-License-Identifier: BSD-2-Clause */
/* Atomic latency: one fetch-and-add (or compare-and-swap) at a time; the
 * figure is the full round trip. */
#include "bench_int.h"

static int validate(const struct rdp_params *p, char *why, size_t len)
{
	int ret = rdp_check_atomic(p, why, len);

	return ret ? ret : rdp_check_one_qp(p, why, len);
}

const struct rdp_bench_ops rdp_bench_atomic_lat = {
	.name = "atomic_lat",
	.title = "atomic latency",
	.kind = RDP_BENCH_LAT,
	.verb = RDP_VERB_ATOMIC,
	.lat_note = "round-trip latency of each atomic (not halved)",
	.flags = RDP_BENCH_EVENTS,
	.lat_kind = RDP_LAT_ROUND_TRIP,
	.default_size = 8,
	.check_unit = "atomic operations counted in the server's counters",
	.decide = rdp_rtt_decide,
	.validate = validate,
	.client = rdp_rtt_client,
	.server = rdp_passive_server,
	.verify = rdp_verify_atomic,
};
