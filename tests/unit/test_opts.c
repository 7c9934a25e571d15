/* SPDX-License-Identifier: BSD-2-Clause */
/* Command-line parsing: accepted forms, rejected forms, one clear line. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/opts.h>

#include "unit.h"

static void test_size_suffixes(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(rdp_parse_size("64", &v), 0);
	assert_int_equal(v, 64);
	assert_int_equal(rdp_parse_size("4K", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(rdp_parse_size("8m", &v), 0);
	assert_int_equal(v, 8u << 20);
	assert_int_equal(rdp_parse_size("2G", &v), 0);
	assert_int_equal(v, 2ull << 30);
	assert_int_equal(rdp_parse_size("12X", &v), -EINVAL);
	assert_int_equal(rdp_parse_size("4KB", &v), -EINVAL);
	assert_int_equal(rdp_parse_size("", &v), -EINVAL);
	assert_int_equal(rdp_parse_size("-1", &v), -EINVAL);
	assert_int_equal(rdp_parse_size(" 5", &v), -EINVAL);
	assert_int_equal(rdp_parse_size("99999999999999999999", &v), -ERANGE);
	assert_int_equal(rdp_parse_size("17179869184G", &v), -ERANGE);
}

static void test_uint_ranges(void **state)
{
	uint64_t v = 7;

	(void)state;
	assert_int_equal(rdp_parse_uint("10", 1, 10, &v), 0);
	assert_int_equal(v, 10);
	assert_int_equal(rdp_parse_uint("11", 1, 10, &v), -ERANGE);
	assert_int_equal(rdp_parse_uint("0", 1, 10, &v), -ERANGE);
	assert_int_equal(rdp_parse_uint("1e3", 0, 10000, &v), -EINVAL);
	assert_int_equal(rdp_parse_uint("0x10", 0, 100, &v), -EINVAL);
	assert_int_equal(rdp_parse_uint("+3", 0, 100, &v), -EINVAL);
}

static void test_client_full_line(void **state)
{
	struct rdp_opts o;
	char err[256];

	(void)state;
	assert_int_equal(CLIENT(&o, err, "write_bw", "-d", "rxe0", "-s", "4K",
				"-n", "10", "-q", "4", "-t", "64", "-x", "3",
				"-p", "9999", "--report_gbits", "-F",
				"10.0.0.1"),
			 RDP_PARSE_OK);
	assert_string_equal(o.bench->name, "write_bw");
	assert_string_equal(o.params.test, "write_bw");
	assert_string_equal(o.conn.dev, "rxe0");
	assert_string_equal(o.conn.host, "10.0.0.1");
	assert_int_equal(o.params.size_bytes, 4096);
	assert_int_equal(o.params.iters, 10);
	assert_int_equal(o.params.num_qps, 4);
	assert_int_equal(o.params.tx_depth, 64);
	assert_int_equal(o.params.cq_mod, 64); /* clamped to the depth */
	assert_int_equal(o.conn.gid_index, 3);
	assert_int_equal(o.conn.tcp_port, 9999);
	assert_int_equal(o.report.gbits, 1);
	assert_int_equal(o.report.no_freq_check, 1);
	assert_int_equal(o.params.warmup_iters, 0); /* bandwidth: none */
}

static void test_client_defaults(void **state)
{
	struct rdp_opts o;
	char err[256];

	(void)state;
	assert_int_equal(CLIENT(&o, err, "write_lat"), RDP_PARSE_OK);
	assert_string_equal(o.conn.host, ""); /* one-shot server */
	assert_int_equal(o.conn.gid_index, -1);
	assert_int_equal(o.conn.tcp_port, RDP_DEFAULT_PORT);
	assert_int_equal(o.params.size_bytes, 2); /* latency default */
	assert_int_equal(o.params.iters, 1000);
	assert_int_equal(o.params.warmup_iters, 100);
	assert_int_equal(o.conn.ib_port, 1);
}

static void test_duration_clears_iters(void **state)
{
	struct rdp_opts o;
	char err[256];

	(void)state;
	assert_int_equal(CLIENT(&o, err, "write_bw", "-D", "3", "h"),
			 RDP_PARSE_OK);
	assert_int_equal(o.params.duration_s, 3);
	assert_int_equal(o.params.iters, 0);
}

/* Each rejected line yields -EINVAL and a message naming the problem. */
static void reject_argv(const char *needle, int argc, char **argv)
{
	struct rdp_opts o;
	char err[256] = "";

	assert_int_equal(rdp_opts_parse_client(argc, argv, &o, err,
					       sizeof(err)),
			 -EINVAL);
	if (!strstr(err, needle))
		fail_msg("error '%s' does not mention '%s'", err, needle);
}

/* The client refuses the command line, naming NEEDLE in its error. */
#define expect_reject(needle, ...)                                             \
	reject_argv(needle, ARGC(__VA_ARGS__), ARGV(__VA_ARGS__))

