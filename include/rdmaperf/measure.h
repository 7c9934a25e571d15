/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Layer: bench
 * The measurement maths the loops apply after their timed region, as pure
 * functions of the stored samples: warm-up and margin exclusion, figures
 * from bandwidth samples and latency stamps, interval reports.
 */
#ifndef RDMAPERF_MEASURE_H
#define RDMAPERF_MEASURE_H

#include <stddef.h>
#include <stdint.h>

#include <rdmaperf/stats.h>

struct rdp_clock;
struct rdp_result;

/*
 * -f on a bandwidth run: keep the cumulative samples from the first at or
 * after from to the last at or before to (at least one), moved to the
 * front and rebased so the first kept one has moved 0 bytes. Returns how
 * many remain; n must be at least 1.
 */
size_t rdp_measure_trim_bw(struct rdp_bw_sample *s, size_t n, uint64_t from,
			   uint64_t to);

/*
 * Which latency round trips count. stamps[0] is the start and stamps[i]
 * the end of round trip i, for i in 1..done. The first warm are left out
 * and, with trim, those ending before from or after to. A run too short
 * for its warm-up counts every round trip it has. Sets *first, the stamp
 * the first counted round trip starts at, and returns how many count.
 */
uint64_t rdp_measure_lat_window(const uint64_t *stamps, uint64_t done,
				uint64_t warm, int trim, uint64_t from,
				uint64_t to, uint64_t *first);

/*
 * Latency figures of the n round trips after stamps[first], each divided
 * by div (2: a ping-pong measures two one-way trips): moments,
 * percentiles, histogram, elapsed time. 0, -EINVAL (n == 0) or -ENOMEM.
 */
int rdp_measure_lat(const uint64_t *stamps, uint64_t first, uint64_t n,
		    double div, const struct rdp_clock *clk,
		    struct rdp_result *res);

/*
 * -U: the same n samples (ns, in the order measured) into res->samples_ns
 * (malloc'd, freed by rdp_result_clear). 0 or -ENOMEM.
 */
int rdp_measure_lat_samples(const uint64_t *stamps, uint64_t first, uint64_t n,
			    double div, const struct rdp_clock *clk,
			    struct rdp_result *res);

/*
 * Bandwidth figures from cumulative samples (cycles, bytes) and the
 * cycle the run started at: average, message rate from res->msgs, and the
 * peak over a window of 1/64 of the run, never below the average.
 */
void rdp_result_bw(struct rdp_result *res, const struct rdp_bw_sample *s,
		   size_t n, uint64_t start_cycles,
		   const struct rdp_clock *clk);

/*
 * --interval: the bytes of every whole interval of step cycles after
 * start, into res->interval_bytes (allocated; rdp_result_clear() frees).
 * 0 or -ENOMEM.
 */
int rdp_result_intervals(struct rdp_result *res, const struct rdp_bw_sample *s,
			 size_t n, uint64_t start, uint64_t step,
			 const struct rdp_clock *clk);

/* How far series s had got at cycle t: its bytes there, interpolated
 * linearly between the samples around t; before the first sample, the
 * first's, after the last, the last's. */
double rdp_measure_bytes_at(const struct rdp_bw_sample *s, size_t n,
			    uint64_t t);

/*
 * --threads: the sum of n series over [from, to] as one cumulative series,
 * rebased to 0 at from: a sample at from, at every sample time of any
 * series inside the window, and at to, each the sum of every series'
 * rdp_measure_bytes_at. *out is malloc'd. 0, -EINVAL (to <= from) or
 * -ENOMEM.
 */
struct rdp_bw_series;
int rdp_measure_sum_bw(const struct rdp_bw_series *ser, size_t n, uint64_t from,
		       uint64_t to, struct rdp_bw_sample **out, size_t *n_out);

#endif /* RDMAPERF_MEASURE_H */
