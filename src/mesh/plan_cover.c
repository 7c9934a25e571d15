/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Cover: every node cable and every leaf's uplinks carry traffic in as
 * few rounds as the fabric allows. Each pairing a window of each leaf
 * group's nodes crosses the spines, paired with the other groups' windows;
 * the rest pair inside their group. The windows move on until every node
 * has crossed once.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "plan_int.h"

struct cover {
	unsigned int groups;
	unsigned int *member; /* group g's nodes from start[g], node order */
	unsigned int *start;  /* groups + 1 */
	/*
	 * Per group, the nodes that cross a pairing: its quota, but no more
	 * than the other groups' quotas together, so that every crossing
	 * node finds a partner in another group.
	 */
	unsigned int *cross;
	unsigned int *quota, *uplinks; /* as given; uplinks may be NULL */
	/*
	 * With an odd sum of cross, one group sends one node fewer in each
	 * pairing: group g in pairings [rest0[g], rest0[g] + rests[g]),
	 * taken from the groups' slack (the crossings past their size).
	 */
	size_t *rest0, *rests;
	int odd;
	/* A pairing's lists: nodes + groups (rounds are made one at a
	 * time). */
	unsigned int *work;
};

static unsigned int group_size(const struct cover *c, unsigned int g)
{
	return c->start[g + 1] - c->start[g];
}

/* Group g's nodes that cross in pairing r. */
static unsigned int cross_now(const struct cover *c, unsigned int g, size_t r)
{
	return c->cross[g] -
	       (r >= c->rest0[g] && r - c->rest0[g] < c->rests[g]);
}

/* Group g's nodes that crossed before pairing r, counted with repeats:
 * where its window of pairing r starts, mod its size. */
static uint64_t crossed(const struct cover *c, unsigned int g, size_t r)
{
	size_t rested = r <= c->rest0[g]		? 0
			: r - c->rest0[g] > c->rests[g] ? c->rests[g]
							: r - c->rest0[g];

	return (uint64_t)r * c->cross[g] - rested;
}

/* Node i of group g's cycle from where its window of pairing r starts. */
static unsigned int node_at(const struct cover *c, unsigned int g, size_t r,
			    uint64_t i)
{
	unsigned int n = group_size(c, g);

	return c->member[c->start[g] + (crossed(c, g, r) + i) % n];
}

static int needs_topology(char *why, size_t len)
{
	snprintf(why, len,
		 "--pattern cover needs --topology FILE: its rounds are chosen "
		 "from the fabric's leaves and uplinks");
	return -EINVAL;
}

int rdp_mesh_cover_args(struct rdp_mesh_plan_opts *o, const char *topology,
			unsigned int load_pct, char *why, size_t len)
{
	if (o->pattern != RDP_MESH_COVER && load_pct) {
		snprintf(why, len, "--load applies to --pattern cover");
		return -EINVAL;
	}
	if (o->pattern != RDP_MESH_COVER)
		return 0;
	if (!topology)
		return needs_topology(why, len);
	if (load_pct > 100) {
		snprintf(why, len, "--load takes 1 to 100 (%%), not %u",
			 load_pct);
		return -EINVAL;
	}
	o->cover_load_pct = load_pct ? load_pct : 100;
	return 0;
}

int rdp_mesh_cover_check(const struct rdp_mesh_plan_opts *o, char *why,
			 size_t len)
{
	unsigned int *n, i, g;
	int ret = 0;

	if (o->pattern != RDP_MESH_COVER || !o->nodes)
		return 0;
	if (!o->cover_group || !o->cover_quota || !o->cover_groups)
		return needs_topology(why, len);
	n = calloc(o->cover_groups, sizeof(*n));
	if (!n) {
		snprintf(why, len, "cover: out of memory");
		return -EINVAL;
	}
	for (i = 0; i < o->nodes && !ret; i++)
		if (o->cover_group[i] >= o->cover_groups) {
			snprintf(why, len, "cover: node %u in group %u of %u",
				 i, o->cover_group[i], o->cover_groups);
			ret = -EINVAL;
		} else {
			n[o->cover_group[i]]++;
		}
	for (g = 0; g < o->cover_groups && !ret; g++)
		if (o->cover_quota[g] > n[g]) {
			snprintf(why, len,
				 "cover: group %u sends %u of its %u nodes "
				 "across the spines",
				 g, o->cover_quota[g], n[g]);
			ret = -EINVAL;
		}
	free(n);
	return ret;
}

