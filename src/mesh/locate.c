/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fault localisation: the smallest parts of the fabric that explain a
 * mesh's flagged and failed cells.
 *
 * Every cell is placed on its path: both nodes, both cables (a node's
 * rail: NIC port and cable carry the same cells, so one part names
 * both), both leaves and, between leaves, every uplink and spine ECMP may
 * choose, each with weight 1/S over the S spines both leaves reach (split
 * over parallel links). A part's evidence is its (weighted) cells: all,
 * failed, flagged. Its score is the log-likelihood ratio of "its cells
 * go bad at their own rate" against "at the rate of the cells around it"
 * (those not through it and not yet explained; the most they allow, see
 * allowed()), failures and flags each: a one-sided binomial G statistic.
 *
 * Greedy explain-away: the part of highest score is named, every cell
 * through it is set aside, the counts are made again, until no part
 * scores TAU (10 + ln(parts)) with 3 bad cells. A node or leaf is named
 * only when its bad cells are spread over its cables: when a few of its
 * cables explain them better (their scores, less TAU for each cable past
 * the first, beat the node's), the best cable is named instead; so for
 * a spine against each leaf's uplinks to it. Parts with the same cells
 * are one fault: ECMP spreads a leaf's cross-leaf
 * cells evenly over its uplinks, so an uplink is named with the others of
 * its leaf that no cell can tell from it (its candidates), a spine with
 * the spines it cannot be told from. Confidence: the share of the part's
 * bad cells above the background (the bad share of the cells left once
 * its cells are set aside), times 1 - exp(-(score - TAU) / TAU).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "locate_int.h"

static void add(struct cnt *c, unsigned char s, double w)
{
	c->t += w;
	c->f += s == 1 ? w : 0;
	c->g += s == 2 ? w : 0;
}

/* One-sided binomial log-likelihood ratio of b bad of n against e. */
static double llr(double b, double n, double e)
{
	double q, r;

	if (n <= 0 || b <= e * n)
		return 0;
	q = b / n;
	r = b * log(q / e);
	if (n - b > 1e-12 && q < 1)
		r += (n - b) * log((1 - q) / (1 - e));
	return r;
}

/*
 * The rate b of n that the cells around a part allow: their share plus
 * two standard errors plus one cell, so that a few thousand cells around
 * a part holding most of the mesh do not make its noise look like a
 * fault.
 */
static double allowed(double b, double n)
{
	double r = n > 0 ? b / n : 0;

	if (n > 0)
		r += 2 * sqrt(r * (1 - r) / n) + 1 / n;
	return fmin(fmax(r, MIN_SHARE), 0.9);
}

/* c's score against the cells outside of `out` (all of them when it
 * holds nearly all). */
static double score_in(const struct loc *L, const struct cnt *c,
		       const struct cnt *out)
{
	struct cnt o = { L->tot.t - out->t, L->tot.f - out->f,
			 L->tot.g - out->g };

	if (o.t < 1 || o.f < 0 || o.g < 0)
		o = L->tot;
	return llr(c->f, c->t, allowed(o.f, o.t)) +
	       llr(c->g, c->t - c->f, allowed(o.g, o.t - o.f));
}

/* c's score against the cells outside it: the bad cells through a part
 * are judged against the rest. */
static double score(const struct loc *L, const struct cnt *c)
{
	return score_in(L, c, c);
}

/* A cell's state: a retest that came back good clears it. */
static unsigned char state_of(const struct rdp_mesh *m,
			      const struct rdp_mesh_cell *c)
{
	const struct rdp_mesh_cell *r;

	if (!rdp_mesh_bad(c))
		return 0;
	r = c->again >= 0 ? rdp_mesh_retest_at(m, (size_t)c->again) : NULL;
	if (r && !rdp_mesh_bad(r))
		return 0;
	return c->status == RDP_MESH_FAILED ? 1 : 2;
}

/* Leaf pair a x b's cells over the spines they share. */
static void spread_pair(struct loc *L, unsigned int a, unsigned int b,
			const struct cnt *c)
{
	const struct rdp_mesh_topo *t = L->t;
	size_t n = topo_common(t, a, b, L->common, t->n_sw), i;
	const struct topo_common *s;
	unsigned int k;

	for (i = 0; i < n; i++) {
		s = &L->common[i];
		add_cnt(&L->c[L->sw0 + s->spine], c, 1.0 / (double)n);
		for (k = 0; k < s->na; k++)
			add_cnt(&L->c[L->link0 + t->up[s->a0 + k].link], c,
				1.0 / (double)n / s->na);
		for (k = 0; k < s->nb; k++)
			add_cnt(&L->c[L->link0 + t->up[s->b0 + k].link], c,
				1.0 / (double)n / s->nb);
	}
}

/* Every part's cells among the cells not yet explained. */
static void count(struct loc *L)
{
	const struct rdp_mesh_cell *c;
	unsigned int lt, lr, a, b;
	unsigned char s;
	size_t i, nl = L->n_leaves;

	memset(L->c, 0, L->n_parts * sizeof(*L->c));
	memset(L->pair, 0, nl * nl * sizeof(*L->pair));
	for (i = 0; i < L->n_cells; i++) {
		if (!L->active[i])
			continue;
		c = rdp_mesh_cell_at(L->m, i);
		s = L->state[i];
		add(&L->c[c->tx], s, 1);
		add(&L->c[c->rx], s, 1);
		add(&L->c[cable_part(L, c->tx, c->rail)], s, 1);
		add(&L->c[cable_part(L, c->rx, c->rail)], s, 1);
		lt = leaf_of(L, c->tx, c->rail);
		lr = leaf_of(L, c->rx, c->rail);
		add(&L->c[L->sw0 + lt], s, 1);
		if (lr == lt)
			continue;
		add(&L->c[L->sw0 + lr], s, 1);
		a = (unsigned int)L->t->leaf_ord[lt];
		b = (unsigned int)L->t->leaf_ord[lr];
		add(&L->pair[(size_t)a * nl + b], s, 1);
	}
	for (a = 0; a < nl; a++)
		for (b = 0; b < nl; b++)
			if (L->pair[(size_t)a * nl + b].t > 0)
				spread_pair(L, a, b,
					    &L->pair[(size_t)a * nl + b]);
}

/*
 * The background: the failed share of the cells not yet explained, and
 * the flagged share of those that did not fail, from the cables' counts
 * (each cell is in two cables, which leaves the shares as they are).
 */
static void background(struct loc *L)
{
	size_t nc = (size_t)L->nodes * L->rails, i;
	struct cnt sum = { 0 };

	for (i = 0; i < nc; i++)
		add_cnt(&sum, &L->c[L->cable0 + i], 1);
	L->tot = (struct cnt){ 0 };
	add_cnt(&L->tot, &sum, 0.5);
	L->ef = sum.t > 0 ? sum.f / sum.t : 0;
	L->eg = sum.t > sum.f ? sum.g / (sum.t - sum.f) : 0;
	L->ef = fmin(fmax(L->ef, MIN_SHARE), 0.9);
	L->eg = fmin(fmax(L->eg, MIN_SHARE), 0.9);
	L->tau = 10 + log((double)L->n_parts);
}

static int cnt_cmp(const struct cnt *a, const struct cnt *b)
{
	if (a->t != b->t)
		return (a->t > b->t) - (a->t < b->t);
	if (a->f != b->f)
		return (a->f > b->f) - (a->f < b->f);
	return (a->g > b->g) - (a->g < b->g);
}

/* Uplinks by leaf then counts, spines by counts: ties side by side. */
static int key_cmp(const void *x, const void *y)
{
	const struct key *a = x, *b = y;

	if (a->leaf != b->leaf)
		return (a->leaf > b->leaf) - (a->leaf < b->leaf);
	return cnt_cmp(&a->c, &b->c);
}

/* The keys of ids' parts (base: their first part), sorted. */
static void sort_keys(const struct loc *L, struct key *k, size_t n, size_t base)
{
	size_t i;

	for (i = 0; i < n; i++) {
		k[i].c = L->c[base + k[i].id];
		k[i].leaf = 0;
	}
	qsort(k, n, sizeof(*k), key_cmp);
}

static int near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b));
}

