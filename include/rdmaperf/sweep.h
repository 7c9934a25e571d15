/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Sweeps: a progress line on a terminal, and adaptive iterations per point
 * (--time-per-point): batches of doubling length until two in a row agree
 * within the target relative error, or the time runs out.
 * Layer: session
 */
#ifndef RDMAPERF_SWEEP_H
#define RDMAPERF_SWEEP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct rdp_json;
struct rdp_result;

/* The first batch when -n is not given. */
#define RDP_SWEEP_FIRST_ITERS 32

struct rdp_progress {
	FILE *f; /* NULL: off (not a terminal) */
	double t0_s;
	size_t done, total;
	int shown;
};

/* On only when f is a terminal. */
void rdp_progress_init(struct rdp_progress *p, FILE *f, size_t total);
/* The line for the next point, replacing the previous one. */
void rdp_progress_show(struct rdp_progress *p, uint64_t size_bytes,
		       uint32_t qps);
/* Erase the line, so the report prints on a clean line. */
void rdp_progress_clear(struct rdp_progress *p);
/* "point 3 of 23: 8192 B x 1 QP, 00:12 elapsed, ETA 01:20"; the ETA
 * assumes the remaining points take as long as the finished ones. */
void rdp_progress_format(char *buf, size_t len, size_t k, size_t n,
			 double elapsed_s, uint64_t size_bytes, uint32_t qps);

/* What the adaptive search did for one point. */
struct rdp_adapt_info {
	unsigned int batches; /* 0: not adaptive */
	uint64_t iters;	      /* of the reported (last) batch, per QP */
	double change;	      /* relative change between the last two */
	int stable;	      /* change within the target */
	double wall_s;	      /* the point's wall time, setup included */
};

/*
 * Run one batch of iters per QP into res; again: not the first batch of
 * the point (fresh QPs must be set up). 0 or a negative errno.
 */
typedef int rdp_batch_fn(void *ctx, uint64_t iters, int again,
			 struct rdp_result *res);

/*
 * Batches of first, 2 first, 4 first ... iterations until the headline
 * figure (average bandwidth, median latency) of two in a row differs by at
 * most target (a fraction), or the next batch would end after budget_s.
 * res holds the last batch.
 */
int rdp_sweep_adapt(double budget_s, double target, int is_lat, uint64_t first,
		    rdp_batch_fn *fn, void *ctx, struct rdp_result *res,
		    struct rdp_adapt_info *info);

/*
 * The first batch of a point: iters, or with adaptive iterations
 * (time_per_point_s > 0) at most 16 MiB over all QPs (at least 2), so
 * large messages start short too.
 */
uint64_t rdp_sweep_first(double time_per_point_s, uint64_t iters,
			 uint64_t size_bytes, uint32_t qps);

/* Pure stopping rule, unit-tested: 1 stop, 0 run another batch. */
int rdp_sweep_stop(double prev, double cur, double target, double elapsed_s,
		   double last_wall_s, double budget_s);

/* A line under the point's row and its JSON entry's "adaptive" key. */
void rdp_sweep_report(const struct rdp_adapt_info *a, FILE *text,
		      struct rdp_json *j);

#endif /* RDMAPERF_SWEEP_H */
