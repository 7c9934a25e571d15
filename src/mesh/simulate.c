/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The simulator: every cell of a plan made up on a fabric, with noise and
 * injected faults, through the same store; and what the localisation
 * named against what was injected.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdmaperf/mesh.h>

#include "mesh_int.h"
#include "topo_int.h"

static const char *const kind_names[] = { "nic", "cable", "uplink", "flaky",
					  "errors" };

const char *rdp_mesh_inject_name(enum rdp_mesh_inject_kind k)
{
	return (unsigned int)k < RDP_MESH_N_INJECT ? kind_names[k] : "?";
}

static int bad_spec(char *why, size_t len, const char *spec, const char *what)
{
	snprintf(why, len, "--inject %s: %s", spec, what);
	return -EINVAL;
}

/* The mesh node of a host name, or -ENOENT. */
static int node_named(const struct rdp_mesh_place *p, const char *name)
{
	int h = rdp_mesh_topo_find_host(p->t, name);
	unsigned int n;

	for (n = 0; h >= 0 && n < p->nodes; n++)
		if (p->host[n] == (unsigned int)h)
			return (int)n;
	return -ENOENT;
}

/* "down" (factor 0) or "PCT%" into *pct. */
static int value(const char *v, double *pct, int *down)
{
	char *end;

	*down = !strcmp(v, "down");
	if (*down) {
		*pct = 0;
		return 0;
	}
	*pct = strtod(v, &end);
	if (end == v || strcmp(end, "%") || !isfinite(*pct))
		return -EINVAL;
	return 0;
}

/* The node and rail words of nic, cable, flaky. */
static int node_rail(const struct rdp_mesh_place *p, char *a, char *b,
		     struct rdp_mesh_inject *o, char *why, size_t len)
{
	char *end;
	long r;

	o->node = node_named(p, a);
	if (o->node < 0)
		return bad_spec(why, len, o->spec, "no such node in the mesh");
	if (!b)
		return 0;
	r = strtol(b, &end, 10);
	if (end == b || *end || r < 0 || r >= (long)p->rails)
		return bad_spec(why, len, o->spec,
				"the rail is a number below --rails");
	o->rail = (int)r;
	return 0;
}

static int uplink_of(const struct rdp_mesh_place *p, const char *a,
		     const char *b, struct rdp_mesh_inject *o, char *why,
		     size_t len)
{
	const struct rdp_mesh_topo *t = p->t;
	unsigned int i;

	o->leaf = rdp_mesh_topo_find_switch(t, a);
	o->spine = b ? rdp_mesh_topo_find_switch(t, b) : -ENOENT;
	if (o->leaf < 0 || !t->sw[o->leaf].leaf)
		return bad_spec(why, len, o->spec, "no such leaf");
	if (o->spine < 0 || t->sw[o->spine].leaf)
		return bad_spec(why, len, o->spec, "no such spine");
	for (i = 0; i < t->n_link; i++)
		if (t->link[i].a == (unsigned int)o->leaf &&
		    t->link[i].b == (unsigned int)o->spine)
			return 0;
	return bad_spec(why, len, o->spec, "no link joins that leaf and spine");
}

static int kind_of(const char *word)
{
	int k;

	for (k = 0; k < RDP_MESH_N_INJECT; k++)
		if (!strcmp(word, kind_names[k]))
			return k;
	return -EINVAL;
}

static int check_value(struct rdp_mesh_inject *o, double pct, int down,
		       char *why, size_t len)
{
	if (o->kind == RDP_MESH_INJECT_FLAKY) {
		if (down || pct <= 0 || pct > 100)
			return bad_spec(why, len, o->spec,
					"flaky takes the share of its cells "
					"that fail, (0, 100]%");
		o->fail_share = pct / 100;
		return 0;
	}
	if (pct < 0 || pct >= 100)
		return bad_spec(why, len, o->spec,
				"a slow part runs at [0, 100)% of its "
				"bandwidth, or is down");
	o->factor = pct / 100;
	return 0;
}

/* errors:NODE[:RAIL]=N: a count of symbol errors from 1. */
static int errors_of(const struct rdp_mesh_place *p, char **w, const char *v,
		     struct rdp_mesh_inject *o, struct rdp_mesh_inject *out,
		     char *why, size_t len)
{
	unsigned long long n;
	char *end;
	int ret;

	ret = node_rail(p, w[1], w[2], o, why, len);
	if (ret)
		return ret;
	errno = 0;
	n = strtoull(v, &end, 10);
	if (errno || end == v || *end || !n || *v == '-' || *v == '+')
		return bad_spec(why, len, o->spec,
				"errors takes a count of symbol errors a "
				"cell, from 1");
	o->errors = n;
	*out = *o;
	return 0;
}

