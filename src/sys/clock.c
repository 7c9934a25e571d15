/* SPDX-License-Identifier: BSD-2-Clause */
/* Calibrate the cycle counter against CLOCK_MONOTONIC_RAW. */
#include <errno.h>
#include <time.h>

#include <rdmaperf/clock.h>

#define CALIBRATE_NS 50000000ull

int rdp_clock_calibrate(struct rdp_clock *clk)
{
	uint64_t t0, t1, c0, c1;

	/* Busy-wait rather than sleep: the counter must not be scaled by
	 * an idle state, and the interval must be long enough to make the
	 * edges' jitter negligible (< 0.01 %). */
	t0 = rdp_clock_mono_ns();
	c0 = rdp_cycles();
	do {
		t1 = rdp_clock_mono_ns();
	} while (t1 - t0 < CALIBRATE_NS);
	c1 = rdp_cycles();
	if (c1 <= c0)
		return -EIO;
	clk->cycles_per_ns = (double)(c1 - c0) / (double)(t1 - t0);
#if defined(__x86_64__) || defined(__i386__)
	clk->source = "tsc";
#elif defined(__aarch64__)
	clk->source = "cntvct";
#else
	clk->source = "clock_gettime";
#endif
	return 0;
}
