/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The victim of an incast mesh (--victim): its figures alone and under
 * the load, round by round, the congestion impact factor of each, and
 * how mesh.json ("congestion"), outliers.txt and the terminal say them.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include <jansson.h>

#include <rdmaperf/mesh_run.h>

#include "mesh_int.h"

static double ratio(double num, double den)
{
	return isfinite(num) && isfinite(den) && num > 0 && den > 0 ? num / den
								    : NAN;
}

void rdp_mesh_impact_of(const struct rdp_mesh_victim_fig *alone,
			const struct rdp_mesh_victim_fig *loaded,
			struct rdp_mesh_impact *out)
{
	out->p50 = ratio(loaded->p50_us, alone->p50_us);
	out->p99 = ratio(loaded->p99_us, alone->p99_us);
	out->bw = ratio(alone->bw_gbps, loaded->bw_gbps);
}

static const struct rdp_mesh_victim_fig none = { NAN, NAN, NAN };

int rdp_mesh_congestion_note(struct rdp_mesh_congestion *c,
			     const struct rdp_mesh_victim_round *of, int loaded,
			     const struct rdp_mesh_victim_fig *f)
{
	struct rdp_mesh_victim_round *v = NULL, *grown;
	size_t i;

	for (i = 0; i < c->n && !v; i++)
		if (c->v[i].round == of->round && c->v[i].tx == of->tx &&
		    c->v[i].rx == of->rx && c->v[i].rail == of->rail)
			v = &c->v[i];
	if (!v) {
		if (c->n == c->cap) {
			grown = realloc(c->v, (c->cap ? 2 * c->cap : 8) *
						      sizeof(*grown));
			if (!grown)
				return -ENOMEM;
			c->v = grown;
			c->cap = c->cap ? 2 * c->cap : 8;
		}
		v = &c->v[c->n++];
		*v = *of;
		v->alone = v->loaded = none;
	}
	if (loaded)
		v->loaded = *f;
	else
		v->alone = *f;
	return 0;
}

void rdp_mesh_congestion_fini(struct rdp_mesh_congestion *c)
{
	free(c->v);
	c->v = NULL;
	c->n = c->cap = 0;
}

void rdp_mesh_set_congestion(struct rdp_mesh *m,
			     const struct rdp_mesh_congestion *c)
{
	m->congestion = c;
}

static json_t *real_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *fig_json(enum rdp_mesh_victim kind,
			const struct rdp_mesh_victim_fig *f)
{
	if (kind == RDP_MESH_VICTIM_BW)
		return json_pack("{s:o}", "bw_gbps", real_or_null(f->bw_gbps));
	return json_pack("{s:o, s:o}", "p50_us", real_or_null(f->p50_us),
			 "p99_us", real_or_null(f->p99_us));
}

static json_t *impact_json(enum rdp_mesh_victim kind,
			   const struct rdp_mesh_impact *i)
{
	if (kind == RDP_MESH_VICTIM_BW)
		return json_pack("{s:o}", "bw", real_or_null(i->bw));
	return json_pack("{s:o, s:o}", "p50", real_or_null(i->p50), "p99",
			 real_or_null(i->p99));
}

/* The larger of two factors, NaN when neither is one. */
static double most(double a, double b)
{
	return !isfinite(a) ? b : !isfinite(b) ? a : a > b ? a : b;
}

json_t *rdp_mesh_congestion_json(const struct rdp_mesh *m)
{
	const struct rdp_mesh_congestion *c = m->congestion;
	struct rdp_mesh_impact imp, top = { NAN, NAN, NAN };
	json_t *rounds = json_array(), *o;
	size_t i;
	int ok = rounds != NULL;

	for (i = 0; ok && i < c->n; i++) {
		rdp_mesh_impact_of(&c->v[i].alone, &c->v[i].loaded, &imp);
		top.p50 = most(top.p50, imp.p50);
		top.p99 = most(top.p99, imp.p99);
		top.bw = most(top.bw, imp.bw);
		o = json_pack("{s:i, s:s, s:s, s:i, s:i, s:o, s:o, s:o}",
			      "round", (int)c->v[i].round + 1, "tx",
			      rdp_mesh_node_name(m, c->v[i].tx), "rx",
			      rdp_mesh_node_name(m, c->v[i].rx), "rail",
			      (int)c->v[i].rail, "senders",
			      (int)c->v[i].senders, "alone",
			      fig_json(c->kind, &c->v[i].alone), "loaded",
			      fig_json(c->kind, &c->v[i].loaded), "impact",
			      impact_json(c->kind, &imp));
		ok = o && !json_array_append_new(rounds, o);
	}
	if (!ok) {
		json_decref(rounds);
		return NULL;
	}
	return json_pack("{s:s, s:o, s:o}", "victim",
			 rdp_mesh_victim_name(c->kind), "rounds", rounds,
			 "impact_max", impact_json(c->kind, &top));
}

static void say_factor(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, " (x%.3g)", v);
	else
		fputs(" (no factor)", out);
}

static void say_fig(FILE *out, double alone, double loaded)
{
	if (isfinite(alone))
		fprintf(out, "%.3g", alone);
	else
		fputs("none", out);
	if (isfinite(loaded))
		fprintf(out, " -> %.3g", loaded);
	else
		fputs(" -> none", out);
}

void rdp_mesh_congestion_print(const struct rdp_mesh_congestion *c,
			       const struct rdp_mesh *m, FILE *out)
{
	const struct rdp_mesh_victim_round *v;
	struct rdp_mesh_impact imp;
	size_t i;

	for (i = 0; c && i < c->n; i++) {
		v = &c->v[i];
		rdp_mesh_impact_of(&v->alone, &v->loaded, &imp);
		fprintf(out, "congestion: round %u, victim %s -> %s",
			v->round + 1, rdp_mesh_node_name(m, v->tx),
			rdp_mesh_node_name(m, v->rx));
		if (m->rails > 1)
			fprintf(out, ", rail %u", v->rail);
		fprintf(out, " under %u senders: ", v->senders);
		if (c->kind == RDP_MESH_VICTIM_BW) {
			fputs("bw ", out);
			say_fig(out, v->alone.bw_gbps, v->loaded.bw_gbps);
			fputs(" Gb/s", out);
			say_factor(out, imp.bw);
		} else {
			fputs("p50 ", out);
			say_fig(out, v->alone.p50_us, v->loaded.p50_us);
			fputs(" us", out);
			say_factor(out, imp.p50);
			fputs(", p99 ", out);
			say_fig(out, v->alone.p99_us, v->loaded.p99_us);
			fputs(" us", out);
			say_factor(out, imp.p99);
		}
		fputc('\n', out);
	}
}
