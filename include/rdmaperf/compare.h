/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdmaperf compare: a results document against a baseline, point by
 * point (test, size, QP count); a regression is bandwidth down or latency
 * up by more than the tolerance.
 * Layer: cli
 */
#ifndef RDMAPERF_COMPARE_H
#define RDMAPERF_COMPARE_H

#include <stddef.h>
#include <stdio.h>

struct json_t;
struct rdp_tool;

struct rdp_compare_sum {
	size_t points;	    /* baseline points found in the new run */
	size_t regressions; /* beyond the tolerance */
	size_t missing;	    /* baseline points the new run lacks */
	size_t added;	    /* new-run points the baseline lacks */
};

/*
 * Print the per-point table to out and fill sum; tol is a fraction
 * (0.05 = 5 %). -EINVAL when either document has no results[].
 */
int rdp_compare_docs(struct json_t *base, struct json_t *cur, double tol,
		     FILE *out, struct rdp_compare_sum *sum);

/*
 * Were the two runs measured the same way? Compares each point's length
 * (-D against -n), the QP counts and sizes of the results, the device's
 * line rate and a few parameters (tx_depth, threads, transport, MTU),
 * where both documents have them. Returns 0, or the length of why: the
 * differences, "; "-separated, on one line.
 */
size_t rdp_compare_setup(const struct json_t *base, const struct json_t *cur,
			 char *why, size_t len);

extern const struct rdp_tool rdp_tool_compare;

#endif /* RDMAPERF_COMPARE_H */
