/* SPDX-License-Identifier: BSD-2-Clause */
/* mesh.json, and the JSON Lines journal of finished rounds. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "mesh_int.h"

/* A figure, or null when the cell has none. */
static json_t *number(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* set_new that keeps going past a NULL value: the caller checks the
 * object once, through *ok. */
static void put(json_t *o, const char *key, json_t *v, int *ok)
{
	if (!v || json_object_set_new(o, key, v))
		*ok = 0;
}

/* v when every step building it went well, else NULL (v freed). */
static json_t *checked(json_t *v, int ok)
{
	if (ok)
		return v;
	json_decref(v);
	return NULL;
}

/* A cell's retest: {"round", "status", "held", "reason", figures,
 * "result"}. */
static json_t *again_json(const struct rdp_mesh_cell *r)
{
	json_t *o = json_object();
	int ok = o != NULL;

	if (!ok)
		return NULL;
	put(o, "round", json_integer((json_int_t)r->round + 1), &ok);
	put(o, "status", json_string(rdp_mesh_status_name(r->status)), &ok);
	put(o, "held", json_boolean(rdp_mesh_bad(r)), &ok);
	if (r->reason)
		put(o, "reason", json_string(r->reason), &ok);
	put(o, "bw_gbps", number(r->bw_gbps), &ok);
	put(o, "lat_us", number(r->lat_us), &ok);
	if (r->errors)
		put(o, "errors", rdp_mesh_errors_json(r->errors), &ok);
	put(o, "result", r->result ? json_incref(r->result) : json_null(), &ok);
	return checked(o, ok);
}

json_t *rdp_mesh_cell_json(const struct rdp_mesh *m,
			   const struct rdp_mesh_cell *c)
{
	json_t *o = json_object();
	int ok = o != NULL;

	if (!ok)
		return NULL;
	put(o, "tx", json_string(m->names[c->tx]), &ok);
	put(o, "rx", json_string(m->names[c->rx]), &ok);
	put(o, "rail", json_integer(c->rail), &ok);
	put(o, "round", json_integer((json_int_t)c->round + 1), &ok);
	put(o, "status", json_string(rdp_mesh_status_name(c->status)), &ok);
	if (c->reason)
		put(o, "reason", json_string(c->reason), &ok);
	if (c->cls != RDP_MESH_CLASS_NONE) {
		put(o, "class", json_string(rdp_mesh_class_name(c->cls)), &ok);
		put(o, "suspect", json_string(m->names[c->suspect]), &ok);
	}
	put(o, "bw_gbps", number(c->bw_gbps), &ok);
	put(o, "lat_us", number(c->lat_us), &ok);
	if (c->line_gbps > 0)
		put(o, "line_rate_gbps", json_real(c->line_gbps), &ok);
	if (m->place)
		put(o, "path", rdp_mesh_cell_path_json(m, c), &ok);
	if (c->errors)
		put(o, "errors", rdp_mesh_errors_json(c->errors), &ok);
	put(o, "result", c->result ? json_incref(c->result) : json_null(), &ok);
	if (c->again >= 0)
		put(o, "retest", again_json(&m->retests[c->again]), &ok);
	return checked(o, ok);
}

/* Round k's times into o, when it has them. */
static void put_time(const struct rdp_mesh *m, size_t k, json_t *o, int *ok)
{
	const struct rdp_mesh_round_time *t = k < m->n_times ? &m->times[k]
							     : NULL;

	if (t && t->wall_s > 0)
		put(o, "timing",
		    json_pack("{s:f, s:f, s:f}", "wall_s", t->wall_s, "pair_s",
			      t->pair_s, "measured_s", t->measured_s),
		    ok);
}

/* Whether mesh.json is the summary form, without cells[] and pairs. */
static int summary_form(const struct rdp_mesh *m)
{
	return m->n > m->json_cells_max;
}

/* Round k of the summary form: {"round", "transfers", "timing"}. */
static json_t *round_count_json(const struct rdp_mesh *m, size_t k,
				struct rdp_mesh_xfer *x)
{
	json_t *o = json_object();
	int ok = o != NULL;

	if (!ok)
		return NULL;
	put(o, "round", json_integer((json_int_t)k + 1), &ok);
	put(o, "transfers",
	    json_integer((json_int_t)rdp_mesh_plan_round(m->plan, k, x)), &ok);
	put_time(m, k, o, &ok);
	return checked(o, ok);
}

/* Round k of the plan: {"round", "pairs", "bye"}; x and busy are
 * scratch of the plan's width and of m->nodes. */
static json_t *round_json(const struct rdp_mesh *m, size_t k,
			  struct rdp_mesh_xfer *x, unsigned char *busy)
{
	size_t cnt = rdp_mesh_plan_round(m->plan, k, x), j;
	json_t *o = json_object(), *pairs = json_array(), *bye = json_array();
	json_t *p;
	unsigned int i;
	int ok = o && pairs && bye;

	memset(busy, 0, m->nodes);
	for (j = 0; ok && j < cnt; j++) {
		busy[x[j].tx] = busy[x[j].rx] = 1;
		p = json_pack("{s:s, s:s}", "tx", m->names[x[j].tx], "rx",
			      m->names[x[j].rx]);
		if (p && x[j].both)
			put(p, "bidirectional", json_true(), &ok);
		ok = ok && !json_array_append_new(pairs, p);
	}
	for (i = 0; ok && i < m->nodes; i++)
		if (!busy[i])
			ok = !json_array_append_new(bye,
						    json_string(m->names[i]));
	if (o) {
		put(o, "round", json_integer((json_int_t)k + 1), &ok);
		put(o, "pairs", pairs, &ok);
		if (json_array_size(bye))
			put(o, "bye", bye, &ok);
		else
			json_decref(bye);
		put_time(m, k, o, &ok);
	} else {
		json_decref(pairs);
		json_decref(bye);
	}
	return checked(o, ok);
}

static json_t *rounds_json(const struct rdp_mesh *m)
{
	struct rdp_mesh_xfer *x =
		calloc(rdp_mesh_plan_width(m->plan), sizeof(*x));
	unsigned char *busy = malloc(m->nodes);
	json_t *a = json_array();
	size_t k, n = rdp_mesh_plan_rounds(m->plan);
	int ok = x && busy && a;

	for (k = 0; ok && k < n; k++)
		ok = !json_array_append_new(
			a, summary_form(m) ? round_count_json(m, k, x)
					   : round_json(m, k, x, busy));
	free(x);
	free(busy);
	return checked(a, ok);
}

static json_t *medians_json(const struct rdp_mesh *m)
{
	json_t *a = json_array();
	unsigned int r;
	int ok = a != NULL;

	for (r = 0; ok && m->analyzed && r < m->rails; r++)
		ok = !json_array_append_new(
			a,
			json_pack("{s:i, s:o, s:o}", "rail", (int)r, "bw_gbps",
				  number(m->stats[r].med[FIG_BW]), "lat_us",
				  number(m->stats[r].med[FIG_LAT])));
	return checked(a, ok);
}

/* The statuses counted, any past FLAGGED under its own name. */
#define N_STATUS 8

static json_t *totals_json(const struct rdp_mesh *m)
{
	size_t n[N_STATUS] = { 0 }, again = 0, held = 0, i;
	unsigned int s;
	json_t *o;
	int ok;

	for (i = 0; i < m->n; i++) {
		s = (unsigned int)m->cells[i].status;
		n[s < N_STATUS ? s : N_STATUS - 1]++;
		if (m->cells[i].again < 0)
			continue;
		again++;
		held += (size_t)rdp_mesh_bad(&m->retests[m->cells[i].again]);
	}
	o = json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "cells",
		      (json_int_t)m->n, "ok", (json_int_t)n[RDP_MESH_OK],
		      "flagged", (json_int_t)n[RDP_MESH_FLAGGED], "failed",
		      (json_int_t)n[RDP_MESH_FAILED], "skipped",
		      (json_int_t)n[RDP_MESH_SKIPPED], "retested",
		      (json_int_t)again, "held", (json_int_t)held);
	ok = o != NULL;
	for (s = RDP_MESH_SKIPPED + 1; ok && s < N_STATUS; s++)
		if (n[s])
			put(o, rdp_mesh_status_name((enum rdp_mesh_status)s),
			    json_integer((json_int_t)n[s]), &ok);
	return checked(o, ok);
}

