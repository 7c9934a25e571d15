/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The fleet doctor's comparison: each rank's facts against the most
 * common value of its rail, unreadable values left out; then the lines
 * that name each node that differs, and doctor.json.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include <rdmaperf/doctor.h>

unsigned int rdp_doctor_rails(const struct rdp_doctor_facts *all, size_t n,
			      unsigned int *rail_of)
{
	unsigned int rails = 0;
	size_t i, j;

	for (i = 0; i < n; i++) {
		rail_of[i] = 0;
		for (j = 0; j < i; j++)
			rail_of[i] += !strcmp(all[j].node, all[i].node);
		if (rail_of[i] + 1 > rails)
			rails = rail_of[i] + 1;
	}
	return rails;
}

static int same(const struct rdp_doctor_fact *a,
		const struct rdp_doctor_fact *b, enum rdp_fact_kind kind)
{
	return kind == RDP_FACT_NUM ? a->num == b->num
				    : !strcmp(a->text, b->text);
}

/* The ranks that take part in fact k on rail r, grouped by value. */
struct groups {
	size_t *rep, *cnt; /* per group: a rank holding it, how many */
	size_t *of;	   /* per rank: its group, or SIZE_MAX */
	size_t n, readable;
};

static void group(const struct rdp_doctor_facts *all, size_t n,
		  const unsigned int *rail_of, unsigned int r,
		  enum rdp_fact_id k, struct groups *g)
{
	enum rdp_fact_kind kind = rdp_fact_def(k)->kind;
	size_t i, j;

	g->n = g->readable = 0;
	for (i = 0; i < n; i++) {
		g->of[i] = SIZE_MAX;
		if (rail_of[i] != r || all[i].status || !all[i].f[k].readable)
			continue;
		for (j = 0; j < g->n; j++)
			if (same(&all[g->rep[j]].f[k], &all[i].f[k], kind))
				break;
		if (j == g->n) {
			g->rep[j] = i;
			g->cnt[j] = 0;
			g->n++;
		}
		g->cnt[j]++;
		g->of[i] = j;
		g->readable++;
	}
}

/* The differences of one fact on one rail, appended at out. */
static size_t differ(const struct groups *g, size_t n, enum rdp_fact_id k,
		     struct rdp_doctor_diff *out)
{
	size_t top = 0, ties = 0, i, j, other, nd = 0;

	if (g->n < 2)
		return 0;
	for (j = 1; j < g->n; j++)
		if (g->cnt[j] > g->cnt[top])
			top = j;
	for (j = 0; j < g->n; j++)
		ties += g->cnt[j] == g->cnt[top];
	for (i = 0; i < n; i++) {
		if (g->of[i] == SIZE_MAX || (ties == 1 && g->of[i] == top))
			continue;
		other = top;
		/* A tie: the first other value as common as any. */
		for (j = 0; ties > 1 && j < g->n; j++)
			if (j != g->of[i] && g->cnt[j] == g->cnt[top]) {
				other = j;
				break;
			}
		out[nd++] = (struct rdp_doctor_diff){
			.node = i,
			.fact = k,
			.other = g->rep[other],
			.other_count = g->cnt[other],
			.own_count = g->cnt[g->of[i]],
			.readable = g->readable,
			.tie = ties > 1,
		};
	}
	return nd;
}

static int by_node(const void *a, const void *b)
{
	const struct rdp_doctor_diff *x = a, *y = b;

	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	return (int)x->fact - (int)y->fact;
}

long rdp_doctor_compare(const struct rdp_doctor_facts *all, size_t n,
			struct rdp_doctor_diff *out)
{
	unsigned int *rail_of = calloc(n ? n : 1, sizeof(*rail_of)), rails, r;
	struct groups g = { 0 };
	size_t nd = 0;
	int k;

	g.rep = calloc(n ? n : 1, sizeof(size_t));
	g.cnt = calloc(n ? n : 1, sizeof(size_t));
	g.of = calloc(n ? n : 1, sizeof(size_t));
	if (!rail_of || !g.rep || !g.cnt || !g.of) {
		free(rail_of);
		free(g.rep);
		free(g.cnt);
		free(g.of);
		return -ENOMEM;
	}
	rails = rdp_doctor_rails(all, n, rail_of);
	for (r = 0; r < rails; r++)
		for (k = 0; k < RDP_FACT_N; k++) {
			group(all, n, rail_of, r, (enum rdp_fact_id)k, &g);
			nd += differ(&g, n, (enum rdp_fact_id)k, out + nd);
		}
	qsort(out, nd, sizeof(*out), by_node);
	free(rail_of);
	free(g.rep);
	free(g.cnt);
	free(g.of);
	return (long)nd;
}

