/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --pattern cover on the fabric: the leaf groups of a mesh's nodes and
 * how many of each cross the spines at a load, for the plan; then what
 * the measured cells covered: node cables and leaf-spine uplinks.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include <rdmaperf/mesh_plan.h>

#include "mesh_int.h"
#include "topo_int.h"

void rdp_mesh_cover_fini(struct rdp_mesh_cover *c)
{
	if (!c)
		return;
	free(c->group);
	free(c->quota);
	free(c->uplinks);
	memset(c, 0, sizeof(*c));
}

/* Whether nodes a and b are on the same leaf on every rail. */
static int same_leaves(const struct rdp_mesh_place *p, unsigned int a,
		       unsigned int b)
{
	return !memcmp(&p->leaf[(size_t)a * p->rails],
		       &p->leaf[(size_t)b * p->rails],
		       p->rails * sizeof(*p->leaf));
}

/*
 * Group numbers in order of first node. The groups of one rail 0 leaf
 * are chained from first[leaf ordinal] through next[] (one for a
 * rail-optimised fabric), rep[g] a node of group g.
 */
static int make_groups(const struct rdp_mesh_place *p, struct rdp_mesh_cover *c,
		       unsigned int *rep)
{
	const struct rdp_mesh_topo *t = p->t;
	unsigned int *first, *next, n, g, ord;

	first = malloc((t->n_leaves ? t->n_leaves : 1) * sizeof(*first));
	next = malloc(p->nodes * sizeof(*next));
	if (!first || !next) {
		free(first);
		free(next);
		return -ENOMEM;
	}
	memset(first, 0xff, (t->n_leaves ? t->n_leaves : 1) * sizeof(*first));
	for (n = 0; n < p->nodes; n++) {
		ord = (unsigned int)t->leaf_ord[p->leaf[(size_t)n * p->rails]];
		for (g = first[ord]; g != UINT32_MAX; g = next[g])
			if (same_leaves(p, rep[g], n))
				break;
		if (g == UINT32_MAX) {
			g = c->groups++;
			rep[g] = n;
			next[g] = first[ord];
			first[ord] = g;
		}
		c->group[n] = g;
	}
	free(first);
	free(next);
	return 0;
}

/* Quota and uplinks of each group from its rail 0 leaf. */
static void set_quotas(const struct rdp_mesh_place *p, struct rdp_mesh_cover *c,
		       const unsigned int *rep)
{
	const struct rdp_mesh_topo *t = p->t;
	unsigned int *size = c->quota, g, n, ord, u, q;

	/* quota[] holds the group sizes until replaced below. */
	for (n = 0; n < p->nodes; n++)
		size[c->group[n]]++;
	for (g = 0; g < c->groups; g++) {
		ord = (unsigned int)
			      t->leaf_ord[p->leaf[(size_t)rep[g] * p->rails]];
		u = t->up_start[ord + 1] - t->up_start[ord];
		q = (c->load_pct * u + 99) / 100;
		q = q ? q : 1;
		c->uplinks[g] = u;
		c->quota[g] = !u ? 0 : q < size[g] ? q : size[g];
	}
}

int rdp_mesh_cover_of(const struct rdp_mesh_place *p, unsigned int load_pct,
		      struct rdp_mesh_cover *out)
{
	struct rdp_mesh_cover c = { .load_pct = load_pct };
	unsigned int *rep;
	int ret = -ENOMEM;

	if (!load_pct || load_pct > 100 || !p->nodes)
		return -EINVAL;
	c.group = calloc(p->nodes, sizeof(*c.group));
	c.quota = calloc(p->nodes, sizeof(*c.quota));
	c.uplinks = calloc(p->nodes, sizeof(*c.uplinks));
	rep = calloc(p->nodes, sizeof(*rep));
	if (c.group && c.quota && c.uplinks && rep)
		ret = make_groups(p, &c, rep);
	if (!ret)
		set_quotas(p, &c, rep);
	free(rep);
	if (ret) {
		rdp_mesh_cover_fini(&c);
		return ret;
	}
	*out = c;
	return 0;
}

void rdp_mesh_cover_plan_opts(const struct rdp_mesh_cover *c,
			      struct rdp_mesh_plan_opts *o)
{
	o->cover_group = c->group;
	o->cover_quota = c->quota;
	o->cover_uplinks = c->uplinks;
	o->cover_groups = c->groups;
	o->cover_load_pct = c->load_pct;
}

/* The marks of the cells: sent[] and got[] per node rail, per link bit 1
 * a candidate of a cell, bit 2 a cell's only way; hops grown as needed. */
struct marks {
	unsigned char *sent, *got, *link;
	struct rdp_mesh_hop *hops;
	size_t cap;
};

