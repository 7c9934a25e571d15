/* SPDX-License-Identifier: BSD-2-Clause */
/* The cell store of a mesh: nodes and their names, cells in the order
 * they were added, the sender x receiver grid of a rail. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "mesh_int.h"

static int copy_names(struct rdp_mesh *m, const char *const *names)
{
	char buf[32];
	unsigned int i;

	m->names = calloc(m->nodes, sizeof(*m->names));
	if (!m->names)
		return -ENOMEM;
	for (i = 0; i < m->nodes; i++) {
		snprintf(buf, sizeof(buf), "node%u", i);
		m->names[i] = strdup(names && names[i] ? names[i] : buf);
		if (!m->names[i])
			return -ENOMEM;
	}
	return 0;
}

int rdp_mesh_create(const struct rdp_mesh_plan *plan, unsigned int rails,
		    const char *const *names, struct rdp_mesh **out)
{
	struct rdp_mesh *m;

	if (!plan || !rails || rails > RDP_MESH_MAX_RAILS)
		return -EINVAL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->plan = plan;
	m->nodes = rdp_mesh_plan_opts(plan)->nodes;
	m->rails = rails;
	m->json_cells_max = RDP_MESH_JSON_MAX_CELLS;
	m->stats = calloc(rails, sizeof(*m->stats));
	if (!m->stats || copy_names(m, names)) {
		rdp_mesh_free(m);
		return -ENOMEM;
	}
	*out = m;
	return 0;
}

static void free_stats(struct rail_stats *s)
{
	int f;

	for (f = 0; f < N_FIGS; f++) {
		free(s->row[f]);
		free(s->col[f]);
	}
	free(s->row_low);
	free(s->col_low);
	free(s->grid);
	free(s->bads);
}

static void free_groups(struct rdp_mesh *m)
{
	unsigned int g;

	for (g = 0; m->group_names && g < m->n_groups; g++)
		free(m->group_names[g]);
	free(m->group_names);
	free(m->group_of);
	m->group_names = NULL;
	m->group_of = NULL;
	m->n_groups = 0;
}

void rdp_mesh_free(struct rdp_mesh *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->n; i++)
		json_decref(m->cells[i].result);
	free(m->cells);
	for (i = 0; i < m->n_re; i++)
		json_decref(m->retests[i].result);
	free(m->retests);
	free(m->first);
	free(m->last);
	free(m->next);
	rdp_mesh_str_free(&m->reasons);
	rdp_mesh_str_free(&m->flags);
	rdp_mesh_str_free(&m->errs);
	free(m->nerr);
	free_groups(m);
	free(m->times);
	free(m->pruned);
	for (i = 0; m->names && i < m->nodes; i++)
		free(m->names[i]);
	free(m->names);
	for (i = 0; m->stats && i < m->rails; i++)
		free_stats(&m->stats[i]);
	free(m->stats);
	free(m);
}

/* Room for one more cell in *v (of *n, *cap). */
static int grow(struct rdp_mesh_cell **v, size_t n, size_t *cap)
{
	size_t want = *cap ? 2 * *cap : 64;
	struct rdp_mesh_cell *c;

	if (n < *cap)
		return 0;
	c = realloc(*v, want * sizeof(*c));
	if (!c)
		return -ENOMEM;
	*v = c;
	*cap = want;
	return 0;
}

/* A copy of c at the end of *v, the reason of a cell that is not OK
 * interned in the store, its error counters kept there. */
static int add_to(struct rdp_mesh *m, struct rdp_mesh_cell **v, size_t *n,
		  size_t *cap, const struct rdp_mesh_cell *c)
{
	const struct rdp_mesh_errors *errs = NULL;
	struct rdp_mesh_cell *d;
	const char *why = NULL;

	if (c->tx >= m->nodes || c->rx >= m->nodes || c->tx == c->rx ||
	    c->rail >= m->rails ||
	    (c->status != RDP_MESH_OK && c->status != RDP_MESH_FAILED &&
	     c->status != RDP_MESH_SKIPPED))
		return -EINVAL;
	if (c->status != RDP_MESH_OK) {
		why = rdp_mesh_str_intern(&m->reasons,
					  c->reason && *c->reason
						  ? c->reason
						  : "no reason given");
		if (!why)
			return -ENOMEM;
	}
	if (c->status != RDP_MESH_SKIPPED &&
	    rdp_mesh_errors_keep(m, c->errors, &errs))
		return -ENOMEM;
	if (grow(v, *n, cap))
		return -ENOMEM;
	d = &(*v)[(*n)++];
	*d = *c;
	d->reason = why;
	d->errors = errs;
	d->errs_over = 0;
	d->cls = RDP_MESH_CLASS_NONE;
	d->suspect = c->tx;
	d->again = -1;
	return 0;
}