/* "node3 (rxe3)", or "node3 (mlx5_1, rail 1)" when nodes have rails. */
static void who(const struct rdp_doctor_facts *x, unsigned int rail,
		unsigned int rails, char *buf, size_t len)
{
	if (rails > 1)
		snprintf(buf, len, "%s (%s, rail %u)", x->node, x->dev, rail);
	else
		snprintf(buf, len, "%s (%s)", x->node, x->dev);
}

/* Which facts no rank with a device could read: their titles. */
static void unreadable(const struct rdp_doctor_facts *all, size_t n, int *none,
		       size_t *count)
{
	size_t i;
	int k;

	*count = 0;
	for (k = 0; k < RDP_FACT_N; k++) {
		none[k] = 1;
		for (i = 0; i < n && none[k]; i++)
			if (!all[i].status && all[i].f[k].readable)
				none[k] = 0;
		*count += (size_t)none[k];
	}
}

static void print_diff(FILE *out, const struct rdp_doctor_facts *all,
		       const struct rdp_doctor_diff *d, const char *name)
{
	const char *title = rdp_fact_def(d->fact)->title;
	const char *mine = all[d->node].f[d->fact].text;
	const char *theirs = all[d->other].f[d->fact].text;

	if (d->tie)
		fprintf(out,
			"%s: %s %s; no majority: %zu of %zu have it, "
			"%zu have %s\n",
			name, title, mine, d->own_count, d->readable,
			d->other_count, theirs);
	else
		fprintf(out, "%s: %s %s; the majority (%zu of %zu): %s\n", name,
			title, mine, d->other_count, d->readable, theirs);
}

static size_t count_nodes(const struct rdp_doctor_diff *d, size_t nd)
{
	size_t i, nodes = 0;

	for (i = 0; i < nd; i++)
		nodes += !i || d[i].node != d[i - 1].node;
	return nodes;
}

void rdp_doctor_fleet_print(FILE *out, const struct rdp_doctor_facts *all,
			    size_t n, const struct rdp_doctor_diff *d,
			    size_t nd)
{
	unsigned int *rail_of = calloc(n ? n : 1, sizeof(*rail_of)), rails;
	size_t i, nodes = 0, nodev = 0, nun;
	int none[RDP_FACT_N], k, first = 1;
	char name[160];

	if (!rail_of)
		return;
	rails = rdp_doctor_rails(all, n, rail_of);
	for (i = 0; i < n; i++) {
		nodes += rail_of[i] == 0;
		nodev += all[i].status != 0;
	}
	unreadable(all, n, none, &nun);
	fprintf(out, "doctor: %zu node(s)", nodes);
	if (rails > 1)
		fprintf(out, ", %u rails", rails);
	if (nodev == n)
		nun = 0; /* nothing was read to compare */
	if (nd)
		fprintf(out, ": %zu difference(s) on %zu node(s)", nd,
			count_nodes(d, nd));
	else if (nodev < n)
		fprintf(out, ": all agree on the %zu facts read",
			(size_t)RDP_FACT_N - nun);
	if (nodev == n)
		fprintf(out, ": no rank has a device");
	else if (nodev)
		fprintf(out, "; %zu rank(s) without a device", nodev);
	fprintf(out, "\n");
	for (i = 0; i < n; i++) {
		who(&all[i], rail_of[i], rails, name, sizeof(name));
		if (all[i].status)
			fprintf(out, "%s: no device: %s\n", name, all[i].why);
	}
	for (i = 0; i < nd; i++) {
		who(&all[d[i].node], rail_of[d[i].node], rails, name,
		    sizeof(name));
		print_diff(out, all, &d[i], name);
	}
	for (k = 0; nun && k < RDP_FACT_N; k++) {
		if (!none[k])
			continue;
		fprintf(out, "%s%s",
			first ? "unreadable on every node: " : ", ",
			rdp_fact_def((enum rdp_fact_id)k)->title);
		first = 0;
	}
	if (nun)
		fprintf(out, "\n");
	free(rail_of);
}

static json_t *value_json(const struct rdp_doctor_fact *x, enum rdp_fact_id k)
{
	if (!x->readable)
		return json_null();
	if (k == RDP_FACT_NUMA && x->num < 0) /* the device has none */
		return json_null();
	if (rdp_fact_def(k)->kind == RDP_FACT_NUM)
		return json_integer((json_int_t)x->num);
	return json_string(x->text);
}

static json_t *facts_json(const struct rdp_doctor_facts *x)
{
	json_t *o = json_object();
	int k, err = !o;

	for (k = 0; !err && k < RDP_FACT_N; k++)
		err = json_object_set_new(
			o, rdp_fact_def((enum rdp_fact_id)k)->id,
			value_json(&x->f[k], (enum rdp_fact_id)k));
	if (err)
		json_decref(o);
	return err ? NULL : o;
}

