/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Cluster meshes without MPI: the schedule invariants of every pattern for
 * 2..64 nodes, the outlier classes on synthetic matrices, the files
 * written (read back), and rdmaperf mesh --plan.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>
#include <jansson.h>

#include "unit.h"
#include "tool_out.h"

#include <rdmaperf/mesh.h>
#include <rdmaperf/mesh_plan.h>
#include <rdmaperf/tool.h>

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
		if (n < 5) /* fewer than 4 distinct matchings */
			continue;
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
	o.nodes = RDP_MESH_PLAN_MAX_NODES + 1;
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

/* Synthetic matrices: healthy cells near 100 Gb/s, faults where set. */
enum fault_kind {
	F_NODE,
	F_TX,
	F_RX,
	F_LINK
};

struct fault {
	enum fault_kind kind;
	unsigned int node, peer; /* peer: the receiver of F_LINK */
	double gbps;		 /* < 0: the cell fails */
};

#define ANY_RAIL 99

struct fake {
	const struct fault *f;
	size_t n_faults;
	unsigned int fault_rail; /* ANY_RAIL: every rail */
	int lat;		 /* figures are latencies (us) */
};

static double figure(const struct fake *fk, unsigned int tx, unsigned int rx,
		     unsigned int rail)
{
	double healthy = 100 - 0.25 * ((tx * 7 + rx * 3) % 5);
	const struct fault *f;
	size_t i;
	int hit;

	for (i = 0; i < fk->n_faults; i++) {
		f = &fk->f[i];
		hit = f->kind == F_NODE ? tx == f->node || rx == f->node
		      : f->kind == F_TX ? tx == f->node
		      : f->kind == F_RX ? rx == f->node
					: tx == f->node && rx == f->peer;
		if (hit &&
		    (fk->fault_rail == ANY_RAIL || rail == fk->fault_rail))
			return f->gbps;
	}
	return healthy;
}

/* A pairwise mesh of n nodes, every cell measured from fk. */
static struct rdp_mesh *fake_mesh(unsigned int n, unsigned int rails,
				  const struct fake *fk,
				  struct rdp_mesh_plan **plan)
{
	struct rdp_mesh_xfer x[MAX_N];
	struct rdp_mesh_cell c;
	struct rdp_mesh *m = NULL;
	size_t k, j, cnt;
	unsigned int r;
	double v;

	*plan = plan_of(RDP_MESH_PAIRWISE, n, 0, 0, 0);
	assert_int_equal(rdp_mesh_create(*plan, rails, NULL, &m), 0);
	for (k = 0; k < rdp_mesh_plan_rounds(*plan); k++) {
		cnt = rdp_mesh_plan_round(*plan, k, x);
		for (j = 0; j < cnt; j++)
			for (r = 0; r < rails; r++) {
				v = figure(fk, x[j].tx, x[j].rx, r);
				c = (struct rdp_mesh_cell){
					.tx = x[j].tx,
					.rx = x[j].rx,
					.rail = r,
					.round = (unsigned int)k,
					.status = v < 0 ? RDP_MESH_FAILED
							: RDP_MESH_OK,
					.reason = "connect timed out",
					.bw_gbps = v < 0 || fk->lat ? NAN : v,
					.lat_us = v >= 0 && fk->lat ? v / 50
								    : NAN,
					.line_gbps = 100,
					.result = json_pack("{s:f}", "fig", v),
				};
				assert_int_equal(rdp_mesh_add(m, &c), 0);
			}
	}
	return m;
}

/* Every cell bad iff want_bad(cell); bad cells of class cls naming
 * suspect (for LINK: their sender). */
static void expect_cells(const struct rdp_mesh *m, const struct fake *fk,
			 enum rdp_mesh_class cls, unsigned int suspect)
{
	const struct rdp_mesh_cell *c;
	size_t i;
	double v;

	for (i = 0; i < rdp_mesh_n_cells(m); i++) {
		c = rdp_mesh_cell_at(m, i);
		v = figure(fk, c->tx, c->rx, c->rail);
		if (v > 90 && c->status == RDP_MESH_OK)
			continue;
		if (v > 90)
			fail_msg("%u->%u rail %u is %s (%s)", c->tx, c->rx,
				 c->rail, rdp_mesh_status_name(c->status),
				 c->reason);
		assert_int_equal(c->status,
				 v < 0 ? RDP_MESH_FAILED : RDP_MESH_FLAGGED);
		assert_non_null(c->reason);
		if (c->cls != cls ||
		    c->suspect !=
			    (cls == RDP_MESH_CLASS_LINK ? c->tx : suspect))
			fail_msg("%u->%u: class %s of node %u, expected %s of "
				 "%u",
				 c->tx, c->rx, rdp_mesh_class_name(c->cls),
				 c->suspect, rdp_mesh_class_name(cls), suspect);
	}
}

static const struct rdp_mesh_limits tol10 = { .tol = RDP_MESH_TOLERANCE };

/* One fault on an n-node mesh judged by l: count flagged cells and their
 * class. */
static void fault_in(unsigned int n, const struct rdp_mesh_limits *l,
		     const struct fault *f, int want_bad,
		     enum rdp_mesh_class cls, unsigned int suspect)
{
	struct fake fk = { .f = f, .n_faults = 1, .fault_rail = ANY_RAIL };
	struct rdp_mesh_plan *plan;
	struct rdp_mesh *m = fake_mesh(n, 1, &fk, &plan);

	assert_int_equal(rdp_mesh_analyze(m, l), want_bad);
	expect_cells(m, &fk, cls, suspect);
	rdp_mesh_free(m);
	rdp_mesh_plan_free(plan);
}

