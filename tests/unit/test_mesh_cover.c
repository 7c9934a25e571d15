/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --pattern cover: leaf groups and quotas from a fabric, the rounds
 * (every node crosses the spines, no node twice in a round, a crossing
 * pair joins two groups, as many pairings as the quotas ask), the same
 * plan from the same seed, what the cells reached of the fabric, and the
 * refusals of rdmaperf mesh and of the plan.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "unit.h"
#include "tool_out.h"

#include <rdmaperf/mesh.h>
#include <rdmaperf/mesh_plan.h>
#include <rdmaperf/mesh_topo.h>
#include <rdmaperf/session.h>

#define MAX_N 64

/* Two leaves of 4 nodes with 2 uplinks, one of 4 nodes with 1. */
static const char oversubscribed[] =
	"a0 0 leafA 1\na1 0 leafA 2\na2 0 leafA 3\na3 0 leafA 4\n"
	"b0 0 leafB 1\nb1 0 leafB 2\nb2 0 leafB 3\nb3 0 leafB 4\n"
	"c0 0 leafC 1\nc1 0 leafC 2\nc2 0 leafC 3\nc3 0 leafC 4\n"
	"leafA 10 spine1 1\nleafA 11 spine2 1\n"
	"leafB 10 spine1 2\nleafB 11 spine2 2\n"
	"leafC 10 spine1 3\n";

struct fab {
	struct rdp_mesh_topo *t;
	struct rdp_mesh_place *p;
	struct rdp_mesh_cover c;
	struct rdp_mesh_plan *plan;
};

/* The fabric's hosts, in order, are the nodes. */
static void fab_place(struct fab *f, unsigned int rails)
{
	unsigned int n = rdp_mesh_topo_n_hosts(f->t), i;
	const char *names[MAX_N];
	char why[256];

	assert_true(n <= MAX_N);
	for (i = 0; i < n; i++)
		names[i] = rdp_mesh_topo_host_name(f->t, i);
	if (rdp_mesh_place_create(f->t, names, n, rails, &f->p, why,
				  sizeof(why)))
		fail_msg("%s", why);
}

static void fab_text(struct fab *f, const char *text)
{
	char why[256];

	memset(f, 0, sizeof(*f));
	if (rdp_mesh_topo_parse(text, "fabric", &f->t, why, sizeof(why)))
		fail_msg("%s", why);
	fab_place(f, 1);
}

static void fab_synthetic(struct fab *f, unsigned int nodes, unsigned int rails,
			  unsigned int leaves, unsigned int spines)
{
	memset(f, 0, sizeof(*f));
	assert_int_equal(rdp_mesh_topo_synthetic(nodes, rails, leaves, spines,
						 &f->t),
			 0);
	fab_place(f, rails);
}

/* The plan of f at load, seed, bidir. */
static void fab_plan(struct fab *f, unsigned int load, uint64_t seed, int bidir)
{
	struct rdp_mesh_plan_opts o = { .pattern = RDP_MESH_COVER,
					.nodes = rdp_mesh_topo_n_hosts(f->t),
					.seed = seed,
					.bidir = bidir };

	rdp_mesh_cover_fini(&f->c);
	rdp_mesh_plan_free(f->plan);
	f->plan = NULL;
	assert_int_equal(rdp_mesh_cover_of(f->p, load, &f->c), 0);
	rdp_mesh_cover_plan_opts(&f->c, &o);
	assert_int_equal(rdp_mesh_plan_create(&o, &f->plan), 0);
}

static void fab_free(struct fab *f)
{
	rdp_mesh_plan_free(f->plan);
	rdp_mesh_cover_fini(&f->c);
	rdp_mesh_place_free(f->p);
	rdp_mesh_topo_free(f->t);
}

/* The formula: the most ceil(n_g / q_g) over the groups. */
static size_t formula(const struct rdp_mesh_cover *c, unsigned int nodes)
{
	unsigned int n[MAX_N] = { 0 }, g, i;
	size_t r = 1, need;

	for (i = 0; i < nodes; i++)
		n[c->group[i]]++;
	for (g = 0; g < c->groups; g++) {
		need = c->quota[g] ? (n[g] + c->quota[g] - 1) / c->quota[g] : 1;
		r = need > r ? need : r;
	}
	return r;
}

