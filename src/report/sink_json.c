/* SPDX-License-Identifier: BSD-2-Clause */
/* The JSON document and the verdict as report sinks: the document grows a
 * results[] entry per point and is written once the run has ended; the
 * verdict marks each point and adds its outcome to that document. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rdmaperf/json.h>
#include <rdmaperf/health.h>
#include <rdmaperf/json_sys.h>
#include <rdmaperf/log.h>
#include <rdmaperf/plot.h>
#include <rdmaperf/report.h>
#include <rdmaperf/sink.h>
#include <rdmaperf/verdict.h>

struct json_sink {
	struct rdp_report_sink base; /* first */
	struct rdp_json_sink_cfg cfg;
	struct rdp_json *doc;
};

/* The document from the run's context, stamped now unless in says when. */
static int json_start(struct json_sink *j, const struct rdp_report_info *in)
{
	struct rdp_report_info at = *in;

	if (!at.now)
		at.now = time(NULL);
	return rdp_json_new(&at, &j->doc);
}

static int json_point(struct rdp_report_sink *s,
		      const struct rdp_report_info *in,
		      const struct rdp_result *r)
{
	struct json_sink *j = (struct json_sink *)s;
	int ret = 0;

	if (!j->doc)
		ret = json_start(j, in);
	if (!ret)
		ret = rdp_json_add(j->doc, in, r);
	if (!ret && j->cfg.per_qp && r->n_per_qp &&
	    json_object_set_new(rdp_json_last(j->doc), "per_qp",
				rdp_json_per_qp(r)))
		ret = -ENOMEM;
	if (!ret && j->cfg.per_port && r->n_per_qp &&
	    json_object_set_new(rdp_json_last(j->doc), "per_port",
				rdp_json_per_port(r)))
		ret = -ENOMEM;
	if (!ret && r->interrupted &&
	    json_object_set_new(rdp_json_last(j->doc), "interrupted",
				json_true()))
		ret = -ENOMEM;
	if (ret)
		rdp_err("build the JSON document: %s", strerror(-ret));
	return ret;
}

/* A run a signal ended: which, and how far it got. */
static int json_end(struct rdp_report_sink *s, const struct rdp_report_info *in,
		    struct rdp_report_summary *sum)
{
	struct json_sink *j = (struct json_sink *)s;
	json_t *o;
	int ret = 0;

	if (!sum->signo)
		return 0;
	if (!j->doc)
		ret = json_start(j, in);
	o = ret ? NULL
		: json_pack("{s:s, s:I, s:I, s:b}", "signal",
			    rdp_report_signame(sum->signo), "points_done",
			    (json_int_t)sum->reported, "points_planned",
			    (json_int_t)sum->planned, "partial_point",
			    sum->partial);
	if (!ret && (!o || json_object_set_new(rdp_json_root(j->doc),
					       "interrupted", o)))
		ret = -ENOMEM;
	if (ret)
		rdp_err("build the JSON document: %s", strerror(-ret));
	return ret;
}

static void json_live(struct rdp_report_sink *s,
		      const struct rdp_report_info *in,
		      const struct rdp_live_point *pt)
{
	struct json_sink *j = (struct json_sink *)s;

	(void)in;
	if (j->cfg.out)
		rdp_json_live_line(j->cfg.out, pt);
}

static int json_to_file(const struct json_sink *j)
{
	FILE *f = fopen(j->cfg.file, "w");
	int ret;

	if (!f) {
		ret = -errno;
		rdp_err("open --json-file %s: %s", j->cfg.file, strerror(-ret));
		return ret;
	}
	ret = rdp_json_write(j->doc, f, 0);
	if (fclose(f) && !ret)
		ret = -EIO;
	if (ret)
		rdp_err("write the JSON document: %s", strerror(-ret));
	return ret;
}

/* A run without points (a passive latency server) has an empty list. */
static int json_close(struct rdp_report_sink *s,
		      const struct rdp_report_info *in)
{
	struct json_sink *j = (struct json_sink *)s;
	int ret = 0;

	if (!j->doc)
		ret = json_start(j, in);
	if (ret) {
		rdp_err("build the JSON document: %s", strerror(-ret));
		return ret;
	}
	if (j->cfg.out) {
		ret = rdp_json_write(j->doc, j->cfg.out, j->cfg.compact);
		if (ret) {
			rdp_err("write the JSON document: %s", strerror(-ret));
			return ret;
		}
	}
	if (j->cfg.file && j->cfg.file[0])
		ret = json_to_file(j);
	if (!ret && j->cfg.plot_file && j->cfg.plot_file[0])
		ret = rdp_plot_file(rdp_json_root(j->doc), j->cfg.plot_file);
	return ret;
}

static void json_destroy(struct rdp_report_sink *s)
{
	struct json_sink *j = (struct json_sink *)s;

	rdp_json_free(j->doc);
	free(j);
}

static const struct rdp_report_sink_ops json_ops = {
	.name = "json",
	.point = json_point,
	.end = json_end,
	.live = json_live,
	.close = json_close,
	.destroy = json_destroy,
};

int rdp_json_sink_create(const struct rdp_json_sink_cfg *cfg,
			 struct rdp_report_sink **out)
{
	struct json_sink *j = calloc(1, sizeof(*j));

	if (!j)
		return -ENOMEM;
	j->base.ops = &json_ops;
	j->cfg = *cfg;
	*out = &j->base;
	return 0;
}

struct rdp_json *rdp_json_sink_doc(const struct rdp_report_sink *s)
{
	if (!s || s->ops != &json_ops)
		return NULL;
	return ((const struct json_sink *)s)->doc;
}

struct verdict_sink {
	struct rdp_report_sink base; /* first */
	struct rdp_verdict v;
	FILE *text;
	const struct rdp_report_sink *json;
};

static int verdict_point(struct rdp_report_sink *s,
			 const struct rdp_report_info *in,
			 const struct rdp_result *r)
{
	struct verdict_sink *v = (struct verdict_sink *)s;

	rdp_verdict_point(&v->v, v->text, r, in->counters,
			  rdp_json_sink_doc(v->json));
	return 0;
}

static int verdict_end(struct rdp_report_sink *s,
		       const struct rdp_report_info *in,
		       struct rdp_report_summary *sum)
{
	struct verdict_sink *v = (struct verdict_sink *)s;

	(void)in;
	sum->n_failed =
		rdp_verdict_finish(&v->v, v->text, rdp_json_sink_doc(v->json));
	return 0;
}

static void verdict_destroy(struct rdp_report_sink *s)
{
	free(s);
}

static const struct rdp_report_sink_ops verdict_ops = {
	.name = "verdict",
	.point = verdict_point,
	.end = verdict_end,
	.destroy = verdict_destroy,
};

int rdp_verdict_sink_create(const struct rdp_verdict *verdict, FILE *text,
			    const struct rdp_report_sink *json,
			    struct rdp_report_sink **out)
{
	struct verdict_sink *v = calloc(1, sizeof(*v));

	if (!v)
		return -ENOMEM;
	v->base.ops = &verdict_ops;
	v->v = *verdict;
	v->text = text;
	v->json = json;
	*out = &v->base;
	return 0;
}
