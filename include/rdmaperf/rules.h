/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Whether a point can run: one function decides from the parameters, the
 * test's row and the side's memory, and writes the reason. The client
 * calls it before connecting, the server on every PARAMS, so both say the
 * same words. Lists of tests in its lines come from the registry.
 * Layer: bench
 */
#ifndef RDMAPERF_RULES_H
#define RDMAPERF_RULES_H

#include <stddef.h>

struct rdp_params;
struct rdp_bench_ops;
struct rdp_mem_ops;

/* One side of a point as the rules see it: where its data lives and what
 * its peer is. */
struct rdp_rules_side {
	/* the device memory of the data (a row of rdp_mem_types()),
	 * NULL: host memory */
	const struct rdp_mem_ops *mem;
	int bounce;    /* --bounce: staged through host buffers */
	int hugepages; /* --use_hugepages */
	int perftest;  /* the peer is one of perftest's ib_* programs */
	/* --mmap-offset, 0 none */
	unsigned long long mmap_offset;
	/* The server's side: the rules of a staged loop (-e, --rate_limit
	 * with --bounce) hold where its loop stages or sends, not where it
	 * only lends its memory. */
	int server;
};

/*
 * Can ops run p on a side with memory side: the side's memory alone, then
 * the parameters against each other and the test's row, then the test's
 * transport, immediate data and own validate (rdp_bench_validate).
 * 0, or -EINVAL with one line in why naming the problem and the fix.
 */
int rdp_rules_check(const struct rdp_params *p, const struct rdp_bench_ops *ops,
		    const struct rdp_rules_side *side, char *why, size_t len);
/* The side's memory options alone, before any test is known (a server
 * at start): --bounce needs device memory, huge pages are host pages. */
int rdp_rules_check_mem(const struct rdp_rules_side *side, char *why,
			size_t len);

/*
 * The tests of the registry of kind (RDP_BENCH_BW or _LAT; -1 any) whose
 * row has every bit of want and none of refuse, each written as
 * prefix+name, joined with ", " and, before the last, with last (" and ",
 * " or "), into buf: "write_bw, read_bw and send_bw"; "" for none.
 */
const char *rdp_rules_tests(int kind, unsigned int want, unsigned int refuse,
			    const char *prefix, const char *last, char *buf,
			    size_t len);

#endif /* RDMAPERF_RULES_H */
