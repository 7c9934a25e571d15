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

/* {"port_counters": {...}, "hw_counters": {...}}, and "ethtool": {...}
 * when the netdev's statistics were read. */
static json_t *side_obj(const struct rdp_counters *d)
{
	json_t *o = json_object(), *src[3];
	size_t i;
	int err = !o;

	src[RDP_CTR_SRC_PORT] = json_object();
	src[RDP_CTR_SRC_HW] = json_object();
	src[RDP_CTR_SRC_ETHTOOL] = json_object();
	for (i = 0; i < 3; i++)
		err |= !src[i];
	for (i = 0; !err && i < d->n; i++)
		err |= json_object_set_new(
			src[d->c[i].hw < 3 ? d->c[i].hw : RDP_CTR_SRC_HW],
			d->c[i].name, count(d->c[i].value));
	if (!err) {
		err |= json_object_set(o, "port_counters",
				       src[RDP_CTR_SRC_PORT]);
		err |= json_object_set(o, "hw_counters", src[RDP_CTR_SRC_HW]);
		if (json_object_size(src[RDP_CTR_SRC_ETHTOOL]))
			err |= json_object_set(o, "ethtool",
					       src[RDP_CTR_SRC_ETHTOOL]);
	}
	for (i = 0; i < 3; i++)
		json_decref(src[i]);
	if (!err)
		return o;
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

/* {"link": N, "retries": N, "congestion": N} of one side's deltas. */
static json_t *sums_obj(const struct rdp_counters *d)
{
	struct rdp_ctr_sums s;

	rdp_counters_sums(d, &s);
	return json_pack("{s:o, s:o, s:o}", "link", count(s.n[RDP_CTR_LINK]),
			 "retries", count(s.n[RDP_CTR_RETRIES]), "congestion",
			 count(s.n[RDP_CTR_CONGESTION]));
}

json_t *rdp_json_errors(const struct rdp_ctr_pair *p)
{
	return json_pack("{s:o*, s:o*}", "local",
			 p->have_local ? sums_obj(&p->local) : json_null(),
			 "peer",
			 p->have_peer ? sums_obj(&p->peer) : json_null());
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
