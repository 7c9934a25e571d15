/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Multi-rail: -d DEV0,DEV1 with HOST0,HOST1 runs the same bandwidth test
 * on every device pair at once, one child rdmaperf per rail pinned to its
 * device's NUMA node, released into each point's timed loop together by
 * a start barrier, then prints each rail's report and a [SUM] table.
 * Layer: session
 */
#ifndef RDMAPERF_RAILS_H
#define RDMAPERF_RAILS_H

struct rdp_opts;

#define RDP_MAX_RAILS 8

/* Whether the options name several devices. */
int rdp_rails_wanted(const struct rdp_opts *o);

/* Run the rails; returns enum rdp_exit (the worst of the rails). */
int rdp_rails_run(int argc, char **argv, const struct rdp_opts *o);

#endif /* RDMAPERF_RAILS_H */
