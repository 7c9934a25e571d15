/* SPDX-License-Identifier: BSD-2-Clause */
/* RDMA WRITE bandwidth: a window of writes in flight on every QP; the
 * server lends its memory and checks what landed there. */
#include "bench_int.h"

/* --write_with_imm: each write consumes one of the server's receives. */
static int prepare(struct rdp_run *run)
{
	return run->side == RDP_SIDE_SERVER &&
			       (run->params->flags & RDP_PARAM_WRITE_IMM)
		       ? rdp_post_receives(run)
		       : 0;
}

const struct rdp_bench_ops rdp_bench_write_bw = {
	.name = "write_bw",
	.title = "RDMA WRITE bandwidth",
	.kind = RDP_BENCH_BW,
	.verb = RDP_VERB_WRITE,
	.flags = RDP_BENCH_BIDIR | RDP_BENCH_BOUNCE | RDP_BENCH_UC |
		 RDP_BENCH_BOUNCE_BIDIR | RDP_BENCH_PT_BIDIR |
		 RDP_BENCH_EVENTS | RDP_BENCH_WRITE_IMM | RDP_BENCH_REVERSED |
		 RDP_BENCH_VALIDATE | RDP_BENCH_NULL_MR,
	.default_size = 65536,
	.check_unit = "bytes verified after the run",
	.decide = rdp_bw_decide,
	.validate = rdp_check_size,
	.prepare = prepare,
	.client = rdp_bw_client,
	.server = rdp_bw_server,
	.verify = rdp_verify_data_rx,
};