/*
 * Every round walked: no node twice, a pair across leaves joins two
 * groups and a group sends no more than its quota across a pairing;
 * crossed[node] and busy[node] count the rounds it crossed in and the
 * rounds it had a transfer in.
 */
static void walk(const struct fab *f, unsigned int *crossed, unsigned int *busy)
{
	const struct rdp_mesh_plan *p = f->plan;
	unsigned int n = rdp_mesh_plan_opts(p)->nodes, out[MAX_N], gt, gr;
	struct rdp_mesh_xfer x[MAX_N];
	unsigned char in[MAX_N];
	size_t k, j, cnt;

	memset(crossed, 0, n * sizeof(*crossed));
	memset(busy, 0, n * sizeof(*busy));
	for (k = 0; k < rdp_mesh_plan_rounds(p); k++) {
		cnt = rdp_mesh_plan_round(p, k, x);
		assert_true(cnt <= rdp_mesh_plan_width(p));
		memset(in, 0, sizeof(in));
		memset(out, 0, sizeof(out));
		for (j = 0; j < cnt; j++) {
			assert_true(x[j].tx < n && x[j].rx < n);
			if (in[x[j].tx] || in[x[j].rx] || x[j].tx == x[j].rx)
				fail_msg("round %zu: a node twice", k + 1);
			in[x[j].tx] = in[x[j].rx] = 1;
			busy[x[j].tx]++;
			busy[x[j].rx]++;
			gt = f->c.group[x[j].tx];
			gr = f->c.group[x[j].rx];
			if (gt == gr)
				continue;
			crossed[x[j].tx]++;
			crossed[x[j].rx]++;
			out[gt]++;
			out[gr]++;
		}
		for (j = 0; j < f->c.groups; j++)
			if (out[j] > f->c.quota[j])
				fail_msg(
					"round %zu: group %zu sends %u across, "
					"its quota %u",
					k + 1, j, out[j], f->c.quota[j]);
	}
}

/* Every node crosses (and so has traffic) at least once. */
static void every_node_crosses(const struct fab *f)
{
	unsigned int crossed[MAX_N], busy[MAX_N], i;
	unsigned int n = rdp_mesh_plan_opts(f->plan)->nodes;

	walk(f, crossed, busy);
	for (i = 0; i < n; i++)
		if (!crossed[i])
			fail_msg("node %u never crosses the spines", i);
}

static void test_groups(void **state)
{
	struct fab f;
	unsigned int i;

	(void)state;
	/* 32 nodes x 2 rails, 4 leaves a rail of 8 nodes, 4 spines. */
	fab_synthetic(&f, 32, 2, 4, 4);
	assert_int_equal(rdp_mesh_cover_of(f.p, 100, &f.c), 0);
	assert_int_equal(f.c.groups, 4);
	for (i = 0; i < 32; i++)
		assert_int_equal(f.c.group[i], i / 8);
	for (i = 0; i < 4; i++) {
		assert_int_equal(f.c.uplinks[i], 4);
		assert_int_equal(f.c.quota[i], 4);
	}
	rdp_mesh_cover_fini(&f.c);
	assert_int_equal(rdp_mesh_cover_of(f.p, 50, &f.c), 0);
	assert_int_equal(f.c.quota[2], 2);
	rdp_mesh_cover_fini(&f.c);
	assert_int_equal(rdp_mesh_cover_of(f.p, 1, &f.c), 0);
	assert_int_equal(f.c.quota[0], 1); /* never below one */
	rdp_mesh_cover_fini(&f.c);
	assert_int_equal(rdp_mesh_cover_of(f.p, 0, &f.c), -EINVAL);
	assert_int_equal(rdp_mesh_cover_of(f.p, 101, &f.c), -EINVAL);
	fab_free(&f);

	fab_text(&f, oversubscribed);
	assert_int_equal(rdp_mesh_cover_of(f.p, 100, &f.c), 0);
	assert_int_equal(f.c.groups, 3);
	assert_int_equal(f.c.quota[0], 2);
	assert_int_equal(f.c.quota[1], 2);
	assert_int_equal(f.c.quota[2], 1);
	assert_int_equal(f.c.uplinks[2], 1);
	fab_free(&f);
}

