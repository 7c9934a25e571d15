/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The congestion patterns: incast (every node receives once a sweep from
 * K distinct senders, none its own, each node sending K times; a sample
 * of R receivers; the victim beside the load) and alltoall (every
 * ordered pair in one round), their counts and estimates, the option
 * refusals, the impact factor and how mesh.json and the text say it.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "tool_out.h"

#include <jansson.h>

#include <rdmaperf/mesh.h>
#include <rdmaperf/mesh_plan.h>
#include <rdmaperf/mesh_run.h>

#define MAX_N 16

static struct rdp_mesh_plan *make(enum rdp_mesh_pattern pat, unsigned int n,
				  unsigned int k, unsigned int rounds,
				  enum rdp_mesh_victim victim)
{
	struct rdp_mesh_plan_opts o = { .pattern = pat,
					.nodes = n,
					.fan_in = k,
					.rounds = rounds,
					.victim = victim };
	struct rdp_mesh_plan *p = NULL;

	assert_int_equal(rdp_mesh_plan_create(&o, &p), 0);
	assert_non_null(p);
	return p;
}

/* An incast sweep of n nodes, fan-in k: each round K distinct senders
 * into one receiver, none sending to itself; every node receives once
 * and sends k times. */
static void incast_sweep(unsigned int n, unsigned int k)
{
	struct rdp_mesh_plan *p = make(RDP_MESH_INCAST, n, k, 0, 0);
	unsigned int recv[MAX_N] = { 0 }, sent[MAX_N] = { 0 }, i;
	unsigned char seen[MAX_N];
	struct rdp_mesh_xfer x[MAX_N], v;
	size_t r, j, cnt;

	assert_int_equal(rdp_mesh_plan_rounds(p), n);
	assert_int_equal(rdp_mesh_plan_width(p), k);
	assert_int_equal(rdp_mesh_plan_fan(p, 1), k);
	assert_int_equal(rdp_mesh_plan_fan(p, 0), 1);
	assert_int_equal(rdp_mesh_plan_phases(p), 1);
	for (r = 0; r < n; r++) {
		cnt = rdp_mesh_plan_round(p, r, x);
		assert_int_equal(cnt, k);
		memset(seen, 0, sizeof(seen));
		for (j = 0; j < cnt; j++) {
			assert_true(x[j].tx < n && x[j].rx < n);
			assert_int_not_equal(x[j].tx, x[j].rx);
			assert_int_equal(x[j].rx, x[0].rx);
			assert_int_equal(x[j].both, 0);
			assert_false(seen[x[j].tx]); /* K distinct senders */
			seen[x[j].tx] = 1;
			sent[x[j].tx]++;
		}
		recv[x[0].rx]++;
		assert_int_equal(rdp_mesh_plan_victim(p, r, &v), 0);
	}
	assert_int_equal(rdp_mesh_plan_round(p, n, x), 0);
	for (i = 0; i < n; i++) {
		assert_int_equal(recv[i], 1);
		assert_int_equal(sent[i], k);
	}
	rdp_mesh_plan_free(p);
}

static void test_incast_plan(void **state)
{
	unsigned int n, k;

	(void)state;
	for (n = 2; n <= MAX_N; n++)
		for (k = 1; k < n; k++)
			incast_sweep(n, k);
}

/* --rounds R: R distinct receivers spread over the nodes; the victim
 * is outside the receiver and its senders. */
