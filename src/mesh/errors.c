/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The error counters of a mesh's cells: kept in the store, judged by
 * --max-errors, tallied per node and port as the evidence that names a
 * device, and written as JSON ("errors" of a cell, "node_errors").
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "mesh_int.h"

/* The kinds a cell carries, in the order the files list them. */
static const enum rdp_ctr_kind kinds[] = { RDP_CTR_LINK, RDP_CTR_RETRIES,
					   RDP_CTR_CONGESTION };
#define N_KINDS (sizeof(kinds) / sizeof(kinds[0]))

int rdp_mesh_max_errors_parse(struct rdp_mesh_limits *l, const char *arg,
			      char *why, size_t len)
{
	/* A counter of no kind is refused there: a cell carries no other */
	rdp_max_errors_default(&l->max_errors);
	if (!arg)
		return 0;
	return rdp_max_errors_parse(&l->max_errors, arg, why, len) ? -EINVAL
								   : 0;
}

static uint64_t port_total(const struct rdp_mesh_port_errors *p)
{
	uint64_t t = 0;
	size_t k;

	for (k = 0; k < N_KINDS; k++)
		t += p->sums.n[kinds[k]];
	return t;
}

/* Whether e holds a rise on either port. */
static int any_rise(const struct rdp_mesh_errors *e)
{
	return e && (port_total(&e->tx) || port_total(&e->rx));
}

/* p's counters into the store's pool at *at, their names interned. */
static int keep_port(struct rdp_mesh *m, const struct rdp_mesh_port_errors *p,
		     struct rdp_mesh_ctr *at, struct rdp_mesh_port_errors *d)
{
	unsigned int i;

	d->sums = p->sums;
	d->sums.n[RDP_CTR_OTHER] = 0;
	d->n = p->n;
	d->ctr = at;
	for (i = 0; i < p->n; i++) {
		at[i].delta = p->ctr[i].delta;
		at[i].name = rdp_mesh_str_intern(&m->errs, p->ctr[i].name);
		if (!at[i].name)
			return -ENOMEM;
	}
	return 0;
}

int rdp_mesh_errors_keep(struct rdp_mesh *m, const struct rdp_mesh_errors *e,
			 const struct rdp_mesh_errors **out)
{
	struct rdp_mesh_errors *d;
	struct rdp_mesh_ctr *ctr;
	size_t bytes;

	*out = NULL;
	if (!any_rise(e))
		return 0;
	bytes = sizeof(*d) + (e->tx.n + e->rx.n) * sizeof(*ctr);
	d = rdp_mesh_pool_alloc(&m->errs, bytes);
	if (!d)
		return -ENOMEM;
	ctr = (struct rdp_mesh_ctr *)(d + 1);
	if (keep_port(m, &e->tx, ctr, &d->tx) ||
	    keep_port(m, &e->rx, ctr + e->tx.n, &d->rx))
		return -ENOMEM;
	*out = d;
	return 0;
}

/* One port against the rules: "sender's port: transport retries +523
 * (...) over the limit of 0 (--max-errors retries=0)" appended to why. */
static int judge_port(const struct rdp_max_errors *me,
		      const struct rdp_mesh_port_errors *p, const char *whose,
		      char *why, size_t len)
{
	struct rdp_counters *d;
	char one[320];
	size_t used = strlen(why);
	unsigned int i;
	int over;

	if (!port_total(p))
		return 0;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	for (i = 0; i < p->n && d->n < RDP_COUNTERS_MAX; i++) {
		snprintf(d->c[d->n].name, sizeof(d->c[d->n].name), "%s",
			 p->ctr[i].name);
		d->c[d->n++].value = p->ctr[i].delta;
	}
	over = rdp_max_errors_check(me, d, one, sizeof(one));
	free(d);
	if (over && used + 2 < len)
		snprintf(why + used, len - used, "%s%s: %s", used ? "; " : "",
			 whose, one);
	return over;
}

int rdp_mesh_errors_judge(const struct rdp_max_errors *me,
			  struct rdp_mesh_cell *c, char *why, size_t len)
{
	int tx, rx;