void rdp_mesh_cover_free(struct rdp_mesh_plan *p)
{
	struct cover *c = p->cover;

	if (!c)
		return;
	free(c->member);
	free(c->start);
	free(c->cross);
	free(c->quota);
	free(c->uplinks);
	free(c->rest0);
	free(c->rests);
	free(c->work);
	free(c);
	p->cover = NULL;
}

/* Groups and their nodes copied from the options. */
static int copy_groups(struct cover *c, const struct rdp_mesh_plan_opts *o)
{
	unsigned int G = o->cover_groups, i, g, *at;

	c->groups = G;
	c->member = calloc(o->nodes, sizeof(*c->member));
	c->start = calloc((size_t)G + 1, sizeof(*c->start));
	c->cross = calloc(G, sizeof(*c->cross));
	c->quota = calloc(G, sizeof(*c->quota));
	c->uplinks = o->cover_uplinks ? calloc(G, sizeof(*c->uplinks)) : NULL;
	c->rest0 = calloc(G, sizeof(*c->rest0));
	c->rests = calloc(G, sizeof(*c->rests));
	c->work = calloc((size_t)o->nodes + G, sizeof(*c->work));
	at = calloc(G, sizeof(*at));
	if (!c->member || !c->start || !c->cross || !c->quota || !c->rest0 ||
	    !c->rests || !c->work || !at || (o->cover_uplinks && !c->uplinks)) {
		free(at);
		return -ENOMEM;
	}
	memcpy(c->quota, o->cover_quota, G * sizeof(*c->quota));
	if (o->cover_uplinks)
		memcpy(c->uplinks, o->cover_uplinks, G * sizeof(*c->uplinks));
	for (i = 0; i < o->nodes; i++)
		c->start[o->cover_group[i] + 1]++;
	for (g = 0; g < G; g++)
		c->start[g + 1] += c->start[g];
	for (i = 0; i < o->nodes; i++) {
		g = o->cover_group[i];
		c->member[c->start[g] + at[g]++] = i;
	}
	free(at);
	return 0;
}

/* cross[] and odd from the quotas. */
static void set_cross(struct cover *c)
{
	unsigned int g, q;
	uint64_t total = 0, sum = 0;

	for (g = 0; g < c->groups; g++)
		total += c->quota[g];
	for (g = 0; g < c->groups; g++) {
		q = c->quota[g];
		c->cross[g] = q < total - q ? q : (unsigned int)(total - q);
		sum += c->cross[g];
	}
	c->odd = (int)(sum % 2);
}

/* Crossings past group g's size in r pairings. */
static uint64_t slack(const struct cover *c, unsigned int g, size_t r)
{
	return (uint64_t)r * c->cross[g] - group_size(c, g);
}

/*
 * The pairings: the most ceil(n_g / cross_g) over the groups; with an
 * odd sum of cross, more until the groups' slack holds a node resting
 * in each pairing (rarely more). At least 2 where a group that only
 * pairs inside has an odd count (its resting node changes). Then who
 * rests when: each group in turn, as much as its slack allows.
 */
static size_t count_pairings(struct cover *c)
{
	unsigned int g, n;
	size_t r = 1, need, at = 0;
	uint64_t room;

	for (g = 0; g < c->groups; g++) {
		n = group_size(c, g);
		need = c->cross[g]	? (n + c->cross[g] - 1) / c->cross[g]
		       : n % 2 && n > 1 ? 2
					: 1;
		if (need > r)
			r = need;
	}
	for (; c->odd; r++) {
		for (room = 0, g = 0; g < c->groups; g++)
			room += c->cross[g] ? slack(c, g, r) : 0;
		if (room >= r)
			break;
	}
	for (g = 0; c->odd && g < c->groups; g++) {
		room = c->cross[g] ? slack(c, g, r) : 0;
		c->rest0[g] = at;
		c->rests[g] = room < r - at ? (size_t)room : r - at;
		at += c->rests[g];
	}
	return r;
}

