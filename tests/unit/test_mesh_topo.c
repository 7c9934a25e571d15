/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The fabric under a mesh: ibnetdiscover's output and the plain list on
 * fixtures (good and bad lines), the synthetic leaf-spine, binding, a
 * cell's path, and the localisation on small hand-made meshes: a bad
 * cable named as the cable, an uplink at 50 % as the uplink, a dead node
 * as the node, a clean mesh as nothing; mesh.json's faults[].
 */
#include <errno.h>
#include <math.h>
#include <jansson.h>

#include "unit.h"

#include <rdmaperf/mesh.h>
#include <rdmaperf/mesh_plan.h>
#include <rdmaperf/mesh_topo.h>

static struct rdp_mesh_topo *load_fixture(const char *name)
{
	struct rdp_mesh_topo *t = NULL;
	char path[PATH_MAX], why[512];
	int ret;

	snprintf(path, sizeof(path), "%s/topo/fabric/%s", fixtures_dir(), name);
	ret = rdp_mesh_topo_load(path, &t, why, sizeof(why));
	if (ret)
		fail_msg("%s: %s", name, why);
	return t;
}

static const struct rdp_mesh_topo_port *
port_of(const struct rdp_mesh_topo *t, const char *host, unsigned int rail)
{
	int h = rdp_mesh_topo_find_host(t, host);

	assert_true(h >= 0);
	return rdp_mesh_topo_host_port(t, (unsigned int)h, rail);
}

/* The fixtures' fabric: 4 hosts x 2 rails on 4 leaves, 2 spines. */
static void check_fabric(const struct rdp_mesh_topo *t)
{
	const struct rdp_mesh_topo_port *p;
	const struct rdp_mesh_topo_link *l;
	unsigned int i, leaves = 0;

	assert_int_equal(rdp_mesh_topo_n_hosts(t), 4);
	assert_int_equal(rdp_mesh_topo_n_switches(t), 6);
	assert_int_equal(rdp_mesh_topo_n_links(t), 8);
	for (i = 0; i < rdp_mesh_topo_n_switches(t); i++)
		leaves += (unsigned int)rdp_mesh_topo_is_leaf(t, i);
	assert_int_equal(leaves, 4);
	p = port_of(t, "node01", 1);
	assert_string_equal(rdp_mesh_topo_switch_name(t, p->sw), "leaf03");
	assert_int_equal(p->port, 1);
	p = port_of(t, "node04", 0);
	assert_string_equal(rdp_mesh_topo_switch_name(t, p->sw), "leaf02");
	assert_int_equal(p->port, 2);
	assert_null(port_of(t, "node04", 2));
	for (i = 0; i < rdp_mesh_topo_n_links(t); i++) {
		l = rdp_mesh_topo_link_at(t, i);
		assert_true(rdp_mesh_topo_is_leaf(t, l->a));
		assert_false(rdp_mesh_topo_is_leaf(t, l->b));
		assert_true(l->a_port == 33 || l->a_port == 34);
	}
}

static void test_ibnet(void **state)
{
	struct rdp_mesh_topo *t = load_fixture("ib-leaf-spine.txt");
	const struct rdp_mesh_topo_port *p;

	(void)state;
	check_fabric(t);
	/* node01's CAs are listed mlx5_1 first: rails by device name. */
	p = port_of(t, "node01", 0);
	assert_string_equal(p->dev, "mlx5_0");
	assert_string_equal(rdp_mesh_topo_switch_name(t, p->sw), "leaf01");
	assert_string_equal(port_of(t, "node01", 1)->dev, "mlx5_1");
	rdp_mesh_topo_free(t);
}

static void test_list(void **state)
{
	struct rdp_mesh_topo *t = load_fixture("roce-leaf-spine.txt");

	(void)state;
	check_fabric(t);
	assert_null(port_of(t, "node01", 0)->dev);
	rdp_mesh_topo_free(t);
}

static void expect_bad_file(const char *name, const char *want)
{
	struct rdp_mesh_topo *t = NULL;
	char path[PATH_MAX], why[512] = "";

	snprintf(path, sizeof(path), "%s/topo/fabric/%s", fixtures_dir(), name);
	assert_int_equal(rdp_mesh_topo_load(path, &t, why, sizeof(why)),
			 -EINVAL);
	assert_null(t);
	expect_in(why, want);
}

