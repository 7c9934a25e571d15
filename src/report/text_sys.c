/* SPDX-License-Identifier: BSD-2-Clause */
/* The placement lines of the text report header, both sides. */
#include <stdio.h>

#include <rdmaperf/placement.h>
#include <rdmaperf/report.h>

static const char *mode_note(enum rdp_place_mode mode)
{
	switch (mode) {
	case RDP_PLACE_NIC:
		return "the NIC's node";
	case RDP_PLACE_CPU:
		return "--cpu";
	case RDP_PLACE_NUMA:
		return "--numa";
	case RDP_PLACE_EXTERNAL:
		return "affinity set from outside, kept";
	default:
		return "not pinned";
	}
}

static void node_text(int node, char *buf, size_t len)
{
	if (node >= 0)
		snprintf(buf, len, "node %d", node);
	else
		snprintf(buf, len, "node unknown");
}

void rdp_report_placement(FILE *f, const struct rdp_report_info *in)
{
	const struct rdp_placement *pl = in->placement;
	const struct rdp_peer_info *a = in->peer;
	char cpus[128], node[32], nic[32];

	if (pl) {
		rdp_cpulist_format(&pl->cpus, cpus, sizeof(cpus));
		node_text(pl->node, node, sizeof(node));
		node_text(pl->nic_node, nic, sizeof(nic));
		fprintf(f,
			" Placement       : CPUs %s, %s%s (%s; NIC on %s)%s\n",
			cpus[0] ? cpus : "any", node,
			pl->mem_bound ? ", memory there" : "",
			mode_note(pl->mode), nic,
			pl->cross_numa ? ", CROSS-NUMA" : "");
	}
	if (a) {
		node_text(a->place.node, node, sizeof(node));
		node_text(a->numa_node, nic, sizeof(nic));
		fprintf(f, " Peer placement  : CPUs %s, %s (%s; NIC on %s)%s\n",
			a->place.cpus[0] ? a->place.cpus : "unknown", node,
			mode_note((enum rdp_place_mode)a->place.mode), nic,
			a->place.cross_numa ? ", CROSS-NUMA" : "");
	}
}
