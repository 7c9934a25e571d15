/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The random matchings of bisection and quick against a plain reference:
 * the rounds are the Fisher-Yates shuffles of the seed (a redraw for a
 * matching drawn before), and the pairs each one meets first, counted as
 * the plan draws them, are the pairs counted by brute force over the
 * rounds, for small plans and several seeds and for 100 000 nodes.
 */
#include <stdlib.h>
#include <string.h>

#include "unit.h"

#include <rdmaperf/mesh_plan.h>

/* splitmix64 */
static uint64_t ref_random(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Each node's partner in the order ord (itself when it rests). */
static void ref_mates(const unsigned int *ord, unsigned int n,
		      unsigned int *mate)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		mate[i] = i;
	for (i = 0; i + 1 < n; i += 2) {
		mate[ord[i]] = ord[i + 1];
		mate[ord[i + 1]] = ord[i];
	}
}

/*
 * The node orders of m matchings as the plan's seed gives them, one row
 * each: i<->i+N/2 first, then shuffles of 0..N-1 (a pair is two places
 * in a row), each drawn again while it pairs the nodes as an earlier one.
 */
static unsigned int *ref_orders(unsigned int n, size_t m, uint64_t seed)
{
	unsigned int *ord = calloc(m * n, sizeof(*ord)), *mine, *other, i, j, t;
	size_t r, u;
	int again;

	mine = calloc(n, sizeof(*mine));
	other = calloc(n, sizeof(*other));
	assert_true(ord && mine && other);
	for (i = 0; i < n; i++)
		ord[i] = i + 1 < n || n % 2 == 0 ? i / 2 + i % 2 * (n / 2) : i;
	for (r = 1; r < m; r++)
		do {
			for (i = 0; i < n; i++)
				ord[r * n + i] = i;
			for (i = n - 1; i > 0; i--) {
				j = (unsigned int)(ref_random(&seed) % (i + 1));
				t = ord[r * n + i];
				ord[r * n + i] = ord[r * n + j];
				ord[r * n + j] = t;
			}
			ref_mates(ord + r * n, n, mine);
			for (again = 0, u = 0; u < r && !again; u++) {
				ref_mates(ord + u * n, n, other);
				again = !memcmp(mine, other, n * sizeof(*mine));
			}
		} while (again);
	free(mine);
	free(other);
	return ord;
}

struct key {
	uint64_t pair; /* a * N + b, a < b */
	size_t t;      /* the matching */
};

static int by_pair(const void *a, const void *b)
{
	const struct key *x = a, *y = b;

	if (x->pair != y->pair)
		return x->pair < y->pair ? -1 : 1;
	return x->t < y->t ? -1 : x->t > y->t;
}

/* fresh[t]: the pairs of matching t in no earlier one, by sorting every
 * pair of the m orders. */
static void ref_fresh(const unsigned int *ord, unsigned int n, size_t m,
		      uint64_t *fresh)
{
	size_t h = n / 2, k = 0, t, j;
	struct key *key = calloc(m * h, sizeof(*key));
	unsigned int a, b;

	assert_non_null(key);
	for (t = 0; t < m; t++) {
		fresh[t] = 0;
		for (j = 0; j < h; j++) {
			a = ord[t * n + 2 * j];
			b = ord[t * n + 2 * j + 1];
			key[k].pair = a < b ? (uint64_t)a * n + b
					    : (uint64_t)b * n + a;
			key[k++].t = t;
		}
	}
	qsort(key, k, sizeof(*key), by_pair);
	for (j = 0; j < k; j++)
		if (!j || key[j].pair != key[j - 1].pair)
			fresh[key[j].t]++;
	free(key);
}

/*
 * A plan of n nodes, K permutations and a seed, both patterns and both
 * -b and not: its rounds are the reference orders (A->B on the first
 * round of a pairing, B->A on the second), and the node pairs the count
 * says every prefix of rounds meets are the reference's.
 */
static void against_reference(unsigned int n, unsigned int perms, uint64_t seed)
{
	size_t m = perms + 1, t, r, k, j, cnt, per;
	unsigned int *ord = ref_orders(n, m, seed), pat, bidir;
	uint64_t *fresh = calloc(m, sizeof(*fresh)), met;
	struct rdp_mesh_xfer *x = calloc(n / 2, sizeof(*x));
	struct rdp_mesh_plan_count c;
	struct rdp_mesh_plan *p;

	assert_true(fresh && x);
	ref_fresh(ord, n, m, fresh);
	for (pat = 0; pat < 2; pat++)
		for (bidir = 0; bidir < 2; bidir++) {
			struct rdp_mesh_plan_opts o = {
				.pattern = pat ? RDP_MESH_QUICK
					       : RDP_MESH_BISECTION,
				.nodes = n,
				.permutations = perms,
				.seed = seed,
				.bidir = (int)bidir
			};

			assert_int_equal(rdp_mesh_plan_create(&o, &p), 0);
			per = bidir ? 1 : 2;
			assert_int_equal(rdp_mesh_plan_rounds(p), m * per);
			for (k = 0, met = 0; k < m * per; k++) {
				t = k / per;
				cnt = rdp_mesh_plan_round(p, k, x);
				assert_int_equal(cnt, n / 2);
				for (j = 0; j < cnt; j++) {
					r = k % per; /* 1: B->A */
					assert_int_equal(
						x[j].tx,
						ord[t * n + 2 * j + r]);
					assert_int_equal(
						x[j].rx,
						ord[t * n + 2 * j + 1 - r]);
				}
				/* a pairing's second round meets its pairs
				 * the other way */
				met += fresh[t] * (bidir ? 2 : 1);
				assert_int_equal(
					rdp_mesh_plan_count(p, k + 1, &c), 0);
				assert_int_equal(c.pairs_met, met);
			}
			rdp_mesh_plan_free(p);
		}
	free(x);
	free(fresh);
	free(ord);
}

/* The most permutations n nodes have, up to `most`. */
static unsigned int perms_up_to(unsigned int n, unsigned int most)
{
	uint64_t have = 1;
	unsigned int k;

	for (k = n % 2 ? n : n - 1; k > 1 && have <= most; k -= 2)
		have *= k;
	return have - 1 < most ? (unsigned int)(have - 1) : most;
}

static void test_small_plans(void **state)
{
	static const uint64_t seeds[] = {
		1, 2, 7, 42, 1000000007, 0xfedcba9876543210ull
	};
	static const unsigned int more[] = { 31, 64, 99, 100, 257 };
	unsigned int n, i;
	size_t s;

	(void)state;
	for (s = 0; s < sizeof(seeds) / sizeof(seeds[0]); s++) {
		for (n = 2; n <= 14; n++)
			against_reference(n, perms_up_to(n, 40), seeds[s]);
		for (i = 0; i < sizeof(more) / sizeof(more[0]); i++)
			against_reference(more[i], 60, seeds[s]);
	}
	/* many matchings of few nodes: most pairs met before */
	against_reference(40, 1024, 3);
	against_reference(41, 300, 4);
}

/* 100 000 nodes (and an odd count): the largest draws there are. */
static void test_huge_plans(void **state)
{
	(void)state;
	against_reference(RDP_MESH_PLAN_MAX_NODES, 2, 1);
	against_reference(RDP_MESH_PLAN_MAX_NODES - 1, 2, 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_plans),
		cmocka_unit_test(test_huge_plans),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
