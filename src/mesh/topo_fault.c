/* SPDX-License-Identifier: BSD-2-Clause */
/* A located fault: where it is, its name, its evidence and confidence;
 * the faults as text. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "locate_int.h"

/* The cells through the parts of kind beside the fault: a cable's
 * leaf's other cables; other nodes, leaves, uplinks or spines. */
static void around(const struct loc *L, const struct cand *c,
		   struct rdp_mesh_fault *f)
{
	struct cnt sum = { 0 };
	size_t i, lo, hi, sw;

	if (c->kind == RDP_MESH_PART_CABLE) {
		sw = leaf_of(L,
			     (unsigned int)((c->part - L->cable0) / L->rails),
			     (unsigned int)((c->part - L->cable0) % L->rails));
		lo = L->by_leaf0[L->t->leaf_ord[sw]];
		hi = L->by_leaf0[L->t->leaf_ord[sw] + 1];
		for (i = lo; i < hi; i++)
			add_cnt(&sum, &L->c[L->by_leaf[i]], 1);
	} else if (c->kind == RDP_MESH_PART_NODE) {
		for (i = 0; i < L->nodes; i++)
			add_cnt(&sum, &L->c[i], 1);
	} else if (c->kind == RDP_MESH_PART_UPLINK) {
		for (i = 0; i < L->n_links; i++)
			add_cnt(&sum, &L->links[i].c, 1);
	} else {
		for (i = 0; i < L->t->n_sw; i++)
			if ((c->kind == RDP_MESH_PART_LEAF) == L->t->sw[i].leaf)
				add_cnt(&sum, &L->c[L->sw0 + i], 1);
	}
	f->around_bad = bad_of(&sum) - bad_of(&c->sum);
	f->around_total = sum.t - c->sum.t;
}

/* Whether the candidate's uplinks all leave one leaf. */
static int one_leaf(const struct loc *L, const struct cand *c)
{
	size_t i;

	for (i = 1; i < c->n_ids; i++)
		if (L->t->link[c->ids[i]].a != L->t->link[c->ids[0]].a)
			return 0;
	return 1;
}

/* Up to 4 of the candidates: spines, or uplinks "leaf -> spine" (by
 * their spine alone when they leave one leaf). */
static void name_list(const struct loc *L, const struct cand *c, char *buf,
		      size_t len)
{
	const struct rdp_mesh_topo_link *l;
	int up = c->kind == RDP_MESH_PART_UPLINK, same = !up || one_leaf(L, c);
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < c->n_ids && i < 4 && used < len; i++) {
		l = up ? &L->t->link[c->ids[i]] : NULL;
		if (l && !same)
			used += (size_t)snprintf(buf + used, len - used,
						 "%s%s -> %s", i ? ", " : "",
						 L->t->sw[l->a].name,
						 L->t->sw[l->b].name);
		else
			used += (size_t)snprintf(
				buf + used, len - used, "%s%s", i ? ", " : "",
				L->t->sw[l ? l->b : c->ids[i]].name);
	}
	if (c->n_ids > 4 && used < len)
		snprintf(buf + used, len - used, ", ...");
}

static void name_fault(const struct loc *L, const struct cand *c,
		       struct rdp_mesh_fault *f)
{
	const struct rdp_mesh_topo *t = L->t;
	const char *node =
		f->node >= 0 ? rdp_mesh_node_name(L->m, (unsigned int)f->node)
			     : "";
	const struct rdp_mesh_topo_link *l;
	char list[160];

	if (c->kind == RDP_MESH_PART_NODE && L->rails > 1)
		snprintf(f->name, sizeof(f->name), "%s (all %u rails)", node,
			 L->rails);
	else if (c->kind == RDP_MESH_PART_NODE)
		snprintf(f->name, sizeof(f->name),
			 "%s (its NIC or cable, %s port %u)", node,
			 t->sw[f->sw].name, (unsigned int)f->port);
	else if (c->kind == RDP_MESH_PART_CABLE)
		snprintf(f->name, sizeof(f->name),
			 "%s port %u (%s's rail %d cable)", t->sw[f->sw].name,
			 (unsigned int)f->port, node, f->rail);
	else if (c->kind == RDP_MESH_PART_LEAF)
		snprintf(f->name, sizeof(f->name), "%s", t->sw[f->sw].name);
	if (c->kind != RDP_MESH_PART_UPLINK && c->kind != RDP_MESH_PART_SPINE)
		return;
	name_list(L, c, list, sizeof(list));
	l = c->kind == RDP_MESH_PART_UPLINK ? &t->link[c->ids[0]] : NULL;
	if (l && c->n_ids == 1)
		snprintf(f->name, sizeof(f->name),
			 "uplink %s -> %s (%s port %u, %s port %u)",
			 t->sw[l->a].name, t->sw[l->b].name, t->sw[l->a].name,
			 l->a_port, t->sw[l->b].name, l->b_port);
	else if (l && one_leaf(L, c))
		snprintf(f->name, sizeof(f->name),
			 "uplink %s -> one of %zu: %s (ECMP spreads its cells "
			 "over them alike)",
			 t->sw[l->a].name, c->n_ids, list);
	else if (l)
		snprintf(f->name, sizeof(f->name),
			 "an uplink, one of %zu: %s (no cell tells them "
			 "apart)",
			 c->n_ids, list);
	else if (c->n_ids == 1)
		snprintf(f->name, sizeof(f->name), "%s", list);
	else
		snprintf(f->name, sizeof(f->name),
			 "a spine, one of %zu: %s (ECMP spreads the cells "
			 "over them alike)",
			 c->n_ids, list);
}

