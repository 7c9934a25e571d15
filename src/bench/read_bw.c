/* SPDX-License-Identifier: BSD-2-Clause */
/* RDMA READ bandwidth: the client reads the server's send slots with as
 * many reads in flight as -o and the device allow; it checks the data. */
#include "bench_int.h"

const struct rdp_bench_ops rdp_bench_read_bw = {
	.name = "read_bw",
	.title = "RDMA READ bandwidth",
	.kind = RDP_BENCH_BW,
	.verb = RDP_VERB_READ,
	.flags = RDP_BENCH_EXPOSE_TX | RDP_BENCH_BIDIR | RDP_BENCH_RD_WINDOW |
		 RDP_BENCH_BOUNCE | RDP_BENCH_BOUNCE_BIDIR |
		 RDP_BENCH_PT_BIDIR | RDP_BENCH_EVENTS | RDP_BENCH_VALIDATE |
		 RDP_BENCH_NULL_MR,
	.default_size = 65536,
	.check_unit = "bytes verified after the run",
	.decide = rdp_bw_decide,
	.validate = rdp_check_size,
	.client = rdp_bw_client,
	.server = rdp_bw_server,
	.verify = rdp_verify_data_rx,
};