static int same_cnt(const struct cnt *a, const struct cnt *b)
{
	return near(a->t, b->t) && near(a->f, b->f) && near(a->g, b->g);
}

/* Keep c when it beats *best. */
static void offer(const struct loc *L, struct cand *c, struct cand *best)
{
	if (bad_of(&c->sum) < MIN_BAD)
		return;
	c->score = score(L, &c->sum);
	if (c->score > best->score)
		*best = *c;
}

/* The runs of equal counts in k (sorted) as candidates; ids: scratch of
 * n, which the best keeps pointing into. */
static void offer_runs(const struct loc *L, enum rdp_mesh_part kind,
		       const struct key *k, unsigned int *ids, size_t n,
		       size_t base, struct cand *best)
{
	struct cand c;
	size_t i = 0, j;

	for (j = 0; j < n; j++)
		ids[j] = k[j].id;
	while (i < n) {
		c = (struct cand){ .kind = kind, .ids = ids + i };
		for (j = i; j < n; j++) {
			if (j > i && (k[j].leaf != k[i].leaf ||
				      !same_cnt(&k[j].c, &k[i].c)))
				break;
			add_cnt(&c.sum, &k[j].c, 1);
		}
		c.n_ids = j - i;
		if (!L->rm[base + ids[i]])
			offer(L, &c, best);
		i = j;
	}
}

