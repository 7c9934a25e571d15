/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Statistics: nearest-rank percentiles on known sets, moments against
 * hand-computed values, and the sliding-window peak rate. Measurement:
 * warm-up and margin exclusion, figures from samples, intervals.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/clock.h>
#include <rdmaperf/measure.h>
#include <rdmaperf/stats.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* cmocka's float assertion is single precision. */
#define assert_near(a, b, eps) assert_true(fabs((a) - (b)) <= (eps))

static void fill_1_to_n(double *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = (double)(i + 1);
}

/* The nearest-rank percentile P of the first N of 1, 2, 3, ... is WANT. */
struct rank_case {
	size_t n;
	double p;
	double want;
};

static void check_ranks(const struct rank_case *c, size_t count)
{
	static double v[10000];
	size_t i;

	fill_1_to_n(v, ARRAY_SIZE(v));
	for (i = 0; i < count; i++)
		assert_near(rdp_stats_percentile(v, c[i].n, c[i].p), c[i].want,
			    0.0);
}

static void test_percentile_1_to_100(void **state)
{
	static const struct rank_case cases[] = {
		{ 100, 50.0, 50.0 },   { 100, 90.0, 90.0 },
		{ 100, 99.0, 99.0 },   { 100, 99.9, 100.0 },
		{ 100, 99.99, 100.0 }, { 100, 100.0, 100.0 },
		{ 100, 1.0, 1.0 },     { 100, 0.5, 1.0 },
		{ 100, 50.5, 51.0 },
	};

	(void)state;
	check_ranks(cases, ARRAY_SIZE(cases));
}

/* Ranks that are whole numbers must not round up to the next sample. */
static void test_percentile_exact_ranks(void **state)
{
	static const struct rank_case cases[] = {
		{ 1000, 99.9, 999.0 },	 { 10000, 99.99, 9999.0 },
		{ 10000, 99.9, 9990.0 }, { 10000, 0.01, 1.0 },
		{ 10, 70.0, 7.0 },	 { 3, 33.4, 2.0 },
	};

	(void)state;
	check_ranks(cases, ARRAY_SIZE(cases));
}

static void test_percentile_small(void **state)
{
	double one = 42.0;
	double two[] = { 1.0, 2.0 };

	(void)state;
	assert_near(rdp_stats_percentile(&one, 1, 0.001), 42.0, 0.0);
	assert_near(rdp_stats_percentile(&one, 1, 100.0), 42.0, 0.0);
	assert_near(rdp_stats_percentile(two, 2, 50.0), 1.0, 0.0);
	assert_near(rdp_stats_percentile(two, 2, 50.1), 2.0, 0.0);
	assert_near(rdp_stats_percentile(NULL, 0, 50.0), 0.0, 0.0);
}

static void test_lat_empty(void **state)
{
	struct rdp_lat_stats st;
	double v = 1.0;

	(void)state;
	memset(&st, 0x5a, sizeof(st));
	assert_int_equal(rdp_stats_lat(&v, 0, &st), -EINVAL);
	assert_int_equal(st.n, 0x5a5a5a5a5a5a5a5aull);
}

static void test_lat_single(void **state)
{
	struct rdp_lat_stats st;
	double v = 3.25;

	(void)state;
	assert_int_equal(rdp_stats_lat(&v, 1, &st), 0);
	assert_int_equal(st.n, 1);
	assert_near(st.min_ns, 3.25, 0.0);
	assert_near(st.max_ns, 3.25, 0.0);
	assert_near(st.median_ns, 3.25, 0.0);
	assert_near(st.avg_ns, 3.25, 0.0);
	assert_near(st.stdev_ns, 0.0, 0.0);
	assert_near(st.p90_ns, 3.25, 0.0);
	assert_near(st.p9999_ns, 3.25, 0.0);
}

