/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Outliers of a mesh: cells off the median of their rail or past an
 * absolute limit, and what each bad cell points at from the medians of
 * its sender's row and its receiver's column.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mesh_int.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Sorts v; NAN when n is 0. */
static double median(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#define bad rdp_mesh_bad

/* Reset what an earlier analysis wrote into the n cells of v. */
static void unflag(struct rdp_mesh_cell *v, size_t n)
{
	struct rdp_mesh_cell *c;
	size_t i;

	for (i = 0; i < n; i++) {
		c = &v[i];
		if (c->status == RDP_MESH_FLAGGED) {
			free((char *)c->reason);
			c->reason = NULL;
			c->status = RDP_MESH_OK;
		}
		c->cls = RDP_MESH_CLASS_NONE;
		c->suspect = c->tx;
		c->again = -1;
	}
}

/* The medians of a rail's measured cells; v holds m->n values. */
static void rail_medians(const struct rdp_mesh *m, unsigned int rail, double *v,
			 struct rail_stats *s)
{
	size_t i, k;
	int f;

	for (f = 0; f < N_FIGS; f++) {
		for (k = 0, i = 0; i < m->n; i++)
			if (m->cells[i].rail == rail && !bad(&m->cells[i]) &&
			    isfinite(rdp_mesh_fig(&m->cells[i], f)))
				v[k++] = rdp_mesh_fig(&m->cells[i], f);
		s->med[f] = median(v, k);
	}
}

/* Appends one criterion to the reason. */
static void say(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void say(char *why, size_t len, const char *fmt, ...)
{
	size_t used = strlen(why);
	va_list ap;

	if (used && used + 2 < len) {
		strcpy(why + used, "; ");
		used += 2;
	}
	va_start(ap, fmt);
	vsnprintf(why + used, len - used, fmt, ap);
	va_end(ap);
}

static void judge_bw(const struct rdp_mesh_cell *c, double med,
		     const struct rdp_mesh_limits *l, char *why, size_t len)
{
	double bw = c->bw_gbps, pct_floor = l->min_bw_pct / 100 * c->line_gbps;

	if (med > 0 && bw < (1 - l->tol) * med)
		say(why, len,
		    "%.3f Gb/s is %.1f%% of the rail's median %.3f Gb/s "
		    "(below %.4g%%)",
		    bw, 100 * bw / med, med, 100 * (1 - l->tol));
	if (l->min_bw_gbps > 0 && bw < l->min_bw_gbps)
		say(why, len, "%.3f Gb/s is below --min-bw %.4g Gb/s", bw,
		    l->min_bw_gbps);
	if (pct_floor > 0 && bw < pct_floor)
		say(why, len,
		    "%.3f Gb/s is %.1f%% of the line rate %.4g Gb/s (below "
		    "--min-bw %.4g%%)",
		    bw, 100 * bw / c->line_gbps, c->line_gbps, l->min_bw_pct);
}

static void judge_lat(const struct rdp_mesh_cell *c, double med,
		      const struct rdp_mesh_limits *l, char *why, size_t len)
{
	double lat = c->lat_us;

	if (med > 0 && lat > (1 + l->tol) * med)
		say(why, len,
		    "%.3f us is %.1f%% of the rail's median %.3f us (above "
		    "%.4g%%)",
		    lat, 100 * lat / med, med, 100 * (1 + l->tol));
	if (l->max_lat_us > 0 && lat > l->max_lat_us)
		say(why, len, "%.3f us is above --max-lat %.4g us", lat,
		    l->max_lat_us);
}

/* Flag the rail's measured cells of v (n) that break a limit. */
static int flag_rail(struct rdp_mesh_cell *v, size_t n, unsigned int rail,
		     const struct rail_stats *s,
		     const struct rdp_mesh_limits *l)
{
	struct rdp_mesh_cell *c;
	char why[512];
	size_t i;

	for (i = 0; i < n; i++) {
		c = &v[i];
		if (c->rail != rail || bad(c))
			continue;
		why[0] = '\0';
		if (isfinite(c->bw_gbps))
			judge_bw(c, s->med[FIG_BW], l, why, sizeof(why));
		if (isfinite(c->lat_us))
			judge_lat(c, s->med[FIG_LAT], l, why, sizeof(why));
		if (!why[0])
			continue;
		c->reason = strdup(why);
		if (!c->reason)
			return -ENOMEM;
		c->status = RDP_MESH_FLAGGED;
	}
	return 0;
}

static int alloc_stats(struct rail_stats *s, unsigned int nodes)
{
	int f;

	for (f = 0; f < N_FIGS; f++) {
		if (!s->row[f])
			s->row[f] = calloc(nodes, sizeof(double));
		if (!s->col[f])
			s->col[f] = calloc(nodes, sizeof(double));
		if (!s->row[f] || !s->col[f])
			return -ENOMEM;
	}
	if (!s->row_low)
		s->row_low = calloc(nodes, 1);
	if (!s->col_low)
		s->col_low = calloc(nodes, 1);
	return s->row_low && s->col_low ? 0 : -ENOMEM;
}

/* Scratch space of an analysis: values, and per node where its values
 * start, how many are filled, how many of its cells are bad. */
struct work {
	double *v;		     /* m->n */
	size_t *start, *pos, *n_bad; /* nodes + 1, nodes, nodes */
};

/*
 * Each node's row (by_rx 0: the cells it sent) or column (by_rx 1) of
 * one rail: its medians and whether more than half of it is bad.
 */
static void lines_of(const struct rdp_mesh *m, unsigned int rail, int by_rx,
		     struct work *w, struct rail_stats *s)
{
	unsigned int node, who;
	double val;
	size_t i;
	int f;

	memset(w->start, 0, (m->nodes + 1) * sizeof(*w->start));
	memset(w->n_bad, 0, m->nodes * sizeof(*w->n_bad));
	for (i = 0; i < m->n; i++) {
		if (m->cells[i].rail != rail)
			continue;
		who = by_rx ? m->cells[i].rx : m->cells[i].tx;
		w->start[who + 1]++;
		w->n_bad[who] += (size_t)bad(&m->cells[i]);
	}
	for (node = 0; node < m->nodes; node++) {
		(by_rx ? s->col_low : s->row_low)[node] = 2 * w->n_bad[node] >
							  w->start[node + 1];
		w->start[node + 1] += w->start[node];
	}
	for (f = 0; f < N_FIGS; f++) {
		memcpy(w->pos, w->start, m->nodes * sizeof(*w->pos));
		for (i = 0; i < m->n; i++) {
			who = by_rx ? m->cells[i].rx : m->cells[i].tx;
			val = rdp_mesh_fig(&m->cells[i], f);
			if (m->cells[i].rail == rail && !isnan(val))
				w->v[w->pos[who]++] = val;
		}
		for (node = 0; node < m->nodes; node++)
			(by_rx ? s->col : s->row)[f][node] =
				median(w->v + w->start[node],
				       w->pos[node] - w->start[node]);
	}
}

static void classify(struct rdp_mesh_cell *c, const struct rail_stats *s)
{
	if (s->row_low[c->tx] && s->col_low[c->tx]) {
		c->cls = RDP_MESH_CLASS_NODE;
	} else if (s->row_low[c->rx] && s->col_low[c->rx]) {
		c->cls = RDP_MESH_CLASS_NODE;
		c->suspect = c->rx;
	} else if (s->row_low[c->tx]) {
		c->cls = RDP_MESH_CLASS_TX;
	} else if (s->col_low[c->rx]) {
		c->cls = RDP_MESH_CLASS_RX;
		c->suspect = c->rx;
	} else {
		c->cls = RDP_MESH_CLASS_LINK;
	}
}

/* Each retest to the last bad first-pass cell of its sender, receiver and
 * rail; a later retest of the same cell wins. */
static void link_retests(struct rdp_mesh *m)
{
	const struct rdp_mesh_cell *r;
	size_t i, j;

	for (j = 0; j < m->n_re; j++) {
		r = &m->retests[j];
		for (i = m->n; i-- > 0;)
			if (m->cells[i].tx == r->tx &&
			    m->cells[i].rx == r->rx &&
			    m->cells[i].rail == r->rail) {
				if (bad(&m->cells[i]))
					m->cells[i].again = (long)j;
				break;
			}
	}
}

static int limits_ok(const struct rdp_mesh_limits *l)
{
	return l->tol >= 0 && l->tol < 1 && l->min_bw_gbps >= 0 &&
	       l->min_bw_pct >= 0 && l->min_bw_pct <= 100 &&
	       l->max_lat_us >= 0 && isfinite(l->min_bw_gbps) &&
	       isfinite(l->max_lat_us);
}

static int analyze_rail(struct rdp_mesh *m, unsigned int rail, struct work *w,
			const struct rdp_mesh_limits *l)
{
	struct rail_stats *s = &m->stats[rail];
	int ret = alloc_stats(s, m->nodes);

	if (ret)
		return ret;
	rail_medians(m, rail, w->v, s);
	ret = flag_rail(m->cells, m->n, rail, s, l);
	if (!ret)
		ret = flag_rail(m->retests, m->n_re, rail, s, l);
	if (ret)
		return ret;
	lines_of(m, rail, 0, w, s);
	lines_of(m, rail, 1, w, s);
	return 0;
}

int rdp_mesh_analyze(struct rdp_mesh *m, const struct rdp_mesh_limits *l)
{
	struct work w;
	unsigned int rail;
	size_t i;
	int ret = -ENOMEM, n_bad = 0;

	if (!limits_ok(l))
		return -EINVAL;
	unflag(m->cells, m->n);
	unflag(m->retests, m->n_re);
	m->analyzed = 0;
	w.v = malloc((m->n ? m->n : 1) * sizeof(*w.v));
	w.start = malloc((m->nodes + 1) * sizeof(*w.start));
	w.pos = malloc(m->nodes * sizeof(*w.pos));
	w.n_bad = malloc(m->nodes * sizeof(*w.n_bad));
	if (w.v && w.start && w.pos && w.n_bad)
		ret = 0;
	for (rail = 0; rail < m->rails && !ret; rail++)
		ret = analyze_rail(m, rail, &w, l);
	free(w.v);
	free(w.start);
	free(w.pos);
	free(w.n_bad);
	if (ret)
		return ret;
	for (i = 0; i < m->n; i++) {
		if (!bad(&m->cells[i]))
			continue;
		classify(&m->cells[i], &m->stats[m->cells[i].rail]);
		n_bad++;
	}
	link_retests(m);
	m->limits = *l;
	m->analyzed = 1;
	return n_bad;
}
