/* SPDX-License-Identifier: BSD-2-Clause */
/* The "topology" object of `rdmaperf doctor --json`: the NIC's PCIe path,
 * its near CPUs and the GPUs by distance, as hwloc sees them. */
#include <jansson.h>

#include <rdmaperf/placement.h>
#include <rdmaperf/topo.h>

#include "doctor_cmd.h"

static json_t *hop_obj(const void *from, size_t i)
{
	const struct rdp_topo_hop *h =
		&((const struct rdp_topo_nic *)from)->path[i];
	json_t *o = json_object();
	int err = !o;

	err |= json_object_set_new(o, "kind",
				   json_string(rdp_topo_hop_str(h->kind)));
	err |= json_object_set_new(o, "bus_id", json_string(h->bus_id));
	err |= json_object_set_new(
		o, "link_gbytes_per_s",
		h->link_gbytes > 0 ? json_real(h->link_gbytes) : json_null());
	return rdp_doctor_json_done(o, err);
}

static json_t *nic_obj(const struct rdp_topo_report *r)
{
	const struct rdp_topo_nic *n = &r->nic;
	char cpus[256];
	json_t *o;
	int err = 0;

	if (!r->have_nic)
		return json_null();
	o = json_object();
	if (!o)
		return NULL;
	rdp_cpulist_format(&n->cpus, cpus, sizeof(cpus));
	err |= json_object_set_new(o, "bus_id", rdp_doctor_json_str(n->bus_id));
	err |= json_object_set_new(o, "netdev", rdp_doctor_json_str(n->netdev));
	err |= json_object_set_new(o, "near_cpus", json_string(cpus));
	err |= json_object_set_new(o, "numa_node",
				   rdp_doctor_json_node(n->node));
	err |= json_object_set_new(
		o, "pcie_path", rdp_doctor_json_array(n->n_path, hop_obj, n));
	return rdp_doctor_json_done(o, err);
}

static json_t *gpu_obj(const void *from, size_t i)
{
	const struct rdp_topo_gpu *g =
		&((const struct rdp_topo_report *)from)->gpus[i];
	json_t *o = json_object();
	int err = !o;

	err |= json_object_set_new(o, "bus_id", json_string(g->bus_id));
	err |= json_object_set_new(o, "name", rdp_doctor_json_str(g->name));
	err |= json_object_set_new(o, "model", rdp_doctor_json_str(g->model));
	err |= json_object_set_new(o, "distance",
				   json_string(rdp_topo_dist_str(g->dist)));
	err |= json_object_set_new(o, "numa_node",
				   rdp_doctor_json_node(g->node));
	return rdp_doctor_json_done(o, err);
}

json_t *rdp_doctor_topo_json(const struct rdp_topo_report *r)
{
	json_t *o;
	int err = 0;

	if (!r || !r->loaded)
		return json_null();
	o = json_object();
	if (!o)
		return NULL;
	err |= json_object_set_new(o, "nic", nic_obj(r));
	err |= json_object_set_new(
		o, "gpus", rdp_doctor_json_array(r->n_gpus, gpu_obj, r));
	return rdp_doctor_json_done(o, err);
}
