/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Sweep helpers: the progress line and adaptive iterations. A batch is a
 * whole point exchange with fresh QPs, so every test loop works unchanged
 * and setup stays outside the timed region; each batch doubles the last,
 * so the reported figure comes from the longest, steadiest run.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <jansson.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/json.h>
#include <rdmaperf/sweep.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void rdp_progress_init(struct rdp_progress *p, FILE *f, size_t total)
{
	memset(p, 0, sizeof(*p));
	p->f = f && isatty(fileno(f)) ? f : NULL;
	p->total = total;
	p->t0_s = now_s();
}

static void mmss(char *buf, size_t len, double s)
{
	unsigned long t = s > 0 ? (unsigned long)(s + 0.5) : 0;

	if (t >= 3600)
		snprintf(buf, len, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60,
			 t % 60);
	else
		snprintf(buf, len, "%02lu:%02lu", t / 60, t % 60);
}

void rdp_progress_format(char *buf, size_t len, size_t k, size_t n,
			 double elapsed_s, uint64_t size_bytes, uint32_t qps)
{
	char el[32], eta[32] = "--:--";

	mmss(el, sizeof(el), elapsed_s);
	if (k > 1)
		mmss(eta, sizeof(eta),
		     elapsed_s / (double)(k - 1) * (double)(n - k + 1));
	snprintf(buf, len,
		 "point %zu of %zu: %llu B x %u QP%s, %s elapsed, "
		 "ETA %s",
		 k, n, (unsigned long long)size_bytes, qps, qps > 1 ? "s" : "",
		 el, eta);
}

void rdp_progress_show(struct rdp_progress *p, uint64_t size_bytes,
		       uint32_t qps)
{
	char line[128];

	p->done++;
	if (!p->f || p->total < 2)
		return;
	rdp_progress_format(line, sizeof(line), p->done, p->total,
			    now_s() - p->t0_s, size_bytes, qps);
	fprintf(p->f, "\r\033[K%s", line);
	fflush(p->f);
	p->shown = 1;
}

void rdp_progress_clear(struct rdp_progress *p)
{
	if (!p->f || !p->shown)
		return;
	fprintf(p->f, "\r\033[K");
	fflush(p->f);
	p->shown = 0;
}

uint64_t rdp_sweep_first(double time_per_point_s, uint64_t iters,
			 uint64_t size_bytes, uint32_t qps)
{
	uint64_t per_iter = size_bytes * (qps ? qps : 1), cap;

	if (time_per_point_s <= 0 || !per_iter)
		return iters;
	cap = (16ull << 20) / per_iter;
	if (cap < 2)
		cap = 2;
	return iters < cap ? iters : cap;
}

int rdp_sweep_stop(double prev, double cur, double target, double elapsed_s,
		   double last_wall_s, double budget_s)
{
	double change = cur > 0 ? fabs(cur - prev) / cur : INFINITY;

	if (prev > 0 && change <= target)
		return 1;
	/* The next batch is twice as long as the last one. */
	return elapsed_s + 2 * last_wall_s > budget_s;
}

static double figure(const struct rdp_result *r, int is_lat)
{
	return is_lat ? r->lat.median_ns : r->bw_avg_gbps;
}

int rdp_sweep_adapt(double budget_s, double target, int is_lat, uint64_t first,
		    rdp_batch_fn *fn, void *ctx, struct rdp_result *res,
		    struct rdp_adapt_info *info)
{
	double t0 = now_s(), t, last_wall, prev = 0, cur;
	uint64_t iters = first ? first : RDP_SWEEP_FIRST_ITERS;
	int ret;

	memset(info, 0, sizeof(*info));
	for (;;) {
		if (info->batches)
			rdp_result_clear(res);
		t = now_s();
		ret = fn(ctx, iters, info->batches > 0, res);
		if (ret)
			return ret;
		last_wall = now_s() - t;
		cur = figure(res, is_lat);
		info->batches++;
		info->iters = iters;
		info->change = prev > 0 && cur > 0 ? fabs(cur - prev) / cur
						   : NAN;
		info->stable = prev > 0 && info->change <= target;
		if (rdp_sweep_stop(prev, cur, target, now_s() - t0, last_wall,
				   budget_s) ||
		    iters > UINT64_MAX / 4)
			break;
		prev = cur;
		iters *= 2;
	}
	info->wall_s = now_s() - t0;
	return 0;
}

void rdp_sweep_report(const struct rdp_adapt_info *a, FILE *text,
		      struct rdp_json *j)
{
	json_t *e;

	if (!a->batches)
		return;
	if (isfinite(a->change))
		fprintf(text,
			"   adaptive: %u batches in %.2f s, last %llu "
			"iterations per QP, %.2f%% from the one before%s\n",
			a->batches, a->wall_s, (unsigned long long)a->iters,
			a->change * 100, a->stable ? "" : " (time ran out)");
	else
		fprintf(text,
			"   adaptive: 1 batch of %llu iterations per QP in "
			"%.2f s (time ran out)\n",
			(unsigned long long)a->iters, a->wall_s);
	e = rdp_json_last(j);
	if (e)
		json_object_set_new(
			e, "adaptive",
			json_pack("{s:I, s:I, s:o, s:b, s:f}", "batches",
				  (json_int_t)a->batches, "last_iterations",
				  (json_int_t)a->iters, "change_pct",
				  isfinite(a->change)
					  ? json_real(a->change * 100)
					  : json_null(),
				  "stable", a->stable, "wall_s", a->wall_s));
}