static void one_fault(unsigned int n, const struct fault *f, int want_bad,
		      enum rdp_mesh_class cls, unsigned int suspect)
{
	fault_in(n, &tol10, f, want_bad, cls, suspect);
}

static void test_outlier_classes(void **state)
{
	static const struct fault node = { F_NODE, 2, 0, 50 };
	static const struct fault tx = { F_TX, 3, 0, 60 };
	static const struct fault rx = { F_RX, 4, 0, 60 };
	static const struct fault link = { F_LINK, 1, 5, 40 };
	static const struct fault fail_link = { F_LINK, 0, 1, -1 };
	static const struct fault fail_node = { F_NODE, 5, 0, -1 };
	struct fake healthy = { .fault_rail = ANY_RAIL };
	struct rdp_mesh_plan *plan;
	struct rdp_mesh *m;

	(void)state;
	m = fake_mesh(6, 1, &healthy, &plan);
	assert_int_equal(rdp_mesh_analyze(m, &tol10), 0);
	expect_cells(m, &healthy, RDP_MESH_CLASS_NONE, 0);
	rdp_mesh_free(m);
	rdp_mesh_plan_free(plan);

	one_fault(6, &node, 10, RDP_MESH_CLASS_NODE, 2);
	one_fault(6, &tx, 5, RDP_MESH_CLASS_TX, 3);
	one_fault(6, &rx, 5, RDP_MESH_CLASS_RX, 4);
	one_fault(6, &link, 1, RDP_MESH_CLASS_LINK, 1);
	one_fault(6, &fail_link, 1, RDP_MESH_CLASS_LINK, 0);
	/* A node whose every cell failed: the failed cells name it. */
	one_fault(6, &fail_node, 10, RDP_MESH_CLASS_NODE, 5);
}

/*
 * 3 nodes: rows of two cells, one bad cell makes a row half bad, which
 * is not low; the classes still hold. A bad node spoils 4 of the 6 cells,
 * and with them the median: only an absolute floor finds it.
 */
static void test_outlier_three_nodes(void **state)
{
	static const struct fault node = { F_NODE, 0, 0, 50 };
	static const struct fault tx = { F_TX, 1, 0, 50 };
	static const struct fault link = { F_LINK, 2, 0, 50 };
	const struct rdp_mesh_limits floor90 = { .tol = RDP_MESH_TOLERANCE,
						 .min_bw_gbps = 90 };

	struct fake fk = { .f = &node, .n_faults = 1, .fault_rail = ANY_RAIL };
	struct rdp_mesh_plan *plan;
	struct rdp_mesh *m = fake_mesh(3, 1, &fk, &plan);

	(void)state;
	assert_int_equal(rdp_mesh_analyze(m, &tol10), 0);
	rdp_mesh_free(m);
	rdp_mesh_plan_free(plan);
	fault_in(3, &floor90, &node, 4, RDP_MESH_CLASS_NODE, 0);
	one_fault(3, &tx, 2, RDP_MESH_CLASS_TX, 1);
	one_fault(3, &link, 1, RDP_MESH_CLASS_LINK, 2);
}

/* A node fault and a link fault at once, on the second rail only; the
 * first rail stays clean. And failed cells count toward their node. */
static void test_outlier_mixed(void **state)
{
	static const struct fault f[] = { { F_NODE, 6, 0, 20 },
					  { F_LINK, 0, 3, 70 } };
	static const struct fault half_failed[] = { { F_TX, 1, 0, -1 },
						    { F_RX, 1, 0, 30 } };
	struct fake fk = { .f = f, .n_faults = 2, .fault_rail = 1 };
	struct rdp_mesh_plan *plan;
	const struct rdp_mesh_cell *c;
	struct rdp_mesh *m = fake_mesh(8, 2, &fk, &plan);
	size_t i;

	(void)state;
	assert_int_equal(rdp_mesh_analyze(m, &tol10), 14 + 1);
	for (i = 0; i < rdp_mesh_n_cells(m); i++) {
		c = rdp_mesh_cell_at(m, i);
		if (c->rail == 0)
			assert_int_equal(c->status, RDP_MESH_OK);
		else if (c->tx == 0 && c->rx == 3)
			assert_int_equal(c->cls, RDP_MESH_CLASS_LINK);
		else if (c->tx == 6 || c->rx == 6)
			assert_true(c->cls == RDP_MESH_CLASS_NODE &&
				    c->suspect == 6);
		else
			assert_int_equal(c->status, RDP_MESH_OK);
	}
	/* Analysing again gives the same answer. */
	assert_int_equal(rdp_mesh_analyze(m, &tol10), 15);
	rdp_mesh_free(m);
	rdp_mesh_plan_free(plan);

	/* Node 1: its sends fail, its receives are slow: the node. */
	fk = (struct fake){ .f = half_failed,
			    .n_faults = 2,
			    .fault_rail = ANY_RAIL };
	m = fake_mesh(5, 1, &fk, &plan);
	assert_int_equal(rdp_mesh_analyze(m, &tol10), 8);
	expect_cells(m, &fk, RDP_MESH_CLASS_NODE, 1);
	rdp_mesh_free(m);
	rdp_mesh_plan_free(plan);
}

