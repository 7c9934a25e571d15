/* SPDX-License-Identifier: BSD-2-Clause */
/* Atomic bandwidth: fetch-and-add (or compare-and-swap with -A) on one
 * 64-bit counter per QP in the server's memory; the counters must add up
 * to the number of operations posted. With -b the server does the same to
 * the client's counters at once. */
#include "bench_int.h"

const struct rdp_bench_ops rdp_bench_atomic_bw = {
	.name = "atomic_bw",
	.title = "atomic bandwidth",
	.kind = RDP_BENCH_BW,
	.verb = RDP_VERB_ATOMIC,
	/* -b against perftest too: ib_atomic_bw -b runs read_bw's duplex
	 * sequence (a barrier, each side's run, the reports each way) */
	.flags = RDP_BENCH_RD_WINDOW | RDP_BENCH_BIDIR | RDP_BENCH_PT_BIDIR |
		 RDP_BENCH_EVENTS,
	.default_size = 8,
	.check_unit = "atomic operations counted in the server's counters",
	.decide = rdp_bw_decide,
	.validate = rdp_check_atomic,
	.client = rdp_bw_client,
	.server = rdp_bw_server,
	.verify = rdp_verify_atomic,
};
