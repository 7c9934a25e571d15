/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Mesh plans at fabric scale: grouped and quick, matchings never drawn
 * twice, the counts of --estimate against the rounds walked, plans of
 * 100 000 nodes, the time budget, the quick pass's retest rounds, and
 * rdmaperf mesh --estimate.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"
#include "tool_out.h"

#include <rdmaperf/mesh_plan.h>
#include <rdmaperf/tool.h>

#define MAX_N 40

static struct rdp_mesh_plan *make(enum rdp_mesh_pattern pat, unsigned int n,
				  unsigned int perms, unsigned int g,
				  uint64_t seed, int bidir)
{
	struct rdp_mesh_plan_opts o = { .pattern = pat,
					.nodes = n,
					.permutations = perms,
					.group_size = g,
					.seed = seed,
					.bidir = bidir };
	struct rdp_mesh_plan *p = NULL;

	assert_int_equal(rdp_mesh_plan_create(&o, &p), 0);
	assert_non_null(p);
	return p;
}

/* Every round of p walked: no node twice in a round, and met[a][b] the
 * number of cells a -> b. */
static void walk(const struct rdp_mesh_plan *p, unsigned int met[MAX_N][MAX_N])
{
	unsigned int n = rdp_mesh_plan_opts(p)->nodes;
	struct rdp_mesh_xfer x[MAX_N];
	unsigned char busy[MAX_N];
	size_t k, j, cnt;

	memset(met, 0, sizeof(unsigned int) * MAX_N * MAX_N);
	for (k = 0; k < rdp_mesh_plan_rounds(p); k++) {
		cnt = rdp_mesh_plan_round(p, k, x);
		assert_true(cnt <= rdp_mesh_plan_width(p));
		memset(busy, 0, sizeof(busy));
		for (j = 0; j < cnt; j++) {
			assert_true(x[j].tx < n && x[j].rx < n);
			assert_int_not_equal(x[j].tx, x[j].rx);
			if (busy[x[j].tx] || busy[x[j].rx])
				fail_msg(
					"%s N=%u round %zu: a node twice",
					rdp_mesh_pattern_name(
						rdp_mesh_plan_opts(p)->pattern),
					n, k + 1);
			busy[x[j].tx] = busy[x[j].rx] = 1;
			met[x[j].tx][x[j].rx]++;
			if (x[j].both)
				met[x[j].rx][x[j].tx]++;
		}
	}
	assert_int_equal(rdp_mesh_plan_round(p, k, x), 0);
}

static unsigned int pairings(unsigned int n)
{
	return n % 2 ? n : n - 1;
}

/* Grouped: each pair inside a group once a direction; two full groups
 * node to node (each node meets one node of the other group); the short
 * group's nodes meet one node of every group. */
static void grouped(unsigned int n, unsigned int g, int bidir)
{
	struct rdp_mesh_plan *p = make(RDP_MESH_GROUPED, n, 0, g, 3, bidir);
	static unsigned int met[MAX_N][MAX_N];
	unsigned int groups = (n + g - 1) / g, last = n - (groups - 1) * g;
	unsigned int a, b, gb, hits, short_hits;

	assert_int_equal(rdp_mesh_plan_rounds(p),
			 (pairings(g) + pairings(groups)) * (bidir ? 1 : 2));
	walk(p, met);
	for (a = 0; a < n; a++) {
		for (b = 0; b < n; b++) {
			assert_true(met[a][b] <= 1);
			assert_int_equal(met[a][b], met[b][a]);
			if (a != b && a / g == b / g)
				assert_int_equal(met[a][b], 1);
		}
		for (gb = 0; gb < groups; gb++) {
			if (gb == a / g)
				continue;
			for (hits = 0, b = gb * g; b < n && b / g == gb; b++)
				hits += met[a][b];
			/* Facing the short group, s nodes of a group meet it
			 * and the others rest. */
			if (gb + 1 < groups || last == g || a / g == gb ||
			    a / g + 1 == groups)
				assert_int_equal(hits, 1);
			else
				assert_true(hits <= 1);
		}
	}
	/* Exactly `last` nodes of each full group meet the short one. */
	for (gb = 0; last < g && gb + 1 < groups; gb++) {
		short_hits = 0;
		for (a = gb * g; a < (gb + 1) * g; a++)
			for (b = (groups - 1) * g; b < n; b++)
				short_hits += met[a][b];
		assert_int_equal(short_hits, last);
	}
	rdp_mesh_plan_free(p);
}