static void expect_bad_text(const char *text, const char *want)
{
	struct rdp_mesh_topo *t = NULL;
	char why[512] = "";

	assert_int_equal(rdp_mesh_topo_parse(text, "f", &t, why, sizeof(why)),
			 -EINVAL);
	assert_null(t);
	if (!strstr(why, want))
		fail_msg("'%s' lacks '%s'", why, want);
}

static void test_bad_lines(void **state)
{
	char why[256];
	struct rdp_mesh_topo *t = NULL;

	(void)state;
	expect_bad_file("bad-ib-port.txt", "bad-ib-port.txt:10: a port line");
	expect_bad_file("bad-list.txt", "bad-list.txt:5: want 'NODE RAIL");
	expect_bad_text("n1 0 leaf1 1\nn1 x leaf1 2\n", "f:2: the 2nd and 4th");
	expect_bad_text("n1 0 leaf1 1\n# c\nn1 0 leaf1 2\n",
			"f:3: n1's rail 0 is given twice");
	expect_bad_text("n1 1 leaf1 1\n", "f: n1 has no rail 0");
	expect_bad_text("n1 99 leaf1 1\n", "f:1: a rail is a number");
	expect_bad_text("# nothing\n", "f: no node is cabled");
	expect_bad_text("Switch\t8 \"S-01\"\t# \"leaf1\"\n[1]\t\"H-99\"[1]\n",
			"f:2: H-99 is not described");
	expect_bad_text("Ca\t1 \"H-01\"\n", "f:1: a CA's description");
	expect_bad_text("[1]\t\"H-01\"[1]\nSwitch\t8 \"S-01\"\t# \"x\"\n",
			"f:1: a port line outside a block");
	expect_bad_text("Switch\tx \"S-01\"\n", "f:1: a block starts");
	assert_int_equal(rdp_mesh_topo_load("/nonexistent/fabric", &t, why,
					    sizeof(why)),
			 -ENOENT);
	expect_in(why, "/nonexistent/fabric: ");
}

static void test_synthetic(void **state)
{
	struct rdp_mesh_topo *t = NULL;
	const struct rdp_mesh_topo_port *p;

	(void)state;
	assert_int_equal(rdp_mesh_topo_synthetic(10, 2, 2, 3, &t), 0);
	assert_int_equal(rdp_mesh_topo_n_switches(t), 4 + 3);
	assert_int_equal(rdp_mesh_topo_n_links(t), 4 * 3);
	assert_int_equal(rdp_mesh_topo_n_hosts(t), 10);
	/* 5 nodes a leaf: node7 is the 3rd of leaf 1 of rail 1's group. */
	p = port_of(t, "node7", 1);
	assert_string_equal(rdp_mesh_topo_switch_name(t, p->sw), "leaf3");
	assert_int_equal(p->port, 3);
	assert_int_equal(rdp_mesh_topo_link_at(t, 0)->a_port, 6);
	rdp_mesh_topo_free(t);
	assert_int_equal(rdp_mesh_topo_synthetic(4, 1, 5, 1, &t), -EINVAL);
	assert_int_equal(rdp_mesh_topo_synthetic(9, 1, 6, 1, &t), -EINVAL);
	assert_int_equal(rdp_mesh_topo_synthetic(4, 0, 1, 1, &t), -EINVAL);
}

static void test_bind(void **state)
{
	struct rdp_mesh_topo *t = load_fixture("roce-leaf-spine.txt");
	const char *names[] = { "node01.cluster", "node02", "node03",
				"node04" };
	const char *unknown[] = { "node01", "node09" };
	struct rdp_mesh_place *p = NULL;
	char why[256] = "";

	(void)state;
	assert_int_equal(
		rdp_mesh_place_create(t, names, 4, 2, &p, why, sizeof(why)), 0);
	rdp_mesh_place_free(p);
	p = NULL;
	assert_int_equal(rdp_mesh_place_create(t, unknown, 2, 2, &p, why,
					       sizeof(why)),
			 -EINVAL);
	expect_in(why, "node09 is not in the fabric");
	assert_int_equal(rdp_mesh_place_create(t, names, 4, 3, &p, why,
					       sizeof(why)),
			 -EINVAL);
	expect_in(why, "node01.cluster has 2 rail(s) in the fabric, the mesh "
		       "runs 3");
	assert_null(p);
	rdp_mesh_topo_free(t);
}