static void test_incast_sample_victim(void **state)
{
	struct rdp_mesh_plan *p =
		make(RDP_MESH_INCAST, 12, 3, 4, RDP_MESH_VICTIM_LAT);
	static const unsigned int rx[4] = { 0, 3, 6, 9 };
	struct rdp_mesh_xfer x[8], v;
	size_t r, j;

	(void)state;
	assert_int_equal(rdp_mesh_plan_rounds(p), 4);
	assert_int_equal(rdp_mesh_plan_fan(p, 1), 4); /* K + the victim */
	assert_int_equal(rdp_mesh_plan_phases(p), 2);
	for (r = 0; r < 4; r++) {
		assert_int_equal(rdp_mesh_plan_round(p, r, x), 3);
		for (j = 0; j < 3; j++) {
			assert_int_equal(x[j].rx, rx[r]);
			assert_int_equal(x[j].tx, (rx[r] + 1 + j) % 12);
		}
		assert_int_equal(rdp_mesh_plan_victim(p, r, &v), 1);
		assert_int_equal(v.rx, rx[r]);
		assert_int_equal(v.tx, (rx[r] + 4) % 12);
		for (j = 0; j < 3; j++)
			assert_int_not_equal(v.tx, x[j].tx);
	}
	assert_int_equal(rdp_mesh_plan_victim(p, 4, &v), 0);
	rdp_mesh_plan_free(p);
	/* The last node's victim wraps around: 4 nodes, K = 2. */
	p = make(RDP_MESH_INCAST, 4, 2, 0, RDP_MESH_VICTIM_BW);
	assert_int_equal(rdp_mesh_plan_victim(p, 3, &v), 1);
	assert_int_equal(v.rx, 3);
	assert_int_equal(v.tx, 2);
	rdp_mesh_plan_free(p);
}

static void test_alltoall_plan(void **state)
{
	struct rdp_mesh_plan *p;
	static struct rdp_mesh_xfer x[MAX_N * MAX_N];
	unsigned int met[MAX_N][MAX_N], n, a, b;
	struct rdp_mesh_plan_count c;
	struct rdp_mesh_xfer v;
	size_t j, cnt;

	(void)state;
	for (n = 2; n <= MAX_N; n++) {
		p = make(RDP_MESH_ALLTOALL, n, 0, 0, 0);
		assert_int_equal(rdp_mesh_plan_rounds(p), 1);
		assert_int_equal(rdp_mesh_plan_width(p), n * (n - 1));
		assert_int_equal(rdp_mesh_plan_fan(p, 1), n - 1);
		assert_int_equal(rdp_mesh_plan_fan(p, 0), n - 1);
		memset(met, 0, sizeof(met));
		cnt = rdp_mesh_plan_round(p, 0, x);
		assert_int_equal(cnt, n * (n - 1));
		for (j = 0; j < cnt; j++) {
			assert_int_not_equal(x[j].tx, x[j].rx);
			met[x[j].tx][x[j].rx]++;
		}
		for (a = 0; a < n; a++)
			for (b = 0; b < n; b++)
				assert_int_equal(met[a][b], a != b);
		assert_int_equal(rdp_mesh_plan_round(p, 1, x), 0);
		assert_int_equal(rdp_mesh_plan_victim(p, 0, &v), 0);
		assert_int_equal(rdp_mesh_plan_count(p, 5, &c), 0);
		assert_int_equal(c.rounds, 1);
		assert_int_equal(c.cells, n * (n - 1));
		assert_int_equal(c.pairs_met, c.pairs_all);
		rdp_mesh_plan_free(p);
	}
}

static void test_counts(void **state)
{
	struct rdp_mesh_plan *p = make(RDP_MESH_INCAST, 10, 3, 0, 0);
	struct rdp_mesh_fit_opts f = { .round_s = 2,
				       .overhead_s = 0.5,
				       .rails = 1 };
	struct rdp_mesh_plan_count c;
	struct rdp_mesh_fit e;

	(void)state;
	assert_int_equal(rdp_mesh_plan_count(p, 100, &c), 0);
	assert_int_equal(c.rounds, 10);
	assert_int_equal(c.transfers, 30);
	assert_int_equal(c.cells, 30);
	assert_int_equal(c.pairs_met, 30);
	assert_int_equal(c.pairs_all, 90);
	assert_int_equal(rdp_mesh_plan_fit(p, &f, &e), 0);
	assert_true(fabs(e.wall_s - 25) < 1e-9);
	rdp_mesh_plan_free(p);
	/* With a victim each round measures twice. */
	p = make(RDP_MESH_INCAST, 10, 3, 0, RDP_MESH_VICTIM_LAT);
	assert_int_equal(rdp_mesh_plan_fit(p, &f, &e), 0);
	assert_true(fabs(e.round_s - 5) < 1e-9);
	assert_true(fabs(e.wall_s - 50) < 1e-9);
	rdp_mesh_plan_free(p);
}