/* R = max ceil(n_g / q_g) at 100, 50 and 25 %, x2 without -b. */
static void test_rounds(void **state)
{
	static const struct {
		unsigned int load;
		size_t pairings;
	} want[] = { { 100, 2 }, { 50, 4 }, { 25, 8 } };
	struct fab f;
	size_t i;

	(void)state;
	fab_synthetic(&f, 32, 2, 4, 4);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		fab_plan(&f, want[i].load, 1, 0);
		assert_int_equal(formula(&f.c, 32), want[i].pairings);
		assert_int_equal(rdp_mesh_plan_rounds(f.plan),
				 2 * want[i].pairings);
		every_node_crosses(&f);
		fab_plan(&f, want[i].load, 1, 1);
		assert_int_equal(rdp_mesh_plan_rounds(f.plan),
				 want[i].pairings);
		every_node_crosses(&f);
	}
	fab_free(&f);
}

/* A leaf with half the uplinks: its 4 nodes take 4 pairings, one a
 * pairing; the others' windows wrap round meanwhile. */
static void test_oversubscribed(void **state)
{
	unsigned int crossed[MAX_N], busy[MAX_N], i;
	struct fab f;

	(void)state;
	fab_text(&f, oversubscribed);
	fab_plan(&f, 100, 7, 1);
	assert_int_equal(rdp_mesh_plan_rounds(f.plan), formula(&f.c, 12));
	assert_int_equal(rdp_mesh_plan_rounds(f.plan), 4);
	walk(&f, crossed, busy);
	for (i = 0; i < 12; i++) {
		assert_true(crossed[i] >= 1);
		assert_true(busy[i] >= 1);
	}
	for (i = 8; i < 12; i++) /* leaf C: one a pairing, once each */
		assert_int_equal(crossed[i], 1);
	fab_free(&f);
}

/* Odd quotas and tiny leaves: every node crosses all the same. */
static void test_odd(void **state)
{
	static const unsigned int shapes[][3] = {
		/* nodes, leaves, spines */
		{ 3, 3, 1 },  { 5, 5, 2 },  { 9, 3, 1 },
		{ 10, 5, 3 }, { 21, 7, 2 }, { 40, 5, 3 },
	};
	unsigned int load, i;
	struct fab f;

	(void)state;
	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		fab_synthetic(&f, shapes[i][0], 1, shapes[i][1], shapes[i][2]);
		for (load = 10; load <= 100; load += 30) {
			fab_plan(&f, load, i, (int)(load / 10) % 2);
			assert_true(rdp_mesh_plan_rounds(f.plan) /
					    (rdp_mesh_plan_opts(f.plan)->bidir
						     ? 1
						     : 2) >=
				    formula(&f.c, shapes[i][0]));
			every_node_crosses(&f);
		}
		fab_free(&f);
	}
}

/* One leaf, no spine: every node pairs inside it, none resting for good. */
static void test_one_leaf(void **state)
{
	unsigned int crossed[MAX_N], busy[MAX_N], i;
	struct fab f;

	(void)state;
	fab_text(&f, "n0 0 leaf 1\nn1 0 leaf 2\nn2 0 leaf 3\n");
	fab_plan(&f, 100, 1, 1);
	assert_int_equal(f.c.quota[0], 0);
	assert_int_equal(rdp_mesh_plan_rounds(f.plan), 2);
	walk(&f, crossed, busy);
	for (i = 0; i < 3; i++) {
		assert_int_equal(crossed[i], 0);
		assert_true(busy[i] >= 1);
	}
	fab_free(&f);
}

