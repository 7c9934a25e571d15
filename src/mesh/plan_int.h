/* SPDX-License-Identifier: BSD-2-Clause */
/* What the plan's files share: the plan, the circle method, the rows of
 * the random matchings and of grouped. */
#ifndef RDMAPERF_PLAN_INT_H
#define RDMAPERF_PLAN_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <rdmaperf/mesh_plan.h>

struct rdp_mesh_plan {
	struct rdp_mesh_plan_opts o;
	size_t pairings; /* directed patterns: pairings before direction */
	size_t rounds;
	/* Bisection, quick: three numbers a matching (plan_match.c):
	 * where its draw starts, which makes its node order again (pair j
	 * is places 2j and 2j+1, odd N leaves place N-1 out), and the node
	 * pairs it meets first. */
	unsigned int *order;
	/* Grouped: groups of G, the last of `last` nodes (1..G); `inner`
	 * pairings inside the groups, then the groups' own. */
	unsigned int groups, last;
	size_t inner;
	struct cover *cover; /* cover: its groups (plan_cover.c) */
};

/* The pairings of the circle method over n places: n-1 for even n, n
 * for odd n (each resting once), none for fewer than 2. */
static inline unsigned int rdp_mesh_circle_pairings(unsigned int n)
{
	return n < 2 ? 0 : n % 2 ? n : n - 1;
}

/*
 * Pair i (0 .. (n+1)/2-1) of pairing r of the circle method over n
 * places: place M-1 (M: n rounded up to even) meets r, and (r+i) meets
 * (r-i) mod M-1. 1 with *a -> *b; 0 when one side is the ghost of odd n
 * (the other rests).
 */
static inline int rdp_mesh_circle_pair(unsigned int n, unsigned int r,
				       unsigned int i, unsigned int *a,
				       unsigned int *b)
{
	unsigned int turn = (n % 2 ? n + 1 : n) - 1;

	if (!i) {
		if (turn == n)
			return 0;
		*a = r % 2 ? turn : r;
		*b = r % 2 ? r : turn;
		return 1;
	}
	*a = (r + i) % turn;
	*b = (r + turn - i) % turn;
	return 1;
}

/* splitmix64: a fixed generator, so a seed gives the same draws on every
 * host and libc. */
static inline uint64_t rdp_mesh_random(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Distinct matchings of n nodes (perfect; odd n: one node resting), or
 * cap when there are more. */
uint64_t rdp_mesh_matchings_count(unsigned int n, uint64_t cap);
/* Bisection, quick: draws the orders, no matching twice. */
int rdp_mesh_matchings_draw(struct rdp_mesh_plan *p);
size_t rdp_mesh_matching_round(const struct rdp_mesh_plan *p, size_t r,
			       struct rdp_mesh_xfer *x);
/*
 * fresh[t] for each of the first m matchings: its node pairs that no
 * earlier matching holds, as the draw counted them. 0.
 */
int rdp_mesh_matchings_fresh(const struct rdp_mesh_plan *p, size_t m,
			     uint64_t *fresh);

int rdp_mesh_grouped_size(struct rdp_mesh_plan *p);
size_t rdp_mesh_grouped_round(const struct rdp_mesh_plan *p, size_t r,
			      struct rdp_mesh_xfer *x);
/* The transfers of pairing r, counted. */
size_t rdp_mesh_grouped_width(const struct rdp_mesh_plan *p, size_t r);
void rdp_mesh_grouped_head(const struct rdp_mesh_plan *p, FILE *f);

/* Cover: the groups copied and the pairings counted; the checks of
 * rdp_mesh_plan_check on its groups. */
int rdp_mesh_cover_size(struct rdp_mesh_plan *p);
void rdp_mesh_cover_free(struct rdp_mesh_plan *p);
int rdp_mesh_cover_check(const struct rdp_mesh_plan_opts *o, char *why,
			 size_t len);
size_t rdp_mesh_cover_round(const struct rdp_mesh_plan *p, size_t r,
			    struct rdp_mesh_xfer *x);
size_t rdp_mesh_cover_width(const struct rdp_mesh_plan *p, size_t r);
void rdp_mesh_cover_head(const struct rdp_mesh_plan *p, FILE *f);
/* As rdp_mesh_matchings_fresh, for the first m pairings of cover. */
int rdp_mesh_cover_fresh(const struct rdp_mesh_plan *p, size_t m,
			 uint64_t *fresh);

/* Incast and alltoall (plan_incast.c): their rows, and the checks of
 * rdp_mesh_plan_check on --fan-in, --rounds, --victim and alltoall's
 * nodes. */
int rdp_mesh_incast_size(struct rdp_mesh_plan *p);
size_t rdp_mesh_incast_round(const struct rdp_mesh_plan *p, size_t r,
			     struct rdp_mesh_xfer *x);
size_t rdp_mesh_incast_width(const struct rdp_mesh_plan *p, size_t r);
unsigned int rdp_mesh_incast_fan(const struct rdp_mesh_plan *p, int in);
void rdp_mesh_incast_head(const struct rdp_mesh_plan *p, FILE *f);
int rdp_mesh_alltoall_size(struct rdp_mesh_plan *p);
size_t rdp_mesh_alltoall_round(const struct rdp_mesh_plan *p, size_t r,
			       struct rdp_mesh_xfer *x);
size_t rdp_mesh_alltoall_width(const struct rdp_mesh_plan *p, size_t r);
unsigned int rdp_mesh_alltoall_fan(const struct rdp_mesh_plan *p, int in);
void rdp_mesh_alltoall_head(const struct rdp_mesh_plan *p, FILE *f);
int rdp_mesh_incast_check(const struct rdp_mesh_plan_opts *o, char *why,
			  size_t len);

/* Transfers in pairing r (ring-shift: round r) of any pattern, counted;
 * whether the pattern's pairings are split by direction. */
size_t rdp_mesh_plan_pairing_width(const struct rdp_mesh_plan *p, size_t r);
int rdp_mesh_plan_directed(const struct rdp_mesh_plan *p);

#endif /* RDMAPERF_PLAN_INT_H */
