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
		cmocka_unit_test(test_exit_codes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
