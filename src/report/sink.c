/* SPDX-License-Identifier: BSD-2-Clause */
/* A session's list of report sinks, and the text and --output sinks: the
 * text report's lines of each point in their one order. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <rdmaperf/health.h>
#include <rdmaperf/report.h>
#include <rdmaperf/sink.h>

int rdp_sinks_add(struct rdp_report_sinks *l, struct rdp_report_sink *s)
{
	if (l->n == RDP_REPORT_SINKS_MAX) {
		if (s->ops->destroy)
			s->ops->destroy(s);
		return -ENOSPC;
	}
	l->v[l->n++] = s;
	return 0;
}

int rdp_sinks_begin(const struct rdp_report_sinks *l,
		    const struct rdp_report_info *in)
{
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < l->n; i++)
		if (l->v[i]->ops->begin)
			ret = l->v[i]->ops->begin(l->v[i], in);
	return ret;
}

void rdp_sinks_start(const struct rdp_report_sinks *l,
		     const struct rdp_report_info *in, int group)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->v[i]->ops->start)
			l->v[i]->ops->start(l->v[i], in, group);
}

int rdp_sinks_point(const struct rdp_report_sinks *l,
		    const struct rdp_report_info *in,
		    const struct rdp_result *r)
{
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < l->n; i++)
		if (l->v[i]->ops->point)
			ret = l->v[i]->ops->point(l->v[i], in, r);
	return ret;
}

void rdp_sinks_live(const struct rdp_report_sinks *l,
		    const struct rdp_report_info *in,
		    const struct rdp_live_point *pt)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->v[i]->ops->live)
			l->v[i]->ops->live(l->v[i], in, pt);
}

int rdp_sinks_end(const struct rdp_report_sinks *l,
		  const struct rdp_report_info *in,
		  struct rdp_report_summary *sum)
{
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < l->n; i++)
		if (l->v[i]->ops->end)
			ret = l->v[i]->ops->end(l->v[i], in, sum);
	return ret;
}

int rdp_sinks_close(const struct rdp_report_sinks *l,
		    const struct rdp_report_info *in)
{
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < l->n; i++)
		if (l->v[i]->ops->close)
			ret = l->v[i]->ops->close(l->v[i], in);
	return ret;
}

void rdp_sinks_free(struct rdp_report_sinks *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->v[i]->ops->destroy)
			l->v[i]->ops->destroy(l->v[i]);
	l->n = 0;
}

struct text_sink {
	struct rdp_report_sink base; /* first */
	FILE *f;
	struct rdp_text_sink_cfg cfg;
};

static int text_begin(struct rdp_report_sink *s,
		      const struct rdp_report_info *in)
{
	struct text_sink *t = (struct text_sink *)s;

	if (t->cfg.head) {
		t->cfg.head(t->f, in, t->cfg.head_arg);
		return 0;
	}
	rdp_report_header(t->f, in);
	rdp_report_table_head(t->f, in);
	return 0;
}

/* A sweep over QP counts: each count's rows under its own line. */
static void text_start(struct rdp_report_sink *s,
		       const struct rdp_report_info *in, int group)
{
	struct text_sink *t = (struct text_sink *)s;

	if (group && in->n_qps > 1)
		fprintf(t->f, " -- %u QP(s)\n", in->params->num_qps);
	fflush(t->f);
}

/* The row, then what the point has beyond it. */
static int text_point(struct rdp_report_sink *s,
		      const struct rdp_report_info *in,
		      const struct rdp_result *r)
{
	struct text_sink *t = (struct text_sink *)s;

	rdp_report_row(t->f, in, r);
	if (in->counters)
		rdp_report_counters(t->f, in->counters);
	if (t->cfg.per_qp && r->n_per_qp)
		rdp_report_per_qp(t->f, in, r);
	if (t->cfg.per_port && r->n_per_qp)
		rdp_report_per_port(t->f, in, r);
	if (t->cfg.cpu_util)
		rdp_report_cpu(t->f, in, r);
	if (t->cfg.rate && in->params->rate_milli)
		rdp_report_rate(t->f, in->params, r);
	if (r->loss_counted)
		rdp_report_loss(t->f, r);
	if (r->reversed)
		rdp_report_reversed(t->f, r);
	if (r->bidir)
		rdp_report_bidir(t->f, in, r);
	if (r->n_intervals)
		rdp_report_intervals(t->f, in, r);
	if (t->cfg.histogram)
		rdp_report_histogram(t->f, in, r);
	if (r->n_samples)
		rdp_report_samples(t->f, in, r);
	return 0;
}