/* Absolute limits flag what the medians cannot: a cluster all slow. */
static void test_absolute_limits(void **state)
{
	struct fake healthy = { .fault_rail = ANY_RAIL };
	struct rdp_mesh_limits l = tol10;
	struct rdp_mesh_plan *plan;
	struct rdp_mesh *m = fake_mesh(4, 1, &healthy, &plan);
	const struct rdp_mesh_cell *c;
	size_t i;

	(void)state;
	l.min_bw_gbps = 99.9; /* cells lie between 99 and 100 */
	assert_true(rdp_mesh_analyze(m, &l) > 0);
	l.min_bw_gbps = 0;
	l.min_bw_pct = 99.6; /* of 100 Gb/s: 99.5 and below */
	assert_true(rdp_mesh_analyze(m, &l) > 0);
	for (i = 0; i < rdp_mesh_n_cells(m); i++) {
		c = rdp_mesh_cell_at(m, i);
		assert_int_equal(c->status, c->bw_gbps < 99.6 ? RDP_MESH_FLAGGED
							      : RDP_MESH_OK);
		if (c->status == RDP_MESH_FLAGGED)
			expect_in(c->reason, "% of the line rate 100 Gb/s "
					     "(below --min-bw 99.6%)");
	}
	c = rdp_mesh_cell_at(m, 0);
	l.min_bw_pct = 0;
	assert_int_equal(rdp_mesh_analyze(m, &l), 0);
	assert_null(c->reason);
	l.tol = 1;
	assert_int_equal(rdp_mesh_analyze(m, &l), -EINVAL);
	l.tol = 0.1;
	l.min_bw_pct = 101;
	assert_int_equal(rdp_mesh_analyze(m, &l), -EINVAL);
	rdp_mesh_free(m);
	rdp_mesh_plan_free(plan);
}

/* Latency: a cell above (1 + tol) x the median, or above --max-lat. */
static void test_latency_outliers(void **state)
{
	static const struct fault slow = { F_TX, 2, 0, 150 }; /* 3 us */
	struct fake fk = {
		.f = &slow, .n_faults = 1, .fault_rail = ANY_RAIL, .lat = 1
	};
	struct rdp_mesh_limits l = tol10;
	struct rdp_mesh_plan *plan;
	struct rdp_mesh *m = fake_mesh(5, 1, &fk, &plan);
	const struct rdp_mesh_cell *c;
	size_t i;

	(void)state;
	assert_int_equal(rdp_mesh_analyze(m, &l), 4);
	for (i = 0; i < rdp_mesh_n_cells(m); i++) {
		c = rdp_mesh_cell_at(m, i);
		assert_int_equal(c->status,
				 c->tx == 2 ? RDP_MESH_FLAGGED : RDP_MESH_OK);
		if (c->tx == 2) {
			assert_int_equal(c->cls, RDP_MESH_CLASS_TX);
			expect_in(c->reason, "3.000 us is 150.");
			expect_in(c->reason, "(above 110%)");
		}
	}
	l.max_lat_us = 1.99; /* healthy cells are 1.99..2 us */
	assert_true(rdp_mesh_analyze(m, &l) > 4);
	rdp_mesh_free(m);
	rdp_mesh_plan_free(plan);
}

static void test_add_rejects(void **state)
{
	struct fake healthy = { .fault_rail = ANY_RAIL };
	struct rdp_mesh_plan *plan;
	struct rdp_mesh *m = fake_mesh(3, 2, &healthy, &plan);
	struct rdp_mesh_cell c = { .tx = 0, .rx = 0, .bw_gbps = 1 };

	(void)state;
	c.result = json_object(); /* taken also on error: no leak */
	assert_int_equal(rdp_mesh_add(m, &c), -EINVAL);
	c = (struct rdp_mesh_cell){ .tx = 0, .rx = 3, .result = NULL };
	assert_int_equal(rdp_mesh_add(m, &c), -EINVAL);
	c = (struct rdp_mesh_cell){ .tx = 0, .rx = 1, .rail = 2 };
	assert_int_equal(rdp_mesh_add(m, &c), -EINVAL);
	c = (struct rdp_mesh_cell){ .tx = 0, .rx = 1, .status = 2 };
	assert_int_equal(rdp_mesh_add(m, &c), -EINVAL);
	c = (struct rdp_mesh_cell){ .tx = 0,
				    .rx = 1,
				    .round = RDP_MESH_MAX_ROUND };
	assert_int_equal(rdp_mesh_add(m, &c), -EINVAL);
	assert_int_equal(rdp_mesh_n_cells(m), 6 * 2);
	assert_null(rdp_mesh_cell_at(m, 12));
	assert_string_equal(rdp_mesh_node_name(m, 2), "node2");
	assert_int_equal(rdp_mesh_create(plan, 0, NULL, &m), -EINVAL);
	rdp_mesh_free(m);
	rdp_mesh_plan_free(plan);
}

/*
 * The writers' mesh: 3 nodes (one name with a comma) in the 3 pairings of
 * a -b pairwise plan: b,c<->d, d<->a (a->d failed), a<->b,c (b,c->a at
 * 60 % of the median: flagged).
 */
struct small {
	struct rdp_mesh_plan *plan;
	struct rdp_mesh *m;
};

