/* SPDX-License-Identifier: BSD-2-Clause */
/* rdmaperf-mesh --metrics: per node and rail summaries of an analysed
 * mesh, the node the analysis blames marked, and the file parsed by
 * prometheus_client when a python3 has it. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include <jansson.h>

#include <rdmaperf/mesh.h>
#include <rdmaperf/mesh_metrics.h>
#include <rdmaperf/mesh_plan.h>

#ifndef RDP_SRCDIR
#define RDP_SRCDIR "."
#endif

#define N 6

/* Pairwise over N nodes, one rail, 100 Gb/s except what node 2 sends
 * (40 Gb/s) and 4 -> 5 failed. */
static struct rdp_mesh *mesh_of(struct rdp_mesh_plan **plan, int lat)
{
	struct rdp_mesh_plan_opts o = { .pattern = RDP_MESH_PAIRWISE,
					.nodes = N };
	struct rdp_mesh_xfer x[N];
	struct rdp_mesh_cell c;
	struct rdp_mesh *m = NULL;
	size_t k, j, cnt;
	double v;

	assert_int_equal(rdp_mesh_plan_create(&o, plan), 0);
	assert_int_equal(rdp_mesh_create(*plan, 1, NULL, &m), 0);
	for (k = 0; k < rdp_mesh_plan_rounds(*plan); k++) {
		cnt = rdp_mesh_plan_round(*plan, k, x);
		for (j = 0; j < cnt; j++) {
			v = x[j].tx == 2 ? 40 : 100;
			c = (struct rdp_mesh_cell){
				.tx = x[j].tx,
				.rx = x[j].rx,
				.round = (unsigned int)k,
				.status = RDP_MESH_OK,
				.bw_gbps = lat ? NAN : v,
				.lat_us = lat ? 200 / v : NAN,
				.line_gbps = 100,
			};
			if (x[j].tx == 4 && x[j].rx == 5) {
				c.status = RDP_MESH_FAILED;
				c.reason = "connect timed out";
				c.bw_gbps = c.lat_us = NAN;
			}
			assert_int_equal(rdp_mesh_add(m, &c), 0);
		}
	}
	return m;
}

static char text[65536];

static const char *written(const struct rdp_mesh *m, const char *test,
			   char *path, size_t len)
{
	char dir[] = "/tmp/rdp-mesh-metrics.XXXXXX";
	FILE *f;
	size_t n;

	assert_non_null(mkdtemp(dir));
	snprintf(path, len, "%s/mesh.prom", dir);
	assert_int_equal(rdp_mesh_write_metrics(m, test, 1700000000, path), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	return text;
}

static void has(const char *t, const char *s)
{
	if (!strstr(t, s)) {
		fprintf(stderr, "%s", t);
		fail_msg("no '%s' in the text above", s);
	}
}

static void remove_file(const char *path)
{
	char dir[128];

	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	unlink(path);
	assert_int_equal(rmdir(dir), 0); /* the temporary was renamed */
}

static void test_bandwidth_nodes(void **state)
{
	struct rdp_mesh_limits l = { .tol = RDP_MESH_TOLERANCE };
	struct rdp_mesh_plan *plan;
	struct rdp_mesh *m = mesh_of(&plan, 0);
	char path[128], cmd[256];
	const char *t;
	int rc;

	(void)state;
	assert_true(rdp_mesh_analyze(m, &l) > 0);
	t = written(m, "write_bw", path, sizeof(path));
#define NODE(n) "{test=\"write_bw\",node=\"node" #n "\",rail=\"0\""
	has(t, "# TYPE rdmaperf_mesh_node_send_bandwidth_bytes_per_second "
	       "summary\n");
	/* node 2 sends at 40 Gb/s to all 5: 5e9 bytes per second */
	has(t, "rdmaperf_mesh_node_send_bandwidth_bytes_per_second" NODE(
		       2) ",quantile=\"0\"} 5000000000\n");
	has(t, "rdmaperf_mesh_node_send_bandwidth_bytes_per_second" NODE(
		       2) ",quantile=\"0.5\"} 5000000000\n");
	has(t, "rdmaperf_mesh_node_send_bandwidth_bytes_per_second_count" NODE(
		       2) "} 5\n");
	/* node 0 receives one cell from node 2: its lowest */
	has(t, "rdmaperf_mesh_node_receive_bandwidth_bytes_per_second" NODE(
		       0) ",quantile=\"0\"} 5000000000\n");
	has(t, "rdmaperf_mesh_node_receive_bandwidth_bytes_per_second" NODE(
		       0) ",quantile=\"0.5\"} 1.25e+10\n");
	/* node 4 sent 4 measured cells, one failed */
	has(t, "rdmaperf_mesh_node_send_bandwidth_bytes_per_second_count" NODE(
		       4) "} 4\n");
	has(t, "rdmaperf_mesh_node_suspect" NODE(2) "} 1\n");
	has(t, "rdmaperf_mesh_node_suspect" NODE(0) "} 0\n");
	has(t, "rdmaperf_mesh_node_bad_cells" NODE(2) "} 5\n");
	has(t, "rdmaperf_mesh_cells{test=\"write_bw\"} 30\n");
	has(t, "rdmaperf_mesh_pass{test=\"write_bw\"} 0\n");
	has(t, "rdmaperf_mesh_last_run_timestamp_seconds{test=\"write_bw\"} "
	       "1700000000\n# EOF\n");
#undef NODE
	snprintf(cmd, sizeof(cmd), "%s/tests/unit/check-metrics.sh %s >&2",
		 RDP_SRCDIR, path);
	rc = system(cmd);
	remove_file(path);
	rdp_mesh_free(m);
	rdp_mesh_plan_free(plan);
	assert_true(WIFEXITED(rc));
	if (WEXITSTATUS(rc) == 77)
		skip();
	assert_int_equal(WEXITSTATUS(rc), 0);
}

/* A latency mesh: seconds, and the worst is the highest (quantile 1). */
static void test_latency_nodes(void **state)
{
	struct rdp_mesh_limits l = { .tol = RDP_MESH_TOLERANCE };
	struct rdp_mesh_plan *plan;
	struct rdp_mesh *m = mesh_of(&plan, 1);
	char path[128];
	const char *t;

	(void)state;
	assert_true(rdp_mesh_analyze(m, &l) > 0);
	t = written(m, "write_lat", path, sizeof(path));
	has(t, "rdmaperf_mesh_node_receive_latency_seconds{test=\"write_lat\","
	       "node=\"node0\",rail=\"0\",quantile=\"1\"} 5e-06\n");
	has(t, "rdmaperf_mesh_node_receive_latency_seconds{test=\"write_lat\","
	       "node=\"node0\",rail=\"0\",quantile=\"0.5\"} 2e-06\n");
	assert_null(strstr(t, "bandwidth"));
	remove_file(path);
	rdp_mesh_free(m);
	rdp_mesh_plan_free(plan);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bandwidth_nodes),
		cmocka_unit_test(test_latency_nodes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
