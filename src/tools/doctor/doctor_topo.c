/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The doctor's topology lines from hwloc: the PCIe path of the NIC up to
 * its host bridge (a slower link above the NIC caps every transfer) and the
 * GPUs near it (GPUDirect RDMA wants them below one switch).
 */
#include <stdio.h>
#include <string.h>

#include <rdmaperf/doctor.h>
#include <rdmaperf/topo.h>

/* Links within 1% are the same generation and width. */
#define SLOWER(a, b) ((a) > 0 && (a) < (b)*0.99)

static void not_there(struct rdp_check *c, const struct rdp_topo_report *r,
		      const char *dev)
{
	if (!r->loaded)
		rdp_doctor_say(c->value, sizeof(c->value),
			       "hwloc could not load the topology");
	else if (r->have_nic)
		rdp_doctor_say(c->value, sizeof(c->value),
			       "%s is not on PCI in the topology", dev);
	else if (r->nic.netdev[0])
		rdp_doctor_say(c->value, sizeof(c->value),
			       "%s is a software device over %s, which has no "
			       "PCI device",
			       dev, r->nic.netdev);
	else
		rdp_doctor_say(c->value, sizeof(c->value),
			       "%s is not in the topology (not on PCI)", dev);
}

/* The slowest hop above the NIC when it is slower than the NIC's link. */
static const struct rdp_topo_hop *bottleneck(const struct rdp_topo_nic *n)
{
	const struct rdp_topo_hop *slow = NULL;
	size_t i;

	for (i = 1; i < n->n_path; i++)
		if (SLOWER(n->path[i].link_gbytes, n->path[0].link_gbytes) &&
		    (!slow || n->path[i].link_gbytes < slow->link_gbytes))
			slow = &n->path[i];
	return slow;
}

static void check_path(struct rdp_doctor *doc, const struct rdp_topo_report *r)
{
	const struct rdp_topo_nic *n = &r->nic;
	const struct rdp_topo_hop *slow;
	struct rdp_check *c;
	char path[192];

	if (!r->loaded || !r->have_nic || !n->on_pci) {
		c = rdp_doctor_add(doc, "pcie_path", "PCIe path", RDP_SKIP);
		if (c)
			not_there(c, r, doc->dev);
		return;
	}
	slow = bottleneck(n);
	c = rdp_doctor_add(doc, "pcie_path", "PCIe path",
			   slow ? RDP_WARN : RDP_PASS);
	if (!c)
		return;
	rdp_topo_path_format(n, path, sizeof(path));
	rdp_doctor_say(c->value, sizeof(c->value), "%s%s%s%s", path,
		       n->netdev[0] ? " (netdev " : "", n->netdev,
		       n->netdev[0] ? ")" : "");
	if (slow)
		rdp_doctor_say(c->fix, sizeof(c->fix),
			       "the link of %s %s carries %.1f GB/s, less than "
			       "the NIC's %.1f GB/s, and caps every transfer: "
			       "compare LnkSta with LnkCap there (lspci -vv "
			       "-s %s), reseat the riser or cable, check the "
			       "BIOS bifurcation of the slot",
			       rdp_topo_hop_str(slow->kind), slow->bus_id,
			       slow->link_gbytes, n->path[0].link_gbytes,
			       slow->bus_id);
}

/* The option that puts buffers on g: ROCm's plugin names AMD GPUs. */
static const char *gpu_option(const struct rdp_topo_gpu *g)
{
	return strncmp(g->name, "rsmi", 4) ? "--use_cuda" : "--use_rocm";
}

static void gpu_fix(struct rdp_check *c, const struct rdp_topo_report *r)
{
	const struct rdp_topo_gpu *g = &r->gpus[0];

	if (g->dist == RDP_DIST_NODE)
		rdp_doctor_say(
			c->fix, sizeof(c->fix),
			"no GPU shares a PCIe switch or host bridge with "
			"the NIC: GPUDirect RDMA then crosses the CPU's "
			"root complex, slow or refused on many CPUs; "
			"move the NIC or GPU below one switch, or "
			"measure with %s=%s knowing this",
			gpu_option(g), g->bus_id);
	else
		rdp_doctor_say(c->fix, sizeof(c->fix),
			       "every GPU is on another NUMA node: GPU "
			       "transfers cross the socket link; use a NIC on "
			       "node %d, or put a GPU on the NIC's node %d",
			       g->node, r->nic.node);
}

static void check_gpus(struct rdp_doctor *doc, const struct rdp_topo_report *r)
{
	const struct rdp_topo_gpu *g = &r->gpus[0];
	enum rdp_verdict v = RDP_PASS;
	struct rdp_check *c;

	if (!r->loaded || !r->n_gpus) {
		c = rdp_doctor_add(doc, "gpus", "GPUs near NIC", RDP_SKIP);
		if (c && r->loaded)
			rdp_doctor_say(c->value, sizeof(c->value),
				       "none found (no NVIDIA, CUDA or ROCm "
				       "device in the topology)");
		else if (c)
			not_there(c, r, doc->dev);
		return;
	}
	if (g->dist == RDP_DIST_UNKNOWN)
		v = RDP_SKIP;
	else if (g->dist >= RDP_DIST_NODE)
		v = RDP_WARN;
	c = rdp_doctor_add(doc, "gpus", "GPUs near NIC", v);
	if (!c)
		return;
	if (v == RDP_SKIP)
		rdp_doctor_say(c->value, sizeof(c->value),
			       "%zu GPU(s), first %s; %s is not on PCI, so "
			       "no distance",
			       r->n_gpus, g->bus_id, doc->dev);
	else
		rdp_doctor_say(c->value, sizeof(c->value),
			       "nearest %s%s%s (%s%s%.48s), %zu GPU(s) in all",
			       g->name, g->name[0] ? " " : "", g->bus_id,
			       rdp_topo_dist_str(g->dist),
			       g->model[0] ? ", " : "", g->model, r->n_gpus);
	if (v == RDP_WARN)
		gpu_fix(c, r);
}

void rdp_doctor_check_topo(struct rdp_doctor *doc,
			   const struct rdp_topo_report *r)
{
	doc->topo = r;
	check_path(doc, r);
	check_gpus(doc, r);
}