static void small_mesh(struct small *s)
{
	static const char *const names[] = { "a", "b,c", "d" };
	static const struct {
		unsigned int tx, rx, round;
		double gbps;
	} cells[] = { { 1, 2, 0, 100 }, { 2, 1, 0, 98 },  { 2, 0, 1, 102 },
		      { 0, 2, 1, -1 },	{ 0, 1, 2, 100 }, { 1, 0, 2, 60 } };
	struct rdp_mesh_cell c;
	size_t i;

	s->plan = plan_of(RDP_MESH_PAIRWISE, 3, 0, 0, 1);
	assert_int_equal(rdp_mesh_create(s->plan, 1, names, &s->m), 0);
	for (i = 0; i < 6; i++) {
		c = (struct rdp_mesh_cell){
			.tx = cells[i].tx,
			.rx = cells[i].rx,
			.round = cells[i].round,
			.status = cells[i].gbps < 0 ? RDP_MESH_FAILED
						    : RDP_MESH_OK,
			.reason = "qp timed out",
			.bw_gbps = cells[i].gbps < 0 ? NAN : cells[i].gbps,
			.lat_us = NAN,
			.result = json_pack("{s:[{s:s, s:f}]}", "results",
					    "test", "write_bw", "bw_avg_gbps",
					    cells[i].gbps),
		};
		assert_int_equal(rdp_mesh_add(s->m, &c), 0);
	}
	assert_int_equal(rdp_mesh_analyze(s->m, &tol10), 2);
}

static void small_free(struct small *s)
{
	rdp_mesh_free(s->m);
	rdp_mesh_plan_free(s->plan);
}

/* What fn wrote for the small mesh; free() it. */
static char *written(const struct small *s,
		     int (*fn)(const struct rdp_mesh *, FILE *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(fn(s->m, f), 0);
	fclose(f);
	return buf;
}

static int matrix0(const struct rdp_mesh *m, FILE *f)
{
	return rdp_mesh_write_matrix(m, 0, f);
}

static int heatmap0(const struct rdp_mesh *m, FILE *f)
{
	return rdp_mesh_heatmap_script(m, 0, f);
}

static void test_csv(void **state)
{
	struct small s;
	char *t;

	(void)state;
	small_mesh(&s);
	t = written(&s, matrix0);
	assert_string_equal(t, "tx\\rx,a,\"b,c\",d\n"
			       "a,,100.000,failed\n"
			       "\"b,c\",60.000,,100.000\n"
			       "d,102.000,98.000,\n");
	free(t);
	t = written(&s, rdp_mesh_write_cells);
	assert_string_equal(
		t, "tx,rx,rail,round,status,class,suspect,bw_gbps,lat_us,"
		   "retest,retest_bw_gbps,retest_lat_us,reason\n"
		   "\"b,c\",d,0,1,ok,,,100.000,,,,,\n"
		   "d,\"b,c\",0,1,ok,,,98.000,,,,,\n"
		   "d,a,0,2,ok,,,102.000,,,,,\n"
		   "a,d,0,2,failed,link,a,,,,,,qp timed out\n"
		   "a,\"b,c\",0,3,ok,,,100.000,,,,,\n"
		   "\"b,c\",a,0,3,flagged,link,\"b,c\",60.000,,,,,60.000 Gb/s "
		   "is 60.0% of the rail's median 100.000 Gb/s (below 90%)\n");
	free(t);
	assert_int_equal(rdp_mesh_write_matrix(s.m, 1, stdout), -EINVAL);
	small_free(&s);
}

static void test_outliers_text(void **state)
{
	struct fake healthy = { .fault_rail = ANY_RAIL };
	struct rdp_mesh_plan *plan;
	struct small s;
	char *t;

	(void)state;
	small_mesh(&s);
	t = written(&s, rdp_mesh_write_outliers);
	expect_in(t, "2 of 6 cells are outliers (1 flagged, 1 failed); "
		     "tolerance 10%\n"
		     "suspect: rail 0: the link or path a->d (its rows and "
		     "columns are fine): 1 cell\n"
		     "suspect: rail 0: the link or path b,c->a");
	/* a's row: 100 and a failed cell (0); its column: 102 and 60. */
	expect_in(t, "failed: rail 0 round 2 a->d: the link or path a->d "
		     "(its rows and columns are fine): qp timed out; medians "
		     "Gb/s: rail 100.000, a TX 50.000 RX 81.000, d TX 100.000 "
		     "RX 50.000\n");
	expect_in(t, "flagged: rail 0 round 3 b,c->a: ");
	free(t);
	small_free(&s);

	s.m = fake_mesh(4, 1, &healthy, &plan);
	s.plan = plan;
	assert_int_equal(rdp_mesh_write_outliers(s.m, stdout), -EINVAL);
	assert_int_equal(rdp_mesh_analyze(s.m, &tol10), 0);
	t = written(&s, rdp_mesh_write_outliers);
	assert_string_equal(t, "no outliers: 12 cells within 10% of their "
			       "rail's median\n");
	free(t);
	small_free(&s);
}

/* a equals the new value b, which this frees. */
static void expect_json(const json_t *a, json_t *b)
{
	char *ta = json_dumps(a, JSON_SORT_KEYS | JSON_COMPACT);
	char *tb = json_dumps(b, JSON_SORT_KEYS | JSON_COMPACT);

	assert_non_null(b);
	if (!json_equal(a, b))
		fail_msg("%s, expected %s", ta ? ta : "(none)", tb);
	free(ta);
	free(tb);
	json_decref(b);
}

static void test_json(void **state)
{
	json_t *doc, *cell, *r;
	struct small s;
	char *t;

	(void)state;
	small_mesh(&s);
	t = written(&s, rdp_mesh_write_json);
	doc = json_loads(t, 0, NULL);
	assert_non_null(doc);
	assert_string_equal(json_string_value(json_object_get(doc, "pattern")),
			    "pairwise");
	expect_json(json_object_get(doc, "nodes"),
		    json_pack("[s, s, s]", "a", "b,c", "d"));
	r = json_array_get(json_object_get(doc, "rounds"), 0);
	assert_int_equal(json_array_size(json_object_get(doc, "rounds")), 3);
	expect_json(r, json_pack("{s:i, s:[{s:s, s:s, s:b}], s:[s]}", "round",
				 1, "pairs", "tx", "b,c", "rx", "d",
				 "bidirectional", 1, "bye", "a"));
	cell = json_array_get(json_object_get(doc, "cells"), 3);
	assert_string_equal(json_string_value(json_object_get(cell, "status")),
			    "failed");
	assert_string_equal(json_string_value(json_object_get(cell, "reason")),
			    "qp timed out");
	assert_string_equal(json_string_value(json_object_get(cell, "class")),
			    "link");
	assert_int_equal(json_integer_value(json_object_get(cell, "round")), 2);
	assert_true(json_is_null(json_object_get(cell, "bw_gbps")));
	assert_true(json_equal(json_object_get(cell, "result"),
			       rdp_mesh_cell_at(s.m, 3)->result));
	cell = json_array_get(json_object_get(doc, "cells"), 0);
	assert_null(json_object_get(cell, "reason"));
	assert_true(json_real_value(json_object_get(cell, "bw_gbps")) == 100);
	expect_json(json_object_get(doc, "totals"),
		    json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:i}", "cells", 6,
			      "ok", 4, "flagged", 1, "failed", 1, "skipped", 0,
			      "retested", 0, "held", 0));
	r = json_array_get(json_object_get(doc, "medians"), 0);
	assert_true(json_real_value(json_object_get(r, "bw_gbps")) == 100);
	json_decref(doc);
	free(t);
	small_free(&s);
}