/* Room in the round index for one more cell of round k. */
static int index_room(struct rdp_mesh *m, unsigned int k)
{
	size_t want = m->cap_idx ? 2 * m->cap_idx : 64, i;
	int32_t *v;

	if (k >= RDP_MESH_MAX_ROUND)
		return -EINVAL;
	if (m->n >= INT32_MAX)
		return -E2BIG;
	if (m->n >= m->cap_idx) {
		v = realloc(m->next, want * sizeof(*v));
		if (!v)
			return -ENOMEM;
		m->next = v;
		m->cap_idx = want;
	}
	if (k < m->n_idx)
		return 0;
	want = (size_t)k + 1 > 2 * m->n_idx ? (size_t)k + 1 : 2 * m->n_idx;
	v = realloc(m->first, want * sizeof(*v));
	if (v)
		m->first = v;
	v = v ? realloc(m->last, want * sizeof(*v)) : NULL;
	if (!v)
		return -ENOMEM;
	m->last = v;
	for (i = m->n_idx; i < want; i++)
		m->first[i] = m->last[i] = -1;
	m->n_idx = want;
	return 0;
}

/* Cell i (just added) at the end of its round's list. */
static void index_add(struct rdp_mesh *m, size_t i)
{
	unsigned int k = m->cells[i].round;

	m->next[i] = -1;
	if (m->last[k] >= 0)
		m->next[m->last[k]] = (int32_t)i;
	else
		m->first[k] = (int32_t)i;
	m->last[k] = (int32_t)i;
}

int rdp_mesh_add(struct rdp_mesh *m, const struct rdp_mesh_cell *c)
{
	int ret = index_room(m, c->round);

	if (!ret)
		ret = add_to(m, &m->cells, &m->n, &m->cap, c);
	if (ret) {
		json_decref(c->result);
		return ret;
	}
	index_add(m, m->n - 1);
	m->analyzed = 0;
	return 0;
}

/* Whether the last analysis left a bad cell of c's sender, receiver and
 * rail. */
static int was_bad(const struct rdp_mesh *m, const struct rdp_mesh_cell *c)
{
	size_t bit;

	if (!m->analyzed || c->tx >= m->nodes || c->rx >= m->nodes ||
	    c->rail >= m->rails)
		return 0;
	bit = rdp_mesh_pair_bit(m, c->tx, c->rx);
	return m->stats[c->rail].bads[bit / 8] >> (bit % 8) & 1;
}

int rdp_mesh_add_retest(struct rdp_mesh *m, const struct rdp_mesh_cell *c)
{
	int ret = c->status == RDP_MESH_SKIPPED ? -EINVAL
		  : was_bad(m, c)		? 0
						: -ENOENT;

	if (!ret)
		ret = add_to(m, &m->retests, &m->n_re, &m->cap_re, c);
	if (ret)
		json_decref(c->result);
	return ret;
}

int rdp_mesh_add_retest_new(struct rdp_mesh *m, const struct rdp_mesh_cell *c)
{
	int ret = c->status == RDP_MESH_SKIPPED
			  ? -EINVAL
			  : add_to(m, &m->retests, &m->n_re, &m->cap_re, c);

	if (ret)
		json_decref(c->result);
	return ret;
}

/* Whether x is in the bitmap seen of pairs; puts it there. */
static int listed(const struct rdp_mesh *m, unsigned char *seen,
		  const struct rdp_mesh_xfer *x)
{
	size_t bit = rdp_mesh_pair_bit(m, x->tx, x->rx);
	int was = seen[bit / 8] >> (bit % 8) & 1;

	seen[bit / 8] |= (unsigned char)(1u << (bit % 8));
	return was;
}

