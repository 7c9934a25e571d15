/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A mesh rank's report sink for its client sessions: each point's
 * counter deltas (this side's port, the sender's, and the peer's from its
 * RESULT) summed over the cell's points, for the record rank 0 makes the
 * cell from.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include <rdmaperf/counters.h>
#include <rdmaperf/mesh_run.h>
#include <rdmaperf/report.h>
#include <rdmaperf/sink.h>

#include "mesh_int.h"

struct rdp_mesh_err_sink {
	struct rdp_report_sink base;
	struct rdp_counters sum[2]; /* [0] this side (sender), [1] peer */
};

/* d's link, retry and congestion counters added into sum, by name. */
static void add_deltas(struct rdp_counters *sum, const struct rdp_counters *d)
{
	size_t i, j;

	for (i = 0; i < d->n; i++) {
		if (!d->c[i].value ||
		    rdp_counter_kind(d->c[i].name) == RDP_CTR_OTHER)
			continue;
		for (j = 0; j < sum->n; j++)
			if (!strcmp(sum->c[j].name, d->c[i].name))
				break;
		if (j == sum->n) {
			if (sum->n == RDP_MESH_ERR_CTRS)
				continue;
			sum->c[sum->n++] = d->c[i];
			continue;
		}
		sum->c[j].value += d->c[i].value;
	}
}

static int on_point(struct rdp_report_sink *s, const struct rdp_report_info *in,
		    const struct rdp_result *r)
{
	struct rdp_mesh_err_sink *e = (struct rdp_mesh_err_sink *)s;
	const struct rdp_ctr_pair *p = in->counters;

	(void)r;
	if (p && p->have_local)
		add_deltas(&e->sum[0], &p->local);
	if (p && p->have_peer)
		add_deltas(&e->sum[1], &p->peer);
	return 0;
}

static const struct rdp_report_sink_ops err_sink_ops = {
	.name = "mesh errors",
	.point = on_point,
};

struct rdp_mesh_err_sink *rdp_mesh_err_sink_create(void)
{
	struct rdp_mesh_err_sink *e = calloc(1, sizeof(*e));

	if (e)
		e->base.ops = &err_sink_ops;
	return e;
}

struct rdp_report_sink *rdp_mesh_err_sink_base(struct rdp_mesh_err_sink *e)
{
	return e ? &e->base : NULL;
}

/* sum as one port of a cell, its counters in ctr. */
static void port_of(const struct rdp_counters *sum, struct rdp_mesh_ctr *ctr,
		    struct rdp_mesh_port_errors *p)
{
	size_t i;

	memset(p, 0, sizeof(*p));
	rdp_counters_sums(sum, &p->sums);
	p->sums.n[RDP_CTR_OTHER] = 0;
	p->ctr = ctr;
	for (i = 0; i < sum->n; i++) {
		ctr[i].name = sum->c[i].name;
		ctr[i].delta = sum->c[i].value;
	}
	p->n = (unsigned int)sum->n;
}

int rdp_mesh_err_sink_put(const struct rdp_mesh_err_sink *e, json_t *rec)
{
	struct rdp_mesh_errors_buf b;
	json_t *j;

	if (!e || (!e->sum[0].n && !e->sum[1].n))
		return 0;
	port_of(&e->sum[0], b.ctr[0], &b.e.tx);
	port_of(&e->sum[1], b.ctr[1], &b.e.rx);
	j = rdp_mesh_errors_json(&b.e);
	if (!j || json_object_set_new(rec, "errors", j))
		return -ENOMEM;
	return 0;
}

void rdp_mesh_err_sink_free(struct rdp_mesh_err_sink *e)
{
	free(e);
}

const struct rdp_mesh_errors *
rdp_mesh_errors_of_record(json_t *rec, int reverse,
			  struct rdp_mesh_errors_buf *b)
{
	const struct rdp_mesh_errors *e =
		rdp_mesh_errors_from_json(json_object_get(rec, "errors"), b);
	struct rdp_mesh_port_errors t;

	if (e && reverse) {
		t = b->e.tx;
		b->e.tx = b->e.rx;
		b->e.rx = t;
	}
	return e;
}