/* 2,4,4,4,5,5,7,9: mean 5, sum of squares 32, sample stdev sqrt(32/7). */
static void test_lat_known_set(void **state)
{
	double v[] = { 9, 4, 5, 2, 7, 4, 5, 4 };
	struct rdp_lat_stats st;

	(void)state;
	assert_int_equal(rdp_stats_lat(v, ARRAY_SIZE(v), &st), 0);
	assert_int_equal(st.n, 8);
	assert_near(st.avg_ns, 5.0, 1e-9);
	assert_near(st.stdev_ns, sqrt(32.0 / 7.0), 1e-9);
	assert_near(st.min_ns, 2.0, 0.0);
	assert_near(st.max_ns, 9.0, 0.0);
	assert_near(st.median_ns, 4.0, 0.0);
	assert_near(st.p90_ns, 9.0, 0.0);
}

/* Welford keeps precision where the naive sum of squares loses it. */
static void test_lat_large_offset(void **state)
{
	double v[] = { 1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16 };
	struct rdp_lat_stats st;

	(void)state;
	assert_int_equal(rdp_stats_lat(v, ARRAY_SIZE(v), &st), 0);
	assert_near(st.avg_ns, 1e9 + 10, 1e-6);
	assert_near(st.stdev_ns, sqrt(30.0), 1e-9);
}

static void test_lat_unsorted(void **state)
{
	double v[100];
	struct rdp_lat_stats st;
	size_t i;

	(void)state;
	/* 37 is coprime with 100: a permutation of 1..100. */
	for (i = 0; i < 100; i++)
		v[i] = (double)((i * 37) % 100 + 1);
	assert_int_equal(rdp_stats_lat(v, 100, &st), 0);
	for (i = 0; i < 100; i++)
		assert_near(v[i], (double)(i + 1), 0.0);
	assert_near(st.min_ns, 1.0, 0.0);
	assert_near(st.max_ns, 100.0, 0.0);
	assert_near(st.median_ns, 50.0, 0.0);
	assert_near(st.avg_ns, 50.5, 1e-9);
	assert_near(st.p90_ns, 90.0, 0.0);
	assert_near(st.p99_ns, 99.0, 0.0);
	assert_near(st.p999_ns, 100.0, 0.0);
	assert_near(st.p9999_ns, 100.0, 0.0);
	/* Sample stdev of 1..n: sqrt(n(n+1)/12). */
	assert_near(st.stdev_ns, sqrt(100.0 * 101.0 / 12.0), 1e-9);
}

/*
 * 100 samples, 10 cycles and 100 bytes per interval, except intervals
 * 40..43 which move 1000 bytes each.
 */
static void make_series(struct rdp_bw_sample *s, size_t n)
{
	uint64_t bytes = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		s[i].cycles = 1000 + 10 * i;
		s[i].bytes = bytes;
		bytes += (i >= 40 && i < 44) ? 1000 : 100;
	}
}

static void test_peak_rate_fast_window(void **state)
{
	struct rdp_bw_sample s[100];

	(void)state;
	make_series(s, 100);
	assert_near(rdp_stats_peak_rate(s, 100, 1), 100.0, 1e-12);
	assert_near(rdp_stats_peak_rate(s, 100, 4), 100.0, 1e-12);
	/* Eight intervals: the four fast ones and four slow. */
	assert_near(rdp_stats_peak_rate(s, 100, 8), 4400.0 / 80.0, 1e-12);
	/* The whole run: the average. */
	assert_near(rdp_stats_peak_rate(s, 100, 99), 13500.0 / 990.0, 1e-12);
	/* Clamped to n - 1. */
	assert_near(rdp_stats_peak_rate(s, 100, 1000), 13500.0 / 990.0, 1e-12);
	/* Zero means one interval. */
	assert_near(rdp_stats_peak_rate(s, 100, 0), 100.0, 1e-12);
}

