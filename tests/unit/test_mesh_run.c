/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The MPI-free parts of rdmaperf-mesh's run: node names (RDP_MESH_NODE
 * with %r), nodes and rails grouped from every rank's endpoint, and a
 * cell's figures from the results a client session hands back.
 */
#include <errno.h>
#include <math.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_node_names),
		cmocka_unit_test(test_group),
		cmocka_unit_test(test_group_refused),
		cmocka_unit_test(test_figures_of_results),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