/* The pruned nodes: {"node", "after_round" (1-based), "failed_peers",
 * "peers", "reason"} each. */
static json_t *pruned_json(const struct rdp_mesh *m)
{
	const struct rdp_mesh_pruned *p;
	json_t *a = json_array();
	char why[96];
	size_t i;
	int ok = a != NULL;

	for (i = 0; ok && i < m->n_pruned; i++) {
		p = &m->pruned[i];
		rdp_mesh_pruned_reason(p, why, sizeof(why));
		ok = !json_array_append_new(
			a, json_pack("{s:s, s:I, s:i, s:i, s:s}", "node",
				     m->names[p->node], "after_round",
				     (json_int_t)p->after_round + 1,
				     "failed_peers", (int)p->failed_peers,
				     "peers", (int)p->peers, "reason", why));
	}
	return checked(a, ok);
}

/* What the run reached of its plan, and the budget it had. */
static json_t *coverage_json(const struct rdp_mesh *m)
{
	const struct rdp_mesh_coverage *c = &m->coverage;

	return json_pack("{s:I, s:I, s:I, s:I, s:f, s:b, s:f}", "rounds_run",
			 (json_int_t)c->rounds_run, "rounds_planned",
			 (json_int_t)c->rounds_planned, "pairs_measured",
			 (json_int_t)c->pairs_measured, "pairs_total",
			 (json_int_t)c->pairs_total, "pairs_pct",
			 c->pairs_total ? 100.0 * (double)c->pairs_measured /
						  (double)c->pairs_total
					: 0.0,
			 "stopped_by_time_budget", c->stopped, "time_budget_s",
			 c->budget_s);
}