static json_t *rank_json(const struct rdp_doctor_facts *x, size_t i,
			 unsigned int rail)
{
	json_t *o = json_object();
	int err = !o;

	err |= json_object_set_new(o, "rank", json_integer((json_int_t)i));
	err |= json_object_set_new(o, "node", json_string(x->node));
	err |= json_object_set_new(o, "dev", json_string(x->dev));
	err |= json_object_set_new(o, "rail", json_integer(rail));
	err |= json_object_set_new(o, "status",
				   json_string(x->status ? "no device" : "ok"));
	err |= json_object_set_new(
		o, "why", x->status ? json_string(x->why) : json_null());
	err |= json_object_set_new(o, "facts", facts_json(x));
	if (err)
		json_decref(o);
	return err ? NULL : o;
}

static json_t *diff_json(const struct rdp_doctor_facts *all,
			 const struct rdp_doctor_diff *d, unsigned int rail)
{
	const struct rdp_fact_def *def = rdp_fact_def(d->fact);
	json_t *o = json_object();
	int err = !o;

	err |= json_object_set_new(o, "node", json_string(all[d->node].node));
	err |= json_object_set_new(o, "dev", json_string(all[d->node].dev));
	err |= json_object_set_new(o, "rail", json_integer(rail));
	err |= json_object_set_new(o, "fact", json_string(def->id));
	err |= json_object_set_new(o, "title", json_string(def->title));
	err |= json_object_set_new(
		o, "value", value_json(&all[d->node].f[d->fact], d->fact));
	err |= json_object_set_new(
		o, "majority", value_json(&all[d->other].f[d->fact], d->fact));
	err |= json_object_set_new(o, "majority_count",
				   json_integer((json_int_t)d->other_count));
	err |= json_object_set_new(o, "count",
				   json_integer((json_int_t)d->own_count));
	err |= json_object_set_new(o, "readable",
				   json_integer((json_int_t)d->readable));
	err |= json_object_set_new(o, "tie", json_boolean(d->tie));
	if (err)
		json_decref(o);
	return err ? NULL : o;
}

static int fill_json(json_t *o, const struct rdp_doctor_facts *all, size_t n,
		     const struct rdp_doctor_diff *d, size_t nd,
		     const unsigned int *rail_of)
{
	json_t *ranks = json_array(), *diffs = json_array(), *un = json_array();
	int none[RDP_FACT_N], k, err = !ranks || !diffs || !un;
	size_t i, nun;

	for (i = 0; !err && i < n; i++)
		err = json_array_append_new(ranks,
					    rank_json(&all[i], i, rail_of[i]));
	for (i = 0; !err && i < nd; i++)
		err = json_array_append_new(
			diffs, diff_json(all, &d[i], rail_of[d[i].node]));
	unreadable(all, n, none, &nun);
	for (k = 0; !err && k < RDP_FACT_N; k++)
		if (none[k])
			err = json_array_append_new(
				un,
				json_string(
					rdp_fact_def((enum rdp_fact_id)k)->id));
	err |= json_object_set_new(o, "ranks", ranks);
	err |= json_object_set_new(o, "differences", diffs);
	err |= json_object_set_new(o, "unreadable_everywhere", un);
	return err;
}

json_t *rdp_doctor_fleet_json(const struct rdp_doctor_facts *all, size_t n,
			      const struct rdp_doctor_diff *d, size_t nd,
			      double elapsed_s)
{
	unsigned int *rail_of = calloc(n ? n : 1, sizeof(*rail_of)), rails;
	json_t *o = json_object();
	size_t i, nodes = 0, nodev = 0;
	int err = !o || !rail_of;

	if (!err) {
		rails = rdp_doctor_rails(all, n, rail_of);
		for (i = 0; i < n; i++) {
			nodes += rail_of[i] == 0;
			nodev += all[i].status != 0;
		}
		err |= json_object_set_new(o, "command",
					   json_string("mesh-doctor"));
		err |= json_object_set_new(o, "nodes",
					   json_integer((json_int_t)nodes));
		err |= json_object_set_new(o, "rails", json_integer(rails));
		err |= json_object_set_new(o, "agree",
					   json_boolean(!nd && !nodev));
		err |= json_object_set_new(o, "elapsed_s",
					   json_real(elapsed_s));
		err |= fill_json(o, all, n, d, nd, rail_of);
	}
	free(rail_of);
	if (err) {
		json_decref(o);
		return NULL;
	}
	return o;
}
