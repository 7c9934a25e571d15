/* SPDX-License-Identifier: BSD-2-Clause */
/* rdmaperf compare against JSON fixtures: which points regress, which
 * are missing, and the exit codes of the subcommand. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>

#include <rdmaperf/compare.h>
#include <rdmaperf/tool.h>

#define FIX(name) RDP_FIXTURES_DIR "/compare/" name

static json_t *load(const char *path)
{
	json_t *doc = json_load_file(path, 0, NULL);

	assert_non_null(doc);
	return doc;
}

/* The last comparison's table. */
static char table[4096];

/* Compare a with b at tolerance tol: rdp_compare_docs() must return want;
 * its table lands in table[]. */
static struct rdp_compare_sum compare(const char *a, const char *b, double tol,
				      int want)
{
	json_t *da = load(a), *db = load(b);
	FILE *f = fmemopen(table, sizeof(table), "w");
	struct rdp_compare_sum s = { 0 };

	assert_non_null(f);
	assert_int_equal(rdp_compare_docs(da, db, tol, f, &s), want);
	fclose(f);
	json_decref(da);
	json_decref(db);
	return s;
}

/* Every count of a comparison. */
static void expect_sum(struct rdp_compare_sum s, size_t points,
		       size_t regressions, size_t missing, size_t added)
{
	assert_int_equal(s.points, points);
	assert_int_equal(s.regressions, regressions);
	assert_int_equal(s.missing, missing);
	assert_int_equal(s.added, added);
}

static void test_identical_passes(void **state)
{
	(void)state;
	expect_sum(compare(FIX("base.json"), FIX("base.json"), 0.0, 0), 4, 0, 0,
		   0);
	assert_null(strstr(table, "REGRESSION"));
}

/* 65536 x 1 lost 30 %, latency rose 30 %; 2 QPs lost 3.3 %. */
static void test_drop_flagged(void **state)
{
	struct rdp_compare_sum s;

	(void)state;
	expect_sum(compare(FIX("base.json"), FIX("worse.json"), 0.05, 0), 4, 2,
		   0, 1);
	assert_non_null(strstr(table, "-30.0%  REGRESSION"));
	assert_non_null(strstr(table, "+30.0%  REGRESSION"));
	assert_non_null(strstr(table, "-3.3%  ok"));
	/* A wide enough tolerance passes the same documents. */
	s = compare(FIX("base.json"), FIX("worse.json"), 0.35, 0);
	assert_int_equal(s.regressions, 0);
	/* Improvements never count, however large. */
	s = compare(FIX("worse.json"), FIX("base.json"), 0.05, 0);
	assert_int_equal(s.regressions, 0);
	assert_int_equal(s.missing, 1);
}

static void test_missing_points(void **state)
{
	struct rdp_compare_sum s;

	(void)state;
	s = compare(FIX("base.json"), FIX("partial.json"), 0.05, 0);
	assert_int_equal(s.points, 1);
	assert_int_equal(s.missing, 3);
	assert_non_null(strstr(table, "MISSING"));
	compare(FIX("base.json"), FIX("noresults.json"), 0.05, -EINVAL);
}

/* Baseline rows keep their figure on MISSING; new-only points listed. */
static void test_missing_and_added_rows(void **state)
{
	struct rdp_compare_sum s;

	(void)state;
	compare(FIX("base.json"), FIX("partial.json"), 0.05, 0);
	assert_non_null(strstr(table, " write_bw    65536      2    "
				      "bw_avg_gbps        0.6000            - "
				      "           MISSING\n"));
	assert_non_null(strstr(table, "10.0000            -            "
				      "MISSING\n"));
	assert_null(strstr(table, "NEW"));
	s = compare(FIX("partial.json"), FIX("base.json"), 0.05, 0);
	expect_sum(s, 1, 1, 0, 3); /* 4096 x 1: 0.8 then 0.4 */
	assert_non_null(strstr(table, " write_bw    65536      1    "
				      "bw_avg_gbps             -       0.5000 "
				      "           NEW (not in baseline)\n"));
	assert_non_null(strstr(table, "lat_p50_us              -      "
				      "10.0000            NEW (not in "
				      "baseline)\n"));
}