int rdp_mesh_retest_pairs(const struct rdp_mesh *m, struct rdp_mesh_xfer **out,
			  size_t *n)
{
	int both = rdp_mesh_plan_opts(m->plan)->bidir;
	size_t i, k = 0, pairs = (size_t)m->nodes * m->nodes;
	struct rdp_mesh_xfer *v = NULL, x;
	const struct rdp_mesh_cell *c;
	unsigned char *seen;

	if (!m->analyzed)
		return -EINVAL;
	seen = calloc((pairs + 7) / 8, 1);
	if (!seen)
		return -ENOMEM;
	for (i = 0; i < m->n; i++) {
		c = &m->cells[i];
		if (!rdp_mesh_bad(c))
			continue;
		x = (struct rdp_mesh_xfer){ .tx = c->tx, .rx = c->rx };
		if (both) {
			x.tx = c->tx < c->rx ? c->tx : c->rx;
			x.rx = c->tx < c->rx ? c->rx : c->tx;
			x.both = 1;
		}
		if (listed(m, seen, &x))
			continue;
		/* Each pair once: no more of them than pairs of nodes. */
		if (!v &&
		    !(v = calloc(m->n < pairs ? m->n : pairs, sizeof(*v)))) {
			free(seen);
			return -ENOMEM;
		}
		v[k++] = x;
	}
	free(seen);
	*out = v;
	*n = k;
	return 0;
}

int rdp_mesh_set_round_time(struct rdp_mesh *m, size_t k,
			    const struct rdp_mesh_round_time *t)
{
	struct rdp_mesh_round_time *v;

	if (k >= m->n_times) {
		v = realloc(m->times, (k + 1) * sizeof(*v));
		if (!v)
			return -ENOMEM;
		memset(v + m->n_times, 0, (k + 1 - m->n_times) * sizeof(*v));
		m->times = v;
		m->n_times = k + 1;
	}
	m->times[k] = *t;
	return 0;
}

void rdp_mesh_set_scale(struct rdp_mesh *m, enum rdp_mesh_scale s)
{
	m->scale = s;
}

void rdp_mesh_set_bootstrap_time(struct rdp_mesh *m, double s)
{
	m->bootstrap_s = s;
}

size_t rdp_mesh_time_total(const struct rdp_mesh *m,
			   struct rdp_mesh_round_time *sum)
{
	size_t k, n = 0;

	memset(sum, 0, sizeof(*sum));
	for (k = 0; k < m->n_times; k++) {
		if (m->times[k].wall_s <= 0)
			continue;
		sum->wall_s += m->times[k].wall_s;
		sum->pair_s += m->times[k].pair_s;
		sum->measured_s += m->times[k].measured_s;
		n++;
	}
	return n;
}

size_t rdp_mesh_n_cells(const struct rdp_mesh *m)
{
	return m->n;
}

size_t rdp_mesh_n_retests(const struct rdp_mesh *m)
{
	return m->n_re;
}

const struct rdp_mesh_cell *rdp_mesh_retest_at(const struct rdp_mesh *m,
					       size_t i)
{
	return i < m->n_re ? &m->retests[i] : NULL;
}

const struct rdp_mesh_cell *rdp_mesh_cell_at(const struct rdp_mesh *m, size_t i)
{
	return i < m->n ? &m->cells[i] : NULL;
}

const char *rdp_mesh_node_name(const struct rdp_mesh *m, unsigned int node)
{
	return node < m->nodes ? m->names[node] : "?";
}

const char *rdp_mesh_status_name(enum rdp_mesh_status s)
{
	static const char *const s_names[] = { "ok", "failed", "flagged",
					       "skipped" };

	return (unsigned int)s < 4 ? s_names[s] : "?";
}

const char *rdp_mesh_class_name(enum rdp_mesh_class c)
{
	static const char *const c_names[] = { "", "node", "tx-direction",
					       "rx-direction", "link" };

	return (unsigned int)c < 5 ? c_names[c] : "?";
}

double rdp_mesh_fig(const struct rdp_mesh_cell *c, int fig)
{
	if (c->status == RDP_MESH_FAILED)
		return fig == FIG_BW ? 0 : INFINITY;
	return fig == FIG_BW ? c->bw_gbps : c->lat_us;
}

int rdp_mesh_rail_fig(const struct rdp_mesh *m, unsigned int rail)
{
	int fig = -1;
	size_t i;

	if (rail >= m->rails)
		return -1;
	if (m->analyzed)
		return m->stats[rail].fig;
	for (i = 0; i < m->n; i++) {
		const struct rdp_mesh_cell *c = &m->cells[i];

		if (c->rail != rail || c->status == RDP_MESH_FAILED)
			continue;
		if (isfinite(c->bw_gbps))
			return FIG_BW;
		if (isfinite(c->lat_us))
			fig = FIG_LAT;
	}
	return fig;
}

