/* SPDX-License-Identifier: BSD-2-Clause */
/* RDMA READ bandwidth: the client reads the server's send slots with as
 * many reads in flight as -o and the device allow; it checks the data. */
#include "bench_int.h"

static int client(struct rdp_run *run, struct rdp_result *res)
{
	return rdp_bw_client(run, res, RDP_VERB_READ);
}

static int validate(const struct rdp_params *p, char *why, size_t len)
{
	return rdp_check_size(p, "read_bw", why, len);
}

const struct rdp_bench_ops rdp_bench_read_bw = {
	.name = "read_bw",
	.title = "RDMA READ bandwidth",
	.kind = RDP_BENCH_BW,
	.flags = RDP_BENCH_EXPOSE_TX,
	.default_size = 65536,
	.check_unit = "bytes verified after the run",
	.validate = validate,
	.client = client,
	.server = rdp_passive_server,
	.verify = rdp_verify_client_rx,
};
