/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Statistics over the raw samples stored by the timed loops: nearest-rank
 * percentiles, Welford moments, and the peak rate over a sliding window.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <rdmaperf/stats.h>

double rdp_stats_percentile(const double *sorted, size_t n, double pct)
{
	double rank;
	size_t r;

	if (!n)
		return 0.0;
	/*
	 * pct is rarely exact in binary (99.9), so pct * n / 100 can land a
	 * hair above an integer and ceil() would skip to the next sample.
	 */
	rank = pct * (double)n / 100.0;
	rank = ceil(rank - rank * 1e-12);
	if (!(rank >= 1.0))
		r = 1;
	else if (rank >= (double)n)
		r = n;
	else
		r = (size_t)rank;
	return sorted[r - 1];
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a;
	double y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Welford: stable in one pass, no catastrophic cancellation. */
static void mean_stdev(const double *v, size_t n, double *mean, double *stdev)
{
	double m = 0.0, m2 = 0.0, d;
	size_t i;

	for (i = 0; i < n; i++) {
		d = v[i] - m;
		m += d / (double)(i + 1);
		m2 += d * (v[i] - m);
	}
	*mean = m;
	*stdev = n > 1 ? sqrt(m2 / (double)(n - 1)) : 0.0;
}

int rdp_stats_lat(double *samples_ns, size_t n, struct rdp_lat_stats *out)
{
	struct rdp_lat_stats st = { .n = n };

	if (!n)
		return -EINVAL;

	qsort(samples_ns, n, sizeof(*samples_ns), cmp_double);
	st.min_ns = samples_ns[0];
	st.max_ns = samples_ns[n - 1];
	st.median_ns = rdp_stats_percentile(samples_ns, n, 50.0);
	mean_stdev(samples_ns, n, &st.avg_ns, &st.stdev_ns);
	st.p90_ns = rdp_stats_percentile(samples_ns, n, 90.0);
	st.p99_ns = rdp_stats_percentile(samples_ns, n, 99.0);
	st.p999_ns = rdp_stats_percentile(samples_ns, n, 99.9);
	st.p9999_ns = rdp_stats_percentile(samples_ns, n, 99.99);
	*out = st;
	return 0;
}

double rdp_stats_peak_rate(const struct rdp_bw_sample *s, size_t n,
			   size_t window)
{
	double best = 0.0, rate;
	uint64_t dc, db;
	size_t i;

	if (n < 2)
		return 0.0;
	if (window < 1)
		window = 1;
	if (window > n - 1)
		window = n - 1;

	for (i = 0; i + window < n; i++) {
		/* A stalled clock or a non-monotonic pair has no rate. */
		if (s[i + window].cycles <= s[i].cycles ||
		    s[i + window].bytes < s[i].bytes)
			continue;
		dc = s[i + window].cycles - s[i].cycles;
		db = s[i + window].bytes - s[i].bytes;
		rate = (double)db / (double)dc;
		if (rate > best)
			best = rate;
	}
	return best;
}

size_t rdp_stats_peak_window(size_t n_samples)
{
	size_t w;

	if (n_samples < 2)
		return 1;
	w = (n_samples - 1) / 64;
	return w ? w : 1;
}

size_t rdp_stats_intervals(const struct rdp_bw_sample *s, size_t n,
			   uint64_t start, uint64_t step, uint64_t *bytes,
			   size_t cap)
{
	uint64_t edge, prev = 0;
	size_t i = 0, k;

	if (!n || !step)
		return 0;
	for (k = 0; k < cap; k++) {
		edge = start + (k + 1) * step;
		if (edge > s[n - 1].cycles)
			break;
		while (i + 1 < n && s[i + 1].cycles <= edge)
			i++;
		bytes[k] = s[i].bytes - prev;
		prev = s[i].bytes;
	}
	return k;
}

void rdp_stats_histogram(const double *sorted, size_t n, double lo, double hi,
			 uint64_t *counts, size_t nb)
{
	double width = (hi - lo) / (double)nb;
	size_t i, b;

	memset(counts, 0, (nb + 1) * sizeof(*counts));
	for (i = 0; i < n; i++) {
		if (sorted[i] >= hi || width <= 0) {
			counts[nb]++;
			continue;
		}
		b = sorted[i] <= lo ? 0 : (size_t)((sorted[i] - lo) / width);
		counts[b < nb ? b : nb - 1]++;
	}
}