int rdp_mesh_cover_size(struct rdp_mesh_plan *p)
{
	struct cover *c = calloc(1, sizeof(*c));
	int ret;

	if (!c)
		return -ENOMEM;
	p->cover = c;
	ret = copy_groups(c, &p->o);
	if (ret)
		return ret;
	set_cross(c);
	p->pairings = count_pairings(c);
	return 0;
}

/* The groups in the order their crossing nodes are listed in pairing r:
 * drawn from the seed and r, so partners change between pairings. */
static void group_order(const struct rdp_mesh_plan *p, size_t r,
			unsigned int *order)
{
	const struct cover *c = p->cover;
	uint64_t s = p->o.seed ^ ((uint64_t)r << 20) ^ 0x636f766572ull;
	unsigned int g, j, t;

	for (g = 0; g < c->groups; g++)
		order[g] = g;
	for (g = c->groups; g > 1; g--) {
		j = (unsigned int)(rdp_mesh_random(&s) % g);
		t = order[g - 1];
		order[g - 1] = order[j];
		order[j] = t;
	}
}

/*
 * The crossing nodes listed group after group: i meets i + M/2. No group
 * holds more than half of the list, so no pair is inside one group.
 */
static size_t across(const struct rdp_mesh_plan *p, size_t r,
		     struct rdp_mesh_xfer *x)
{
	const struct cover *c = p->cover;
	unsigned int *list = c->work, *order = c->work + p->o.nodes;
	unsigned int g, i, cn;
	size_t m = 0, half, k;

	group_order(p, r, order);
	for (g = 0; g < c->groups; g++) {
		cn = cross_now(c, order[g], r);
		for (i = 0; i < cn; i++)
			list[m++] = node_at(c, order[g], r, i);
	}
	half = m / 2;
	for (k = 0; k < half; k++)
		x[k] = (struct rdp_mesh_xfer){ list[k], list[k + half], 0 };
	return half;
}

/* The others of each group, by the circle method over them. */
static size_t inside(const struct rdp_mesh_plan *p, size_t r,
		     struct rdp_mesh_xfer *x)
{
	const struct cover *c = p->cover;
	unsigned int g, cn, m, i, a, b, turns;
	size_t k = 0;

	for (g = 0; g < c->groups; g++) {
		cn = cross_now(c, g, r);
		m = group_size(c, g) - cn;
		turns = rdp_mesh_circle_pairings(m);
		for (i = 0; turns && i < (m + 1) / 2; i++)
			if (rdp_mesh_circle_pair(m, (unsigned int)(r % turns),
						 i, &a, &b))
				x[k++] = (struct rdp_mesh_xfer){
					node_at(c, g, r, (uint64_t)cn + a),
					node_at(c, g, r, (uint64_t)cn + b), 0
				};
	}
	return k;
}

size_t rdp_mesh_cover_round(const struct rdp_mesh_plan *p, size_t r,
			    struct rdp_mesh_xfer *x)
{
	size_t k = across(p, r, x);

	return k + inside(p, r, x + k);
}

size_t rdp_mesh_cover_width(const struct rdp_mesh_plan *p, size_t r)
{
	const struct cover *c = p->cover;
	size_t m = 0, k = 0;
	unsigned int g, cn;

	for (g = 0; g < c->groups; g++) {
		cn = cross_now(c, g, r);
		m += cn;
		k += (group_size(c, g) - cn) / 2;
	}
	return m / 2 + k;
}

/* The flows on a leaf's uplinks, per uplink, over the groups that have
 * them; and how many leaves have fewer flows than uplinks. */
