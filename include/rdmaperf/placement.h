/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Where the benchmark runs: the CPUs and memory node near the NIC by
 * default, the user's --cpu/--numa when given, an affinity set from
 * outside (taskset, numactl) left alone, nothing with --no-pin.
 * Layer: sys
 */
#ifndef RDMAPERF_PLACEMENT_H
#define RDMAPERF_PLACEMENT_H

#include <sched.h>
#include <stddef.h>

struct rdp_sysfs;

/* Where the user asked to run (--cpu, --numa, --no-pin). */
struct rdp_place_opts {
	char cpus[256]; /* --cpu LIST, "" when not given */
	int have_numa;	/* --numa given */
	int numa_node;
	int no_pin;
};

/* "0-3,8,10-11" into set; -EINVAL on bad syntax, -ERANGE past CPU_SETSIZE. */
int rdp_cpulist_parse(const char *text, cpu_set_t *set);
/* The set back as a list, "" when empty; truncated lists end in "...". */
void rdp_cpulist_format(const cpu_set_t *set, char *buf, size_t len);
/* Lowest CPU in set, -1 when empty. */
int rdp_cpulist_first(const cpu_set_t *set);

enum rdp_place_mode {
	RDP_PLACE_NIC = 0,  /* default: the NIC's node */
	RDP_PLACE_CPU,	    /* --cpu LIST */
	RDP_PLACE_NUMA,	    /* --numa NODE */
	RDP_PLACE_EXTERNAL, /* affinity set before start: kept */
	RDP_PLACE_NONE,	    /* --no-pin, or nothing known to pin to */
};

struct rdp_placement {
	enum rdp_place_mode mode;
	int nic_node;	/* -1 unknown */
	int node;	/* where the CPUs and memory are; -1 unknown */
	int mem_bound;	/* allocations prefer node */
	int cross_numa; /* the CPUs are off the NIC's node */
	cpu_set_t cpus; /* the CPUs the threads run on */
	char why[160];	/* a note for the report, "" if none */
};

/*
 * Decide the placement from the options, the NIC's node (-1 unknown) and
 * the affinity the process started with: pure, reads the topology through
 * fs. -EINVAL with one line in err for a choice that cannot be made (a CPU
 * or node that does not exist).
 */
int rdp_place_plan(const struct rdp_sysfs *fs, const struct rdp_place_opts *o,
		   int nic_node, const cpu_set_t *start_affinity,
		   struct rdp_placement *out, char *err, size_t len);

/*
 * rdp_place_plan with the CPUs near the NIC from the topology (hwloc):
 * nic_cpus, when given and not empty, replace the node's CPUs by default.
 */
int rdp_place_plan_near(const struct rdp_sysfs *fs,
			const struct rdp_place_opts *o, int nic_node,
			const cpu_set_t *nic_cpus,
			const cpu_set_t *start_affinity,
			struct rdp_placement *out, char *err, size_t len);

/*
 * Plan and apply for the live system (printing the cross-NUMA warning), for
 * the RDMA device dev: its near CPUs from hwloc when the topology places it
 * (src/sys/place_topo.c), the sysfs node otherwise.
 */
int rdp_place_self_dev(const struct rdp_place_opts *o, const char *dev,
		       int nic_node, struct rdp_placement *out);

const char *rdp_place_mode_str(enum rdp_place_mode mode);

/* The node a CPU belongs to, from <root>/sys/devices/system/node; -1. */
int rdp_place_node_of_cpu(const struct rdp_sysfs *fs, int cpu);

#endif /* RDMAPERF_PLACEMENT_H */
