/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Text report: header block and perftest-style result table. It reads the
 * program's own structs (peer.h, the loop's decisions) and takes the
 * moment's facts (CPU, time) as inputs, so fixed inputs print fixed text.
 *
 * Layer: report
 */
#ifndef RDMAPERF_REPORT_H
#define RDMAPERF_REPORT_H

#include <stdio.h>
#include <time.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/peer.h>

struct rdp_conn;
struct rdp_clock;
struct rdp_placement;
struct rdp_ctr_pair;

struct rdp_report_info {
	const struct rdp_bench_ops *ops;
	const struct rdp_params *params;
	const struct rdp_conn *conn;
	const struct rdp_decisions *dec;	/* the first point's */
	const struct rdp_peer_info *peer;	/* the server's side */
	const struct rdp_host_info *peer_host;	/* the server's host */
	const struct rdp_host_info *local_host; /* this host */
	const struct rdp_clock *clk;
	const char *peer_addr;
	int cpu;	/* the CPU this side runs on, -1 unknown */
	time_t now;	/* the JSON document's timestamp */
	size_t n_sizes; /* points in the sweep: sizes x QP counts */
	size_t n_qps;
	int gbits;
	int cycles; /* -C: latency in CPU cycles of clk */
	const struct rdp_placement *placement; /* this side's, NULL unknown */
	const struct rdp_ctr_pair *counters;   /* this point's, NULL none */
	const char *rx_from; /* -b: whose sends the RX line counts; NULL:
				"the server" */
	/* --perftest: the peer's version and role ("server", "client");
	 * NULL: an rdmaperf peer */
	const char *perftest_version;
	const char *perftest_role;
	/* Who measured the figures of the results added; NULL: this side */
	const char *figures_by;
	int authenticated; /* both sides proved the shared secret */
};

/* 10^9 bits per second in 2^20 bytes per second. */
double rdp_report_mibps(double gbps);

void rdp_report_header(FILE *f, const struct rdp_report_info *info);
void rdp_report_table_head(FILE *f, const struct rdp_report_info *info);
void rdp_report_row(FILE *f, const struct rdp_report_info *info,
		    const struct rdp_result *res);
void rdp_report_footer(FILE *f, const struct rdp_report_info *info);
/* --cpu_util: each side's CPU over the timed region, per message too. */
/* --report-per-qp: a bandwidth point's QPs, a row each under its row:
 * messages, average bandwidth and rate over the point's time, the QP's
 * number and flow label. */
void rdp_report_per_qp(FILE *f, const struct rdp_report_info *in,
		       const struct rdp_result *r);
/* --report-per-port: the per-QP rows of a -O point summed by the port
 * each QP used, in the order the ports first appear (per_port.c). */
#define RDP_PORTS_MAX 4
struct rdp_port_sum {
	uint32_t port;
	uint32_t first_qp, n_qps; /* the QPs on it, by index */
	uint64_t msgs, bytes;
	double bw_gbps; /* bytes over the point's elapsed time */
};
size_t rdp_result_per_port(const struct rdp_result *r, struct rdp_port_sum *out,
			   size_t max);
/* A row per port under the point's: messages, bandwidth, rate, QPs. */
void rdp_report_per_port(FILE *f, const struct rdp_report_info *in,
			 const struct rdp_result *r);
void rdp_report_cpu(FILE *f, const struct rdp_report_info *info,
		    const struct rdp_result *r);
/* --interval lines, the -H histogram and the -U samples of one point
 * (latencies in the table's unit: -C cycles). */
/* --run_infinitely: one report of the running test. */
struct rdp_live_point {
	double start_s, end_s; /* since the run began */
	uint64_t msgs;	       /* completed within it */
	uint64_t total_msgs;   /* since the run began */
	double bw_gbps;
	double msg_rate_mpps;
};
/* The text line of a live report, in the table's units. */
void rdp_report_live(FILE *f, const struct rdp_report_info *info,
		     const struct rdp_live_point *pt);
void rdp_report_intervals(FILE *f, const struct rdp_report_info *info,
			  const struct rdp_result *res);
void rdp_report_histogram(FILE *f, const struct rdp_report_info *info,
			  const struct rdp_result *res);
void rdp_report_samples(FILE *f, const struct rdp_report_info *info,
			const struct rdp_result *res);
/* -b: this side's TX and what it received (the server's TX). */
/* --rate_limit: what the point achieved, in the units asked for. */
double rdp_report_rate_achieved(const struct rdp_params *p,
				const struct rdp_result *r);
/* "none", "device", "software" */
const char *rdp_report_pacing_name(enum rdp_pacing pacing);
/* --rate_limit: asked and achieved, under the point's row. */
void rdp_report_rate(FILE *f, const struct rdp_params *p,
		     const struct rdp_result *r);
/* UC/UD SEND bandwidth: what was sent and never received. */
void rdp_report_loss(FILE *f, const struct rdp_result *r);
void rdp_report_bidir(FILE *f, const struct rdp_report_info *info,
		      const struct rdp_result *res);
/* --reversed: who sent; the row holds the server's send figures. */
void rdp_report_reversed(FILE *f, const struct rdp_result *res);
/* The non-zero counter deltas of both sides (one port seen from both ends:
 * once), then a warning line per counter that points to loss or
 * congestion (text_sys.c). */
void rdp_report_counters(FILE *f, const struct rdp_ctr_pair *p);
/* Placement of this side and the peer's, for the header (text_sys.c). */
void rdp_report_placement(FILE *f, const struct rdp_report_info *info);
/* The header's memory lines, this side and the peer's; nothing when both
 * use host memory (mem_report.c). */
void rdp_report_memory(FILE *f, const struct rdp_report_info *info);
/* The header's Access line: what each side's buffer lets its device write
 * and grants its peer in this test (mem_report.c). */
void rdp_report_access(FILE *f, const struct rdp_report_info *info);

#endif /* RDMAPERF_REPORT_H */
