/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Thresholds applied as each point completes, so a failing point is
 * marked where it is printed; the run's outcome goes to the JSON document.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <jansson.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/json.h>
#include <rdmaperf/log.h>
#include <rdmaperf/verdict.h>

#define MAX_FAILS 12

int rdp_verdict_init(struct rdp_verdict *v, const struct rdp_limits *lim,
		     int is_bw, const struct rdp_dev *dev)
{
	const struct rdp_port_info *p = &dev->port;
	char link[32];

	memset(v, 0, sizeof(*v));
	v->lim = *lim;
	v->is_bw = is_bw;
	v->line_gbps = rdp_line_rate_gbps(p->link_layer, p->active_speed,
					  p->active_width);
	if (v->lim.min_bw_pct > 0 && v->line_gbps <= 0) {
		rdp_link_name(p->active_speed, p->active_width, link,
			      sizeof(link));
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

static void point_json(const struct rdp_verdict *v, struct rdp_json *j,
		       const struct rdp_result *r,
		       const struct rdp_limit_fail *f, size_t n)
{
	json_t *e = rdp_json_last(j), *t;

	if (!e)
		return;
	if (v->is_bw && v->line_gbps > 0)
		json_object_set_new(
			e, "line_rate_pct",
			real_or_null(100 * r->bw_avg_gbps / v->line_gbps));
	if (!rdp_limits_any(&v->lim))
		return;
	t = json_pack("{s:b, s:o*}", "pass", n == 0, "failed",
		      fails_arr(f, n < MAX_FAILS ? n : MAX_FAILS));
	json_object_set_new(e, "thresholds", t);
}

void rdp_verdict_point(struct rdp_verdict *v, FILE *text,
		       const struct rdp_result *r, struct rdp_json *j)
{
	struct rdp_limit_fail f[MAX_FAILS];
	size_t i, n;

	n = rdp_limits_eval(&v->lim, r, v->is_bw, v->line_gbps, f, MAX_FAILS);
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
		point_json(v, j, r, f, n);
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
	if (rdp_limits_any(&v->lim))
		fprintf(text,
			" Limits          : %s (%zu of %zu points fail)\n",
			v->n_failed ? "FAIL" : "pass", v->n_failed,
			v->n_points);
	if (j)
		verdict_json(v, j);
	return v->n_failed;
}
