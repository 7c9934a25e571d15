/* SPDX-License-Identifier: BSD-2-Clause */
/* rdmaperf --perftest's report: the header, a row and what follows it, and
 * the figures of a perftest peer turned into rdmaperf's results. */
#include <stdio.h>

#include <rdmaperf/json.h>
#include <rdmaperf/report.h>

#include "perftest_int.h"
#include "session_int.h"

/* The header both roles print, and the table's head; last: the header's
 * last line. */
void rdp_perftest_report_head(struct pt_peer *c, const char *last)
{
	struct rdp_report_info *in = &c->in;

	*in = (struct rdp_report_info){
		.ops = c->o->bench,
		.params = &c->p,
		.conn = c->conn,
		.clk = &c->clk,
		.peer_addr = c->oob.peer,
		.gbits = c->o->report.gbits,
		.cycles = c->o->report.cycles,
		.counters = &c->ctr,
		.rx_from = c->server ? "the client" : "the server",
		.perftest_version = c->version,
		.perftest_role = peer_role(c),
	};
	fprintf(c->text,
		"------------------------------------------------------------"
		"---------------------------\n"
		" %s, perftest on the other side\n"
		" Local device    : %s port %u, path MTU %u\n"
		" Peer            : perftest %s %s %s %s\n"
		" QPs             : %u RC, %s\n"
		" %s\n",
		c->o->bench->title, c->dev->name, c->dev->port.num,
		c->peer_mtu < c->dev->port.active_mtu_bytes
			? c->peer_mtu
			: c->dev->port.active_mtu_bytes,
		c->version, peer_role(c), c->server ? "from" : "at",
		c->oob.peer, c->p.num_qps,
		c->all ? "sizes 2 B to 8 MiB (-a)" : "one size", last);
	rdp_report_access(c->text, in);
	if (c->o->bench->kind == RDP_BENCH_LAT)
		fprintf(c->text,
			" Latency         : %s, without warm-up (the peer "
			"counts exactly -n)\n",
			c->o->bench->lat_note);
	rdp_report_table_head(c->text, in);
	fflush(c->text);
}

/* What follows a row: counters, the other direction, intervals, the
 * histogram, every sample; then the JSON entry. */
int rdp_perftest_report_point(struct pt_peer *c, const struct rdp_result *res)
{
	rdp_report_row(c->text, &c->in, res);
	if (c->ctr.have_local)
		rdp_report_counters(c->text, &c->ctr);
	if (c->o->report.cpu_util)
		rdp_report_cpu(c->text, &c->in, res);
	if (res->bidir)
		rdp_report_bidir(c->text, &c->in, res);
	if (res->n_intervals)
		rdp_report_intervals(c->text, &c->in, res);
	if (c->o->report.histogram && c->o->bench->kind == RDP_BENCH_LAT)
		rdp_report_histogram(c->text, &c->in, res);
	if (res->n_samples)
		rdp_report_samples(c->text, &c->in, res);
	fflush(c->text);
	if (!c->o->report.json && !c->o->report.json_file[0])
		return 0;
	return rdp_session_json_add(&c->json, &c->in, res);
}

/* The client's figures, in its unit (with the same --report_gbits as
 * this side: Gb/s, else MiB/s), as a result this side's table prints. */
void rdp_perftest_result_of(const struct pt_peer *c,
			    const struct rdp_pt_report *r,
			    struct rdp_result *res)
{
	double to_gbps = c->o->report.gbits ? 1 : 1 / rdp_report_mibps(1);

	res->size_bytes = r->size_bytes;
	res->num_qps = c->p.num_qps;
	res->msgs = r->iters;
	res->bw_peak_gbps = r->bw_peak * to_gbps;
	res->bw_avg_gbps = r->bw_avg * to_gbps;
	res->msg_rate_mpps = r->msg_rate_mpps;
}

/* The send_bw receiver's figures for one size, from its own count and
 * clock (as ib_send_bw's server prints them). */
void rdp_perftest_receiver_figures(const struct pt_peer *c, uint64_t size,
				   struct rdp_result *res)
{
	res->size_bytes = size;
	res->bw_avg_gbps =
		res->elapsed_ns > 0
			? (double)res->msgs * (double)size * 8 / res->elapsed_ns
			: 0;
	res->bw_peak_gbps = 0; /* not sampled: counted and timed only */
	res->msg_rate_mpps =
		res->elapsed_ns > 0 ? res->msgs * 1e3 / res->elapsed_ns : 0;
	(void)c;
}
