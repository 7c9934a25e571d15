/* SPDX-License-Identifier: BSD-2-Clause */
/* The maths between the timed loops' raw samples and a result (measure.h):
 * no verbs, no clock reads, so each case is a unit test. */
#include <errno.h>
#include <stdlib.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/clock.h>
#include <rdmaperf/measure.h>

size_t rdp_measure_trim_bw(struct rdp_bw_sample *s, size_t n, uint64_t from,
			   uint64_t to)
{
	size_t i = 0, j = n - 1, k;
	uint64_t base;

	while (i < j && s[i].cycles < from)
		i++;
	while (j > i && s[j].cycles > to)
		j--;
	base = s[i].bytes;
	for (k = i; k <= j; k++)
		s[k - i] = (struct rdp_bw_sample){ s[k].cycles,
						   s[k].bytes - base };
	return j - i + 1;
}

uint64_t rdp_measure_lat_window(const uint64_t *stamps, uint64_t done,
				uint64_t warm, int trim, uint64_t from,
				uint64_t to, uint64_t *first)
{
	uint64_t i = warm, j = done;

	if (trim) {
		while (i < j && stamps[i] < from)
			i++;
		while (j > i && stamps[j] > to)
			j--;
	}
	if (j <= i)
		i = 0;
	*first = i;
	return j - i;
}

int rdp_measure_lat(const uint64_t *stamps, uint64_t first, uint64_t n,
		    double div, const struct rdp_clock *clk,
		    struct rdp_result *res)
{
	const uint64_t *t = stamps + first;
	double *ns;
	uint64_t i;
	int ret;

	ns = malloc((n ? n : 1) * sizeof(*ns));
	if (!ns)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		ns[i] = rdp_clock_ns(clk, t[i + 1] - t[i]) / div;
	res->msgs = n;
	res->warmup_iters = (uint32_t)first;
	res->elapsed_ns = rdp_clock_ns(clk, t[n] - t[0]);
	ret = rdp_stats_lat(ns, n, &res->lat);
	if (!ret) {
		res->hist_lo_ns = res->lat.min_ns;
		res->hist_hi_ns = res->lat.p99_ns;
		rdp_stats_histogram(ns, n, res->hist_lo_ns, res->hist_hi_ns,
				    res->hist, RDP_HIST_BUCKETS);
	}
	free(ns);
	return ret;
}

int rdp_measure_lat_samples(const uint64_t *stamps, uint64_t first, uint64_t n,
			    double div, const struct rdp_clock *clk,
			    struct rdp_result *res)
{
	const uint64_t *t = stamps + first;
	uint64_t i;

	free(res->samples_ns);
	res->samples_ns = malloc((n ? n : 1) * sizeof(*res->samples_ns));
	res->n_samples = 0;
	if (!res->samples_ns)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		res->samples_ns[i] = rdp_clock_ns(clk, t[i + 1] - t[i]) / div;
	res->n_samples = n;
	return 0;
}

void rdp_result_bw(struct rdp_result *res, const struct rdp_bw_sample *s,
		   size_t n, uint64_t start_cycles, const struct rdp_clock *clk)
{
	double bytes, ns, peak;

	if (n == 0)
		return;
	bytes = (double)s[n - 1].bytes;
	ns = rdp_clock_ns(clk, s[n - 1].cycles - start_cycles);
	res->elapsed_ns = ns;
	if (ns <= 0)
		return;
	res->bw_avg_gbps = bytes * 8.0 / ns;
	res->msg_rate_mpps = (double)res->msgs * 1e3 / ns;
	peak = rdp_stats_peak_rate(s, n, rdp_stats_peak_window(n));
	res->bw_peak_gbps = peak * clk->cycles_per_ns * 8.0;
	/* A window can never be slower than the average by construction of
	 * the maximum; keep the pair consistent when rounding bites. */
	if (res->bw_peak_gbps < res->bw_avg_gbps)
		res->bw_peak_gbps = res->bw_avg_gbps;
}

int rdp_result_intervals(struct rdp_result *res, const struct rdp_bw_sample *s,
			 size_t n, uint64_t start, uint64_t step,
			 const struct rdp_clock *clk)
{
	size_t cap;

	if (!step || !n)
		return 0;
	cap = (size_t)((s[n - 1].cycles - start) / step) + 1;
	res->interval_bytes = calloc(cap, sizeof(*res->interval_bytes));
	if (!res->interval_bytes)
		return -ENOMEM;
	res->interval_s = rdp_clock_ns(clk, step) / 1e9;
	res->n_intervals = rdp_stats_intervals(s, n, start, step,
					       res->interval_bytes, cap);
	return 0;
}

double rdp_measure_bytes_at(const struct rdp_bw_sample *s, size_t n, uint64_t t)
{
	size_t lo = 0, hi = n, mid;
	double f;

	if (n == 0)
		return 0;
	if (t <= s[0].cycles)
		return (double)s[0].bytes;
	if (t >= s[n - 1].cycles)
		return (double)s[n - 1].bytes;
	/* the last sample at or before t: s[lo] */
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (s[mid].cycles <= t)
			lo = mid;
		else
			hi = mid;
	}
	f = (double)(t - s[lo].cycles) /
	    (double)(s[lo + 1].cycles - s[lo].cycles);
	return (double)s[lo].bytes +
	       f * ((double)s[lo + 1].bytes - (double)s[lo].bytes);
}

static int by_cycles(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int rdp_measure_sum_bw(const struct rdp_bw_series *ser, size_t n, uint64_t from,
		       uint64_t to, struct rdp_bw_sample **out, size_t *n_out)
{
	struct rdp_bw_sample *sum;
	uint64_t *t;
	double base = 0, b;
	size_t m = 0, k = 0, i, j;

	if (to <= from)
		return -EINVAL;
	for (i = 0; i < n; i++)
		m += ser[i].n;
	t = malloc((m + 2) * sizeof(*t));
	sum = malloc((m + 2) * sizeof(*sum));
	if (!t || !sum) {
		free(t);
		free(sum);
		return -ENOMEM;
	}
	t[k++] = from;
	for (i = 0; i < n; i++)
		for (j = 0; j < ser[i].n; j++)
			if (ser[i].samples[j].cycles > from &&
			    ser[i].samples[j].cycles < to)
				t[k++] = ser[i].samples[j].cycles;
	t[k++] = to;
	qsort(t, k, sizeof(*t), by_cycles);
	for (i = 0; i < n; i++)
		base += rdp_measure_bytes_at(ser[i].samples, ser[i].n, from);
	for (j = 0, m = 0; j < k; j++) {
		if (m && t[j] == sum[m - 1].cycles)
			continue;
		for (b = 0, i = 0; i < n; i++)
			b += rdp_measure_bytes_at(ser[i].samples, ser[i].n,
						  t[j]);
		sum[m++] = (struct rdp_bw_sample){ t[j],
						   (uint64_t)(b - base + 0.5) };
	}
	free(t);
	*out = sum;
	*n_out = m;
	return 0;
}