static void test_path(void **state)
{
	struct rdp_mesh_topo *t = NULL;
	struct rdp_mesh_place *p = NULL;
	struct rdp_mesh_hop hops[8];
	struct rdp_mesh_path path;
	char why[256];
	const char *text = "a 0 leaf1 1\nb 0 leaf1 2\nc 0 leaf2 1\n"
			   "leaf1 10 spine1 1\nleaf1 11 spine1 2\n"
			   "leaf2 10 spine1 3\nleaf1 12 spine2 1\n"
			   "leaf2 12 spine2 2\n";
	const char *names[] = { "a", "b", "c" };

	(void)state;
	assert_int_equal(rdp_mesh_topo_parse(text, "f", &t, why, sizeof(why)),
			 0);
	assert_int_equal(
		rdp_mesh_place_create(t, names, 3, 1, &p, why, sizeof(why)), 0);
	assert_int_equal(rdp_mesh_place_path(p, 0, 1, 0, &path, hops, 8), 0);
	assert_int_equal(path.n_hops, 0);
	assert_int_equal(path.tx_port, 1);
	assert_int_equal(path.rx_port, 2);
	/* a -> c: spine1 (two parallel links up) or spine2, half each. */
	assert_int_equal(rdp_mesh_place_path(p, 0, 2, 0, &path, hops, 8), 0);
	assert_int_equal(path.n_hops, 3);
	assert_true(fabs(hops[0].weight - 0.25) < 1e-12);
	assert_true(fabs(hops[1].weight - 0.25) < 1e-12);
	assert_true(fabs(hops[2].weight - 0.5) < 1e-12);
	assert_string_equal(rdp_mesh_topo_switch_name(t, hops[2].spine),
			    "spine2");
	assert_int_equal(rdp_mesh_topo_link_at(t, hops[2].up)->a_port, 12);
	assert_int_equal(rdp_mesh_place_path(p, 0, 2, 0, &path, hops, 1), 0);
	assert_int_equal(path.n_hops, 3);
	assert_int_equal(rdp_mesh_place_path(p, 0, 2, 1, &path, hops, 8),
			 -EINVAL);
	rdp_mesh_place_free(p);
	rdp_mesh_topo_free(t);
}

/* A cell's bandwidth on a hand-made fabric; NAN: failed. */
typedef double cell_fn(const struct rdp_mesh_place *p, unsigned int tx,
		       unsigned int rx, unsigned int rail);

struct bed {
	struct rdp_mesh_topo *t;
	struct rdp_mesh_place *p;
	struct rdp_mesh_plan *plan;
	struct rdp_mesh *m;
	struct rdp_mesh_faults *f;
};

static void add_cell(struct bed *b, cell_fn *fn, unsigned int tx,
		     unsigned int rx, unsigned int rail, size_t k)
{
	struct rdp_mesh_cell c = { .tx = tx,
				   .rx = rx,
				   .rail = rail,
				   .round = (unsigned int)k,
				   .lat_us = NAN };

	c.bw_gbps = fn(b->p, tx, rx, rail);
	if (isnan(c.bw_gbps)) {
		c.status = RDP_MESH_FAILED;
		c.reason = "timed out";
	}
	assert_int_equal(rdp_mesh_add(b->m, &c), 0);
}

/* Every cell of a pairwise mesh on a synthetic fabric, analysed and
 * located. */
static void bed_run(struct bed *b, unsigned int nodes, unsigned int rails,
		    unsigned int leaves, unsigned int spines, cell_fn *fn)
{
	struct rdp_mesh_plan_opts o = { .pattern = RDP_MESH_PAIRWISE,
					.nodes = nodes };
	struct rdp_mesh_limits l = { .tol = 0.10 };
	struct rdp_mesh_xfer x[64];
	size_t k, j, n;
	unsigned int r;
	char why[256];

	memset(b, 0, sizeof(*b));
	assert_int_equal(rdp_mesh_topo_synthetic(nodes, rails, leaves, spines,
						 &b->t),
			 0);
	assert_int_equal(rdp_mesh_place_create(b->t, NULL, nodes, rails, &b->p,
					       why, sizeof(why)),
			 0);
	assert_int_equal(rdp_mesh_plan_create(&o, &b->plan), 0);
	assert_int_equal(rdp_mesh_create(b->plan, rails, NULL, &b->m), 0);
	for (k = 0; k < rdp_mesh_plan_rounds(b->plan); k++) {
		n = rdp_mesh_plan_round(b->plan, k, x);
		for (j = 0; j < n; j++)
			for (r = 0; r < rails; r++)
				add_cell(b, fn, x[j].tx, x[j].rx, r, k);
	}
	assert_true(rdp_mesh_analyze(b->m, &l) >= 0);
	assert_int_equal(rdp_mesh_locate(b->m, b->p, &b->f), 0);
}

