/* SPDX-License-Identifier: BSD-2-Clause */
/* The session's own state in wire messages and back: port counter deltas
 * in RESULT, the server's placement in ACCEPT. */
#include <stdio.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/counters.h>
#include <rdmaperf/placement.h>
#include <rdmaperf/session.h>
#include <rdmaperf/wire.h>

_Static_assert(RDP_COUNTER_NAME_MAX == RDP_WIRE_COUNTER_NAME_MAX,
	       "a counter name must fit the wire as it is");
_Static_assert(RDP_ERRTEXT_MAX == RDP_WIRE_TEXT_MAX,
	       "a failure's cause must fit an ERROR message as it is");

static void put_one(const struct rdp_counter *c, struct rdp_msg_result *r)
{
	struct rdp_wire_counter *w = &r->counters[r->n_counters++];

	snprintf(w->name, sizeof(w->name), "%s", c->name);
	w->hw = c->hw;
	w->value = c->value;
}

void rdp_ctr_to_result(const struct rdp_counters *d, struct rdp_msg_result *r)
{
	size_t i, pass;

	r->n_counters = 0;
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < d->n && r->n_counters < RDP_WIRE_MAX_COUNTERS;
		     i++)
			if ((d->c[i].value != 0) == (pass == 0))
				put_one(&d->c[i], r);
}

void rdp_ctr_from_result(struct rdp_ctr_pair *p, const struct rdp_msg_result *r)
{
	struct rdp_counter *c;
	size_t i;

	p->peer.n = 0;
	for (i = 0; i < r->n_counters && i < RDP_COUNTERS_MAX; i++) {
		c = &p->peer.c[p->peer.n++];
		snprintf(c->name, sizeof(c->name), "%s", r->counters[i].name);
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
