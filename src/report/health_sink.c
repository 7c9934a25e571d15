/* SPDX-License-Identifier: BSD-2-Clause */
/* The link's health as a report sink: each point's device events under its
 * row, a point whose port went down failed, and --soak's verdict. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <jansson.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/counters.h>
#include <rdmaperf/health.h>
#include <rdmaperf/json.h>
#include <rdmaperf/log.h>
#include <rdmaperf/report.h>
#include <rdmaperf/sink.h>

struct health_sink {
	struct rdp_report_sink base; /* first */
	struct rdp_health_sink_cfg cfg;
	size_t n_points;
	size_t n_flapped; /* points whose port went down */
	size_t n_events;  /* seen over all points */
	int last_flapped; /* the latest point did */
};

static void point_json(struct health_sink *h, const struct rdp_result *r,
		       const char *flap)
{
	json_t *e = rdp_json_last(rdp_json_sink_doc(h->cfg.json));

	if (!e)
		return;
	if (r->n_events)
		json_object_set_new(e, "events",
				    rdp_events_json(r->events, r->n_events));
	if (r->events_dropped)
		json_object_set_new(
			e, "events_dropped",
			json_integer((json_int_t)r->events_dropped));
	if (flap)
		json_object_set_new(e, "flap", json_string(flap));
}

static int health_point(struct rdp_report_sink *s,
			const struct rdp_report_info *in,
			const struct rdp_result *r)
{
	struct health_sink *h = (struct health_sink *)s;
	const struct rdp_ctr_pair *c = in->counters;
	char why[256];
	int flap;

	flap = rdp_flap_verdict(r->events, r->n_events,
				c && c->have_local ? &c->local : NULL,
				c && c->have_peer ? &c->peer : NULL, why,
				sizeof(why));
	h->n_points++;
	h->n_flapped += flap;
	h->last_flapped = flap;
	h->n_events += r->n_events + r->events_dropped;
	if (r->n_events || r->events_dropped) {
		fprintf(h->cfg.text, " Device events   :\n");
		rdp_events_print(h->cfg.text, "   ", r->events, r->n_events,
				 r->events_dropped);
	}
	if (flap) {
		fflush(h->cfg.text); /* the row first, then what is wrong */
		rdp_err("%llu B x %u QP(s): the link went down during the "
			"point: %s",
			(unsigned long long)r->size_bytes, r->num_qps, why);
		fprintf(h->cfg.text, "   ^ FAIL link down: %s\n", why);
	}
	point_json(h, r, flap ? why : NULL);
	return 0;
}

/* The document's verdict fails with the link's, which it did not see. */
static void verdict_json(struct health_sink *h, size_t failed)
{
	json_t *root = rdp_json_root(rdp_json_sink_doc(h->cfg.json));
	json_t *v;

	/* Nothing seen, nothing to add: the document stays as it was. */
	if (!root || (!h->n_events && !h->n_flapped && !h->cfg.soak))
		return;
	json_object_set_new(root, "link",
			    json_pack("{s:b, s:I, s:I}", "pass", failed == 0,
				      "points", (json_int_t)h->n_points,
				      "flapped_points",
				      (json_int_t)h->n_flapped));
	if (h->cfg.soak)
		json_object_set_new(root, "soak", rdp_soak_json(h->cfg.soak));
	v = json_object_get(root, "verdict");
	if (failed && json_is_object(v))
		json_object_set_new(v, "pass", json_false());
}

static int health_end(struct rdp_report_sink *s,
		      const struct rdp_report_info *in,
		      struct rdp_report_summary *sum)
{
	struct health_sink *h = (struct health_sink *)s;
	const struct rdp_soak_log *soak = h->cfg.soak;
	size_t failed = h->n_flapped;

	(void)in;
	/* A soak is one point: its bad intervals fail it once. */
	if (soak && soak->bad_intervals && !h->last_flapped)
		failed++;
	if (h->n_flapped)
		fprintf(h->cfg.text,
			" Link            : FAIL (%zu of %zu point(s) saw the "
			"link go down)\n",
			h->n_flapped, h->n_points);
	if (soak)
		rdp_soak_print(h->cfg.text, soak);
	fflush(h->cfg.text);
	verdict_json(h, failed);
	sum->n_failed += failed;
	return 0;
}

static void health_destroy(struct rdp_report_sink *s)
{
	free(s);
}

static const struct rdp_report_sink_ops health_ops = {
	.name = "health",
	.point = health_point,
	.end = health_end,
	.destroy = health_destroy,
};

int rdp_health_sink_create(const struct rdp_health_sink_cfg *cfg,
			   struct rdp_report_sink **out)
{
	struct health_sink *h = calloc(1, sizeof(*h));

	if (!h)
		return -ENOMEM;
	h->base.ops = &health_ops;
	h->cfg = *cfg;
	*out = &h->base;
	return 0;
}
