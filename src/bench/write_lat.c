/* SPDX-License-Identifier: BSD-2-Clause */
/* RDMA WRITE latency: ping-pong of writes, each side polling the last byte
 * of its receive slot (with --write_with_imm, waiting for the receive
 * completion each write brings, then reading it); one-way latency is half
 * the round trip. The loops are the ping-pong engine's (pingpong.c). */
#include "bench_int.h"
#include <rdmaperf/engine.h>

/* --write_with_imm: both sides receive a completion per write. */
static int prepare(struct rdp_run *run)
{
	return run->params->flags & RDP_PARAM_WRITE_IMM ? rdp_post_receives(run)
							: 0;
}

/* Signal often enough that the send queue never fills. */
static void decide(const struct rdp_bench_ops *ops, const struct rdp_params *p,
		   const struct rdp_conn *conn, struct rdp_decisions *d)
{
	(void)ops;
	d->window = p->tx_depth;
	d->signal_every = p->tx_depth / 2 ? p->tx_depth / 2 : 1;
	if (p->cq_mod && p->cq_mod < d->signal_every)
		d->signal_every = p->cq_mod;
	d->inline_used = p->size_bytes <= conn->max_inline_bytes;
}

const struct rdp_bench_ops rdp_bench_write_lat = {
	.name = "write_lat",
	.title = "RDMA WRITE latency",
	.kind = RDP_BENCH_LAT,
	.verb = RDP_VERB_WRITE,
	.flags = RDP_BENCH_INLINE | RDP_BENCH_CPU_POLL | RDP_BENCH_UC |
		 RDP_BENCH_PINGPONG | RDP_BENCH_WRITE_IMM,
	.lat_note = "one-way latency: half of each measured round trip",
	.lat_kind = RDP_LAT_ONE_WAY,
	.default_size = 2,
	.tail_bytes = 1,
	.check_unit = "bytes verified after the run",
	.decide = decide,
	.validate = rdp_check_one_qp,
	.prepare = prepare,
	.client = rdp_pingpong,
	.server = rdp_pingpong,
	.verify = rdp_verify_both_rx,
};
