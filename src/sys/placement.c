/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Placement: run and allocate on the NIC's NUMA node unless told or set
 * otherwise. The plan is pure (topology through struct rdp_sysfs, tested on
 * fixture trees); applying it is one affinity call and one memory policy.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <numa.h>

#include <rdmaperf/log.h>
#include <rdmaperf/placement.h>
#include <rdmaperf/sysfs.h>

#include "place_int.h"

#define NODE_DIR "/sys/devices/system/node"

const char *rdp_place_mode_str(enum rdp_place_mode mode)
{
	switch (mode) {
	case RDP_PLACE_NIC:
		return "nic";
	case RDP_PLACE_CPU:
		return "cpu";
	case RDP_PLACE_NUMA:
		return "numa";
	case RDP_PLACE_EXTERNAL:
		return "external";
	default:
		return "none";
	}
}

static int read_list(const struct rdp_sysfs *fs, cpu_set_t *set,
		     const char *path)
{
	char buf[1024];
	int ret = rdp_sysfs_read(fs, buf, sizeof(buf), "%s", path);

	if (ret)
		return ret;
	if (!buf[0]) {
		CPU_ZERO(set);
		return 0;
	}
	return rdp_cpulist_parse(buf, set);
}

/* The CPUs of a node; -ENOENT when it does not exist. */
static int node_cpus(const struct rdp_sysfs *fs, int node, cpu_set_t *set)
{
	char path[64];

	if (node < 0)
		return -ENOENT;
	snprintf(path, sizeof(path), NODE_DIR "/node%d/cpulist", node);
	return read_list(fs, set, path) ? -ENOENT : 0;
}

int rdp_place_node_of_cpu(const struct rdp_sysfs *fs, int cpu)
{
	cpu_set_t nodes, cpus;
	int n;

	if (cpu < 0 || read_list(fs, &nodes, NODE_DIR "/online"))
		return -1;
	for (n = 0; n < CPU_SETSIZE; n++)
		if (CPU_ISSET(n, &nodes) && !node_cpus(fs, n, &cpus) &&
		    CPU_ISSET(cpu, &cpus))
			return n;
	return -1;
}

/* Some CPU of set lies off node (a node of -1 is nobody's). */
static int off_node(const struct rdp_sysfs *fs, const cpu_set_t *set, int node)
{
	cpu_set_t local, off;

	if (node < 0 || node_cpus(fs, node, &local))
		return 0;
	CPU_XOR(&off, set, &local);
	CPU_AND(&off, &off, set);
	return CPU_COUNT(&off) > 0;
}

static int plan_cpus(const struct rdp_sysfs *fs, const char *list,
		     struct rdp_placement *pl, char *err, size_t len)
{
	cpu_set_t online, bad;
	char text[64];

	if (rdp_cpulist_parse(list, &pl->cpus)) {
		snprintf(err, len,
			 "--cpu %s: give CPUs like 3 or 0-3,8 (see lscpu)",
			 list);
		return -EINVAL;
	}
	if (!read_list(fs, &online, "/sys/devices/system/cpu/online")) {
		CPU_XOR(&bad, &pl->cpus, &online);
		CPU_AND(&bad, &bad, &pl->cpus);
		if (CPU_COUNT(&bad)) {
			rdp_cpulist_format(&bad, text, sizeof(text));
			snprintf(err, len,
				 "--cpu %s: CPU %s is not online here "
				 "(see lscpu)",
				 list, text);
			return -EINVAL;
		}
	}
	pl->mode = RDP_PLACE_CPU;
	pl->node = rdp_place_node_of_cpu(fs, rdp_cpulist_first(&pl->cpus));
	return 0;
}

static int plan_numa(const struct rdp_sysfs *fs, int node,
		     struct rdp_placement *pl, char *err, size_t len)
{
	char nodes[64] = "";

	if (node_cpus(fs, node, &pl->cpus) || !CPU_COUNT(&pl->cpus)) {
		rdp_sysfs_read(fs, nodes, sizeof(nodes), NODE_DIR "/online");
		snprintf(err, len,
			 "--numa %d: no such node with CPUs (nodes here: "
			 "%s)",
			 node, nodes[0] ? nodes : "unknown");
		return -EINVAL;
	}
	pl->mode = RDP_PLACE_NUMA;
	pl->node = node;
	return 0;
}

/* Whether the process started confined: narrower than the online CPUs. */
static int confined(const struct rdp_sysfs *fs, const cpu_set_t *start)
{
	cpu_set_t online;

	if (!start || read_list(fs, &online, "/sys/devices/system/cpu/online"))
		return 0;
	return CPU_COUNT(start) && CPU_COUNT(start) < CPU_COUNT(&online);
}

/* A server pinned for its last client starts the next one pinned alike:
 * that is this plan, not an affinity from outside. */
static int same_as_nic(const struct rdp_sysfs *fs, int nic_node,
		       const cpu_set_t *nic_cpus, const cpu_set_t *set)
{
	cpu_set_t local;

	if (nic_cpus && CPU_EQUAL(nic_cpus, set))
		return 1;
	return !node_cpus(fs, nic_node, &local) && CPU_EQUAL(&local, set);
}

