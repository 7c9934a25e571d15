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
#include <unistd.h>
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
	/* the data reach the band: the range takes in the line rate too */
	assert_non_null(strstr(s, "set yrange [0:448.5]\n"));
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

/* Soft-RoCE: 0.1 Gb/s on a 10 Gb/s port is no flat line at the bottom;
 * the band is said to be above, not drawn. */
static void test_range_from_data(void **state)
{
	const char *s;
	int ret;

	(void)state;
	s = script("{\"device\": {\"line_rate_gbps\": 10}, \"results\": ["
		   "{\"test\": \"write_bw\", \"kind\": \"bandwidth\", "
		   "\"size_bytes\": 4096, \"num_qps\": 1, \"bw_avg_gbps\": "
		   "0.08},"
		   "{\"test\": \"write_bw\", \"kind\": \"bandwidth\", "
		   "\"size_bytes\": 65536, \"num_qps\": 1, \"bw_avg_gbps\": "
		   "0.1}]}",
		   &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(s, "set yrange [0:0.115]\n"));
	assert_null(strstr(s, "set object 1 rect"));
	assert_null(strstr(s, "with lines dt 2"));
	assert_non_null(strstr(s, "'line rate 10 Gb/s (band 9-9.875 Gb/s) "
				  "is above this range'"));
}

/* Each panel names the tests, device, hosts and date; quotes and
 * backslashes from the document never reach the script. */
static void test_title(void **state)
{
	const char *s;
	int ret;

	(void)state;
	s = script("{\"timestamp\": \"2026-12-03T05:10:00Z\", \"client\": "
		   "{\"hostname\": \"hostA\"}, \"server\": {\"hostname\": "
		   "\"hostB\"}, \"device\": {\"name\": \"rxe0\"}, "
		   "\"results\": [{\"test\": \"write_bw\", \"kind\": "
		   "\"bandwidth\", \"size_bytes\": 8, \"num_qps\": 1, "
		   "\"bw_avg_gbps\": 1}, {\"test\": \"write_bw\", \"kind\": "
		   "\"bandwidth\", \"size_bytes\": 16, \"num_qps\": 1, "
		   "\"bw_avg_gbps\": 2}, {\"test\": \"write_lat\", \"kind\": "
		   "\"latency\", \"size_bytes\": 2, \"num_qps\": 1, "
		   "\"lat_p50_us\": 1.5, \"lat_p90_us\": 1.6, \"lat_p99_us\": "
		   "2, \"lat_p999_us\": 3}]}",
		   &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(s, "set title \"Bandwidth vs message size\\n"
				  "write_bw,write_lat on rxe0, hostA to "
				  "hostB, 2026-12-03T05:10:00Z\"\n"));
	assert_non_null(strstr(s, "set title \"Latency percentiles vs "
				  "message size\\nwrite_bw,write_lat on "
				  "rxe0,"));
	s = script("{\"device\": {\"name\": \"d\\\"; system(\\\"x\\\\\"}, "
		   "\"results\": [{\"test\": \"t\", \"kind\": "
		   "\"bandwidth\", \"size_bytes\": 8, \"num_qps\": 1, "
		   "\"bw_avg_gbps\": 1}]}",
		   &ret);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(s, "\\nt on d-- system(-x-\"\n"));
}

/* stderr (fd 2) into a file while fn runs; its text in buf. */
static int quiet_draw(const char *scr, const char *out, char *buf, size_t len)
{
	FILE *cap = tmpfile();
	int keep = dup(2), ret;
	size_t n;

	assert_non_null(cap);
	assert_true(keep >= 0);
	fflush(stderr);
	dup2(fileno(cap), 2);
	ret = rdp_plot_draw(scr, strlen(scr), out);
	fflush(stderr);
	dup2(keep, 2);
	close(keep);
	rewind(cap);
	n = fread(buf, 1, len - 1, cap);
	buf[n] = '\0';
	fclose(cap);
	return ret;
}

/* gnuplot's warnings stay off the terminal; a failure is one line. */
static void test_gnuplot_messages(void **state)
{
	char out[] = "/tmp/rdp-plot.XXXXXX", buf[1024];
	int fd = mkstemp(out), ret;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	/* a flat line draws, with a warning (empty y range) */
	ret = quiet_draw("set terminal svg\nplot 1\n", out, buf, sizeof(buf));
	if (ret == -ENOENT) {
		unlink(out);
		skip();
	}
	assert_int_equal(ret, 0);
	assert_string_equal(buf, "");
	ret = quiet_draw("set terminal svg\nplot $nothing using 1:2\n", out,
			 buf, sizeof(buf));
	assert_int_equal(ret, -EIO);
	assert_non_null(strstr(buf, "plot: gnuplot failed drawing "));
	assert_non_null(strstr(buf, ": line 0: no datablock named $nothing\n"));
	assert_ptr_equal(strchr(buf, '\n'), buf + strlen(buf) - 1);
	unlink(out);
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
		cmocka_unit_test(test_range_from_data),
		cmocka_unit_test(test_title),
		cmocka_unit_test(test_gnuplot_messages),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
