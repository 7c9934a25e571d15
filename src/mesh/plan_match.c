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

/* How many of a node's m partners (mate[t]) are new at t; only pairs
 * (a, b > a) counted, so that each pair counts once. seen: 2^bits slots,
 * cleared by the caller. */
static void fresh_of(unsigned int a, const unsigned int *mate, size_t m,
		     unsigned int *seen, unsigned int bits, uint64_t *fresh)
{
	unsigned int b, mask = (1u << bits) - 1, s;
	size_t t;

	for (t = 0; t < m; t++) {
		b = mate[t];
		if (b == a)
			continue;
		s = (unsigned int)((b * 0x9e3779b1u) >> (32 - bits)) & mask;
		while (seen[s] && seen[s] != b + 1)
			s = (s + 1) & mask;
		if (seen[s])
			continue;
		seen[s] = b + 1;
		if (a < b)
			fresh[t]++;
	}
}

int rdp_mesh_matchings_fresh(const struct rdp_mesh_plan *p, size_t m,
			     uint64_t *fresh)
{
	unsigned int n = p->o.nodes, bits = 1, *mate, *seen, *one, a;
	const unsigned int *ord;
	size_t t, j;

	if (m > p->pairings)
		m = p->pairings;
	while ((1u << bits) < 2 * m)
		bits++;
	/* Node-major: node a's partners in matchings 0..m-1 side by side. */
	mate = malloc((size_t)n * m * sizeof(*mate));
	seen = malloc(((size_t)1 << bits) * sizeof(*seen));
	if (!mate || !seen) {
		free(mate);
		free(seen);
		return -ENOMEM;
	}
	for (t = 0; t < m; t++) {
		ord = p->order + t * n;
		for (j = 0; j + 1 < n; j += 2) {
			mate[(size_t)ord[j] * m + t] = ord[j + 1];
			mate[(size_t)ord[j + 1] * m + t] = ord[j];
		}
		if (n % 2)
			mate[(size_t)ord[n - 1] * m + t] = ord[n - 1];
		fresh[t] = 0;
	}
	for (a = 0; a < n; a++) {
		one = mate + (size_t)a * m;
		memset(seen, 0, ((size_t)1 << bits) * sizeof(*seen));
		fresh_of(a, one, m, seen, bits, fresh);
	}
	free(seen);
	free(mate);
	return 0;
}
