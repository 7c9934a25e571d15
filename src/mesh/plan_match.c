/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The random perfect matchings of bisection and quick: drawn from the seed
 * alone, none twice, and the node pairs each one meets for the first time
 * (for the coverage of an estimate).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "plan_int.h"

uint64_t rdp_mesh_matchings_count(unsigned int n, uint64_t cap)
{
	uint64_t have = 1;
	unsigned int k;

	/* (n-1)!! for even n; n!! for odd n, where one node rests. */
	for (k = n % 2 ? n : n - 1; k > 1 && have < cap; k -= 2)
		have *= k;
	return have < cap ? have : cap;
}

/* One number per matching, the same whatever order its pairs are in: a
 * sum of mixed pair keys (the resting node of odd N follows from them). */
static uint64_t matching_hash(const unsigned int *ord, unsigned int n)
{
	uint64_t h = 0, k;
	unsigned int j, a, b;

	for (j = 0; j < n / 2; j++) {
		a = ord[2 * j];
		b = ord[2 * j + 1];
		k = a < b ? (uint64_t)a * n + b : (uint64_t)b * n + a;
		h += rdp_mesh_random(&k);
	}
	return h;
}

/* Each node's partner in a matching (itself when it rests). */
static void partners(const unsigned int *ord, unsigned int n,
		     unsigned int *mate)
{
	unsigned int j;

	for (j = 0; j < n / 2; j++) {
		mate[ord[2 * j]] = ord[2 * j + 1];
		mate[ord[2 * j + 1]] = ord[2 * j];
	}
	if (n % 2)
		mate[ord[n - 1]] = ord[n - 1];
}

/* Whether matching m is one of the matchings before it. */
static int drawn_before(const struct rdp_mesh_plan *p, const uint64_t *hash,
			size_t m, unsigned int *mate)
{
	unsigned int n = p->o.nodes, *other = mate + n;
	size_t t;

	for (t = 0; t < m; t++) {
		if (hash[t] != hash[m])
			continue;
		partners(p->order + m * n, n, mate);
		partners(p->order + t * n, n, other);
		if (!memcmp(mate, other, n * sizeof(*mate)))
			return 1;
	}
	return 0;
}

/* A Fisher-Yates shuffle; the modulo bias of a 64-bit draw over at most
 * 100 000 nodes is below 2^-46. */
static void shuffle(unsigned int *ord, unsigned int n, uint64_t *state)
{
	unsigned int i, j, t;

	for (i = 0; i < n; i++)
		ord[i] = i;
	for (i = n - 1; i > 0; i--) {
		j = (unsigned int)(rdp_mesh_random(state) % (i + 1));
		t = ord[i];
		ord[i] = ord[j];
		ord[j] = t;
	}
}

/*
 * Matching 0 is i <-> i+N/2; the others are shuffles, each drawn again
 * while it pairs the nodes as an earlier one does (rdp_mesh_plan_check
 * has made sure that enough distinct matchings exist). The draws follow
 * one another on one generator, so the redraws are the seed's too.
 */
static int fill_orders(struct rdp_mesh_plan *p)
{
	unsigned int n = p->o.nodes, h = n / 2, i, *mate;
	uint64_t state = p->o.seed, *hash;
	size_t m;

	hash = calloc(p->pairings, sizeof(*hash));
	mate = malloc(2 * (size_t)n * sizeof(*mate));
	if (!hash || !mate) {
		free(hash);
		free(mate);
		return -ENOMEM;
	}
	for (i = 0; i < h; i++) {
		p->order[2 * i] = i;
		p->order[2 * i + 1] = i + h;
	}
	if (n % 2)
		p->order[n - 1] = n - 1;
	hash[0] = matching_hash(p->order, n);
	for (m = 1; m < p->pairings; m++)
		do {
			shuffle(p->order + m * n, n, &state);
			hash[m] = matching_hash(p->order + m * n, n);
		} while (drawn_before(p, hash, m, mate));
	free(hash);
	free(mate);
	return 0;
}

int rdp_mesh_matchings_draw(struct rdp_mesh_plan *p)
{
	p->pairings = 1 + (size_t)p->o.permutations;
	p->order = calloc(p->pairings * p->o.nodes, sizeof(*p->order));
	if (!p->order)
		return -ENOMEM;
	return fill_orders(p);
}

size_t rdp_mesh_matching_round(const struct rdp_mesh_plan *p, size_t r,
			       struct rdp_mesh_xfer *x)
{
	const unsigned int *ord = p->order + r * p->o.nodes;
	size_t j;

	for (j = 0; j < p->o.nodes / 2; j++)
		x[j] = (struct rdp_mesh_xfer){ ord[2 * j], ord[2 * j + 1], 0 };
	return j;
}