static void test_rejections(void **state)
{
	(void)state;
	expect_reject("twice", "write_bw", "-s", "1", "-s", "2");
	expect_reject("exclude", "write_bw", "-n", "5", "-D", "2");
	expect_reject("exclude", "write_bw", "-D", "2", "-n", "5");
	expect_reject("-q", "write_bw", "-q", "0");
	expect_reject("-n", "write_bw", "-n", "ten");
	expect_reject("-m", "write_bw", "-m", "1000");
	expect_reject("unknown test 'nope'", "nope");
	expect_reject("write_lat", "nope");
	reject_argv("name the test", 1,
		    (char **)(const char *[]){ "rdmaperf", NULL });
	expect_reject("unknown option", "write_bw", "--bogus");
	expect_reject("unknown option -z", "write_bw", "-z");
	expect_reject("needs a value", "write_bw", "-s");
	expect_reject("unexpected argument", "write_bw", "a", "b");
	expect_reject("one QP", "write_lat", "-q", "2");
	expect_reject("1..1G", "write_bw", "-s", "2G");
}

static void test_lists(void **state)
{
	uint64_t v[RDP_MAX_POINTS];
	char many[400] = "1";
	size_t n = 0, i;

	(void)state;
	assert_int_equal(rdp_parse_list("64,4K,64K", 1, 1, 1u << 30, v, 8, &n),
			 0);
	assert_int_equal(n, 3);
	assert_int_equal(v[0], 64);
	assert_int_equal(v[1], 4096);
	assert_int_equal(v[2], 65536);
	assert_int_equal(rdp_parse_list("2:16:x2", 1, 1, 1u << 30, v, 8, &n),
			 0);
	assert_int_equal(n, 4);
	assert_int_equal(v[3], 16);
	assert_int_equal(rdp_parse_list("2:8M:x2", 1, 1, 1u << 30, v,
					RDP_MAX_POINTS, &n),
			 0);
	assert_int_equal(n, 23);
	assert_int_equal(v[22], 8u << 20);
	assert_int_equal(rdp_parse_list("1:10:+4,100", 0, 1, 4096, v, 8, &n),
			 0);
	assert_int_equal(n, 4);
	assert_int_equal(v[1], 5);
	assert_int_equal(v[2], 9);
	assert_int_equal(v[3], 100);
	/* Syntax, order and range errors. */
	assert_int_equal(rdp_parse_list("", 1, 1, 100, v, 8, &n), -EINVAL);
	assert_int_equal(rdp_parse_list("64,,128", 1, 1, 1000, v, 8, &n),
			 -EINVAL);
	assert_int_equal(rdp_parse_list("64,", 1, 1, 1000, v, 8, &n), -EINVAL);
	assert_int_equal(rdp_parse_list("8:2:x2", 1, 1, 100, v, 8, &n),
			 -EINVAL);
	assert_int_equal(rdp_parse_list("2:8", 1, 1, 100, v, 8, &n), -EINVAL);
	assert_int_equal(rdp_parse_list("2:8:y2", 1, 1, 100, v, 8, &n),
			 -EINVAL);
	assert_int_equal(rdp_parse_list("2:8:x1", 1, 1, 100, v, 8, &n),
			 -ERANGE);
	assert_int_equal(rdp_parse_list("0", 0, 1, 100, v, 8, &n), -ERANGE);
	assert_int_equal(rdp_parse_list("4K", 0, 1, 100000, v, 8, &n),
			 -EINVAL); /* QP counts take no suffix */
	for (i = 2; i <= RDP_MAX_POINTS + 1; i++)
		snprintf(many + strlen(many), sizeof(many) - strlen(many),
			 ",%zu", i);
	assert_int_equal(rdp_parse_list(many, 0, 1, 1000, v, RDP_MAX_POINTS,
					&n),
			 -E2BIG);
}

static void test_matrix_options(void **state)
{
	struct rdp_opts o;
	char err[256] = "";

	(void)state;
	assert_int_equal(CLIENT(&o, err, "write_bw", "-a", "-q", "1,2,4", "h"),
			 RDP_PARSE_OK);
	assert_int_equal(o.matrix.n_sizes, 23);
	assert_int_equal(o.matrix.sizes[0], 2);
	assert_int_equal(o.matrix.n_qps, 3);
	assert_int_equal(o.params.size_bytes, 2);
	assert_int_equal(o.params.num_qps, 1);
	assert_int_equal(CLIENT(&o, err, "atomic_bw", "h"), RDP_PARSE_OK);
	assert_int_equal(o.params.size_bytes, 8);
	expect_reject("exclude", "write_bw", "-a", "-s", "64");
	expect_reject("one QP", "send_lat", "-q", "1,2");
	expect_reject("8 bytes", "atomic_lat", "-s", "8,16");
	expect_reject("range", "write_bw", "-s", "64:8");
	expect_reject("FETCH_AND_ADD", "atomic_bw", "-A", "SWAP");
}