/* What one cell's path covered: its cables and its hops' uplinks. */
static int mark_cell(const struct rdp_mesh_place *p,
		     const struct rdp_mesh_cell *cell, struct marks *k)
{
	struct rdp_mesh_path path;
	struct rdp_mesh_hop *h;
	size_t i, at;
	int ret;

	ret = rdp_mesh_place_path(p, cell->tx, cell->rx, cell->rail, &path,
				  k->hops, k->cap);
	if (!ret && path.n_hops > k->cap) {
		h = realloc(k->hops, path.n_hops * sizeof(*h));
		if (!h)
			return -ENOMEM;
		k->hops = h;
		k->cap = path.n_hops;
		ret = rdp_mesh_place_path(p, cell->tx, cell->rx, cell->rail,
					  &path, k->hops, k->cap);
	}
	if (ret == -EHOSTUNREACH || ret == -EINVAL)
		return 0; /* no path: nothing to mark */
	if (ret)
		return ret;
	at = (size_t)cell->tx * p->rails + cell->rail;
	k->sent[at] = 1;
	k->got[(size_t)cell->rx * p->rails + cell->rail] = 1;
	for (i = 0; i < path.n_hops; i++) {
		k->link[k->hops[i].up] |= path.n_hops == 1 ? 3 : 1;
		k->link[k->hops[i].down] |= path.n_hops == 1 ? 3 : 1;
	}
	return 0;
}

/* The counts from the marks: cables, and the uplinks of the mesh's
 * leaves (their bit 4 set here). */
static void count_reach(const struct rdp_mesh_place *p,
			const unsigned char *sent, const unsigned char *got,
			unsigned char *link, struct rdp_mesh_cover_reach *r)
{
	const struct rdp_mesh_topo *t = p->t;
	size_t i, n = (size_t)p->nodes * p->rails;
	unsigned int ord, u;

	memset(r, 0, sizeof(*r));
	r->cables_all = (unsigned int)n;
	for (i = 0; i < n; i++) {
		r->cables += sent[i] || got[i];
		r->both_ways += sent[i] && got[i];
		ord = (unsigned int)t->leaf_ord[p->leaf[i]];
		for (u = t->up_start[ord]; u < t->up_start[ord + 1]; u++)
			link[t->up[u].link] |= 4;
	}
	for (i = 0; i < t->n_link; i++) {
		if (!(link[i] & 4))
			continue;
		r->uplinks_all++;
		r->uplinks += !!(link[i] & 1);
		r->uplinks_sure += !!(link[i] & 2);
	}
}

int rdp_mesh_cover_reach_of(const struct rdp_mesh *m,
			    const struct rdp_mesh_place *p,
			    struct rdp_mesh_cover_reach *out)
{
	size_t n = (size_t)p->nodes * p->rails, i;
	struct marks k = { .cap = 16 };
	int ret = -ENOMEM;

	if (m->nodes != p->nodes || m->rails > p->rails)
		return -EINVAL;
	k.sent = calloc(n, 1);
	k.got = calloc(n, 1);
	k.link = calloc(p->t->n_link + 1, 1);
	k.hops = calloc(k.cap, sizeof(*k.hops));
	if (k.sent && k.got && k.link && k.hops)
		ret = 0;
	for (i = 0; !ret && i < m->n; i++)
		if (m->cells[i].status == RDP_MESH_OK ||
		    m->cells[i].status == RDP_MESH_FLAGGED)
			ret = mark_cell(p, &m->cells[i], &k);
	if (!ret)
		count_reach(p, k.sent, k.got, k.link, out);
	free(k.sent);
	free(k.got);
	free(k.link);
	free(k.hops);
	return ret;
}

int rdp_mesh_set_cover(struct rdp_mesh *m, const struct rdp_mesh_cover_reach *r)
{
	m->has_cover = !!r;
	if (r)
		m->cover = *r;
	return 0;
}

json_t *rdp_mesh_cover_json(const struct rdp_mesh *m)
{
	const struct rdp_mesh_cover_reach *r = &m->cover;

	return json_pack("{s:{s:I,s:I,s:I},s:{s:I,s:I,s:I}}", "node_cables",
			 "carried", (json_int_t)r->cables, "of",
			 (json_int_t)r->cables_all, "both_ways",
			 (json_int_t)r->both_ways, "uplinks", "expected",
			 (json_int_t)r->uplinks, "of",
			 (json_int_t)r->uplinks_all, "sure",
			 (json_int_t)r->uplinks_sure);
}

void rdp_mesh_cover_reach_print(const struct rdp_mesh_cover_reach *r, FILE *out)
{
	fprintf(out,
		"cover: %u of %u node cables carried traffic (%u both ways); "
		"%u of %u leaf-spine uplinks expected to (ECMP picks each "
		"flow's uplink: %u were a flow's only way)\n",
		r->cables, r->cables_all, r->both_ways, r->uplinks,
		r->uplinks_all, r->uplinks_sure);
}
