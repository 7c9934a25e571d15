/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What a mesh that was pruned or cut short by its time budget reached,
 * set on its store at the end of the run: the coverage, the pruned nodes
 * and the cells they left out ("skipped"). The store's writers put them
 * in the files with the rest.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdmaperf/log.h>
#include <rdmaperf/mesh_run.h>

int rdp_mesh_coverage_of(const struct rdp_mesh *m, unsigned int nodes,
			 struct rdp_mesh_coverage *cov)
{
	size_t cells = (size_t)nodes * nodes;
	unsigned char *seen = calloc(cells ? cells : 1, 1);
	const struct rdp_mesh_cell *c;
	size_t i;
	unsigned int a, b;

	if (!seen)
		return -ENOMEM;
	cov->pairs_measured = 0;
	cov->pairs_total = (size_t)nodes * (nodes ? nodes - 1 : 0) / 2;
	for (i = 0; (c = rdp_mesh_cell_at(m, i)); i++) {
		if (c->tx >= nodes || c->rx >= nodes || c->tx == c->rx ||
		    c->status == RDP_MESH_SKIPPED)
			continue;
		a = c->tx < c->rx ? c->tx : c->rx;
		b = c->tx < c->rx ? c->rx : c->tx;
		if (seen[(size_t)a * nodes + b])
			continue;
		seen[(size_t)a * nodes + b] = 1;
		cov->pairs_measured++;
	}
	free(seen);
	return 0;
}

/* One skipped cell of round k into the store. */
static int skipped_cell(struct rdp_mesh *m, unsigned int tx, unsigned int rx,
			unsigned int rail, size_t k, const char *why)
{
	struct rdp_mesh_cell c = {
		.tx = tx,
		.rx = rx,
		.rail = rail,
		.round = (unsigned int)k,
		.status = RDP_MESH_SKIPPED,
		.reason = why,
		.bw_gbps = NAN,
		.lat_us = NAN,
	};

	return rdp_mesh_add(m, &c);
}

/* The pruning's reason for a transfer of round k, or NULL (not left out). */
static const char *left_out(const struct rdp_mesh *m,
			    const struct rdp_mesh_prune *p,
			    const struct rdp_mesh_xfer *x, size_t k, char *buf,
			    size_t len)
{
	unsigned int who = rdp_mesh_pruned_before(p, x->tx, k) ? x->tx : x->rx;
	char why[96];

	if (!rdp_mesh_pruned_before(p, who, k))
		return NULL;
	rdp_mesh_prune_reason(p, who, why, sizeof(why));
	snprintf(buf, len, "pruned: %s %s", rdp_mesh_node_name(m, who), why);
	return buf;
}

/* The cells the pruned nodes left out of the rounds run. */
static int skipped_cells(const struct rdp_mesh_reach *f, size_t *n_out)
{
	size_t w = rdp_mesh_plan_width(f->plan), k, i, n;
	struct rdp_mesh_xfer *x = calloc(w ? w : 1, sizeof(*x));
	const char *why;
	char buf[160];
	unsigned int rail;
	int ret = x ? 0 : -ENOMEM;

	for (k = 0; !ret && k < f->cov.rounds_run; k++) {
		n = rdp_mesh_plan_round(f->plan, k, x);
		for (i = 0; !ret && i < n; i++) {
			why = left_out(f->mesh, f->prune, &x[i], k, buf,
				       sizeof(buf));
			for (rail = 0; why && !ret && rail < f->rails; rail++) {
				ret = skipped_cell(f->mesh, x[i].tx, x[i].rx,
						   rail, k, why);
				if (!ret && x[i].both)
					ret = skipped_cell(f->mesh, x[i].rx,
							   x[i].tx, rail, k,
							   why);
				*n_out += x[i].both ? 2 : 1;
			}
		}
	}
	free(x);
	return ret;
}

/* The pruned nodes onto the store (none: pruning on, nobody pruned). */
static int pruned_nodes(const struct rdp_mesh_reach *f)
{
	const struct rdp_mesh_prune *p = f->prune;
	struct rdp_mesh_pruned *v = calloc(p->nodes ? p->nodes : 1, sizeof(*v));
	size_t n = 0;
	unsigned int i;
	int ret;

	if (!v)
		return -ENOMEM;
	for (i = 0; i < p->nodes; i++)
		if (p->after[i] >= 0)
			v[n++] = (struct rdp_mesh_pruned){
				.node = i,
				.failed_peers = p->failed[i],
				.peers = p->met[i],
				.after_round = (size_t)p->after[i],
			};
	ret = rdp_mesh_set_pruned(f->mesh, v, n);
	free(v);
	return ret;
}

int rdp_mesh_reach_store(struct rdp_mesh_reach *f, size_t *skipped)
{
	int ret = rdp_mesh_coverage_of(f->mesh, f->nodes, &f->cov);

	*skipped = 0;
	if (!ret && f->prune)
		ret = pruned_nodes(f);
	if (!ret && f->prune && f->prune->nodes)
		ret = skipped_cells(f, skipped);
	if (!ret)
		rdp_mesh_set_coverage(f->mesh, &f->cov);
	if (ret)
		rdp_err("mesh: the coverage and the pruned nodes' cells: %s",
			strerror(-ret));
	return ret;
}