/* The journal: a line per round, each parsing alone. */
static void test_journal(void **state)
{
	char *buf = NULL, *nl;
	size_t len = 0;
	json_t *line;
	struct small s;
	FILE *f;

	(void)state;
	small_mesh(&s);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(rdp_mesh_journal_round(s.m, 0, f), 0);
	assert_int_equal(rdp_mesh_journal_round(s.m, 1, f), 0);
	fclose(f);
	nl = strchr(buf, '\n');
	assert_non_null(nl);
	*nl = '\0';
	line = json_loads(buf, 0, NULL);
	assert_non_null(line);
	assert_int_equal(json_integer_value(json_object_get(line, "round")), 1);
	assert_int_equal(json_array_size(json_object_get(line, "cells")), 2);
	json_decref(line);
	/* The second line ends the text, with its own newline. */
	assert_true(strchr(nl + 1, '\n') == nl + strlen(nl + 1));
	line = json_loads(nl + 1, 0, NULL);
	assert_non_null(line);
	assert_int_equal(json_integer_value(json_object_get(line, "round")), 2);
	assert_string_equal(
		json_string_value(json_object_get(
			json_array_get(json_object_get(line, "cells"), 1),
			"status")),
		"failed");
	json_decref(line);
	free(buf);
	small_free(&s);
}

/* Retest rounds: every transfer in one round, no node twice in a round;
 * all N(N-1) directed pairs of N nodes for N = 2..64. */
static void test_retest_schedule(void **state)
{
	static struct rdp_mesh_xfer x[MAX_N * MAX_N];
	static unsigned int round_of[MAX_N * MAX_N];
	unsigned char busy[MAX_N];
	unsigned int n, a, b, rounds, r;
	size_t i, cnt, in_round;

	(void)state;
	for (n = 2; n <= MAX_N; n++) {
		cnt = 0;
		for (a = 0; a < n; a++)
			for (b = 0; b < n; b++)
				if (a != b)
					x[cnt++] = (struct rdp_mesh_xfer){
						.tx = a, .rx = b
					};
		assert_int_equal(rdp_mesh_retest_schedule(x, cnt, n, round_of,
							  &rounds),
				 0);
		/* Each node is in 2(N-1) transfers, at most one a round. */
		assert_true(rounds >= 2 * (n - 1));
		for (r = 0, i = 0; r < rounds; r++) {
			memset(busy, 0, sizeof(busy));
			in_round = 0;
			for (i = 0; i < cnt; i++) {
				if (round_of[i] != r)
					continue;
				assert_false(busy[x[i].tx] || busy[x[i].rx]);
				busy[x[i].tx] = busy[x[i].rx] = 1;
				in_round++;
			}
			assert_true(in_round > 0);
		}
		for (i = 0; i < cnt; i++)
			assert_true(round_of[i] < rounds);
	}
	/* Disjoint pairs share one round. */
	x[0] = (struct rdp_mesh_xfer){ .tx = 0, .rx = 1 };
	x[1] = (struct rdp_mesh_xfer){ .tx = 3, .rx = 2 };
	assert_int_equal(rdp_mesh_retest_schedule(x, 2, 4, round_of, &rounds),
			 0);
	assert_int_equal(rounds, 1);
	assert_int_equal(rdp_mesh_retest_schedule(x, 0, 4, round_of, &rounds),
			 0);
	assert_int_equal(rounds, 0);
	assert_int_equal(rdp_mesh_retest_schedule(x, 2, 3, round_of, &rounds),
			 -EINVAL);
	x[1].rx = 3;
	assert_int_equal(rdp_mesh_retest_schedule(x, 2, 4, round_of, &rounds),
			 -EINVAL);
}

static void add_again(struct rdp_mesh *m, unsigned int tx, unsigned int rx,
		      unsigned int round, double gbps, int want)
{
	struct rdp_mesh_cell c = {
		.tx = tx,
		.rx = rx,
		.round = round,
		.status = gbps < 0 ? RDP_MESH_FAILED : RDP_MESH_OK,
		.reason = "connect timed out",
		.bw_gbps = gbps < 0 ? NAN : gbps,
		.lat_us = NAN,
		.result = json_pack("{s:f}", "again", gbps),
	};

	assert_int_equal(rdp_mesh_add_retest(m, &c), want);
}

