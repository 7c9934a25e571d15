/* SPDX-License-Identifier: BSD-2-Clause */
/* RDMA READ latency: one read at a time; the figure is the full round
 * trip, since a read is a request and its response. */
#include "bench_int.h"

const struct rdp_bench_ops rdp_bench_read_lat = {
	.name = "read_lat",
	.title = "RDMA READ latency",
	.kind = RDP_BENCH_LAT,
	.verb = RDP_VERB_READ,
	.lat_note = "round-trip latency of each read (not halved)",
	.lat_kind = RDP_LAT_ROUND_TRIP,
	.flags = RDP_BENCH_EXPOSE_TX | RDP_BENCH_EVENTS | RDP_BENCH_NULL_MR,
	.default_size = 2,
	.check_unit = "bytes verified after the run",
	.decide = rdp_rtt_decide,
	.validate = rdp_check_one_qp,
	.client = rdp_rtt_client,
	.server = rdp_passive_server,
	.verify = rdp_verify_client_rx,
};
