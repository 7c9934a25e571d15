/* SPDX-License-Identifier: BSD-2-Clause */
/* The client's report sinks: its own, and the adaptive line of
 * --time-per-point. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client_int.h"
#include <rdmaperf/health.h>
#include <rdmaperf/json.h>
#include <rdmaperf/log.h>
#include <rdmaperf/metrics.h>
#include <rdmaperf/report.h>
#include <rdmaperf/sink.h>

/* --time-per-point: how each point's batches went, under its row. */
struct adapt_sink {
	struct rdp_report_sink base; /* first */
	const struct client *c;
};

static int adapt_point(struct rdp_report_sink *s,
		       const struct rdp_report_info *in,
		       const struct rdp_result *r)
{
	const struct client *c = ((struct adapt_sink *)s)->c;

	(void)in;
	(void)r;
	rdp_sweep_report(&c->adapt, c->s.text, rdp_json_sink_doc(c->json));
	return 0;
}

static void adapt_destroy(struct rdp_report_sink *s)
{
	free(s);
}

static const struct rdp_report_sink_ops adapt_ops = {
	.name = "adaptive",
	.point = adapt_point,
	.destroy = adapt_destroy,
};

static int add_adapt_sink(struct client *c)
{
	struct adapt_sink *a = calloc(1, sizeof(*a));

	if (!a)
		return -ENOMEM;
	a->base.ops = &adapt_ops;
	a->c = c;
	return rdp_sinks_add(&c->s.sinks, &a->base);
}

/* The link's health after the thresholds (it adds to their count), with
 * --soak's record when the run is one. */
static int add_health_sink(struct client *c)
{
	struct rdp_health_sink_cfg cfg = {
		.text = c->s.text,
		.json = c->json,
	};
	struct rdp_report_sink *s;
	int ret = 0;

	if (c->s.o->report.soak_s > 0)
		ret = rdp_soak_create(c->s.o, &c->verdict, c->s.dev, c->s.text,
				      &c->soak);
	if (!ret && c->soak)
		cfg.soak = rdp_soak_record(c->soak);
	if (!ret)
		ret = rdp_health_sink_create(&cfg, &s);
	if (!ret)
		ret = rdp_sinks_add(&c->s.sinks, s);
	return ret;
}

static const enum rdp_figure figure_of[] = {
	[RDP_OUTPUT_BW] = RDP_FIGURE_BW,
	[RDP_OUTPUT_MSGRATE] = RDP_FIGURE_MSGRATE,
	[RDP_OUTPUT_LAT] = RDP_FIGURE_LAT,
};

int rdp_client_sinks(struct client *c)
{
	const struct rdp_opts *o = c->s.o;
	struct rdp_text_sink_cfg text = {
		.cpu_util = o->report.cpu_util,
		.per_qp = o->report.per_qp,
		.per_port = o->report.per_port,
		.histogram = o->report.histogram,
		.rate = 1,
	};
	struct rdp_json_sink_cfg js = {
		.out = o->report.json ? stdout : NULL,
		.compact = o->report.live,
		.file = o->report.json_file,
		.plot_file = o->limits.plot_file,
		.per_qp = o->report.per_qp,
		.per_port = o->report.per_port,
	};
	struct rdp_report_sink *s;
	int ret;

	ret = rdp_text_sink_create(c->s.text, &text, &s);
	if (!ret)
		ret = rdp_sinks_add(&c->s.sinks, s);
	if (!ret && o->report.output != RDP_OUTPUT_REPORT) {
		ret = rdp_figure_sink_create(stdout,
					     figure_of[o->report.output],
					     o->report.gbits, &s);
		if (!ret)
			ret = rdp_sinks_add(&c->s.sinks, s);
	}
	if (!ret && (o->report.json || o->report.json_file[0] ||
		     o->limits.plot_file[0] || c->want)) {
		ret = rdp_json_sink_create(&js, &c->json);
		if (!ret)
			ret = rdp_sinks_add(&c->s.sinks, c->json);
		if (ret)
			c->json = NULL;
	}
	if (!ret)
		ret = rdp_verdict_sink_create(&c->verdict, c->s.text, c->json,
					      &s);
	if (!ret)
		ret = rdp_sinks_add(&c->s.sinks, s);
	if (!ret)
		ret = add_health_sink(c);
	if (!ret)
		ret = add_adapt_sink(c);
	/* Last: its end reads every failure the sinks before it counted. */
	if (!ret && o->report.metrics_file[0]) {
		ret = rdp_metrics_sink_create(o->report.metrics_file, &s);
		if (!ret)
			ret = rdp_sinks_add(&c->s.sinks, s);
	}
	if (ret)
		rdp_err("set up the reports: %s", strerror(-ret));
	return ret;
}