/* The refusals, one line each, as rdmaperf-mesh and --plan say them. */
static void test_refusals(void **state)
{
	static const struct {
		enum rdp_mesh_pattern pat;
		unsigned int n, k, rounds;
		enum rdp_mesh_victim victim;
		int bidir;
		const char *why;
	} rows[] = {
		{ RDP_MESH_INCAST, 4, 0, 0, 0, 0,
		  "--pattern incast needs --fan-in K, the senders into one "
		  "receiver" },
		{ RDP_MESH_INCAST, 4, 4, 0, 0, 0,
		  "--fan-in takes 1 to 3 for this many nodes, not 4: the "
		  "receiver is not one of its senders" },
		{ RDP_MESH_INCAST, 4, 9, 0, 0, 0,
		  "--fan-in takes 1 to 3 for this many nodes, not 9: the "
		  "receiver is not one of its senders" },
		{ RDP_MESH_INCAST, 4, 3, 0, RDP_MESH_VICTIM_LAT, 0,
		  "--victim needs a node outside the receiver and its 3 "
		  "senders: 5 nodes at least, not 4 (lower --fan-in)" },
		{ RDP_MESH_INCAST, 4, 2, 5, 0, 0,
		  "--rounds takes 1 to 4 for 4 nodes (each receives once), "
		  "not 5" },
		{ RDP_MESH_INCAST, 4, 2, 0, 0, 1,
		  "-b does not apply to incast, whose transfers go one way to "
		  "load the receivers" },
		{ RDP_MESH_ALLTOALL, 4, 0, 0, RDP_MESH_VICTIM_BW, 0,
		  "--victim needs a node left over, and alltoall loads every "
		  "node: use --pattern incast" },
		{ RDP_MESH_ALLTOALL, 1025, 0, 0, 0, 0,
		  "--pattern alltoall runs 1024 nodes at most (N x (N-1) "
		  "transfers at once), not 1025" },
		{ RDP_MESH_PAIRWISE, 4, 2, 0, 0, 0,
		  "--fan-in applies to --pattern incast" },
		{ RDP_MESH_ALLTOALL, 4, 0, 2, 0, 0,
		  "--rounds applies to --pattern incast" },
		{ RDP_MESH_BISECTION, 4, 0, 0, RDP_MESH_VICTIM_LAT, 0,
		  "--victim applies to --pattern incast" },
	};
	struct rdp_mesh_plan_opts o;
	struct rdp_mesh_plan *p = NULL;
	char why[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		o = (struct rdp_mesh_plan_opts){ .pattern = rows[i].pat,
						 .nodes = rows[i].n,
						 .fan_in = rows[i].k,
						 .rounds = rows[i].rounds,
						 .victim = rows[i].victim,
						 .bidir = rows[i].bidir };
		why[0] = '\0';
		assert_int_equal(rdp_mesh_plan_check(&o, why, sizeof(why)),
				 -EINVAL);
		assert_string_equal(why, rows[i].why);
		assert_null(strchr(why, '\n'));
		assert_int_equal(rdp_mesh_plan_create(&o, &p), -EINVAL);
	}
	/* Before the nodes are counted (rdmaperf-mesh's parse), K is not
	 * held to them. */
	o = (struct rdp_mesh_plan_opts){ .pattern = RDP_MESH_INCAST,
					 .fan_in = 3,
					 .victim = RDP_MESH_VICTIM_LAT };
	assert_int_equal(rdp_mesh_plan_check(&o, why, sizeof(why)), 0);
	o.nodes = 5;
	assert_int_equal(rdp_mesh_plan_check(&o, why, sizeof(why)), 0);
	assert_int_equal(
		rdp_mesh_victim_parse("lat", &o.victim, why, sizeof(why)), 0);
	assert_int_equal(o.victim, RDP_MESH_VICTIM_LAT);
	assert_int_equal(rdp_mesh_victim_parse("tail", &o.victim, why,
					       sizeof(why)),
			 -EINVAL);
	assert_string_equal(why, "--victim needs lat or bw, not 'tail'");
	assert_int_equal(rdp_mesh_pattern_check("incast", &o.pattern, why,
						sizeof(why)),
			 0);
	assert_int_equal(o.pattern, RDP_MESH_INCAST);
}