static void test_peak_rate_degenerate(void **state)
{
	struct rdp_bw_sample s[4] = {
		{ .cycles = 100, .bytes = 0 },
		{ .cycles = 100, .bytes = 500 },
		{ .cycles = 110, .bytes = 600 },
		{ .cycles = 110, .bytes = 700 },
	};

	(void)state;
	assert_near(rdp_stats_peak_rate(s, 0, 1), 0.0, 0.0);
	assert_near(rdp_stats_peak_rate(s, 1, 1), 0.0, 0.0);
	/* Zero-length intervals are skipped, not divided by. */
	assert_near(rdp_stats_peak_rate(s, 2, 1), 0.0, 0.0);
	assert_near(rdp_stats_peak_rate(s, 4, 1), 10.0, 1e-12);
	assert_near(rdp_stats_peak_rate(s, 4, 2), 60.0, 1e-12);
	assert_near(rdp_stats_peak_rate(s, 4, 3), 70.0, 1e-12);
}

static void test_peak_window(void **state)
{
	(void)state;
	assert_int_equal(rdp_stats_peak_window(0), 1);
	assert_int_equal(rdp_stats_peak_window(1), 1);
	assert_int_equal(rdp_stats_peak_window(2), 1);
	assert_int_equal(rdp_stats_peak_window(65), 1);
	assert_int_equal(rdp_stats_peak_window(128), 1);
	assert_int_equal(rdp_stats_peak_window(129), 2);
	assert_int_equal(rdp_stats_peak_window(6401), 100);
}

/* 10 bytes per cycle for 100 cycles, sampled every 7 cycles. */
static void test_intervals(void **state)
{
	struct rdp_bw_sample s[16];
	uint64_t b[8] = { 0 };
	size_t n = 0, k, got;

	(void)state;
	for (k = 0; k * 7 <= 100; k++, n++)
		s[n] = (struct rdp_bw_sample){ 1000 + k * 7, k * 70 };
	/* Boundaries at 1025, 1050, 1075, 1100: last samples at or before
	 * them are at cycles 1021, 1049, 1070, 1098. */
	got = rdp_stats_intervals(s, n, 1000, 25, b, 8);
	assert_int_equal(got, 3); /* 1100 is past the last sample (1098) */
	assert_int_equal(b[0], 210);
	assert_int_equal(b[1], 280);
	assert_int_equal(b[2], 210);
	assert_int_equal(rdp_stats_intervals(s, n, 1000, 25, b, 2), 2);
	assert_int_equal(rdp_stats_intervals(s, n, 1000, 0, b, 8), 0);
	assert_int_equal(rdp_stats_intervals(s, 0, 1000, 25, b, 8), 0);
}

/* 0, 10, ... 100 cycles, 100 bytes more at each. */
static void ramp(struct rdp_bw_sample *s)
{
	size_t i;

	for (i = 0; i <= 10; i++)
		s[i] = (struct rdp_bw_sample){ 10 * i, 100 * i };
}

static void test_trim_bw(void **state)
{
	struct rdp_bw_sample s[11];

	(void)state;
	ramp(s);
	/* From the first sample at or after 25 (30) to the last at or
	 * before 75 (70), rebased to 0 bytes there. */
	assert_int_equal(rdp_measure_trim_bw(s, 11, 25, 75), 5);
	assert_int_equal(s[0].cycles, 30);
	assert_int_equal(s[0].bytes, 0);
	assert_int_equal(s[4].cycles, 70);
	assert_int_equal(s[4].bytes, 400);
	/* Boundaries on samples keep them. */
	ramp(s);
	assert_int_equal(rdp_measure_trim_bw(s, 11, 30, 70), 5);
	/* Margins wider than the run leave one sample, not none. */
	ramp(s);
	assert_int_equal(rdp_measure_trim_bw(s, 11, 1000, 2000), 1);
	assert_int_equal(s[0].cycles, 100);
	assert_int_equal(s[0].bytes, 0);
	ramp(s);
	assert_int_equal(rdp_measure_trim_bw(s, 11, 0, 0), 1);
	assert_int_equal(s[0].cycles, 0);
	/* No margin: everything. */
	ramp(s);
	assert_int_equal(rdp_measure_trim_bw(s, 11, 0, UINT64_MAX), 11);
	assert_int_equal(s[10].bytes, 1000);
}

