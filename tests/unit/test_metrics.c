/* SPDX-License-Identifier: BSD-2-Clause */
/* --metrics: the OpenMetrics text (names, escaping, percentiles, an
 * errored point), the file as the sink writes it (parsed by
 * prometheus_client when a python3 has it) and the option's checks. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "argv.h"
#include "report_ctx.h"
#include <rdmaperf/bench.h>
#include <rdmaperf/json.h>
#include <rdmaperf/metrics.h>
#include <rdmaperf/sink.h>

#ifndef RDP_SRCDIR
#define RDP_SRCDIR "."
#endif

static char text[16384];

static const char *text_of(const struct rdp_metrics_run *run)
{
	FILE *f = fmemopen(text, sizeof(text), "w");

	assert_non_null(f);
	assert_int_equal(rdp_metrics_write(f, run, 1), 0);
	fclose(f);
	return text;
}

static void has(const char *t, const char *line)
{
	if (!strstr(t, line))
		fail_msg("no '%s' in:\n%s", line, t);
}

static void test_bw_point(void **state)
{
	struct rdp_metrics_point p = {
		.size_bytes = 65536,
		.num_qps = 2,
		.bw = 1,
		.bw_bytes_per_s = 12.5e9,
		.msgs_per_s = 190734.8633,
		.data_ok = 1,
	};
	struct rdp_metrics_run run = { "write_bw", "mlx5_0", "node-b",	&p,
				       1,	   0,	     1700000000 };
	const char *t;

	(void)state;
	t = text_of(&run);
	has(t, "# HELP rdmaperf_bandwidth_bytes_per_second ");
	has(t, "# TYPE rdmaperf_bandwidth_bytes_per_second gauge\n");
	has(t, "rdmaperf_bandwidth_bytes_per_second{test=\"write_bw\","
	       "size=\"65536\",qps=\"2\",device=\"mlx5_0\",peer=\"node-b\"} "
	       "1.25e+10\n");
	has(t, "rdmaperf_messages_per_second{test=\"write_bw\",size=\"65536\","
	       "qps=\"2\",device=\"mlx5_0\",peer=\"node-b\"} 190734.8633\n");
	has(t, "rdmaperf_pass{test=\"write_bw\",device=\"mlx5_0\","
	       "peer=\"node-b\"} 1\n");
	has(t, "rdmaperf_last_run_timestamp_seconds{test=\"write_bw\","
	       "device=\"mlx5_0\",peer=\"node-b\"} 1700000000\n");
	/* -N: no peak; no latency family without samples */
	assert_null(strstr(t, "peak"));
	assert_null(strstr(t, "latency"));
	assert_null(strstr(t, "lost"));
	/* the end marker last, once */
	assert_string_equal(t + strlen(t) - 6, "# EOF\n");
	assert_ptr_equal(strstr(t, "# EOF"), t + strlen(t) - 6);
}

static void test_escaping(void **state)
{
	struct rdp_metrics_point p = { .size_bytes = 2,
				       .num_qps = 1,
				       .data_ok = 1 };
	struct rdp_metrics_run run = { "send_lat", "dev\"0", "a\\b\nc", &p,
				       1,	   0,	     0 };

	(void)state;
	has(text_of(&run), "rdmaperf_data_errors{test=\"send_lat\",size=\"2\","
			   "qps=\"1\",device=\"dev\\\"0\","
			   "peer=\"a\\\\b\\nc\"} 0\n");
}

static void test_percentiles(void **state)
{
	struct rdp_metrics_point p = {
		.size_bytes = 8,
		.num_qps = 1,
		.lat = { .n = 1000,
			 .min_ns = 1500,
			 .max_ns = 9000,
			 .median_ns = 2000,
			 .avg_ns = 2100,
			 .p90_ns = 2500,
			 .p99_ns = 3000,
			 .p999_ns = 5000,
			 .p9999_ns = 8000 },
		.data_ok = 1,
	};
	struct rdp_metrics_run run = { "write_lat", "rxe0", "10.0.0.2", &p,
				       1,	    0,	    0 };
	const char *t;

	(void)state;
	t = text_of(&run);
	has(t, "# TYPE rdmaperf_latency_seconds summary\n");
#define L                                                                      \
	"test=\"write_lat\",size=\"8\",qps=\"1\",device=\"rxe0\","             \
	"peer=\"10.0.0.2\""
	has(t, "rdmaperf_latency_seconds{" L ",quantile=\"0.5\"} 2e-06\n");
	has(t, "rdmaperf_latency_seconds{" L ",quantile=\"0.99\"} 3e-06\n");
	has(t, "rdmaperf_latency_seconds{" L ",quantile=\"0.9999\"} 8e-06\n");
	has(t, "rdmaperf_latency_seconds_sum{" L "} 0.0021\n");
	has(t, "rdmaperf_latency_seconds_count{" L "} 1000\n");
	has(t, "rdmaperf_latency_min_seconds{" L "} 1.5e-06\n");
	has(t, "rdmaperf_latency_max_seconds{" L "} 9e-06\n");
#undef L
	/* a latency test has no rates */
	assert_null(strstr(t, "bandwidth"));
}

