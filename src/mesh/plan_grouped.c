/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Grouped full mesh: the circle method inside groups of G consecutive
 * nodes, all groups at once, then the circle method over the groups, two
 * meeting groups joined by a perfect matching of their nodes. Nothing is
 * stored: a round and its count come from the group sizes and the seed.
 */
#include <stdio.h>

#include "plan_int.h"

int rdp_mesh_grouped_size(struct rdp_mesh_plan *p)
{
	unsigned int n = p->o.nodes, g = p->o.group_size;

	p->groups = (n + g - 1) / g;
	p->last = n - (p->groups - 1) * g;
	p->inner = rdp_mesh_circle_pairings(g);
	p->pairings = p->inner + rdp_mesh_circle_pairings(p->groups);
	return 0;
}

static unsigned int group_nodes(const struct rdp_mesh_plan *p, unsigned int gi)
{
	return gi + 1 < p->groups ? p->o.group_size : p->last;
}

/* Pairing r inside the groups: the circle method over each group's s
 * nodes, where it has pairing r (a short group may be done earlier). */
static size_t inner_round(const struct rdp_mesh_plan *p, unsigned int r,
			  struct rdp_mesh_xfer *x)
{
	unsigned int gi, s, base, i, a, b;
	size_t k = 0;

	for (gi = 0; gi < p->groups; gi++) {
		s = group_nodes(p, gi);
		if (r >= rdp_mesh_circle_pairings(s))
			continue;
		base = gi * p->o.group_size;
		for (i = 0; i < (s + 1) / 2; i++)
			if (rdp_mesh_circle_pair(s, r, i, &a, &b))
				x[k++] = (struct rdp_mesh_xfer){ base + a,
								 base + b, 0 };
	}
	return k;
}

/* Where the matching of groups lo < hi starts: a draw from the seed and
 * the two groups alone, the same on every host. */
static unsigned int offset(const struct rdp_mesh_plan *p, unsigned int lo,
			   unsigned int hi, unsigned int mod)
{
	uint64_t s = p->o.seed ^ ((uint64_t)lo << 32 | hi);

	return (unsigned int)(rdp_mesh_random(&s) % mod);
}

/*
 * Groups ga -> gb joined: node j of the smaller group (both full: of gb)
 * with node (j + offset) mod G of the other, so each of the smaller
 * group's nodes meets one node of the other and none twice.
 */
static size_t join(const struct rdp_mesh_plan *p, unsigned int ga,
		   unsigned int gb, struct rdp_mesh_xfer *x)
{
	unsigned int g = p->o.group_size, sa = group_nodes(p, ga),
		     sb = group_nodes(p, gb), j, off, small, big;
	unsigned int lo = ga < gb ? ga : gb, hi = ga < gb ? gb : ga;
	unsigned int a0 = ga * g, b0 = gb * g;

	small = sa < sb ? sa : sb;
	big = sa < sb ? sb : sa;
	off = offset(p, lo, hi, big);
	for (j = 0; j < small; j++)
		x[j] = sa < sb ? (struct rdp_mesh_xfer){ a0 + j,
							 b0 + (j + off) % big,
							 0 }
			       : (struct rdp_mesh_xfer){ a0 + (j + off) % big,
							 b0 + j, 0 };
	return small;
}

size_t rdp_mesh_grouped_round(const struct rdp_mesh_plan *p, size_t r,
			      struct rdp_mesh_xfer *x)
{
	unsigned int q, i, ga, gb;
	size_t k = 0;

	if (r < p->inner)
		return inner_round(p, (unsigned int)r, x);
	q = (unsigned int)(r - p->inner);
	for (i = 0; i < (p->groups + 1) / 2; i++)
		if (rdp_mesh_circle_pair(p->groups, q, i, &ga, &gb))
			k += join(p, ga, gb, x + k);
	return k;
}

size_t rdp_mesh_grouped_width(const struct rdp_mesh_plan *p, size_t r)
{
	unsigned int g = p->o.group_size, m = p->groups, s = p->last;
	size_t full = m - 1, k;

	if (r < p->inner) /* every full group has pairing r */
		return full * (g / 2) +
		       (r < rdp_mesh_circle_pairings(s) ? s / 2 : 0);
	/* m/2 pairs of groups meet; for odd m group r rests, the last one
	 * (which may be short) when r is m-1. */
	r -= p->inner;
	k = (size_t)(m / 2) * g;
	if (s < g && !(m % 2 && r == m - 1))
		k -= g - s;
	return k;
}

void rdp_mesh_grouped_head(const struct rdp_mesh_plan *p, FILE *f)
{
	unsigned int g = p->o.group_size;

	fprintf(f, "%u groups of %u", p->groups, g);
	if (p->last < g)
		fprintf(f, " (the last of %u)", p->last);
	fprintf(f,
		", %zu pairings inside them at once, then %zu of groups joined "
		"node to node (seed %llu), %s\n",
		p->inner, p->pairings - p->inner, (unsigned long long)p->o.seed,
		p->o.bidir ? "both directions at once"
			   : "each as two rounds, A->B then B->A");
}
