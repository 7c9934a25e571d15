/* SPDX-License-Identifier: BSD-2-Clause */
/* Atomic latency: one fetch-and-add (or compare-and-swap) at a time; the
 * figure is the full round trip. */
#include <errno.h>
#include <stdio.h>

#include "bench_int.h"

static int client(struct rdp_run *run, struct rdp_result *res)
{
	return rdp_rtt_client(run, res, RDP_VERB_ATOMIC);
}

static int validate(const struct rdp_params *p, char *why, size_t len)
{
	if (p->size_bytes != 8) {
		snprintf(why, len, "atomics move 8 bytes: drop -s or use -s 8");
		return -EINVAL;
	}
	return rdp_check_one_qp(p, "atomic_lat", why, len);
}

const struct rdp_bench_ops rdp_bench_atomic_lat = {
	.name = "atomic_lat",
	.title = "atomic latency",
	.kind = RDP_BENCH_LAT,
	.lat_note = "round-trip latency of each atomic (not halved)",
	.default_size = 8,
	.check_unit = "atomic operations counted in the server's counters",
	.decide = rdp_rtt_decide,
	.validate = validate,
	.client = client,
	.server = rdp_passive_server,
	.verify = rdp_verify_atomic,
};
