/* SPDX-License-Identifier: BSD-2-Clause */
/* Everything a report reads, with nothing opened: one RoCE v2 port at
 * 200 Gb/s on each side, for the JSON and golden report tests. */
#ifndef RDMAPERF_TEST_REPORT_CTX_H
#define RDMAPERF_TEST_REPORT_CTX_H

#include <rdmaperf/clock.h>
#include <rdmaperf/counters.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/json.h>
#include <rdmaperf/placement.h>
#include <rdmaperf/report.h>

struct ctx {
	struct rdp_dev dev;
	struct rdp_conn conn;
	struct rdp_params params;
	struct rdp_decisions dec;
	struct rdp_host_info local;
	struct rdp_host_info peer_hello;
	struct rdp_peer_info peer;
	struct rdp_clock clk;
	struct rdp_placement place;
	struct rdp_ctr_pair ctr;
	struct rdp_report_info info;
};

/* Devices, GIDs, hosts and write_bw parameters; info points at them,
 * with no placement, counters or decisions, and ops as given. */
void ctx_init_ops(struct ctx *c, const struct rdp_bench_ops *ops);

/* The document as rdp_json_write() puts it; NULL on failure. */
char *ctx_json_text(const struct rdp_json *j);

#endif /* RDMAPERF_TEST_REPORT_CTX_H */