/* The same seed, the same plan; --estimate's pairs as walked. */
static void test_deterministic(void **state)
{
	struct rdp_mesh_xfer x[MAX_N], y[MAX_N];
	struct rdp_mesh_plan_count c;
	unsigned char met[MAX_N][MAX_N] = { { 0 } };
	uint64_t pairs = 0;
	struct fab f, g;
	size_t k, n, j;

	(void)state;
	fab_synthetic(&f, 40, 1, 5, 3);
	fab_synthetic(&g, 40, 1, 5, 3);
	fab_plan(&f, 50, 42, 0);
	fab_plan(&g, 50, 42, 0);
	assert_int_equal(rdp_mesh_plan_rounds(f.plan),
			 rdp_mesh_plan_rounds(g.plan));
	for (k = 0; k < rdp_mesh_plan_rounds(f.plan); k++) {
		n = rdp_mesh_plan_round(f.plan, k, x);
		assert_int_equal(rdp_mesh_plan_round(g.plan, k, y), n);
		assert_memory_equal(x, y, n * sizeof(*x));
		for (j = 0; j < n; j++)
			if (!met[x[j].tx][x[j].rx]++)
				pairs++;
	}
	assert_int_equal(rdp_mesh_plan_count(f.plan, SIZE_MAX, &c), 0);
	assert_int_equal(c.rounds, rdp_mesh_plan_rounds(f.plan));
	assert_int_equal(c.pairs_met, pairs);
	fab_free(&f);
	fab_free(&g);
}

/* The cells of a whole cover: every cable and uplink reached. */
static void test_reach(void **state)
{
	struct rdp_mesh_cover_reach r;
	struct rdp_mesh_xfer x[MAX_N];
	struct rdp_mesh *m = NULL;
	struct rdp_mesh_cell c = { .lat_us = NAN, .bw_gbps = 90 };
	size_t k, j, n;
	unsigned int rail;
	struct fab f;
	json_t *doc;
	FILE *tmp;

	(void)state;
	fab_synthetic(&f, 16, 2, 4, 2);
	fab_plan(&f, 100, 1, 0);
	assert_int_equal(rdp_mesh_create(f.plan, 2, NULL, &m), 0);
	for (k = 0; k < rdp_mesh_plan_rounds(f.plan); k++) {
		n = rdp_mesh_plan_round(f.plan, k, x);
		for (j = 0; j < n; j++)
			for (rail = 0; rail < 2; rail++) {
				c.tx = x[j].tx;
				c.rx = x[j].rx;
				c.rail = rail;
				c.round = (unsigned int)k;
				assert_int_equal(rdp_mesh_add(m, &c), 0);
			}
	}
	assert_int_equal(rdp_mesh_cover_reach_of(m, f.p, &r), 0);
	assert_int_equal(r.cables_all, 32);
	assert_int_equal(r.cables, 32);
	assert_int_equal(r.both_ways, 32);
	assert_int_equal(r.uplinks_all, 4 * 2 * 2); /* 8 leaves, 2 spines */
	assert_int_equal(r.uplinks, r.uplinks_all);
	assert_int_equal(r.uplinks_sure, 0); /* two spines: ECMP's pick */
	assert_int_equal(rdp_mesh_set_cover(m, &r), 0);
	tmp = tmpfile();
	assert_non_null(tmp);
	assert_int_equal(rdp_mesh_write_json(m, tmp), 0);
	rewind(tmp);
	doc = json_loadf(tmp, 0, NULL);
	fclose(tmp);
	assert_non_null(doc);
	assert_int_equal(json_integer_value(json_object_get(
				 json_object_get(json_object_get(doc, "cover"),
						 "uplinks"),
				 "expected")),
			 16);
	json_decref(doc);
	rdp_mesh_free(m);
	fab_free(&f);
}

static void expect_refused(const struct rdp_mesh_plan_opts *o, const char *want)
{
	char why[256] = "";

	assert_int_equal(rdp_mesh_plan_check(o, why, sizeof(why)), -EINVAL);
	expect_in(why, want);
}