int32_t *rdp_mesh_grid(const struct rdp_mesh *m, unsigned int rail)
{
	size_t cells = (size_t)m->nodes * m->nodes, i;
	int32_t *g = malloc(cells * sizeof(*g));

	if (!g)
		return NULL;
	if (m->analyzed)
		return memcpy(g, m->stats[rail].grid, cells * sizeof(*g));
	for (i = 0; i < cells; i++)
		g[i] = -1;
	for (i = 0; i < m->n; i++)
		if (m->cells[i].rail == rail)
			rdp_mesh_grid_put(m, g, i);
	return g;
}

void rdp_mesh_set_json_cells_max(struct rdp_mesh *m, size_t cells)
{
	m->json_cells_max = cells;
}

/* Names "name_of(g)" for each group, copied, or "first-last" of the
 * consecutive nodes group g holds. */
static int name_groups(struct rdp_mesh *m, const char *const *names)
{
	unsigned int g, i, lo, hi;
	char buf[32];

	m->group_names = calloc(m->n_groups, sizeof(*m->group_names));
	if (!m->group_names)
		return -ENOMEM;
	for (g = 0; g < m->n_groups; g++) {
		lo = m->nodes;
		hi = 0;
		for (i = 0; i < m->nodes; i++)
			if (m->group_of[i] == g) {
				lo = i < lo ? i : lo;
				hi = i;
			}
		if (lo > hi)
			snprintf(buf, sizeof(buf), "group%u", g);
		else
			snprintf(buf, sizeof(buf), "%u-%u", lo, hi);
		m->group_names[g] = strdup(names && names[g] ? names[g] : buf);
		if (!m->group_names[g])
			return -ENOMEM;
	}
	return 0;
}

int rdp_mesh_set_groups(struct rdp_mesh *m, const unsigned int *group_of,
			unsigned int groups, const char *const *names)
{
	unsigned int i;

	if (group_of && !groups)
		return -EINVAL;
	for (i = 0; group_of && i < m->nodes; i++)
		if (group_of[i] >= groups)
			return -EINVAL;
	free_groups(m);
	if (!group_of)
		return 0;
	m->group_of = malloc(m->nodes * sizeof(*m->group_of));
	if (!m->group_of)
		return -ENOMEM;
	memcpy(m->group_of, group_of, m->nodes * sizeof(*m->group_of));
	m->n_groups = groups;
	if (name_groups(m, names)) {
		free_groups(m);
		return -ENOMEM;
	}
	return 0;
}

void rdp_mesh_grid_put(const struct rdp_mesh *m, int32_t *g, size_t i)
{
	const struct rdp_mesh_cell *c = &m->cells[i];
	int32_t *at = &g[rdp_mesh_pair_bit(m, c->tx, c->rx)];

	if (c->status != RDP_MESH_SKIPPED || *at < 0 ||
	    m->cells[*at].status == RDP_MESH_SKIPPED)
		*at = (int32_t)i;
}

int rdp_mesh_set_pruned(struct rdp_mesh *m, const struct rdp_mesh_pruned *p,
			size_t n)
{
	struct rdp_mesh_pruned *v = NULL;
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i].node >= m->nodes)
			return -EINVAL;
	if (n && !(v = malloc(n * sizeof(*v))))
		return -ENOMEM;
	if (n)
		memcpy(v, p, n * sizeof(*v));
	free(m->pruned);
	m->pruned = v;
	m->n_pruned = n;
	m->pruning = 1;
	return 0;
}

void rdp_mesh_pruned_reason(const struct rdp_mesh_pruned *p, char *buf,
			    size_t len)
{
	snprintf(buf, len, "failed against %u of %u peers by round %zu",
		 p->failed_peers, p->peers, p->after_round + 1);
}

void rdp_mesh_set_coverage(struct rdp_mesh *m,
			   const struct rdp_mesh_coverage *c)
{
	m->coverage = *c;
	m->has_coverage = 1;
}

size_t rdp_mesh_n_skipped(const struct rdp_mesh *m)
{
	size_t n = 0, i;

	for (i = 0; i < m->n; i++)
		n += m->cells[i].status == RDP_MESH_SKIPPED;
	return n;
}
