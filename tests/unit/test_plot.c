/* SPDX-License-Identifier: BSD-2-Clause */
/* The gnuplot script drawn from a results document: series, axes, the
 * band when the line rate is known, and hostile names kept out of it. */
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

#include <rdmaperf/plot.h>

/* The script for doc, in a static buffer; ret gets the status. */
static const char *script(const char *doc_text, int *ret)
{
	static char buf[8192];
	json_t *doc = json_loads(doc_text, 0, NULL);
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	assert_non_null(doc);
	assert_non_null(f);
	*ret = rdp_plot_script(doc, f);
	fclose(f);
	json_decref(doc);
	return buf;
}

static const char bw_doc[] =
	"{\"device\": {\"line_rate_gbps\": 400}, \"results\": ["
	"{\"test\": \"write_bw\", \"kind\": \"bandwidth\", \"size_bytes\": "
	"4096, \"num_qps\": 1, \"bw_avg_gbps\": 100},"
	"{\"test\": \"write_bw\", \"kind\": \"bandwidth\", \"size_bytes\": "
	"65536, \"num_qps\": 1, \"bw_avg_gbps\": 380},"
	"{\"test\": \"write_bw\", \"kind\": \"bandwidth\", \"size_bytes\": "
	"65536, \"num_qps\": 8, \"bw_avg_gbps\": 390}]}";

static void test_bandwidth(void **state)
{
	const char *s;
	int ret;

	(void)state;
	s = script(bw_doc, &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(s, "$bw0 << EOD\n4096 100\n65536 380\nEOD\n"));
	assert_non_null(strstr(s, "$bw1 << EOD\n65536 390\nEOD\n"));
	assert_non_null(strstr(s, "set logscale x 2\n"));
	assert_non_null(strstr(s, "set ylabel 'bandwidth [Gb/s]'"));
	assert_non_null(strstr(s, "set xlabel 'message size"));
	/* 90 % and 98.75 % of 400: 360 and 395. */
	assert_non_null(strstr(s, "first 360 to graph 1, first 395 "));
	assert_non_null(strstr(s, "'write_bw, 1 QP'"));
	assert_non_null(strstr(s, "'write_bw, 8 QPs'"));
	assert_non_null(strstr(s, "400 with lines dt 2"));
	assert_null(strstr(s, "multiplot"));
	assert_null(strstr(s, "$lat"));
}

static void test_latency_and_both(void **state)
{
	const char *s;
	int ret;

	(void)state;
	s = script("{\"results\": [{\"test\": \"write_lat\", \"kind\": "
		   "\"latency\", \"size_bytes\": 2, \"num_qps\": 1, "
		   "\"lat_p50_us\": 1.5, \"lat_p90_us\": 1.6, \"lat_p99_us\": "
		   "2, \"lat_p999_us\": 3},"
		   "{\"test\": \"x\", \"kind\": \"bandwidth\", \"size_bytes\": "
		   "2, \"num_qps\": 1, \"bw_avg_gbps\": 1}]}",
		   &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(s, "$lat << EOD\n2 1.5 1.6 2 3\nEOD\n"));
	assert_non_null(strstr(s, "set multiplot layout 2,1"));
	assert_non_null(strstr(s, "set ylabel 'latency [us]'"));
	/* No line rate: no band, no line-rate line. */
	assert_null(strstr(s, "acceptance band"));
	assert_null(strstr(s, "line rate"));
}

/* A name from the document never closes the quoted title early. */
static void test_hostile_name(void **state)
{
	const char *s;
	int ret;

	(void)state;
	s = script("{\"results\": [{\"test\": \"a'; system('x\", \"kind\": "
		   "\"bandwidth\", \"size_bytes\": 8, \"num_qps\": 1, "
		   "\"bw_avg_gbps\": 1}]}",
		   &ret);
	assert_int_equal(ret, 0);
	assert_null(strstr(s, "system('"));
	assert_non_null(strstr(s, "'a---system--x, 1 QP'"));
}

static void test_nothing_to_draw(void **state)
{
	int ret;

	(void)state;
	script("{\"results\": []}", &ret);
	assert_int_equal(ret, -EINVAL);
	script("{\"tool\": \"rdmaperf\"}", &ret);
	assert_int_equal(ret, -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bandwidth),
		cmocka_unit_test(test_latency_and_both),
		cmocka_unit_test(test_hostile_name),
		cmocka_unit_test(test_nothing_to_draw),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
