/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --topology in a measured mesh, on rank 0: the fabric loaded and the
 * nodes bound to it before the first round, then, once the cells are
 * analysed, each cell's path in the files, the heatmaps by leaf past
 * RDP_MESH_HEATMAP_MAX_NODES nodes, and the faults that explain the bad
 * cells (mesh.json's faults[], and lines after the outliers).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include <rdmaperf/log.h>
#include <rdmaperf/mesh_run.h>

#include "mesh_int.h"
#include "topo_int.h"

struct rdp_mesh_run_topo {
	struct rdp_mesh_topo *topo;
	struct rdp_mesh_place *place;
	struct rdp_mesh_faults *faults;
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

int rdp_mesh_run_topo_locate(struct rdp_mesh_run_topo *rt, struct rdp_mesh *m)
{
	int ret;

	if (!rt)
		return 0;
	m->place = rt->place;
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