/* Two nodes, both directions at once, both below an absolute floor. */
static void retest_both(void)
{
	struct rdp_mesh_limits floor50 = { .tol = 0.1, .min_bw_gbps = 50 };
	struct rdp_mesh_cell c = {
		.rail = 0, .status = RDP_MESH_OK, .bw_gbps = 40, .lat_us = NAN
	};
	struct rdp_mesh_xfer *x = NULL;
	json_t *doc;
	struct small s;
	size_t n = 0;
	char *t;

	s.plan = plan_of(RDP_MESH_PAIRWISE, 2, 0, 0, 1);
	assert_int_equal(rdp_mesh_create(s.plan, 1, NULL, &s.m), 0);
	c.tx = 0;
	c.rx = 1;
	assert_int_equal(rdp_mesh_add(s.m, &c), 0);
	c.tx = 1;
	c.rx = 0;
	assert_int_equal(rdp_mesh_add(s.m, &c), 0);
	assert_int_equal(rdp_mesh_analyze(s.m, &floor50), 2);
	assert_int_equal(rdp_mesh_retest_pairs(s.m, &x, &n), 0);
	assert_int_equal(n, 1);
	assert_true(x[0].tx == 0 && x[0].rx == 1 && x[0].both);
	free(x);
	add_again(s.m, 0, 1, 1, 45, 0);
	add_again(s.m, 1, 0, 1, 60, 0);
	assert_int_equal(rdp_mesh_analyze(s.m, &floor50), 2);
	t = written(&s, rdp_mesh_write_json);
	doc = json_loads(t, 0, NULL);
	assert_non_null(doc);
	expect_json(json_object_get(doc, "retest_rounds"),
		    json_pack("[{s:i, s:b, s:[{s:s, s:s, s:b}]}]", "round", 2,
			      "retest", 1, "pairs", "tx", "node0", "rx",
			      "node1", "bidirectional", 1));
	assert_int_equal(json_integer_value(json_object_get(
				 json_object_get(doc, "totals"), "held")),
			 1);
	json_decref(doc);
	free(t);
	small_free(&s);
}

/*
 * --retest on the small mesh (3 nodes, both directions at once): a->d
 * failed and b,c->a is flagged. Run again, a->d is fine (the flag did
 * not hold) and b,c->a is still slow (it held); the healthy directions
 * of those pairs are not kept.
 */
static void test_retest(void **state)
{
	static const struct fault link = { F_LINK, 1, 5, 40 };
	struct fake one = { .f = &link, .n_faults = 1, .fault_rail = ANY_RAIL };
	struct rdp_mesh_plan *plan;
	struct rdp_mesh_xfer *x = NULL;
	const struct rdp_mesh_cell *c;
	json_t *doc, *again;
	struct small s;
	size_t n = 0;
	char *t;

	(void)state;
	small_mesh(&s);
	assert_int_equal(rdp_mesh_retest_pairs(s.m, &x, &n), 0);
	assert_int_equal(n, 2);
	assert_true(x[0].tx == 0 && x[0].rx == 2 && x[0].both);
	assert_true(x[1].tx == 0 && x[1].rx == 1 && x[1].both);
	free(x);
	add_again(s.m, 0, 2, 3, 99, 0);
	add_again(s.m, 2, 0, 3, 101, -ENOENT);
	add_again(s.m, 1, 0, 4, 61, 0);
	add_again(s.m, 0, 1, 4, 100, -ENOENT);
	assert_int_equal(rdp_mesh_n_retests(s.m), 2);
	assert_int_equal(rdp_mesh_analyze(s.m, &tol10), 2);
	c = rdp_mesh_cell_at(s.m, 3);
	assert_int_equal(c->again, 0);
	assert_int_equal(rdp_mesh_retest_at(s.m, 0)->status, RDP_MESH_OK);
	c = rdp_mesh_cell_at(s.m, 5);
	assert_int_equal(c->again, 1);
	assert_int_equal(rdp_mesh_retest_at(s.m, 1)->status, RDP_MESH_FLAGGED);
	assert_int_equal(rdp_mesh_cell_at(s.m, 0)->again, -1);
	/* The medians are the first pass's: 61 is still 61 % of 100. */
	t = written(&s, rdp_mesh_write_outliers);
	expect_in(t, "retest: 2 of 2 outliers run again, the flag held on 1\n");
	expect_in(t, "qp timed out; medians Gb/s: rail 100.000, a TX 50.000 RX "
		     "81.000, d TX 100.000 RX 50.000; retest round 4: did not "
		     "hold (99.000 Gb/s)\n");
	expect_in(t, "; retest round 5: held (61.000 Gb/s is 61.0% of the "
		     "rail's median 100.000 Gb/s (below 90%))\n");
	free(t);
	t = written(&s, rdp_mesh_write_cells);
	expect_in(t,
		  "\na,d,0,2,failed,link,a,,,cleared,99.000,,qp timed out\n");
	expect_in(t, "\n\"b,c\",a,0,3,flagged,link,\"b,c\",60.000,,held,"
		     "61.000,,60.000 Gb/s");
	free(t);
	t = written(&s, rdp_mesh_write_json);
	doc = json_loads(t, 0, NULL);
	assert_non_null(doc);
	again = json_object_get(
		json_array_get(json_object_get(doc, "cells"), 3), "retest");
	assert_int_equal(json_integer_value(json_object_get(again, "round")),
			 4);
	assert_true(json_is_false(json_object_get(again, "held")));
	assert_true(json_real_value(json_object_get(again, "bw_gbps")) == 99);
	expect_json(json_object_get(again, "result"),
		    json_pack("{s:f}", "again", 99.0));
	again = json_object_get(
		json_array_get(json_object_get(doc, "cells"), 5), "retest");
	assert_true(json_is_true(json_object_get(again, "held")));
	assert_string_equal(json_string_value(json_object_get(again, "status")),
			    "flagged");
	assert_null(json_object_get(
		json_array_get(json_object_get(doc, "cells"), 0), "retest"));
	expect_json(json_object_get(doc, "retest_rounds"),
		    json_pack("[{s:i, s:b, s:[{s:s, s:s}]}, {s:i, s:b, "
			      "s:[{s:s, s:s}]}]",
			      "round", 4, "retest", 1, "pairs", "tx", "a", "rx",
			      "d", "round", 5, "retest", 1, "pairs", "tx",
			      "b,c", "rx", "a"));
	expect_json(json_object_get(doc, "totals"),
		    json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:i}", "cells", 6,
			      "ok", 4, "flagged", 1, "failed", 1, "skipped", 0,
			      "retested", 2, "held", 1));
	json_decref(doc);
	free(t);
	small_free(&s);

	/* Both directions of a pair bad, run again at once: one pair. */
	retest_both();

	/* One direction at a time: the bad direction alone; none before an
	 * analysis. */
	s.m = fake_mesh(6, 2, &one, &plan);
	s.plan = plan;
	assert_int_equal(rdp_mesh_retest_pairs(s.m, &x, &n), -EINVAL);
	assert_int_equal(rdp_mesh_analyze(s.m, &tol10), 2);
	assert_int_equal(rdp_mesh_retest_pairs(s.m, &x, &n), 0);
	assert_int_equal(n, 1);
	assert_true(x[0].tx == 1 && x[0].rx == 5 && !x[0].both);
	free(x);
	small_free(&s);
}