static void test_perftest_flags(void **state)
{
	struct rdp_opts o;
	char err[256] = "";

	(void)state;
	assert_int_equal(CLIENT(&o, err, "send_bw", "-I", "64", "-l", "4", "-u",
				"18", "-S", "3", "-T", "106", "-N", "-w",
				"12.5", "-y", "0.25", "-r", "64", "h"),
			 RDP_PARSE_OK);
	assert_int_equal(o.params.inline_bytes, 64);
	assert_int_equal(o.params.post_list, 4);
	assert_int_equal(o.params.qp_timeout, 18);
	assert_int_equal(o.params.sl, 3);
	assert_int_equal(o.params.tclass, 106);
	assert_int_equal(o.params.rx_depth, 64);
	assert_int_equal(o.report.no_peak, 1);
	assert_true(o.report.limit_bw_gbps == 12.5);
	assert_true(o.report.limit_msgrate_mpps == 0.25);
	assert_int_equal(CLIENT(&o, err, "write_lat", "--output", "latency",
				"h"),
			 RDP_PARSE_OK);
	assert_int_equal(o.report.output, RDP_OUTPUT_LAT);
	assert_int_equal(CLIENT(&o, err, "atomic_bw", "-A", "CMP_AND_SWAP",
				"-o", "4", "h"),
			 RDP_PARSE_OK);
	assert_true(o.params.flags & RDP_PARAM_CAS);
	assert_int_equal(o.params.outstanding, 4);
	/* Defaults both sides rely on. */
	assert_int_equal(CLIENT(&o, err, "write_bw", "h"), RDP_PARSE_OK);
	assert_int_equal(o.params.qp_timeout, 14);
	assert_int_equal(o.params.inline_bytes, 220);
	assert_int_equal(o.params.post_list, 32);
	assert_int_equal(CLIENT(&o, err, "write_bw", "-b", "-D", "5", "-f",
				"1.5", "--interval", "0.5", "h"),
			 RDP_PARSE_OK);
	assert_true(o.params.flags & RDP_PARAM_BIDIR);
	assert_true(o.report.margin_s == 1.5);
	assert_true(o.report.interval_s == 0.5);
	assert_int_equal(CLIENT(&o, err, "read_lat", "-H", "h"), RDP_PARSE_OK);
	assert_int_equal(o.report.histogram, 1);
	expect_reject("-b applies", "atomic_bw", "-b");
	expect_reject("-H applies", "write_bw", "-H");
	expect_reject("duration mode", "write_bw", "--interval", "1");
	expect_reject("twice the margin", "write_bw", "-D", "2", "-f", "1");
	expect_reject("same byte", "write_bw", "-T", "1", "--tclass", "2");
	expect_reject("-u", "write_bw", "-u", "32");
	expect_reject("-S", "write_bw", "-S", "16");
	expect_reject("-l", "write_bw", "-l", "0");
	expect_reject("-w needs", "write_bw", "-w", "fast");
	expect_reject("-w needs", "write_bw", "-w", "-1");
	expect_reject("bandwidth tests", "write_lat", "-w", "1");
	expect_reject("does not fit", "write_bw", "--output", "latency");
	expect_reject("use bandwidth", "write_bw", "--output", "all");
	expect_reject("stdout", "write_bw", "--output", "bandwidth", "--json");
}

static void test_server_line(void **state)
{
	struct rdp_opts o;
	char err[256] = "";
	const char *ok[] = {
		"rdmaperf-server", "-d",	"rxe0", "-p", "7000",
		"--bind",	   "127.0.0.1", NULL
	};
	const char *extra[] = { "rdmaperf-server", "-s", "64", NULL };
	const char *pos[] = { "rdmaperf-server", "write_bw", NULL };

	(void)state;
	assert_int_equal(rdp_opts_parse_server(7, (char **)ok, &o, err,
					       sizeof(err)),
			 RDP_PARSE_OK);
	assert_string_equal(o.conn.dev, "rxe0");
	assert_int_equal(o.conn.tcp_port, 7000);
	assert_string_equal(o.conn.bind, "127.0.0.1");
	/* Test parameters belong to the client. */
	assert_int_equal(rdp_opts_parse_server(3, (char **)extra, &o, err,
					       sizeof(err)),
			 -EINVAL);
	assert_int_equal(rdp_opts_parse_server(2, (char **)pos, &o, err,
					       sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "from each client"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size_suffixes),
		cmocka_unit_test(test_uint_ranges),
		cmocka_unit_test(test_client_full_line),
		cmocka_unit_test(test_client_defaults),
		cmocka_unit_test(test_duration_clears_iters),
		cmocka_unit_test(test_rejections),
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_matrix_options),
		cmocka_unit_test(test_perftest_flags),
		cmocka_unit_test(test_server_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