static void flows(const struct cover *c, double *lo, double *hi,
		  unsigned int *idle)
{
	unsigned int g;
	double f;

	*lo = *hi = -1;
	*idle = 0;
	for (g = 0; c->uplinks && g < c->groups; g++) {
		if (!c->uplinks[g] || !group_size(c, g))
			continue;
		f = (double)c->cross[g] / c->uplinks[g];
		if (*lo < 0 || f < *lo)
			*lo = f;
		if (f > *hi)
			*hi = f;
		if (c->cross[g] < c->uplinks[g])
			(*idle)++;
	}
}

static int crossing(const struct cover *c)
{
	unsigned int g;

	for (g = 0; g < c->groups; g++)
		if (c->cross[g])
			return 1;
	return 0;
}

void rdp_mesh_cover_head(const struct rdp_mesh_plan *p, FILE *f)
{
	const struct cover *c = p->cover;
	unsigned int g, lo = UINT_MAX, hi = 0, n, idle;
	double flo, fhi;

	for (g = 0; g < c->groups; g++) {
		n = group_size(c, g);
		lo = n < lo ? n : lo;
		hi = n > hi ? n : hi;
	}
	fprintf(f, "%u leaf groups of %u", c->groups, lo);
	if (hi > lo)
		fprintf(f, " to %u", hi);
	fprintf(f, " nodes, %zu pairings, %s; ", p->pairings,
		p->o.bidir ? "both directions at once"
			   : "each as two rounds, A->B then B->A");
	if (!crossing(c)) {
		fprintf(f, "no group can cross the spines (one leaf, or no "
			   "uplink): every node pairs inside its leaf\n");
		return;
	}
	fprintf(f, "a pairing sends a window of each group's nodes across the "
		   "spines, in turn, the others pairing inside their group");
	flows(c, &flo, &fhi, &idle);
	if (p->o.cover_load_pct)
		fprintf(f, "; %u %% load", p->o.cover_load_pct);
	if (flo >= 0 && fhi > flo)
		fprintf(f, ", flows an uplink: %.3g to %.3g", flo, fhi);
	else if (flo >= 0)
		fprintf(f, ", flows an uplink: %.3g", flo);
	fprintf(f, " (every link taken at the NIC's rate: the topology "
		   "file gives no rates; ECMP picks each flow's uplink)");
	if (idle)
		fprintf(f,
			"; warning: %u leaf group%s fewer flows than "
			"uplinks, ECMP may leave some uplink idle",
			idle, idle == 1 ? " has" : "s have");
	fputc('\n', f);
}

static int by_key(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int rdp_mesh_cover_fresh(const struct rdp_mesh_plan *p, size_t m,
			 uint64_t *fresh)
{
	struct rdp_mesh_xfer *x = calloc(p->o.nodes / 2 + 1, sizeof(*x));
	uint64_t *key, lo, hi;
	size_t t, j, n = 0, cnt;

	m = m < p->pairings ? m : p->pairings;
	key = calloc(m * (p->o.nodes / 2) + 1, sizeof(*key));
	if (!x || !key) {
		free(x);
		free(key);
		return -ENOMEM;
	}
	/* Each unordered pair a key, its pairing in the low 24 bits (N <
	 * 2^17, pairings < 2^24): sorted, a pair's first key is where it
	 * was met first. */
	for (t = 0; t < m; t++) {
		cnt = rdp_mesh_cover_round(p, t, x);
		for (j = 0; j < cnt; j++) {
			lo = x[j].tx < x[j].rx ? x[j].tx : x[j].rx;
			hi = x[j].tx ^ x[j].rx ^ lo;
			key[n++] = (lo * p->o.nodes + hi) << 24 | t;
		}
		fresh[t] = 0;
	}
	qsort(key, n, sizeof(*key), by_key);
	for (j = 0; j < n; j++)
		if (!j || key[j] >> 24 != key[j - 1] >> 24)
			fresh[key[j] & 0xffffff]++;
	free(key);
	free(x);
	return 0;
}
