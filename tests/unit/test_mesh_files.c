/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The mesh files at scale: cells.jsonl line by line against mesh.json's
 * cells[], mesh.json's summary form and its identity keys, heatmaps by
 * blocks of nodes, the terminal matrix with its unit, and writers facing
 * a status they do not know.
 */
#include <errno.h>
#include <math.h>
#include <jansson.h>

#include "unit.h"

#include <rdmaperf/mesh.h>
#include <rdmaperf/mesh_plan.h>

#include "mesh_int.h"

struct fixture {
	struct rdp_mesh_plan *plan;
	struct rdp_mesh *m;
};

static const struct rdp_mesh_limits tol10 = { .tol = RDP_MESH_TOLERANCE };

/*
 * A pairwise mesh of n nodes (one-way rounds) on one rail: 100 Gb/s less
 * a little per pair; node `slow` sends at 50 Gb/s, cells from `dead` to
 * node 0 fail. Every cell carries a result document when `results`.
 */
static void mesh_of(struct fixture *fx, unsigned int n, unsigned int slow,
		    unsigned int dead, int results, const char *const *names)
{
	struct rdp_mesh_plan_opts o = { .pattern = RDP_MESH_PAIRWISE,
					.nodes = n };
	struct rdp_mesh_xfer *x;
	struct rdp_mesh_cell c;
	size_t k, j, cnt;
	double v;

	assert_int_equal(rdp_mesh_plan_create(&o, &fx->plan), 0);
	assert_int_equal(rdp_mesh_create(fx->plan, 1, names, &fx->m), 0);
	x = calloc(rdp_mesh_plan_width(fx->plan), sizeof(*x));
	assert_non_null(x);
	for (k = 0; k < rdp_mesh_plan_rounds(fx->plan); k++) {
		cnt = rdp_mesh_plan_round(fx->plan, k, x);
		for (j = 0; j < cnt; j++) {
			v = x[j].tx == slow
				    ? 50
				    : 100 - 0.25 * ((x[j].tx + x[j].rx) % 3);
			c = (struct rdp_mesh_cell){
				.tx = x[j].tx,
				.rx = x[j].rx,
				.round = (unsigned int)k,
				.status = x[j].tx == dead && x[j].rx == 0
						  ? RDP_MESH_FAILED
						  : RDP_MESH_OK,
				.reason = "qp timed out",
				.bw_gbps = v,
				.lat_us = NAN,
				.line_gbps = 100,
				.result = results ? json_pack("{s:f}", "bw", v)
						  : NULL,
			};
			if (c.status == RDP_MESH_FAILED)
				c.bw_gbps = NAN;
			assert_int_equal(rdp_mesh_add(fx->m, &c), 0);
		}
	}
	free(x);
}

static void fixture_free(struct fixture *fx)
{
	rdp_mesh_free(fx->m);
	rdp_mesh_plan_free(fx->plan);
}