static void test_grouped(void **state)
{
	unsigned int n, g;

	(void)state;
	for (n = 3; n <= MAX_N; n++)
		for (g = 2; g < n; g++) {
			grouped(n, g, 0);
			grouped(n, g, 1);
		}
}

/* Two plans of the same options: the same rounds or not. */
static int same_rounds(enum rdp_mesh_pattern pat, unsigned int n,
		       unsigned int perms, unsigned int g, uint64_t s1,
		       uint64_t s2)
{
	struct rdp_mesh_plan *a = make(pat, n, perms, g, s1, 0);
	struct rdp_mesh_plan *b = make(pat, n, perms, g, s2, 0);
	struct rdp_mesh_xfer xa[MAX_N], xb[MAX_N];
	size_t k, j, cnt;
	int same = 1;

	for (k = 0; k < rdp_mesh_plan_rounds(a); k++) {
		cnt = rdp_mesh_plan_round(a, k, xa);
		assert_int_equal(rdp_mesh_plan_round(b, k, xb), cnt);
		for (j = 0; j < cnt; j++)
			same &= xa[j].tx == xb[j].tx && xa[j].rx == xb[j].rx;
	}
	rdp_mesh_plan_free(a);
	rdp_mesh_plan_free(b);
	return same;
}

static void test_seeded(void **state)
{
	(void)state;
	assert_true(same_rounds(RDP_MESH_GROUPED, 24, 0, 4, 9, 9));
	assert_false(same_rounds(RDP_MESH_GROUPED, 24, 0, 4, 9, 10));
	assert_true(same_rounds(RDP_MESH_QUICK, 24, 5, 0, 9, 9));
	assert_false(same_rounds(RDP_MESH_QUICK, 24, 5, 0, 9, 10));
	/* quick's rounds are bisection's */
	assert_true(same_rounds(RDP_MESH_QUICK, 10, 3, 0, 1, 1));
}

/* Node i's partner in each matching of p, one row a matching. */
static void matchings(const struct rdp_mesh_plan *p, unsigned int *mate,
		      size_t m)
{
	unsigned int n = rdp_mesh_plan_opts(p)->nodes, i;
	size_t per = rdp_mesh_plan_opts(p)->bidir ? 1 : 2, t, j, cnt;
	struct rdp_mesh_xfer x[MAX_N];

	assert_int_equal(rdp_mesh_plan_rounds(p), m * per);
	for (t = 0; t < m; t++) {
		for (i = 0; i < n; i++)
			mate[t * n + i] = i;
		cnt = rdp_mesh_plan_round(p, t * per, x);
		assert_int_equal(cnt, n / 2);
		for (j = 0; j < cnt; j++) {
			mate[t * n + x[j].tx] = x[j].rx;
			mate[t * n + x[j].rx] = x[j].tx;
		}
	}
}

/* No matching twice, up to every matching N nodes have. */
static void no_repeats(enum rdp_mesh_pattern pat, unsigned int n,
		       unsigned int perms, uint64_t seed)
{
	struct rdp_mesh_plan *p = make(pat, n, perms, 0, seed, seed % 2);
	unsigned int *mate = calloc((size_t)(perms + 1) * n, sizeof(*mate));
	size_t t, u;

	assert_non_null(mate);
	matchings(p, mate, perms + 1);
	for (t = 0; t <= perms; t++)
		for (u = 0; u < t; u++)
			if (!memcmp(mate + t * n, mate + u * n,
				    n * sizeof(*mate)))
				fail_msg("N=%u K=%u: matchings %zu and %zu "
					 "are one",
					 n, perms, u, t);
	free(mate);
	rdp_mesh_plan_free(p);
}

