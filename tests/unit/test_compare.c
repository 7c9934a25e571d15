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

/* Run the comparison; the table lands in buf. */
static int compare(const char *a, const char *b, double tol,
		   struct rdp_compare_sum *s, char *buf, size_t len)
{
	json_t *da = load(a), *db = load(b);
	FILE *f = fmemopen(buf, len, "w");
	int ret;

	assert_non_null(f);
	ret = rdp_compare_docs(da, db, tol, f, s);
	fclose(f);
	json_decref(da);
	json_decref(db);
	return ret;
}

static void test_identical_passes(void **state)
{
	struct rdp_compare_sum s;
	char buf[4096];

	(void)state;
	assert_int_equal(compare(FIX("base.json"), FIX("base.json"), 0.0, &s,
				 buf, sizeof(buf)),
			 0);
	assert_int_equal(s.points, 4);
	assert_int_equal(s.regressions, 0);
	assert_int_equal(s.missing, 0);
	assert_int_equal(s.added, 0);
	assert_null(strstr(buf, "REGRESSION"));
}

/* 65536 x 1 lost 30 %, latency rose 30 %; 2 QPs lost 3.3 %. */
static void test_drop_flagged(void **state)
{
	struct rdp_compare_sum s;
	char buf[4096];

	(void)state;
	assert_int_equal(compare(FIX("base.json"), FIX("worse.json"), 0.05, &s,
				 buf, sizeof(buf)),
			 0);
	assert_int_equal(s.points, 4);
	assert_int_equal(s.regressions, 2);
	assert_int_equal(s.added, 1);
	assert_non_null(strstr(buf, "-30.0%  REGRESSION"));
	assert_non_null(strstr(buf, "+30.0%  REGRESSION"));
	assert_non_null(strstr(buf, "-3.3%  ok"));
	/* A wide enough tolerance passes the same documents. */
	assert_int_equal(compare(FIX("base.json"), FIX("worse.json"), 0.35, &s,
				 buf, sizeof(buf)),
			 0);
	assert_int_equal(s.regressions, 0);
	/* Improvements never count, however large. */
	assert_int_equal(compare(FIX("worse.json"), FIX("base.json"), 0.05, &s,
				 buf, sizeof(buf)),
			 0);
	assert_int_equal(s.regressions, 0);
	assert_int_equal(s.missing, 1);
}

static void test_missing_points(void **state)
{
	struct rdp_compare_sum s;
	char buf[4096];

	(void)state;
	assert_int_equal(compare(FIX("base.json"), FIX("partial.json"), 0.05,
				 &s, buf, sizeof(buf)),
			 0);
	assert_int_equal(s.points, 1);
	assert_int_equal(s.missing, 3);
	assert_non_null(strstr(buf, "MISSING"));
	assert_int_equal(compare(FIX("base.json"), FIX("noresults.json"), 0.05,
				 &s, buf, sizeof(buf)),
			 -EINVAL);
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