/* The pair of pairs whose sender is r's receiver and back, or NULL. */
static json_t *reverse_of(const struct rdp_mesh *m, json_t *pairs,
			  const struct rdp_mesh_cell *r)
{
	json_t *p;
	size_t i;

	json_array_foreach(
		pairs, i,
		p) if (!strcmp(json_string_value(json_object_get(p, "tx")),
			       m->names[r->rx]) &&
		       !strcmp(json_string_value(json_object_get(p, "rx")),
			       m->names[r->tx])) return p;
	return NULL;
}

/* The retest round k (past the plan's): {"round", "retest": true,
 * "pairs"}, its pairs from the retests of rail 0 that ran in it. */
static json_t *retest_round_json(const struct rdp_mesh *m, size_t k)
{
	json_t *o, *pairs = json_array(), *p;
	const struct rdp_mesh_cell *r;
	size_t i;
	int ok = pairs != NULL;

	for (i = 0; ok && i < m->n_re; i++) {
		r = &m->retests[i];
		if (r->round != k || r->rail)
			continue;
		/* Both directions of a pair at once: one pair. */
		if ((p = reverse_of(m, pairs, r))) {
			put(p, "bidirectional", json_true(), &ok);
			continue;
		}
		p = json_pack("{s:s, s:s}", "tx", m->names[r->tx], "rx",
			      m->names[r->rx]);
		ok = !json_array_append_new(pairs, p);
	}
	o = json_pack("{s:I, s:b}", "round", (json_int_t)k + 1, "retest", 1);
	if (o) {
		put(o, "pairs", pairs, &ok);
		put_time(m, k, o, &ok);
	} else
		json_decref(pairs);
	return checked(o, ok);
}

/* The retest rounds, in order, each once. */
static json_t *retest_rounds_json(const struct rdp_mesh *m)
{
	size_t first = rdp_mesh_plan_rounds(m->plan), last = first, i;
	json_t *a = json_array();
	int ok = a != NULL;

	for (i = 0; i < m->n_re; i++)
		if (m->retests[i].round + (size_t)1 > last)
			last = m->retests[i].round + (size_t)1;
	for (i = first; ok && i < last; i++)
		ok = !json_array_append_new(a, retest_round_json(m, i));
	return checked(a, ok);
}

/* The rounds' times summed, the bootstrap's, and the share of the
 * rounds' wall time that was not measuring. */
static json_t *timing_json(const struct rdp_mesh *m)
{
	struct rdp_mesh_round_time t;
	size_t n = rdp_mesh_time_total(m, &t);

	return json_pack(
		"{s:I, s:f, s:f, s:f, s:f, s:o}", "rounds", (json_int_t)n,
		"bootstrap_s", m->bootstrap_s, "wall_s", t.wall_s, "pair_s",
		t.pair_s, "measured_s", t.measured_s, "overhead_pct",
		number(t.wall_s > 0 ? 100 * (1 - t.measured_s / t.wall_s)
				    : NAN));
}

/* A percentage as the command line takes it: 60, not 59.99999999. */
static json_t *percent(double fraction)
{
	double pct = round(fraction * 100 * 1e6) / 1e6;

	if (pct == floor(pct) && fabs(pct) < 1e15)
		return json_integer((json_int_t)pct);
	return json_real(pct);
}