	c->errs_over = 0;
	if (!c->errors || !me->n)
		return 0;
	tx = judge_port(me, &c->errors->tx, "sender's port", why, len);
	if (tx < 0)
		return tx;
	rx = judge_port(me, &c->errors->rx, "receiver's port", why, len);
	if (rx < 0)
		return rx;
	c->errs_over = (unsigned char)((tx ? RDP_MESH_ERRS_TX : 0) |
				       (rx ? RDP_MESH_ERRS_RX : 0));
	return 0;
}

/* One node's port as sender or receiver, over cell c. */
static void tally_side(struct rdp_mesh_node_errs *n,
		       const struct rdp_mesh_port_errors *p, int over,
		       int as_rx)
{
	size_t k;

	n->cells[as_rx]++;
	n->over[as_rx] += (unsigned int)!!over;
	if (!p || !port_total(p))
		return;
	n->with[as_rx]++;
	for (k = 0; k < N_KINDS; k++)
		n->sums.n[kinds[k]] += p->sums.n[kinds[k]];
}

int rdp_mesh_errors_tally(struct rdp_mesh *m)
{
	size_t nn = (size_t)m->nodes * m->rails, i;
	const struct rdp_mesh_cell *c;
	struct rdp_mesh_node_errs *n;

	free(m->nerr);
	m->nerr = calloc(nn, sizeof(*m->nerr));
	if (!m->nerr)
		return -ENOMEM;
	for (i = 0; i < m->n; i++) {
		c = &m->cells[i];
		if (c->status == RDP_MESH_SKIPPED)
			continue;
		n = &m->nerr[(size_t)c->tx * m->rails + c->rail];
		tally_side(n, c->errors ? &c->errors->tx : NULL,
			   c->errs_over & RDP_MESH_ERRS_TX, 0);
		n = &m->nerr[(size_t)c->rx * m->rails + c->rail];
		tally_side(n, c->errors ? &c->errors->rx : NULL,
			   c->errs_over & RDP_MESH_ERRS_RX, 1);
	}
	for (i = 0; i < nn; i++) {
		n = &m->nerr[i];
		n->suspect = 2 * n->over[0] > n->cells[0] ||
			     2 * n->over[1] > n->cells[1];
	}
	return 0;
}

static uint64_t sums_total(const struct rdp_ctr_sums *s)
{
	uint64_t t = 0;
	size_t k;

	for (k = 0; k < N_KINDS; k++)
		t += s->n[kinds[k]];
	return t;
}

/* {"link": N, "retries": N, "congestion": N} into o. */
static int put_sums(json_t *o, const struct rdp_ctr_sums *s)
{
	size_t k;

	for (k = 0; k < N_KINDS; k++)
		if (json_object_set_new(
			    o, rdp_ctr_kind_name(kinds[k]),
			    json_integer((json_int_t)s->n[kinds[k]])))
			return -ENOMEM;
	return 0;
}

/* {"link", "retries", "congestion", "counters": {name: delta}} */
static json_t *port_json(const struct rdp_mesh_port_errors *p)
{
	json_t *o = json_object(), *ctr = json_object();
	unsigned int i;
	int ok = o && ctr && !put_sums(o, &p->sums);

	for (i = 0; ok && i < p->n; i++)
		ok = !json_object_set_new(
			ctr, p->ctr[i].name,
			json_integer((json_int_t)p->ctr[i].delta));
	if (ok && !json_object_set_new(o, "counters", ctr))
		return o;
	if (!ok)
		json_decref(ctr);
	json_decref(o);
	return NULL;
}

json_t *rdp_mesh_errors_json(const struct rdp_mesh_errors *e)
{
	json_t *tx = port_json(&e->tx), *rx = port_json(&e->rx);

	if (!tx || !rx) {
		json_decref(tx);
		json_decref(rx);
		return NULL;
	}
	return json_pack("{s:o, s:o}", "tx", tx, "rx", rx);
}

/* A port of o's "tx" or "rx" into p, its counters into ctr (at most
 * RDP_MESH_ERR_CTRS; names borrowed from o). */
static void port_from_json(json_t *o, struct rdp_mesh_port_errors *p,
			   struct rdp_mesh_ctr *ctr)
{
	json_t *v, *cs = json_object_get(o, "counters");
	const char *name;
	size_t k;

