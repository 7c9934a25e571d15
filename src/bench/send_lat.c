/* SPDX-License-Identifier: BSD-2-Clause */
/* SEND latency: ping-pong of sends into pre-posted receives; one-way
 * latency is half the round trip. An immediate value of 1 says stop. The
 * loops are the ping-pong engine's (pingpong.c). */
#include "bench_int.h"
#include <rdmaperf/engine.h>

/* At most half the send queue between signaled sends, so it never fills. */
static void decide(const struct rdp_bench_ops *ops, const struct rdp_params *p,
		   const struct rdp_conn *conn, struct rdp_decisions *d)
{
	(void)ops;
	d->window = p->tx_depth;
	d->signal_every = p->cq_mod ? p->cq_mod : 1;
	if (d->signal_every > p->tx_depth / 2 && p->tx_depth > 1)
		d->signal_every = p->tx_depth / 2;
	d->inline_used = p->size_bytes <= conn->max_inline_bytes;
}

const struct rdp_bench_ops rdp_bench_send_lat = {
	.name = "send_lat",
	.title = "SEND latency",
	.kind = RDP_BENCH_LAT,
	.verb = RDP_VERB_SEND,
	.lat_note = "one-way latency: half of each measured round trip",
	.lat_kind = RDP_LAT_ONE_WAY,
	.flags = RDP_BENCH_RECV | RDP_BENCH_INLINE | RDP_BENCH_UC |
		 RDP_BENCH_UD | RDP_BENCH_PINGPONG | RDP_BENCH_EVENTS |
		 RDP_BENCH_SEND_IMM | RDP_BENCH_MCAST,
	.default_size = 2,
	.check_unit = "bytes verified after the run",
	.decide = decide,
	.validate = rdp_check_one_qp,
	.prepare = rdp_post_receives,
	.client = rdp_pingpong,
	.server = rdp_pingpong,
	.verify = rdp_verify_both_rx,
};
