/* SPDX-License-Identifier: BSD-2-Clause */
/* Atomic bandwidth: fetch-and-add (or compare-and-swap with -A) on one
 * 64-bit counter per QP in the server's memory; the counters must add up
 * to the number of operations posted. */
#include <errno.h>
#include <stdio.h>

#include "bench_int.h"

static int client(struct rdp_run *run, struct rdp_result *res)
{
	return rdp_bw_client(run, res, RDP_VERB_ATOMIC);
}

static void decide(const struct rdp_params *p, const struct rdp_conn *conn,
		   struct rdp_decisions *d)
{
	rdp_bw_decide(p, conn, RDP_VERB_ATOMIC, d);
}

static int validate(const struct rdp_params *p, char *why, size_t len)
{
	if (p->size_bytes != 8) {
		snprintf(why, len, "atomics move 8 bytes: drop -s or use -s 8");
		return -EINVAL;
	}
	return 0;
}

const struct rdp_bench_ops rdp_bench_atomic_bw = {
	.name = "atomic_bw",
	.title = "atomic bandwidth",
	.kind = RDP_BENCH_BW,
	.flags = RDP_BENCH_RD_WINDOW,
	.default_size = 8,
	.check_unit = "atomic operations counted in the server's counters",
	.decide = decide,
	.validate = validate,
	.client = client,
	.server = rdp_passive_server,
	.verify = rdp_verify_atomic,
};