int rdp_mesh_inject_parse(const char *spec, const struct rdp_mesh_place *p,
			  struct rdp_mesh_inject *out, char *why, size_t len)
{
	struct rdp_mesh_inject o = {
		.node = -1, .rail = -1, .leaf = -1, .spine = -1, .factor = 1
	};
	char buf[128], *eq, *w[4] = { NULL }, *save = NULL;
	double pct;
	int n = 0, k, down, ret;

	snprintf(o.spec, sizeof(o.spec), "%s", spec);
	if (strlen(spec) >= sizeof(buf) || !(eq = strchr(spec, '=')))
		return bad_spec(why, len, spec,
				"want KIND:WHERE=VALUE, such as "
				"cable:node3:1=down");
	snprintf(buf, sizeof(buf), "%.*s", (int)(eq - spec), spec);
	for (w[0] = strtok_r(buf, ":", &save); w[n] && n < 3;)
		w[++n] = strtok_r(NULL, ":", &save);
	k = n ? kind_of(w[0]) : -EINVAL;
	if (k == RDP_MESH_INJECT_ERRORS && n >= 2 && !w[3]) {
		o.kind = RDP_MESH_INJECT_ERRORS;
		return errors_of(p, w, eq + 1, &o, out, why, len);
	}
	if (k < 0 || n < 2 || w[3] || value(eq + 1, &pct, &down))
		return bad_spec(why, len, spec,
				"want nic:NODE[:RAIL]=PCT%, "
				"cable:NODE:RAIL=down|PCT%, "
				"uplink:LEAF:SPINE=down|PCT%, "
				"flaky:NODE[:RAIL]=PCT% or "
				"errors:NODE[:RAIL]=N");
	o.kind = (enum rdp_mesh_inject_kind)k;
	if (o.kind == RDP_MESH_INJECT_CABLE && !w[2])
		return bad_spec(why, len, spec, "a cable is NODE:RAIL");
	if (o.kind == RDP_MESH_INJECT_UPLINK)
		ret = uplink_of(p, w[1], w[2], &o, why, len);
	else
		ret = node_rail(p, w[1], w[2], &o, why, len);
	if (!ret)
		ret = check_value(&o, pct, down, why, len);
	if (!ret)
		*out = o;
	return ret;
}

/* splitmix64: small, fast, the same everywhere. */
static uint64_t next_u64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double uniform(uint64_t *s)
{
	return (double)(next_u64(s) >> 11) * 0x1.0p-53;
}

static double gauss(uint64_t *s)
{
	double u = uniform(s), v = uniform(s);

	return sqrt(-2 * log(u > 0 ? u : 0x1.0p-53)) * cos(2 * M_PI * v);
}

/* The injected faults as factors on cables (node x rails) and links. */
struct sim {
	const struct rdp_mesh_place *p;
	const struct rdp_mesh_sim_opts *o;
	double *cab_f, *cab_fail; /* bandwidth factor, failing share */
	uint64_t *cab_errs;	  /* symbol errors a cell */
	double *link_f;
	unsigned char *leaf_hit; /* per switch: an injected uplink */
	struct rdp_mesh_hop *hops;
	size_t cap_hops;
	uint64_t rng;
};

static void inject_one(struct sim *s, const struct rdp_mesh_inject *j)
{
	const struct rdp_mesh_topo *t = s->p->t;
	unsigned int r, i, rails = s->p->rails;
	size_t cab;

	if (j->kind == RDP_MESH_INJECT_UPLINK) {
		for (i = 0; i < t->n_link; i++)
			if (t->link[i].a == (unsigned int)j->leaf &&
			    t->link[i].b == (unsigned int)j->spine)
				s->link_f[i] *= j->factor;
		s->leaf_hit[j->leaf] = 1;
		return;
	}
	for (r = 0; r < rails; r++) {
		if (j->rail >= 0 && (unsigned int)j->rail != r)
			continue;
		cab = (size_t)j->node * rails + r;
		if (j->kind == RDP_MESH_INJECT_FLAKY)
			s->cab_fail[cab] = 1 - (1 - s->cab_fail[cab]) *
						       (1 - j->fail_share);
		else if (j->kind == RDP_MESH_INJECT_ERRORS)
			s->cab_errs[cab] += j->errors;
		else
			s->cab_f[cab] *= j->factor;
	}
}

