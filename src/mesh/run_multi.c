/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The sessions a rank sends in a round: one as rdmaperf's client, or
 * several at once on threads of their own (alltoall), each on resources
 * it keeps; an incast's victim measured alone, then beside the load.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/boot.h>
#include <rdmaperf/counters.h>
#include <rdmaperf/log.h>
#include <rdmaperf/session.h>

#include "mesh_int.h"
#include "run_int.h"

/* What this rank's client side kept and where its session's time went,
 * into the cell's document: "kept" (counts since the job began) and
 * "phases_s". */
static void put_kept(json_t *doc, const struct rdp_session_keep *k)
{
	struct rdp_session_keep_counts n;
	struct rdp_session_phases p;

	rdp_session_keep_counts(k, &n);
	rdp_session_keep_phases(k, &p);
	json_object_set_new(
		doc, "kept",
		json_pack("{s:i, s:i, s:i, s:i, s:i}", "sessions", n.sessions,
			  "device_opens", n.dev_opens, "clock_calibrations",
			  n.clock_calibrations, "conns_built", n.conns_built,
			  "conns_reused", n.conns_reused));
	json_object_set_new(
		doc, "phases_s",
		json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}",
			  "start", p.start_s, "dial", p.dial_s, "hello",
			  p.hello_s, "params", p.params_s, "qps", p.qps_s,
			  "prepare", p.prepare_s, "loop", p.loop_s, "done",
			  p.done_s, "report", p.report_s, "teardown",
			  p.teardown_s));
}

/* One session this rank sends in a round (on a thread of its own when
 * it sends several at once): what it runs, and then its record. */
struct pair_job {
	struct run *r;
	struct rdp_mesh_xfer x;
	unsigned int round;
	struct rdp_session_keep *keep;
	const char *victim; /* "alone", "loaded": the victim's; NULL */
	json_t *rec;
};

/* The client's options for a job: the mesh's test, or the victim's. */
static struct rdp_opts *pair_opts(const struct pair_job *j,
				  const struct rdp_mesh_endpoint *peer)
{
	const struct run *r = j->r;
	struct rdp_opts *c = malloc(sizeof(*c));

	if (!c)
		return NULL;
	*c = j->victim && r->mo->victim ? *r->mo->victim : *r->o;
	snprintf(c->conn.host, sizeof(c->conn.host), "%s", peer->addr);
	c->conn.tcp_port = peer->port;
	snprintf(c->conn.dev, sizeof(c->conn.dev), "%s", r->me.dev);
	c->conn.gid_index = r->me.gid_index;
	/* From this rail's address, which its GID is: the server holds a
	 * client's IP-based GID to the address it connects from. */
	snprintf(c->conn.source_ip, sizeof(c->conn.source_ip), "%s",
		 r->me.addr);
	c->params.flags &= ~(uint32_t)RDP_PARAM_BIDIR;
	if (j->x.both)
		c->params.flags |= RDP_PARAM_BIDIR;
	c->report.json = 0;
	c->report.json_file[0] = '\0';
	c->report.metrics_file[0] = '\0'; /* the mesh's, per node */
	c->limits.plot_file[0] = '\0';
	/* The cell's errors are the mesh's to judge (--max-errors of
	 * rdmaperf-mesh): a session that failed on them would hand back
	 * no figures. */
	c->limits.limits.max_errors.n = 0;
	if (rdp_max_errors_parse(&c->limits.limits.max_errors,
				 "link=any,retries=any,congestion=any", NULL,
				 0)) {
		free(c);
		return NULL;
	}
	return c;
}

/* The 99th percentile of the last point's latency, in us; NaN none. */
static double p99_us(const struct rdp_session_results *res)
{
	const struct rdp_result *last = res->n ? &res->points[res->n - 1]
					       : NULL;

	return last && last->lat.n && isfinite(last->lat.p99_ns)
		       ? last->lat.p99_ns / 1e3
		       : NAN;
}

/* One transfer as rdmaperf's client: the record rank 0 will read, with
 * the figures of the results the session handed back. */