static void test_errored_point(void **state)
{
	struct rdp_metrics_point p[2] = {
		{ .size_bytes = 64,
		  .num_qps = 1,
		  .bw = 1,
		  .data_ok = 1,
		  .bw_bytes_per_s = 1e9,
		  .msgs_per_s = 1e6 },
		{ .size_bytes = 128,
		  .num_qps = 1,
		  .bw = 1,
		  .data_ok = 0,
		  .loss_counted = 1,
		  .lost_msgs = 17,
		  .device_events = 2 },
	};
	struct rdp_metrics_run run = { "send_bw", "d", "p", p, 2, 1, 0 };
	const char *t;

	(void)state;
	t = text_of(&run);
	has(t, "rdmaperf_data_errors{test=\"send_bw\",size=\"128\",qps=\"1\","
	       "device=\"d\",peer=\"p\"} 1\n");
	has(t, "rdmaperf_lost_messages{test=\"send_bw\",size=\"128\","
	       "qps=\"1\",device=\"d\",peer=\"p\"} 17\n");
	has(t, "rdmaperf_device_events{test=\"send_bw\",size=\"128\","
	       "qps=\"1\",device=\"d\",peer=\"p\"} 2\n");
	/* only the point that counted its loss has the sample */
	assert_null(strstr(t, "rdmaperf_lost_messages{test=\"send_bw\","
			      "size=\"64\""));
	has(t, "rdmaperf_failed_points{test=\"send_bw\",device=\"d\","
	       "peer=\"p\"} 1\n");
	has(t, "rdmaperf_pass{test=\"send_bw\",device=\"d\",peer=\"p\"} 0\n");
	has(t, "rdmaperf_points{test=\"send_bw\",device=\"d\",peer=\"p\"} 2\n");
}

static char *slurp(const char *path)
{
	static char buf[16384];
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* A write_lat run through the sink: one file, 0644, no temporary left;
 * then prometheus_client's parser reads it. */
static void test_sink_file(void **state)
{
	char dir[] = "/tmp/rdp-metrics.XXXXXX", path[64], cmd[256];
	struct rdp_report_summary sum = { 0 };
	struct rdp_report_sink *s;
	struct rdp_result r;
	struct ctx c;
	struct stat st;
	int rc;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/rdmaperf.prom", dir);
	ctx_init_ops(&c, rdp_bench_find("write_lat"));
	memset(&r, 0, sizeof(r));
	r.size_bytes = 2;
	r.num_qps = 1;
	r.data_ok = 1;
	r.lat = (struct rdp_lat_stats){ .n = 10,
					.min_ns = 900,
					.median_ns = 1000,
					.avg_ns = 1000,
					.p90_ns = 1100,
					.p99_ns = 1200,
					.p999_ns = 1300,
					.p9999_ns = 1400,
					.max_ns = 1500 };
	assert_int_equal(rdp_metrics_sink_create(path, &s), 0);
	assert_int_equal(s->ops->point(s, &c.info, &r), 0);
	r.size_bytes = 4;
	assert_int_equal(s->ops->point(s, &c.info, &r), 0);
	/* the same point again replaces it: one series per point */
	r.lat.max_ns = 1600;
	assert_int_equal(s->ops->point(s, &c.info, &r), 0);
	sum.n_failed = 1;
	assert_int_equal(s->ops->end(s, &c.info, &sum), 0);
	assert_int_equal(s->ops->close(s, &c.info), 0);
	s->ops->destroy(s);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);
	has(slurp(path), "rdmaperf_pass{test=\"write_lat\"");
	has(slurp(path), "size=\"4\"");
	has(slurp(path), "rdmaperf_latency_max_seconds{test=\"write_lat\","
			 "size=\"4\",qps=\"1\",device=\"");
	has(slurp(path), "} 1.6e-06\n# HELP rdmaperf_data_errors");
	assert_null(
		strstr(slurp(path), "} 1.5e-06\n# HELP rdmaperf_data_errors"));
	snprintf(cmd, sizeof(cmd), "%s/tests/unit/check-metrics.sh %s >&2",
		 RDP_SRCDIR, path);
	rc = system(cmd);
	assert_true(WIFEXITED(rc));
	unlink(path);
	/* only the file was there: the temporary was renamed */
	assert_int_equal(rmdir(dir), 0);
	if (WEXITSTATUS(rc) == 77)
		skip();
	assert_int_equal(WEXITSTATUS(rc), 0);
}

/* A results entry (certify reads its runs' documents) gives back the
 * figures the point had. */