/* What fn wrote; free() it. */
static char *written(const struct rdp_mesh *m,
		     int (*fn)(const struct rdp_mesh *, FILE *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(fn(m, f), 0);
	fclose(f);
	return buf;
}

static json_t *json_of(const struct rdp_mesh *m)
{
	char *t = written(m, rdp_mesh_write_json);
	json_t *doc = json_loads(t, 0, NULL);

	assert_non_null(doc);
	free(t);
	return doc;
}

/* Every line of cells.jsonl parses alone and equals mesh.json's cell of
 * the same number: plain cells, failed ones, result documents and a
 * retest alike. */
static void test_cells_jsonl(void **state)
{
	struct rdp_mesh_cell again = { .tx = 2,
				       .rx = 0,
				       .round = 6,
				       .status = RDP_MESH_OK,
				       .bw_gbps = 99,
				       .lat_us = NAN };
	json_t *doc, *cells, *line;
	char *t, *p, *nl;
	struct fixture fx;
	size_t i = 0;
	int pass;

	(void)state;
	for (pass = 0; pass < 2; pass++) {
		mesh_of(&fx, 4, 1, 2, pass, NULL);
		assert_true(rdp_mesh_analyze(fx.m, &tol10) > 0);
		assert_int_equal(rdp_mesh_add_retest(fx.m, &again), 0);
		assert_true(rdp_mesh_analyze(fx.m, &tol10) > 0);
		doc = json_of(fx.m);
		cells = json_object_get(doc, "cells");
		assert_int_equal(json_array_size(cells), 12);
		t = written(fx.m, rdp_mesh_write_cells_jsonl);
		for (i = 0, p = t; (nl = strchr(p, '\n')); p = nl + 1, i++) {
			*nl = '\0';
			line = json_loads(p, 0, NULL);
			if (!line ||
			    !json_equal(line, json_array_get(cells, i)))
				fail_msg("line %zu: %s", i + 1, p);
			json_decref(line);
		}
		assert_int_equal(i, 12);
		assert_string_equal(p, "");
		free(t);
		json_decref(doc);
		fixture_free(&fx);
	}
}

/* tool, version, schema_version, the tolerance in % as --tolerance takes
 * it, and the file of the cells. */
static void test_json_identity(void **state)
{
	struct rdp_mesh_limits wide = { .tol = 0.6 };
	struct fixture fx;
	json_t *doc;

	(void)state;
	mesh_of(&fx, 4, 99, 99, 0, NULL);
	assert_int_equal(rdp_mesh_analyze(fx.m, &wide), 0);
	doc = json_of(fx.m);
	assert_string_equal(json_string_value(json_object_get(doc, "tool")),
			    "rdmaperf-mesh");
	assert_string_equal(json_string_value(json_object_get(doc, "version")),
			    PACKAGE_VERSION);
	assert_int_equal(
		json_integer_value(json_object_get(doc, "schema_version")),
		RDP_MESH_JSON_SCHEMA_VERSION);
	assert_true(json_is_integer(json_object_get(doc, "tolerance_pct")));
	assert_int_equal(
		json_integer_value(json_object_get(doc, "tolerance_pct")), 60);
	assert_null(json_object_get(doc, "tolerance"));
	assert_string_equal(
		json_string_value(json_object_get(doc, "cells_file")),
		"cells.jsonl");
	json_decref(doc);
	/* A tolerance that is no whole percentage stays a real. */
	wide.tol = 0.125;
	assert_int_equal(rdp_mesh_analyze(fx.m, &wide), 0);
	doc = json_of(fx.m);
	assert_true(json_real_value(json_object_get(doc, "tolerance_pct")) ==
		    12.5);
	json_decref(doc);
	fixture_free(&fx);
}

/* Past the limit mesh.json is a summary: no cells[], rounds without their
 * pairs, the totals and medians as before. */
static void test_json_summary(void **state)
{
	json_t *doc, *r, *totals;
	struct fixture fx;

	(void)state;
	mesh_of(&fx, 5, 1, 2, 1, NULL);
	assert_true(rdp_mesh_analyze(fx.m, &tol10) > 0);
	doc = json_of(fx.m);
	assert_int_equal(json_array_size(json_object_get(doc, "cells")), 20);
	assert_non_null(json_object_get(
		json_array_get(json_object_get(doc, "rounds"), 0), "pairs"));
	json_decref(doc);

	rdp_mesh_set_json_cells_max(fx.m, 19);
	doc = json_of(fx.m);
	assert_null(json_object_get(doc, "cells"));
	assert_string_equal(
		json_string_value(json_object_get(doc, "cells_file")),
		"cells.jsonl");
	assert_int_equal(json_array_size(json_object_get(doc, "rounds")), 10);
	r = json_array_get(json_object_get(doc, "rounds"), 0);
	assert_null(json_object_get(r, "pairs"));
	assert_null(json_object_get(r, "bye"));
	assert_int_equal(json_integer_value(json_object_get(r, "round")), 1);
	assert_int_equal(json_integer_value(json_object_get(r, "transfers")),
			 2);
	totals = json_object_get(doc, "totals");
	assert_int_equal(json_integer_value(json_object_get(totals, "cells")),
			 20);
	assert_int_equal(json_integer_value(json_object_get(totals, "failed")),
			 1);
	assert_true(json_array_size(json_object_get(doc, "medians")) == 1);
	json_decref(doc);
	fixture_free(&fx);
}

static int heatmap0(const struct rdp_mesh *m, FILE *f)
{
	return rdp_mesh_heatmap_script(m, 0, f);
}

/* Blocks from a group map: a box per sender group x receiver group, its
 * cells' median; a failed cell crosses its block. */
static void test_heatmap_groups(void **state)
{
	static const unsigned int of[6] = { 0, 0, 0, 1, 1, 1 };
	static const char *const leaves[] = { "leaf1", "leaf 2" };
	unsigned int bad_of[6] = { 0, 0, 0, 1, 1, 2 };
	struct fixture fx;
	char *t;

	(void)state;
	/* Node 4 sends at 50 Gb/s, cell 2->0 fails. */
	mesh_of(&fx, 6, 4, 2, 0, NULL);
	assert_true(rdp_mesh_analyze(fx.m, &tol10) > 0);
	assert_int_equal(rdp_mesh_set_groups(fx.m, bad_of, 2, NULL), -EINVAL);
	assert_int_equal(rdp_mesh_set_groups(fx.m, of, 0, NULL), -EINVAL);
	assert_int_equal(rdp_mesh_set_groups(fx.m, of, 2, leaves), 0);
	t = written(fx.m, heatmap0);
	/* Receiver block, sender block, the median % of the rail's
	 * median (99.75 Gb/s): (1, 1) holds 4->3 and 4->5 at 50, 3->4
	 * 99.75, 3->5 and 5->3 99.5, 5->4 100: 99.5 Gb/s. */
	expect_in(t, "$cells << EOD\n0 0 100.0000\n1 0 100.0000\n"
		     "0 1 99.7494\n1 1 99.7494\nEOD\n");
	/* Cell 2->0 failed: block (0, 0) crossed, not black (1 of 6);
	 * node 4's sends cross both blocks of sender block 1. */
	expect_in(t, "$failed << EOD\nEOD\n"
		     "$flagged << EOD\n0 0\n0 1\n1 1\nEOD\n");
	expect_in(t, "set xtics out (\"leaf1\" 0, \"leaf-2\" 1) rotate");
	expect_in(t, "set xrange [-0.5:1.5]\nset yrange [1.5:-0.5]\n");
	expect_in(t, "the median of each block, failed black, flagged "
		     "crossed");
	expect_in(t, "set xlabel 'receivers'");
	free(t);
	/* Back to a box a node. */
	assert_int_equal(rdp_mesh_set_groups(fx.m, NULL, 0, NULL), 0);
	t = written(fx.m, heatmap0);
	expect_in(t, "set xrange [-0.5:5.5]\n");
	free(t);
	fixture_free(&fx);
}

/* Past RDP_MESH_HEATMAP_MAX_NODES: blocks of consecutive nodes, named by
 * their first and last node, at most RDP_MESH_HEATMAP_BLOCKS a side. */
static void test_heatmap_consecutive(void **state)
{
	unsigned int n = RDP_MESH_HEATMAP_MAX_NODES + 4;
	struct fixture fx;
	char *t, want[64];
	unsigned int size =
		(n + RDP_MESH_HEATMAP_BLOCKS - 1) / RDP_MESH_HEATMAP_BLOCKS;
	unsigned int blocks = (n + size - 1) / size;

	(void)state;
	mesh_of(&fx, n, 7, 9, 0, NULL);
	assert_true(rdp_mesh_analyze(fx.m, &tol10) > 0);
	t = written(fx.m, heatmap0);
	assert_true(blocks <= RDP_MESH_HEATMAP_BLOCKS);
	snprintf(want, sizeof(want), "set xrange [-0.5:%u.5]\n", blocks - 1);
	expect_in(t, want);
	snprintf(want, sizeof(want), "(\"0-%u\" 0, \"%u-%u\" 1", size - 1, size,
		 2 * size - 1);
	expect_in(t, want);
	snprintf(want, sizeof(want), "\"%u-%u\" %u)", (blocks - 1) * size,
		 n - 1, blocks - 1);
	expect_in(t, want);
	/* A small script: a line a block and the settings. */
	assert_true(strlen(t) < 200 * (size_t)blocks * blocks);
	free(t);
	fixture_free(&fx);
}

/* The terminal: the unit in the heading, aligned columns, flagged cells
 * starred; a summary a rail past RDP_MESH_PRINT_MAX_NODES. */
static void test_print_matrix(void **state)
{
	static const char *const names[] = { "a", "bb", "long-node-name" };
	struct fixture fx;
	char *t;

	(void)state;
	mesh_of(&fx, 3, 1, 2, 0, names);
	assert_int_equal(rdp_mesh_analyze(fx.m, &tol10), 3);
	t = written(fx.m, rdp_mesh_print_matrices);
	assert_string_equal(t, "rail 0: sender rows, receiver columns, Gb/s\n"
			       "tx\\rx                     a           bb "
			       "long-node-na\n"
			       "a                         -        99.75 "
			       "       99.50\n"
			       "bb                   50.00*            - "
			       "      50.00*\n"
			       "long-node-name       failed       100.00 "
			       "           -\n"
			       "* flagged\n");
	free(t);
	fixture_free(&fx);

	mesh_of(&fx, RDP_MESH_PRINT_MAX_NODES + 1, 1, 2, 0, NULL);
	assert_true(rdp_mesh_analyze(fx.m, &tol10) > 0);
	t = written(fx.m, rdp_mesh_print_matrices);
	expect_in(t, "rail 0: 1056 cells of 33 nodes, Gb/s: median ");
	expect_in(t, ", 32 flagged, 1 failed; lowest TX row node1 50.00");
	expect_in(t, "; the matrix: matrix-rail0.csv\n");
	assert_null(strstr(t, "\n\n"));
	free(t);
	fixture_free(&fx);
}

/* A status the writers do not know (one a later store may add) is
 * written by its name and counted apart, never read past a table. */
static void test_unknown_status(void **state)
{
	struct rdp_mesh_cell *c;
	struct fixture fx;
	json_t *doc;
	char *t;

	(void)state;
	mesh_of(&fx, 4, 99, 99, 0, NULL);
	assert_int_equal(rdp_mesh_analyze(fx.m, &tol10), 0);
	c = (struct rdp_mesh_cell *)rdp_mesh_cell_at(fx.m, 0);
	c->status = (enum rdp_mesh_status)(RDP_MESH_SKIPPED + 1);
	c->bw_gbps = NAN;
	doc = json_of(fx.m);
	assert_int_equal(json_integer_value(json_object_get(
				 json_object_get(doc, "totals"), "ok")),
			 11);
	json_decref(doc);
	t = written(fx.m, rdp_mesh_write_cells_jsonl);
	free(t);
	t = written(fx.m, rdp_mesh_write_cells);
	free(t);
	t = written(fx.m, rdp_mesh_write_outliers);
	free(t);
	t = written(fx.m, rdp_mesh_print_matrices);
	expect_in(t, "      ?");
	free(t);
	c->status = RDP_MESH_OK;
	fixture_free(&fx);
}

/* A skipped cell in the store: in no median, not flagged, not a failure
 * of its node's row or column, never run again, and written by every
 * writer as "skipped" with its reason. */
static void test_skipped_cells(void **state)
{
	struct rdp_mesh_cell c = {
		.tx = 1,
		.rx = 0,
		.rail = 0,
		.round = 0,
		.status = RDP_MESH_SKIPPED,
		.reason = "pruned: node1 failed against 2 of 3 "
			  "peers by round 1",
		.bw_gbps = NAN,
		.lat_us = NAN
	};
	const struct rdp_mesh_cell *d;
	struct rdp_mesh_xfer *x = NULL;
	struct rdp_mesh_pruned p = { .node = 1, .failed_peers = 2, .peers = 3 };
	struct rdp_mesh_coverage cov = { .rounds_run = 1,
					 .rounds_planned = 3,
					 .pairs_measured = 5,
					 .pairs_total = 6 };
	struct fixture fx;
	json_t *doc, *o;
	size_t n = 0, i, bad = 0;
	char *t;

	(void)state;
	/* Node 3 sends at 50 Gb/s: 3 bad cells of 12, its TX row low. */
	mesh_of(&fx, 4, 3, 99, 0, NULL);
	assert_int_equal(rdp_mesh_analyze(fx.m, &tol10), 3);
	/* Six skipped cells of node 1 would make its row and column "low"
	 * if they counted as bad; two skipped with the same text share it. */
	for (i = 0; i < 3; i++) {
		c.tx = 1;
		c.rx = (unsigned int)(i == 1 ? 2 : i == 2 ? 3 : 0);
		assert_int_equal(rdp_mesh_add(fx.m, &c), 0);
		c.tx = c.rx;
		c.rx = 1;
		assert_int_equal(rdp_mesh_add(fx.m, &c), 0);
	}
	assert_int_equal(rdp_mesh_n_skipped(fx.m), 6);
	assert_ptr_equal(rdp_mesh_cell_at(fx.m, 12)->reason,
			 rdp_mesh_cell_at(fx.m, 13)->reason);
	assert_true(rdp_mesh_cell_at(fx.m, 12)->reason != c.reason);
	/* A retest is never a skipped cell. */
	assert_int_equal(rdp_mesh_add_retest(fx.m, &c), -EINVAL);
	assert_int_equal(rdp_mesh_analyze(fx.m, &tol10), 3);
	for (i = 0; (d = rdp_mesh_cell_at(fx.m, i)); i++) {
		if (d->status == RDP_MESH_SKIPPED)
			assert_int_equal(d->cls, RDP_MESH_CLASS_NONE);
		else if (d->status != RDP_MESH_OK)
			bad++;
		if (d->status != RDP_MESH_OK && d->status != RDP_MESH_SKIPPED)
			assert_int_equal(d->cls, RDP_MESH_CLASS_TX);
	}
	assert_int_equal(bad, 3);
	/* The measured cells replace none: the matrices keep their figures. */
	assert_int_equal(rdp_mesh_retest_pairs(fx.m, &x, &n), 0);
	assert_int_equal(n, 3);
	for (i = 0; i < n; i++)
		assert_int_equal(x[i].tx, 3);
	free(x);
	assert_int_equal(rdp_mesh_set_pruned(fx.m, &p, 1), 0);
	p.node = 4;
	assert_int_equal(rdp_mesh_set_pruned(fx.m, &p, 1), -EINVAL);
	rdp_mesh_set_coverage(fx.m, &cov);
	doc = json_of(fx.m);
	assert_int_equal(
		json_integer_value(json_object_get(doc, "schema_version")), 3);
	o = json_object_get(doc, "totals");
	assert_int_equal(json_integer_value(json_object_get(o, "skipped")), 6);
	assert_int_equal(json_integer_value(json_object_get(o, "flagged")), 3);
	assert_int_equal(json_integer_value(json_object_get(o, "cells")), 18);
	o = json_array_get(json_object_get(doc, "cells"), 12);
	assert_string_equal(json_string_value(json_object_get(o, "status")),
			    "skipped");
	assert_string_equal(json_string_value(json_object_get(o, "reason")),
			    c.reason);
	assert_true(json_is_null(json_object_get(o, "bw_gbps")));
	o = json_array_get(json_object_get(doc, "pruned"), 0);
	assert_string_equal(json_string_value(json_object_get(o, "node")),
			    "node1");
	assert_int_equal(json_integer_value(json_object_get(o, "after_round")),
			 1);
	o = json_object_get(doc, "coverage");
	assert_int_equal(json_integer_value(json_object_get(o, "rounds_run")),
			 1);
	assert_true(
		json_is_false(json_object_get(o, "stopped_by_time_budget")));
	json_decref(doc);
	t = written(fx.m, rdp_mesh_write_cells_jsonl);
	expect_in(t, "\"status\":\"skipped\",\"reason\":\"pruned: node1");
	free(t);
	t = written(fx.m, rdp_mesh_write_cells);
	expect_in(t, "node1,node0,0,1,skipped,,,,,,,,pruned: node1");
	free(t);
	/* outliers.txt lists the bad cells only. */
	t = written(fx.m, rdp_mesh_write_outliers);
	expect_in(t, "3 of 12 cells are outliers");
	assert_null(strstr(t, "skipped"));
	free(t);
	t = written(fx.m, rdp_mesh_write_reach);
	assert_string_equal(t, "pruned: node1, the likely fault: failed "
			       "against 2 of 3 peers by round 1\n"
			       "coverage: 1 of 3 rounds of the plan, 5 of 6 "
			       "node pairs (83%); 6 cells skipped after "
			       "pruning\n");
	free(t);
	/* The matrices: the later skipped cell does not hide a figure. */
	t = written(fx.m, rdp_mesh_print_matrices);
	assert_null(strstr(t, "skipped"));
	free(t);
	t = written(fx.m, heatmap0);
	free(t);
	fixture_free(&fx);
}

/* A pair with a skipped cell only: "skipped" in the matrices, blank in
 * the heatmap, in the journal of its round. */
static void test_skipped_only(void **state)
{
	static const unsigned int nodes = 3;
	struct rdp_mesh_plan_opts o = { .pattern = RDP_MESH_PAIRWISE,
					.nodes = nodes };
	struct rdp_mesh_cell c = { .status = RDP_MESH_OK,
				   .bw_gbps = 100,
				   .lat_us = NAN };
	struct rdp_mesh_plan *plan = NULL;
	struct rdp_mesh *m = NULL;
	char *t = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(rdp_mesh_plan_create(&o, &plan), 0);
	assert_int_equal(rdp_mesh_create(plan, 1, NULL, &m), 0);
	c.tx = 0;
	c.rx = 1;
	assert_int_equal(rdp_mesh_add(m, &c), 0);
	c.tx = 1;
	c.rx = 0;
	c.bw_gbps = 99;
	assert_int_equal(rdp_mesh_add(m, &c), 0);
	c = (struct rdp_mesh_cell){ .tx = 2,
				    .rx = 0,
				    .round = 1,
				    .status = RDP_MESH_SKIPPED,
				    .reason = "pruned: node2",
				    .bw_gbps = NAN,
				    .lat_us = NAN };
	assert_int_equal(rdp_mesh_add(m, &c), 0);
	assert_int_equal(rdp_mesh_analyze(m, &tol10), 0);
	t = written(m, rdp_mesh_print_matrices);
	expect_in(t, "skipped");
	free(t);
	f = open_memstream(&t, &len);
	assert_non_null(f);
	assert_int_equal(rdp_mesh_write_matrix(m, 0, f), 0);
	fclose(f);
	expect_in(t, "node2,skipped,,\n");
	free(t);
	t = written(m, heatmap0);
	assert_null(strstr(t, "\n0 2 "));
	free(t);
	t = written(m, rdp_mesh_write_outliers);
	expect_in(t, "no outliers: 2 cells");
	free(t);
	f = open_memstream(&t, &len);
	assert_non_null(f);
	assert_int_equal(rdp_mesh_journal_round(m, 1, f), 0);
	fclose(f);
	expect_in(t, "\"status\":\"skipped\"");
	free(t);
	rdp_mesh_free(m);
	rdp_mesh_plan_free(plan);
}

/* A journal line holds its round's cells in the order they were added,
 * whatever rounds were added between them. */
static void test_journal_order(void **state)
{
	static const struct {
		unsigned int tx, rx, round;
	} add[] = {
		{ 0, 1, 1 }, { 2, 3, 0 }, { 1, 0, 1 }, { 3, 2, 0 }, { 0, 2, 5 }
	};
	struct rdp_mesh_plan_opts o = { .pattern = RDP_MESH_PAIRWISE,
					.nodes = 4 };
	struct rdp_mesh_cell c = { .status = RDP_MESH_OK, .lat_us = NAN };
	json_t *line, *cells;
	struct fixture fx;
	size_t i;
	char *t;

	(void)state;
	assert_int_equal(rdp_mesh_plan_create(&o, &fx.plan), 0);
	assert_int_equal(rdp_mesh_create(fx.plan, 1, NULL, &fx.m), 0);
	for (i = 0; i < 5; i++) {
		c.tx = add[i].tx;
		c.rx = add[i].rx;
		c.round = add[i].round;
		c.bw_gbps = (double)i;
		assert_int_equal(rdp_mesh_add(fx.m, &c), 0);
	}
	for (i = 0; i < 3; i++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		assert_non_null(f);
		assert_int_equal(rdp_mesh_journal_round(fx.m, i, f), 0);
		fclose(f);
		line = json_loads(buf, 0, NULL);
		assert_non_null(line);
		cells = json_object_get(line, "cells");
		assert_int_equal(json_array_size(cells), i == 2 ? 0 : 2);
		if (i < 2) {
			t = json_dumps(cells, JSON_COMPACT);
			expect_in(t, i ? "\"bw_gbps\":0.0" : "\"bw_gbps\":1.0");
			assert_true(strstr(t, i ? "\"bw_gbps\":0.0"
						: "\"bw_gbps\":1.0") <
				    strstr(t, i ? "\"bw_gbps\":2.0"
						: "\"bw_gbps\":3.0"));
			free(t);
		}
		json_decref(line);
		free(buf);
	}
	fixture_free(&fx);
}

/* jansson's real at 10 digits: "%.10g", ".0" on whole numbers, no '+'
 * and no leading zeros in the exponent. */
static void jansson_like(char *buf, size_t len, double v)
{
	json_t *j = json_real(v);
	char *t = json_dumps(j, JSON_ENCODE_ANY | JSON_REAL_PRECISION(10));

	assert_non_null(t);
	snprintf(buf, len, "%s", t);
	free(t);
	json_decref(j);
}

/* The fast figures write what printf and jansson write, on halves,
 * carries into the next power of ten, signs, tiny and huge values. */
static void test_number_text(void **state)
{
	static const double edge[] = {
		0,
		-0.0,
		0.0005,
		0.0015,
		0.0625,
		1.0005,
		2.5,
		9.9995,
		9.99999999995,
		99.99999999996,
		100,
		100.0625,
		999999.9995,
		1e6,
		123456789.5,
		999999999.9,
		1e9,
		1e10,
		1e-5,
		-42.4245,
		3.14159265358979,
		1e300,
		5e-324,
	};
	char fast[64], slow[64];
	uint64_t x = 88172645463325252ULL;
	size_t i;
	double v;

	(void)state;
	for (i = 0; i < sizeof(edge) / sizeof(edge[0]) + 200000; i++) {
		if (i < sizeof(edge) / sizeof(edge[0])) {
			v = edge[i];
		} else {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			/* Figures as measured, and values on a 1/16 grid. */
			v = i % 2 ? (double)(x % 2000000) / 16
				  : (double)(x >> 11) / (1ULL << 53) *
					    pow(10, (double)(x % 12) - 2);
		}
		rdp_mesh_fmt_fixed3(fast, sizeof(fast), v);
		snprintf(slow, sizeof(slow), "%.3f", v);
		if (strcmp(fast, slow))
			fail_msg("%.17g: %%.3f %s, fast %s", v, slow, fast);
		rdp_mesh_fmt_real10(fast, sizeof(fast), v);
		jansson_like(slow, sizeof(slow), v);
		if (strcmp(fast, slow))
			fail_msg("%.17g: jansson %s, fast %s", v, slow, fast);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cells_jsonl),
		cmocka_unit_test(test_json_identity),
		cmocka_unit_test(test_json_summary),
		cmocka_unit_test(test_heatmap_groups),
		cmocka_unit_test(test_heatmap_consecutive),
		cmocka_unit_test(test_print_matrix),
		cmocka_unit_test(test_unknown_status),
		cmocka_unit_test(test_number_text),
		cmocka_unit_test(test_journal_order),
		cmocka_unit_test(test_skipped_cells),
		cmocka_unit_test(test_skipped_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
