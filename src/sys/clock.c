/* SPDX-License-Identifier: BSD-2-Clause */
/* Calibrate the cycle counter against CLOCK_MONOTONIC_RAW. */
#include <errno.h>
#include <stdint.h>
#include <time.h>

#include <rdmaperf/clock.h>

#define CALIBRATE_NS 50000000ull
/* An edge read within this many ns is taken at once; else the narrowest
 * of EDGE_TRIES reads. */
#define EDGE_GOOD_NS 2000u
#define EDGE_TRIES   256

/*
 * One edge of the interval: the counter read between two clock reads, the
 * time taken as their midpoint. A thread preempted between the reads (a
 * loaded host, many ranks starting at once) widens the bracket, and the
 * narrowest bracket of a few tries is kept, so a preemption at an edge
 * cannot pass for counter cycles: a lone pair of reads once put a rank
 * at twice its real rate when the host was busy.
 */
static void edge(uint64_t *ns, uint64_t *cycles)
{
	uint64_t a, b, c, best = UINT64_MAX;
	int i;

	for (i = 0; i < EDGE_TRIES && best > EDGE_GOOD_NS; i++) {
		a = rdp_clock_mono_ns();
		c = rdp_cycles();
		b = rdp_clock_mono_ns();
		if (b - a < best) {
			best = b - a;
			*ns = a + (b - a) / 2;
			*cycles = c;
		}
	}
}

int rdp_clock_calibrate(struct rdp_clock *clk)
{
	uint64_t t0, t1, c0, c1;

	/* Busy-wait rather than sleep: the counter must not be scaled by
	 * an idle state, and the interval must be long enough to make the
	 * edges' jitter negligible (< 0.01 %). */
	edge(&t0, &c0);
	do
		t1 = rdp_clock_mono_ns();
	while (t1 - t0 < CALIBRATE_NS);
	edge(&t1, &c1);
	if (c1 <= c0 || t1 <= t0)
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
