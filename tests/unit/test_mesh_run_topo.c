/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --topology in a measured mesh (run_topo.c): the file loaded and bound
 * to the nodes or refused in one line, each cell's path, the nodes
 * grouped by leaf, and on a 6-node mesh with one leaf's uplink slow the
 * uplink named in mesh.json's faults[] with the cells' paths beside.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>
#include <jansson.h>

#include "unit.h"

#include <rdmaperf/mesh.h>
#include <rdmaperf/mesh_plan.h>
#include <rdmaperf/mesh_run.h>

/* 6 nodes, two on each of 3 leaves, every leaf cabled to spine0 (and
 * with TWO_SPINES to spine1). */
static const char fabric[] = "# node rail switch port\n"
			     "node0 0 leaf0 1\n"
			     "node1 0 leaf0 2\n"
			     "node2 0 leaf1 1\n"
			     "node3 0 leaf1 2\n"
			     "node4 0 leaf2 1\n"
			     "node5 0 leaf2 2\n"
			     "leaf0 3 spine0 1\n"
			     "leaf1 3 spine0 2\n"
			     "leaf2 3 spine0 3\n";
static const char second_spine[] = "leaf0 4 spine1 1\n"
				   "leaf1 4 spine1 2\n"
				   "leaf2 4 spine1 3\n";

static const char *const names[] = { "node0", "node1", "node2",
				     "node3", "node4", "node5" };