static void test_bytes_at(void **state)
{
	struct rdp_bw_sample s[11];

	(void)state;
	ramp(s); /* 10 bytes a cycle from (0, 0) to (100, 1000) */
	assert_true(rdp_measure_bytes_at(s, 11, 0) == 0);
	assert_true(rdp_measure_bytes_at(s, 11, 30) == 300);
	/* between samples: on the line between them */
	assert_true(fabs(rdp_measure_bytes_at(s, 11, 35) - 350) < 1e-9);
	/* outside: the nearest end */
	assert_true(rdp_measure_bytes_at(s, 11, 500) == 1000);
	s[0].cycles = 10;
	assert_true(rdp_measure_bytes_at(s, 11, 5) == 0);
	assert_true(rdp_measure_bytes_at(s, 0, 5) == 0);
}

/*
 * --threads: two series summed over the window both ran in. Thread A
 * moves 10 bytes a cycle over [0, 100], thread B 20 a cycle over [20, 120]
 * (sampled every 20 cycles): in [20, 100] they add up to 30 a cycle.
 */
static void test_sum_bw(void **state)
{
	struct rdp_bw_sample a[11], b[6], *sum = NULL;
	struct rdp_bw_series ser[2];
	size_t n = 0, i;

	(void)state;
	ramp(a);
	for (i = 0; i < 6; i++)
		b[i] = (struct rdp_bw_sample){ 20 + 20 * i, 400 * i };
	ser[0] = (struct rdp_bw_series){ a, 11, 0 };
	ser[1] = (struct rdp_bw_series){ b, 6, 20 };
	assert_int_equal(rdp_measure_sum_bw(ser, 2, 20, 100, &sum, &n), 0);
	/* from, A's 30..90, B's 40, 60, 80 (taken once each), to */
	assert_int_equal(n, 9);
	assert_int_equal(sum[0].cycles, 20);
	assert_int_equal(sum[0].bytes, 0);
	for (i = 1; i < n; i++) {
		assert_true(sum[i].cycles > sum[i - 1].cycles);
		assert_int_equal(sum[i].bytes, 30 * (sum[i].cycles - 20));
	}
	assert_int_equal(sum[n - 1].cycles, 100);
	assert_int_equal(sum[n - 1].bytes, 2400);
	free(sum);
	/* Windows that never meet make no sum. */
	assert_int_equal(rdp_measure_sum_bw(ser, 2, 100, 100, &sum, &n),
			 -EINVAL);
	assert_int_equal(rdp_measure_sum_bw(ser, 2, 120, 100, &sum, &n),
			 -EINVAL);
}

static void test_lat_window(void **state)
{
	static const struct {
		uint64_t warm;
		int trim;
		uint64_t from, to;
		uint64_t count, first;
	} cases[] = {
		/* Warm-up: the first two round trips are left out. */
		{ 2, 0, 0, 0, 8, 2 },
		/* No warm-up, no margins: all ten. */
		{ 0, 0, 0, 0, 10, 0 },
		/* Margins: round trips ending in [35, 75] after the warm-up,
		 * i.e. those ending at 50, 60 and 70 (starting at 40). */
		{ 2, 1, 35, 75, 3, 4 },
		/* Margins inside the warm-up: the warm-up decides. */
		{ 5, 1, 15, 100, 5, 5 },
		/* A run shorter than its warm-up counts every round trip. */
		{ 12, 0, 0, 0, 10, 0 },
		/* So does one whose margins leave nothing. */
		{ 2, 1, 95, 96, 10, 0 },
	};
	uint64_t st[11], first, count;
	size_t i;

	(void)state;
	for (i = 0; i <= 10; i++)
		st[i] = 10 * i;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		first = 99;
		count = rdp_measure_lat_window(st, 10, cases[i].warm,
					       cases[i].trim, cases[i].from,
					       cases[i].to, &first);
		if (count != cases[i].count || first != cases[i].first)
			fail_msg("case %zu: %" PRIu64 " from %" PRIu64
				 ", expected %" PRIu64 " from %" PRIu64,
				 i, count, first, cases[i].count,
				 cases[i].first);
	}
}

