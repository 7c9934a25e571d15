/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The fabric's model: switches, hosts' rails on leaf ports, switch links;
 * a synthetic leaf-spine; a mesh's nodes bound to it and a cell's path.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo_int.h"

/* Room for one more of size `size` in *v (n used of *cap). */
static int room(void **v, unsigned int n, unsigned int *cap, size_t size)
{
	unsigned int want = *cap ? 2 * *cap : 16;
	void *p;

	if (n < *cap)
		return 0;
	p = realloc(*v, (size_t)want * size);
	if (!p)
		return -ENOMEM;
	*v = p;
	*cap = want;
	return 0;
}

int topo_new(struct rdp_mesh_topo **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

void rdp_mesh_topo_free(struct rdp_mesh_topo *t)
{
	unsigned int i, r;

	if (!t)
		return;
	for (i = 0; i < t->n_sw; i++) {
		free(t->sw[i].name);
		free(t->sw[i].id);
	}
	for (i = 0; i < t->n_host; i++) {
		for (r = 0; r < t->host[i].n_rails; r++)
			free(t->host[i].rail[r].dev);
		free(t->host[i].rail);
		free(t->host[i].name);
	}
	free(t->sw);
	free(t->host);
	free(t->link);
	free(t->leaf_ord);
	free(t->up_start);
	free(t->up);
	topo_index_fini(&t->sw_by_name);
	topo_index_fini(&t->sw_by_id);
	topo_index_fini(&t->host_by_name);
	topo_index_fini(&t->host_by_short);
	free(t);
}

int rdp_mesh_topo_find_switch(const struct rdp_mesh_topo *t, const char *name)
{
	return topo_index_get(&t->sw_by_name, name, strlen(name));
}

int rdp_mesh_topo_find_host(const struct rdp_mesh_topo *t, const char *name)
{
	return topo_index_get(&t->host_by_name, name, strlen(name));
}

int topo_switch_by_id(const struct rdp_mesh_topo *t, const char *id)
{
	return topo_index_get(&t->sw_by_id, id, strlen(id));
}

int topo_host_by_short(const struct rdp_mesh_topo *t, const char *name)
{
	return topo_index_get(&t->host_by_short, name, strcspn(name, "."));
}

/* A new switch called name (known to be new), indexed; its number. */
static int add_switch(struct rdp_mesh_topo *t, const char *name, const char *id)
{
	struct topo_switch *s;

	if (room((void **)&t->sw, t->n_sw, &t->cap_sw, sizeof(*t->sw)) ||
	    topo_index_room(&t->sw_by_name, t->n_sw + 1) ||
	    (id && topo_index_room(&t->sw_by_id, t->sw_by_id.n + 1)))
		return -ENOMEM;
	s = &t->sw[t->n_sw];
	*s = (struct topo_switch){ .name = strdup(name) };
	if (id)
		s->id = strdup(id);
	if (!s->name || (id && !s->id)) {
		free(s->name);
		free(s->id);
		return -ENOMEM;
	}
	topo_index_put(&t->sw_by_name, s->name, strlen(s->name), t->n_sw);
	if (id)
		topo_index_put(&t->sw_by_id, s->id, strlen(s->id), t->n_sw);
	return (int)t->n_sw++;
}

int topo_switch(struct rdp_mesh_topo *t, const char *name, const char *id)
{
	int i = rdp_mesh_topo_find_switch(t, name);

	return i >= 0 ? i : add_switch(t, name, id);
}

/* A new host called name (known to be new), indexed; its number. */
static int add_host(struct rdp_mesh_topo *t, const char *name)
{
	struct topo_host *h;

	if (room((void **)&t->host, t->n_host, &t->cap_host,
		 sizeof(*t->host)) ||
	    topo_index_room(&t->host_by_name, t->n_host + 1))
		return -ENOMEM;
	h = &t->host[t->n_host];
	*h = (struct topo_host){ .name = strdup(name) };
	if (!h->name)
		return -ENOMEM;
	topo_index_put(&t->host_by_name, h->name, strlen(h->name), t->n_host);
	return (int)t->n_host++;
}

int topo_host(struct rdp_mesh_topo *t, const char *name)
{
	int i = rdp_mesh_topo_find_host(t, name);

	return i >= 0 ? i : add_host(t, name);
}

int topo_rail(struct rdp_mesh_topo *t, unsigned int h, unsigned int rail,
	      unsigned int sw, unsigned int port, const char *dev,
	      unsigned int nic_port)
{
	struct topo_host *o = &t->host[h];
	struct topo_rail *r;

	if (rail == UINT_MAX)
		rail = o->n_rails;
	while (o->n_rails <= rail) {
		if (room((void **)&o->rail, o->n_rails, &o->cap,
			 sizeof(*o->rail)))
			return -ENOMEM;
		memset(&o->rail[o->n_rails++], 0, sizeof(*o->rail));
	}
	r = &o->rail[rail];
	if (r->set)
		return -EEXIST;
	*r = (struct topo_rail){ .at = { .sw = sw, .port = port },
				 .nic_port = nic_port,
				 .set = 1 };
	if (dev && !(r->dev = strdup(dev)))
		return -ENOMEM;
	r->at.dev = r->dev;
	return 0;
}

int topo_link(struct rdp_mesh_topo *t, unsigned int a, unsigned int a_port,
	      unsigned int b, unsigned int b_port)
{
	if (room((void **)&t->link, t->n_link, &t->cap_link, sizeof(*t->link)))
		return -ENOMEM;
	t->link[t->n_link++] = (struct rdp_mesh_topo_link){
		.a = a, .a_port = a_port, .b = b, .b_port = b_port
	};
	return 0;
}

static int rail_cmp(const void *x, const void *y)
{
	const struct topo_rail *a = x, *b = y;
	int c = strcmp(a->dev ? a->dev : "", b->dev ? b->dev : "");

	if (c)
		return c;
	return (a->nic_port > b->nic_port) - (a->nic_port < b->nic_port);
}

void topo_sort_rails(struct rdp_mesh_topo *t)
{
	unsigned int h, r;

	for (h = 0; h < t->n_host; h++) {
		qsort(t->host[h].rail, t->host[h].n_rails,
		      sizeof(*t->host[h].rail), rail_cmp);
		for (r = 0; r < t->host[h].n_rails; r++)
			t->host[h].rail[r].at.dev = t->host[h].rail[r].dev;
	}
}

static int up_cmp(const void *x, const void *y)
{
	const struct topo_up *a = x, *b = y;

	if (a->spine != b->spine)
		return (a->spine > b->spine) - (a->spine < b->spine);
	return (a->link > b->link) - (a->link < b->link);
}

/* Uplinks leaf first, counted and listed per leaf ordinal. */
static int index_uplinks(struct rdp_mesh_topo *t)
{
	struct rdp_mesh_topo_link *l;
	unsigned int i, o, tmp, *pos;

	t->up_start = calloc(t->n_leaves + 1, sizeof(*t->up_start));
	t->up = calloc(t->n_link ? t->n_link : 1, sizeof(*t->up));
	pos = calloc(t->n_leaves + 1, sizeof(*pos));
	if (!t->up_start || !t->up || !pos) {
		free(pos);
		return -ENOMEM;
	}
	for (i = 0; i < t->n_link; i++) {
		l = &t->link[i];
		if (!t->sw[l->a].leaf && t->sw[l->b].leaf) {
			tmp = l->a, l->a = l->b, l->b = tmp;
			tmp = l->a_port, l->a_port = l->b_port, l->b_port = tmp;
		}
		if (t->sw[l->a].leaf && !t->sw[l->b].leaf)
			t->up_start[t->leaf_ord[l->a] + 1]++;
	}
	for (o = 0; o < t->n_leaves; o++)
		t->up_start[o + 1] += t->up_start[o];
	memcpy(pos, t->up_start, (t->n_leaves + 1) * sizeof(*pos));
	for (i = 0; i < t->n_link; i++) {
		l = &t->link[i];
		if (t->sw[l->a].leaf && !t->sw[l->b].leaf)
			t->up[pos[t->leaf_ord[l->a]]++] =
				(struct topo_up){ .spine = l->b, .link = i };
	}
	for (o = 0; o < t->n_leaves; o++)
		qsort(t->up + t->up_start[o],
		      t->up_start[o + 1] - t->up_start[o], sizeof(*t->up),
		      up_cmp);
	free(pos);
	return 0;
}

int topo_finish(struct rdp_mesh_topo *t, const char *name, char *why,
		size_t len)
{
	unsigned int h, r, i;

	for (h = 0; h < t->n_host; h++)
		for (r = 0; r < t->host[h].n_rails; r++) {
			if (!t->host[h].rail[r].set) {
				snprintf(why, len, "%s: %s has no rail %u",
					 name, t->host[h].name, r);
				return -EINVAL;
			}
			t->sw[t->host[h].rail[r].at.sw].leaf = 1;
		}
	if (!t->n_host) {
		snprintf(why, len, "%s: no node is cabled to a switch", name);
		return -EINVAL;
	}
	t->leaf_ord = malloc((t->n_sw ? t->n_sw : 1) * sizeof(*t->leaf_ord));
	if (!t->leaf_ord || topo_index_room(&t->host_by_short, t->n_host))
		return -ENOMEM;
	for (h = 0; h < t->n_host; h++)
		topo_index_put(&t->host_by_short, t->host[h].name,
			       strcspn(t->host[h].name, "."), h);
	for (i = 0; i < t->n_sw; i++)
		t->leaf_ord[i] = t->sw[i].leaf ? (int)t->n_leaves++ : -1;
	return index_uplinks(t);
}

size_t topo_common(const struct rdp_mesh_topo *t, unsigned int a,
		   unsigned int b, struct topo_common *out, size_t cap)
{
	unsigned int i = t->up_start[a], ie = t->up_start[a + 1];
	unsigned int j = t->up_start[b], je = t->up_start[b + 1];
	struct topo_common c;
	size_t n = 0;

	while (i < ie && j < je) {
		if (t->up[i].spine != t->up[j].spine) {
			if (t->up[i].spine < t->up[j].spine)
				i++;
			else
				j++;
			continue;
		}
		c = (struct topo_common){ .spine = t->up[i].spine,
					  .a0 = i,
					  .b0 = j };
		while (i < ie && t->up[i].spine == c.spine)
			i++, c.na++;
		while (j < je && t->up[j].spine == c.spine)
			j++, c.nb++;
		if (n < cap)
			out[n] = c;
		n++;
	}
	return n;
}

static int synth_hosts(struct rdp_mesh_topo *t, unsigned int nodes,
		       unsigned int rails, unsigned int leaves)
{
	unsigned int per = (nodes + leaves - 1) / leaves, n, r;
	char name[32];
	int h;

	for (n = 0; n < nodes; n++) {
		snprintf(name, sizeof(name), "node%u", n);
		h = add_host(t, name);
		if (h < 0)
			return h;
		for (r = 0; r < rails; r++)
			if (topo_rail(t, (unsigned int)h, r,
				      r * leaves + n / per, 1 + n % per, NULL,
				      1))
				return -ENOMEM;
	}
	return 0;
}

int rdp_mesh_topo_synthetic(unsigned int nodes, unsigned int rails,
			    unsigned int leaves, unsigned int spines,
			    struct rdp_mesh_topo **out)
{
	unsigned int per, l, s, n_leaves;
	struct rdp_mesh_topo *t;
	char name[32], why[128];
	int ret;

	if (!nodes || !rails || !leaves || !spines || leaves > nodes ||
	    rails > 64 || (size_t)rails * leaves > 65536 || spines > 4096)
		return -EINVAL;
	per = (nodes + leaves - 1) / leaves;
	if ((leaves - 1) * per >= nodes)
		return -EINVAL; /* a leaf would be left without a node */
	if (topo_new(&t))
		return -ENOMEM;
	n_leaves = rails * leaves;
	ret = 0;
	for (l = 0; !ret && l < n_leaves; l++) {
		snprintf(name, sizeof(name), "leaf%u", l);
		ret = add_switch(t, name, NULL) < 0 ? -ENOMEM : 0;
	}
	for (s = 0; !ret && s < spines; s++) {
		snprintf(name, sizeof(name), "spine%u", s);
		ret = add_switch(t, name, NULL) < 0 ? -ENOMEM : 0;
	}
	for (l = 0; !ret && l < n_leaves; l++)
		for (s = 0; !ret && s < spines; s++)
			ret = topo_link(t, l, per + 1 + s, n_leaves + s, 1 + l);
	if (!ret)
		ret = synth_hosts(t, nodes, rails, leaves);
	if (!ret)
		ret = topo_finish(t, "synthetic", why, sizeof(why));
	if (ret) {
		rdp_mesh_topo_free(t);
		return ret;
	}
	*out = t;
	return 0;
}

unsigned int rdp_mesh_topo_n_switches(const struct rdp_mesh_topo *t)
{
	return t->n_sw;
}

unsigned int rdp_mesh_topo_n_hosts(const struct rdp_mesh_topo *t)
{
	return t->n_host;
}

unsigned int rdp_mesh_topo_n_links(const struct rdp_mesh_topo *t)
{
	return t->n_link;
}

const char *rdp_mesh_topo_switch_name(const struct rdp_mesh_topo *t,
				      unsigned int sw)
{
	return sw < t->n_sw ? t->sw[sw].name : "?";
}

int rdp_mesh_topo_is_leaf(const struct rdp_mesh_topo *t, unsigned int sw)
{
	return sw < t->n_sw && t->sw[sw].leaf;
}

const char *rdp_mesh_topo_host_name(const struct rdp_mesh_topo *t,
				    unsigned int h)
{
	return h < t->n_host ? t->host[h].name : "?";
}

unsigned int rdp_mesh_topo_host_rails(const struct rdp_mesh_topo *t,
				      unsigned int h)
{
	return h < t->n_host ? t->host[h].n_rails : 0;
}

const struct rdp_mesh_topo_port *
rdp_mesh_topo_host_port(const struct rdp_mesh_topo *t, unsigned int h,
			unsigned int rail)
{
	if (h >= t->n_host || rail >= t->host[h].n_rails)
		return NULL;
	return &t->host[h].rail[rail].at;
}

const struct rdp_mesh_topo_link *
rdp_mesh_topo_link_at(const struct rdp_mesh_topo *t, unsigned int i)
{
	return i < t->n_link ? &t->link[i] : NULL;
}