/* Where the rounds' time went: in the rounds, summed, and the overhead. */
static void test_round_times(void **state)
{
	struct rdp_mesh_round_time t0 = { 2, 1.5, 1 }, t2 = { 4, 3, 2 }, sum;
	json_t *doc, *r;
	struct small s;
	char *t;

	(void)state;
	small_mesh(&s);
	assert_int_equal(rdp_mesh_time_total(s.m, &sum), 0);
	assert_int_equal(rdp_mesh_set_round_time(s.m, 2, &t2), 0);
	assert_int_equal(rdp_mesh_set_round_time(s.m, 0, &t0), 0);
	rdp_mesh_set_bootstrap_time(s.m, 0.5);
	assert_int_equal(rdp_mesh_time_total(s.m, &sum), 2);
	assert_true(sum.wall_s == 6 && sum.pair_s == 4.5 &&
		    sum.measured_s == 3);
	t = written(&s, rdp_mesh_write_json);
	doc = json_loads(t, 0, NULL);
	assert_non_null(doc);
	expect_json(json_object_get(doc, "timing"),
		    json_pack("{s:i, s:f, s:f, s:f, s:f, s:f}", "rounds", 2,
			      "bootstrap_s", 0.5, "wall_s", 6.0, "pair_s", 4.5,
			      "measured_s", 3.0, "overhead_pct", 50.0));
	r = json_array_get(json_object_get(doc, "rounds"), 0);
	expect_json(json_object_get(r, "timing"),
		    json_pack("{s:f, s:f, s:f}", "wall_s", 2.0, "pair_s", 1.5,
			      "measured_s", 1.0));
	r = json_array_get(json_object_get(doc, "rounds"), 1);
	assert_null(json_object_get(r, "timing"));
	json_decref(doc);
	free(t);
	small_free(&s);
}

static void test_heatmap_script(void **state)
{
	struct small s;
	char *t;

	(void)state;
	small_mesh(&s);
	t = written(&s, heatmap0);
	/* receiver, sender, % of the median; failed and flagged cells. */
	expect_in(t, "$cells << EOD\n1 0 100.0000\n0 1 60.0000\n"
		     "2 1 100.0000\n0 2 102.0000\n1 2 98.0000\nEOD\n"
		     "$failed << EOD\n2 0\nEOD\n"
		     "$flagged << EOD\n0 1\nEOD\n");
	expect_in(t, "set title 'rail 0: bandwidth in % of the median "
		     "100.000 Gb/s");
	expect_in(t, "set yrange [2.5:-0.5]\n");
	expect_in(t, "set cbrange [50:110]\n");
	expect_in(t, "set palette defined (50 '#b71c1c', 90 '#fdd835'");
	/* The comma never reaches gnuplot's quoted strings. */
	expect_in(t, "set xtics out (\"a\" 0, \"b-c\" 1, \"d\" 2) rotate");
	expect_in(t, "plot $cells using 1:2:(0.5):(0.5):3 with boxxyerror fc "
		     "palette notitle, $failed using 1:2:(0.5):(0.5) with "
		     "boxxyerror fc rgb '#000000' title 'failed', $flagged");
	free(t);
	/* On the line rate: the small mesh's cells have none, so no box;
	 * the failed cell still shows. */
	rdp_mesh_set_scale(s.m, RDP_MESH_SCALE_LINE);
	t = written(&s, heatmap0);
	expect_in(t, "$cells << EOD\nEOD\n$failed << EOD\n2 0\nEOD\n");
	free(t);
	small_free(&s);
}

/* The heatmap in % of each cell's line rate (100 Gb/s in fake meshes),
 * yellow at --min-bw's percentage. */