static void refused(const struct rdp_mesh_plan_opts *o, const char *want)
{
	struct rdp_mesh_plan *p = NULL;
	char why[256];

	assert_int_equal(rdp_mesh_plan_check(o, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, want);
	assert_int_equal(rdp_mesh_plan_create(o, &p), -EINVAL);
	assert_null(p);
}

static void test_no_repeated_matching(void **state)
{
	struct rdp_mesh_plan_opts o = { .pattern = RDP_MESH_BISECTION,
					.nodes = 4,
					.permutations = 3 };
	uint64_t s;

	(void)state;
	for (s = 1; s <= 8; s++) {
		no_repeats(RDP_MESH_BISECTION, 4, 2, s);  /* all 3 */
		no_repeats(RDP_MESH_QUICK, 3, 2, s);	  /* all 3 */
		no_repeats(RDP_MESH_BISECTION, 6, 14, s); /* all 15 */
		no_repeats(RDP_MESH_QUICK, 7, 104, s);	  /* all 105 */
		no_repeats(RDP_MESH_BISECTION, 8, 104, s);
		no_repeats(RDP_MESH_QUICK, 12, 200, s);
	}
	refused(&o, "--permutations 3: 4 nodes have only 3 distinct perfect "
		    "matchings, i<->i+2 among them: ask for --permutations 2 "
		    "at most (--pattern pairwise meets every pair)");
	o.nodes = 2;
	o.permutations = 1;
	o.pattern = RDP_MESH_QUICK;
	refused(&o, "--permutations 1: 2 nodes have only 1 distinct perfect "
		    "matching, i<->i+1 among them: ask for --permutations 0 at "
		    "most (--pattern pairwise meets every pair)");
	o.nodes = 5;
	o.permutations = 15;
	refused(&o, "--permutations 15: 5 nodes have only 15 distinct "
		    "perfect matchings (one node resting), i<->i+2 among "
		    "them: ask for --permutations 14 at most (--pattern "
		    "pairwise meets every pair)");
	o.nodes = 0; /* not counted yet: only the range */
	assert_int_equal(rdp_mesh_plan_check(&o, NULL, 0), 0);
}

static void test_plan_refusals(void **state)
{
	struct rdp_mesh_plan_opts o = { .pattern = RDP_MESH_GROUPED,
					.nodes = 10 };

	(void)state;
	refused(&o, "--pattern grouped needs --group-size G, the nodes of a "
		    "group");
	o.group_size = 1;
	refused(&o, "--group-size takes 2 to 9 for this many nodes, not 1 "
		    "(one group of all nodes is --pattern pairwise)");
	o.group_size = 10;
	refused(&o, "--group-size takes 2 to 9 for this many nodes, not 10 "
		    "(one group of all nodes is --pattern pairwise)");
	o.nodes = 0;
	o.group_size = 100000;
	refused(&o, "--group-size takes 2 to 99999, not 100000 (one group of "
		    "all nodes is --pattern pairwise)");
	o.nodes = 10;
	o.group_size = 3;
	o.pattern = RDP_MESH_BISECTION;
	refused(&o, "--group-size applies to --pattern grouped");
	o.group_size = 0;
	o.pattern = RDP_MESH_GROUPED;
	o.permutations = 2;
	o.group_size = 3;
	refused(&o, "--permutations applies to --pattern bisection or quick");
	o.permutations = 0;
	o.nodes = RDP_MESH_PLAN_MAX_NODES + 1;
	refused(&o, "a mesh has 2 to 100000 nodes, not 100001: run one rank "
		    "a node and rail");
}

/* rdp_mesh_plan_count of every prefix of p against its rounds walked. */
static void counts_walked(const struct rdp_mesh_plan *p)
{
	unsigned int n = rdp_mesh_plan_opts(p)->nodes;
	static unsigned char seen[MAX_N][MAX_N];
	struct rdp_mesh_plan_count c;
	struct rdp_mesh_xfer x[MAX_N];
	uint64_t transfers = 0, cells = 0, pairs = 0;
	size_t k, j, cnt, rounds = rdp_mesh_plan_rounds(p);

	memset(seen, 0, sizeof(seen));
	for (k = 0; k <= rounds; k++) {
		assert_int_equal(rdp_mesh_plan_count(p, k, &c), 0);
		assert_int_equal(c.rounds, k);
		assert_int_equal(c.transfers, transfers);
		assert_int_equal(c.cells, cells);
		assert_int_equal(c.pairs_met, pairs);
		assert_int_equal(c.pairs_all, (uint64_t)n * (n - 1));
		cnt = rdp_mesh_plan_round(p, k, x);
		for (j = 0; j < cnt; j++) {
			transfers++;
			cells += x[j].both ? 2 : 1;
			pairs += !seen[x[j].tx][x[j].rx]++;
			if (x[j].both)
				pairs += !seen[x[j].rx][x[j].tx]++;
		}
	}
	assert_int_equal(rdp_mesh_plan_count(p, rounds + 5, &c), 0);
	assert_int_equal(c.rounds, rounds);
	assert_int_equal(c.cells, cells);
}

static void test_counts(void **state)
{
	struct rdp_mesh_plan *p;
	unsigned int n, g;
	int b;

	(void)state;
	for (n = 2; n <= 24; n++)
		for (b = 0; b < 2; b++) {
			p = make(RDP_MESH_PAIRWISE, n, 0, 0, 1, b);
			counts_walked(p);
			rdp_mesh_plan_free(p);
			p = make(RDP_MESH_BISECTION, n,
				 n > 6	  ? 30
				 : n == 6 ? 14
					  : 0,
				 0, n, b);
			counts_walked(p);
			rdp_mesh_plan_free(p);
			p = make(RDP_MESH_QUICK, n, n > 3 ? 2 : 0, 0, 5, b);
			counts_walked(p);
			rdp_mesh_plan_free(p);
			for (g = 2; g < n; g++) {
				p = make(RDP_MESH_GROUPED, n, 0, g, 1, b);
				counts_walked(p);
				rdp_mesh_plan_free(p);
			}
		}
	for (n = 2; n <= 24; n++) {
		p = make(RDP_MESH_RING_SHIFT, n, 0, 0, 1, 0);
		counts_walked(p);
		rdp_mesh_plan_free(p);
	}
}

static struct rdp_mesh_fit fit_of(const struct rdp_mesh_plan *p,
				  double budget_s)
{
	struct rdp_mesh_fit_opts o = { .round_s = 2,
				       .overhead_s = 0.5,
				       .budget_s = budget_s,
				       .rails = 8 };
	struct rdp_mesh_fit f;

	assert_int_equal(rdp_mesh_plan_fit(p, &o, &f), 0);
	assert_true(f.round_s == 2.5);
	assert_true(f.wall_s == 2.5 * (double)rdp_mesh_plan_rounds(p));
	return f;
}

/* 100 000 nodes, every pattern: the counts only (the time is measured
 * by hand, not here). */
static void test_huge(void **state)
{
	const uint64_t n = RDP_MESH_PLAN_MAX_NODES, all = n * (n - 1);
	struct rdp_mesh_plan *p;
	struct rdp_mesh_fit f;

	(void)state;
	p = make(RDP_MESH_PAIRWISE, (unsigned int)n, 0, 0, 1, 0);
	f = fit_of(p, 0);
	assert_int_equal(f.all.rounds, 2 * (n - 1));
	assert_int_equal(f.all.cells, all);
	assert_int_equal(f.all.pairs_met, all);
	assert_true(f.coverage == 1);
	rdp_mesh_plan_free(p);

	p = make(RDP_MESH_RING_SHIFT, (unsigned int)n, 0, 0, 1, 0);
	f = fit_of(p, 7200); /* 2 h: 2880 rounds of 2.5 s */
	assert_int_equal(f.all.cells, all);
	assert_int_equal(f.fits.rounds, 2880);
	assert_int_equal(f.fits.pairs_met, 2880 * n);
	rdp_mesh_plan_free(p);

	/* 782 groups of 128, the last of 32 */
	p = make(RDP_MESH_GROUPED, (unsigned int)n, 0, 128, 1, 1);
	f = fit_of(p, 0);
	assert_int_equal(f.all.rounds, 127 + 781);
	assert_int_equal(f.all.transfers, 781ull * 128 * 127 / 2 + 32 * 31 / 2 +
						  781ull * 780 / 2 * 128 +
						  781ull * 32);
	assert_int_equal(f.all.pairs_met, 2 * f.all.transfers);
	rdp_mesh_plan_free(p);

	p = make(RDP_MESH_QUICK, (unsigned int)n, 4, 0, 1, 0);
	f = fit_of(p, 0);
	assert_int_equal(f.all.rounds, 10);
	assert_int_equal(f.all.cells, 5 * n / 2 * 2);
	assert_true(f.all.pairs_met <= f.all.cells);
	assert_true(f.all.pairs_met + 1000 > f.all.cells);
	rdp_mesh_plan_free(p);

	p = make(RDP_MESH_BISECTION, (unsigned int)n - 1, 2, 0, 1, 1);
	f = fit_of(p, 5); /* two rounds of 2.5 s */
	assert_int_equal(f.fits.rounds, 2);
	assert_int_equal(f.fits.cells, 2 * 2 * 49999);
	rdp_mesh_plan_free(p);
}

static void test_fit(void **state)
{
	struct rdp_mesh_fit_opts o = { .round_s = 2, .rails = 1 };
	struct rdp_mesh_plan *p = make(RDP_MESH_PAIRWISE, 10, 0, 0, 1, 1);
	struct rdp_mesh_fit f;
	char why[160];

	(void)state;
	f = fit_of(p, 90); /* 9 rounds fit in 90 s at 2.5 s: all */
	assert_int_equal(f.fits.rounds, 9);
	assert_true(f.coverage == 1);
	f = fit_of(p, 10); /* 4 of the 9 pairings, both directions */
	assert_int_equal(f.fits.rounds, 4);
	assert_int_equal(f.fits.pairs_met, 4 * 10);
	assert_true(fabs(f.coverage - 40.0 / 90) < 1e-12);
	assert_true(f.fits_s == 10);
	f = fit_of(p, 2); /* not one round */
	assert_int_equal(f.fits.rounds, 0);
	assert_true(f.coverage == 0);
	assert_int_equal(rdp_mesh_fit_check(&o, why, sizeof(why)), 0);
	o.round_s = 0;
	assert_int_equal(rdp_mesh_plan_fit(p, &o, &f), -EINVAL);
	assert_int_equal(rdp_mesh_fit_check(&o, why, sizeof(why)), -EINVAL);
	assert_string_equal(why,
			    "-D needs the seconds a round measures, above 0");
	o.round_s = 1;
	o.overhead_s = -1;
	assert_int_equal(rdp_mesh_fit_check(&o, why, sizeof(why)), -EINVAL);
	o.overhead_s = 0;
	o.rails = 0;
	assert_int_equal(rdp_mesh_fit_check(&o, why, sizeof(why)), -EINVAL);
	rdp_mesh_plan_free(p);
}

static void test_duration(void **state)
{
	static const struct {
		const char *s;
		double want;
	} ok[] = { { "90", 90 },    { "90s", 90 },     { "1.5m", 90 },
		   { "30m", 1800 }, { "30min", 1800 }, { "2h", 7200 },
		   { "1d", 86400 } };
	static const char *const bad[] = { "0",	  "0s",	 "-5m", "5x", "",
					   "inf", "nan", " 5",	"h",  "2 h" };
	char why[160];
	double s;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_int_equal(rdp_mesh_duration_parse("--time-budget",
							 ok[i].s, &s, why,
							 sizeof(why)),
				 0);
		assert_true(s == ok[i].want);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(rdp_mesh_duration_parse("--time-budget",
							 bad[i], &s, why,
							 sizeof(why)),
				 -EINVAL);
	assert_string_equal(why, "--time-budget needs a duration above 0 like "
				 "90s, 30m or 2h, not '2 h'");
}

/* A retest round as made: no node twice, each suspect with a good node
 * (or, with none good, suspects with each other). */
static size_t retest_round(const enum rdp_mesh_quick_state *st, unsigned int n,
			   unsigned int round, struct rdp_mesh_xfer *x)
{
	unsigned char busy[MAX_N] = { 0 };
	size_t cnt = rdp_mesh_quick_round(st, n, round, 1, x), j;
	int any_good = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		any_good |= st[i] == RDP_MESH_QUICK_GOOD;
	assert_true(cnt <= n / 2);
	for (j = 0; j < cnt; j++) {
		assert_false(busy[x[j].tx] || busy[x[j].rx]);
		busy[x[j].tx] = busy[x[j].rx] = 1;
		assert_int_equal(x[j].both, 1);
		assert_int_equal(st[x[j].tx], RDP_MESH_QUICK_SUSPECT);
		assert_int_equal(st[x[j].rx], any_good
						      ? RDP_MESH_QUICK_GOOD
						      : RDP_MESH_QUICK_SUSPECT);
	}
	return cnt;
}

/*
 * A quick pass over n nodes where the nodes in faulty[] spoil every cell
 * they are in: the plan's bad cells make the suspects, the retest rounds
 * run until none is left. Every faulty node ends FAULTY, every other one
 * GOOD; returns the retest rounds taken.
 */
static unsigned int quick_pass(unsigned int n, unsigned int perms,
			       const unsigned char *faulty)
{
	struct rdp_mesh_plan *p = make(RDP_MESH_QUICK, n, perms, 0, 2, 1);
	enum rdp_mesh_quick_state st[MAX_N];
	struct rdp_mesh_xfer x[MAX_N], bad[MAX_N * MAX_N];
	int verdict[MAX_N];
	size_t k, j, cnt, nb = 0;
	unsigned int round, i;

	for (k = 0; k < rdp_mesh_plan_rounds(p); k++) {
		cnt = rdp_mesh_plan_round(p, k, x);
		for (j = 0; j < cnt; j++)
			if (faulty[x[j].tx] || faulty[x[j].rx])
				bad[nb++] = x[j];
	}
	rdp_mesh_plan_free(p);
	assert_int_equal(rdp_mesh_quick_suspects(bad, nb, n, st), 0);
	for (round = 0; round < 2 * n; round++) {
		cnt = retest_round(st, n, round, x);
		if (!cnt)
			break;
		for (j = 0; j < cnt; j++)
			verdict[j] = faulty[x[j].tx] || faulty[x[j].rx];
		assert_int_equal(rdp_mesh_quick_judge(st, n, x, verdict, cnt),
				 0);
	}
	assert_true(round < 2 * n);
	for (i = 0; i < n; i++)
		assert_int_equal(st[i], faulty[i] ? RDP_MESH_QUICK_FAULTY
						  : RDP_MESH_QUICK_GOOD);
	return round;
}

static void test_quick_retest(void **state)
{
	unsigned char faulty[MAX_N] = { 0 };
	enum rdp_mesh_quick_state st[4];
	struct rdp_mesh_xfer x[2], bad[1] = { { 0, 1, 0 } };
	int clean[1] = { 0 };

	(void)state;
	faulty[5] = 1;
	/* node 5 and its partners: all judged in one round */
	assert_int_equal(quick_pass(16, 2, faulty), 1);
	faulty[9] = faulty[12] = 1;
	quick_pass(16, 4, faulty);
	/* 8 nodes, 7 partners of node 0 suspects as well: good nodes are
	 * scarce, the cleared ones partner the rest */
	memset(faulty, 0, sizeof(faulty));
	faulty[0] = 1;
	quick_pass(8, 6, faulty);
	/* Nothing bad: no retest round. */
	memset(faulty, 0, sizeof(faulty));
	assert_int_equal(quick_pass(10, 2, faulty), 0);
	/* Two nodes, one bad cell, no good node: they retest each other;
	 * clean clears both. */
	assert_int_equal(rdp_mesh_quick_suspects(bad, 1, 2, st), 0);
	assert_int_equal(rdp_mesh_quick_round(st, 2, 0, 0, x), 1);
	assert_int_equal(rdp_mesh_quick_judge(st, 2, x, clean, 1), 0);
	assert_true(st[0] == RDP_MESH_QUICK_GOOD &&
		    st[1] == RDP_MESH_QUICK_GOOD);
	assert_int_equal(rdp_mesh_quick_round(st, 2, 1, 0, x), 0);
	bad[0].rx = 4;
	assert_int_equal(rdp_mesh_quick_suspects(bad, 1, 4, st), -EINVAL);
}

#define MESH(out, ...) TOOL_OUT("mesh", out, __VA_ARGS__)

static void test_estimate_command(void **state)
{
	static char out[8192];

	(void)state;
	assert_int_equal(MESH(out, "--plan", "10", "--estimate"), 0);
	expect_in(out, "pairwise plan for 10 nodes, 18 rounds");
	expect_in(out, "rounds: 18\ntransfers: 90\n");
	expect_in(out, "cells: 90 a rail, 90 in all on 1 rail");
	expect_in(out, "pairs met: 90 of 90 ordered node pairs (100 %)");
	expect_in(out, "wall time: 45 s\n");
	assert_int_equal(MESH(out, "--plan", "10", "--estimate", "-D", "10",
			      "--rails", "4", "--round-overhead", "2",
			      "--time-budget", "1m"),
			 0);
	expect_in(out, "round time: 12 s");
	expect_in(out, "wall time: 3 min 36 s\n");
	expect_in(out, "5 of 18 rounds fit (1 min 0 s), cells 25 a rail, 100 "
		       "in all on 4 rails");
	expect_in(out, "coverage: 25 of 90 ordered node pairs (27.78 %)");
	assert_int_equal(MESH(out, "--plan", "9", "--pattern", "grouped",
			      "--group-size", "3", "-b"),
			 0);
	expect_in(out, "grouped plan for 9 nodes, 6 rounds: 3 groups of 3");
	assert_int_equal(MESH(out, "--plan", "100000", "--pattern", "quick",
			      "--permutations", "3", "--estimate"),
			 0);
	expect_in(out, "rounds: 8\ntransfers: 400000\n");
	/* One line and exit 2 for each bad input. */
	assert_int_equal(MESH(out, "--plan", "4", "--pattern", "bisection",
			      "--permutations", "3"),
			 2);
	assert_int_equal(MESH(out, "--plan", "9", "--pattern", "grouped"), 2);
	assert_int_equal(MESH(out, "--plan", "9", "--group-size", "3"), 2);
	assert_int_equal(MESH(out, "--plan", "9", "--pattern", "grouped",
			      "--group-size", "9"),
			 2);
	assert_int_equal(MESH(out, "--plan", "9", "--estimate", "-D", "0"), 2);
	assert_int_equal(MESH(out, "--plan", "9", "--estimate", "--time-budget",
			      "0"),
			 2);
	assert_int_equal(MESH(out, "--plan", "9", "--time-budget", "1h"), 2);
	assert_int_equal(MESH(out, "--plan", "9", "-D", "3"), 2);
	assert_int_equal(MESH(out, "--plan", "9", "--estimate", "--rails", "0"),
			 2);
	assert_int_equal(MESH(out, "--plan", "100001", "--estimate"), 2);
	assert_string_equal(out, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grouped),
		cmocka_unit_test(test_seeded),
		cmocka_unit_test(test_no_repeated_matching),
		cmocka_unit_test(test_plan_refusals),
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_huge),
		cmocka_unit_test(test_fit),
		cmocka_unit_test(test_duration),
		cmocka_unit_test(test_quick_retest),
		cmocka_unit_test(test_estimate_command),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