static void sim_free(struct sim *s)
{
	free(s->cab_f);
	free(s->cab_fail);
	free(s->cab_errs);
	free(s->link_f);
	free(s->leaf_hit);
	free(s->hops);
}

static int sim_init(struct sim *s, const struct rdp_mesh_place *p,
		    const struct rdp_mesh_inject *inj, size_t n,
		    const struct rdp_mesh_sim_opts *o)
{
	size_t nc = (size_t)p->nodes * p->rails, i;

	*s = (struct sim){ .p = p, .o = o, .rng = o->seed };
	s->cab_f = malloc(nc * sizeof(*s->cab_f));
	s->cab_fail = calloc(nc, sizeof(*s->cab_fail));
	s->cab_errs = calloc(nc, sizeof(*s->cab_errs));
	s->link_f = malloc((p->t->n_link + 1) * sizeof(*s->link_f));
	s->leaf_hit = calloc(p->t->n_sw + 1, 1);
	s->cap_hops = 64;
	s->hops = calloc(s->cap_hops, sizeof(*s->hops));
	if (!s->cab_f || !s->cab_fail || !s->cab_errs || !s->link_f ||
	    !s->leaf_hit || !s->hops)
		return -ENOMEM;
	for (i = 0; i < nc; i++)
		s->cab_f[i] = 1;
	for (i = 0; i < p->t->n_link; i++)
		s->link_f[i] = 1;
	for (i = 0; i < n; i++)
		inject_one(s, &inj[i]);
	return 0;
}

/* The uplinks' factor on one way across the spines, drawn by weight. */
static int spine_factor(struct sim *s, unsigned int tx, unsigned int rx,
			unsigned int rail, double *f)
{
	struct rdp_mesh_path path;
	double u, acc = 0;
	size_t i;
	int ret;

	for (;;) {
		ret = rdp_mesh_place_path(s->p, tx, rx, rail, &path, s->hops,
					  s->cap_hops);
		if (ret == -EHOSTUNREACH || (!ret && !path.n_hops))
			return 0;
		if (ret)
			return ret;
		if (path.n_hops <= s->cap_hops)
			break;
		free(s->hops);
		s->cap_hops = path.n_hops;
		s->hops = calloc(s->cap_hops, sizeof(*s->hops));
		if (!s->hops)
			return -ENOMEM;
	}
	u = uniform(&s->rng);
	for (i = 0; i + 1 < path.n_hops; i++) {
		acc += s->hops[i].weight;
		if (u < acc)
			break;
	}
	*f *= s->link_f[s->hops[i].up] * s->link_f[s->hops[i].down];
	return 0;
}

/* An errors port's symbol errors on its side of a cell, into e. */
static const struct rdp_mesh_errors *errors_of_cell(const struct sim *s,
						    size_t ct, size_t cr,
						    struct rdp_mesh_errors *e,
						    struct rdp_mesh_ctr ctr[2])
{
	struct rdp_mesh_port_errors *side[2] = { &e->tx, &e->rx };
	uint64_t n[2] = { s->cab_errs[ct], s->cab_errs[cr] };
	int k;

	if (!n[0] && !n[1])
		return NULL;
	memset(e, 0, sizeof(*e));
	for (k = 0; k < 2; k++) {
		if (!n[k])
			continue;
		ctr[k] = (struct rdp_mesh_ctr){ "symbol_error", n[k] };
		side[k]->sums.n[RDP_CTR_LINK] = n[k];
		side[k]->n = 1;
		side[k]->ctr = &ctr[k];
	}
	return e;
}

static int sim_cell(struct sim *s, struct rdp_mesh *m, unsigned int tx,
		    unsigned int rx, unsigned int rail, unsigned int round)
{
	size_t ct = (size_t)tx * s->p->rails + rail;
	size_t cr = (size_t)rx * s->p->rails + rail;
	double f = s->cab_f[ct] * s->cab_f[cr], noise, fail;
	struct rdp_mesh_cell c = {
		.tx = tx, .rx = rx, .rail = rail, .round = round, .lat_us = NAN
	};
	struct rdp_mesh_errors errs;
	struct rdp_mesh_ctr ctr[2];
	int ret = 0;

	noise = gauss(&s->rng);
	fail = 1 - (1 - s->cab_fail[ct]) * (1 - s->cab_fail[cr]);
	if (s->p->leaf[ct] != s->p->leaf[cr] &&
	    (s->leaf_hit[s->p->leaf[ct]] || s->leaf_hit[s->p->leaf[cr]]))
		ret = spine_factor(s, tx, rx, rail, &f);
	if (ret)
		return ret;
	c.bw_gbps = s->o->nominal_gbps * (1 + s->o->noise_pct / 100 * noise);
	c.bw_gbps = fmax(c.bw_gbps * f, s->o->nominal_gbps * 1e-3);
	if (f <= 0) {
		c.status = RDP_MESH_FAILED;
		c.reason = "simulated: a part on its path is down";
	} else if (fail > 0 && uniform(&s->rng) < fail) {
		c.status = RDP_MESH_FAILED;
		c.reason = "simulated: an intermittent link dropped it";
	}
	if (c.status == RDP_MESH_FAILED)
		c.bw_gbps = NAN;
	else
		c.errors = errors_of_cell(s, ct, cr, &errs, ctr);
	return rdp_mesh_add(m, &c);
}

