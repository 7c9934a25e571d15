/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Thresholds applied as each point completes, so a failing point is
 * marked where it is printed; the run's outcome goes to the JSON document.
 * Each side's port counters are held to --max-errors there too.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <jansson.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/counters.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/json.h>
#include <rdmaperf/json_sys.h>
#include <rdmaperf/log.h>
#include <rdmaperf/verdict.h>

#define MAX_FAILS 12

int rdp_verdict_init(struct rdp_verdict *v, const struct rdp_limits *lim,
		     int is_bw, const struct rdp_dev *dev)
{
	const struct rdp_port_info *p = &dev->port;
	char link[48];

	memset(v, 0, sizeof(*v));
	v->lim = *lim;
	v->is_bw = is_bw;
	v->line_gbps = rdp_line_rate_gbps(p->link_layer, p->active_speed,
					  p->active_width);
	if (v->lim.min_bw_pct > 0 && v->line_gbps <= 0) {
		rdp_link_name(p->link_layer, p->active_speed, p->active_width,
			      link, sizeof(link));
		rdp_err("--min-bw %g%%: %s port %u reports no known line rate "
			"(%s); give the limit in Gb/s",
			v->lim.min_bw_pct, dev->name, p->num, link);
		return -EINVAL;
	}
	return 0;
}

static json_t *real_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *fails_arr(const struct rdp_limit_fail *f, size_t n)
{
	json_t *a = json_array(), *o;
	size_t i;
	int err = !a;

	for (i = 0; !err && i < n; i++) {
		o = json_pack("{s:s, s:o, s:o, s:s}", "limit", f[i].key,
			      "value", real_or_null(f[i].value), "threshold",
			      real_or_null(f[i].limit), "text", f[i].text);
		err = !o || json_array_append_new(a, o);
	}
	if (err) {
		json_decref(a);
		return NULL;
	}
	return a;
}

/* Limits the run was given; the default --max-errors is not one. */
static int limits_given(const struct rdp_verdict *v)
{
	return rdp_limits_any(&v->lim) || v->lim.max_errors.n;
}

static const struct rdp_max_errors *rules_of(const struct rdp_verdict *v,
					     struct rdp_max_errors *def)
{
	if (v->lim.max_errors.n)
		return &v->lim.max_errors;
	rdp_max_errors_default(def);
	return def;
}

/* One side's deltas against the rules: 1 and f filled when over. */
static int side_over(const struct rdp_max_errors *m,
		     const struct rdp_counters *d, const char *key,
		     const char *where, struct rdp_limit_fail *f)
{
	uint64_t count, max;
	char why[256];

	if (!rdp_max_errors_over(m, d, &count, &max, why, sizeof(why)))
		return 0;
	f->key = key;
	f->value = (double)count;
	f->limit = (double)max;
	snprintf(f->text, sizeof(f->text), "%s: %s", where, why);
	return 1;
}

/* Both sides' counters; one port seen from both ends is judged once. */
static size_t errors_eval(const struct rdp_verdict *v,
			  const struct rdp_ctr_pair *p,
			  struct rdp_limit_fail *f, size_t cap)
{
	const struct rdp_max_errors *m;
	struct rdp_max_errors def;
	int one = p && p->same_port && p->have_local && p->have_peer;
	char here[128];
	size_t n = 0;

	if (!p || !cap)
		return 0;
	m = rules_of(v, &def);
	snprintf(here, sizeof(here), "%s port", one ? "the" : "this side's");
	if (p->dev[0])
		snprintf(here + strlen(here), sizeof(here) - strlen(here),
			 " (%s port %d%s)", p->dev, p->port,
			 one ? ", both ends" : "");
	else if (one)
		snprintf(here + strlen(here), sizeof(here) - strlen(here),
			 " (both ends)");
	if (p->have_local)
		n += (size_t)side_over(m, &p->local,
				       one ? "max_errors" : "max_errors_local",
				       here, &f[n]);
	if (p->have_peer && !one && n < cap)
		n += (size_t)side_over(m, &p->peer, "max_errors_peer",
				       "the peer's port", &f[n]);
	return n;
}

