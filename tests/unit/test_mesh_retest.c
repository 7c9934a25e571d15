/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --retest of a run on one rank (a bootstrap of one, rounds "measured"
 * by a callback from the nodes' made-up health): a quick pass's halving
 * rounds name the slow node faulty and clear the others, the cells
 * between cleared nodes run again on their own; other patterns retest
 * the bad pairs.
 */
#include <errno.h>
#include <math.h>
#include <jansson.h>

#include "unit.h"

#include <rdmaperf/boot.h>
#include <rdmaperf/mesh_run.h>

/* A bootstrap of one rank: every collective is done already. */
static int one_bcast(struct rdp_boot *b, void *buf, size_t len, int ms)
{
	(void)b, (void)buf, (void)len, (void)ms;
	return 0;
}

static const struct rdp_boot_ops one_ops = { .name = "one",
					     .bcast = one_bcast };

/* The made-up fabric: slow[node] its cells at half speed, and one
 * pair's cells (bad_tx -> bad_rx) slow in the first pass only. */
struct fake {
	struct rdp_mesh *m;
	struct rdp_mesh_retests *rt;
	size_t plan_rounds;
	unsigned char slow[16];
	int bad_tx, bad_rx;
	unsigned int rounds_run;
};

static double bw_of(const struct fake *f, unsigned int tx, unsigned int rx,
		    int pass)
{
	if (f->slow[tx] || f->slow[rx])
		return 50;
	if (pass && (int)tx == f->bad_tx && (int)rx == f->bad_rx)
		return 40;
	return 100;
}

static void add_cell(struct fake *f, unsigned int tx, unsigned int rx,
		     unsigned int round, int pass)
{
	struct rdp_mesh_cell c = { .tx = tx,
				   .rx = rx,
				   .round = round,
				   .status = RDP_MESH_OK,
				   .bw_gbps = bw_of(f, tx, rx, pass),
				   .lat_us = NAN };

	if (pass)
		assert_int_equal(rdp_mesh_add(f->m, &c), 0);
	else
		assert_int_equal(rdp_mesh_retests_add(f->rt, f->m, &c), 0);
}

/* The run's callback: retest rounds from..to-1 measured. */
static int run_rounds(void *arg, unsigned int from, unsigned int to)
{
	struct fake *f = arg;
	size_t i;

	for (i = 0; i < f->rt->n; i++) {
		if (f->rt->round[i] < from || f->rt->round[i] >= to)
			continue;
		add_cell(f, f->rt->re[i].tx, f->rt->re[i].rx,
			 (unsigned int)f->plan_rounds + f->rt->round[i], 0);
		if (f->rt->re[i].both)
			add_cell(f, f->rt->re[i].rx, f->rt->re[i].tx,
				 (unsigned int)f->plan_rounds + f->rt->round[i],
				 0);
	}
	f->rounds_run += to - from;
	return 0;
}

/* The plan's cells, then --retest on one rank. */
static void run_mesh(struct fake *f, enum rdp_mesh_pattern pattern,
		     unsigned int nodes, struct rdp_mesh_plan **plan)
{
	struct rdp_mesh_run_opts *mo = calloc(1, sizeof(*mo));
	struct rdp_boot boot = { .ops = &one_ops, .size = 1 };
	unsigned char left_out[16] = { 0 };
	struct rdp_mesh_xfer x[16];
	struct rdp_mesh_retest_ctx c;
	size_t k, j, n;

	assert_non_null(mo);
	mo->plan = (struct rdp_mesh_plan_opts){
		.pattern = pattern,
		.nodes = nodes,
		.permutations = pattern == RDP_MESH_QUICK ? 2 : 0,
		.seed = 5,
		.bidir = 1
	};
	mo->limits.tol = 0.1;
	mo->round_timeout_ms = 1000;
	assert_int_equal(rdp_mesh_plan_create(&mo->plan, plan), 0);
	assert_int_equal(rdp_mesh_create(*plan, 1, NULL, &f->m), 0);
	f->plan_rounds = rdp_mesh_plan_rounds(*plan);
	for (k = 0; k < f->plan_rounds; k++) {
		n = rdp_mesh_plan_round(*plan, k, x);
		for (j = 0; j < n; j++) {
			add_cell(f, x[j].tx, x[j].rx, (unsigned int)k, 1);
			add_cell(f, x[j].rx, x[j].tx, (unsigned int)k, 1);
		}
	}
	c = (struct rdp_mesh_retest_ctx){ .boot = &boot,
					  .mesh = f->m,
					  .mo = mo,
					  .left_out = left_out,
					  .nodes = nodes,
					  .plan_rounds = f->plan_rounds,
					  .run = run_rounds,
					  .arg = f };
	assert_int_equal(rdp_mesh_retest_run(&c, f->rt), 0);
	assert_true(rdp_mesh_analyze(f->m, &mo->limits) >= 0);
	free(mo);
}

/* mesh.json of m, parsed. */
static json_t *mesh_json(struct rdp_mesh *m)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_t *o;

	assert_non_null(f);
	assert_int_equal(rdp_mesh_write_json(m, f), 0);
	fclose(f);
	o = json_loads(buf, 0, NULL);
	free(buf);
	assert_non_null(o);
	return o;
}

/* One slow node of 8: every cell of it flagged; one halving round judges
 * it faulty and clears its peers; nothing is left to run again. */
