/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CPU time over a region: this process's user and system time
 * (getrusage) and the whole host's busy share (/proc/stat), for
 * --cpu_util and the CPU cost per message.
 * Layer: sys
 */
#ifndef RDMAPERF_CPU_USAGE_H
#define RDMAPERF_CPU_USAGE_H

#include <stdint.h>

#include <rdmaperf/sysfs.h>

/* A snapshot; take one before the region and one after. */
struct rdp_cpu_snap {
	uint64_t wall_ns;		/* CLOCK_MONOTONIC */
	uint64_t user_ns, sys_ns;	/* this process */
	uint64_t host_busy, host_total; /* /proc/stat ticks, all CPUs */
	int have_host;
};

/* What a region cost. */
struct rdp_cpu_usage {
	uint64_t wall_ns;	  /* the region */
	uint64_t user_ns, sys_ns; /* this process */
	/* The host's CPUs busy over the region, 0..100 % of all of them;
	 * < 0 when /proc/stat could not be read. */
	double host_busy_pct;
};

void rdp_cpu_snap(const struct rdp_sysfs *fs, struct rdp_cpu_snap *s);
void rdp_cpu_usage(const struct rdp_cpu_snap *before,
		   const struct rdp_cpu_snap *after, struct rdp_cpu_usage *out);
/* The "cpu " line of /proc/stat: busy (all but idle and iowait) and
 * total ticks. -EINVAL when it is not there. */
int rdp_cpu_parse_stat(const char *text, uint64_t *busy, uint64_t *total);

#endif /* RDMAPERF_CPU_USAGE_H */