static void point_json(const struct rdp_verdict *v, struct rdp_json *j,
		       const struct rdp_result *r,
		       const struct rdp_ctr_pair *ctr,
		       const struct rdp_limit_fail *f, size_t n)
{
	json_t *e = rdp_json_last(j), *t;

	if (!e)
		return;
	if (v->is_bw && v->line_gbps > 0)
		json_object_set_new(
			e, "line_rate_pct",
			real_or_null(100 * r->bw_avg_gbps / v->line_gbps));
	if (ctr && (ctr->have_local || ctr->have_peer))
		json_object_set_new(e, "errors", rdp_json_errors(ctr));
	if (!limits_given(v) && !n)
		return;
	t = json_pack("{s:b, s:o*}", "pass", n == 0, "failed",
		      fails_arr(f, n < MAX_FAILS ? n : MAX_FAILS));
	json_object_set_new(e, "thresholds", t);
}

void rdp_verdict_point(struct rdp_verdict *v, FILE *text,
		       const struct rdp_result *r,
		       const struct rdp_ctr_pair *ctr, struct rdp_json *j)
{
	struct rdp_limit_fail f[MAX_FAILS];
	size_t i, k, n;

	n = rdp_limits_eval(&v->lim, r, v->is_bw, v->line_gbps, f, MAX_FAILS);
	k = n < MAX_FAILS ? n : MAX_FAILS;
	n += errors_eval(v, ctr, f + k, MAX_FAILS - k);
	v->n_points++;
	v->n_failed += n > 0;
	if (n)
		fflush(text); /* the row first, then what is wrong with it */
	for (i = 0; i < n && i < MAX_FAILS; i++) {
		rdp_err("%llu B x %u QP(s): %s",
			(unsigned long long)r->size_bytes, r->num_qps,
			f[i].text);
		fprintf(text, "   ^ FAIL %s\n", f[i].text);
	}
	if (j)
		point_json(v, j, r, ctr, f, n);
}

/* {"link": 0, "retries": "any", "symbol_error": 5, ...} */
static json_t *max_errors_obj(const struct rdp_max_errors *m)
{
	const struct rdp_max_errors_rule *r;
	json_t *o = json_object();
	size_t i;
	int err = !o;

	for (i = 0; !err && i < m->n; i++) {
		r = &m->r[i];
		err |= json_object_set_new(
			o, r->name[0] ? r->name : rdp_ctr_kind_name(r->kind),
			r->any ? json_string("any")
			       : json_integer((json_int_t)(r->max > INT64_MAX
								   ? INT64_MAX
								   : r->max)));
	}
	if (!err)
		return o;
	json_decref(o);
	return NULL;
}

static json_t *limits_obj(const struct rdp_verdict *v)
{
	const struct rdp_limits *l = &v->lim;
	json_t *o = json_object(), *lat = json_object();
	size_t i;
	int err = !o || !lat;

	if (!err && l->min_bw_gbps > 0)
		err |= json_object_set_new(o, "min_bw_gbps",
					   json_real(l->min_bw_gbps));
	if (!err && l->min_bw_pct > 0)
		err |= json_object_set_new(o, "min_bw_line_rate_pct",
					   json_real(l->min_bw_pct));
	if (!err && l->min_msgrate_mpps > 0)
		err |= json_object_set_new(o, "min_msgrate_mpps",
					   json_real(l->min_msgrate_mpps));
	for (i = 0; !err && i < l->n_lat; i++)
		err |= json_object_set_new(lat,
					   rdp_lat_stat_name(l->lat[i].stat),
					   json_real(l->lat[i].max_ns / 1e3));
	if (!err && l->n_lat)
		err |= json_object_set(o, "max_lat_us", lat);
	if (!err && l->max_errors.n)
		err |= json_object_set_new(o, "max_errors",
					   max_errors_obj(&l->max_errors));
	json_decref(lat);
	if (err) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static void verdict_json(const struct rdp_verdict *v, struct rdp_json *j)
{
	json_t *root = rdp_json_root(j);

	if (!root)
		return;
	json_object_set_new(
		root, "verdict",
		json_pack("{s:b, s:I, s:I, s:o*}", "pass", v->n_failed == 0,
			  "points", (json_int_t)v->n_points, "failed_points",
			  (json_int_t)v->n_failed, "limits", limits_obj(v)));
}

size_t rdp_verdict_finish(const struct rdp_verdict *v, FILE *text,
			  struct rdp_json *j)
{
	if (limits_given(v) || v->n_failed)
		fprintf(text,
			" Limits          : %s (%zu of %zu points fail)\n",
			v->n_failed ? "FAIL" : "pass", v->n_failed,
			v->n_points);
	if (j)
		verdict_json(v, j);
	return v->n_failed;
}
