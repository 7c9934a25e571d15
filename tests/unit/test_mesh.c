/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Cluster meshes without MPI: the schedule invariants of every pattern for
 * 2..64 nodes.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"

#include <rdmaperf/mesh_plan.h>

#define MAX_N 64

static struct rdp_mesh_plan *plan_of(enum rdp_mesh_pattern pat, unsigned int n,
				     unsigned int perms, uint64_t seed,
				     int bidir)
{
	struct rdp_mesh_plan_opts o = { .pattern = pat,
					.nodes = n,
					.permutations = perms,
					.seed = seed,
					.bidir = bidir };
	struct rdp_mesh_plan *p = NULL;

	assert_int_equal(rdp_mesh_plan_create(&o, &p), 0);
	assert_non_null(p);
	return p;
}

/* Round k of p, checked: no node in two tests, entries in range. busy[]
 * comes back with 1 for each node in the round; returns the count. */
static size_t round_checked(const struct rdp_mesh_plan *p, size_t k,
			    struct rdp_mesh_xfer *x, unsigned char *busy)
{
	unsigned int n = rdp_mesh_plan_opts(p)->nodes;
	size_t cnt = rdp_mesh_plan_round(p, k, x), j;

	assert_true(cnt <= rdp_mesh_plan_width(p));
	memset(busy, 0, MAX_N);
	for (j = 0; j < cnt; j++) {
		assert_true(x[j].tx < n && x[j].rx < n);
		assert_int_not_equal(x[j].tx, x[j].rx);
		if (busy[x[j].tx] || busy[x[j].rx])
			fail_msg("N=%u round %zu: a node is in two tests", n,
				 k + 1);
		busy[x[j].tx] = busy[x[j].rx] = 1;
	}
	return cnt;
}

static unsigned int idle(const unsigned char *busy, unsigned int n,
			 unsigned int *who)
{
	unsigned int i, c = 0;

	for (i = 0; i < n; i++)
		if (!busy[i]) {
			*who = i;
			c++;
		}
	return c;
}

/* Pairwise: every ordered pair once (each unordered pair once, both ways,
 * with -b), in N-1 pairings for even N and N for odd N, each odd round
 * resting one node, each node resting once; B->A follows A->B. */
static void pairwise(unsigned int n, int bidir)
{
	struct rdp_mesh_plan *p = plan_of(RDP_MESH_PAIRWISE, n, 0, 0, bidir);
	struct rdp_mesh_xfer x[MAX_N], prev[MAX_N];
	unsigned char busy[MAX_N], seen[MAX_N][MAX_N] = { { 0 } };
	unsigned int rests[MAX_N] = { 0 }, who = 0, a, b;
	size_t pairings = n % 2 ? n : n - 1, k, j, cnt, prev_cnt = 0;

	assert_int_equal(rdp_mesh_plan_rounds(p), pairings * (bidir ? 1 : 2));
	for (k = 0; k < rdp_mesh_plan_rounds(p); k++) {
		cnt = round_checked(p, k, x, busy);
		assert_int_equal(cnt, n / 2);
		assert_int_equal(idle(busy, n, &who), n % 2);
		if (n % 2)
			rests[who]++;
		for (j = 0; j < cnt; j++) {
			assert_int_equal(x[j].both, bidir);
			seen[x[j].tx][x[j].rx]++;
			if (bidir)
				seen[x[j].rx][x[j].tx]++;
			if (!bidir && k % 2) { /* the reverse of round k-1 */
				assert_int_equal(cnt, prev_cnt);
				assert_int_equal(x[j].tx, prev[j].rx);
				assert_int_equal(x[j].rx, prev[j].tx);
			}
		}
		memcpy(prev, x, sizeof(x));
		prev_cnt = cnt;
	}
	for (a = 0; a < n; a++) {
		if (n % 2)
			assert_int_equal(rests[a], bidir ? 1 : 2);
		for (b = 0; b < n; b++)
			if (seen[a][b] != (a != b))
				fail_msg("N=%u%s: %u->%u runs %u times", n,
					 bidir ? " -b" : "", a, b, seen[a][b]);
	}
	assert_int_equal(rdp_mesh_plan_round(p, k, x), 0);
	rdp_mesh_plan_free(p);
}