static void test_impact(void **state)
{
	struct rdp_mesh_victim_fig alone = { 2, 3, 40 }, loaded = { 8, 15, 10 };
	struct rdp_mesh_victim_fig none = { NAN, NAN, NAN }, zero = { 0, 0, 0 };
	struct rdp_mesh_impact i;

	(void)state;
	rdp_mesh_impact_of(&alone, &loaded, &i);
	assert_true(fabs(i.p50 - 4) < 1e-12);
	assert_true(fabs(i.p99 - 5) < 1e-12);
	assert_true(fabs(i.bw - 4) < 1e-12); /* alone / loaded */
	/* Unloaded the same: 1. */
	rdp_mesh_impact_of(&alone, &alone, &i);
	assert_true(fabs(i.p50 - 1) < 1e-12 && fabs(i.bw - 1) < 1e-12);
	/* A side not measured, or a figure of 0: no factor. */
	rdp_mesh_impact_of(&alone, &none, &i);
	assert_true(isnan(i.p50) && isnan(i.p99) && isnan(i.bw));
	rdp_mesh_impact_of(&zero, &loaded, &i);
	assert_true(isnan(i.p50) && isnan(i.p99) && isnan(i.bw));
}

/* The congestion figures of two rounds into mesh.json's "congestion"
 * and the text, the second round's loaded side missing. */
static void test_congestion_report(void **state)
{
	static const char *const names[] = { "n0", "n1", "n2", "n3", "n4" };
	struct rdp_mesh_congestion c = { .kind = RDP_MESH_VICTIM_LAT };
	struct rdp_mesh_victim_fig a = { 2, 4, NAN }, l = { 5, 12, NAN };
	struct rdp_mesh_victim_round v0 = {
		.round = 0, .tx = 4, .rx = 0, .senders = 3
	};
	struct rdp_mesh_victim_round v1 = {
		.round = 1, .tx = 1, .rx = 2, .senders = 3
	};
	struct rdp_mesh_plan *p =
		make(RDP_MESH_INCAST, 5, 3, 2, RDP_MESH_VICTIM_LAT);
	struct rdp_mesh *m = NULL;
	char *buf = NULL;
	size_t len = 0;
	json_error_t jerr;
	json_t *doc, *g;
	FILE *f;

	(void)state;
	assert_int_equal(rdp_mesh_congestion_note(&c, &v0, 1, &l), 0);
	assert_int_equal(rdp_mesh_congestion_note(&c, &v0, 0, &a), 0);
	assert_int_equal(rdp_mesh_congestion_note(&c, &v1, 0, &a), 0);
	assert_int_equal(c.n, 2);
	assert_int_equal(rdp_mesh_create(p, 1, names, &m), 0);
	rdp_mesh_set_congestion(m, &c);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	rdp_mesh_congestion_print(&c, m, f);
	fclose(f);
	assert_string_equal(
		buf, "congestion: round 1, victim n4 -> n0 under 3 senders: "
		     "p50 2 -> 5 us (x2.5), p99 4 -> 12 us (x3)\n"
		     "congestion: round 2, victim n1 -> n2 under 3 senders: "
		     "p50 2 -> none us (no factor), p99 4 -> none us (no "
		     "factor)\n");
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_int_equal(rdp_mesh_write_json(m, f), 0);
	fclose(f);
	doc = json_loads(buf, 0, &jerr);
	assert_non_null(doc);
	g = json_object_get(doc, "congestion");
	assert_string_equal(json_string_value(json_object_get(g, "victim")),
			    "lat");
	g = json_object_get(g, "rounds");
	assert_int_equal(json_array_size(g), 2);
	g = json_array_get(g, 0);
	assert_int_equal(json_integer_value(json_object_get(g, "round")), 1);
	assert_string_equal(json_string_value(json_object_get(g, "tx")), "n4");
	assert_string_equal(json_string_value(json_object_get(g, "rx")), "n0");
	assert_true(fabs(json_number_value(json_object_get(
				 json_object_get(g, "impact"), "p50")) -
			 2.5) < 1e-12);
	assert_true(fabs(json_number_value(json_object_get(
				 json_object_get(g, "impact"), "p99")) -
			 3) < 1e-12);
	g = json_array_get(json_object_get(json_object_get(doc, "congestion"),
					   "rounds"),
			   1);
	assert_true(json_is_null(
		json_object_get(json_object_get(g, "impact"), "p50")));
	assert_true(
		fabs(json_number_value(json_object_get(
			     json_object_get(json_object_get(doc, "congestion"),
					     "impact_max"),
			     "p99")) -
		     3) < 1e-12);
	json_decref(doc);
	free(buf);
	rdp_mesh_free(m);
	rdp_mesh_congestion_fini(&c);
	rdp_mesh_plan_free(p);
}

