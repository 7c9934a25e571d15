/* SPDX-License-Identifier: BSD-2-Clause */
/* Sweeps: the stopping rule of adaptive iterations, the batch sequence
 * against a scripted test loop, and the progress line. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/sweep.h>

#define EPS 1e-9

static void test_stop_rule(void **state)
{
	(void)state;
	/* The first batch has nothing to agree with. */
	assert_int_equal(rdp_sweep_stop(0, 10, 0.01, 0.1, 0.1, 10), 0);
	/* Within the target: stop. */
	assert_int_equal(rdp_sweep_stop(10, 10.05, 0.01, 0.2, 0.1, 10), 1);
	assert_int_equal(rdp_sweep_stop(10, 11, 0.01, 0.2, 0.1, 10), 0);
	/* The next batch (twice the last) would overrun the budget. */
	assert_int_equal(rdp_sweep_stop(10, 11, 0.01, 6.1, 2, 10), 1);
	assert_int_equal(rdp_sweep_stop(10, 11, 0.01, 5.9, 2, 10), 0);
	/* A zero figure never counts as stable. */
	assert_int_equal(rdp_sweep_stop(0, 0, 0.5, 0.1, 0.1, 10), 0);
}

/* A test loop whose figure follows a script, one value per batch, and
 * what rdp_sweep_adapt() made of it. */
struct script {
	const double *figures;
	size_t n, calls;
	uint64_t iters[16];
	int again[16];
	int fail_at; /* 1-based call that fails, 0 none */
	int lat;
	struct rdp_result res;
	struct rdp_adapt_info info;
};

static int scripted(void *ctx, uint64_t iters, int again,
		    struct rdp_result *res)
{
	struct script *s = ctx;
	double v = s->figures[s->calls < s->n ? s->calls : s->n - 1];

	s->iters[s->calls] = iters;
	s->again[s->calls] = again;
	if (++s->calls == (size_t)s->fail_at)
		return -EIO;
	memset(res, 0, sizeof(*res));
	res->msgs = iters;
	if (s->lat)
		res->lat.median_ns = v;
	else
		res->bw_avg_gbps = v;
	return 0;
}

/* The script's batches to a 1 % target, as a latency test when its
 * figure is a latency. */
static int adapt(struct script *s, double budget_s, uint64_t first)
{
	return rdp_sweep_adapt(budget_s, 0.01, s->lat, first, scripted, s,
			       &s->res, &s->info);
}

static void test_adapt_converges(void **state)
{
	static const double f[] = { 50, 80, 95, 99, 99.5, 99.6 };
	struct script s = { .figures = f, .n = 6 };

	(void)state;
	assert_int_equal(adapt(&s, 60, 16), 0);
	/* 95 -> 99 is 4 %, 99 -> 99.5 is 0.5 %: five batches. */
	assert_int_equal(s.calls, 5);
	assert_int_equal(s.info.batches, 5);
	assert_int_equal(s.iters[0], 16);
	assert_int_equal(s.iters[4], 256);
	assert_int_equal(s.again[0], 0);
	assert_int_equal(s.again[1], 1);
	assert_int_equal(s.info.iters, 256);
	assert_int_equal(s.res.msgs, 256);
	assert_true(s.info.stable);
	assert_float_equal(s.info.change, 0.5 / 99.5, EPS);
	assert_float_equal(s.res.bw_avg_gbps, 99.5, EPS);
}

static void test_adapt_latency_and_failure(void **state)
{
	static const double f[] = { 3000, 3001 };
	struct script s = { .figures = f, .n = 2, .lat = 1 };
	struct script bad = { .figures = f, .n = 2, .fail_at = 2 };

	(void)state;
	assert_int_equal(adapt(&s, 60, 0), 0);
	assert_int_equal(s.calls, 2);
	assert_int_equal(s.iters[0], RDP_SWEEP_FIRST_ITERS);
	assert_float_equal(s.res.lat.median_ns, 3001, EPS);
	/* A failing batch ends the point with its error. */
	assert_int_equal(adapt(&bad, 60, 8), -EIO);
	assert_int_equal(bad.calls, 2);
}

/* A figure that never settles stops on time, not on agreement. */
static void test_adapt_budget(void **state)
{
	static const double f[] = { 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2 };
	struct script s = { .figures = f, .n = 14 };

	(void)state;
	/* A zero budget: one batch only. */
	assert_int_equal(adapt(&s, 0, 8), 0);
	assert_int_equal(s.info.batches, 1);
	assert_false(s.info.stable);
	assert_true(isnan(s.info.change));
}

static void test_first_batch(void **state)
{
	(void)state;
	assert_int_equal(rdp_sweep_first(0, 1000, 8 << 20, 1), 1000);
	assert_int_equal(rdp_sweep_first(1, 32, 4096, 1), 32);
	assert_int_equal(rdp_sweep_first(1, 32, 1 << 20, 1), 16);
	assert_int_equal(rdp_sweep_first(1, 32, 1 << 20, 4), 4);
	assert_int_equal(rdp_sweep_first(1, 32, 8 << 20, 8), 2);
}

static void test_progress_format(void **state)
{
	char buf[128];

	(void)state;
	rdp_progress_format(buf, sizeof(buf), 1, 23, 0.2, 2, 1);
	assert_string_equal(buf, "point 1 of 23: 2 B x 1 QP, 00:00 elapsed, "
				 "ETA --:--");
	/* 4 done in 20 s: 20 left at 5 s each. */
	rdp_progress_format(buf, sizeof(buf), 5, 24, 20, 65536, 8);
	assert_string_equal(buf, "point 5 of 24: 65536 B x 8 QPs, 00:20 "
				 "elapsed, ETA 01:40");
	rdp_progress_format(buf, sizeof(buf), 2, 3, 3725, 8, 1);
	assert_string_equal(buf, "point 2 of 3: 8 B x 1 QP, 1:02:05 elapsed, "
				 "ETA 2:04:10");
}

static void test_progress_off_without_tty(void **state)
{
	struct rdp_progress p;
	FILE *f = tmpfile();

	(void)state;
	assert_non_null(f);
	rdp_progress_init(&p, f, 10);
	assert_null(p.f);
	rdp_progress_show(&p, 64, 1);
	rdp_progress_clear(&p);
	assert_int_equal(ftell(f), 0);
	assert_int_equal(p.done, 1);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stop_rule),
		cmocka_unit_test(test_adapt_converges),
		cmocka_unit_test(test_adapt_latency_and_failure),
		cmocka_unit_test(test_adapt_budget),
		cmocka_unit_test(test_first_batch),
		cmocka_unit_test(test_progress_format),
		cmocka_unit_test(test_progress_off_without_tty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
