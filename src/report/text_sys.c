/* SPDX-License-Identifier: BSD-2-Clause */
/* The text report's lines of what sys measured: placement in the header,
 * both sides; port counters under a row, with their sums per kind. */
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

/* "link 0, retries +3, congestion +12"; 1 when any is not 0. */
static int sums_text(const struct rdp_counters *d, char *buf, size_t len)
{
	static const enum rdp_ctr_kind kinds[] = { RDP_CTR_LINK,
						   RDP_CTR_RETRIES,
						   RDP_CTR_CONGESTION };
	struct rdp_ctr_sums s;
	size_t i, used = 0;
	int any = 0;

	rdp_counters_sums(d, &s);
	buf[0] = '\0';
	for (i = 0; i < 3 && used < len; i++) {
		any |= s.n[kinds[i]] != 0;
		used += (size_t)snprintf(buf + used, len - used, "%s%s %s%llu",
					 i ? ", " : "",
					 rdp_ctr_kind_name(kinds[i]),
					 s.n[kinds[i]] ? "+" : "",
					 (unsigned long long)s.n[kinds[i]]);
	}
	return any;
}

/* The counters' deltas per kind, when any kind rose on either side. */
static void print_errors(FILE *f, const struct rdp_ctr_pair *p, int one)
{
	char here[96] = "", peer[96] = "";
	int any = 0;

	if (p->have_local)
		any |= sums_text(&p->local, here, sizeof(here));
	if (p->have_peer && !one)
		any |= sums_text(&p->peer, peer, sizeof(peer));
	if (!any)
		return;
	if (one)
		fprintf(f, " %-16s: %s (one port, both ends)\n", "Port errors",
			here);
	else if (here[0] && peer[0])
		fprintf(f, " %-16s: here %s; peer %s\n", "Port errors", here,
			peer);
	else
		fprintf(f, " %-16s: %s %s\n", "Port errors",
			here[0] ? "here" : "peer", here[0] ? here : peer);
}

void rdp_report_counters(FILE *f, const struct rdp_ctr_pair *p)
{
	/* One port seen from both ends holds the same numbers twice. */
	if (p->same_port && p->have_local && p->have_peer) {
		print_side(f, "Counters", &p->local);
		print_errors(f, p, 1);
		print_warnings(f, "on this port (both ends)", &p->local);
		return;
	}
	if (p->have_local)
		print_side(f, "Counters here", &p->local);
	if (p->have_peer)
		print_side(f, "Counters peer", &p->peer);
	print_errors(f, p, 0);
	if (p->have_local)
		print_warnings(f, "here", &p->local);
	if (p->have_peer)
		print_warnings(f, "on the peer", &p->peer);
}