#define MESH(out, ...) TOOL_OUT("mesh", out, __VA_ARGS__)

static void test_plan_command(void **state)
{
	static char out[8192];

	(void)state;
	assert_int_equal(MESH(out, "--plan", "5", "--pattern", "incast",
			      "--fan-in", "2", "--victim", "lat"),
			 0);
	expect_in(out, "incast plan for 5 nodes, 5 rounds: 2 senders into one "
		       "receiver a round");
	expect_in(out, "round 1: 1->0 2->0 victim 3->0 bye 4\n");
	expect_in(out, "round 5: 0->4 1->4 victim 2->4 bye 3\n");
	assert_int_equal(MESH(out, "--plan", "3", "--pattern", "alltoall"), 0);
	expect_in(out, "alltoall plan for 3 nodes, 1 rounds: every node sends "
		       "to every other at once, 6 transfers\n");
	expect_in(out, "round 1: 0->1 0->2 1->0 1->2 2->0 2->1\n");
	assert_int_equal(MESH(out, "--plan", "10", "--pattern", "incast",
			      "--fan-in", "3", "--victim", "bw", "--estimate"),
			 0);
	expect_in(out, "rounds: 10\ntransfers: 30\n");
	expect_in(out, "round time: 5 s");
	expect_in(out, "twice: the victim alone, then under the load");
	/* Exit 2 for each bad input, nothing on stdout. */
	assert_int_equal(MESH(out, "--plan", "4", "--pattern", "incast",
			      "--fan-in", "4"),
			 2);
	assert_int_equal(MESH(out, "--plan", "4", "--pattern", "incast",
			      "--fan-in", "3", "--victim", "lat"),
			 2);
	assert_int_equal(MESH(out, "--plan", "4", "--pattern", "incast",
			      "--fan-in", "2", "--victim", "tail"),
			 2);
	assert_int_equal(MESH(out, "--plan", "4", "--fan-in", "2"), 2);
	assert_string_equal(out, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_incast_plan),
		cmocka_unit_test(test_incast_sample_victim),
		cmocka_unit_test(test_alltoall_plan),
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_impact),
		cmocka_unit_test(test_congestion_report),
		cmocka_unit_test(test_plan_command),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