static void text_live(struct rdp_report_sink *s,
		      const struct rdp_report_info *in,
		      const struct rdp_live_point *pt)
{
	rdp_report_live(((struct text_sink *)s)->f, in, pt);
}

/* --data_validation: what checking each message cost, on the side that
 * checked (the server's comes back in its RESULT). */
static void check_cost(FILE *f, const struct rdp_report_summary *sum)
{
	uint64_t ns = 0, msgs = 0;
	int server = 0;
	size_t i;

	for (i = 0; i < sum->n; i++) {
		ns += sum->points[i].check_ns;
		msgs += sum->points[i].data_checked;
		server |= sum->points[i].check_on_server;
	}
	if (!ns || !msgs)
		return;
	fprintf(f,
		" Check cost      : %.3f ms in the checks, %.0f ns a message, "
		"on the %s\n",
		(double)ns / 1e6, (double)ns / (double)msgs,
		server ? "server" : "client");
}

/* The footer and, when the points were checked, what was. */
static int text_end(struct rdp_report_sink *s, const struct rdp_report_info *in,
		    struct rdp_report_summary *sum)
{
	struct text_sink *t = (struct text_sink *)s;
	size_t i, bad = 0;

	rdp_report_footer(t->f, in);
	for (i = 0; sum->check_unit && i < sum->n; i++)
		bad += !sum->points[i].data_ok;
	if (bad)
		fprintf(t->f,
			" Data check      : FAILED at %zu of %zu point(s): "
			"the first bad byte is named above\n",
			bad, sum->n);
	else if (sum->check_unit && sum->n == 1)
		fprintf(t->f, " Data check      : ok, %llu %s\n",
			(unsigned long long)sum->data_checked, sum->check_unit);
	else if (sum->check_unit)
		fprintf(t->f,
			" Data check      : ok at all %zu points, %llu %s\n",
			sum->n, (unsigned long long)sum->data_checked,
			sum->check_unit);
	if (sum->check_unit && !bad)
		check_cost(t->f, sum);
	if (sum->signo)
		fprintf(t->f,
			" Run             : interrupted by %s after %zu of %zu "
			"points%s\n",
			rdp_report_signame(sum->signo), sum->reported,
			sum->planned,
			sum->partial
				? " (the last one measured up to the signal)"
				: "");
	fflush(t->f);
	return 0;
}

static void free_sink(struct rdp_report_sink *s)
{
	free(s);
}

static const struct rdp_report_sink_ops text_ops = {
	.name = "text",
	.begin = text_begin,
	.start = text_start,
	.point = text_point,
	.live = text_live,
	.end = text_end,
	.destroy = free_sink,
};

int rdp_text_sink_create(FILE *f, const struct rdp_text_sink_cfg *cfg,
			 struct rdp_report_sink **out)
{
	struct text_sink *t = calloc(1, sizeof(*t));

	if (!t)
		return -ENOMEM;
	t->base.ops = &text_ops;
	t->f = f;
	t->cfg = *cfg;
	*out = &t->base;
	return 0;
}

struct figure_sink {
	struct rdp_report_sink base; /* first */
	FILE *f;
	enum rdp_figure which;
	int gbits;
};

static int figure_point(struct rdp_report_sink *s,
			const struct rdp_report_info *in,
			const struct rdp_result *r)
{
	struct figure_sink *g = (struct figure_sink *)s;

	(void)in;
	switch (g->which) {
	case RDP_FIGURE_BW:
		fprintf(g->f, "%.2f\n",
			g->gbits ? r->bw_avg_gbps
				 : rdp_report_mibps(r->bw_avg_gbps));
		break;
	case RDP_FIGURE_MSGRATE:
		fprintf(g->f, "%.6f\n", r->msg_rate_mpps);
		break;
	case RDP_FIGURE_LAT:
		fprintf(g->f, "%.3f\n", r->lat.median_ns / 1e3);
		break;
	}
	return 0;
}

static const struct rdp_report_sink_ops figure_ops = {
	.name = "figure",
	.point = figure_point,
	.destroy = free_sink,
};

int rdp_figure_sink_create(FILE *f, enum rdp_figure which, int gbits,
			   struct rdp_report_sink **out)
{
	struct figure_sink *g = calloc(1, sizeof(*g));

	if (!g)
		return -ENOMEM;
	g->base.ops = &figure_ops;
	g->f = f;
	g->which = which;
	g->gbits = gbits;
	*out = &g->base;
	return 0;
}
