/* SPDX-License-Identifier: BSD-2-Clause */
/* What HELLO and ACCEPT tell, into the program's own structs right after
 * decoding; counter deltas both ways and the server's placement into
 * ACCEPT: the report never reads a message, and each copy keeps within
 * both arrays. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/convert.h>
#include <rdmaperf/counters.h>
#include <rdmaperf/peer.h>
#include <rdmaperf/placement.h>
#include <rdmaperf/wire.h>

_Static_assert(RDP_COUNTER_NAME_MAX == RDP_WIRE_COUNTER_NAME_MAX,
	       "a counter name must fit the wire as it is");

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* src holds at most src_len bytes, terminated or not; dst gets a string. */
static void copy_text(char *dst, size_t dst_len, const char *src,
		      size_t src_len)
{
	snprintf(dst, dst_len, "%.*s", (int)strnlen(src, src_len), src);
}

#define COPY_TEXT(dst, src) copy_text((dst), sizeof(dst), (src), sizeof(src))

uint64_t rdp_wire_count(double v)
{
	/* 2^64 is exact as a double; every double below it fits */
	if (!(v > 0))
		return 0;
	if (v >= 18446744073709551616.0)
		return UINT64_MAX;
	return (uint64_t)v;
}

void rdp_host_from_hello(const struct rdp_msg_hello *h,
			 struct rdp_host_info *out)
{
	memset(out, 0, sizeof(*out));
	COPY_TEXT(out->tool_version, h->tool_version);
	COPY_TEXT(out->hostname, h->hostname);
	COPY_TEXT(out->kernel, h->kernel);
	COPY_TEXT(out->cpu_model, h->cpu_model);
	out->cpus = h->cpus;
}

void rdp_peer_from_accept(const struct rdp_msg_accept *a,
			  struct rdp_peer_info *out)
{
	memset(out, 0, sizeof(*out));
	COPY_TEXT(out->device, a->device);
	out->port = a->port;
	out->link_layer = a->link_layer;
	out->gid_type = a->gid_type;
	out->gid_index = a->gid_index;
	out->active_mtu_bytes = a->active_mtu_bytes;
	out->numa_node = a->numa_node;
	out->cpu = a->cpu;
	out->place.mode = a->place_mode;
	out->place.cross_numa = !!a->cross_numa;
	out->place.node = a->place_node;
	COPY_TEXT(out->place.cpus, a->cpus);
	out->mem.kind = a->mem_kind;
	out->mem.path = a->mem_path;
	out->mem.stage = a->mem_stage;
	COPY_TEXT(out->mem.gpu, a->mem_gpu);
	COPY_TEXT(out->mem.bus_id, a->mem_bus_id);
	out->mem.access = a->mr_access;
	COPY_TEXT(out->mem.type, a->mem_type);
}

static void put_one(const struct rdp_counter *c, struct rdp_msg_result *r)
{
	struct rdp_wire_counter *w = &r->counters[r->n_counters++];

	COPY_TEXT(w->name, c->name);
	w->hw = c->hw;
	w->value = c->value;
}

void rdp_ctr_to_result(const struct rdp_counters *d, struct rdp_msg_result *r)
{
	size_t n = d->n < ARRAY_LEN(d->c) ? d->n : ARRAY_LEN(d->c);
	size_t i, pass;

	r->n_counters = 0;
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < n && r->n_counters < ARRAY_LEN(r->counters);
		     i++)
			if ((d->c[i].value != 0) == (pass == 0))
				put_one(&d->c[i], r);
}

void rdp_ctr_from_result(struct rdp_ctr_pair *p, const struct rdp_msg_result *r)
{
	size_t n = r->n_counters < ARRAY_LEN(r->counters)
			   ? r->n_counters
			   : ARRAY_LEN(r->counters);
	struct rdp_counter *c;
	size_t i;

	p->peer.n = 0;
	for (i = 0; i < n && p->peer.n < ARRAY_LEN(p->peer.c); i++) {
		c = &p->peer.c[p->peer.n++];
		COPY_TEXT(c->name, r->counters[i].name);
		c->hw = r->counters[i].hw;
		c->value = r->counters[i].value;
	}
	p->have_peer = 1;
}

void rdp_place_to_accept(const struct rdp_placement *pl,
			 struct rdp_msg_accept *a)
{
	a->place_mode = (uint8_t)pl->mode;
	a->cross_numa = (uint8_t)pl->cross_numa;
	a->place_node = pl->node;
	rdp_cpulist_format(&pl->cpus, a->cpus, sizeof(a->cpus));
}

void rdp_group_to_result(const struct rdp_result *res, struct rdp_msg_result *r)
{
	uint32_t i, n = res->n_group;

	if (n > RDP_WIRE_MAX_GROUP_QPS)
		n = RDP_WIRE_MAX_GROUP_QPS;
	for (i = 0; i < n; i++) {
		r->group_qpn[i] = res->group[i].qp_num;
		r->group_msgs[i] = res->group[i].msgs;
	}
	r->n_group = (uint16_t)n;
}

int rdp_group_from_result(const struct rdp_msg_result *r, uint64_t size_bytes,
			  struct rdp_result *res)
{
	uint32_t i, n = r->n_group;

	if (n > RDP_WIRE_MAX_GROUP_QPS)
		n = RDP_WIRE_MAX_GROUP_QPS;
	if (!n)
		return 0;
	free(res->group);
	res->n_group = 0;
	res->group = calloc(n, sizeof(*res->group));
	if (!res->group)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		res->group[i].index = i;
		res->group[i].qp_num = r->group_qpn[i];
		res->group[i].msgs = r->group_msgs[i];
		res->group[i].bytes = r->group_msgs[i] * size_bytes;
	}
	res->n_group = n;
	return 0;
}