static void test_pairwise(void **state)
{
	unsigned int n;

	(void)state;
	for (n = 2; n <= MAX_N; n++) {
		pairwise(n, 0);
		pairwise(n, 1);
	}
}

/* Each matching pairs every node once (odd N: all but one); the first is
 * i <-> i+N/2. */
static void bisection(unsigned int n, unsigned int perms, int bidir)
{
	struct rdp_mesh_plan *p =
		plan_of(RDP_MESH_BISECTION, n, perms, 7, bidir);
	struct rdp_mesh_xfer x[MAX_N];
	unsigned char busy[MAX_N];
	unsigned int who;
	size_t k, j, cnt, per = bidir ? 1 : 2;

	assert_int_equal(rdp_mesh_plan_rounds(p), (1 + perms) * per);
	for (k = 0; k < rdp_mesh_plan_rounds(p); k++) {
		cnt = round_checked(p, k, x, busy);
		assert_int_equal(cnt, n / 2);
		assert_int_equal(idle(busy, n, &who), n % 2);
		for (j = 0; j < cnt; j++) {
			assert_int_equal(x[j].both, bidir);
			if (k >= per)
				continue;
			/* i <-> i + N/2, A->B first */
			assert_int_equal(k ? x[j].rx : x[j].tx, j);
			assert_int_equal(k ? x[j].tx : x[j].rx, j + n / 2);
		}
		if (n % 2 && k < per)
			assert_int_equal(who, n - 1);
	}
	rdp_mesh_plan_free(p);
}

/* The same seed gives the same matchings; another seed others. */
static void same_plans(unsigned int n, uint64_t s1, uint64_t s2, int want)
{
	struct rdp_mesh_plan *a = plan_of(RDP_MESH_BISECTION, n, 4, s1, 1);
	struct rdp_mesh_plan *b = plan_of(RDP_MESH_BISECTION, n, 4, s2, 1);
	struct rdp_mesh_xfer xa[MAX_N], xb[MAX_N];
	size_t k, j, cnt;
	int same = 1;

	for (k = 0; k < rdp_mesh_plan_rounds(a); k++) {
		cnt = rdp_mesh_plan_round(a, k, xa);
		assert_int_equal(rdp_mesh_plan_round(b, k, xb), cnt);
		for (j = 0; j < cnt; j++)
			same &= xa[j].tx == xb[j].tx && xa[j].rx == xb[j].rx;
	}
	assert_int_equal(same, want);
	rdp_mesh_plan_free(a);
	rdp_mesh_plan_free(b);
}

static void test_bisection(void **state)
{
	unsigned int n;

	(void)state;
	for (n = 2; n <= MAX_N; n++) {
		bisection(n, 0, 0);
		bisection(n, 0, 1);
		bisection(n, 3, 0);
		bisection(n, 3, 1);
	}
	same_plans(16, 42, 42, 1);
	same_plans(16, 42, 43, 0);
}

/* Ring shift D: each node sends once (to i+D) and receives once (from
 * i-D); over the N-1 rounds every ordered pair once. */
static void test_ring_shift(void **state)
{
	struct rdp_mesh_xfer x[MAX_N];
	unsigned char seen[MAX_N][MAX_N], sends[MAX_N], recvs[MAX_N];
	struct rdp_mesh_plan *p;
	unsigned int n, a, b;
	size_t k, j, cnt;

	(void)state;
	for (n = 2; n <= MAX_N; n++) {
		p = plan_of(RDP_MESH_RING_SHIFT, n, 0, 0, 0);
		memset(seen, 0, sizeof(seen));
		assert_int_equal(rdp_mesh_plan_rounds(p), n - 1);
		for (k = 0; k < n - 1; k++) {
			cnt = rdp_mesh_plan_round(p, k, x);
			assert_int_equal(cnt, n);
			memset(sends, 0, sizeof(sends));
			memset(recvs, 0, sizeof(recvs));
			for (j = 0; j < cnt; j++) {
				assert_int_equal(x[j].rx,
						 (x[j].tx + k + 1) % n);
				assert_int_equal(x[j].both, 0);
				sends[x[j].tx]++;
				recvs[x[j].rx]++;
				seen[x[j].tx][x[j].rx]++;
			}
			for (a = 0; a < n; a++)
				assert_true(sends[a] == 1 && recvs[a] == 1);
		}
		for (a = 0; a < n; a++)
			for (b = 0; b < n; b++)
				assert_int_equal(seen[a][b], a != b);
		rdp_mesh_plan_free(p);
	}
}