/* A node's or leaf's cables, when they explain its cells better. */
static void prefer_cables(const struct loc *L, struct cand *best)
{
	struct cand c, top = { .score = 0 };
	double sum = 0, s;
	size_t i, n, part, lo = 0;
	unsigned int k = 0;
	int o;

	if (best->kind == RDP_MESH_PART_NODE) {
		n = L->rails;
	} else {
		o = L->t->leaf_ord[best->part - L->sw0];
		lo = L->by_leaf0[o];
		n = L->by_leaf0[o + 1] - lo;
	}
	for (i = 0; i < n; i++) {
		part = best->kind == RDP_MESH_PART_NODE
			       ? cable_part(L, (unsigned int)best->part,
					    (unsigned int)i)
			       : L->by_leaf[lo + i];
		c = (struct cand){ .kind = RDP_MESH_PART_CABLE,
				   .part = part,
				   .sum = L->c[part] };
		/* Against the same cells as the parent. */
		s = bad_of(&c.sum) >= MIN_BAD ? score_in(L, &c.sum, &best->sum)
					      : 0;
		if (s < L->tau)
			continue;
		c.score = s;
		sum += s;
		k++;
		if (s > top.score)
			top = c;
	}
	if (k && sum - L->tau * (k - 1) > best->score)
		*best = top;
}

/* A spine group's cells leaf by leaf: the uplinks of one leaf to those
 * spines, when they explain its cells better (as prefer_cables). */
static void prefer_uplinks(struct loc *L, struct cand *best)
{
	const struct rdp_mesh_topo *t = L->t;
	struct cand c, top = { .score = 0 };
	unsigned int o, i, k = 0, *ids = L->child_ids;
	double sum = 0;

	memset(L->in_group, 0, t->n_sw);
	for (i = 0; i < best->n_ids; i++)
		L->in_group[best->ids[i]] = 1;
	for (o = 0; o < L->n_leaves; o++) {
		c = (struct cand){ .kind = RDP_MESH_PART_UPLINK, .ids = ids };
		for (i = t->up_start[o]; i < t->up_start[o + 1]; i++)
			if (L->in_group[t->up[i].spine]) {
				ids[c.n_ids++] = t->up[i].link;
				add_cnt(&c.sum, &L->c[L->link0 + t->up[i].link],
					1);
			}
		c.score = bad_of(&c.sum) >= MIN_BAD
				  ? score_in(L, &c.sum, &best->sum)
				  : 0;
		ids += c.n_ids;
		if (c.score < L->tau)
			continue;
		sum += c.score;
		k++;
		if (c.score > top.score)
			top = c;
	}
	if (k && sum - L->tau * (k - 1) > best->score)
		*best = top;
}

/* The best part to name now, or score 0. */
static struct cand pick(struct loc *L)
{
	struct cand best = { .score = 0 }, c;
	size_t i;