	memset(p, 0, sizeof(*p));
	p->ctr = ctr;
	for (k = 0; k < N_KINDS; k++) {
		v = json_object_get(o, rdp_ctr_kind_name(kinds[k]));
		if (json_is_integer(v) && json_integer_value(v) > 0)
			p->sums.n[kinds[k]] = (uint64_t)json_integer_value(v);
	}
	json_object_foreach(cs, name, v)
	{
		if (p->n == RDP_MESH_ERR_CTRS)
			break;
		if (!json_is_integer(v) || json_integer_value(v) <= 0)
			continue;
		ctr[p->n].name = name;
		ctr[p->n++].delta = (uint64_t)json_integer_value(v);
	}
}

const struct rdp_mesh_errors *
rdp_mesh_errors_from_json(json_t *o, struct rdp_mesh_errors_buf *b)
{
	if (!json_is_object(o))
		return NULL;
	port_from_json(json_object_get(o, "tx"), &b->e.tx, b->ctr[0]);
	port_from_json(json_object_get(o, "rx"), &b->e.rx, b->ctr[1]);
	return any_rise(&b->e) ? &b->e : NULL;
}

/* One node's entry of "node_errors". */
static json_t *node_json(const struct rdp_mesh *m, unsigned int node,
			 unsigned int rail, const struct rdp_mesh_node_errs *n)
{
	json_t *o = json_pack(
		"{s:s, s:i, s:I, s:{s:i, s:i, s:i}, s:{s:i, s:i, s:i}, s:b}",
		"node", m->names[node], "rail", (int)rail, "total",
		(json_int_t)sums_total(&n->sums), "sent", "cells",
		(int)n->cells[0], "with_errors", (int)n->with[0], "over",
		(int)n->over[0], "received", "cells", (int)n->cells[1],
		"with_errors", (int)n->with[1], "over", (int)n->over[1],
		"suspect", n->suspect);

	if (o && put_sums(o, &n->sums)) {
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *rdp_mesh_node_errors_json(const struct rdp_mesh *m)
{
	const struct rdp_mesh_node_errs *n;
	json_t *a = json_array();
	unsigned int node, rail;
	int ok = a != NULL;

	for (node = 0; ok && m->nerr && node < m->nodes; node++)
		for (rail = 0; ok && rail < m->rails; rail++) {
			n = &m->nerr[(size_t)node * m->rails + rail];
			if (sums_total(&n->sums) || n->over[0] || n->over[1])
				ok = !json_array_append_new(
					a, node_json(m, node, rail, n));
		}
	if (ok)
		return a;
	json_decref(a);
	return NULL;
}

int rdp_mesh_errors_any(const struct rdp_mesh *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		if (m->cells[i].errors)
			return 1;
	return 0;
}

/* "transport retries +1234, link errors +3" of the kinds that rose. */
static void sums_text(FILE *f, const struct rdp_ctr_sums *s)
{
	static const char *const what[] = { "link errors", "transport retries",
					    "congestion counters" };
	const char *sep = "";
	size_t k;

	for (k = 0; k < N_KINDS; k++) {
		if (!s->n[kinds[k]])
			continue;
		fprintf(f, "%s%s +%" PRIu64, sep, what[k], s->n[kinds[k]]);
		sep = ", ";
	}
}

void rdp_mesh_errors_text(const struct rdp_mesh *m, FILE *f)
{
	const struct rdp_mesh_node_errs *n;
	unsigned int node, rail;

	for (node = 0; m->nerr && node < m->nodes; node++)
		for (rail = 0; rail < m->rails; rail++) {
			n = &m->nerr[(size_t)node * m->rails + rail];
			if (!n->suspect)
				continue;
			fprintf(f,
				"errors: rail %u: %s's port broke --max-errors "
				"in %u of %u cells it sent and %u of %u it "
				"received: ",
				rail, m->names[node], n->over[0], n->cells[0],
				n->over[1], n->cells[1]);
			sums_text(f, &n->sums);
			fputs("; the likely fault\n", f);
		}
}