static void test_plan_rejects(void **state)
{
	struct rdp_mesh_plan_opts o = { .pattern = RDP_MESH_PAIRWISE };
	struct rdp_mesh_plan *p = NULL;
	enum rdp_mesh_pattern pat;

	(void)state;
	o.nodes = 1;
	assert_int_equal(rdp_mesh_plan_create(&o, &p), -EINVAL);
	o.nodes = RDP_MESH_MAX_NODES + 1;
	assert_int_equal(rdp_mesh_plan_create(&o, &p), -EINVAL);
	o.nodes = 4;
	o.permutations = 2; /* pairwise has no random matchings */
	assert_int_equal(rdp_mesh_plan_create(&o, &p), -EINVAL);
	o.permutations = 0;
	o.pattern = RDP_MESH_RING_SHIFT;
	o.bidir = 1;
	assert_int_equal(rdp_mesh_plan_create(&o, &p), -EINVAL);
	assert_null(p);
	assert_int_equal(rdp_mesh_pattern_parse("ring-shift", &pat), 0);
	assert_int_equal(pat, RDP_MESH_RING_SHIFT);
	assert_int_equal(rdp_mesh_pattern_parse("ring", &pat), -EINVAL);
	assert_string_equal(rdp_mesh_pattern_name(RDP_MESH_BISECTION),
			    "bisection");
	/* 4096 nodes: 8190 rounds made on demand. */
	p = plan_of(RDP_MESH_PAIRWISE, RDP_MESH_MAX_NODES, 0, 0, 0);
	assert_int_equal(rdp_mesh_plan_rounds(p), 2 * 4095);
	rdp_mesh_plan_free(p);
}

/* The plan's text; free() it. */
static char *plan_text(struct rdp_mesh_plan *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(rdp_mesh_plan_print(p, f), 0);
	fclose(f);
	rdp_mesh_plan_free(p);
	return buf;
}

static void test_plan_print(void **state)
{
	char *s;

	(void)state;
	s = plan_text(plan_of(RDP_MESH_PAIRWISE, 3, 0, 0, 0));
	assert_string_equal(s, "pairwise plan for 3 nodes, 6 rounds: 3 "
			       "pairings (odd: one node rests in each), each "
			       "as two rounds, A->B then B->A\n"
			       "round 1: 1->2 bye 0\n"
			       "round 2: 2->1 bye 0\n"
			       "round 3: 2->0 bye 1\n"
			       "round 4: 0->2 bye 1\n"
			       "round 5: 0->1 bye 2\n"
			       "round 6: 1->0 bye 2\n");
	free(s);
	s = plan_text(plan_of(RDP_MESH_RING_SHIFT, 3, 0, 0, 0));
	assert_string_equal(s, "ring-shift plan for 3 nodes, 2 rounds: "
			       "shifts +1..+2, each node sending and "
			       "receiving at once\n"
			       "round 1 (+1): 0->1 1->2 2->0\n"
			       "round 2 (+2): 0->2 1->0 2->1\n");
	free(s);
	s = plan_text(plan_of(RDP_MESH_BISECTION, 4, 0, 0, 1));
	assert_string_equal(s, "bisection plan for 4 nodes, 1 rounds: "
			       "i<->i+2 and 0 random matchings (seed 0), "
			       "both directions at once\n"
			       "round 1: 0<->2 1<->3\n");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pairwise),
		cmocka_unit_test(test_bisection),
		cmocka_unit_test(test_ring_shift),
		cmocka_unit_test(test_plan_rejects),
		cmocka_unit_test(test_plan_print),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