static void bed_free(struct bed *b)
{
	rdp_mesh_faults_free(b->f);
	rdp_mesh_free(b->m);
	rdp_mesh_plan_free(b->plan);
	rdp_mesh_place_free(b->p);
	rdp_mesh_topo_free(b->t);
}

static double clean(const struct rdp_mesh_place *p, unsigned int tx,
		    unsigned int rx, unsigned int rail)
{
	(void)p;
	return 100 + (double)((tx * 7 + rx * 3 + rail) % 5) / 10;
}

static double node5_rail1_cable(const struct rdp_mesh_place *p, unsigned int tx,
				unsigned int rx, unsigned int rail)
{
	if (rail == 1 && (tx == 5 || rx == 5))
		return NAN;
	return clean(p, tx, rx, rail);
}

static double node3_dead(const struct rdp_mesh_place *p, unsigned int tx,
			 unsigned int rx, unsigned int rail)
{
	return tx == 3 || rx == 3 ? NAN : clean(p, tx, rx, rail);
}

/* Leaf leaf0's uplink to spine1 at 50 %: the cells of leaf0 that
 * cross to another leaf and (by a stand-in for ECMP's hash) take spine1. */
static double leaf0_uplink_half(const struct rdp_mesh_place *p, unsigned int tx,
				unsigned int rx, unsigned int rail)
{
	const struct rdp_mesh_topo *t = rdp_mesh_place_topo(p);
	struct rdp_mesh_hop hops[4];
	struct rdp_mesh_path path;
	unsigned int leaf0 =
		(unsigned int)rdp_mesh_topo_find_switch(t, "leaf0");
	size_t pick;

	assert_int_equal(rdp_mesh_place_path(p, tx, rx, rail, &path, hops, 4),
			 0);
	if (!path.n_hops || (path.tx_leaf != leaf0 && path.rx_leaf != leaf0))
		return clean(p, tx, rx, rail);
	pick = (tx + rx) % path.n_hops;
	if (strcmp(rdp_mesh_topo_switch_name(t, hops[pick].spine),
		   path.n_hops == 1 ? "spine0" : "spine1"))
		return clean(p, tx, rx, rail);
	return 50;
}

static void test_locate_cable(void **state)
{
	const struct rdp_mesh_fault *f;
	struct bed b;

	(void)state;
	bed_run(&b, 12, 2, 3, 2, node5_rail1_cable);
	assert_int_equal(rdp_mesh_faults_n(b.f), 1);
	f = rdp_mesh_fault_at(b.f, 0);
	assert_int_equal(f->kind, RDP_MESH_PART_CABLE);
	assert_int_equal(f->node, 5);
	assert_int_equal(f->rail, 1);
	/* 4 nodes a leaf: rail 1's second leaf, port 2. */
	assert_string_equal(f->name, "leaf4 port 2 (node5's rail 1 cable)");
	assert_true(f->bad == 22 && f->total == 22);
	assert_true(f->confidence > 0.9 && f->confidence <= 1);
	bed_free(&b);
}

static void test_locate_dead_node(void **state)
{
	const struct rdp_mesh_fault *f;
	struct bed b;

	(void)state;
	bed_run(&b, 12, 2, 3, 2, node3_dead);
	assert_int_equal(rdp_mesh_faults_n(b.f), 1);
	f = rdp_mesh_fault_at(b.f, 0);
	assert_int_equal(f->kind, RDP_MESH_PART_NODE);
	assert_int_equal(f->node, 3);
	assert_string_equal(f->name, "node3 (all 2 rails)");
	bed_free(&b);
}

