/* SPDX-License-Identifier: BSD-2-Clause */
/* RDMA READ bandwidth: the client reads the server's send slots with as
 * many reads in flight as -o and the device allow; it checks the data. */
#include "bench_int.h"

static int client(struct rdp_run *run, struct rdp_result *res)
{
	return rdp_bw_client(run, res, RDP_VERB_READ);
}

static int server(struct rdp_run *run, struct rdp_result *res)
{
	return rdp_bw_server(run, res, RDP_VERB_READ);
}

/* With -b both sides wrote (or read) into each other's memory. */
static int verify(const struct rdp_run *run, uint64_t count,
		  struct rdp_data_check *r)
{
	if (run->params->flags & RDP_PARAM_BIDIR)
		return rdp_verify_both_rx(run, count, r);
	return rdp_verify_client_rx(run, count, r);
}

static void decide(const struct rdp_params *p, const struct rdp_conn *conn,
		   struct rdp_decisions *d)
{
	rdp_bw_decide(p, conn, RDP_VERB_READ, d);
}

static int validate(const struct rdp_params *p, char *why, size_t len)
{
	return rdp_check_size(p, "read_bw", why, len);
}

const struct rdp_bench_ops rdp_bench_read_bw = {
	.name = "read_bw",
	.title = "RDMA READ bandwidth",
	.kind = RDP_BENCH_BW,
	.flags = RDP_BENCH_EXPOSE_TX | RDP_BENCH_BIDIR | RDP_BENCH_RD_WINDOW |
		 RDP_BENCH_BOUNCE,
	.default_size = 65536,
	.check_unit = "bytes verified after the run",
	.decide = decide,
	.validate = validate,
	.client = client,
	.server = server,
	.verify = verify,
};