	for (i = 0; i < L->sw0; i++) {
		if (L->rm[i] || (i < L->cable0 && L->rails == 1))
			continue;
		c = (struct cand){ .kind = i < L->cable0 ? RDP_MESH_PART_NODE
							 : RDP_MESH_PART_CABLE,
				   .part = i,
				   .sum = L->c[i] };
		offer(L, &c, &best);
	}
	for (i = 0; i < L->t->n_sw; i++) {
		if (!L->t->sw[i].leaf || L->rm[L->sw0 + i])
			continue;
		c = (struct cand){ .kind = RDP_MESH_PART_LEAF,
				   .part = L->sw0 + i,
				   .sum = L->c[L->sw0 + i] };
		offer(L, &c, &best);
	}
	sort_keys(L, L->links, L->n_links, L->link0);
	sort_keys(L, L->spines, L->n_spines, L->sw0);
	offer_runs(L, RDP_MESH_PART_UPLINK, L->links, L->link_ids, L->n_links,
		   L->link0, &best);
	offer_runs(L, RDP_MESH_PART_SPINE, L->spines, L->spine_ids, L->n_spines,
		   L->sw0, &best);
	if (best.kind == RDP_MESH_PART_NODE || best.kind == RDP_MESH_PART_LEAF)
		if (best.score > 0)
			prefer_cables(L, &best);
	if (best.kind == RDP_MESH_PART_SPINE && best.score > 0)
		prefer_uplinks(L, &best);
	if (best.score < L->tau)
		best.score = 0;
	return best;
}

/* Mark the candidate's parts named; the leaf pairs whose every way
 * crosses one of them... or any: a cell that may cross a named uplink
 * or spine is set aside. */
static void mark(struct loc *L, const struct cand *c)
{
	const struct rdp_mesh_topo *t = L->t;
	size_t i, n, a, b, k, nl = L->n_leaves;
	const struct topo_common *s;
	int hit;

	if (c->kind != RDP_MESH_PART_UPLINK && c->kind != RDP_MESH_PART_SPINE) {
		L->rm[c->part] = 1;
		return;
	}
	for (i = 0; i < c->n_ids; i++)
		L->rm[(c->kind == RDP_MESH_PART_UPLINK ? L->link0 : L->sw0) +
		      c->ids[i]] = 1;
	for (a = 0; a < nl; a++)
		for (b = 0; b < nl; b++) {
			if (a == b || L->pair_rm[a * nl + b])
				continue;
			n = topo_common(t, (unsigned int)a, (unsigned int)b,
					L->common, t->n_sw);
			for (hit = 0, i = 0; !hit && i < n; i++) {
				s = &L->common[i];
				hit = L->rm[L->sw0 + s->spine];
				for (k = 0; !hit && k < s->na; k++)
					hit = L->rm[L->link0 +
						    t->up[s->a0 + k].link];
				for (k = 0; !hit && k < s->nb; k++)
					hit = L->rm[L->link0 +
						    t->up[s->b0 + k].link];
			}
			L->pair_rm[a * nl + b] = (unsigned char)hit;
		}
}

/* Set aside every cell through a named part. */
static void explain(struct loc *L)
{
	const struct rdp_mesh_cell *c;
	unsigned int lt, lr;
	size_t i, nl = L->n_leaves;

	for (i = 0; i < L->n_cells; i++) {
		if (!L->active[i])
			continue;
		c = rdp_mesh_cell_at(L->m, i);
		lt = leaf_of(L, c->tx, c->rail);
		lr = leaf_of(L, c->rx, c->rail);
		if (L->rm[c->tx] || L->rm[c->rx] ||
		    L->rm[cable_part(L, c->tx, c->rail)] ||
		    L->rm[cable_part(L, c->rx, c->rail)] ||
		    L->rm[L->sw0 + lt] || L->rm[L->sw0 + lr] ||
		    (lt != lr && L->pair_rm[(size_t)L->t->leaf_ord[lt] * nl +
					    (size_t)L->t->leaf_ord[lr]]))
			L->active[i] = 0;
	}
}

/* Each leaf's cable parts, for a cable's neighbours and a leaf's
 * cables. */