/* One document with the fields rdp_compare_setup() reads. */
static json_t *run_doc(json_int_t dur, json_int_t iters, json_int_t qps,
		       double rate, json_int_t tx_depth)
{
	json_t *p = json_pack("{s:o, s:o, s:I, s:I}", "duration_s",
			      dur ? json_integer(dur) : json_null(),
			      "iterations",
			      iters ? json_integer(iters) : json_null(),
			      "num_qps", qps, "tx_depth", tx_depth);
	json_t *r = json_pack("[{s:s, s:I, s:I, s:f}, {s:s, s:I, s:I, s:f}]",
			      "test", "write_bw", "size_bytes", (json_int_t)64,
			      "num_qps", qps, "bw_avg_gbps", 1.0, "test",
			      "write_bw", "size_bytes", (json_int_t)65536,
			      "num_qps", qps, "bw_avg_gbps", 2.0);
	json_t *d = json_pack("{s:s, s:f}", "name", "mlx5_0", "line_rate_gbps",
			      rate);

	assert_non_null(p);
	assert_non_null(r);
	assert_non_null(d);
	return json_pack("{s:o, s:o, s:o}", "parameters", p, "results", r,
			 "device", d);
}

static void test_measured_differently(void **state)
{
	json_t *a = run_doc(10, 0, 1, 200, 128);
	json_t *same = run_doc(10, 0, 1, 200, 128);
	json_t *b = run_doc(0, 5000, 8, 100, 512);
	char why[512];

	(void)state;
	assert_int_equal(rdp_compare_setup(a, same, why, sizeof(why)), 0);
	assert_string_equal(why, "");
	assert_true(rdp_compare_setup(a, b, why, sizeof(why)) > 0);
	assert_string_equal(why, "the baseline ran -D 10, the new run -n 5000; "
				 "QP counts 1 against 8; line rate 200 Gb/s "
				 "against 100 Gb/s; tx_depth 128 against 512");
	assert_null(strchr(why, '\n'));
	/* documents without the context (the fixtures) compare quietly */
	json_object_del(b, "parameters");
	json_object_del(b, "device");
	assert_int_equal(rdp_compare_setup(a, b, why, sizeof(why)),
			 strlen("QP counts 1 against 8"));
	assert_string_equal(why, "QP counts 1 against 8");
	json_decref(a);
	json_decref(same);
	json_decref(b);
}

static int tool(int argc, const char **argv)
{
	FILE *keep = stdout;
	int ret;

	/* The table is not under test here: keep the log readable. */
	stdout = fopen("/dev/null", "w");
	ret = rdp_tool_find("compare")->main(argc, (char **)argv);
	fclose(stdout);
	stdout = keep;
	return ret;
}

static void test_exit_codes(void **state)
{
	const char *same[] = { "compare", FIX("base.json"), FIX("base.json"),
			       NULL };
	const char *worse[] = { "compare", FIX("base.json"), FIX("worse.json"),
				NULL };
	const char *wide[] = { "compare",
			       FIX("base.json"),
			       FIX("worse.json"),
			       "--tolerance",
			       "35%",
			       NULL };
	const char *bad_tol[] = { "compare",
				  FIX("base.json"),
				  FIX("base.json"),
				  "--tolerance",
				  "x",
				  NULL };
	const char *one[] = { "compare", FIX("base.json"), NULL };
	const char *absent[] = { "compare", FIX("base.json"),
				 FIX("absent.json"), NULL };
	const char *nores[] = { "compare", FIX("base.json"),
				FIX("noresults.json"), NULL };

	(void)state;
	assert_int_equal(tool(3, same), 0);
	assert_int_equal(tool(3, worse), 1);
	assert_int_equal(tool(5, wide), 0);
	assert_int_equal(tool(5, bad_tol), 2);
	assert_int_equal(tool(2, one), 2);
	assert_int_equal(tool(3, absent), 2);
	assert_int_equal(tool(3, nores), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identical_passes),
		cmocka_unit_test(test_drop_flagged),
		cmocka_unit_test(test_missing_points),
		cmocka_unit_test(test_missing_and_added_rows),
		cmocka_unit_test(test_measured_differently),
		cmocka_unit_test(test_exit_codes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
