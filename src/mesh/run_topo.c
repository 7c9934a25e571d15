/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --topology in a measured mesh, on rank 0: the fabric loaded and the
 * nodes bound to it before the first round (with --pattern cover, its
 * leaf groups sent to every rank for the plan), then, once the cells are
 * analysed, each cell's path in the files, the heatmaps by leaf past
 * RDP_MESH_HEATMAP_MAX_NODES nodes, the faults that explain the bad
 * cells (mesh.json's faults[], and lines after the outliers) and what a
 * cover reached (mesh.json's cover).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include <rdmaperf/boot.h>
#include <rdmaperf/log.h>
#include <rdmaperf/mesh_run.h>

#include "mesh_int.h"
#include "topo_int.h"

struct rdp_mesh_run_topo {
	struct rdp_mesh_topo *topo;
	struct rdp_mesh_place *place;
	struct rdp_mesh_faults *faults;
	struct rdp_mesh_cover_reach reach; /* --pattern cover */
	int has_reach;
};

int rdp_mesh_run_topo_load(const char *path, const char *const *names,
			   unsigned int nodes, unsigned int rails,
			   struct rdp_mesh_run_topo **out)
{
	struct rdp_mesh_run_topo *rt;
	char why[512];
	int ret;

	*out = NULL;
	if (!path)
		return 0;
	rt = calloc(1, sizeof(*rt));
	if (!rt)
		return -ENOMEM;
	ret = rdp_mesh_topo_load(path, &rt->topo, why, sizeof(why));
	if (ret == -EINVAL)
		rdp_err("mesh: --topology %s", why);
	else if (ret)
		rdp_err("mesh: --topology %s: %s", path, strerror(-ret));
	if (!ret) {
		ret = rdp_mesh_place_create(rt->topo, names, nodes, rails,
					    &rt->place, why, sizeof(why));
		if (ret == -EINVAL)
			rdp_err("mesh: --topology %s: %s", path, why);
	}
	if (ret) {
		rdp_mesh_run_topo_free(rt);
		/* A file that cannot be read is the command line's fault. */
		return ret == -ENOMEM ? ret : -EINVAL;
	}
	*out = rt;
	return 0;
}

void rdp_mesh_run_topo_free(struct rdp_mesh_run_topo *rt)
{
	if (!rt)
		return;
	rdp_mesh_faults_free(rt->faults);
	rdp_mesh_place_free(rt->place);
	rdp_mesh_topo_free(rt->topo);
	free(rt);
}

const struct rdp_mesh_place *
rdp_mesh_run_topo_place(const struct rdp_mesh_run_topo *rt)
{
	return rt ? rt->place : NULL;
}

void rdp_mesh_leaf_groups(const struct rdp_mesh_place *p,
			  unsigned int *group_of, const char **names,
			  unsigned int *groups)
{
	const struct rdp_mesh_topo *t = p->t;
	unsigned int n, g, sw;

	*groups = 0;
	for (n = 0; n < p->nodes; n++) {
		sw = p->leaf[(size_t)n * p->rails];
		for (g = 0; g < *groups; g++)
			if (!strcmp(names[g], t->sw[sw].name))
				break;
		if (g == *groups)
			names[(*groups)++] = t->sw[sw].name;
		group_of[n] = g;
	}
}

/* Past RDP_MESH_HEATMAP_MAX_NODES nodes the heatmaps draw a box per
 * sender leaf x receiver leaf (their rail 0's leaves); below, a box a
 * node keeps more to see. */
static int set_leaf_groups(const struct rdp_mesh_place *p, struct rdp_mesh *m)
{
	unsigned int *group_of, groups;
	const char **names;
	int ret = -ENOMEM;

	if (p->nodes <= RDP_MESH_HEATMAP_MAX_NODES)
		return 0;
	group_of = calloc(p->nodes, sizeof(*group_of));
	names = calloc(p->t->n_sw, sizeof(*names));
	if (group_of && names) {
		rdp_mesh_leaf_groups(p, group_of, names, &groups);
		ret = rdp_mesh_set_groups(m, group_of, groups, names);
	}
	free(group_of);
	free(names);
	return ret;
}

/* After a cover: what its cells reached of the fabric. */
static void cover_reach(struct rdp_mesh_run_topo *rt, struct rdp_mesh *m)
{
	int ret;

	if (rdp_mesh_plan_opts(m->plan)->pattern != RDP_MESH_COVER)
		return;
	ret = rdp_mesh_cover_reach_of(m, rt->place, &rt->reach);
	if (ret) {
		rdp_warn("mesh: what the cover reached: %s", strerror(-ret));
		return;
	}
	rt->has_reach = 1;
	rdp_mesh_set_cover(m, &rt->reach);
}

int rdp_mesh_run_topo_locate(struct rdp_mesh_run_topo *rt, struct rdp_mesh *m)
{
	int ret;

	if (!rt)
		return 0;
	m->place = rt->place;
	cover_reach(rt, m);
	ret = set_leaf_groups(rt->place, m);
	if (!ret)
		ret = rdp_mesh_locate(m, rt->place, &rt->faults);
	if (ret) {
		rdp_warn("mesh: the faults on the fabric: %s", strerror(-ret));
		return ret;
	}
	rdp_mesh_set_faults(m, rt->faults);
	return 0;
}

void rdp_mesh_run_topo_print(const struct rdp_mesh_run_topo *rt, FILE *out)
{
	if (rt && rt->faults)
		rdp_mesh_faults_print(rt->faults, out);
	if (rt && rt->has_reach)
		rdp_mesh_cover_reach_print(&rt->reach, out);
}

/* Rank 0's cover groups (status: its load's outcome) on every rank,
 * as 32-bit words: status, groups, load, then per node its group, per
 * group (up to nodes) its quota and its uplinks. */
static int share_cover(struct rdp_boot *b, int status, struct rdp_mesh_cover *c,
		       unsigned int nodes, int timeout_ms)
{
	size_t len = 3 + 3 * (size_t)nodes, i;
	uint32_t *w = calloc(len, sizeof(*w)), *q = w + 3 + nodes;
	int ret;

	if (!w)
		return -ENOMEM; /* the others time out in their bcast */
	w[0] = (uint32_t)status;
	for (i = 0; !b->rank && !status && i < nodes; i++) {
		w[3 + i] = c->group[i];
		q[i] = i < c->groups ? c->quota[i] : 0;
		q[nodes + i] = i < c->groups ? c->uplinks[i] : 0;
	}
	w[1] = c->groups;
	w[2] = c->load_pct;
	ret = b->ops->bcast(b, w, len * sizeof(*w), timeout_ms);
	if (!ret)
		ret = (int32_t)w[0];
	if (!ret && b->rank) {
		c->groups = w[1];
		c->load_pct = w[2];
		c->group = malloc(nodes * sizeof(*c->group));
		c->quota = malloc(nodes * sizeof(*c->quota));
		c->uplinks = malloc(nodes * sizeof(*c->uplinks));
		ret = c->group && c->quota && c->uplinks ? 0 : -ENOMEM;
	}
	for (i = 0; !ret && b->rank && i < nodes; i++) {
		c->group[i] = w[3 + i];
		c->quota[i] = q[i];
		c->uplinks[i] = q[nodes + i];
	}
	free(w);
	return ret;
}

/* Rank 0: the fabric and its cover groups at mo's load. */
static int cover_groups(const struct rdp_mesh_run_opts *mo,
			const struct rdp_mesh_plan_opts *po,
			const char *const *names, unsigned int rails,
			struct rdp_mesh_run_topo **topo,
			struct rdp_mesh_cover *c)
{
	int ret = rdp_mesh_run_topo_load(mo->topology, names, po->nodes, rails,
					 topo);

	if (!ret && !*topo)
		return -EINVAL; /* the options refuse cover without it */
	if (!ret)
		ret = rdp_mesh_cover_of((*topo)->place, po->cover_load_pct, c);
	if (ret && ret != -EINVAL)
		rdp_err("mesh: --pattern cover: %s", strerror(-ret));
	return ret;
}

int rdp_mesh_run_plan(struct rdp_boot *b, const struct rdp_mesh_run_opts *mo,
		      struct rdp_mesh_plan_opts *po, const char *const *names,
		      unsigned int rails, struct rdp_mesh_run_topo **topo,
		      struct rdp_mesh_plan **plan)
{
	struct rdp_mesh_cover c = { 0 };
	char why[256];
	int ret = 0;

	*topo = NULL;
	if (po->pattern == RDP_MESH_COVER) {
		if (!b->rank)
			ret = cover_groups(mo, po, names, rails, topo, &c);
		ret = share_cover(b, ret, &c, po->nodes, mo->round_timeout_ms);
		if (!ret)
			rdp_mesh_cover_plan_opts(&c, po);
	}
	/* The check's own line, the same words --plan prints. */
	if (!ret && rdp_mesh_plan_check(po, why, sizeof(why))) {
		rdp_err("mesh: %s", why);
		ret = -EINVAL;
	}
	if (!ret) {
		ret = rdp_mesh_plan_create(po, plan);
		if (ret)
			rdp_err("mesh: plan of %u nodes: %s", po->nodes,
				strerror(-ret));
	}
	if (!ret && !b->rank && po->pattern == RDP_MESH_COVER && mo->out)
		rdp_mesh_plan_head(*plan, mo->out);
	/* The plan keeps its own copy. */
	po->cover_group = po->cover_quota = po->cover_uplinks = NULL;
	rdp_mesh_cover_fini(&c);
	return ret;
}

/* One element of a path, printf-style; 0 or -ENOMEM. */
static int add(json_t *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int add(json_t *a, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return json_array_append_new(a, json_string(buf)) ? -ENOMEM : 0;
}

/* A leaf's uplink, "uplink LEAF:PORT-SPINE:PORT", the leaf's end first. */
static int add_uplink(json_t *a, const struct rdp_mesh_topo *t, unsigned int l)
{
	const struct rdp_mesh_topo_link *k = &t->link[l];

	return add(a, "uplink %s:%u-%s:%u", t->sw[k->a].name, k->a_port,
		   t->sw[k->b].name, k->b_port);
}

/* Between two leaves: the one way, or how many ECMP chooses from. */
static int add_hops(json_t *a, const struct rdp_mesh_topo *t,
		    const struct rdp_mesh_path *path,
		    const struct rdp_mesh_hop *hop)
{
	int ret;

	if (path->n_hops > 1) {
		ret = add(a, "uplink %s (one of %zu)",
			  t->sw[path->tx_leaf].name, path->n_hops);
		return ret ? ret
			   : add(a, "uplink %s (one of %zu)",
				 t->sw[path->rx_leaf].name, path->n_hops);
	}
	ret = add_uplink(a, t, hop->up);
	return ret ? ret : add_uplink(a, t, hop->down);
}

json_t *rdp_mesh_path_json(const struct rdp_mesh_place *p, unsigned int tx,
			   unsigned int rx, unsigned int rail)
{
	const struct rdp_mesh_topo *t = p->t;
	struct rdp_mesh_path path;
	struct rdp_mesh_hop hop;
	json_t *a;
	int ret = rdp_mesh_place_path(p, tx, rx, rail, &path, &hop, 1);

	if (ret)
		return json_null(); /* the leaves share no spine */
	a = json_array();
	if (!a)
		return NULL;
	ret = add(a, "cable %s:%u", t->sw[path.tx_leaf].name, path.tx_port);
	if (!ret && path.n_hops)
		ret = add_hops(a, t, &path, &hop);
	if (!ret)
		ret = add(a, "cable %s:%u", t->sw[path.rx_leaf].name,
			  path.rx_port);
	if (!ret)
		return a;
	json_decref(a);
	return NULL;
}

json_t *rdp_mesh_cell_path_json(const struct rdp_mesh *m,
				const struct rdp_mesh_cell *c)
{
	return rdp_mesh_path_json(m->place, c->tx, c->rx, c->rail);
}