int rdp_place_plan(const struct rdp_sysfs *fs, const struct rdp_place_opts *o,
		   int nic_node, const cpu_set_t *start_affinity,
		   struct rdp_placement *pl, char *err, size_t len)
{
	return rdp_place_plan_near(fs, o, nic_node, NULL, start_affinity, pl,
				   err, len);
}

int rdp_place_plan_near(const struct rdp_sysfs *fs,
			const struct rdp_place_opts *o, int nic_node,
			const cpu_set_t *nic_cpus,
			const cpu_set_t *start_affinity,
			struct rdp_placement *pl, char *err, size_t len)
{
	cpu_set_t online;
	int ret = 0;

	memset(pl, 0, sizeof(*pl));
	pl->nic_node = nic_node;
	pl->node = -1;
	if (start_affinity)
		pl->cpus = *start_affinity;
	if (o->no_pin) {
		pl->mode = RDP_PLACE_NONE;
		snprintf(pl->why, sizeof(pl->why), "--no-pin");
	} else if (o->cpus[0]) {
		ret = plan_cpus(fs, o->cpus, pl, err, len);
	} else if (o->have_numa) {
		ret = plan_numa(fs, o->numa_node, pl, err, len);
	} else if (start_affinity && confined(fs, start_affinity) &&
		   !same_as_nic(fs, nic_node, nic_cpus, start_affinity)) {
		pl->mode = RDP_PLACE_EXTERNAL;
		pl->node = rdp_place_node_of_cpu(
			fs, rdp_cpulist_first(start_affinity));
		snprintf(pl->why, sizeof(pl->why),
			 "affinity set before start, kept");
	} else if (nic_cpus && CPU_COUNT(nic_cpus)) {
		/* The topology's near CPUs: narrower than the node on hosts
		 * split into sub-NUMA clusters, known where sysfs has no
		 * node. */
		pl->mode = RDP_PLACE_NIC;
		pl->cpus = *nic_cpus;
		pl->node = nic_node;
	} else if (nic_node >= 0 && !node_cpus(fs, nic_node, &pl->cpus) &&
		   CPU_COUNT(&pl->cpus)) {
		pl->mode = RDP_PLACE_NIC;
		pl->node = nic_node;
	} else {
		pl->mode = RDP_PLACE_NONE;
		if (!read_list(fs, &online, "/sys/devices/system/cpu/online"))
			pl->cpus = online;
		snprintf(pl->why, sizeof(pl->why),
			 "the NIC reports no NUMA node: not pinned");
	}
	if (ret)
		return ret;
	pl->cross_numa = pl->mode != RDP_PLACE_NONE && nic_node >= 0 &&
			 off_node(fs, &pl->cpus, nic_node);
	return 0;
}

/* Apply a plan to the calling thread: affinity and memory policy. */
static int place_apply(struct rdp_placement *pl)
{
	if (pl->mode == RDP_PLACE_NONE || pl->mode == RDP_PLACE_EXTERNAL)
		return 0; /* memory policy too is left as numactl set it */
	if (sched_setaffinity(0, sizeof(pl->cpus), &pl->cpus)) {
		rdp_err("bind to CPUs: %s", strerror(errno));
		return -errno;
	}
	/* Preferred, not bound: a full node falls back instead of failing
	 * the registration; buffers are touched after this, so they land
	 * on the node. */
	if (pl->node >= 0 && numa_available() >= 0) {
		numa_set_preferred(pl->node);
		pl->mem_bound = 1;
	}
	return 0;
}

int rdp_place_self(const struct rdp_place_opts *o, int nic_node,
		   struct rdp_placement *out)
{
	return rdp_place_self_near(o, nic_node, NULL, out);
}

int rdp_place_self_near(const struct rdp_place_opts *o, int nic_node,
			const cpu_set_t *nic_cpus, struct rdp_placement *out)
{
	struct rdp_sysfs fs;
	cpu_set_t start;
	char err[256], cpus[64];
	int ret;

	rdp_sysfs_init(&fs, NULL);
	if (sched_getaffinity(0, sizeof(start), &start))
		CPU_ZERO(&start);
	ret = rdp_place_plan_near(&fs, o, nic_node, nic_cpus, &start, out, err,
				  sizeof(err));
	if (ret) {
		rdp_err("%s", err);
		return ret;
	}
	ret = place_apply(out);
	if (ret)
		return ret;
	if (out->cross_numa) {
		rdp_cpulist_format(&out->cpus, cpus, sizeof(cpus));
		rdp_warn("CPUs %s are not all on NUMA node %d of the NIC: "
			 "every access to the NIC crosses the socket link; "
			 "drop %s to run near the NIC",
			 cpus, nic_node,
			 out->mode == RDP_PLACE_CPU    ? "--cpu"
			 : out->mode == RDP_PLACE_NUMA ? "--numa"
						       : "taskset/numactl");
	}
	return 0;
}
