/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the retest of a quick pass found, node by node: mesh.json's
 * "quick" and the lines on the terminal, from rank 0's struct
 * rdp_mesh_quick.
 */
#include <stdio.h>

#include <jansson.h>

#include <rdmaperf/mesh_run.h>

#include "mesh_int.h"

unsigned int rdp_mesh_quick_max_rounds(unsigned int nodes)
{
	unsigned int bits = 0;

	while (bits < 32 && (1ull << bits) < nodes)
		bits++;
	return bits + 2;
}

void rdp_mesh_set_quick(struct rdp_mesh *m, const struct rdp_mesh_quick *q)
{
	m->quick = q;
}

/* How many nodes were suspects after the pass and are GOOD now. */
static unsigned int cleared(const struct rdp_mesh_quick *q)
{
	unsigned int i, n = 0;

	for (i = 0; i < q->nodes; i++)
		n += q->start[i] == RDP_MESH_QUICK_SUSPECT &&
		     q->now[i] == RDP_MESH_QUICK_GOOD;
	return n;
}

static unsigned int suspects(const struct rdp_mesh_quick *q)
{
	unsigned int i, n = 0;

	for (i = 0; i < q->nodes; i++)
		n += q->start[i] != RDP_MESH_QUICK_GOOD;
	return n;
}

/* The names of the nodes in state s now, or NULL out of memory. */
static json_t *names_in(const struct rdp_mesh *m,
			const struct rdp_mesh_quick *q,
			enum rdp_mesh_quick_state s)
{
	json_t *a = json_array();
	unsigned int i;

	for (i = 0; a && i < q->nodes && i < m->nodes; i++)
		if (q->now[i] == s &&
		    json_array_append_new(a, json_string(m->names[i]))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

json_t *rdp_mesh_quick_json(const struct rdp_mesh *m)
{
	const struct rdp_mesh_quick *q = m->quick;

	return json_pack("{s:i, s:i, s:i, s:i, s:o, s:o, s:i}", "rounds",
			 q->rounds, "max_rounds", q->max_rounds, "suspects",
			 suspects(q), "cleared", cleared(q), "faulty",
			 names_in(m, q, RDP_MESH_QUICK_FAULTY), "unresolved",
			 names_in(m, q, RDP_MESH_QUICK_SUSPECT),
			 "confirm_rounds", q->confirm_rounds);
}

/* The nodes in state s now, ", " between them. */
static void print_in(const struct rdp_mesh *m, const struct rdp_mesh_quick *q,
		     enum rdp_mesh_quick_state s, FILE *out)
{
	const char *sep = "";
	unsigned int i;

	for (i = 0; i < q->nodes && i < m->nodes; i++)
		if (q->now[i] == s) {
			fprintf(out, "%s%s", sep, m->names[i]);
			sep = ", ";
		}
}

static int any_in(const struct rdp_mesh_quick *q, enum rdp_mesh_quick_state s)
{
	unsigned int i;

	for (i = 0; i < q->nodes; i++)
		if (q->now[i] == s)
			return 1;
	return 0;
}

void rdp_mesh_quick_print(const struct rdp_mesh_quick *q,
			  const struct rdp_mesh *m, FILE *out)
{
	if (!q)
		return;
	fprintf(out,
		"quick retest: %u suspect node(s) after the pass, %u cleared "
		"in %u round(s)",
		suspects(q), cleared(q), q->rounds);
	if (q->confirm_rounds)
		fprintf(out, ", their bad cells run again in %u round(s)",
			q->confirm_rounds);
	fputc('\n', out);
	if (any_in(q, RDP_MESH_QUICK_FAULTY)) {
		fputs("quick retest: faulty: ", out);
		print_in(m, q, RDP_MESH_QUICK_FAULTY, out);
		fputc('\n', out);
	}
	if (any_in(q, RDP_MESH_QUICK_SUSPECT)) {
		fputs("quick retest: still suspect after ", out);
		fprintf(out, "%u round(s), the most for %u nodes: ", q->rounds,
			q->nodes);
		print_in(m, q, RDP_MESH_QUICK_SUSPECT, out);
		fputc('\n', out);
	}
}
