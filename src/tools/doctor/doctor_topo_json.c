/* SPDX-License-Identifier: BSD-2-Clause */
/* The "topology" object of `rdmaperf doctor --json`: the NIC's PCIe path,
 * its near CPUs and the GPUs by distance, as hwloc sees them. */
#include <jansson.h>

#include <rdmaperf/placement.h>
#include <rdmaperf/topo.h>

#include "doctor_cmd.h"

static json_t *str_or_null(const char *s)
{
	return s && *s ? json_string(s) : json_null();
}

static json_t *path_arr(const struct rdp_topo_nic *n)
{
	const struct rdp_topo_hop *h;
	json_t *a = json_array(), *o;
	int err = !a;
	size_t i;

	for (i = 0; !err && i < n->n_path; i++) {
		h = &n->path[i];
		o = json_object();
		err |= !o;
		err |= json_object_set_new(
			o, "kind", json_string(rdp_topo_hop_str(h->kind)));
		err |= json_object_set_new(o, "bus_id", json_string(h->bus_id));
		err |= json_object_set_new(o, "link_gbytes_per_s",
					   h->link_gbytes > 0
						   ? json_real(h->link_gbytes)
						   : json_null());
		err |= json_array_append_new(a, o);
	}
	if (!err)
		return a;
	json_decref(a);
	return NULL;
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
	err |= json_object_set_new(o, "bus_id", str_or_null(n->bus_id));
	err |= json_object_set_new(o, "netdev", str_or_null(n->netdev));
	err |= json_object_set_new(o, "near_cpus", json_string(cpus));
	err |= json_object_set_new(o, "numa_node",
				   n->node >= 0 ? json_integer(n->node)
						: json_null());
	err |= json_object_set_new(o, "pcie_path", path_arr(n));
	if (!err)
		return o;
	json_decref(o);
	return NULL;
}

static json_t *gpus_arr(const struct rdp_topo_report *r)
{
	const struct rdp_topo_gpu *g;
	json_t *a = json_array(), *o;
	int err = !a;
	size_t i;

	for (i = 0; !err && i < r->n_gpus; i++) {
		g = &r->gpus[i];
		o = json_object();
		err |= !o;
		err |= json_object_set_new(o, "bus_id", json_string(g->bus_id));
		err |= json_object_set_new(o, "name", str_or_null(g->name));
		err |= json_object_set_new(o, "model", str_or_null(g->model));
		err |= json_object_set_new(
			o, "distance", json_string(rdp_topo_dist_str(g->dist)));
		err |= json_object_set_new(o, "numa_node",
					   g->node >= 0 ? json_integer(g->node)
							: json_null());
		err |= json_array_append_new(a, o);
	}
	if (!err)
		return a;
	json_decref(a);
	return NULL;
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
	err |= json_object_set_new(o, "gpus", gpus_arr(r));
	if (!err)
		return o;
	json_decref(o);
	return NULL;
}
