/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A run's verdict: the thresholds applied to every point as it completes,
 * its port counters held to --max-errors (or the defaults: no link error)
 * on each side, failing points marked in the report, the outcome in the
 * JSON document.
 * Layer: report
 */
#ifndef RDMAPERF_VERDICT_H
#define RDMAPERF_VERDICT_H

#include <stddef.h>
#include <stdio.h>

#include <rdmaperf/limits.h>

struct rdp_ctr_pair;
struct rdp_dev;
struct rdp_json;
struct rdp_result;

struct rdp_verdict {
	struct rdp_limits lim; /* --min-bw & co. with -w and -y folded in */
	double line_gbps;      /* 0: the port reports no known rate */
	int is_bw;
	size_t n_points;
	size_t n_failed; /* points with at least one failed criterion */
};

/* The limits lim for a bandwidth test (is_bw) or a latency test on dev;
 * -EINVAL (logged) when a percentage is asked of a port without a rate. */
int rdp_verdict_init(struct rdp_verdict *v, const struct rdp_limits *lim,
		     int is_bw, const struct rdp_dev *dev);

/*
 * After one point: failures logged on stderr naming the point (and for
 * counters, which side's port), marked under its row in text, and the
 * point's JSON entry (the last one, when j is not NULL) given its share
 * of the line rate, its counters' sums per kind ("errors") and its
 * outcome. ctr: the point's counter deltas, NULL none.
 */
void rdp_verdict_point(struct rdp_verdict *v, FILE *text,
		       const struct rdp_result *r,
		       const struct rdp_ctr_pair *ctr, struct rdp_json *j);

/* The summary line and the document's "verdict"; returns n_failed. */
size_t rdp_verdict_finish(const struct rdp_verdict *v, FILE *text,
			  struct rdp_json *j);

#endif /* RDMAPERF_VERDICT_H */