static void test_quick_slow_node(void **state)
{
	struct rdp_mesh_retests rt = { 0 };
	struct fake f = { .rt = &rt, .bad_tx = -1, .bad_rx = -1 };
	struct rdp_mesh_plan *plan = NULL;
	json_t *doc, *q;
	unsigned int i;
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	(void)state;
	f.slow[3] = 1;
	run_mesh(&f, RDP_MESH_QUICK, 8, &plan);
	assert_non_null(rt.quick);
	for (i = 0; i < 8; i++)
		assert_int_equal(rt.quick->now[i],
				 i == 3 ? RDP_MESH_QUICK_FAULTY
					: RDP_MESH_QUICK_GOOD);
	assert_int_equal(rt.quick->rounds, 1);
	assert_int_equal(rt.quick->confirm_rounds, 0);
	assert_int_equal(rt.quick_rounds, 1);
	assert_int_equal(f.rounds_run, 1);
	doc = mesh_json(f.m);
	q = json_object_get(doc, "quick");
	assert_non_null(q);
	assert_int_equal(json_integer_value(json_object_get(q, "rounds")), 1);
	assert_int_equal(json_array_size(json_object_get(q, "faulty")), 1);
	assert_string_equal(json_string_value(json_array_get(
				    json_object_get(q, "faulty"), 0)),
			    "node3");
	assert_int_equal(json_integer_value(json_object_get(q, "cleared")),
			 json_integer_value(json_object_get(q, "suspects")) -
				 1);
	assert_int_equal(json_array_size(json_object_get(q, "unresolved")), 0);
	/* The halving round is in the file, with its pairs. */
	assert_int_equal(json_array_size(json_object_get(doc, "retest_rounds")),
			 1);
	json_decref(doc);
	out = open_memstream(&text, &len);
	rdp_mesh_quick_print(rt.quick, f.m, out);
	fclose(out);
	assert_non_null(strstr(text, "quick retest: faulty: node3\n"));
	assert_null(strstr(text, "still suspect"));
	free(text);
	rdp_mesh_retests_free(&rt);
	rdp_mesh_free(f.m);
	rdp_mesh_plan_free(plan);
}

/* A pair slow in the pass only (noise): both nodes are cleared by the
 * halving round, then the pair itself runs again and is cleared by its
 * own figure, as --retest marks a cell. */
static void test_quick_noise_cleared(void **state)
{
	struct rdp_mesh_retests rt = { 0 };
	struct fake f = { .rt = &rt };
	struct rdp_mesh_plan *plan = NULL;
	const struct rdp_mesh_cell *c, *again;
	struct rdp_mesh_xfer x[8];
	unsigned int i;
	size_t k;

	(void)state;
	/* A pair the pass ran: round 0's first. */
	assert_int_equal(
		rdp_mesh_plan_create(
			&(struct rdp_mesh_plan_opts){ .pattern = RDP_MESH_QUICK,
						      .nodes = 8,
						      .permutations = 2,
						      .seed = 5,
						      .bidir = 1 },
			&plan),
		0);
	rdp_mesh_plan_round(plan, 0, x);
	rdp_mesh_plan_free(plan);
	f.bad_tx = (int)x[0].tx;
	f.bad_rx = (int)x[0].rx;
	run_mesh(&f, RDP_MESH_QUICK, 8, &plan);
	for (i = 0; i < 8; i++)
		assert_int_equal(rt.quick->now[i], RDP_MESH_QUICK_GOOD);
	assert_int_equal(rt.quick->rounds, 1);
	assert_int_equal(rt.quick->confirm_rounds, 1);
	for (k = 0; k < rdp_mesh_n_cells(f.m); k++) {
		c = rdp_mesh_cell_at(f.m, k);
		if (c->status != RDP_MESH_FLAGGED)
			continue;
		assert_true((int)c->tx == f.bad_tx && (int)c->rx == f.bad_rx);
		assert_true(c->again >= 0);
		again = rdp_mesh_retest_at(f.m, (size_t)c->again);
		assert_int_equal(again->status, RDP_MESH_OK);
		assert_true(again->round == f.plan_rounds + 1);
	}
	rdp_mesh_retests_free(&rt);
	rdp_mesh_free(f.m);
	rdp_mesh_plan_free(plan);
}

/* Other patterns keep --retest as it was: the bad pairs, as they are. */
static void test_pairwise_retest(void **state)
{
	struct rdp_mesh_retests rt = { 0 };
	struct fake f = { .rt = &rt, .bad_tx = 1, .bad_rx = 2 };
	struct rdp_mesh_plan *plan = NULL;

	(void)state;
	run_mesh(&f, RDP_MESH_PAIRWISE, 6, &plan);
	assert_null(rt.quick);
	assert_int_equal(rt.quick_rounds, 0);
	assert_int_equal(rt.n, 1);
	assert_true(rt.re[0].tx == 1 && rt.re[0].rx == 2);
	assert_int_equal(rt.rounds, 1);
	assert_int_equal(rdp_mesh_n_retests(f.m), 1);
	rdp_mesh_retests_free(&rt);
	rdp_mesh_free(f.m);
	rdp_mesh_plan_free(plan);
}

static void test_quick_max_rounds(void **state)
{
	(void)state;
	assert_int_equal(rdp_mesh_quick_max_rounds(2), 3);
	assert_int_equal(rdp_mesh_quick_max_rounds(6), 5);
	assert_int_equal(rdp_mesh_quick_max_rounds(8), 5);
	assert_int_equal(rdp_mesh_quick_max_rounds(1024), 12);
	assert_int_equal(rdp_mesh_quick_max_rounds(1025), 13);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quick_slow_node),
		cmocka_unit_test(test_quick_noise_cleared),
		cmocka_unit_test(test_pairwise_retest),
		cmocka_unit_test(test_quick_max_rounds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
