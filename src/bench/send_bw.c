/* SPDX-License-Identifier: BSD-2-Clause */
/* SEND bandwidth: the client sends with a window in flight; the server
 * keeps its receive queues full and counts what arrives. */
#include "bench_int.h"

static int client(struct rdp_run *run, struct rdp_result *res)
{
	return rdp_bw_client(run, res, RDP_VERB_SEND);
}

static int prepare(struct rdp_run *run)
{
	return run->side == RDP_SIDE_SERVER ? rdp_post_receives(run) : 0;
}

static void decide(const struct rdp_params *p, const struct rdp_conn *conn,
		   struct rdp_decisions *d)
{
	rdp_bw_decide(p, conn, RDP_VERB_SEND, d);
}

static int validate(const struct rdp_params *p, char *why, size_t len)
{
	return rdp_check_size(p, "send_bw", why, len);
}

const struct rdp_bench_ops rdp_bench_send_bw = {
	.name = "send_bw",
	.title = "SEND bandwidth",
	.kind = RDP_BENCH_BW,
	.flags = RDP_BENCH_RECV | RDP_BENCH_BOUNCE,
	.default_size = 65536,
	.check_unit = "bytes verified after the run",
	.decide = decide,
	.validate = validate,
	.prepare = prepare,
	.client = client,
	.server = rdp_bw_server_recv,
	.verify = rdp_verify_server_rx,
};
