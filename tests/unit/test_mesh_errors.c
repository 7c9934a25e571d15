/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A mesh judged by its ports' error counters: cells whose bandwidth is
 * fine but whose ports' counters broke --max-errors are flagged with the
 * reason, the node whose port carries them is named; the mesh's
 * --max-errors parse; the files carry the errors per cell and per node;
 * a rank's sessions' counters summed into its record and back into the
 * cell (the ports swapped for -b's reverse cell); and the simulator's
 * injected errors named among many nodes.
 */
#include <errno.h>
#include <math.h>
#include <jansson.h>

#include "tool_out.h"
#include "unit.h"

#include <rdmaperf/counters.h>
#include <rdmaperf/mesh.h>
#include <rdmaperf/mesh_plan.h>
#include <rdmaperf/mesh_topo.h>
#include <rdmaperf/report.h>
/* sink.h's struct rdp_verdict and doctor.h's enum (unit.h) share a tag;
 * only the sinks' ops are read here. */
#define rdp_verdict rdp_verdict_of_sink
#include <rdmaperf/sink.h>
#undef rdp_verdict

#include "../../src/mesh/mesh_int.h"

#define NODES 5
#define BAD   2 /* the node whose port rises */

static const char *const names[NODES] = { "n0", "n1", "n2", "n3", "n4" };

struct fx {
	struct rdp_mesh_plan *plan;
	struct rdp_mesh *m;
};

/*
 * Pairwise over NODES, every cell 100 Gb/s give or take 1 %. Node BAD's
 * port counts completer_retry_err +500 a cell it sends, out_of_seq_request
 * +20 a cell it receives; its peers count +10 (rcvd_seq_err, sending to
 * it, duplicate_request, receiving from it); n4 sending to n3 sees one
 * ECN mark (congestion).
 */
static void errors_mesh(struct fx *x)
{
	struct rdp_mesh_plan_opts o = { .pattern = RDP_MESH_PAIRWISE,
					.nodes = NODES };
	struct rdp_mesh_xfer xs[NODES];
	struct rdp_mesh_ctr ctr[2];
	struct rdp_mesh_errors e;
	struct rdp_mesh_cell c;
	size_t k, j, n;

	assert_int_equal(rdp_mesh_plan_create(&o, &x->plan), 0);
	assert_int_equal(rdp_mesh_create(x->plan, 1, names, &x->m), 0);
	for (k = 0; k < rdp_mesh_plan_rounds(x->plan); k++) {
		n = rdp_mesh_plan_round(x->plan, k, xs);
		for (j = 0; j < n; j++) {
			c = (struct rdp_mesh_cell){
				.tx = xs[j].tx,
				.rx = xs[j].rx,
				.round = (unsigned int)k,
				.status = RDP_MESH_OK,
				.bw_gbps = 99.5 +
					   (double)((xs[j].tx + xs[j].rx) % 3) *
						   0.5,
				.lat_us = NAN,
			};
			memset(&e, 0, sizeof(e));
			e.tx.ctr = &ctr[0];
			e.rx.ctr = &ctr[1];
			if (c.tx == BAD || c.rx == BAD) {
				ctr[0] = (struct rdp_mesh_ctr){
					c.tx == BAD ? "completer_retry_err"
						    : "rcvd_seq_err",
					c.tx == BAD ? 500 : 10
				};
				ctr[1] = (struct rdp_mesh_ctr){
					c.rx == BAD ? "out_of_seq_request"
						    : "duplicate_request",
					c.rx == BAD ? 20 : 10
				};
				e.tx.n = e.rx.n = 1;
				e.tx.sums.n[RDP_CTR_RETRIES] = ctr[0].delta;
				e.rx.sums.n[RDP_CTR_RETRIES] = ctr[1].delta;
				c.errors = &e;
			} else if (c.tx == 4 && c.rx == 3) {
				ctr[0] = (struct rdp_mesh_ctr){
					"np_ecn_marked_roce_packets", 1
				};
				e.tx.n = 1;
				e.tx.sums.n[RDP_CTR_CONGESTION] = 1;
				c.errors = &e;
			}
			assert_int_equal(rdp_mesh_add(x->m, &c), 0);
		}
	}
}

static void fx_free(struct fx *x)
{
	rdp_mesh_free(x->m);
	rdp_mesh_plan_free(x->plan);
}

static void limits_of(struct rdp_mesh_limits *l, const char *arg)
{
	char why[256];

	*l = (struct rdp_mesh_limits){ .tol = RDP_MESH_TOLERANCE };
	if (rdp_mesh_max_errors_parse(l, arg, why, sizeof(why)))
		fail_msg("%s: %s", arg, why);
}

static const struct rdp_mesh_cell *cell_of(const struct rdp_mesh *m,
					   unsigned int tx, unsigned int rx)
{
	const struct rdp_mesh_cell *c;
	size_t i;

	for (i = 0; (c = rdp_mesh_cell_at(m, i)); i++)
		if (c->tx == tx && c->rx == rx)
			return c;
	fail_msg("no cell %u->%u", tx, rx);
	return NULL;
}

/* Bandwidth fine everywhere: retries=0 flags BAD's 8 cells alone and
 * names BAD; the defaults (retries any) flag nothing. */
static void test_flagged_and_named(void **state)
{
	const struct rdp_mesh_cell *c;
	struct rdp_mesh_limits l;
	struct fx x;
	size_t i;

	(void)state;
	errors_mesh(&x);
	limits_of(&l, NULL);
	assert_int_equal(rdp_mesh_analyze(x.m, &l), 0);
	limits_of(&l, "retries=0");
	assert_int_equal(rdp_mesh_analyze(x.m, &l), 2 * (NODES - 1));
	for (i = 0; (c = rdp_mesh_cell_at(x.m, i)); i++) {
		if (c->tx != BAD && c->rx != BAD) {
			assert_int_equal(c->status, RDP_MESH_OK);
			assert_int_equal(c->errs_over, 0);
			continue;
		}
		assert_int_equal(c->status, RDP_MESH_FLAGGED);
		assert_int_equal(c->cls, RDP_MESH_CLASS_NODE);
		assert_int_equal(c->suspect, BAD);
		assert_int_equal(c->errs_over,
				 RDP_MESH_ERRS_TX | RDP_MESH_ERRS_RX);
	}
	assert_string_equal(
		cell_of(x.m, BAD, 0)->reason,
		"sender's port: transport retries +500 (completer_retry_err "
		"+500) over the limit of 0 (--max-errors retries=0); "
		"receiver's port: transport retries +10 (duplicate_request "
		"+10) over the limit of 0 (--max-errors retries=0)");
	/* The evidence: BAD's port alone broke the rule on most cells. */
	for (i = 0; i < NODES; i++)
		assert_int_equal(x.m->nerr[i].suspect, i == BAD);
	assert_int_equal(x.m->nerr[BAD].over[0], NODES - 1);
	assert_int_equal(x.m->nerr[BAD].over[1], NODES - 1);
	assert_int_equal(x.m->nerr[0].over[0], 1);
	assert_true(x.m->nerr[BAD].sums.n[RDP_CTR_RETRIES] ==
		    (NODES - 1) * (500 + 20));
	/* A limit above what the peers saw, below BAD's: only BAD's
	 * sending cells are over on BAD's side. */
	limits_of(&l, "retries=100");
	assert_int_equal(rdp_mesh_analyze(x.m, &l), NODES - 1);
	assert_int_equal(cell_of(x.m, BAD, 1)->cls, RDP_MESH_CLASS_TX);
	assert_int_equal(cell_of(x.m, BAD, 1)->suspect, BAD);
	assert_int_equal(cell_of(x.m, 1, BAD)->status, RDP_MESH_OK);
	assert_true(x.m->nerr[BAD].suspect);
	/* A counter's own rule; congestion=0 flags n4->n3 as a link. */
	limits_of(&l, "retries=any,np_ecn_marked_roce_packets=0");
	assert_int_equal(rdp_mesh_analyze(x.m, &l), 1);
	c = cell_of(x.m, 4, 3);
	assert_int_equal(c->status, RDP_MESH_FLAGGED);
	assert_int_equal(c->cls, RDP_MESH_CLASS_LINK);
	assert_string_equal(c->reason,
			    "sender's port: np_ecn_marked_roce_packets +1 over "
			    "the limit of 0 (--max-errors "
			    "np_ecn_marked_roce_packets=0)");
	fx_free(&x);
}

/* Link errors flag a cell by default. */
static void test_link_default(void **state)
{
	struct rdp_mesh_plan_opts o = { .pattern = RDP_MESH_PAIRWISE,
					.nodes = 3 };
	struct rdp_mesh_ctr ctr = { "symbol_error", 3 };
	struct rdp_mesh_errors e = { .rx = { .n = 1, .ctr = &ctr } };
	struct rdp_mesh_cell c = {
		.tx = 0, .rx = 1, .bw_gbps = 100, .lat_us = NAN, .errors = &e
	};
	struct rdp_mesh_limits l;
	struct rdp_mesh_plan *plan;
	struct rdp_mesh *m;

	(void)state;
	e.rx.sums.n[RDP_CTR_LINK] = 3;
	assert_int_equal(rdp_mesh_plan_create(&o, &plan), 0);
	assert_int_equal(rdp_mesh_create(plan, 1, NULL, &m), 0);
	assert_int_equal(rdp_mesh_add(m, &c), 0);
	c = (struct rdp_mesh_cell){
		.tx = 1, .rx = 0, .bw_gbps = 100, .lat_us = NAN
	};
	assert_int_equal(rdp_mesh_add(m, &c), 0);
	limits_of(&l, NULL);
	assert_int_equal(rdp_mesh_analyze(m, &l), 1);
	assert_string_equal(rdp_mesh_cell_at(m, 0)->reason,
			    "receiver's port: link errors +3 (symbol_error +3) "
			    "over the limit of 0 (--max-errors link=0)");
	/* The store kept its own copy. */
	assert_ptr_not_equal(rdp_mesh_cell_at(m, 0)->errors, &e);
	assert_int_equal(rdp_mesh_cell_at(m, 0)->errors->rx.ctr[0].delta, 3);
	assert_null(rdp_mesh_cell_at(m, 1)->errors);
	limits_of(&l, "link=any");
	assert_int_equal(rdp_mesh_analyze(m, &l), 0);
	rdp_mesh_free(m);
	rdp_mesh_plan_free(plan);
}

static void expect_refused(const char *arg, const char *want)
{
	struct rdp_mesh_limits l = { 0 };
	char why[256] = "";

	assert_int_equal(rdp_mesh_max_errors_parse(&l, arg, why, sizeof(why)),
			 -EINVAL);
	if (!strstr(why, want))
		fail_msg("%s: \"%s\" lacks \"%s\"", arg, why, want);
}

static void test_parse(void **state)
{
	struct rdp_mesh_limits l = { 0 };
	char why[256];

	(void)state;
	assert_int_equal(rdp_mesh_max_errors_parse(&l, NULL, why, sizeof(why)),
			 0);
	assert_int_equal(l.max_errors.n, 3);
	assert_int_equal(rdp_mesh_max_errors_parse(&l, "retries=0,link=5", why,
						   sizeof(why)),
			 0);
	assert_int_equal(l.max_errors.n, 3);
	assert_int_equal(rdp_mesh_max_errors_parse(&l, "symbol_error=2", why,
						   sizeof(why)),
			 0);
	assert_int_equal(l.max_errors.n, 4);
	expect_refused("port_xmit_data=0",
		       "--max-errors: \"port_xmit_data\" is no kind and no "
		       "counter of link errors, retries or congestion");
	expect_refused("retries", "--max-errors needs KIND=N");
	expect_refused("retries=-1", "is no count");
	expect_refused("", "--max-errors needs KIND=N");
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

static json_t *parsed(const char *text)
{
	json_error_t err;
	json_t *j = json_loads(text, 0, &err);

	if (!j)
		fail_msg("%s", err.text);
	return j;
}

static void test_files(void **state)
{
	struct rdp_mesh_limits l;
	json_t *doc, *c, *ne;
	char *t, *line;
	struct fx x;
	size_t i, with = 0;

	(void)state;
	errors_mesh(&x);
	limits_of(&l, "retries=0");
	assert_int_equal(rdp_mesh_analyze(x.m, &l), 8);
	t = written(x.m, rdp_mesh_write_json);
	doc = parsed(t);
	free(t);
	json_array_foreach(json_object_get(doc, "cells"), i, c)
	{
		if (!json_object_get(c, "errors"))
			continue;
		with++;
		if (strcmp(json_string_value(json_object_get(c, "tx")), "n2"))
			continue;
		t = json_dumps(json_object_get(c, "errors"),
			       JSON_COMPACT | JSON_SORT_KEYS);
		assert_string_equal(
			t, "{\"rx\":{\"congestion\":0,\"counters\":"
			   "{\"duplicate_request\":10},\"link\":0,\"retries\":"
			   "10},\"tx\":{\"congestion\":0,\"counters\":"
			   "{\"completer_retry_err\":500},\"link\":0,"
			   "\"retries\":500}}");
		free(t);
	}
	assert_int_equal(with, 2 * (NODES - 1) + 1);
	ne = json_object_get(doc, "node_errors");
	assert_int_equal(json_array_size(ne), NODES);
	json_array_foreach(ne, i, c)
	{
		assert_int_equal(
			json_is_true(json_object_get(c, "suspect")),
			!strcmp(json_string_value(json_object_get(c, "node")),
				"n2"));
		if (strcmp(json_string_value(json_object_get(c, "node")), "n2"))
			continue;
		assert_int_equal(
			json_integer_value(json_object_get(c, "total")),
			4 * 520);
		assert_int_equal(
			json_integer_value(json_object_get(c, "retries")),
			4 * 520);
		assert_int_equal(json_integer_value(json_object_get(
					 json_object_get(c, "sent"), "over")),
				 4);
	}
	json_decref(doc);
	/* cells.jsonl: the same cells, errors and all. */
	t = written(x.m, rdp_mesh_write_cells_jsonl);
	for (with = 0, line = strtok(t, "\n"); line;
	     line = strtok(NULL, "\n")) {
		c = parsed(line);
		with += json_object_get(c, "errors") != NULL;
		json_decref(c);
	}
	assert_int_equal(with, 2 * (NODES - 1) + 1);
	free(t);
	t = written(x.m, rdp_mesh_write_outliers);
	expect_in(t, "suspect: rail 0: node n2 or its NIC (its TX row and RX "
		     "column are low): 8 cells\n");
	expect_in(t, "errors: rail 0: n2's port broke --max-errors in 4 of 4 "
		     "cells it sent and 4 of 4 it received: transport retries "
		     "+2080; the likely fault\n");
	assert_null(strstr(t, "errors: rail 0: n0"));
	free(t);
	fx_free(&x);
}

/* A point's counters as a session hands them to its sinks. */
static void feed(struct rdp_report_sink *s, struct rdp_ctr_pair *p,
		 uint64_t retry, uint64_t peer_seq)
{
	struct rdp_report_info in = { .counters = p };
	struct rdp_result r = { 0 };

	memset(p, 0, sizeof(*p));
	p->have_local = p->have_peer = 1;
	p->local = (struct rdp_counters){
		.n = 2,
		.c = { { "port_xmit_data", 0, 123456 },
		       { "completer_retry_err", 1, retry } },
	};
	p->peer = (struct rdp_counters){
		.n = 2,
		.c = { { "out_of_seq_request", 1, peer_seq },
		       { "rdma_recvs", 1, 999 } },
	};
	assert_int_equal(s->ops->point(s, &in, &r), 0);
}

/* Two points summed into the record, only link, retry and congestion
 * counters; back from the record, swapped for the reverse cell. */
static void test_record(void **state)
{
	struct rdp_mesh_err_sink *s = rdp_mesh_err_sink_create();
	struct rdp_ctr_pair *p = calloc(1, sizeof(*p));
	const struct rdp_mesh_errors *e;
	struct rdp_mesh_errors_buf b;
	json_t *rec = json_object();
	char *t;

	(void)state;
	assert_non_null(s);
	assert_non_null(p);
	assert_int_equal(rdp_mesh_err_sink_put(s, rec), 0);
	assert_null(json_object_get(rec, "errors"));
	feed(rdp_mesh_err_sink_base(s), p, 7, 0);
	feed(rdp_mesh_err_sink_base(s), p, 5, 4);
	assert_int_equal(rdp_mesh_err_sink_put(s, rec), 0);
	t = json_dumps(json_object_get(rec, "errors"),
		       JSON_COMPACT | JSON_SORT_KEYS);
	assert_string_equal(t, "{\"rx\":{\"congestion\":0,\"counters\":"
			       "{\"out_of_seq_request\":4},\"link\":0,"
			       "\"retries\":4},\"tx\":{\"congestion\":0,"
			       "\"counters\":{\"completer_retry_err\":12},"
			       "\"link\":0,\"retries\":12}}");
	free(t);
	e = rdp_mesh_errors_of_record(rec, 0, &b);
	assert_non_null(e);
	assert_true(e->tx.sums.n[RDP_CTR_RETRIES] == 12 && e->tx.n == 1);
	assert_string_equal(e->tx.ctr[0].name, "completer_retry_err");
	e = rdp_mesh_errors_of_record(rec, 1, &b);
	assert_true(e->tx.sums.n[RDP_CTR_RETRIES] == 4);
	assert_string_equal(e->tx.ctr[0].name, "out_of_seq_request");
	assert_true(e->rx.sums.n[RDP_CTR_RETRIES] == 12);
	json_object_del(rec, "errors");
	assert_null(rdp_mesh_errors_of_record(rec, 0, &b));
	json_decref(rec);
	rdp_mesh_err_sink_free(s);
	free(p);
}

/* errors:NODE=N among 200 nodes on 2 rails: that node alone named (its
 * every rail), exit 0; allowed errors name nothing; bad specs exit 2. */
static void test_simulated(void **state)
{
	char out[8192];

	(void)state;
	assert_int_equal(TOOL_OUT("mesh", out, "--simulate", "200", "--rails",
				  "2", "--seed", "5", "--noise", "1",
				  "--inject", "errors:node77=3"),
			 0);
	expect_in(out, "found: errors:node77=3 as node77 (all 2 rails)\n");
	expect_in(out, "errors: 1 of 1 found\n");
	expect_in(out, "injected 1, found 1, missed 0, named 1, false 0");
	/* Allowed, the same errors name nothing: exit 1, missed. */
	assert_int_equal(TOOL_OUT("mesh", out, "--simulate", "40", "--inject",
				  "errors:node7:0=2", "--max-errors",
				  "link=any"),
			 1);
	expect_in(out, "missed: errors:node7:0=2\n");
	assert_int_equal(TOOL_OUT("mesh", out, "--simulate", "40", "--inject",
				  "errors:node7=0"),
			 2);
	assert_int_equal(TOOL_OUT("mesh", out, "--simulate", "40",
				  "--max-errors", "bogus_counter=1"),
			 2);
}

/* The store and analysis at scale: every cell of node 7's on 200 nodes
 * flagged for its errors, the others not. */
static void test_simulated_cells(void **state)
{
	struct rdp_mesh_plan_opts po = { .pattern = RDP_MESH_PAIRWISE,
					 .nodes = 200 };
	struct rdp_mesh_sim_opts so = { .nominal_gbps = 100,
					.noise_pct = 1,
					.seed = 9 };
	const struct rdp_mesh_cell *c;
	struct rdp_mesh_inject inj;
	struct rdp_mesh_limits l;
	struct rdp_mesh_topo *t;
	struct rdp_mesh_place *p;
	struct rdp_mesh_plan *plan;
	struct rdp_mesh *m;
	char why[256];
	size_t i;

	(void)state;
	assert_int_equal(rdp_mesh_topo_synthetic(200, 1, 13, 4, &t), 0);
	assert_int_equal(rdp_mesh_place_create(t, NULL, 200, 1, &p, why,
					       sizeof(why)),
			 0);
	assert_int_equal(rdp_mesh_inject_parse("errors:node7=4", p, &inj, why,
					       sizeof(why)),
			 0);
	assert_true(inj.kind == RDP_MESH_INJECT_ERRORS && inj.errors == 4);
	assert_int_equal(rdp_mesh_plan_create(&po, &plan), 0);
	assert_int_equal(rdp_mesh_create(plan, 1, NULL, &m), 0);
	assert_int_equal(rdp_mesh_simulate(m, plan, p, &inj, 1, &so), 0);
	limits_of(&l, NULL);
	assert_int_equal(rdp_mesh_analyze(m, &l), 2 * 199);
	for (i = 0; (c = rdp_mesh_cell_at(m, i)); i++) {
		assert_int_equal(c->status, c->tx == 7 || c->rx == 7
						    ? RDP_MESH_FLAGGED
						    : RDP_MESH_OK);
		if (c->status == RDP_MESH_FLAGGED) {
			assert_int_equal(c->suspect, 7);
			assert_int_equal(c->cls, RDP_MESH_CLASS_NODE);
		}
	}
	for (i = 0; i < 200; i++)
		assert_int_equal(m->nerr[i].suspect, i == 7);
	rdp_mesh_free(m);
	rdp_mesh_plan_free(plan);
	rdp_mesh_place_free(p);
	rdp_mesh_topo_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flagged_and_named),
		cmocka_unit_test(test_link_default),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_record),
		cmocka_unit_test(test_simulated),
		cmocka_unit_test(test_simulated_cells),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
