/* SPDX-License-Identifier: BSD-2-Clause */
/* The JSON of placement and port counter deltas, both sides. */
#include <jansson.h>

#include <rdmaperf/counters.h>
#include <rdmaperf/json_sys.h>
#include <rdmaperf/placement.h>
#include <rdmaperf/peer.h>

static json_t *count(uint64_t v)
{
	/* jansson integers are signed; no counter gets near 2^63. */
	return json_integer((json_int_t)(v > INT64_MAX ? INT64_MAX : v));
}

static json_t *side_obj(const struct rdp_counters *d)
{
	json_t *o = json_object(), *port = json_object(), *hw = json_object();
	size_t i;
	int err = !o || !port || !hw;

	for (i = 0; !err && i < d->n; i++)
		err |= json_object_set_new(d->c[i].hw ? hw : port, d->c[i].name,
					   count(d->c[i].value));
	if (!err) {
		err |= json_object_set_new(o, "port_counters", port);
		err |= json_object_set_new(o, "hw_counters", hw);
		if (!err)
			return o;
	} else {
		json_decref(port);
		json_decref(hw);
	}
	json_decref(o);
	return NULL;
}

json_t *rdp_json_counters(const struct rdp_ctr_pair *p)
{
	json_t *o = json_object();
	int err = !o;

	if (err)
		return NULL;
	err |= json_object_set_new(
		o, "local", p->have_local ? side_obj(&p->local) : json_null());
	err |= json_object_set_new(
		o, "peer", p->have_peer ? side_obj(&p->peer) : json_null());
	if (!err)
		return o;
	json_decref(o);
	return NULL;
}

static json_t *node_or_null(int node)
{
	return node >= 0 ? json_integer(node) : json_null();
}

static json_t *place_obj(const char *mode, int nic_node, int node,
			 const char *cpus, int cross, int mem_bound)
{
	json_t *o = json_object();
	int err = !o;

	if (err)
		return NULL;
	err |= json_object_set_new(o, "mode", json_string(mode));
	err |= json_object_set_new(o, "nic_numa_node", node_or_null(nic_node));
	err |= json_object_set_new(o, "numa_node", node_or_null(node));
	err |= json_object_set_new(o, "cpus",
				   cpus[0] ? json_string(cpus) : json_null());
	err |= json_object_set_new(o, "cross_numa", json_boolean(cross));
	if (mem_bound >= 0)
		err |= json_object_set_new(o, "memory_on_node",
					   json_boolean(mem_bound));
	if (!err)
		return o;
	json_decref(o);
	return NULL;
}

json_t *rdp_json_placement(const struct rdp_placement *pl)
{
	char cpus[256];

	if (!pl)
		return json_null();
	rdp_cpulist_format(&pl->cpus, cpus, sizeof(cpus));
	return place_obj(rdp_place_mode_str(pl->mode), pl->nic_node, pl->node,
			 cpus, pl->cross_numa, pl->mem_bound);
}

json_t *rdp_json_peer_placement(const struct rdp_peer_info *a)
{
	if (!a)
		return json_null();
	/* The peer tells no memory flag: left out rather than guessed. */
	return place_obj(rdp_place_mode_str(a->place.mode), a->numa_node,
			 a->place.node, a->place.cpus, a->place.cross_numa, -1);
}