static void test_measure_lat(void **state)
{
	/* Round trips of 100, 200, 100, 300 and 100 ns at 2 cycles/ns. */
	const uint64_t st[] = { 0, 200, 600, 800, 1400, 1600 };
	struct rdp_clock clk = { .cycles_per_ns = 2.0, .source = "test" };
	struct rdp_result res = { 0 };

	(void)state;
	/* After one warm-up trip: 200, 100, 300, 100 ns, halved. */
	assert_int_equal(rdp_measure_lat(st, 1, 4, 2.0, &clk, &res), 0);
	assert_int_equal(res.msgs, 4);
	assert_int_equal(res.warmup_iters, 1);
	assert_near(res.elapsed_ns, 700.0, 0.0);
	assert_int_equal(res.lat.n, 4);
	assert_near(res.lat.min_ns, 50.0, 0.0);
	assert_near(res.lat.max_ns, 150.0, 0.0);
	assert_near(res.lat.median_ns, 50.0, 0.0); /* rank 2 of 4 */
	assert_near(res.lat.avg_ns, 87.5, 1e-12);
	assert_near(res.lat.p90_ns, 150.0, 0.0);
	assert_near(res.lat.p99_ns, 150.0, 0.0);
	/* Histogram over [min, p99) in 20 buckets of 5 ns, then above. */
	assert_near(res.hist_lo_ns, 50.0, 0.0);
	assert_near(res.hist_hi_ns, 150.0, 0.0);
	assert_int_equal(res.hist[0], 2);
	assert_int_equal(res.hist[10], 1);
	assert_int_equal(res.hist[RDP_HIST_BUCKETS], 1);
	/* Not halved: the round trips themselves. */
	assert_int_equal(rdp_measure_lat(st, 0, 5, 1.0, &clk, &res), 0);
	assert_near(res.lat.median_ns, 100.0, 0.0);
	assert_near(res.lat.max_ns, 300.0, 0.0);
	assert_near(res.elapsed_ns, 800.0, 0.0);
	assert_int_equal(rdp_measure_lat(st, 0, 0, 1.0, &clk, &res), -EINVAL);
}

static void test_result_bw(void **state)
{
	struct rdp_clock clk = { .cycles_per_ns = 2.0, .source = "test" };
	struct rdp_bw_sample s[100];
	struct rdp_result res = { .msgs = 135 };
	struct rdp_bw_sample one = { 1100, 500 };

	(void)state;
	/* 13500 B in 990 cycles = 495 ns after the start at 1000. */
	make_series(s, 100);
	rdp_result_bw(&res, s, 100, 1000, &clk);
	assert_near(res.elapsed_ns, 495.0, 0.0);
	assert_near(res.bw_avg_gbps, 13500.0 * 8 / 495.0, 1e-9);
	assert_near(res.msg_rate_mpps, 135.0 * 1e3 / 495.0, 1e-9);
	/* Window of 1 interval: 100 B per cycle = 1600 Gb/s. */
	assert_near(res.bw_peak_gbps, 1600.0, 1e-9);
	/* One sample has no window: the peak is the average. */
	memset(&res, 0, sizeof(res));
	rdp_result_bw(&res, &one, 1, 1000, &clk);
	assert_near(res.bw_avg_gbps, 80.0, 1e-12);
	assert_near(res.bw_peak_gbps, 80.0, 1e-12);
	/* No time elapsed: no rate, rather than a division by zero. */
	memset(&res, 0, sizeof(res));
	rdp_result_bw(&res, &one, 1, 1100, &clk);
	assert_near(res.elapsed_ns, 0.0, 0.0);
	assert_near(res.bw_avg_gbps, 0.0, 0.0);
	/* No samples: untouched. */
	res.bw_avg_gbps = 7.0;
	rdp_result_bw(&res, s, 0, 1000, &clk);
	assert_near(res.bw_avg_gbps, 7.0, 0.0);
}

