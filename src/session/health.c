/* SPDX-License-Identifier: BSD-2-Clause */
/* The link's health in a session: each point takes the device events that
 * fell in it, and --soak judges every interval of its one long run (the
 * local port's counters, the events, the bandwidth) as it ends. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session_int.h"
#include <rdmaperf/events.h>
#include <rdmaperf/health.h>
#include <rdmaperf/log.h>
#include <rdmaperf/verdict.h>

static struct rdp_event_log *log_of(const struct rdp_dev *dev)
{
	return dev ? rdp_events_log(dev->events) : NULL;
}

void rdp_session_events_begin(struct rdp_session_base *s, uint64_t t0_ns)
{
	s->ev_t0_ns = t0_ns;
	s->ev_seq = rdp_event_log_seq(log_of(s->dev));
}

void rdp_session_point_events(struct rdp_session_base *s,
			      struct rdp_result *res, int failed)
{
	struct rdp_event *ev;
	uint64_t dropped;
	size_t n;

	if (rdp_event_log_take_all(log_of(s->dev), &s->ev_seq, s->ev_t0_ns, &ev,
				   &n, &dropped))
		return; /* out of memory: said nowhere, counted nowhere */
	if (failed) {
		/* The point never reaches the reports: say them here, as
		 * they may be why it failed. */
		if (n || dropped)
			fflush(s->text);
		rdp_events_print(stderr, "device event: ", ev, n, dropped);
		free(ev);
		return;
	}
	free(res->events);
	res->events = ev;
	res->n_events = n;
	res->events_dropped = dropped;
}

void rdp_session_server_events(struct rdp_dev *dev, uint64_t *cursor,
			       uint64_t t0_ns, const char *peer)
{
	struct rdp_event *ev;
	uint64_t dropped;
	char prefix[128];
	size_t n;

	if (rdp_event_log_take_all(log_of(dev), cursor, t0_ns, &ev, &n,
				   &dropped) ||
	    (!n && !dropped))
		return;
	snprintf(prefix, sizeof(prefix), "client %s: device event: ", peer);
	rdp_events_print(stdout, prefix, ev, n, dropped);
	free(ev);
}

struct rdp_soak {
	struct rdp_soak_log log;
	struct rdp_soak_rules rules;
	FILE *text;
	struct rdp_event_log *events;
	uint64_t cursor;
	char dev[64];
	int port;
	struct rdp_ctr_pair ctr; /* before: the interval's start */
};

int rdp_soak_create(const struct rdp_opts *o, const struct rdp_verdict *v,
		    const struct rdp_dev *dev, FILE *text,
		    struct rdp_soak **out)
{
	struct rdp_soak *s = calloc(1, sizeof(*s));
	double pct;

	if (!s)
		return -ENOMEM;
	s->log.soak_s = o->report.soak_s;
	s->rules.min_bw_gbps = v->lim.min_bw_gbps;
	pct = v->lim.min_bw_pct * v->line_gbps / 100;
	if (pct > s->rules.min_bw_gbps)
		s->rules.min_bw_gbps = pct;
	s->rules.bw_opt = v->lim.bw_opt;
	/* --max-errors judges each interval as it judges a point */
	if (v->lim.max_errors.n)
		s->rules.max_errors = v->lim.max_errors;
	else
		rdp_max_errors_default(&s->rules.max_errors);
	s->text = text;
	s->events = log_of(dev);
	snprintf(s->dev, sizeof(s->dev), "%s", dev->name);
	s->port = dev->port.num;
	*out = s;
	return 0;
}

void rdp_soak_free(struct rdp_soak *s)
{
	free(s);
}

const struct rdp_soak_log *rdp_soak_record(const struct rdp_soak *s)
{
	return &s->log;
}

void rdp_soak_arm(struct rdp_soak *s)
{
	s->cursor = rdp_event_log_seq(s->events);
	rdp_ctr_begin(&s->ctr, s->dev, s->port);
}

/* The counters' deltas over the interval; the next one starts here. */
static void interval_counters(struct rdp_soak *s)
{
	rdp_ctr_end(&s->ctr);
	s->ctr.before = s->ctr.after;
}

int rdp_soak_tick(struct rdp_soak *s, const struct rdp_live_point *pt)
{
	struct rdp_event ev[64];
	struct rdp_soak_interval iv = {
		.from_s = pt->start_s,
		.to_s = pt->end_s,
		.bw_gbps = pt->bw_gbps,
		.events = ev,
	};
	char why[RDP_SOAK_WHY_MAX];
	uint64_t rest;
	int bad;

	interval_counters(s);
	iv.delta = &s->ctr.local;
	iv.n_events = rdp_event_log_take(s->events, &s->cursor, 0, ev, 64,
					 &iv.dropped);
	/* More than fit here: the rest count as lost to this interval's
	 * reason (the point's own list still has them). */
	rest = rdp_event_log_seq(s->events);
	if (rest > s->cursor) {
		iv.dropped += rest - s->cursor;
		s->cursor = rest;
	}
	bad = rdp_soak_judge(&s->rules, &iv, why, sizeof(why));
	rdp_soak_log_add(&s->log, pt->start_s, pt->end_s, bad ? why : NULL);
	if (bad) {
		fprintf(s->text, "   ^ BAD [%7.2f-%7.2f s] %s\n", pt->start_s,
			pt->end_s, why);
		fflush(s->text);
		rdp_warn("soak: %.2f-%.2f s bad: %s", pt->start_s, pt->end_s,
			 why);
	}
	return pt->end_s >= s->log.soak_s - 1e-9;
}

void rdp_soak_ended(struct rdp_soak *s, int signo)
{
	s->log.signo = signo;
}
