/* SPDX-License-Identifier: BSD-2-Clause */
/* RDMA WRITE bandwidth: a window of writes in flight on every QP; the
 * server lends its memory and checks what landed there. */
#include "bench_int.h"

static int client(struct rdp_run *run, struct rdp_result *res)
{
	return rdp_bw_client(run, res, RDP_VERB_WRITE);
}

static int validate(const struct rdp_params *p, char *why, size_t len)
{
	return rdp_check_size(p, "write_bw", why, len);
}

const struct rdp_bench_ops rdp_bench_write_bw = {
	.name = "write_bw",
	.title = "RDMA WRITE bandwidth",
	.kind = RDP_BENCH_BW,
	.default_size = 65536,
	.check_unit = "bytes verified after the run",
	.validate = validate,
	.client = client,
	.server = rdp_passive_server,
	.verify = rdp_verify_server_rx,
};