/* Where the fault is: node, rail, switch and port, candidates. */
static void place_fault(const struct loc *L, const struct cand *c,
			struct rdp_mesh_fault *f)
{
	const struct rdp_mesh_topo_link *l;
	size_t i, cab;

	*f = (struct rdp_mesh_fault){ .kind = c->kind,
				      .node = -1,
				      .rail = -1,
				      .sw = -1,
				      .port = -1,
				      .peer = -1,
				      .peer_port = -1 };
	if (c->kind == RDP_MESH_PART_NODE) {
		f->node = (int)c->part;
		f->sw = (int)leaf_of(L, (unsigned int)c->part, 0);
		f->port = (int)L->p->port[c->part * L->rails];
	} else if (c->kind == RDP_MESH_PART_CABLE) {
		cab = c->part - L->cable0;
		f->node = (int)(cab / L->rails);
		f->rail = (int)(cab % L->rails);
		f->sw = (int)L->p->leaf[cab];
		f->port = (int)L->p->port[cab];
	} else if (c->kind == RDP_MESH_PART_LEAF) {
		f->sw = (int)(c->part - L->sw0);
	} else {
		for (i = 0; i < c->n_ids && i < RDP_MESH_FAULT_MAX_CAND; i++)
			f->cand[f->n_cand++] = c->ids[i];
		l = &L->t->link[c->ids[0]];
		if (c->kind == RDP_MESH_PART_UPLINK && one_leaf(L, c))
			f->sw = (int)l->a;
		if (c->n_ids == 1 && c->kind == RDP_MESH_PART_UPLINK) {
			f->port = (int)l->a_port;
			f->peer = (int)l->b;
			f->peer_port = (int)l->b_port;
		} else if (c->n_ids == 1) {
			f->sw = (int)c->ids[0];
		}
	}
}

void rdp_mesh_fault_confidence(const struct loc *L, struct rdp_mesh_fault *f)
{
	double q = f->total > 0 ? f->bad / f->total : 0;
	double e = L->ef + (1 - L->ef) * L->eg;
	double share = q > 0 ? 1 - e / q : 0;

	f->confidence = fmax(0, fmin(1, share)) *
			(1 - exp(-(f->score - L->tau) / L->tau));
}

void rdp_mesh_fault_record(const struct loc *L, const struct cand *c,
			   struct rdp_mesh_fault *f)
{
	place_fault(L, c, f);
	name_fault(L, c, f);
	f->bad = bad_of(&c->sum);
	f->total = c->sum.t;
	around(L, c, f);
	f->score = c->score;
	rdp_mesh_fault_confidence(L, f);
}

const char *rdp_mesh_part_name(enum rdp_mesh_part k)
{
	static const char *const names[] = { "node", "cable", "leaf", "uplink",
					     "spine" };

	return (unsigned int)k < RDP_MESH_N_PARTS ? names[k] : "?";
}

/* Digits a count needs: none when whole, one when ECMP split it. */
static int places(double v)
{
	return v == floor(v) ? 0 : 1;
}

int rdp_mesh_faults_print(const struct rdp_mesh_faults *f, FILE *out)
{
	const struct rdp_mesh_fault *x;
	size_t i;

	if (!f->n)
		fprintf(out, "faults: none named (no part's bad cells stand "
			     "out from the background)\n");
	for (i = 0; i < f->n; i++) {
		x = &f->v[i];
		fprintf(out,
			"fault %zu [%s]: %s: %.*f of %.*f cells through it "
			"bad, %.*f of %.*f around it; confidence %.2f\n",
			i + 1, rdp_mesh_part_name(x->kind), x->name,
			places(x->bad), x->bad, places(x->total), x->total,
			places(x->around_bad), x->around_bad,
			places(x->around_total), x->around_total,
			x->confidence);
	}
	return ferror(out) ? -EIO : 0;
}
