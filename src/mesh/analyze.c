/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Outliers of a mesh: cells off the median of their rail, past an
 * absolute limit or whose ports' error counters broke --max-errors, and
 * what each bad cell points at from the medians of its sender's row and
 * its receiver's column.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mesh_int.h"

/* Puts the k-th smallest of v (n) at v[k], none larger before it and
 * none smaller after it (Hoare's selection, which splits runs of equal
 * values evenly). */
static void select_kth(double *v, size_t n, size_t k)
{
	ptrdiff_t lo = 0, hi = (ptrdiff_t)n - 1, i, j, kk = (ptrdiff_t)k;
	double x, t;

	while (lo < hi) {
		x = v[kk];
		i = lo;
		j = hi;
		do {
			while (v[i] < x)
				i++;
			while (x < v[j])
				j--;
			if (i <= j) {
				t = v[i];
				v[i++] = v[j];
				v[j--] = t;
			}
		} while (i <= j);
		if (j < kk)
			lo = i;
		if (kk < i)
			hi = j;
	}
}

double rdp_mesh_median(double *v, size_t n)
{
	double low;
	size_t i;

	if (!n)
		return NAN;
	select_kth(v, n, n / 2);
	if (n % 2)
		return v[n / 2];
	/* The largest of the lower half is the other middle value. */
	for (low = v[0], i = 1; i < n / 2; i++)
		if (v[i] > low)
			low = v[i];
	return (low + v[n / 2]) / 2;
}

#define bad    rdp_mesh_bad
#define median rdp_mesh_median

/* Reset what an earlier analysis wrote into the n cells of v. */
static void unflag(struct rdp_mesh_cell *v, size_t n)
{
	struct rdp_mesh_cell *c;
	size_t i;

	for (i = 0; i < n; i++) {
		c = &v[i];
		if (c->status == RDP_MESH_FLAGGED) {
			c->reason = NULL;
			c->status = RDP_MESH_OK;
		}
		c->cls = RDP_MESH_CLASS_NONE;
		c->suspect = c->tx;
		c->again = -1;
		c->errs_over = 0;
	}
}

/*
 * Scratch space of an analysis: the cell numbers by rail (rail r's from
 * first[r] to first[r + 1]), values, and per node where its values
 * start, how many are filled, how many of its cells are bad.
 */
struct work {
	uint32_t *idx;		     /* m->n */
	size_t *first;		     /* rails + 1 */
	double *v;		     /* the most cells of a rail */
	size_t *start, *pos, *n_bad; /* nodes + 1, nodes, nodes */
};

#define for_rail(w, rail, j)                                                   \
	for ((j) = (w)->first[rail]; (j) < (w)->first[(rail) + 1]; (j)++)