int rdp_mesh_simulate(struct rdp_mesh *m, const struct rdp_mesh_plan *plan,
		      const struct rdp_mesh_place *p,
		      const struct rdp_mesh_inject *inj, size_t n_inj,
		      const struct rdp_mesh_sim_opts *o)
{
	struct rdp_mesh_xfer *x = calloc(rdp_mesh_plan_width(plan), sizeof(*x));
	size_t rounds = rdp_mesh_plan_rounds(plan), k, j, cnt;
	unsigned int r;
	struct sim s;
	int ret = sim_init(&s, p, inj, n_inj, o);

	if (!x)
		ret = -ENOMEM;
	if (rdp_mesh_plan_opts(plan)->nodes != p->nodes)
		ret = -EINVAL;
	for (k = 0; !ret && k < rounds; k++) {
		cnt = rdp_mesh_plan_round(plan, k, x);
		for (j = 0; !ret && j < cnt; j++)
			for (r = 0; !ret && r < p->rails; r++) {
				ret = sim_cell(&s, m, x[j].tx, x[j].rx, r,
					       (unsigned int)k);
				if (!ret && x[j].both)
					ret = sim_cell(&s, m, x[j].rx, x[j].tx,
						       r, (unsigned int)k);
			}
	}
	free(x);
	sim_free(&s);
	/* Each cell's path in the files, as a run with --topology has it. */
	if (!ret)
		m->place = p;
	return ret;
}

/* Whether fault x names what j injected. */
static int matches(const struct rdp_mesh_place *p,
		   const struct rdp_mesh_inject *j,
		   const struct rdp_mesh_fault *x)
{
	const struct rdp_mesh_topo_link *l;
	unsigned int i;

	if (j->kind == RDP_MESH_INJECT_UPLINK) {
		if (x->kind != RDP_MESH_PART_UPLINK)
			return 0;
		for (i = 0; i < x->n_cand; i++) {
			l = &p->t->link[x->cand[i]];
			if (l->a == (unsigned int)j->leaf &&
			    l->b == (unsigned int)j->spine)
				return 1;
		}
		return 0;
	}
	if (x->node != j->node)
		return 0;
	if (j->rail < 0 || p->rails == 1)
		return x->kind == RDP_MESH_PART_NODE;
	return x->kind == RDP_MESH_PART_CABLE && x->rail == j->rail;
}

int rdp_mesh_sim_score(const struct rdp_mesh_place *p,
		       const struct rdp_mesh_inject *inj, size_t n_inj,
		       const struct rdp_mesh_faults *f, FILE *out,
		       struct rdp_mesh_sim_score *s)
{
	const struct rdp_mesh_fault *x;
	size_t i, k, n = rdp_mesh_faults_n(f);
	int hit;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < n_inj; i++) {
		s->injected[inj[i].kind]++;
		for (hit = 0, k = 0; !hit && k < n; k++)
			hit = matches(p, &inj[i], rdp_mesh_fault_at(f, k));
		s->found[inj[i].kind] += (unsigned int)hit;
		if (out && hit)
			fprintf(out, "found: %s as %s\n", inj[i].spec,
				rdp_mesh_fault_at(f, k - 1)->name);
		else if (out)
			fprintf(out, "missed: %s\n", inj[i].spec);
	}
	for (k = 0; k < n; k++) {
		x = rdp_mesh_fault_at(f, k);
		for (hit = 0, i = 0; !hit && i < n_inj; i++)
			hit = matches(p, &inj[i], x);
		s->named++;
		s->right += (unsigned int)hit;
		if (out && !hit)
			fprintf(out, "false: [%s] %s\n",
				rdp_mesh_part_name(x->kind), x->name);
	}
	return out && ferror(out) ? -EIO : 0;
}