static int index_cables(struct loc *L)
{
	size_t nc = (size_t)L->nodes * L->rails, i, o;
	unsigned int *pos;

	L->by_leaf = malloc((nc ? nc : 1) * sizeof(*L->by_leaf));
	L->by_leaf0 = calloc(L->n_leaves + 1, sizeof(*L->by_leaf0));
	pos = calloc(L->n_leaves + 1, sizeof(*pos));
	if (!L->by_leaf || !L->by_leaf0 || !pos) {
		free(pos);
		return -ENOMEM;
	}
	for (i = 0; i < nc; i++)
		L->by_leaf0[L->t->leaf_ord[L->p->leaf[i]] + 1]++;
	for (o = 0; o < L->n_leaves; o++)
		L->by_leaf0[o + 1] += L->by_leaf0[o];
	memcpy(pos, L->by_leaf0, (L->n_leaves + 1) * sizeof(*pos));
	for (i = 0; i < nc; i++)
		L->by_leaf[pos[L->t->leaf_ord[L->p->leaf[i]]]++] =
			(unsigned int)(L->cable0 + i);
	free(pos);
	return 0;
}

/* The uplinks (leaf to spine) and spines, as keys. */
static int list_keys(struct loc *L)
{
	const struct rdp_mesh_topo *t = L->t;
	unsigned int i;

	L->links = calloc(t->n_link + 1, sizeof(*L->links));
	L->link_ids = calloc(t->n_link + 1, sizeof(*L->link_ids));
	L->spines = calloc(t->n_sw + 1, sizeof(*L->spines));
	L->spine_ids = calloc(t->n_sw + 1, sizeof(*L->spine_ids));
	L->child_ids = calloc(t->n_link + 1, sizeof(*L->child_ids));
	L->in_group = calloc(t->n_sw + 1, 1);
	if (!L->links || !L->link_ids || !L->spines || !L->spine_ids ||
	    !L->child_ids || !L->in_group)
		return -ENOMEM;
	for (i = 0; i < t->n_link; i++)
		if (t->sw[t->link[i].a].leaf && !t->sw[t->link[i].b].leaf)
			L->links[L->n_links++].id = i;
	for (i = 0; i < t->n_sw; i++)
		if (!t->sw[i].leaf)
			L->spines[L->n_spines++].id = i;
	return 0;
}

static void loc_free(struct loc *L)
{
	free(L->state);
	free(L->active);
	free(L->rm);
	free(L->pair_rm);
	free(L->c);
	free(L->pair);
	free(L->common);
	free(L->links);
	free(L->link_ids);
	free(L->spines);
	free(L->spine_ids);
	free(L->child_ids);
	free(L->in_group);
	free(L->by_leaf);
	free(L->by_leaf0);
}

static int loc_init(struct loc *L, const struct rdp_mesh *m,
		    const struct rdp_mesh_place *p)
{
	const struct rdp_mesh_topo *t = p->t;
	size_t i, nl = t->n_leaves;

	*L = (struct loc){ .m = m,
			   .p = p,
			   .t = t,
			   .nodes = p->nodes,
			   .rails = p->rails,
			   .n_leaves = t->n_leaves,
			   .n_cells = rdp_mesh_n_cells(m) };
	L->cable0 = L->nodes;
	L->sw0 = L->cable0 + (size_t)L->nodes * L->rails;
	L->link0 = L->sw0 + t->n_sw;
	L->n_parts = L->link0 + t->n_link;
	L->state = malloc(L->n_cells + 1);
	L->active = malloc(L->n_cells + 1);
	L->rm = calloc(L->n_parts, 1);
	L->pair_rm = calloc(nl * nl + 1, 1);
	L->c = calloc(L->n_parts, sizeof(*L->c));
	L->pair = calloc(nl * nl + 1, sizeof(*L->pair));
	L->common = calloc(t->n_sw + 1, sizeof(*L->common));
	if (!L->state || !L->active || !L->rm || !L->pair_rm || !L->c ||
	    !L->pair || !L->common || list_keys(L) || index_cables(L))
		return -ENOMEM;
	for (i = 0; i < L->n_cells; i++) {
		const struct rdp_mesh_cell *c = rdp_mesh_cell_at(m, i);

		L->state[i] = state_of(m, c);
		/* A cell of a rail the binding lacks is not placed; a
		 * skipped cell (its node pruned) is evidence of nothing. */
		L->active[i] = c->rail < L->rails &&
			       c->status != RDP_MESH_SKIPPED;
	}
	return 0;
}

