/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Placement with the topology: hwloc knows the CPUs nearest a NIC (its
 * nearest non-I/O ancestor), which sysfs's numa_node rounds up to a whole
 * node. Any doubt falls back to the node from sysfs.
 */
#include <rdmaperf/placement.h>
#include <rdmaperf/topo.h>

int rdp_place_self_dev(const struct rdp_place_opts *o, const char *dev,
		       int nic_node, struct rdp_placement *out)
{
	struct rdp_topo_nic nic;
	struct rdp_topo *t;
	int near = 0;

	if (dev && dev[0] && !rdp_topo_load(NULL, NULL, &t)) {
		/* All CPUs says nothing (a VM, a single node, a software
		 * device): the sysfs path decides then. */
		near = !rdp_topo_nic(t, dev, &nic) && !nic.whole_machine &&
		       CPU_COUNT(&nic.cpus) > 0;
		rdp_topo_free(t);
	}
	if (!near)
		return rdp_place_self(o, nic_node, out);
	if (nic_node < 0)
		nic_node = nic.node;
	return rdp_place_self_near(o, nic_node, &nic.cpus, out);
}