static void test_point_of_json(void **state)
{
	struct rdp_metrics_point bw, lat;
	struct rdp_result r;
	struct rdp_json *j;
	struct ctx c;

	(void)state;
	ctx_init_ops(&c, rdp_bench_find("send_bw"));
	memset(&r, 0, sizeof(r));
	r.size_bytes = 4096;
	r.num_qps = 2;
	r.bw_avg_gbps = 80;
	r.bw_peak_gbps = 96;
	r.msg_rate_mpps = 2.5;
	r.data_ok = 1;
	r.loss_counted = 1;
	r.sent_msgs = 100;
	r.received_msgs = 93;
	assert_int_equal(rdp_json_new(&c.info, &j), 0);
	assert_int_equal(rdp_json_add(j, &c.info, &r), 0);
	rdp_metrics_point_of(rdp_json_last(j), &bw);
	rdp_json_free(j);
	assert_int_equal(bw.size_bytes, 4096);
	assert_int_equal(bw.num_qps, 2);
	assert_true(bw.bw);
	assert_true(bw.bw_bytes_per_s == 10e9);
	assert_true(bw.peak_bytes_per_s == 12e9);
	assert_true(bw.msgs_per_s == 2.5e6);
	assert_true(bw.data_ok);
	assert_true(bw.loss_counted);
	assert_int_equal(bw.lost_msgs, 7);
	assert_int_equal(bw.lat.n, 0);

	ctx_init_ops(&c, rdp_bench_find("write_lat"));
	memset(&r, 0, sizeof(r));
	r.size_bytes = 2;
	r.num_qps = 1;
	r.lat = (struct rdp_lat_stats){
		.n = 50, .median_ns = 1500, .p99_ns = 4000, .avg_ns = 1600
	};
	assert_int_equal(rdp_json_new(&c.info, &j), 0);
	assert_int_equal(rdp_json_add(j, &c.info, &r), 0);
	rdp_metrics_point_of(rdp_json_last(j), &lat);
	rdp_json_free(j);
	assert_false(lat.bw);
	assert_false(lat.data_ok); /* r.data_ok was 0 */
	assert_int_equal(lat.lat.n, 50);
	assert_true(fabs(lat.lat.median_ns - 1500) < 1e-6);
	assert_true(fabs(lat.lat.p99_ns - 4000) < 1e-6);
}

/* Several runs (certify's): each family once, every run's samples in
 * it. */
static void test_runs_share_families(void **state)
{
	struct rdp_metrics_point p = { .size_bytes = 64,
				       .num_qps = 1,
				       .bw = 1,
				       .data_ok = 1,
				       .bw_bytes_per_s = 1e9 };
	struct rdp_metrics_run runs[2] = {
		{ "write_bw", "d", "h", &p, 1, 0, 0, 0 },
		{ "read_bw", "d", "h", NULL, 0, 0, 0, 1 },
	};
	char buf[8192];
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	const char *t;

	(void)state;
	assert_non_null(f);
	assert_int_equal(rdp_metrics_write(f, runs, 2), 0);
	fclose(f);
	t = strstr(buf, "# TYPE rdmaperf_pass gauge\n");
	assert_non_null(t);
	assert_null(strstr(t + 1, "# TYPE rdmaperf_pass gauge\n"));
	has(t, "rdmaperf_pass{test=\"write_bw\",device=\"d\",peer=\"h\"} 1\n"
	       "rdmaperf_pass{test=\"read_bw\",device=\"d\",peer=\"h\"} 0\n");
	has(buf, "rdmaperf_points{test=\"read_bw\",device=\"d\",peer=\"h\"} "
		 "0\n");
}

static void test_option_checks(void **state)
{
	char dir[] = "/tmp/rdp-metrics.XXXXXX", arg[128], err[256];
	struct rdp_opts o;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(CLIENT(&o, err, "write_bw", "--metrics", dir, "host"),
			 -EINVAL);
	snprintf(arg, sizeof(arg),
		 "--metrics %s is a directory: name a file in it, e.g. "
		 "%s/rdmaperf.prom",
		 dir, dir);
	assert_string_equal(err, arg);
	snprintf(arg, sizeof(arg), "%s/none/x.prom", dir);
	assert_int_equal(CLIENT(&o, err, "write_bw", "--metrics", arg, "host"),
			 -EINVAL);
	has(err, "/none: create it or name a file in one that exists");
	assert_null(strchr(err, '\n'));
	snprintf(arg, sizeof(arg), "%s/x.prom", dir);
	assert_int_equal(CLIENT(&o, err, "write_bw", "--metrics", arg, "host"),
			 RDP_PARSE_OK);
	assert_string_equal(o.report.metrics_file, arg);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bw_point),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_percentiles),
		cmocka_unit_test(test_errored_point),
		cmocka_unit_test(test_sink_file),
		cmocka_unit_test(test_option_checks),
		cmocka_unit_test(test_point_of_json),
		cmocka_unit_test(test_runs_share_families),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