/* The medians of a rail's measured cells, and the figure it shows. */
static void rail_medians(const struct rdp_mesh *m, unsigned int rail,
			 const struct work *w, struct rail_stats *s)
{
	const struct rdp_mesh_cell *c;
	size_t j, k;
	int f;

	s->fig = -1;
	for (f = 0; f < N_FIGS; f++) {
		k = 0;
		for_rail(w, rail, j)
		{
			c = &m->cells[w->idx[j]];
			if (c->status == RDP_MESH_FAILED ||
			    !isfinite(rdp_mesh_fig(c, f)))
				continue;
			if (s->fig < 0)
				s->fig = f;
			if (!bad(c))
				w->v[k++] = rdp_mesh_fig(c, f);
		}
		s->med[f] = median(w->v, k);
	}
	s->n_cells = w->first[rail + 1] - w->first[rail];
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

/* Flag c when it breaks a limit, its figures or its ports' error
 * counters: its reason kept in the store. */
static int judge(struct rdp_mesh *m, struct rdp_mesh_cell *c,
		 const struct rail_stats *s, const struct rdp_mesh_limits *l)
{
	char why[1024];
	int ret;

	why[0] = '\0';
	if (isfinite(c->bw_gbps))
		judge_bw(c, s->med[FIG_BW], l, why, sizeof(why));
	if (isfinite(c->lat_us))
		judge_lat(c, s->med[FIG_LAT], l, why, sizeof(why));
	ret = rdp_mesh_errors_judge(&l->max_errors, c, why, sizeof(why));
	if (ret)
		return ret;
	if (!why[0])
		return 0;
	c->reason = rdp_mesh_str_add(&m->flags, why);
	if (!c->reason)
		return -ENOMEM;
	c->status = RDP_MESH_FLAGGED;
	return 0;
}

/* Flag the rail's measured cells and retests that break a limit. */
static int flag_rail(struct rdp_mesh *m, unsigned int rail,
		     const struct work *w, const struct rail_stats *s,
		     const struct rdp_mesh_limits *l)
{
	struct rdp_mesh_cell *c;
	size_t j;
	int ret = 0;

	for_rail(w, rail, j)
	{
		c = &m->cells[w->idx[j]];
		if (!bad(c) && (ret = judge(m, c, s, l)))
			return ret;
	}
	for (j = 0; j < m->n_re; j++) {
		c = &m->retests[j];
		if (c->rail == rail && !bad(c) && (ret = judge(m, c, s, l)))
			return ret;
	}
	return 0;
}

static int alloc_stats(struct rail_stats *s, unsigned int nodes)
{
	size_t pairs = (size_t)nodes * nodes;
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
	if (!s->grid)
		s->grid = malloc(pairs * sizeof(*s->grid));
	if (!s->bads)
		s->bads = malloc((pairs + 7) / 8);
	return s->row_low && s->col_low && s->grid && s->bads ? 0 : -ENOMEM;
}

/*
 * Each node's row (by_rx 0: the cells it sent) or column (by_rx 1) of
 * one rail: its medians and whether more than half of it is bad.
 */
static void lines_of(const struct rdp_mesh *m, unsigned int rail, int by_rx,
		     struct work *w, struct rail_stats *s)
{
	const struct rdp_mesh_cell *c;
	unsigned int node, who;
	double val;
	size_t j;
	int f;

	memset(w->start, 0, (m->nodes + 1) * sizeof(*w->start));
	memset(w->n_bad, 0, m->nodes * sizeof(*w->n_bad));
	for_rail(w, rail, j)
	{
		c = &m->cells[w->idx[j]];
		who = by_rx ? c->rx : c->tx;
		w->start[who + 1]++;
		w->n_bad[who] += (size_t)bad(c);
	}
	for (node = 0; node < m->nodes; node++) {
		(by_rx ? s->col_low : s->row_low)[node] = 2 * w->n_bad[node] >
							  w->start[node + 1];
		w->start[node + 1] += w->start[node];
	}
	for (f = 0; f < N_FIGS; f++) {
		memcpy(w->pos, w->start, m->nodes * sizeof(*w->pos));
		for_rail(w, rail, j)
		{
			c = &m->cells[w->idx[j]];
			who = by_rx ? c->rx : c->tx;
			val = rdp_mesh_fig(c, f);
			if (!isnan(val))
				w->v[w->pos[who]++] = val;
		}
		for (node = 0; node < m->nodes; node++)
			(by_rx ? s->col : s->row)[f][node] =
				median(w->v + w->start[node],
				       w->pos[node] - w->start[node]);
	}
}

/* The rail's grid (the last cell of each pair) and bitmap of pairs with a
 * bad cell. */
static void grid_of(const struct rdp_mesh *m, unsigned int rail,
		    const struct work *w, struct rail_stats *s)
{
	size_t pairs = (size_t)m->nodes * m->nodes, j, bit;
	const struct rdp_mesh_cell *c;

	for (j = 0; j < pairs; j++)
		s->grid[j] = -1;
	memset(s->bads, 0, (pairs + 7) / 8);
	for_rail(w, rail, j)
	{
		c = &m->cells[w->idx[j]];
		bit = rdp_mesh_pair_bit(m, c->tx, c->rx);
		s->grid[bit] = (int32_t)w->idx[j];
		if (bad(c))
			s->bads[bit / 8] |= (unsigned char)(1u << (bit % 8));
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

/* Each retest to the last first-pass cell of its sender, receiver and
 * rail when that cell is bad; a later retest of the same cell wins. */
static void link_retests(struct rdp_mesh *m)
{
	const struct rdp_mesh_cell *r;
	int32_t i;
	size_t j;

	for (j = 0; j < m->n_re; j++) {
		r = &m->retests[j];
		i = m->stats[r->rail].grid[rdp_mesh_pair_bit(m, r->tx, r->rx)];
		if (i >= 0 && bad(&m->cells[i]))
			m->cells[i].again = (long)j;
	}
}

static int limits_ok(const struct rdp_mesh_limits *l)
{
	return l->tol >= 0 && l->tol < 1 && l->min_bw_gbps >= 0 &&
	       l->min_bw_pct >= 0 && l->min_bw_pct <= 100 &&
	       l->max_lat_us >= 0 && isfinite(l->min_bw_gbps) &&
	       isfinite(l->max_lat_us) &&
	       l->max_errors.n <= RDP_MAX_ERRORS_RULES;
}

static int analyze_rail(struct rdp_mesh *m, unsigned int rail, struct work *w,
			const struct rdp_mesh_limits *l)
{
	struct rail_stats *s = &m->stats[rail];
	int ret = alloc_stats(s, m->nodes);

	if (ret)
		return ret;
	rail_medians(m, rail, w, s);
	ret = flag_rail(m, rail, w, s, l);
	if (ret)
		return ret;
	lines_of(m, rail, 0, w, s);
	lines_of(m, rail, 1, w, s);
	grid_of(m, rail, w, s);
	return 0;
}

/* The cell numbers of each rail in w (a counting sort, stable), and room
 * for the values of the largest rail. */
static int work_alloc(const struct rdp_mesh *m, struct work *w)
{
	size_t i, most = 1;
	unsigned int r;

	memset(w, 0, sizeof(*w));
	if (m->n >= INT32_MAX)
		return -E2BIG;
	w->idx = malloc((m->n ? m->n : 1) * sizeof(*w->idx));
	w->first = calloc(m->rails + 1, sizeof(*w->first));
	w->start = malloc((m->nodes + 1) * sizeof(*w->start));
	w->pos = malloc(m->nodes * sizeof(*w->pos));
	w->n_bad = malloc(m->nodes * sizeof(*w->n_bad));
	if (!w->idx || !w->first || !w->start || !w->pos || !w->n_bad)
		return -ENOMEM;
	/* Skipped cells are neither measured nor bad: left out. */
	for (i = 0; i < m->n; i++)
		if (m->cells[i].status != RDP_MESH_SKIPPED)
			w->first[m->cells[i].rail + 1]++;
	for (r = 0; r < m->rails; r++) {
		if (w->first[r + 1] > most)
			most = w->first[r + 1];
		w->first[r + 1] += w->first[r];
	}
	for (i = 0; i < m->n; i++)
		if (m->cells[i].status != RDP_MESH_SKIPPED)
			w->idx[w->first[m->cells[i].rail]++] = (uint32_t)i;
	/* Each first[r] now points where rail r + 1 starts: shift back. */
	for (r = m->rails; r > 0; r--)
		w->first[r] = w->first[r - 1];
	w->first[0] = 0;
	w->v = malloc(most * sizeof(*w->v));
	return w->v ? 0 : -ENOMEM;
}

static void work_free(struct work *w)
{
	free(w->idx);
	free(w->first);
	free(w->v);
	free(w->start);
	free(w->pos);
	free(w->n_bad);
}

int rdp_mesh_analyze(struct rdp_mesh *m, const struct rdp_mesh_limits *l)
{
	struct work w;
	unsigned int rail;
	size_t i;
	int ret, n_bad = 0;

	if (!limits_ok(l))
		return -EINVAL;
	unflag(m->cells, m->n);
	unflag(m->retests, m->n_re);
	rdp_mesh_str_free(&m->flags);
	m->analyzed = 0;
	ret = work_alloc(m, &w);
	for (rail = 0; rail < m->rails && !ret; rail++)
		ret = analyze_rail(m, rail, &w, l);
	work_free(&w);
	if (ret)
		return ret;
	/* The skipped cells show in the matrices where nothing else does. */
	for (i = 0; i < m->n; i++)
		if (m->cells[i].status == RDP_MESH_SKIPPED)
			rdp_mesh_grid_put(m, m->stats[m->cells[i].rail].grid,
					  i);
	for (i = 0; i < m->n; i++) {
		if (!bad(&m->cells[i]))
			continue;
		classify(&m->cells[i], &m->stats[m->cells[i].rail]);
		n_bad++;
	}
	link_retests(m);
	/* Which nodes' ports the error counters point at. */
	ret = rdp_mesh_errors_tally(m);
	if (ret)
		return ret;
	m->limits = *l;
	m->analyzed = 1;
	return n_bad;
}
