/* SPDX-License-Identifier: BSD-2-Clause */
/* SEND bandwidth: the client sends with a window in flight; the server
 * keeps its receive queues full and counts what arrives. With -b both
 * send and receive at once. */
#include "bench_int.h"

static int prepare(struct rdp_run *run)
{
	return run->side == RDP_SIDE_SERVER ||
			       (run->params->flags & RDP_PARAM_BIDIR)
		       ? rdp_post_receives(run)
		       : 0;
}

static int server(struct rdp_run *run, struct rdp_result *res)
{
	if (!(run->params->flags & RDP_PARAM_BIDIR))
		return rdp_bw_server_recv(run, res);
	res->size_bytes = run->params->size_bytes;
	res->num_qps = run->params->num_qps;
	return rdp_bw_client(run, res);
}

const struct rdp_bench_ops rdp_bench_send_bw = {
	.name = "send_bw",
	.title = "SEND bandwidth",
	.kind = RDP_BENCH_BW,
	.verb = RDP_VERB_SEND,
	.flags = RDP_BENCH_RECV | RDP_BENCH_BOUNCE | RDP_BENCH_BIDIR |
		 RDP_BENCH_UC | RDP_BENCH_UD | RDP_BENCH_EVENTS |
		 RDP_BENCH_SEND_IMM | RDP_BENCH_REVERSED | RDP_BENCH_VALIDATE |
		 RDP_BENCH_MCAST | RDP_BENCH_PT_BIDIR,
	.default_size = 65536,
	.check_unit = "bytes verified after the run",
	.decide = rdp_bw_decide,
	.validate = rdp_check_size,
	.prepare = prepare,
	.client = rdp_bw_client,
	.server = server,
	.verify = rdp_verify_data_rx,
};