static void test_refusals(void **state)
{
	unsigned int group[4] = { 0, 0, 1, 1 }, quota[2] = { 1, 3 };
	struct rdp_mesh_plan_opts o = { .pattern = RDP_MESH_COVER, .nodes = 4 };
	struct rdp_mesh_plan *p = NULL;
	char why[256] = "";

	(void)state;
	expect_refused(&o, "--pattern cover needs --topology FILE: ");
	assert_int_equal(rdp_mesh_plan_create(&o, &p), -EINVAL);
	o.nodes = 0; /* not counted yet: the groups come later */
	assert_int_equal(rdp_mesh_plan_check(&o, why, sizeof(why)), 0);
	o.nodes = 4;
	o.cover_group = group;
	o.cover_quota = quota;
	o.cover_groups = 2;
	expect_refused(&o, "cover: group 1 sends 3 of its 2 nodes");
	quota[1] = 1;
	group[3] = 2;
	expect_refused(&o, "cover: node 3 in group 2 of 2");
	group[3] = 1;
	o.permutations = 2;
	expect_refused(&o, "--permutations applies to");
	o.permutations = 0;
	assert_int_equal(rdp_mesh_plan_create(&o, &p), 0);
	assert_string_equal(rdp_mesh_pattern_name(RDP_MESH_COVER), "cover");
	rdp_mesh_plan_free(p);

	o = (struct rdp_mesh_plan_opts){ .pattern = RDP_MESH_PAIRWISE };
	assert_int_equal(rdp_mesh_cover_args(&o, NULL, 50, why, sizeof(why)),
			 -EINVAL);
	expect_in(why, "--load applies to --pattern cover");
	o.pattern = RDP_MESH_COVER;
	assert_int_equal(rdp_mesh_cover_args(&o, NULL, 0, why, sizeof(why)),
			 -EINVAL);
	expect_in(why, "--pattern cover needs --topology FILE");
	assert_int_equal(rdp_mesh_cover_args(&o, "f", 0, why, sizeof(why)), 0);
	assert_int_equal(o.cover_load_pct, 100);
	assert_int_equal(rdp_mesh_cover_args(&o, "f", 30, why, sizeof(why)), 0);
	assert_int_equal(o.cover_load_pct, 30);
}

/* rdmaperf mesh --pattern cover --topology FILE [--load] [--estimate]. */
static void test_command(void **state)
{
	char path[] = "/tmp/rdp_coverXXXXXX", out[8192];
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, oversubscribed, strlen(oversubscribed)),
			 (ssize_t)strlen(oversubscribed));
	close(fd);
	assert_int_equal(TOOL_OUT("mesh", out, "--pattern", "cover",
				  "--topology", path, "--estimate", "-b"),
			 RDP_EXIT_OK);
	expect_in(out, "cover plan for 12 nodes, 4 rounds: 3 leaf groups");
	expect_in(out, "100 % load, flows an uplink: 1 (");
	expect_in(out, "ECMP picks each flow's uplink");
	expect_in(out, "rounds: 4\n");
	assert_int_equal(TOOL_OUT("mesh", out, "--plan", "12", "--pattern",
				  "cover", "--topology", path, "--load", "50"),
			 RDP_EXIT_OK);
	/* Three leaves sending one node each: one pair crosses a pairing. */
	expect_in(out, "cover plan for 12 nodes, 12 rounds");
	expect_in(out, "50 % load, flows an uplink: 0.5 to 1 (");
	expect_in(out, "warning: 2 leaf groups have fewer flows than uplinks");
	expect_in(out, "round 12: ");
	assert_int_equal(TOOL_OUT("mesh", out, "--plan", "5", "--pattern",
				  "cover", "--topology", path),
			 RDP_EXIT_USAGE);
	assert_int_equal(TOOL_OUT("mesh", out, "--plan", "12", "--pattern",
				  "cover"),
			 RDP_EXIT_USAGE);
	assert_int_equal(TOOL_OUT("mesh", out, "--plan", "12", "--load", "50"),
			 RDP_EXIT_USAGE);
	assert_int_equal(TOOL_OUT("mesh", out, "--pattern", "cover",
				  "--topology", path, "--load", "0"),
			 RDP_EXIT_USAGE);
	assert_int_equal(TOOL_OUT("mesh", out, "--pattern", "cover",
				  "--topology", path, "--load", "101"),
			 RDP_EXIT_USAGE);
	assert_int_equal(TOOL_OUT("mesh", out, "--plan", "12", "--topology",
				  path),
			 RDP_EXIT_USAGE);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_rounds),
		cmocka_unit_test(test_oversubscribed),
		cmocka_unit_test(test_odd),
		cmocka_unit_test(test_one_leaf),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_reach),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_command),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
