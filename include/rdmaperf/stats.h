/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Statistics computed after the timed region: latency percentiles and
 * moments from every sample, bandwidth average and peak from samples.
 * Layer: bench
 */
#ifndef RDMAPERF_STATS_H
#define RDMAPERF_STATS_H

#include <stddef.h>
#include <stdint.h>

struct rdp_lat_stats {
	size_t n;
	double min_ns;
	double max_ns;
	double median_ns;
	double avg_ns;
	double stdev_ns; /* sample standard deviation (n - 1) */
	double p90_ns;
	double p99_ns;
	double p999_ns;
	double p9999_ns;
};

/* One point of cumulative progress during a bandwidth run. */
struct rdp_bw_sample {
	uint64_t cycles;
	uint64_t bytes;
};

/*
 * Nearest-rank percentile of sorted samples: the smallest sample such that
 * at least pct percent of all samples are <= it. pct in (0, 100].
 */
double rdp_stats_percentile(const double *sorted, size_t n, double pct);

/* Sorts samples in place; -EINVAL when n == 0. */
int rdp_stats_lat(double *samples_ns, size_t n, struct rdp_lat_stats *out);

/*
 * Highest rate over any window spanning `window` consecutive sample
 * intervals, in bytes per cycle; 0 when fewer than two samples.
 */
double rdp_stats_peak_rate(const struct rdp_bw_sample *s, size_t n,
			   size_t window);

/* The window used for peak bandwidth: 1/64 of the intervals, at least 1. */
size_t rdp_stats_peak_window(size_t n_samples);

/*
 * Bytes moved in each whole interval of step cycles after start, from
 * cumulative samples: the progress at a boundary is that of the last sample
 * at or before it. Writes at most cap values; returns how many.
 */
size_t rdp_stats_intervals(const struct rdp_bw_sample *s, size_t n,
			   uint64_t start, uint64_t step, uint64_t *bytes,
			   size_t cap);

/*
 * Count sorted samples into nb equal buckets over [lo, hi); counts[nb]
 * takes those >= hi. Samples below lo go to bucket 0.
 */
void rdp_stats_histogram(const double *sorted, size_t n, double lo, double hi,
			 uint64_t *counts, size_t nb);

#endif /* RDMAPERF_STATS_H */