static json_t *head_json(const struct rdp_mesh *m)
{
	const struct rdp_mesh_plan_opts *o = rdp_mesh_plan_opts(m->plan);
	json_t *doc = json_object(), *nodes = json_array();
	unsigned int i;
	int ok = doc && nodes;

	for (i = 0; ok && i < m->nodes; i++)
		ok = !json_array_append_new(nodes, json_string(m->names[i]));
	if (doc) {
		put(doc, "tool", json_string("rdmaperf-mesh"), &ok);
		put(doc, "version", json_string(PACKAGE_VERSION), &ok);
		put(doc, "schema_version",
		    json_integer(RDP_MESH_JSON_SCHEMA_VERSION), &ok);
		put(doc, "pattern",
		    json_string(rdp_mesh_pattern_name(o->pattern)), &ok);
		put(doc, "bidirectional", json_boolean(o->bidir), &ok);
		if (o->pattern == RDP_MESH_BISECTION) {
			put(doc, "permutations", json_integer(o->permutations),
			    &ok);
			put(doc, "seed", json_integer((json_int_t)o->seed),
			    &ok);
		}
		put(doc, "rails", json_integer(m->rails), &ok);
		if (m->analyzed)
			put(doc, "tolerance_pct", percent(m->limits.tol), &ok);
		put(doc, "nodes", nodes, &ok);
	}
	return checked(doc, ok);
}

static json_t *mesh_json(const struct rdp_mesh *m)
{
	json_t *doc = head_json(m), *cells = json_array();
	size_t i;
	int ok = doc && cells, listed = !summary_form(m);

	for (i = 0; ok && listed && i < m->n; i++)
		ok = !json_array_append_new(
			cells, rdp_mesh_cell_json(m, &m->cells[i]));
	if (doc) {
		put(doc, "rounds", rounds_json(m), &ok);
		if (m->n_re)
			put(doc, "retest_rounds", retest_rounds_json(m), &ok);
		put(doc, "medians", medians_json(m), &ok);
		put(doc, "cells_file", json_string("cells.jsonl"), &ok);
		if (listed)
			put(doc, "cells", cells, &ok);
		else
			json_decref(cells);
		put(doc, "totals", totals_json(m), &ok);
		if (m->pruning)
			put(doc, "pruned", pruned_json(m), &ok);
		if (m->has_coverage)
			put(doc, "coverage", coverage_json(m), &ok);
		if (m->faults)
			put(doc, "faults", rdp_mesh_faults_json(m), &ok);
		if (m->has_cover)
			put(doc, "cover", rdp_mesh_cover_json(m), &ok);
		if (m->quick)
			put(doc, "quick", rdp_mesh_quick_json(m), &ok);
		if (m->congestion)
			put(doc, "congestion", rdp_mesh_congestion_json(m),
			    &ok);
		if (m->n_times)
			put(doc, "timing", timing_json(m), &ok);
		if (m->analyzed && rdp_mesh_errors_any(m))
			put(doc, "node_errors", rdp_mesh_node_errors_json(m),
			    &ok);
	} else {
		json_decref(cells);
	}
	return checked(doc, ok);
}

/* doc on one line (flags 0: indented), then a newline; takes doc. */
static int dump(json_t *doc, FILE *f, size_t flags)
{
	int ret;

	if (!doc)
		return -ENOMEM;
	ret = json_dumpf(doc, f, flags | JSON_REAL_PRECISION(10)) ? -EIO : 0;
	json_decref(doc);
	if (!ret && (fputc('\n', f) == EOF || fflush(f)))
		ret = -EIO;
	return ret;
}

int rdp_mesh_write_json(const struct rdp_mesh *m, FILE *f)
{
	return dump(mesh_json(m), f, JSON_INDENT(2));
}

int rdp_mesh_journal_round(const struct rdp_mesh *m, size_t k, FILE *f)
{
	struct rdp_mesh_xfer *x =
		calloc(rdp_mesh_plan_width(m->plan), sizeof(*x));
	unsigned char *busy = malloc(m->nodes);
	json_t *line = NULL, *cells = json_array();
	int32_t c = k < m->n_idx ? m->first[k] : -1;
	size_t i;
	int ok = x && busy && cells;

	if (ok && k < rdp_mesh_plan_rounds(m->plan))
		line = round_json(m, k, x, busy);
	else if (ok)
		line = retest_round_json(m, k);
	/* The round's own cells, not a pass over every cell a round. */
	for (; line && ok && c >= 0; c = m->next[c])
		ok = !json_array_append_new(
			cells, rdp_mesh_cell_json(m, &m->cells[c]));
	for (i = 0; line && ok && i < m->n_re; i++)
		if (m->retests[i].round == k)
			ok = !json_array_append_new(
				cells, rdp_mesh_cell_json(m, &m->retests[i]));
	free(x);
	free(busy);
	if (line)
		put(line, "cells", cells, &ok);
	else
		json_decref(cells);
	if (!ok) {
		json_decref(line);
		return -ENOMEM;
	}
	return dump(line, f, JSON_COMPACT);
}