static void test_result_intervals(void **state)
{
	struct rdp_clock clk = { .cycles_per_ns = 2.5, .source = "test" };
	struct rdp_result res = { 0 };
	struct rdp_bw_sample s[16];
	size_t n = 0, k;

	(void)state;
	/* As test_intervals: 10 bytes per cycle, sampled every 7 cycles. */
	for (k = 0; k * 7 <= 100; k++, n++)
		s[n] = (struct rdp_bw_sample){ 1000 + k * 7, k * 70 };
	assert_int_equal(rdp_result_intervals(&res, s, n, 1000, 25, &clk), 0);
	assert_int_equal(res.n_intervals, 3);
	assert_int_equal(res.interval_bytes[0], 210);
	assert_int_equal(res.interval_bytes[1], 280);
	assert_int_equal(res.interval_bytes[2], 210);
	assert_near(res.interval_s, 10e-9, 1e-21); /* 25 cycles */
	free(res.interval_bytes);
	/* No --interval: nothing allocated. */
	memset(&res, 0, sizeof(res));
	assert_int_equal(rdp_result_intervals(&res, s, n, 1000, 0, &clk), 0);
	assert_null(res.interval_bytes);
	assert_int_equal(res.n_intervals, 0);
}

static void test_histogram(void **state)
{
	const double v[] = { 1, 1.5, 2, 2.5, 3, 9.9, 10, 50 };
	uint64_t c[6];

	(void)state;
	/* Buckets of 2 over [1, 11): [1,3) [3,5) [5,7) [7,9) [9,11), then
	 * >= 11. */
	rdp_stats_histogram(v, 8, 1, 11, c, 5);
	assert_int_equal(c[0], 4);
	assert_int_equal(c[1], 1);
	assert_int_equal(c[2], 0);
	assert_int_equal(c[3], 0);
	assert_int_equal(c[4], 2); /* 9.9 and 10 */
	assert_int_equal(c[5], 1); /* 50 */
	rdp_stats_histogram(v, 8, 1, 10, c, 4);
	assert_int_equal(c[4], 2); /* 10 and 50: at or above hi */
	/* A degenerate range puts everything above. */
	rdp_stats_histogram(v, 8, 5, 5, c, 4);
	assert_int_equal(c[4], 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intervals),
		cmocka_unit_test(test_histogram),
		cmocka_unit_test(test_percentile_1_to_100),
		cmocka_unit_test(test_percentile_exact_ranks),
		cmocka_unit_test(test_percentile_small),
		cmocka_unit_test(test_lat_empty),
		cmocka_unit_test(test_lat_single),
		cmocka_unit_test(test_lat_known_set),
		cmocka_unit_test(test_lat_large_offset),
		cmocka_unit_test(test_lat_unsorted),
		cmocka_unit_test(test_peak_rate_fast_window),
		cmocka_unit_test(test_peak_rate_degenerate),
		cmocka_unit_test(test_peak_window),
		cmocka_unit_test(test_trim_bw),
		cmocka_unit_test(test_lat_window),
		cmocka_unit_test(test_measure_lat),
		cmocka_unit_test(test_result_bw),
		cmocka_unit_test(test_bytes_at),
		cmocka_unit_test(test_sum_bw),
		cmocka_unit_test(test_result_intervals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