static int push(struct rdp_mesh_faults *f, const struct loc *L,
		const struct cand *c)
{
	struct rdp_mesh_fault *v = realloc(f->v, (f->n + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	f->v = v;
	rdp_mesh_fault_record(L, c, &f->v[f->n++]);
	return 0;
}

int rdp_mesh_locate(const struct rdp_mesh *m, const struct rdp_mesh_place *p,
		    struct rdp_mesh_faults **out)
{
	struct rdp_mesh_faults *f;
	struct cand c;
	struct loc L;
	int ret;

	if (!m->analyzed || m->nodes != p->nodes)
		return -EINVAL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->t = p->t;
	ret = loc_init(&L, m, p);
	if (!ret) {
		count(&L);
		background(&L);
	}
	while (!ret && f->n < MAX_FOUND) {
		c = pick(&L);
		if (c.score <= 0)
			break;
		ret = push(f, &L, &c);
		if (ret)
			break;
		mark(&L, &c);
		explain(&L);
		count(&L);
		background(&L);
		/* Against the background without it. */
		rdp_mesh_fault_confidence(&L, &f->v[f->n - 1]);
	}
	loc_free(&L);
	if (ret) {
		rdp_mesh_faults_free(f);
		return ret;
	}
	*out = f;
	return 0;
}

void rdp_mesh_faults_free(struct rdp_mesh_faults *f)
{
	if (!f)
		return;
	free(f->v);
	free(f);
}

size_t rdp_mesh_faults_n(const struct rdp_mesh_faults *f)
{
	return f ? f->n : 0;
}

const struct rdp_mesh_fault *rdp_mesh_fault_at(const struct rdp_mesh_faults *f,
					       size_t i)
{
	return f && i < f->n ? &f->v[i] : NULL;
}

void rdp_mesh_set_faults(struct rdp_mesh *m, const struct rdp_mesh_faults *f)
{
	m->faults = f;
}

static json_t *sw_or_null(const struct rdp_mesh_topo *t, int sw)
{
	return sw >= 0 ? json_string(t->sw[sw].name) : json_null();
}

static json_t *int_or_null(int v)
{
	return v >= 0 ? json_integer(v) : json_null();
}

/* The candidates' names: uplinks by their spine end. */
static json_t *cand_json(const struct rdp_mesh_topo *t,
			 const struct rdp_mesh_fault *x)
{
	json_t *a = json_array();
	unsigned int i, sw;

	for (i = 0; a && i < x->n_cand; i++) {
		sw = x->kind == RDP_MESH_PART_UPLINK ? t->link[x->cand[i]].b
						     : x->cand[i];
		if (json_array_append_new(a, json_string(t->sw[sw].name))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *fault_json(const struct rdp_mesh *m,
			  const struct rdp_mesh_topo *t,
			  const struct rdp_mesh_fault *x)
{
	return json_pack(
		"{s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:f, s:f, "
		"s:{s:f, s:f}, s:f, s:f}",
		"part", rdp_mesh_part_name(x->kind), "name", x->name, "node",
		x->node >= 0 ? json_string(rdp_mesh_node_name(
				       m, (unsigned int)x->node))
			     : json_null(),
		"rail", int_or_null(x->rail), "switch", sw_or_null(t, x->sw),
		"port", int_or_null(x->port), "peer_switch",
		sw_or_null(t, x->peer), "peer_port", int_or_null(x->peer_port),
		"candidates", x->n_cand ? cand_json(t, x) : json_array(), "bad",
		x->bad, "total", x->total, "around", "bad", x->around_bad,
		"total", x->around_total, "score", x->score, "confidence",
		x->confidence);
}

json_t *rdp_mesh_faults_json(const struct rdp_mesh *m)
{
	const struct rdp_mesh_faults *f = m->faults;
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < f->n; i++)
		if (json_array_append_new(a, fault_json(m, f->t, &f->v[i]))) {
			json_decref(a);
			return NULL;
		}
	return a;
}