static void test_heatmap_line_rate(void **state)
{
	static const struct fault link = { F_LINK, 1, 2, 40 };
	struct fake one = { .f = &link, .n_faults = 1, .fault_rail = ANY_RAIL };
	struct rdp_mesh_limits l = { .tol = 0.1, .min_bw_pct = 80 };
	struct small s;
	char *t;

	(void)state;
	s.m = fake_mesh(3, 1, &one, &s.plan);
	assert_int_equal(rdp_mesh_analyze(s.m, &l), 1);
	rdp_mesh_set_scale(s.m, RDP_MESH_SCALE_LINE);
	t = written(&s, heatmap0);
	expect_in(t, "\n2 1 40.0000\n");
	expect_in(t, "\n1 0 99.2500\n"); /* 100 - 0.25 * 3 */
	expect_in(t, "set title 'rail 0: bandwidth in % of the line rate "
		     "(failed");
	expect_in(t, "set cblabel '% of the line rate'");
	expect_in(t, "set palette defined (50 '#b71c1c', 80 '#fdd835'");
	free(t);
	small_free(&s);
}

/* A file of dir: its size, -1 when missing. */
static long file_size(const char *dir, const char *name)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &st) ? -1 : (long)st.st_size;
}

static void test_write_dir(void **state)
{
	char dir[] = "/tmp/rdp_meshXXXXXX", sub[256];
	const char *files[] = { "mesh.json", "cells.csv", "cells.jsonl",
				"outliers.txt", "matrix-rail0.csv" };
	struct small s;
	size_t i;
	int ret;

	(void)state;
	small_mesh(&s);
	assert_non_null(mkdtemp(dir));
	snprintf(sub, sizeof(sub), "%s/out", dir);
	/* No gnuplot: every other file, then -ENOENT. */
	setenv("RDP_GNUPLOT", "/nonexistent/gnuplot", 1);
	assert_int_equal(rdp_mesh_write_dir(s.m, sub), -ENOENT);
	unsetenv("RDP_GNUPLOT");
	for (i = 0; i < 5; i++)
		assert_true(file_size(sub, files[i]) > 0);
	assert_int_equal(file_size(sub, "heatmap-rail0.svg"), -1);
	/* With gnuplot on PATH the SVG too (skipped where it is not). */
	ret = rdp_mesh_write_dir(s.m, sub);
	if (ret != -ENOENT) {
		assert_int_equal(ret, 0);
		assert_true(file_size(sub, "heatmap-rail0.svg") > 0);
	}
	for (i = 0; i < 5; i++) {
		snprintf(sub, sizeof(sub), "%s/out/%s", dir, files[i]);
		unlink(sub);
	}
	snprintf(sub, sizeof(sub), "%s/out/heatmap-rail0.svg", dir);
	unlink(sub);
	snprintf(sub, sizeof(sub), "%s/out", dir);
	assert_int_equal(rmdir(sub), 0);
	assert_int_equal(rmdir(dir), 0);
	small_free(&s);
}

#define MESH(out, ...) TOOL_OUT("mesh", out, __VA_ARGS__)

static void test_mesh_command(void **state)
{
	static char out[4096];
	char *want;

	(void)state;
	assert_int_equal(MESH(out, "--plan", "5"), 0);
	want = plan_text(plan_of(RDP_MESH_PAIRWISE, 5, 0, 0, 0));
	assert_string_equal(out, want);
	free(want);
	assert_int_equal(MESH(out, "--plan", "8", "--pattern", "bisection",
			      "--permutations", "2", "-b"),
			 0);
	/* The default seed is 1. */
	want = plan_text(plan_of(RDP_MESH_BISECTION, 8, 2, 1, 1));
	assert_string_equal(out, want);
	free(want);
	/* Range errors, wrong combinations, MPI's work: usage errors. */
	assert_int_equal(MESH(out, "--plan", "1"), 2);
	assert_int_equal(MESH(out, "--plan", "100001"), 2);
	assert_int_equal(MESH(out, "--plan", "4", "--pattern", "x"), 2);
	assert_int_equal(MESH(out, "--plan", "4", "--permutations", "2"), 2);
	assert_int_equal(
		MESH(out, "--plan", "4", "--pattern", "ring-shift", "-b"), 2);
	assert_int_equal(MESH(out, "--plan", "4", "write_bw"), 2);
	assert_int_equal(tool_out("mesh", 1, ARGV(NULL), out, sizeof(out)), 2);
	assert_int_equal(MESH(out, "write_bw", "-d", "mlx5_0"), 2);
	assert_string_equal(out, "");
	assert_int_equal(MESH(out, "--help"), 0);
	expect_in(out, "Usage: rdmaperf mesh --plan N");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pairwise),
		cmocka_unit_test(test_bisection),
		cmocka_unit_test(test_ring_shift),
		cmocka_unit_test(test_plan_rejects),
		cmocka_unit_test(test_plan_print),
		cmocka_unit_test(test_outlier_classes),
		cmocka_unit_test(test_outlier_three_nodes),
		cmocka_unit_test(test_outlier_mixed),
		cmocka_unit_test(test_absolute_limits),
		cmocka_unit_test(test_latency_outliers),
		cmocka_unit_test(test_add_rejects),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_outliers_text),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_journal),
		cmocka_unit_test(test_retest_schedule),
		cmocka_unit_test(test_retest),
		cmocka_unit_test(test_round_times),
		cmocka_unit_test(test_heatmap_script),
		cmocka_unit_test(test_heatmap_line_rate),
		cmocka_unit_test(test_write_dir),
		cmocka_unit_test(test_mesh_command),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
