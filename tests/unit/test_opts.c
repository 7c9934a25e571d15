/* SPDX-License-Identifier: BSD-2-Clause */
/* Command-line parsing: accepted forms, rejected forms, one clear line. */
#include <ctype.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/opts.h>
#include <rdmaperf/tool.h>

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
	/* What the reports print reads back: KiB, MiB, GiB, B. */
	assert_int_equal(rdp_parse_size("4KiB", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(rdp_parse_size("4KB", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(rdp_parse_size("4kb", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(rdp_parse_size("1MiB", &v), 0);
	assert_int_equal(v, 1u << 20);
	assert_int_equal(rdp_parse_size("2GiB", &v), 0);
	assert_int_equal(v, 2ull << 30);
	assert_int_equal(rdp_parse_size("64B", &v), 0);
	assert_int_equal(v, 64);
	assert_int_equal(rdp_parse_size("4KiBs", &v), -EINVAL);
	assert_int_equal(rdp_parse_size("4Ki", &v), -EINVAL);
	assert_int_equal(rdp_parse_size("4KK", &v), -EINVAL);
	assert_int_equal(rdp_parse_size("4BB", &v), -EINVAL);
	assert_int_equal(rdp_parse_size("4iB", &v), -EINVAL);
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

/* Output files are checked when the command line is read, before any
 * connection: one whole line naming the option, the path and the fix. */
static void reject_line(const char *line, int argc, char **argv)
{
	struct rdp_opts o;
	char err[256] = "";

	assert_int_equal(rdp_opts_parse_client(argc, argv, &o, err,
					       sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, line);
}

#define expect_line(line, ...)                                                 \
	reject_line(line, ARGC(__VA_ARGS__), ARGV(__VA_ARGS__))

static void test_output_paths(void **state)
{
	struct rdp_opts o;
	char err[256];

	(void)state;
	expect_line("--json-file /nonexistent/x.json: no directory "
		    "/nonexistent: create it or name a file in one that exists",
		    "write_bw", "--json-file", "/nonexistent/x.json", "h");
	expect_line("--json-file /tmp is a directory: name a file in it, e.g. "
		    "/tmp/rdmaperf.json",
		    "write_bw", "--json-file", "/tmp", "h");
	expect_line("--out_json_file /tmp is a directory: name a file in it, "
		    "e.g. /tmp/rdmaperf.json",
		    "write_bw", "--out_json_file", "/tmp", "h");
	expect_line("--json-file needs a file name, e.g. results.json",
		    "write_bw", "--json-file", "/tmp/", "h");
	expect_line("--plot /nonexistent/x.svg: no directory /nonexistent: "
		    "create it or name a file in one that exists",
		    "write_bw", "--plot", "/nonexistent/x.svg", "h");
	expect_line("--plot /tmp is a directory: name a file in it, e.g. "
		    "/tmp/rdmaperf.svg",
		    "write_bw", "--plot", "/tmp", "h");
	/* A file that exists and can be written, and a new one in a
	 * directory that exists. */
	assert_int_equal(CLIENT(&o, err, "write_bw", "--json-file", "/dev/null",
				"--plot", "/tmp/rdp-plot.svg", "h"),
			 RDP_PARSE_OK);
	assert_string_equal(o.report.json_file, "/dev/null");
}

/* Mistakes found while the command line is read, each one line that
 * names the problem and the fix. */
static void test_fail_fast_lines(void **state)
{
	struct rdp_opts o;
	char err[256];

	(void)state;
	expect_line("-s 1:8M:x1: a factor of 1 never grows: use a factor from "
		    "x2 or a step from +1",
		    "write_bw", "-s", "1:8M:x1", "h");
	expect_line("-s 64,1:8:+0: a step of 0 never grows: use a factor from "
		    "x2 or a step from +1",
		    "write_bw", "-s", "64,1:8:+0", "h");
	expect_line("-s 4K:1K:x2 runs backwards (start above end): give "
		    "FIRST:LAST with FIRST <= LAST",
		    "write_bw", "-s", "4K:1K:x2", "h");
	expect_line("-q 8:2:+1 runs backwards (start above end): give "
		    "FIRST:LAST with FIRST <= LAST",
		    "write_bw", "-q", "8:2:+1", "h");
	/* Any option that takes no value, by its name or a prefix of it. */
	expect_line("--json takes no value: give --json alone, not "
		    "'--json=yes'",
		    "write_bw", "--json=yes", "h");
	expect_line("--run_infinitely takes no value: give --run_infinitely "
		    "alone, not '--run_infinitely=1'",
		    "write_bw", "--run_infinitely=1", "h");
	assert_int_equal(CLIENT(&o, err, "write_bw", "-s", "4KiB,1MiB", "h"),
			 RDP_PARSE_OK);
	assert_int_equal(o.matrix.sizes[0], 4096);
	assert_int_equal(o.matrix.sizes[1], 1u << 20);
	/* --bind: a numeric address, at parse time. */
	assert_int_equal(SERVER(&o, err, "--bind", "10.0.0"), -EINVAL);
	assert_string_equal(err, "--bind 10.0.0 is not an IPv4 or IPv6 "
				 "address: give a numeric address of this "
				 "host (see `ip addr`)");
	assert_int_equal(SERVER(&o, err, "--bind", "host.example"), -EINVAL);
	assert_int_equal(SERVER(&o, err, "--bind", "::1"), RDP_PARSE_OK);
	assert_int_equal(SERVER(&o, err, "--version=2"), -EINVAL);
	assert_string_equal(err, "--version takes no value: give --version "
				 "alone, not '--version=2'");
}

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
	expect_reject("unknown option -Y", "write_bw", "-Y");
	expect_reject("needs a value", "write_bw", "-s");
	expect_reject("unexpected argument", "write_bw", "a", "b");
	expect_reject("one QP", "write_lat", "-q", "2");
	expect_reject("1..1G", "write_bw", "-s", "2G");
	expect_reject("-e: write_lat polls its memory", "write_lat", "-e", "h");
	expect_reject("-e with --perftest: perftest's ping-pong", "read_lat",
		      "-e", "--perftest", "h");
	expect_reject("-X picks the completion vector of -e: add -e",
		      "write_bw", "-X", "1", "h");
	expect_reject("-e does not combine with --bounce", "write_bw", "-e",
		      "--use_cuda=0", "--bounce", "h");
	expect_reject("do not apply with -R", "write_bw", "-R", "--flow_label",
		      "5", "h");
	expect_reject("0..1048575", "write_bw", "--flow_label", "1048576", "h");
	expect_reject("0..7", "write_bw", "--rnr_retry", "8", "h");
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
			 RDP_LIST_BACKWARDS);
	assert_int_equal(rdp_parse_list("2:8", 1, 1, 100, v, 8, &n), -EINVAL);
	assert_int_equal(rdp_parse_list("2:8:y2", 1, 1, 100, v, 8, &n),
			 -EINVAL);
	assert_int_equal(rdp_parse_list("2:8:x1", 1, 1, 100, v, 8, &n),
			 RDP_LIST_STILL);
	assert_int_equal(rdp_parse_list("2:8:x0", 1, 1, 100, v, 8, &n),
			 RDP_LIST_STILL);
	assert_int_equal(rdp_parse_list("2:8:+0", 0, 1, 100, v, 8, &n),
			 RDP_LIST_STILL);
	assert_int_equal(rdp_parse_list("1KiB:4KB:x2", 1, 1, 100000, v, 8, &n),
			 0);
	assert_int_equal(n, 3);
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
	expect_reject("-b applies", "send_lat", "-b");
	expect_reject("send_bw -b runs on RC, polling", "send_bw", "-b", "-c",
		      "UD");
	expect_reject("send_bw -b runs on RC, polling", "send_bw", "-b",
		      "--use-srq");
	assert_int_equal(CLIENT(&o, err, "send_bw", "-b", "--perftest", "h"),
			 RDP_PARSE_OK);
	assert_int_equal(CLIENT(&o, err, "atomic_bw", "-b", "h"), RDP_PARSE_OK);
	assert_int_equal(CLIENT(&o, err, "atomic_bw", "-b", "--perftest", "h"),
			 RDP_PARSE_OK);
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

/* perftest's own names, as wrappers pass them. */
static void test_perftest_names(void **state)
{
	struct rdp_opts o;
	char err[256] = "";

	(void)state;
	assert_int_equal(CLIENT(&o, err, "write_bw", "--out_json", "h"),
			 RDP_PARSE_OK);
	assert_string_equal(o.report.json_file, "perftest_out.json");
	assert_int_equal(o.report.json, 0); /* the table stays on stdout */
	assert_int_equal(CLIENT(&o, err, "write_bw", "--out_json_file=r.json",
				"--out_json", "h"),
			 RDP_PARSE_OK);
	assert_string_equal(o.report.json_file, "r.json");
	assert_int_equal(CLIENT(&o, err, "write_bw", "--out_json",
				"--out_json_file", "r.json", "h"),
			 RDP_PARSE_OK);
	assert_string_equal(o.report.json_file, "r.json");
	assert_int_equal(CLIENT(&o, err, "send_lat", "--report-histogrm", "-U",
				"-C", "-c", "RC", "--perform_warm_up",
				"--bind_source_ip", "10.0.0.1", "h"),
			 RDP_PARSE_OK);
	assert_int_equal(o.report.histogram, 1);
	assert_int_equal(o.report.samples, 1);
	assert_int_equal(o.report.cycles, 1);
	assert_string_equal(o.conn.source_ip, "10.0.0.1");
	assert_int_equal(CLIENT(&o, err, "write_lat", "--report-unsorted",
				"--report-cycles", "-c", "rc", "h"),
			 RDP_PARSE_OK);
	assert_int_equal(o.report.samples + o.report.cycles, 2);
	expect_reject("-c DC: rdmaperf runs RC, UC and UD QPs; DC (a vendor's "
		      "own transport) is not built in",
		      "send_bw", "-c", "DC");
	expect_reject("-c QQ: unknown transport", "send_bw", "-c", "QQ");
	expect_reject("-U applies", "write_bw", "-U");
	expect_reject("-C applies", "read_bw", "-C");
	expect_reject("--dont_xchg_versions: rdmaperf always exchanges",
		      "write_bw", "--dont_xchg_versions");
	assert_int_equal(CLIENT(&o, err, "write_bw", "--run_infinitely", "h"),
			 RDP_PARSE_OK);
	assert_true(o.params.flags & RDP_PARAM_LIVE);
	assert_int_equal(o.params.duration_s, 5); /* the default interval */
	assert_int_equal(o.params.iters, 0);
	assert_int_equal(CLIENT(&o, err, "send_bw", "--run_infinitely", "-D",
				"3", "h"),
			 RDP_PARSE_OK);
	assert_true(o.report.interval_s == 3);
	assert_int_equal(CLIENT(&o, err, "send_bw", "--run_infinitely",
				"--interval", "0.5", "h"),
			 RDP_PARSE_OK);
	assert_int_equal(o.params.duration_s, 1);
	assert_true(o.report.interval_s == 0.5);
	expect_reject("--run_infinitely runs the bandwidth tests", "write_lat",
		      "--run_infinitely");
	expect_reject("-n and --run_infinitely exclude each other", "write_bw",
		      "--run_infinitely", "-n", "10");
	expect_reject("--run_infinitely runs one size", "write_bw",
		      "--run_infinitely", "-a");
	expect_reject("--run_infinitely does not combine with -b", "write_bw",
		      "--run_infinitely", "-b");
	expect_reject("--out_json_file needs a file name", "write_bw",
		      "--out_json_file=");
	assert_int_equal(CLIENT(&o, err, "write_bw", "--perftest",
				"--perftest-block=312", "h"),
			 RDP_PARSE_OK);
	assert_int_equal(o.conn.perftest, 1);
	assert_int_equal(o.conn.perftest_block, 312);
	assert_int_equal(CLIENT(&o, err, "read_bw", "--perftest", "-q", "2"),
			 RDP_PARSE_OK);
	assert_int_equal(o.conn.host[0], 0);
	expect_reject("312 (perftest built without mlx5dv) or 320", "write_bw",
		      "--perftest", "--perftest-block", "300", "h");
	expect_reject("--perftest-block applies to --perftest", "write_bw",
		      "--perftest-block", "320", "h");
	/* the same flags on both sides: the server takes it, the client
	 * decides */
	assert_int_equal(SERVER(&o, err, "--run_infinitely"), RDP_PARSE_OK);
}

/* -c: the transport travels in the parameters; what a test cannot run
 * on it is refused by the same check the server applies. */
static void test_transports(void **state)
{
	char err[256];
	struct rdp_opts o;

	(void)state;
	assert_int_equal(CLIENT(&o, err, "send_bw", "-c", "ud", "h"),
			 RDP_PARSE_OK);
	assert_int_equal(o.params.transport, RDP_TRANSPORT_UD);
	assert_int_equal(o.params.size_bytes, 1024); /* one packet */
	assert_int_equal(CLIENT(&o, err, "send_bw", "-c", "UD", "-s", "4096",
				"h"),
			 RDP_PARSE_OK);
	assert_int_equal(o.params.size_bytes, 4096);
	assert_int_equal(CLIENT(&o, err, "write_lat", "-c", "UC", "h"),
			 RDP_PARSE_OK);
	assert_int_equal(o.params.transport, RDP_TRANSPORT_UC);
	assert_int_equal(CLIENT(&o, err, "send_lat", "-c", "RC", "h"),
			 RDP_PARSE_OK);
	assert_int_equal(o.params.transport, RDP_TRANSPORT_RC);
	expect_reject("read_bw: RDMA READ needs a reliable connection, which "
		      "UC is not: use -c RC",
		      "read_bw", "-c", "UC");
	expect_reject("atomic_bw: an atomic needs a reliable connection, "
		      "which UD is not",
		      "atomic_bw", "-c", "UD");
	expect_reject("write_bw: RDMA WRITE needs a connected QP and UD only "
		      "sends datagrams",
		      "write_bw", "-c", "UD");
	expect_reject("-R connects RC QPs: drop -R to run -c UC", "send_bw",
		      "-c", "UC", "-R");
	expect_reject("--perftest meets perftest on RC", "send_bw", "-c", "UD",
		      "--perftest");
	expect_reject("-c UD runs on host memory", "send_bw", "-c", "UD",
		      "--use_cuda", "0");
}

/* The usage errors (exit 2) the Soft-RoCE tier used to assert on a real
 * device, with its options: the client refuses them before it opens one. */
static void test_usage_lines(void **state)
{
	(void)state;
	expect_reject("RDMA READ needs a reliable connection, which UC is not: "
		      "use -c RC",
		      "read_bw", "-c", "UC", "-n", "10", "-d", "rxe0", "h");
	expect_reject("an atomic needs a reliable connection, which UD is not: "
		      "use -c RC",
		      "atomic_lat", "-c", "UD", "-n", "10", "-d", "rxe0", "h");
	expect_reject("RDMA WRITE needs a connected QP and UD only sends "
		      "datagrams",
		      "write_bw", "-c", "UD", "-n", "10", "-d", "rxe0", "h");
	expect_reject("RDMA WRITE needs a connected QP", "write_lat", "-c",
		      "UD", "-n", "10", "-d", "rxe0", "h");
	expect_reject("-f needs -D longer than twice the margin", "write_bw",
		      "-D", "2", "-f", "1", "h");
	expect_reject("-b applies to write_bw, read_bw, send_bw and atomic_bw",
		      "send_lat", "-b", "h");
}

/* Immediate data: WRITE on write_bw, SEND on the SEND tests. */
static void test_immediate(void **state)
{
	char err[256];
	struct rdp_opts o;

	(void)state;
	assert_int_equal(CLIENT(&o, err, "send_lat", "-e", "h"), RDP_PARSE_OK);
	assert_true(o.params.flags & RDP_PARAM_EVENTS);
	assert_int_equal(CLIENT(&o, err, "write_bw", "--write_with_imm", "h"),
			 RDP_PARSE_OK);
	assert_true(o.params.flags & RDP_PARAM_WRITE_IMM);
	assert_int_equal(CLIENT(&o, err, "send_lat", "--send_with_imm", "h"),
			 RDP_PARSE_OK);
	assert_true(o.params.flags & RDP_PARAM_SEND_IMM);
	assert_int_equal(CLIENT(&o, err, "write_lat", "--write_with_imm", "h"),
			 RDP_PARSE_OK);
	expect_reject("send_bw: --write_with_imm applies to write_bw and "
		      "write_lat",
		      "send_bw", "--write_with_imm");
	expect_reject("write_bw: --write_with_imm runs one way: drop -b",
		      "write_bw", "--write_with_imm", "-b");
	expect_reject("read_bw: --send_with_imm applies to send_bw and "
		      "send_lat",
		      "read_bw", "--send_with_imm");
	expect_reject("--perftest runs perftest's plain verbs", "send_bw",
		      "--send_with_imm", "--perftest");
	assert_int_equal(CLIENT(&o, err, "write_bw", "--mr_per_qp", "h"),
			 RDP_PARSE_OK);
	assert_true(o.params.flags & RDP_PARAM_MR_PER_QP);
	expect_reject("--mr_per_qp registers host memory", "write_bw",
		      "--mr_per_qp", "--use_cuda", "0");
	expect_reject("--mr_per_qp does not apply with --perftest", "write_bw",
		      "--mr_per_qp", "--perftest");
	/* Its key would cover the whole address space: refused, naming the
	 * explicit kind. */
	assert_int_equal(CLIENT(&o, err, "read_bw", "--implicit_odp", "h"),
			 -EINVAL);
	assert_non_null(strstr(err, "--implicit_odp"));
	assert_non_null(strstr(err, "whole address space"));
	assert_non_null(strstr(err, "use --odp"));
	expect_reject("--odp pages host memory", "write_bw", "--odp",
		      "--use_cuda", "0");
	assert_int_equal(CLIENT(&o, err, "send_bw", "--use-srq", "-q", "4",
				"h"),
			 RDP_PARSE_OK);
	assert_true(o.params.flags & RDP_PARAM_SRQ);
	expect_reject("write_bw: --use-srq applies to send_bw and send_lat",
		      "write_bw", "--use-srq");
	expect_reject("--use-srq does not combine with --bounce", "send_bw",
		      "--use-srq", "--perftest");
}

/* --threads: bandwidth tests with a QP a thread, sent to the server, and
 * refused with what the threads would share. */
static void test_threads(void **state)
{
	struct rdp_opts o;
	char err[256] = "";

	(void)state;
	assert_int_equal(CLIENT(&o, err, "write_bw", "--threads", "2", "-q",
				"4", "h"),
			 RDP_PARSE_OK);
	assert_int_equal(o.params.threads, 2);
	assert_int_equal(CLIENT(&o, err, "send_bw", "h"), RDP_PARSE_OK);
	assert_int_equal(o.params.threads, 1);
	expect_reject("write_lat is a latency test", "write_lat", "--threads",
		      "2", "h");
	expect_reject("--threads 4 needs a QP for each thread and -q gives 2",
		      "read_bw", "--threads", "4", "-q", "2", "h");
	/* a -q list: every point must have a QP a thread */
	expect_reject("-q gives 1", "write_bw", "--threads", "2", "-q", "1,2,4",
		      "h");
	expect_reject("--threads with -e", "send_bw", "--threads", "2", "-q",
		      "2", "-e", "h");
	expect_reject("--threads with --run_infinitely", "write_bw",
		      "--threads", "2", "-q", "2", "--run_infinitely", "h");
	expect_reject("--threads with --use-srq", "send_bw", "--threads", "2",
		      "-q", "2", "--use-srq", "h");
	expect_reject("--threads with --rate_limit", "write_bw", "--threads",
		      "2", "-q", "2", "--rate_limit", "1", "h");
	expect_reject("--threads does not combine with --bounce", "write_bw",
		      "--threads", "2", "-q", "2", "--perftest", "h");
	expect_reject("--threads", "write_bw", "--threads", "0", "h");
	expect_reject("--threads", "write_bw", "--threads", "65", "-q", "128",
		      "h");
}

/* Pacing: the rate in the units asked, who paces, what it cannot pace. */
static void test_rate_limit(void **state)
{
	char err[256];
	struct rdp_opts o;

	(void)state;
	assert_int_equal(CLIENT(&o, err, "write_bw", "--rate_limit", "0.05",
				"h"),
			 RDP_PARSE_OK);
	assert_int_equal(o.params.rate_milli, 50);
	assert_int_equal(o.params.rate_units, RDP_RATE_GBPS);
	assert_int_equal(o.params.rate_type, RDP_RATE_AUTO);
	o.params.size_bytes = 4096; /* 0.05 Gb/s of 4 KiB messages */
	assert_true(rdp_rate_msgs_per_s(&o.params) > 1525.8 &&
		    rdp_rate_msgs_per_s(&o.params) < 1525.9);
	assert_int_equal(rdp_rate_kbps(&o.params), 50000);
	assert_int_equal(CLIENT(&o, err, "send_bw", "--rate_limit=2000",
				"--rate_units", "p", "--rate_limit_type", "SW",
				"h"),
			 RDP_PARSE_OK);
	assert_int_equal(o.params.rate_units, RDP_RATE_PPS);
	assert_int_equal(o.params.rate_type, RDP_RATE_SW);
	assert_true(rdp_rate_msgs_per_s(&o.params) == 2000);
	assert_int_equal(CLIENT(&o, err, "read_bw", "--rate_limit", "100",
				"--rate_units", "M", "h"),
			 RDP_PARSE_OK);
	assert_int_equal(o.params.rate_units, RDP_RATE_MIBPS);
	assert_string_equal(rdp_rate_units_name(RDP_RATE_MIBPS), "MiB/s");
	expect_reject("--rate_limit needs a rate from 0.001", "write_bw",
		      "--rate_limit", "0");
	expect_reject("--rate_limit needs a rate", "write_bw", "--rate_limit",
		      "fast");
	expect_reject("--rate_units Kbps: give Gbps", "write_bw",
		      "--rate_limit", "1", "--rate_units", "Kbps");
	expect_reject("--rate_limit_type PP is perftest's mlx5", "write_bw",
		      "--rate_limit", "1", "--rate_limit_type", "PP");
	expect_reject("--rate_limit paces the bandwidth tests", "write_lat",
		      "--rate_limit", "1");
	expect_reject("--rate_limit does not combine with -e", "write_bw",
		      "--rate_limit", "1", "-e");
	expect_reject("--rate_limit_type HW takes a bit rate", "write_bw",
		      "--rate_limit", "1", "--rate_units", "pps",
		      "--rate_limit_type", "HW");
	expect_reject("--rate_units and --rate_limit_type go with --rate_limit",
		      "write_bw", "--rate_units", "Mbps");
}

/* The server applies the same check to a client's parameters, and to a
 * transport number it does not know. */
static void test_transport_check(void **state)
{
	struct rdp_params p = { .test = "write_lat",
				.size_bytes = 64,
				.num_qps = 1 };
	char why[256];

	(void)state;
	p.transport = RDP_TRANSPORT_UC;
	assert_int_equal(rdp_bench_validate(rdp_bench_find("write_lat"), &p,
					    why, sizeof(why)),
			 0);
	p.transport = RDP_TRANSPORT_UD;
	assert_int_equal(rdp_bench_validate(rdp_bench_find("write_lat"), &p,
					    why, sizeof(why)),
			 -EINVAL);
	/* Where it runs instead: the transport rows, nearest first; which
	 * tests run on UD: the registry's rows with RDP_BENCH_UD. */
	assert_string_equal(why, "write_lat: RDMA WRITE needs a connected QP "
				 "and UD only sends datagrams: use -c UC or "
				 "-c RC (or send_bw, send_lat on UD)");
	p.transport = RDP_TRANSPORT_UC;
	snprintf(p.test, sizeof(p.test), "read_lat");
	assert_int_equal(rdp_bench_validate(rdp_bench_find("read_lat"), &p, why,
					    sizeof(why)),
			 -EINVAL);
	assert_string_equal(why, "read_lat: RDMA READ needs a reliable "
				 "connection, which UC is not: use -c RC");
	p.transport = 7;
	assert_int_equal(rdp_bench_validate(rdp_bench_find("send_lat"), &p, why,
					    sizeof(why)),
			 -EINVAL);
	assert_string_equal(why, "transport 7 unknown: give -c RC, UC or UD");
	assert_string_equal(rdp_transport_name(7), "?");
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
	/* One client's bounds: finite by default, in range when given. */
	assert_int_equal(SERVER(&o, err, "-p", "7000"), RDP_PARSE_OK);
	assert_int_equal(o.conn.max_session_s, 4 * 3600);
	assert_int_equal(o.conn.max_points, 1024);
	assert_int_equal(o.conn.any_gid, 0);
	assert_int_equal(SERVER(&o, err, "--max-session", "60", "--max-points",
				"8", "--any-gid"),
			 RDP_PARSE_OK);
	assert_int_equal(o.conn.max_session_s, 60);
	assert_int_equal(o.conn.max_points, 8);
	assert_int_equal(o.conn.any_gid, 1);
	assert_int_equal(SERVER(&o, err, "--max-session", "0"), -EINVAL);
	assert_int_equal(SERVER(&o, err, "--max-session", "604801"), -EINVAL);
	assert_int_equal(SERVER(&o, err, "--max-points", "0"), -EINVAL);
}

/* The long names and letters an OPTIONS section lists after .TP lines. */
#define MAN_MAX 256

struct man_opt {
	char name[40];
	int letter;
};

/* "\-\-cq\-mod" at s: the name with its escapes removed. */
static const char *man_word(const char *s, char *out, size_t len)
{
	size_t n = 0;

	while (*s && n + 1 < len) {
		if (s[0] == '\\' && s[1] == '-') {
			out[n++] = '-';
			s += 2;
		} else if (isalnum((unsigned char)*s) || *s == '_') {
			out[n++] = *s++;
		} else {
			break;
		}
	}
	out[n] = '\0';
	return s;
}

static size_t man_options(const char *file, struct man_opt *o, size_t cap)
{
	char path[512], line[512], prev[512] = "";
	const char *p;
	size_t n = 0;
	int in = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/../../man/%s", RDP_FIXTURES_DIR, file);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, ".SH ", 4))
			in = !strncmp(line, ".SH OPTIONS", 11);
		if (in && !strncmp(prev, ".TP", 3) && line[0] == '.' &&
		    (p = strstr(line, "\\-\\-")) && n < cap) {
			man_word(p + 4, o[n].name, sizeof(o[n].name));
			o[n].letter = !strncmp(line + 3, " \\-", 3) &&
						      line[6] != '\\'
					      ? line[6]
					      : 0;
			n++;
		}
		snprintf(prev, sizeof(prev), "%s", line);
	}
	fclose(f);
	return n;
}

/* Every row of side in the man page, with its letter; nothing more. */
static void check_man(const char *file, unsigned int side)
{
	struct man_opt man[MAN_MAX];
	size_t n = man_options(file, man, MAN_MAX), i, k, rows = 0;
	int found;

	for (i = 0; i < rdp_cli_n_opts; i++) {
		const struct rdp_cli_opt *d = &rdp_cli_opts[i];

		if (!(d->sides & side))
			continue;
		rows++;
		for (found = 0, k = 0; k < n && !found; k++)
			found = !strcmp(man[k].name, d->name);
		if (!found)
			fail_msg("%s lacks --%s", file, d->name);
		if (man[k - 1].letter != d->letter)
			fail_msg("%s: --%s has letter '%c', the table '%c'",
				 file, d->name, man[k - 1].letter ?: ' ',
				 d->letter ?: ' ');
	}
	for (k = 0; k < n; k++) {
		for (found = 0, i = 0; i < rdp_cli_n_opts && !found; i++)
			found = (rdp_cli_opts[i].sides & side) &&
				!strcmp(man[k].name, rdp_cli_opts[i].name);
		if (!found)
			fail_msg("%s lists --%s, which the table lacks", file,
				 man[k].name);
	}
	assert_int_equal(n, rows);
}

static void test_man_pages(void **state)
{
	(void)state;
	check_man("rdmaperf.1", RDP_CLI_CLIENT);
	check_man("rdmaperf-server.1", RDP_CLI_SERVER);
}

/* Within one command, a name or a letter means one option. */
static void test_table_unique(void **state)
{
	static const unsigned int sides[] = { RDP_CLI_CLIENT, RDP_CLI_SERVER,
					      RDP_CLI_DOCTOR };
	size_t s, i, k;

	(void)state;
	for (s = 0; s < sizeof(sides) / sizeof(sides[0]); s++)
		for (i = 0; i < rdp_cli_n_opts; i++)
			for (k = i + 1; k < rdp_cli_n_opts; k++) {
				const struct rdp_cli_opt *a = &rdp_cli_opts[i],
							 *b = &rdp_cli_opts[k];

				if (!(a->sides & b->sides & sides[s]))
					continue;
				assert_string_not_equal(a->name, b->name);
				if (a->letter)
					assert_int_not_equal(a->letter,
							     b->letter);
			}
}

/* Defaults come from the rows; the server's check takes them. */
static void test_table_defaults(void **state)
{
	static struct rdp_opts o;
	struct rdp_params p;
	char err[256];

	(void)state;
	assert_int_equal(
		rdp_opts_parse_server(1, ARGV(NULL), &o, err, sizeof(err)), 0);
	assert_int_equal(o.conn.max_memory_bytes, 4ull << 30);
	assert_int_equal(o.conn.oob_timeout_ms, 5000);
	assert_int_equal(o.conn.gid_index, -1);
	assert_int_equal(o.conn.tcp_port, 18515);
	rdp_params_defaults(&p);
	assert_int_equal(p.tx_depth, 128);
	assert_int_equal(p.qp_timeout, 14);
	assert_int_equal(p.inline_bytes, 220);
	assert_int_equal(rdp_cli_check_params(&p, err, sizeof(err)), 0);
	p.outstanding = 0; /* the default: the device's limit */
	assert_int_equal(rdp_cli_check_params(&p, err, sizeof(err)), 0);
	p.outstanding = 256;
	assert_int_equal(rdp_cli_check_params(&p, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "-o 256"));
	assert_non_null(strstr(err, "1..255"));
	p.outstanding = 255;
	p.size_bytes = RDP_MSG_MAX_BYTES + 1;
	assert_int_equal(rdp_cli_check_params(&p, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "-s "));
	p.size_bytes = RDP_MSG_MAX_BYTES;
	p.num_qps = 0;
	assert_int_equal(rdp_cli_check_params(&p, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "-q 0"));
}

/* --help is the table: every client row, its default and range. */
static void test_usage_from_table(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	rdp_opts_usage_client(f);
	fclose(f);
	assert_non_null(strstr(buf, "-u, --qp-timeout=N"));
	assert_non_null(strstr(buf, "(0..31, default 14)"));
	assert_non_null(strstr(buf, "(1..255)"));
	assert_null(strstr(buf, "--bind="));
	/* The tests a row's help names come from the registry's bits. */
	assert_non_null(strstr(buf, "--use-srq              send_bw, send_lat: "
				    "every QP's receives on one shared "
				    "receive queue, on both sides\n"));
	assert_non_null(strstr(buf, "--write_with_imm       write_bw, "
				    "write_lat: RDMA WRITE with immediate "
				    "data"));
	assert_non_null(strstr(buf, "--send_with_imm        send_bw, "
				    "send_lat: SEND with immediate data\n"));
	assert_non_null(strstr(buf, "both sides send at once (write_bw, "
				    "read_bw, send_bw, atomic_bw); TX and RX "
				    "reported\n"));
	assert_null(strstr(buf, RDP_CLI_TESTS));
	free(buf);
}

/* No help names a test by hand: a row lists its tests by a capability
 * bit (.tests) and says where (RDP_CLI_TESTS), and only such a row. */
static void test_help_names_no_test(void **state)
{
	const struct rdp_bench_ops *const *b;
	const struct rdp_cli_opt *d;
	size_t i;

	(void)state;
	for (i = 0; i < rdp_cli_n_opts; i++) {
		d = &rdp_cli_opts[i];
		for (b = rdp_bench_all(); *b; b++)
			if (strstr(d->help, (*b)->name))
				fail_msg("--%s's help names %s: give the row "
					 ".tests and say " RDP_CLI_TESTS,
					 d->name, (*b)->name);
		if (!d->tests != !strstr(d->help, RDP_CLI_TESTS))
			fail_msg("--%s: .tests and " RDP_CLI_TESTS
				 " in its help go together",
				 d->name);
	}
}

/* A letter means one thing in every command: a subcommand's -X, when
 * rdmaperf has -X too, is the same option. */
static void test_tool_letters(void **state)
{
	const struct rdp_tool *const *t;
	size_t i, k;

	(void)state;
	for (t = rdp_tool_all(); *t; t++) {
		if (!(*t)->opts)
			continue;
		for (i = 0; i < (*t)->opts->n; i++) {
			const struct rdp_cli_opt *d = &(*t)->opts->opts[i];

			for (k = 0; d->letter && k < rdp_cli_n_opts; k++)
				if (rdp_cli_opts[k].letter == d->letter &&
				    (rdp_cli_opts[k].sides & RDP_CLI_CLIENT) &&
				    strcmp(rdp_cli_opts[k].name, d->name))
					fail_msg("%s -%c is --%s, rdmaperf's "
						 "is --%s",
						 (*t)->name, d->letter, d->name,
						 rdp_cli_opts[k].name);
		}
	}
}

static int tool(const char *name, int argc, char **argv)
{
	return rdp_tool_find(name)->main(argc, argv);
}

/* Subcommands: strict values and unknown options are usage errors. */
static void test_tool_usage_errors(void **state)
{
	(void)state;
	assert_null(rdp_tool_find("accept"));
	assert_int_equal(tool("compare", 4, ARGV("--tolerance", "5x", "a")), 2);
	assert_int_equal(tool("compare", 4, ARGV("--tolerance", "100%", "a")),
			 2);
	assert_int_equal(
		tool("compare", 5,
		     ARGV("--tolerance", "5", "--tolerance", "6", "a")),
		2);
	assert_int_equal(tool("plot", 4, ARGV("a.json", "-o", "x.svg")), 2);
	assert_int_equal(tool("certify", 4, ARGV("host", "--band", "90")), 2);
	assert_int_equal(tool("certify", 4, ARGV("host", "--band", "95-90")),
			 2);
	assert_int_equal(tool("certify", 4, ARGV("host", "-p", "0")), 2);
	assert_int_equal(
		tool("certify", 4, ARGV("host", "--time-per-point", "0")), 2);
	assert_int_equal(tool("certify", 3, ARGV("host", "-o")), 2);
	assert_int_equal(tool("doctor", 3, ARGV("-i", "255")), 2);
	assert_int_equal(tool("doctor", 2, ARGV("--help")), 0);
}

/* The completion script lists each command's options from its table. */
static void test_completion(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	rdp_cli_completion_bash(f);
	fclose(f);
	assert_non_null(strstr(buf, " --outstanding -o "));
	assert_non_null(strstr(buf, "certify) words=\" --ib-dev -d --port -p "
				    "--dir "));
	assert_non_null(strstr(buf, "plot) words=\" --svg --help -h\""));
	assert_non_null(strstr(buf, "complete -F _rdmaperf_server "
				    "rdmaperf-server"));
	assert_non_null(strstr(buf, "words=\"write_bw write_lat "));
	free(buf);
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
		cmocka_unit_test(test_perftest_names),
		cmocka_unit_test(test_transports),
		cmocka_unit_test(test_transport_check),
		cmocka_unit_test(test_usage_lines),
		cmocka_unit_test(test_immediate),
		cmocka_unit_test(test_rate_limit),
		cmocka_unit_test(test_server_line),
		cmocka_unit_test(test_man_pages),
		cmocka_unit_test(test_table_unique),
		cmocka_unit_test(test_table_defaults),
		cmocka_unit_test(test_usage_from_table),
		cmocka_unit_test(test_help_names_no_test),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_tool_letters),
		cmocka_unit_test(test_tool_usage_errors),
		cmocka_unit_test(test_completion),
		cmocka_unit_test(test_output_paths),
		cmocka_unit_test(test_fail_fast_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
