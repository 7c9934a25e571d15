/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Timestamps for the timed loops: a cycle counter read inline, calibrated
 * once against CLOCK_MONOTONIC_RAW; nanoseconds are computed afterwards.
 * Layer: sys
 */
#ifndef RDMAPERF_CLOCK_H
#define RDMAPERF_CLOCK_H

#include <stdint.h>
#include <time.h>

struct rdp_clock {
	double cycles_per_ns;
	const char *source; /* "tsc", "cntvct" or "clock_gettime" */
};

static inline uint64_t rdp_clock_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline uint64_t rdp_cycles(void)
{
#if defined(__x86_64__) || defined(__i386__)
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
#elif defined(__aarch64__)
	uint64_t v;

	__asm__ __volatile__("isb; mrs %0, cntvct_el0" : "=r"(v));
	return v;
#else
	return rdp_clock_mono_ns();
#endif
}

/* Measure the cycle counter's rate over about 50 ms. */
int rdp_clock_calibrate(struct rdp_clock *clk);

static inline double rdp_clock_ns(const struct rdp_clock *clk, uint64_t cycles)
{
	return (double)cycles / clk->cycles_per_ns;
}

static inline uint64_t rdp_clock_cycles_of_ms(const struct rdp_clock *clk,
					      uint64_t ms)
{
	return (uint64_t)((double)ms * 1e6 * clk->cycles_per_ns);
}

#endif /* RDMAPERF_CLOCK_H */
