/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Pruning a mesh: the node whose cells fail against at least half of
 * the peers it has met is named as the fault, and its later cells are
 * skipped rather than each costing a timeout.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

#include <rdmaperf/mesh_run.h>

#define PRUNE_MET    1u
#define PRUNE_FAILED 2u

/* The unordered pair a < b, in the triangle above the diagonal. */
static size_t pair_at(unsigned int nodes, unsigned int a, unsigned int b)
{
	unsigned int t;

	if (a > b) {
		t = a;
		a = b;
		b = t;
	}
	return (size_t)a * nodes - (size_t)a * (a + 1) / 2 + (b - a - 1);
}

int rdp_mesh_prune_init(struct rdp_mesh_prune *p, unsigned int nodes)
{
	size_t pairs = (size_t)nodes * (nodes ? nodes - 1 : 0) / 2;
	unsigned int i;

	p->nodes = nodes;
	p->pair = calloc(pairs ? pairs : 1, 1);
	p->after = calloc(nodes ? nodes : 1, sizeof(*p->after));
	p->failed = calloc(nodes ? nodes : 1, sizeof(*p->failed));
	p->met = calloc(nodes ? nodes : 1, sizeof(*p->met));
	if (!p->pair || !p->after || !p->failed || !p->met) {
		rdp_mesh_prune_fini(p);
		return -ENOMEM;
	}
	for (i = 0; i < nodes; i++)
		p->after[i] = -1;
	return 0;
}

void rdp_mesh_prune_fini(struct rdp_mesh_prune *p)
{
	free(p->pair);
	free(p->after);
	free(p->failed);
	free(p->met);
	p->pair = NULL;
	p->after = NULL;
	p->failed = p->met = NULL;
	p->nodes = 0;
}

void rdp_mesh_prune_note(struct rdp_mesh_prune *p, unsigned int tx,
			 unsigned int rx, int failed)
{
	if (tx >= p->nodes || rx >= p->nodes || tx == rx)
		return;
	p->pair[pair_at(p->nodes, tx, rx)] |=
		(unsigned char)(PRUNE_MET | (failed ? PRUNE_FAILED : 0));
}

/* Node a's peers met and failed against, leaving out pruned nodes. */
static void count(const struct rdp_mesh_prune *p, unsigned int a,
		  unsigned int *met, unsigned int *failed)
{
	unsigned int b;
	unsigned char s;

	*met = *failed = 0;
	for (b = 0; b < p->nodes; b++) {
		if (b == a || p->after[b] >= 0)
			continue;
		s = p->pair[pair_at(p->nodes, a, b)];
		*met += !!(s & PRUNE_MET);
		*failed += !!(s & PRUNE_FAILED);
	}
}

/* Whether a (f of m) goes before the best so far (bf of bm). */
static int worse(unsigned int f, unsigned int m, unsigned int bf,
		 unsigned int bm)
{
	if (f != bf)
		return f > bf;
	return (unsigned long long)f * bm > (unsigned long long)bf * m;
}

unsigned int rdp_mesh_prune_decide(struct rdp_mesh_prune *p, size_t k)
{
	unsigned int a, m, f, best, bm, bf, n = 0;

	for (;;) {
		best = p->nodes;
		bm = bf = 0;
		for (a = 0; a < p->nodes; a++) {
			if (p->after[a] >= 0)
				continue;
			count(p, a, &m, &f);
			if (f < RDP_MESH_PRUNE_MIN_FAILED || 2 * f < m)
				continue;
			if (best == p->nodes || worse(f, m, bf, bm)) {
				best = a;
				bf = f;
				bm = m;
			}
		}
		if (best == p->nodes)
			return n;
		p->after[best] = (long)k;
		p->failed[best] = bf;
		p->met[best] = bm;
		n++;
	}
}

int rdp_mesh_pruned_before(const struct rdp_mesh_prune *p, unsigned int node,
			   size_t k)
{
	return node < p->nodes && p->after[node] >= 0 &&
	       (size_t)p->after[node] < k;
}

void rdp_mesh_prune_reason(const struct rdp_mesh_prune *p, unsigned int node,
			   char *buf, size_t len)
{
	if (node >= p->nodes || p->after[node] < 0) {
		snprintf(buf, len, "not pruned");
		return;
	}
	snprintf(buf, len, "failed against %u of %u peers by round %ld",
		 p->failed[node], p->met[node], p->after[node] + 1);
}

void rdp_mesh_prune_note_record(struct rdp_mesh_prune *p, json_t *rec)
{
	json_t *tx = json_object_get(rec, "tx"),
	       *rx = json_object_get(rec, "rx");

	if (json_is_integer(tx) && json_is_integer(rx) &&
	    json_integer_value(tx) >= 0 && json_integer_value(rx) >= 0)
		rdp_mesh_prune_note(
			p, (unsigned int)json_integer_value(tx),
			(unsigned int)json_integer_value(rx),
			!json_is_object(json_object_get(rec, "result")));
}

void rdp_mesh_prune_say(const struct rdp_mesh_prune *p, size_t k,
			const char *const *names, FILE *f)
{
	char why[96];
	unsigned int i;

	for (i = 0; i < p->nodes; i++)
		if (p->after[i] == (long)k) {
			rdp_mesh_prune_reason(p, i, why, sizeof(why));
			fprintf(f,
				"mesh: %s pruned: %s; its later cells are "
				"skipped\n",
				names[i], why);
		}
}
