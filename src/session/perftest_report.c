/* SPDX-License-Identifier: BSD-2-Clause */
/* rdmaperf --perftest's report: the header, a row and what follows it, and
 * the figures of a perftest peer turned into rdmaperf's results. */
#include <stdio.h>
#include <string.h>

#include <rdmaperf/log.h>
#include <rdmaperf/metrics.h>
#include <rdmaperf/report.h>
#include <rdmaperf/sink.h>

#include "perftest_int.h"
#include "session_int.h"

/* The header both roles print, and the table's head: the text sink's
 * begin. */
static void head(FILE *f, const struct rdp_report_info *in, void *arg)
{
	const struct pt_peer *c = arg;

	fprintf(f,
		"------------------------------------------------------------"
		"---------------------------\n"
		" %s, perftest on the other side\n"
		" Local device    : %s port %u, path MTU %u\n"
		" Peer            : perftest %s %s %s %s\n"
		" QPs             : %u RC, %s\n"
		" %s\n",
		c->s->o->bench->title, c->s->dev->name, c->s->dev->port.num,
		c->peer_mtu < c->s->dev->port.active_mtu_bytes
			? c->peer_mtu
			: c->s->dev->port.active_mtu_bytes,
		c->version, peer_role(c), c->server ? "from" : "at",
		c->s->oob.peer, c->s->p.num_qps,
		c->all ? "sizes 2 B to 8 MiB (-a)" : "one size", c->head_last);
	rdp_report_access(f, in);
	if (c->s->o->bench->kind == RDP_BENCH_LAT)
		fprintf(f,
			" Latency         : %s, without warm-up (the peer "
			"counts exactly -n)\n",
			c->s->o->bench->lat_note);
	rdp_report_table_head(f, in);
	fflush(f);
}

int rdp_perftest_sinks(struct pt_peer *c)
{
	const struct rdp_report_opts *ro = &c->s->o->report;
	struct rdp_text_sink_cfg text = {
		.cpu_util = ro->cpu_util,
		.per_qp = ro->per_qp,
		.histogram = ro->histogram &&
			     c->s->o->bench->kind == RDP_BENCH_LAT,
		.head = head,
		.head_arg = c,
	};
	struct rdp_json_sink_cfg js = {
		.out = ro->json ? stdout : NULL,
		.compact = ro->live,
		.file = ro->json_file,
		.per_qp = ro->per_qp,
	};
	struct rdp_report_sink *s;
	int ret;

	ret = rdp_text_sink_create(c->s->text, &text, &s);
	if (!ret)
		ret = rdp_sinks_add(&c->s->sinks, s);
	if (!ret && (ro->json || ro->json_file[0])) {
		ret = rdp_json_sink_create(&js, &s);
		if (!ret)
			ret = rdp_sinks_add(&c->s->sinks, s);
	}
	if (!ret && ro->metrics_file[0]) {
		ret = rdp_metrics_sink_create(ro->metrics_file, &s);
		if (!ret)
			ret = rdp_sinks_add(&c->s->sinks, s);
	}
	if (ret)
		rdp_err("set up the reports: %s", strerror(-ret));
	return ret;
}

void rdp_perftest_begin(struct rdp_session_base *s)
{
	struct pt_peer *c = s->pt;

	rdp_perftest_report_head(
		c, c->server ? "Data check      : none (a perftest "
			       "client sends no pattern)"
			     : "Data check      : none (a perftest "
			       "server keeps no pattern)");
}

void rdp_perftest_report_head(struct pt_peer *c, const char *last)
{
	c->s->info = (struct rdp_report_info){
		.ops = c->s->o->bench,
		.params = &c->s->p,
		.conn = c->s->conn,
		.clk = &c->s->clk,
		.peer_addr = c->s->oob.peer,
		.gbits = c->s->o->report.gbits,
		.cycles = c->s->o->report.cycles,
		.counters = &c->s->ctr,
		.rx_from = c->server ? "the client" : "the server",
		.perftest_version = c->version,
		.perftest_role = peer_role(c),
	};
	c->head_last = last;
	rdp_sinks_begin(&c->s->sinks, &c->s->info);
}

/* A row and what follows it (counters, the other direction, intervals,
 * the histogram, every sample), then the JSON entry: the sinks' point. */
int rdp_perftest_report_point(struct pt_peer *c, const struct rdp_result *res)
{
	int ret = rdp_sinks_point(&c->s->sinks, &c->s->info, res);

	fflush(c->s->text);
	return ret;
}

void rdp_perftest_report_end(struct pt_peer *c)
{
	struct rdp_report_summary sum = { 0 }; /* no data check line */

	rdp_sinks_end(&c->s->sinks, &c->s->info, &sum);
}

/* The client's figures, in its unit (with the same --report_gbits as
 * this side: Gb/s, else MiB/s), as a result this side's table prints. */
void rdp_perftest_result_of(const struct pt_peer *c,
			    const struct rdp_pt_report *r,
			    struct rdp_result *res)
{
	double to_gbps = c->s->o->report.gbits ? 1 : 1 / rdp_report_mibps(1);

	res->size_bytes = r->size_bytes;
	res->num_qps = c->s->p.num_qps;
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