/*
 * Finding the pairs two matchings share, in cache-sized pieces: a pair
 * (a < b) goes to the bucket of a's 256 nodes, in matching order, as
 * one number (a's low bits, b); a bucket then checks its pairs against
 * the ones before in a small hash table. cnt[t * nb + k]: the pairs of
 * matching t in bucket k.
 */
#define BUCKET_SHIFT 8
#define B_BITS	     17 /* b in a key */
_Static_assert(RDP_MESH_PLAN_MAX_NODES <= 1 << B_BITS &&
		       BUCKET_SHIFT + B_BITS < 32,
	       "a pair key holds a's low bits and b in 32 bits");

struct pairs {
	unsigned int n, nb; /* nodes, buckets */
	size_t m;	    /* matchings */
	uint32_t *key;	    /* by bucket, then matching */
	size_t *start;	    /* of each bucket in key, nb + 1 */
	uint32_t *cnt;	    /* m x nb */
};

/* The pair j of matching t as (a < b). */
static void pair_of(const struct rdp_mesh_plan *p, size_t t, size_t j,
		    unsigned int *a, unsigned int *b)
{
	const unsigned int *ord = p->order + t * p->o.nodes + 2 * j;

	*a = ord[0] < ord[1] ? ord[0] : ord[1];
	*b = ord[0] < ord[1] ? ord[1] : ord[0];
}

static int bucket_pairs(const struct rdp_mesh_plan *p, struct pairs *s)
{
	size_t t, j, k, h = p->o.nodes / 2, *at;
	unsigned int a, b;

	s->cnt = calloc(s->m * s->nb, sizeof(*s->cnt));
	s->start = calloc(s->nb + 1, sizeof(*s->start));
	s->key = malloc((s->m * h + 1) * sizeof(*s->key));
	at = malloc(s->nb * sizeof(*at));
	if (!s->cnt || !s->start || !s->key || !at) {
		free(at);
		return -ENOMEM;
	}
	for (t = 0; t < s->m; t++)
		for (j = 0; j < h; j++) {
			pair_of(p, t, j, &a, &b);
			s->cnt[t * s->nb + (a >> BUCKET_SHIFT)]++;
		}
	for (k = 0; k < s->nb; k++)
		for (s->start[k + 1] = s->start[k], t = 0; t < s->m; t++)
			s->start[k + 1] += s->cnt[t * s->nb + k];
	memcpy(at, s->start, s->nb * sizeof(*at));
	for (t = 0; t < s->m; t++)
		for (j = 0; j < h; j++) {
			pair_of(p, t, j, &a, &b);
			s->key[at[a >> BUCKET_SHIFT]++] =
				(a & ((1u << BUCKET_SHIFT) - 1)) << B_BITS | b;
		}
	free(at);
	return 0;
}

/* One bucket's pairs met first, per matching, into fresh[]. seen: 2^bits
 * slots, room for twice the bucket's pairs. */
static void fresh_in(const struct pairs *s, size_t k, uint32_t *seen,
		     unsigned int bits, uint64_t *fresh)
{
	const uint32_t *key = s->key + s->start[k];
	uint32_t slot, v, mask = (uint32_t)((1ull << bits) - 1);
	size_t t, i;

	memset(seen, 0, ((size_t)mask + 1) * sizeof(*seen));
	for (t = 0; t < s->m; t++)
		for (i = 0; i < s->cnt[t * s->nb + k]; i++) {
			v = *key++ + 1;
			slot = (v * 0x9e3779b1u) >> (32 - bits);
			while (seen[slot] && seen[slot] != v)
				slot = (slot + 1) & mask;
			if (!seen[slot]) {
				seen[slot] = v;
				fresh[t]++;
			}
		}
}

int rdp_mesh_matchings_fresh(const struct rdp_mesh_plan *p, size_t m,
			     uint64_t *fresh)
{
	struct pairs s = { .n = p->o.nodes,
			   .nb = (p->o.nodes >> BUCKET_SHIFT) + 1,
			   .m = m < p->pairings ? m : p->pairings };
	size_t most = 0, k, t;
	uint32_t *seen = NULL;
	unsigned int bits = 1;
	int ret;

	for (t = 0; t < s.m; t++)
		fresh[t] = 0;
	ret = bucket_pairs(p, &s);
	for (k = 0; !ret && k < s.nb; k++)
		if (s.start[k + 1] - s.start[k] > most)
			most = s.start[k + 1] - s.start[k];
	while (((size_t)1 << bits) < 2 * most)
		bits++;
	if (!ret)
		seen = malloc(((size_t)1 << bits) * sizeof(*seen));
	if (!ret && !seen)
		ret = -ENOMEM;
	for (k = 0; !ret && k < s.nb; k++)
		fresh_in(&s, k, seen, bits, fresh);
	free(seen);
	free(s.key);
	free(s.start);
	free(s.cnt);
	return ret;
}