/* text into a new file; its path in path (PATH_MAX). */
static void write_file(char *path, const char *text, const char *more)
{
	FILE *f;
	int fd;

	snprintf(path, PATH_MAX, "/tmp/rdp-run-topo-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(text, f);
	if (more)
		fputs(more, f);
	assert_int_equal(fclose(f), 0);
}

static struct rdp_mesh_run_topo *load(const char *more, unsigned int nodes,
				      int want)
{
	struct rdp_mesh_run_topo *rt = NULL;
	char path[PATH_MAX];

	write_file(path, fabric, more);
	assert_int_equal(rdp_mesh_run_topo_load(path, names, nodes, 1, &rt),
			 want);
	unlink(path);
	if (want)
		assert_null(rt);
	else
		assert_non_null(rt);
	return rt;
}

static void expect_path(const struct rdp_mesh_place *p, unsigned int tx,
			unsigned int rx, const char *want)
{
	json_t *a = rdp_mesh_path_json(p, tx, rx, 0);
	char *s;

	assert_non_null(a);
	s = json_dumps(a, JSON_COMPACT);
	assert_non_null(s);
	if (strcmp(s, want))
		fail_msg("path %u -> %u: %s, wanted %s", tx, rx, s, want);
	free(s);
	json_decref(a);
}

static void test_load(void **state)
{
	struct rdp_mesh_run_topo *rt = (void *)1;
	char path[PATH_MAX];

	(void)state;
	/* No --topology: nothing. */
	assert_int_equal(rdp_mesh_run_topo_load(NULL, names, 6, 1, &rt), 0);
	assert_null(rt);
	rt = load(NULL, 6, 0);
	assert_non_null(rdp_mesh_run_topo_place(rt));
	rdp_mesh_run_topo_free(rt);
	/* Hosts of the file outside the mesh are fine. */
	rdp_mesh_run_topo_free(load(NULL, 4, 0));
	/* A file that does not parse, a node it lacks, a rail it lacks,
	 * no file: the command line's fault. */
	load("leaf0 3\n", 6, -EINVAL);
	write_file(path, "node0 0 leaf0 1\nnode1 0 leaf0 2\n", NULL);
	assert_int_equal(rdp_mesh_run_topo_load(path, names, 3, 1, &rt),
			 -EINVAL);
	assert_int_equal(rdp_mesh_run_topo_load(path, names, 2, 2, &rt),
			 -EINVAL);
	assert_null(rt);
	unlink(path);
	assert_int_equal(rdp_mesh_run_topo_load(path, names, 2, 1, &rt),
			 -EINVAL);
	rdp_mesh_run_topo_free(NULL);
}

static void test_path(void **state)
{
	struct rdp_mesh_run_topo *rt;

	(void)state;
	rt = load(NULL, 6, 0);
	expect_path(rdp_mesh_run_topo_place(rt), 0, 1,
		    "[\"cable leaf0:1\",\"cable leaf0:2\"]");
	expect_path(rdp_mesh_run_topo_place(rt), 1, 4,
		    "[\"cable leaf0:2\",\"uplink leaf0:3-spine0:1\","
		    "\"uplink leaf2:3-spine0:3\",\"cable leaf2:1\"]");
	rdp_mesh_run_topo_free(rt);
	/* Two spines: which one ECMP takes is unknown. */
	rt = load(second_spine, 6, 0);
	expect_path(rdp_mesh_run_topo_place(rt), 3, 0,
		    "[\"cable leaf1:2\",\"uplink leaf1 (one of 2)\","
		    "\"uplink leaf0 (one of 2)\",\"cable leaf0:1\"]");
	rdp_mesh_run_topo_free(rt);
}

static void test_leaf_groups(void **state)
{
	struct rdp_mesh_run_topo *rt;
	unsigned int group_of[6], groups, i;
	const char *leaf[8];

	(void)state;
	rt = load(NULL, 6, 0);
	rdp_mesh_leaf_groups(rdp_mesh_run_topo_place(rt), group_of, leaf,
			     &groups);
	assert_int_equal(groups, 3);
	for (i = 0; i < 6; i++)
		assert_int_equal(group_of[i], i / 2);
	assert_string_equal(leaf[0], "leaf0");
	assert_string_equal(leaf[2], "leaf2");
	rdp_mesh_run_topo_free(rt);
}

/* Each cell of a pairwise mesh; crossing leaf0's uplink at a tenth. */
static struct rdp_mesh *slow_uplink_mesh(struct rdp_mesh_plan **plan)
{
	struct rdp_mesh_plan_opts o = { .pattern = RDP_MESH_PAIRWISE,
					.nodes = 6 };
	struct rdp_mesh_limits l = { .tol = 0.10, .min_bw_gbps = 50 };
	struct rdp_mesh_xfer x[8];
	struct rdp_mesh *m;
	size_t k, j, n;

	assert_int_equal(rdp_mesh_plan_create(&o, plan), 0);
	assert_int_equal(rdp_mesh_create(*plan, 1, names, &m), 0);
	for (k = 0; k < rdp_mesh_plan_rounds(*plan); k++) {
		n = rdp_mesh_plan_round(*plan, k, x);
		for (j = 0; j < n; j++) {
			struct rdp_mesh_cell c = { .tx = x[j].tx,
						   .rx = x[j].rx,
						   .round = (unsigned int)k,
						   .lat_us = NAN,
						   .bw_gbps = 100 };

			if ((c.tx < 2) != (c.rx < 2))
				c.bw_gbps = 10;
			assert_int_equal(rdp_mesh_add(m, &c), 0);
		}
	}
	assert_true(rdp_mesh_analyze(m, &l) > 0);
	return m;
}

static void test_locate(void **state)
{
	struct rdp_mesh_run_topo *rt;
	struct rdp_mesh_plan *plan;
	struct rdp_mesh *m = slow_uplink_mesh(&plan);
	json_t *doc, *x, *cells;
	json_error_t err;
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f;

	(void)state;
	rt = load(NULL, 6, 0);
	assert_int_equal(rdp_mesh_run_topo_locate(rt, m), 0);
	f = open_memstream(&buf, &len);
	rdp_mesh_run_topo_print(rt, f);
	fclose(f);
	expect_in(buf, "fault 1 [uplink]: uplink leaf0 -> spine0");
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_int_equal(rdp_mesh_write_json(m, f), 0);
	fclose(f);
	doc = json_loads(buf, 0, &err);
	if (!doc)
		fail_msg("mesh.json: %s", err.text);
	x = json_array_get(json_object_get(doc, "faults"), 0);
	assert_string_equal(json_string_value(json_object_get(x, "part")),
			    "uplink");
	assert_string_equal(json_string_value(json_object_get(x, "switch")),
			    "leaf0");
	assert_string_equal(
		json_string_value(json_object_get(x, "peer_switch")), "spine0");
	assert_int_equal(json_array_size(json_object_get(doc, "faults")), 1);
	cells = json_object_get(doc, "cells");
	assert_int_equal(json_array_size(cells), 30);
	for (i = 0; i < json_array_size(cells); i++) {
		x = json_object_get(json_array_get(cells, i), "path");
		assert_true(json_array_size(x) == 2 || json_array_size(x) == 4);
	}
	json_decref(doc);
	free(buf);
	/* Without --topology: no call does anything. */
	assert_int_equal(rdp_mesh_run_topo_locate(NULL, m), 0);
	rdp_mesh_run_topo_print(NULL, stdout);
	rdp_mesh_free(m);
	rdp_mesh_plan_free(plan);
	rdp_mesh_run_topo_free(rt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_path),
		cmocka_unit_test(test_leaf_groups),
		cmocka_unit_test(test_locate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
