/* SPDX-License-Identifier: BSD-2-Clause */
/* The text report's lines of what sys measured: placement in the header,
 * both sides; port counters under a row. */
#include <stdio.h>

#include <rdmaperf/counters.h>
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

/* Four counters a line after the side's label. */
static void print_side(FILE *f, const char *label, const struct rdp_counters *d)
{
	size_t i, k = 0;

	for (i = 0; i < d->n; i++) {
		if (!d->c[i].value)
			continue;
		if (k % 4 == 0)
			fprintf(f, "%s %-16s: ", k ? ",\n" : "",
				k ? "" : label);
		else
			fprintf(f, ", ");
		fprintf(f, "%s +%llu", d->c[i].name,
			(unsigned long long)d->c[i].value);
		k++;
	}
	if (k)
		fputc('\n', f);
}

static void print_warnings(FILE *f, const char *where,
			   const struct rdp_counters *d)
{
	const char *why;
	size_t i;

	for (i = 0; i < d->n; i++) {
		why = rdp_counter_warning(d->c[i].name);
		if (d->c[i].value && why)
			fprintf(f, " %-16s: %s +%llu %s: %s\n", "Warning",
				d->c[i].name, (unsigned long long)d->c[i].value,
				where, why);
	}
}

void rdp_report_counters(FILE *f, const struct rdp_ctr_pair *p)
{
	/* One port seen from both ends holds the same numbers twice. */
	if (p->same_port && p->have_local && p->have_peer) {
		print_side(f, "Counters", &p->local);
		print_warnings(f, "on this port (both ends)", &p->local);
		return;
	}
	if (p->have_local)
		print_side(f, "Counters here", &p->local);
	if (p->have_peer)
		print_side(f, "Counters peer", &p->peer);
	if (p->have_local)
		print_warnings(f, "here", &p->local);
	if (p->have_peer)
		print_warnings(f, "on the peer", &p->peer);
}