static void *run_pair(void *arg)
{
	struct pair_job *j = arg;
	struct run *r = j->r;
	const struct rdp_mesh_endpoint *peer;
	struct rdp_session_results *res = NULL;
	struct rdp_mesh_figures fig = { NAN, NAN, NAN, 0 };
	struct rdp_mesh_err_sink *errs;
	struct rdp_opts *c;
	json_t *doc = NULL;
	char why[512] = "";
	double t0, p99 = NAN;
	int rc;

	peer = &r->eps[rank_of(r, j->x.rx, r->rail_of[r->boot->rank])];
	c = pair_opts(j, peer);
	if (!c)
		return NULL;
	errs = rdp_mesh_err_sink_create();
	printf("== round %u: %s -> %s (%s:%u) on %s%s%s ==\n", j->round + 1,
	       r->me.node, peer->node, peer->addr, peer->port, r->me.dev,
	       j->victim ? ", victim " : "", j->victim ? j->victim : "");
	fflush(stdout);
	t0 = now_s();
	rc = rdp_session_client_kept(c, r->eng, NULL, j->keep,
				     rdp_mesh_err_sink_base(errs), &res);
	t0 = now_s() - t0;
	free(c);
	if (rc)
		snprintf(why, sizeof(why), "%s (%s %s to %s %s, exit %d)",
			 rdp_last_error()[0] ? rdp_last_error()
					     : "the test failed",
			 r->me.node, r->me.dev, peer->node, peer->dev, rc);
	if (!rc) {
		rdp_mesh_figures_of(res, &fig);
		p99 = p99_us(res);
		doc = json_incref(res->doc);
		if (doc)
			put_kept(doc, j->keep);
	}
	if (!rc && !doc)
		snprintf(why, sizeof(why), "no results document");
	rdp_session_results_free(res);
	j->rec = json_pack(
		"{s:i, s:i, s:i, s:i, s:b, s:s, s:f, s:o, s:o, s:o, s:o, s:f, "
		"s:o}",
		"tx", j->x.tx, "rx", j->x.rx, "rail", r->rail_of[r->boot->rank],
		"round", j->round, "both", j->x.both, "reason", why, "pair_s",
		t0, "bw_gbps", real_or_null(fig.bw_gbps), "rx_bw_gbps",
		real_or_null(fig.rx_bw_gbps), "lat_us",
		real_or_null(fig.lat_us), "lat_p99_us", real_or_null(p99),
		"measured_s", fig.measured_s, "result",
		doc ? doc : json_null());
	if (j->rec && j->victim)
		json_object_set_new(j->rec, "victim", json_string(j->victim));
	/* The ports' error counters travel with the figures. */
	if (j->rec && !rc && rdp_mesh_err_sink_put(errs, j->rec))
		rdp_warn("mesh: the cell's error counters were not kept");
	rdp_mesh_err_sink_free(errs);
	return NULL;
}

/* The transfers of round k into xs (the plan's width): the plan's, or
 * past them the retests'. */
static size_t round_xfers(const struct run *r, size_t k,
			  struct rdp_mesh_xfer *xs)
{
	size_t first = rdp_mesh_plan_rounds(r->plan), i, n = 0;

	if (k < first)
		return rdp_mesh_plan_round(r->plan, k, xs);
	for (i = 0; i < r->rt.n; i++)
		if (r->rt.round[i] == k - first)
			xs[n++] = r->rt.re[i];
	return n;
}

/* Whether a transfer runs: neither end pruned. */
static int runs(const struct run *r, const struct rdp_mesh_xfer *x)
{
	return !r->verdict[1 + x->tx] && !r->verdict[1 + x->rx];
}

/* The victim of round k this rank sends as (phase "alone" or
 * "loaded") into jobs[*n]. */
static void victim_job(struct run *r, size_t k, const char *phase,
		       struct pair_job *jobs, size_t *n)
{
	struct rdp_mesh_xfer v;

	if (k < rdp_mesh_plan_rounds(r->plan) &&
	    rdp_mesh_plan_victim(r->plan, k, &v) &&
	    v.tx == r->node_of[r->boot->rank] && runs(r, &v) &&
	    *n < r->n_client_keep) {
		jobs[*n] = (struct pair_job){
			r, v, (unsigned int)k, r->client_keep[*n], phase, NULL
		};
		(*n)++;
	}
}

/* This rank's transfers of round k (with victim "alone": only the
 * victim's, measured before the load), run at once: their records
 * appended to recs. */
static void my_round(struct run *r, size_t k, const char *victim, json_t *recs)
{
	size_t i, n, w = rdp_mesh_plan_width(r->plan), m = 0;
	struct rdp_mesh_xfer *xs = calloc(w, sizeof(*xs));
	struct pair_job *jobs = calloc(r->n_client_keep, sizeof(*jobs));
	unsigned int me = r->node_of[r->boot->rank];

	n = xs && jobs && !victim ? round_xfers(r, k, xs) : 0;
	for (i = 0; i < n && m < r->n_client_keep; i++) {
		if (xs[i].tx != me || !runs(r, &xs[i]))
			continue;
		jobs[m] = (struct pair_job){
			r, xs[i], (unsigned int)k, r->client_keep[m], NULL, NULL
		};
		m++;
	}
	if (jobs)
		victim_job(r, k, victim ? victim : "loaded", jobs, &m);
	rdp_mesh_parallel(jobs, m, sizeof(*jobs), run_pair);
	for (i = 0; i < m; i++)
		if (jobs[i].rec)
			json_array_append_new(recs, jobs[i].rec);
	free(jobs);
	free(xs);
}

/* Round k on this rank: with a victim, it alone first, every rank
 * waiting at a barrier till it is done; then the load (and the victim
 * again). The records as text, a JSON array; NULL when it sends none. */
int rdp_mesh_round_of(struct run *r, size_t k, char **text)
{
	json_t *recs = json_array();
	struct rdp_mesh_xfer v;
	int ret = 0;

	*text = NULL;
	if (!recs)
		return -ENOMEM;
	if (k < rdp_mesh_plan_rounds(r->plan) &&
	    rdp_mesh_plan_victim(r->plan, k, &v)) {
		my_round(r, k, "alone", recs);
		ret = r->boot->ops->barrier(r->boot, r->mo->round_timeout_ms);
	}
	if (!ret)
		my_round(r, k, NULL, recs);
	/* The document's figures as rdmaperf's own --json-file has them. */
	if (!ret && json_array_size(recs))
		*text = json_dumps(recs,
				   JSON_COMPACT | JSON_REAL_PRECISION(15));
	json_decref(recs);
	return ret;
}
