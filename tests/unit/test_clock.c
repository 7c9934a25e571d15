/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The cycle counter's calibration: a calibrated clock converts a busy
 * interval, read with its own bracketed edges, to within 2 % of the
 * monotonic clock, and two calibrations agree. An edge whose bracket is
 * wider than 200 us (this thread kept off the CPU at that instant) skips
 * the comparison rather than judge a figure the test could not read.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include <rdmaperf/clock.h>

#define BRACKET_MAX_NS 200000ull

/* The counter between two clock reads: 0, or -1 when the bracket is wide. */
static int read_edge(uint64_t *ns, uint64_t *cycles)
{
	uint64_t a, b, best = UINT64_MAX;
	int i;

	for (i = 0; i < 64; i++) {
		uint64_t c;

		a = rdp_clock_mono_ns();
		c = rdp_cycles();
		b = rdp_clock_mono_ns();
		if (b - a < best) {
			best = b - a;
			*ns = a + (b - a) / 2;
			*cycles = c;
		}
	}
	return best <= BRACKET_MAX_NS ? 0 : -1;
}

static void test_converts_an_interval(void **state)
{
	struct rdp_clock clk;
	uint64_t t0 = 0, t1 = 0, c0 = 0, c1 = 0;
	double ns;

	(void)state;
	assert_int_equal(rdp_clock_calibrate(&clk), 0);
	assert_true(clk.cycles_per_ns > 0);
	if (read_edge(&t0, &c0))
		skip();
	while (rdp_clock_mono_ns() - t0 < 20000000ull)
		;
	if (read_edge(&t1, &c1))
		skip();
	ns = rdp_clock_ns(&clk, c1 - c0);
	print_message(
		"# 20 ms busy: %.0f ns by the counter, %llu by the clock\n", ns,
		(unsigned long long)(t1 - t0));
	assert_true(ns > 0.98 * (double)(t1 - t0));
	assert_true(ns < 1.02 * (double)(t1 - t0));
}

static void test_two_calibrations_agree(void **state)
{
	struct rdp_clock a, b;

	(void)state;
	assert_int_equal(rdp_clock_calibrate(&a), 0);
	assert_int_equal(rdp_clock_calibrate(&b), 0);
	assert_true(b.cycles_per_ns > 0.98 * a.cycles_per_ns);
	assert_true(b.cycles_per_ns < 1.02 * a.cycles_per_ns);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_converts_an_interval),
		cmocka_unit_test(test_two_calibrations_agree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
