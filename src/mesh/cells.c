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
}

void rdp_mesh_free(struct rdp_mesh *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->n; i++) {
		free((char *)m->cells[i].reason);
		json_decref(m->cells[i].result);
	}
	free(m->cells);
	for (i = 0; m->names && i < m->nodes; i++)
		free(m->names[i]);
	free(m->names);
	for (i = 0; m->stats && i < m->rails; i++)
		free_stats(&m->stats[i]);
	free(m->stats);
	free(m);
}

static int grow(struct rdp_mesh *m)
{
	size_t cap = m->cap ? 2 * m->cap : 64;
	struct rdp_mesh_cell *c;

	c = realloc(m->cells, cap * sizeof(*c));
	if (!c)
		return -ENOMEM;
	m->cells = c;
	m->cap = cap;
	return 0;
}

static int add(struct rdp_mesh *m, const struct rdp_mesh_cell *c)
{
	struct rdp_mesh_cell *d;
	const char *why = NULL;

	if (c->tx >= m->nodes || c->rx >= m->nodes || c->tx == c->rx ||
	    c->rail >= m->rails ||
	    (c->status != RDP_MESH_OK && c->status != RDP_MESH_FAILED))
		return -EINVAL;
	if (c->status == RDP_MESH_FAILED) {
		why = strdup(c->reason && *c->reason ? c->reason
						     : "no reason given");
		if (!why)
			return -ENOMEM;
	}
	if (m->n == m->cap && grow(m)) {
		free((char *)why);
		return -ENOMEM;
	}
	d = &m->cells[m->n++];
	*d = *c;
	d->reason = why;
	d->cls = RDP_MESH_CLASS_NONE;
	d->suspect = c->tx;
	m->analyzed = 0;
	return 0;
}

int rdp_mesh_add(struct rdp_mesh *m, const struct rdp_mesh_cell *c)
{
	int ret = add(m, c);

	if (ret)
		json_decref(c->result);
	return ret;
}

size_t rdp_mesh_n_cells(const struct rdp_mesh *m)
{
	return m->n;
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
	static const char *const s_names[] = { "ok", "failed", "flagged" };

	return (unsigned int)s < 3 ? s_names[s] : "?";
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
	for (i = 0; i < cells; i++)
		g[i] = -1;
	for (i = 0; i < m->n; i++)
		if (m->cells[i].rail == rail)
			g[(size_t)m->cells[i].tx * m->nodes + m->cells[i].rx] =
				(int32_t)i;
	return g;
}
