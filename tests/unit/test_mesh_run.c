/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The MPI-free parts of rdmaperf-mesh's run: node names (RDP_MESH_NODE
 * with %r), nodes and rails grouped from every rank's endpoint, a
 * cell's figures from the results a client session hands back, and the
 * decisions between rounds: the time budget, the pruning rule, resume's
 * reading of the journal and the files' coverage.
 */
#include <errno.h>
#include <math.h>
#include <unistd.h>
#include <jansson.h>

#include "unit.h"

#include <rdmaperf/bench.h>
#include <rdmaperf/mesh_run.h>
#include <rdmaperf/session.h>

static void test_node_names(void **state)
{
	char buf[16];

	(void)state;
	assert_int_equal(
		rdp_mesh_node_name_of(NULL, 3, "hostA", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "hostA");
	assert_int_equal(
		rdp_mesh_node_name_of("", 3, "hostA", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "hostA");
	assert_int_equal(
		rdp_mesh_node_name_of("node%r", 12, "h", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "node12");
	assert_int_equal(
		rdp_mesh_node_name_of("a%rb%r%", 7, "h", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "a7b7%");
	assert_int_equal(rdp_mesh_node_name_of("0123456789abcdef", 0, "h", buf,
					       sizeof(buf)),
			 -ENAMETOOLONG);
	assert_int_equal(rdp_mesh_node_name_of("node%r", 123456789, "h", buf,
					       10),
			 -ENAMETOOLONG);
	assert_int_equal(rdp_mesh_node_name_of(NULL, 0, "", buf, sizeof(buf)),
			 -ENAMETOOLONG);
}

static void set_nodes(struct rdp_mesh_endpoint *eps, const char *const *n,
		      int count)
{
	int i;

	memset(eps, 0, sizeof(*eps) * (size_t)count);
	for (i = 0; i < count; i++)
		snprintf(eps[i].node, sizeof(eps[i].node), "%s", n[i]);
}

/* Ranks of a node need not be next to each other: the rail is a rank's
 * place among its node's ranks, nodes numbered by their first rank. */
/* What rdp_mesh_group made of up to 6 ranks. */
struct grouping {
	struct rdp_mesh_endpoint eps[6];
	unsigned int node_of[6], rail_of[6], nodes, rails;
	const char *names[6];
};

/* Group N ranks on the nodes named in NODES; rdp_mesh_group's return. */
static int group(struct grouping *g, const char *const *nodes, int n)
{
	assert_true(n <= (int)(sizeof(g->eps) / sizeof(g->eps[0])));
	set_nodes(g->eps, nodes, n);
	return rdp_mesh_group(g->eps, n, g->node_of, g->rail_of, g->names,
			      &g->nodes, &g->rails);
}

static void test_group(void **state)
{
	static const char *const n[] = { "b", "a", "b", "c", "a", "c" };
	struct grouping g = { .nodes = 0 };

	(void)state;
	assert_int_equal(group(&g, n, 6), 0);
	assert_int_equal(g.nodes, 3);
	assert_int_equal(g.rails, 2);
	assert_string_equal(g.names[0], "b");
	assert_string_equal(g.names[1], "a");
	assert_string_equal(g.names[2], "c");
	assert_int_equal(g.node_of[0], 0);
	assert_int_equal(g.node_of[1], 1);
	assert_int_equal(g.node_of[2], 0);
	assert_int_equal(g.node_of[5], 2);
	assert_int_equal(g.rail_of[0], 0);
	assert_int_equal(g.rail_of[2], 1);
	assert_int_equal(g.rail_of[4], 1);
}

static void test_group_refused(void **state)
{
	static const char *const uneven[] = { "a", "a", "b" };
	static const char *const one[] = { "a", "a" };
	struct grouping g = { .nodes = 0 };

	(void)state;
	assert_int_equal(group(&g, uneven, 3), -EINVAL);
	assert_int_equal(group(&g, one, 2), -EINVAL);
	assert_int_equal(g.nodes, 0);
}

/* The last point's figures (the receiver's under -b), every point's
 * time; what a point lacks is NaN. */
static void test_figures_of_results(void **state)
{
	struct rdp_result pts[2] = {
		{ .elapsed_ns = 1.5e9, .bw_avg_gbps = 10 },
		{ .elapsed_ns = 0.5e9,
		  .bw_avg_gbps = 90.5,
		  .bidir = 1,
		  .rx_bw_avg_gbps = 80.25 },
	};
	struct rdp_session_results r = { .points = pts, .n = 2 };
	struct rdp_mesh_figures f;

	(void)state;
	rdp_mesh_figures_of(&r, &f);
	assert_true(f.bw_gbps == 90.5);
	assert_true(f.rx_bw_gbps == 80.25);
	assert_true(isnan(f.lat_us)); /* no samples */
	assert_true(f.measured_s == 2.0);

	pts[1].bidir = 0;
	pts[1].lat.n = 100;
	pts[1].lat.median_ns = 2500;
	pts[1].bw_avg_gbps = NAN;
	rdp_mesh_figures_of(&r, &f);
	assert_true(isnan(f.bw_gbps));
	assert_true(isnan(f.rx_bw_gbps));
	assert_true(f.lat_us == 2.5);

	r.n = 0;
	rdp_mesh_figures_of(&r, &f);
	assert_true(isnan(f.bw_gbps) && isnan(f.lat_us));
	assert_true(f.measured_s == 0);
}

/* The next round fits when the time so far plus the mean round does. */
static void test_budget(void **state)
{
	double s = 0;

	(void)state;
	assert_true(rdp_mesh_budget_allows(0, 1e9, 1e9, 1)); /* none */
	assert_true(rdp_mesh_budget_allows(60, 5, 0, 0));    /* no round yet */
	assert_false(rdp_mesh_budget_allows(60, 61, 0, 0));
	/* 3 rounds of 10 s after 5 s of bootstrap: 35 + 10 fits 45 ... */
	assert_true(rdp_mesh_budget_allows(45, 35, 30, 3));
	/* ... not 44.9. */
	assert_false(rdp_mesh_budget_allows(44.9, 35, 30, 3));
	assert_int_equal(rdp_mesh_parse_duration("90", &s), 0);
	assert_true(s == 90);
	assert_int_equal(rdp_mesh_parse_duration("90s", &s), 0);
	assert_true(s == 90);
	assert_int_equal(rdp_mesh_parse_duration("30m", &s), 0);
	assert_true(s == 1800);
	assert_int_equal(rdp_mesh_parse_duration("1.5h", &s), 0);
	assert_true(s == 5400);
	assert_int_equal(rdp_mesh_parse_duration("0", &s), -EINVAL);
	assert_int_equal(rdp_mesh_parse_duration("-5m", &s), -EINVAL);
	assert_int_equal(rdp_mesh_parse_duration("5d", &s), -EINVAL);
	assert_int_equal(rdp_mesh_parse_duration("m", &s), -EINVAL);
	assert_int_equal(rdp_mesh_parse_duration("", &s), -EINVAL);
	assert_int_equal(rdp_mesh_parse_duration("nan", &s), -EINVAL);
}

/* Round k's transfers of a 4-node pairwise plan (no -b) into the
 * pruning, node `dead` failing every cell from round `from` on. */
static void feed_round(struct rdp_mesh_prune *p, struct rdp_mesh_plan *plan,
		       size_t k, unsigned int dead, size_t from)
{
	struct rdp_mesh_xfer x[2];
	size_t n = rdp_mesh_plan_round(plan, k, x), i;

	for (i = 0; i < n; i++)
		rdp_mesh_prune_note(p, x[i].tx, x[i].rx,
				    k >= from && (x[i].tx == dead ||
						  x[i].rx == dead));
}

static struct rdp_mesh_plan *pairwise4(void)
{
	struct rdp_mesh_plan_opts o = { .pattern = RDP_MESH_PAIRWISE,
					.nodes = 4 };
	struct rdp_mesh_plan *plan = NULL;

	assert_int_equal(rdp_mesh_plan_create(&o, &plan), 0);
	return plan;
}

/*
 * A node dead from round 2 (0-based 1) of 0->3 1->2 | 3->0 2->1 | 3->1
 * 2->0 ...: after round 3 it failed against both peers it met since,
 * and is pruned; its peers, each failed once against it, are not.
 */
static void test_prune_dead_node(void **state)
{
	struct rdp_mesh_plan *plan = pairwise4();
	struct rdp_mesh_prune p;
	char why[96];
	size_t k;

	(void)state;
	assert_int_equal(rdp_mesh_prune_init(&p, 4), 0);
	for (k = 0; k < 2; k++) {
		feed_round(&p, plan, k, 3, 1);
		assert_int_equal(rdp_mesh_prune_decide(&p, k), 0);
	}
	feed_round(&p, plan, 2, 3, 1);
	assert_int_equal(rdp_mesh_prune_decide(&p, 2), 1);
	assert_true(p.after[3] == 2);
	assert_true(p.after[0] < 0 && p.after[1] < 0 && p.after[2] < 0);
	assert_false(rdp_mesh_pruned_before(&p, 3, 2));
	assert_true(rdp_mesh_pruned_before(&p, 3, 3));
	rdp_mesh_prune_reason(&p, 3, why, sizeof(why));
	assert_string_equal(why, "failed against 2 of 2 peers by round 3");
	rdp_mesh_prune_reason(&p, 0, why, sizeof(why));
	assert_string_equal(why, "not pruned");
	/* Later rounds leave it out; nobody else follows. */
	for (k = 3; k < 6; k++) {
		feed_round(&p, plan, k, 3, 1);
		assert_int_equal(rdp_mesh_prune_decide(&p, k), 0);
	}
	rdp_mesh_prune_fini(&p);
	rdp_mesh_plan_free(plan);
}

/* One bad link (both ways) names no node; a node failing against
 * fewer than half of its peers neither, at half it is pruned. */
static void test_prune_link_and_half(void **state)
{
	struct rdp_mesh_prune p;

	(void)state;
	assert_int_equal(rdp_mesh_prune_init(&p, 6), 0);
	rdp_mesh_prune_note(&p, 0, 1, 1);
	rdp_mesh_prune_note(&p, 1, 0, 1);
	rdp_mesh_prune_note(&p, 0, 2, 0);
	rdp_mesh_prune_note(&p, 1, 3, 0);
	assert_int_equal(rdp_mesh_prune_decide(&p, 0), 0);
	/* Node 5: failed against 2 of 5 peers... */
	rdp_mesh_prune_note(&p, 5, 2, 1);
	rdp_mesh_prune_note(&p, 3, 5, 1);
	rdp_mesh_prune_note(&p, 5, 0, 0);
	rdp_mesh_prune_note(&p, 1, 5, 0);
	rdp_mesh_prune_note(&p, 5, 4, 0);
	assert_int_equal(rdp_mesh_prune_decide(&p, 1), 0);
	/* ... and 3 of 5 once its cell to 4 fails too. */
	rdp_mesh_prune_note(&p, 4, 5, 1);
	assert_int_equal(rdp_mesh_prune_decide(&p, 2), 1);
	assert_true(p.after[5] == 2);
	assert_true(p.failed[5] == 3 && p.met[5] == 5);
	assert_true(p.after[0] < 0 && p.after[1] < 0 && p.after[4] < 0);
	/* Out of range and self cells are ignored. */
	rdp_mesh_prune_note(&p, 9, 0, 1);
	rdp_mesh_prune_note(&p, 2, 2, 1);
	assert_int_equal(rdp_mesh_prune_decide(&p, 3), 0);
	rdp_mesh_prune_fini(&p);
}

/* Nodes 0, 1 and 4 each failed against at least two peers: 4, with
 * the most, goes first, and the others are judged without it. */
static void test_prune_order(void **state)
{
	struct rdp_mesh_prune p;

	(void)state;
	assert_int_equal(rdp_mesh_prune_init(&p, 5), 0);
	/* Node 4 dead to 0, 1, 2; 0 and 1 also failed against each other. */
	rdp_mesh_prune_note(&p, 4, 0, 1);
	rdp_mesh_prune_note(&p, 1, 4, 1);
	rdp_mesh_prune_note(&p, 4, 2, 1);
	rdp_mesh_prune_note(&p, 0, 1, 1);
	rdp_mesh_prune_note(&p, 0, 3, 0);
	assert_int_equal(rdp_mesh_prune_decide(&p, 4), 1);
	assert_true(p.after[4] == 4);
	assert_true(p.after[0] < 0 && p.after[1] < 0 && p.after[2] < 0);
	rdp_mesh_prune_fini(&p);
}

/* A journal in a memory file. */
static FILE *text_file(const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");

	assert_non_null(f);
	return f;
}

static int read_text(const char *text, size_t rounds,
		     struct rdp_mesh_journal *j, char *why, size_t len)
{
	FILE *f = text_file(text);
	int ret = rdp_mesh_journal_read(f, rounds, j, why, len);

	fclose(f);
	return ret;
}

/* Whole rounds kept; a last line cut short (no newline, or not JSON)
 * dropped, and the retest rounds with what follows them. */
static void test_journal_read(void **state)
{
	static const char two[] = "{\"round\":1,\"pairs\":[],\"cells\":[]}\n"
				  "{\"round\":2,\"pairs\":[],\"cells\":[]}\n";
	struct rdp_mesh_journal j;
	char why[128], text[512];

	(void)state;
	assert_int_equal(read_text(two, 6, &j, why, sizeof(why)), 0);
	assert_int_equal(j.n, 2);
	assert_int_equal(j.good_bytes, (long)strlen(two));
	rdp_mesh_journal_free(&j);

	snprintf(text, sizeof(text), "%s{\"round\":3,\"pairs\":[{\"tx\"", two);
	assert_int_equal(read_text(text, 6, &j, why, sizeof(why)), 0);
	assert_int_equal(j.n, 2);
	assert_int_equal(j.good_bytes, (long)strlen(two));
	rdp_mesh_journal_free(&j);

	snprintf(text, sizeof(text), "%s{\"round\":3,\"pa\n", two);
	assert_int_equal(read_text(text, 6, &j, why, sizeof(why)), 0);
	assert_int_equal(j.n, 2);
	rdp_mesh_journal_free(&j);

	snprintf(text, sizeof(text),
		 "%s{\"round\":3,\"retest\":true,\"cells\":[]}\n"
		 "{\"round\":4,\"retest\":true,\"cells\":[]}\n",
		 two);
	assert_int_equal(read_text(text, 2, &j, why, sizeof(why)), 0);
	assert_int_equal(j.n, 2);
	assert_int_equal(j.good_bytes, (long)strlen(two));
	rdp_mesh_journal_free(&j);

	assert_int_equal(read_text("", 6, &j, why, sizeof(why)), 0);
	assert_int_equal(j.n, 0);
	assert_int_equal(j.good_bytes, 0);
	rdp_mesh_journal_free(&j);
}

static void test_journal_refused(void **state)
{
	struct rdp_mesh_journal j;
	char why[128];

	(void)state;
	/* A round missing. */
	assert_int_equal(read_text("{\"round\":1}\n{\"round\":3}\n", 6, &j, why,
				   sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "line 2 is not round 2 of 6"));
	/* A broken line with whole lines after it. */
	assert_int_equal(read_text("{\"round\":1}\nxx\n{\"round\":2}\n", 6, &j,
				   why, sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "line 2 is not a round"));
	/* More rounds than the plan. */
	assert_int_equal(read_text("{\"round\":1}\n{\"round\":2}\n", 1, &j, why,
				   sizeof(why)),
			 -EINVAL);
}

/* The store's own journal read back: its rounds match the plan, its
 * cells come back as they went in; another plan is refused. */
static void test_journal_round_trip(void **state)
{
	static const char *const names[] = { "a", "b", "c", "d" };
	struct rdp_mesh_plan *plan = pairwise4(), *other = NULL;
	struct rdp_mesh_plan_opts bis = { .pattern = RDP_MESH_BISECTION,
					  .nodes = 4,
					  .permutations = 2,
					  .seed = 7 };
	struct rdp_mesh_cell c = { .tx = 0,
				   .rx = 3,
				   .status = RDP_MESH_OK,
				   .bw_gbps = 12.34567,
				   .lat_us = NAN,
				   .line_gbps = 25 };
	struct rdp_mesh_journal j;
	struct rdp_mesh *m = NULL;
	char *buf = NULL, why[160];
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(rdp_mesh_create(plan, 1, names, &m), 0);
	c.result = json_pack("{s:i}", "x", 1);
	assert_int_equal(rdp_mesh_add(m, &c), 0);
	c = (struct rdp_mesh_cell){ .tx = 1,
				    .rx = 2,
				    .status = RDP_MESH_FAILED,
				    .reason = "timed out",
				    .bw_gbps = NAN,
				    .lat_us = NAN };
	assert_int_equal(rdp_mesh_add(m, &c), 0);
	f = open_memstream(&buf, &len);
	assert_int_equal(rdp_mesh_journal_round(m, 0, f), 0);
	fclose(f);
	assert_int_equal(read_text(buf, 6, &j, why, sizeof(why)), 0);
	assert_int_equal(j.n, 1);
	assert_int_equal(
		rdp_mesh_journal_check(&j, plan, names, why, sizeof(why)), 0);
	assert_int_equal(
		rdp_mesh_cell_from_json(
			json_array_get(json_object_get(j.lines[0], "cells"), 0),
			names, 4, &c),
		0);
	assert_true(c.tx == 0 && c.rx == 3 && c.round == 0 && c.rail == 0);
	assert_int_equal(c.status, RDP_MESH_OK);
	assert_true(c.bw_gbps == 12.34567 && isnan(c.lat_us));
	assert_true(c.line_gbps == 25);
	assert_int_equal(json_integer_value(json_object_get(c.result, "x")), 1);
	json_decref(c.result);
	assert_int_equal(
		rdp_mesh_cell_from_json(
			json_array_get(json_object_get(j.lines[0], "cells"), 1),
			names, 4, &c),
		0);
	assert_int_equal(c.status, RDP_MESH_FAILED);
	assert_string_equal(c.reason, "timed out");
	assert_null(c.result);
	/* Not a node of this mesh. */
	assert_int_equal(
		rdp_mesh_cell_from_json(
			json_array_get(json_object_get(j.lines[0], "cells"), 0),
			names + 1, 3, &c),
		-EINVAL);
	assert_int_equal(rdp_mesh_plan_create(&bis, &other), 0);
	assert_int_equal(rdp_mesh_journal_check(&j, other, names, why,
						sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "round 1 of the journal"));
	rdp_mesh_journal_free(&j);
	rdp_mesh_plan_free(other);
	free(buf);
	rdp_mesh_free(m);
	rdp_mesh_plan_free(plan);
}

/* The record --resume checks names the first difference. */
static void test_run_record(void **state)
{
	static const char *const names[] = { "a", "b", "c", "d" };
	struct rdp_mesh_plan_opts o = { .pattern = RDP_MESH_BISECTION,
					.nodes = 4,
					.permutations = 1,
					.seed = 3 };
	json_t *a, *b;
	char why[160];

	(void)state;
	a = rdp_mesh_run_record(&o, names, 1, "write_bw -n 200");
	b = rdp_mesh_run_record(&o, names, 1, "write_bw -n 200");
	assert_non_null(a);
	assert_int_equal(rdp_mesh_run_record_check(a, b, why, sizeof(why)), 0);
	json_decref(b);
	o.seed = 4;
	b = rdp_mesh_run_record(&o, names, 1, "write_bw -n 200");
	assert_int_equal(rdp_mesh_run_record_check(a, b, why, sizeof(why)),
			 -EINVAL);
	assert_string_equal(why, "seed was 3 there, is 4 here");
	json_decref(b);
	o.seed = 3;
	b = rdp_mesh_run_record(&o, names, 1, "write_bw -n 100");
	assert_int_equal(rdp_mesh_run_record_check(a, b, why, sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "test was \"write_bw -n 200\""));
	assert_int_equal(rdp_mesh_run_record_check(NULL, b, why, sizeof(why)),
			 -EINVAL);
	json_decref(a);
	json_decref(b);
}

/* A file of dir, removed if there. */
static void rm_in(const char *dir, const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
}

/* Whether the last line of path holds text. */
static int last_line_has(const char *path, const char *text)
{
	char line[4096], last[4096] = "";
	FILE *f = fopen(path, "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		memcpy(last, line, sizeof(last));
	fclose(f);
	return strstr(last, text) != NULL;
}

/* Whether the file name of dir holds text. */
static int file_has(const char *dir, const char *name, const char *text)
{
	char path[512], buf[8192];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return strstr(buf, text) != NULL;
}

/* The coverage and the pruning, set on the store at the end of a run:
 * node d pruned after round 1 leaves d->a of round 2 out; every file
 * has it from the store. */
static void test_reach_store(void **state)
{
	static const char *const names[] = { "a", "b", "c", "d" };
	static const char *const files[] = {
		"mesh.json",	"cells.csv",	    "cells.jsonl",
		"outliers.txt", "matrix-rail0.csv", "heatmap-rail0.svg",
	};
	struct rdp_mesh_plan *plan = pairwise4();
	struct rdp_mesh_limits lim = { .tol = 0.1 };
	struct rdp_mesh_cell c = { .status = RDP_MESH_OK,
				   .bw_gbps = 10,
				   .lat_us = NAN };
	struct rdp_mesh_prune p;
	struct rdp_mesh_reach f = {
		.plan = plan,
		.nodes = 4,
		.rails = 1,
		.prune = &p,
		.cov = { .rounds_run = 2,
			 .rounds_planned = 6,
			 .stopped = 1,
			 .budget_s = 60 },
	};
	struct rdp_mesh *m = NULL;
	struct rdp_mesh_xfer *x = NULL;
	char dir[] = "/tmp/test_mesh_run.XXXXXX", path[64], *text = NULL;
	json_t *doc, *sk, *cov;
	json_error_t err;
	size_t skipped = 0, i, n = 0, len = 0;
	FILE *mem;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(rdp_mesh_create(plan, 1, names, &m), 0);
	/* Round 1: a->d failed, b->c; round 2: c->b only. */
	c.tx = 1;
	c.rx = 2;
	assert_int_equal(rdp_mesh_add(m, &c), 0);
	c.tx = 2;
	c.rx = 1;
	c.round = 1;
	assert_int_equal(rdp_mesh_add(m, &c), 0);
	c = (struct rdp_mesh_cell){ .tx = 0,
				    .rx = 3,
				    .status = RDP_MESH_FAILED,
				    .reason = "timed out",
				    .bw_gbps = NAN,
				    .lat_us = NAN };
	assert_int_equal(rdp_mesh_add(m, &c), 0);
	assert_int_equal(rdp_mesh_prune_init(&p, 4), 0);
	p.after[3] = 0; /* as the rule would with more cells */
	p.failed[3] = p.met[3] = 2;
	f.mesh = m;
	assert_int_equal(rdp_mesh_reach_store(&f, &skipped), 0);
	assert_int_equal(skipped, 1);
	assert_int_equal(rdp_mesh_n_skipped(m), 1);
	assert_int_equal(rdp_mesh_n_cells(m), 4);
	/* The skipped cell is no pair measured. */
	assert_true(f.cov.pairs_measured == 2 && f.cov.pairs_total == 6);
	assert_int_equal(rdp_mesh_coverage_of(m, 4, &f.cov), 0);
	assert_int_equal(f.cov.pairs_measured, 2);
	/* Only a->d is bad: the skipped d->a is neither flagged nor run
	 * again. */
	assert_int_equal(rdp_mesh_analyze(m, &lim), 1);
	assert_int_equal(rdp_mesh_cell_at(m, 3)->status, RDP_MESH_SKIPPED);
	assert_int_equal(rdp_mesh_cell_at(m, 3)->cls, RDP_MESH_CLASS_NONE);
	assert_int_equal(rdp_mesh_retest_pairs(m, &x, &n), 0);
	assert_int_equal(n, 1);
	assert_true(x[0].tx == 0 && x[0].rx == 3);
	free(x);
	i = (size_t)rdp_mesh_write_dir(m, dir); /* -ENOENT: no gnuplot */
	assert_true(i == 0 || (int)i == -ENOENT);
	snprintf(path, sizeof(path), "%s/mesh.json", dir);
	doc = json_load_file(path, 0, &err);
	assert_non_null(doc);
	assert_int_equal(
		json_integer_value(json_object_get(doc, "schema_version")), 3);
	assert_int_equal(json_integer_value(json_object_get(
				 json_object_get(doc, "totals"), "skipped")),
			 1);
	assert_int_equal(json_integer_value(json_object_get(
				 json_object_get(doc, "totals"), "failed")),
			 1);
	cov = json_object_get(doc, "coverage");
	assert_int_equal(
		json_integer_value(json_object_get(cov, "pairs_measured")), 2);
	assert_int_equal(
		json_integer_value(json_object_get(cov, "rounds_planned")), 6);
	assert_true(
		json_is_true(json_object_get(cov, "stopped_by_time_budget")));
	assert_true(json_real_value(json_object_get(cov, "time_budget_s")) ==
		    60);
	sk = json_array_get(json_object_get(doc, "cells"), 3);
	assert_string_equal(json_string_value(json_object_get(sk, "status")),
			    "skipped");
	assert_string_equal(json_string_value(json_object_get(sk, "tx")), "d");
	assert_int_equal(json_integer_value(json_object_get(sk, "round")), 2);
	assert_string_equal(json_string_value(json_object_get(sk, "reason")),
			    "pruned: d failed against 2 of 2 peers by round 1");
	assert_null(json_object_get(sk, "class"));
	sk = json_array_get(json_object_get(doc, "pruned"), 0);
	assert_string_equal(json_string_value(json_object_get(sk, "node")),
			    "d");
	assert_int_equal(json_integer_value(json_object_get(sk, "after_round")),
			 1);
	assert_int_equal(
		json_integer_value(json_object_get(sk, "failed_peers")), 2);
	assert_int_equal(json_integer_value(json_object_get(sk, "peers")), 2);
	assert_string_equal(json_string_value(json_object_get(sk, "reason")),
			    "failed against 2 of 2 peers by round 1");
	json_decref(doc);
	/* The streamable files have it too, on their last line. */
	snprintf(path, sizeof(path), "%s/cells.jsonl", dir);
	assert_true(last_line_has(path, "\"status\":\"skipped\""));
	snprintf(path, sizeof(path), "%s/cells.csv", dir);
	assert_true(last_line_has(path, "d,a,0,2,skipped,,,,,,,,pruned: d"));
	assert_true(file_has(dir, "matrix-rail0.csv", "d,skipped,"));
	assert_true(file_has(dir, "outliers.txt",
			     "\npruned: d, the likely fault: failed against 2 "
			     "of 2 peers by round 1\ncoverage: 2 of 6 rounds"));
	assert_false(file_has(dir, "outliers.txt", "skipped: rail"));
	/* The terminal's words, from the store. */
	mem = open_memstream(&text, &len);
	assert_non_null(mem);
	assert_int_equal(rdp_mesh_write_reach(m, mem), 0);
	fclose(mem);
	assert_string_equal(text,
			    "pruned: d, the likely fault: failed against 2 of "
			    "2 peers by round 1\n"
			    "coverage: 2 of 6 rounds of the plan, 2 of 6 node "
			    "pairs (33%); 1 cells skipped after pruning; "
			    "stopped by --time-budget 60 s\n");
	free(text);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		rm_in(dir, files[i]);
	assert_int_equal(rmdir(dir), 0);
	rdp_mesh_prune_fini(&p);
	rdp_mesh_free(m);
	rdp_mesh_plan_free(plan);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_node_names),
		cmocka_unit_test(test_group),
		cmocka_unit_test(test_group_refused),
		cmocka_unit_test(test_figures_of_results),
		cmocka_unit_test(test_budget),
		cmocka_unit_test(test_prune_dead_node),
		cmocka_unit_test(test_prune_link_and_half),
		cmocka_unit_test(test_prune_order),
		cmocka_unit_test(test_journal_read),
		cmocka_unit_test(test_journal_refused),
		cmocka_unit_test(test_journal_round_trip),
		cmocka_unit_test(test_run_record),
		cmocka_unit_test(test_reach_store),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
