/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The simulator's files give each cell its path on the fabric, the same
 * as a run with --topology writes (rdp_mesh_path_json): in cells.jsonl
 * for every cell, failed ones included, and in mesh.json's cells[].
 */
#include <errno.h>
#include <stdio.h>
#include <jansson.h>

#include "unit.h"

#include <rdmaperf/mesh.h>
#include <rdmaperf/mesh_run.h>
#include <rdmaperf/mesh_topo.h>

#define NODES 8
#define RAILS 2

/* Whether o's "path" is the one of its cell on p. */
static int path_ok(const struct rdp_mesh_place *p, json_t *o)
{
	unsigned int tx, rx;
	json_t *want;
	int ok;

	if (sscanf(json_string_value(json_object_get(o, "tx")), "node%u",
		   &tx) != 1 ||
	    sscanf(json_string_value(json_object_get(o, "rx")), "node%u",
		   &rx) != 1)
		return 0;
	want = rdp_mesh_path_json(
		p, tx, rx,
		(unsigned int)json_integer_value(json_object_get(o, "rail")));
	ok = want && json_array_size(want) >= 2 &&
	     json_equal(json_object_get(o, "path"), want);
	json_decref(want);
	return ok;
}

/* A writer's text, into a malloc'd string. */
static char *written(const struct rdp_mesh *m,
		     int (*write)(const struct rdp_mesh *, FILE *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(write(m, f), 0);
	fclose(f);
	return buf;
}

static void test_sim_paths(void **state)
{
	struct rdp_mesh_plan_opts po = { .pattern = RDP_MESH_PAIRWISE,
					 .nodes = NODES };
	struct rdp_mesh_sim_opts so = { .nominal_gbps = 100,
					.noise_pct = 3,
					.seed = 1 };
	struct rdp_mesh_limits l = { .tol = 0.10 };
	struct rdp_mesh_topo *t = NULL;
	struct rdp_mesh_place *p = NULL;
	struct rdp_mesh_plan *plan = NULL;
	struct rdp_mesh_inject inj;
	struct rdp_mesh *m = NULL;
	size_t lines = 0, failed = 0, i;
	char why[256], *text, *line, *save = NULL;
	json_t *o, *cells;

	(void)state;
	assert_int_equal(rdp_mesh_topo_synthetic(NODES, RAILS, 2, 1, &t), 0);
	assert_int_equal(rdp_mesh_place_create(t, NULL, NODES, RAILS, &p, why,
					       sizeof(why)),
			 0);
	assert_int_equal(rdp_mesh_plan_create(&po, &plan), 0);
	assert_int_equal(rdp_mesh_create(plan, RAILS, NULL, &m), 0);
	assert_int_equal(rdp_mesh_inject_parse("cable:node3:1=down", p, &inj,
					       why, sizeof(why)),
			 0);
	assert_int_equal(rdp_mesh_simulate(m, plan, p, &inj, 1, &so), 0);
	assert_true(rdp_mesh_analyze(m, &l) > 0);
	text = written(m, rdp_mesh_write_cells_jsonl);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save), lines++) {
		o = json_loads(line, 0, NULL);
		assert_non_null(o);
		assert_true(path_ok(p, o));
		failed +=
			!strcmp(json_string_value(json_object_get(o, "status")),
				"failed");
		json_decref(o);
	}
	free(text);
	assert_int_equal(lines, (size_t)NODES * (NODES - 1) * RAILS);
	assert_int_equal(failed, 2 * (NODES - 1));
	text = written(m, rdp_mesh_write_json);
	o = json_loads(text, 0, NULL);
	free(text);
	cells = json_object_get(o, "cells");
	assert_int_equal(json_array_size(cells), lines);
	for (i = 0; i < json_array_size(cells); i++)
		assert_true(path_ok(p, json_array_get(cells, i)));
	json_decref(o);
	rdp_mesh_free(m);
	rdp_mesh_plan_free(plan);
	rdp_mesh_place_free(p);
	rdp_mesh_topo_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sim_paths),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