static void test_locate_uplink(void **state)
{
	const struct rdp_mesh_topo_link *l;
	const struct rdp_mesh_fault *f;
	struct bed b;
	unsigned int i, spine1 = 0;

	(void)state;
	/* One spine: the uplink itself. */
	bed_run(&b, 12, 1, 3, 1, leaf0_uplink_half);
	assert_int_equal(rdp_mesh_faults_n(b.f), 1);
	f = rdp_mesh_fault_at(b.f, 0);
	assert_int_equal(f->kind, RDP_MESH_PART_UPLINK);
	assert_string_equal(f->name,
			    "uplink leaf0 -> spine0 (leaf0 port 5, spine0 "
			    "port 1)");
	assert_int_equal(f->n_cand, 1);
	bed_free(&b);
	/* Two spines: half of leaf0's cells across the spines go bad, and
	 * ECMP leaves both uplinks of leaf0 equally likely. */
	bed_run(&b, 12, 1, 3, 2, leaf0_uplink_half);
	assert_int_equal(rdp_mesh_faults_n(b.f), 1);
	f = rdp_mesh_fault_at(b.f, 0);
	assert_int_equal(f->kind, RDP_MESH_PART_UPLINK);
	assert_string_equal(rdp_mesh_topo_switch_name(b.t, (unsigned int)f->sw),
			    "leaf0");
	assert_int_equal(f->n_cand, 2);
	for (i = 0; i < f->n_cand; i++) {
		l = rdp_mesh_topo_link_at(b.t, f->cand[i]);
		spine1 +=
			!strcmp(rdp_mesh_topo_switch_name(b.t, l->b), "spine1");
	}
	assert_int_equal(spine1, 1);
	expect_in(f->name, "uplink leaf0 -> one of 2: spine0, spine1");
	bed_free(&b);
}

static void test_locate_clean(void **state)
{
	struct bed b;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	bed_run(&b, 12, 2, 3, 2, clean);
	assert_int_equal(rdp_mesh_faults_n(b.f), 0);
	f = open_memstream(&buf, &len);
	assert_int_equal(rdp_mesh_faults_print(b.f, f), 0);
	fclose(f);
	expect_in(buf, "faults: none named");
	free(buf);
	bed_free(&b);
}

static void test_faults_json(void **state)
{
	json_t *doc, *faults, *x;
	json_error_t err;
	struct bed b;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	bed_run(&b, 12, 2, 3, 2, node5_rail1_cable);
	/* Without faults set, mesh.json has no faults[]. */
	f = open_memstream(&buf, &len);
	assert_int_equal(rdp_mesh_write_json(b.m, f), 0);
	fclose(f);
	doc = json_loads(buf, 0, &err);
	assert_non_null(doc);
	assert_null(json_object_get(doc, "faults"));
	json_decref(doc);
	free(buf);
	buf = NULL;
	rdp_mesh_set_faults(b.m, b.f);
	f = open_memstream(&buf, &len);
	assert_int_equal(rdp_mesh_write_json(b.m, f), 0);
	fclose(f);
	doc = json_loads(buf, 0, &err);
	if (!doc)
		fail_msg("mesh.json: %s", err.text);
	faults = json_object_get(doc, "faults");
	assert_int_equal(json_array_size(faults), 1);
	x = json_array_get(faults, 0);
	assert_string_equal(json_string_value(json_object_get(x, "part")),
			    "cable");
	assert_string_equal(json_string_value(json_object_get(x, "switch")),
			    "leaf4");
	assert_int_equal(json_integer_value(json_object_get(x, "port")), 2);
	assert_string_equal(json_string_value(json_object_get(x, "node")),
			    "node5");
	assert_int_equal(json_integer_value(json_object_get(x, "rail")), 1);
	assert_true(json_is_null(json_object_get(x, "peer_switch")));
	assert_true(json_real_value(json_object_get(x, "bad")) == 22);
	assert_true(json_real_value(json_object_get(x, "total")) == 22);
	/* The other 3 cables of leaf4, each with its 2 cells with node5. */
	x = json_object_get(x, "around");
	assert_true(json_real_value(json_object_get(x, "bad")) == 6);
	assert_true(json_real_value(json_object_get(x, "total")) == 3 * 22);
	json_decref(doc);
	free(buf);
	bed_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ibnet),
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_bad_lines),
		cmocka_unit_test(test_synthetic),
		cmocka_unit_test(test_bind),
		cmocka_unit_test(test_path),
		cmocka_unit_test(test_locate_cable),
		cmocka_unit_test(test_locate_dead_node),
		cmocka_unit_test(test_locate_uplink),
		cmocka_unit_test(test_locate_clean),
		cmocka_unit_test(test_faults_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
