/* SPDX-License-Identifier: BSD-2-Clause */
/* A mesh's nodes bound to the fabric's hosts, and the path of a cell. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo_int.h"

/* The host called name, whole or by either side's short name (up to
 * the first '.'). */
static int host_of(const struct rdp_mesh_topo *t, const char *name)
{
	int i = rdp_mesh_topo_find_host(t, name);

	return i >= 0 ? i : topo_host_by_short(t, name);
}

void rdp_mesh_place_free(struct rdp_mesh_place *p)
{
	if (!p)
		return;
	free(p->host);
	free(p->leaf);
	free(p->port);
	free(p);
}

static int bind_node(struct rdp_mesh_place *p, unsigned int n, const char *name,
		     char *why, size_t len)
{
	const struct rdp_mesh_topo_port *at;
	unsigned int r;
	int h = host_of(p->t, name);

	if (h < 0) {
		snprintf(why, len,
			 "topology: %s is not in the fabric: no cable of it "
			 "is known, so its cells cannot be placed",
			 name);
		return -EINVAL;
	}
	p->host[n] = (unsigned int)h;
	for (r = 0; r < p->rails; r++) {
		at = rdp_mesh_topo_host_port(p->t, (unsigned int)h, r);
		if (!at) {
			snprintf(why, len,
				 "topology: %s has %u rail(s) in the fabric, "
				 "the mesh runs %u",
				 name,
				 rdp_mesh_topo_host_rails(p->t,
							  (unsigned int)h),
				 p->rails);
			return -EINVAL;
		}
		p->leaf[(size_t)n * p->rails + r] = at->sw;
		p->port[(size_t)n * p->rails + r] = at->port;
	}
	return 0;
}

int rdp_mesh_place_create(const struct rdp_mesh_topo *t,
			  const char *const *names, unsigned int nodes,
			  unsigned int rails, struct rdp_mesh_place **out,
			  char *why, size_t len)
{
	struct rdp_mesh_place *p;
	char buf[32];
	unsigned int n;
	int ret = 0;

	if (!nodes || !rails)
		return -EINVAL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	*p = (struct rdp_mesh_place){ .t = t, .nodes = nodes, .rails = rails };
	p->host = calloc(nodes, sizeof(*p->host));
	p->leaf = calloc((size_t)nodes * rails, sizeof(*p->leaf));
	p->port = calloc((size_t)nodes * rails, sizeof(*p->port));
	if (!p->host || !p->leaf || !p->port)
		ret = -ENOMEM;
	for (n = 0; !ret && n < nodes; n++) {
		snprintf(buf, sizeof(buf), "node%u", n);
		ret = bind_node(p, n, names && names[n] ? names[n] : buf, why,
				len);
	}
	if (ret) {
		rdp_mesh_place_free(p);
		return ret;
	}
	*out = p;
	return 0;
}

const struct rdp_mesh_topo *rdp_mesh_place_topo(const struct rdp_mesh_place *p)
{
	return p->t;
}

/* The hops of one shared spine c into hops from k on (room for cap). */
static size_t spine_hops(const struct rdp_mesh_topo *t,
			 const struct topo_common *c, double w,
			 struct rdp_mesh_hop *hops, size_t k, size_t cap)
{
	unsigned int i, j;

	for (i = 0; i < c->na; i++)
		for (j = 0; j < c->nb; j++, k++)
			if (k < cap)
				hops[k] = (struct rdp_mesh_hop){
					.spine = c->spine,
					.up = t->up[c->a0 + i].link,
					.down = t->up[c->b0 + j].link,
					.weight = w / (c->na * c->nb),
				};
	return k;
}

int rdp_mesh_place_path(const struct rdp_mesh_place *p, unsigned int tx,
			unsigned int rx, unsigned int rail,
			struct rdp_mesh_path *path, struct rdp_mesh_hop *hops,
			size_t cap)
{
	const struct rdp_mesh_topo *t = p->t;
	struct topo_common *c;
	size_t n, i, k = 0;

	if (tx >= p->nodes || rx >= p->nodes || rail >= p->rails)
		return -EINVAL;
	*path = (struct rdp_mesh_path){
		.tx_leaf = p->leaf[(size_t)tx * p->rails + rail],
		.tx_port = p->port[(size_t)tx * p->rails + rail],
		.rx_leaf = p->leaf[(size_t)rx * p->rails + rail],
		.rx_port = p->port[(size_t)rx * p->rails + rail],
	};
	if (path->tx_leaf == path->rx_leaf)
		return 0;
	n = topo_common(t, (unsigned int)t->leaf_ord[path->tx_leaf],
			(unsigned int)t->leaf_ord[path->rx_leaf], NULL, 0);
	if (!n)
		return -EHOSTUNREACH;
	c = calloc(n, sizeof(*c));
	if (!c)
		return -ENOMEM;
	topo_common(t, (unsigned int)t->leaf_ord[path->tx_leaf],
		    (unsigned int)t->leaf_ord[path->rx_leaf], c, n);
	for (i = 0; i < n; i++)
		k = spine_hops(t, &c[i], 1.0 / (double)n, hops, k, cap);
	free(c);
	path->n_hops = k;
	return 0;
}
