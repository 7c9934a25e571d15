/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Mesh schedules: the circle method (pairwise), bisection and quick with
 * random perfect matchings (plan_match.c), ring shifts, grouped full
 * meshes (plan_grouped.c), a fabric's cables and uplinks covered
 * (plan_cover.c). A round is computed when asked for; only the matchings
 * of bisection and quick and the groups of cover are stored.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan_int.h"

/*
 * A pattern is one row: its name, how it sizes a plan, one pairing's
 * transfers and their count, and the words of its plan's head. Pairings
 * of a directed pattern become two rounds each, A->B then B->A, unless
 * -b; a pattern whose nodes send and receive at once refuses -b.
 */
struct pattern {
	const char *name;
	int (*size)(struct rdp_mesh_plan *p);
	size_t (*round)(const struct rdp_mesh_plan *p, size_t r,
			struct rdp_mesh_xfer *x);
	size_t (*width)(const struct rdp_mesh_plan *p, size_t r);
	void (*head)(const struct rdp_mesh_plan *p, FILE *f);
	/* The most transfers a node receives (in) or sends in a round;
	 * NULL: one. */
	unsigned int (*fan)(const struct rdp_mesh_plan *p, int in);
	unsigned int width_all : 1;    /* all N nodes send in a round */
	unsigned int directed : 1;     /* pairings, split by direction */
	unsigned int permutations : 1; /* takes --permutations */
	unsigned int groups : 1;       /* needs --group-size */
	unsigned int labels_shift : 1; /* "round K (+K)" in the plan */
	unsigned int width_own : 1;    /* width(p, 0) is every round's */
};

#define N_PATTERNS 8
static const struct pattern patterns[N_PATTERNS];

const char *rdp_mesh_pattern_name(enum rdp_mesh_pattern p)
{
	return (unsigned int)p < N_PATTERNS ? patterns[p].name : "?";
}

int rdp_mesh_pattern_parse(const char *name, enum rdp_mesh_pattern *out)
{
	size_t i;

	for (i = 0; i < N_PATTERNS; i++)
		if (!strcmp(name, patterns[i].name)) {
			*out = (enum rdp_mesh_pattern)i;
			return 0;
		}
	return -EINVAL;
}

int rdp_mesh_pattern_check(const char *name, enum rdp_mesh_pattern *out,
			   char *why, size_t len)
{
	size_t i, n = N_PATTERNS, off;

	if (!rdp_mesh_pattern_parse(name, out))
		return 0;
	off = (size_t)snprintf(why, len, "--pattern needs ");
	for (i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(why + off, len - off, "%s%s",
					!i	     ? ""
					: i + 1 == n ? " or "
						     : ", ",
					patterns[i].name);
	if (off < len)
		snprintf(why + off, len - off, ", not '%s'", name);
	return -EINVAL;
}

/* --permutations beyond the matchings N nodes have: one line. */
static int too_many_matchings(const struct rdp_mesh_plan_opts *o, char *why,
			      size_t len)
{
	uint64_t have = rdp_mesh_matchings_count(
		o->nodes, (uint64_t)RDP_MESH_MAX_PERMUTATIONS + 2);

	if (!o->nodes || o->permutations < have)
		return 0;
	snprintf(why, len,
		 "--permutations %u: %u nodes have only %llu distinct perfect "
		 "matching%s%s, i<->i+%u among them: ask for --permutations "
		 "%llu at most (--pattern pairwise meets every pair)",
		 o->permutations, o->nodes, (unsigned long long)have,
		 have == 1 ? "" : "s",
		 o->nodes % 2 ? " (one node resting)" : "", o->nodes / 2,
		 (unsigned long long)have - 1);
	return -EINVAL;
}

/* --group-size: with grouped only, which needs it, 2..N-1. */
static int bad_groups(const struct rdp_mesh_plan_opts *o, char *why, size_t len)
{
	unsigned int most = o->nodes ? o->nodes - 1
				     : RDP_MESH_PLAN_MAX_NODES - 1;

	if (o->group_size && !patterns[o->pattern].groups)
		snprintf(why, len, "--group-size applies to --pattern grouped");
	else if (!patterns[o->pattern].groups)
		return 0;
	else if (!o->group_size)
		snprintf(why, len,
			 "--pattern grouped needs --group-size G, the nodes of "
			 "a group");
	else if (o->group_size < 2 || o->group_size > most)
		snprintf(why, len,
			 "--group-size takes 2 to %u%s, not %u (one group of "
			 "all nodes is --pattern pairwise)",
			 most, o->nodes ? " for this many nodes" : "",
			 o->group_size);
	else
		return 0;
	return -EINVAL;
}

int rdp_mesh_plan_check(const struct rdp_mesh_plan_opts *o, char *why,
			size_t len)
{
	if ((unsigned int)o->pattern >= N_PATTERNS)
		snprintf(why, len, "unknown mesh pattern %u",
			 (unsigned int)o->pattern);
	else if (o->nodes && (o->nodes < RDP_MESH_MIN_NODES ||
			      o->nodes > RDP_MESH_PLAN_MAX_NODES))
		snprintf(why, len,
			 "a mesh has %d to %d nodes, not %u: run one rank a "
			 "node and rail",
			 RDP_MESH_MIN_NODES, RDP_MESH_PLAN_MAX_NODES, o->nodes);
	else if (o->permutations && !patterns[o->pattern].permutations)
		snprintf(why, len,
			 "--permutations applies to --pattern bisection or "
			 "quick");
	else if (o->permutations > RDP_MESH_MAX_PERMUTATIONS)
		snprintf(why, len, "--permutations takes at most %d",
			 RDP_MESH_MAX_PERMUTATIONS);
	else if (too_many_matchings(o, why, len) || bad_groups(o, why, len) ||
		 rdp_mesh_cover_check(o, why, len) ||
		 rdp_mesh_incast_check(o, why, len))
		;
	else if (o->bidir && o->pattern == RDP_MESH_RING_SHIFT)
		snprintf(why, len,
			 "-b does not apply to ring-shift, whose nodes send "
			 "and receive at once already");
	else if (o->bidir && !patterns[o->pattern].directed)
		snprintf(why, len,
			 "-b does not apply to %s, whose transfers go one way "
			 "to load the receivers",
			 patterns[o->pattern].name);
	else
		return 0;
	return -EINVAL;
}

/* The plan's own options: counted nodes, then the shared check. */
static int check_opts(const struct rdp_mesh_plan_opts *o)
{
	char why[256];

	if (!o->nodes)
		return -EINVAL;
	return rdp_mesh_plan_check(o, why, sizeof(why));
}

/* Pairwise: N-1 pairings (N odd: N, each node resting once). */
static int size_pairwise(struct rdp_mesh_plan *p)
{
	p->pairings = rdp_mesh_circle_pairings(p->o.nodes);
	return 0;
}

static int size_ring_shift(struct rdp_mesh_plan *p)
{
	p->rounds = p->o.nodes - 1;
	return 0;
}

int rdp_mesh_plan_create(const struct rdp_mesh_plan_opts *o,
			 struct rdp_mesh_plan **out)
{
	const struct pattern *pat;
	struct rdp_mesh_plan *p;
	int ret;

	if (check_opts(o))
		return -EINVAL;
	pat = &patterns[o->pattern];
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->o = *o;
	ret = pat->size(p);
	if (ret) {
		rdp_mesh_plan_free(p);
		return ret;
	}
	if (pat->directed)
		p->rounds = p->pairings * (o->bidir ? 1 : 2);
	*out = p;
	return 0;
}

void rdp_mesh_plan_free(struct rdp_mesh_plan *p)
{
	if (!p)
		return;
	free(p->order);
	rdp_mesh_cover_free(p);
	free(p);
}

const struct rdp_mesh_plan_opts *
rdp_mesh_plan_opts(const struct rdp_mesh_plan *p)
{
	return &p->o;
}

size_t rdp_mesh_plan_rounds(const struct rdp_mesh_plan *p)
{
	return p->rounds;
}

size_t rdp_mesh_plan_width(const struct rdp_mesh_plan *p)
{
	const struct pattern *pat = &patterns[p->o.pattern];

	if (pat->width_own)
		return pat->width(p, 0);
	return pat->width_all ? p->o.nodes : p->o.nodes / 2;
}

unsigned int rdp_mesh_plan_fan(const struct rdp_mesh_plan *p, int in)
{
	const struct pattern *pat = &patterns[p->o.pattern];

	return pat->fan ? pat->fan(p, in) : 1;
}

int rdp_mesh_plan_directed(const struct rdp_mesh_plan *p)
{
	return patterns[p->o.pattern].directed;
}

size_t rdp_mesh_plan_pairing_width(const struct rdp_mesh_plan *p, size_t r)
{
	return patterns[p->o.pattern].width(p, r);
}

/* Pairing r of the circle method over the N nodes. */
static size_t circle(const struct rdp_mesh_plan *p, size_t r,
		     struct rdp_mesh_xfer *x)
{
	unsigned int n = p->o.nodes, i, a, b;
	size_t k = 0;

	for (i = 0; i < (n + 1) / 2; i++)
		if (rdp_mesh_circle_pair(n, (unsigned int)r, i, &a, &b))
			x[k++] = (struct rdp_mesh_xfer){ a, b, 0 };
	return k;
}

/* Every pairing of pairwise, bisection and quick: N/2 transfers. */
static size_t width_half(const struct rdp_mesh_plan *p, size_t r)
{
	(void)r;
	return p->o.nodes / 2;
}

static size_t width_all(const struct rdp_mesh_plan *p, size_t r)
{
	(void)r;
	return p->o.nodes;
}

/* Shift r+1: every node sends to i+r+1 and receives from i-r-1. */
static size_t shift(const struct rdp_mesh_plan *p, size_t r,
		    struct rdp_mesh_xfer *x)
{
	unsigned int n = p->o.nodes, i;

	for (i = 0; i < n; i++)
		x[i] = (struct rdp_mesh_xfer){ i,
					       (unsigned int)((i + r + 1) % n),
					       0 };
	return n;
}

size_t rdp_mesh_plan_round(const struct rdp_mesh_plan *p, size_t k,
			   struct rdp_mesh_xfer *x)
{
	const struct pattern *pat = &patterns[p->o.pattern];
	size_t per = p->o.bidir ? 1 : 2, cnt, j;
	unsigned int t;

	if (k >= p->rounds)
		return 0;
	if (!pat->directed)
		return pat->round(p, k, x);
	cnt = pat->round(p, k / per, x);
	for (j = 0; j < cnt; j++) {
		x[j].both = p->o.bidir;
		if (k % per) { /* the second sub-round: B->A */
			t = x[j].tx;
			x[j].tx = x[j].rx;
			x[j].rx = t;
		}
	}
	return cnt;
}

static const char *directions(const struct rdp_mesh_plan *p)
{
	return p->o.bidir ? "both directions at once"
			  : "each as two rounds, A->B then B->A";
}

static const char *rests(const struct rdp_mesh_plan *p)
{
	return p->o.nodes % 2 ? " (odd: one node rests in each)" : "";
}

static void head_pairwise(const struct rdp_mesh_plan *p, FILE *f)
{
	fprintf(f, "%zu pairings%s, %s\n", p->pairings, rests(p),
		directions(p));
}

static void head_bisection(const struct rdp_mesh_plan *p, FILE *f)
{
	fprintf(f, "i<->i+%u and %u random matchings (seed %llu)%s, %s\n",
		p->o.nodes / 2, p->o.permutations,
		(unsigned long long)p->o.seed, rests(p), directions(p));
}

static void head_quick(const struct rdp_mesh_plan *p, FILE *f)
{
	fprintf(f,
		"a quick pass, i<->i+%u and %u random matchings (seed %llu)%s, "
		"%s; bad cells are retested in halving rounds\n",
		p->o.nodes / 2, p->o.permutations,
		(unsigned long long)p->o.seed, rests(p), directions(p));
}

static void head_ring_shift(const struct rdp_mesh_plan *p, FILE *f)
{
	fprintf(f, "shifts +1..+%u, each node sending and receiving at once\n",
		p->o.nodes - 1);
}

static const struct pattern patterns[N_PATTERNS] = {
	[RDP_MESH_PAIRWISE] = { .name = "pairwise",
				.size = size_pairwise,
				.round = circle,
				.width = width_half,
				.head = head_pairwise,
				.directed = 1 },
	[RDP_MESH_BISECTION] = { .name = "bisection",
				 .size = rdp_mesh_matchings_draw,
				 .round = rdp_mesh_matching_round,
				 .width = width_half,
				 .head = head_bisection,
				 .directed = 1,
				 .permutations = 1 },
	[RDP_MESH_RING_SHIFT] = { .name = "ring-shift",
				  .size = size_ring_shift,
				  .round = shift,
				  .width = width_all,
				  .head = head_ring_shift,
				  .width_all = 1,
				  .labels_shift = 1 },
	[RDP_MESH_GROUPED] = { .name = "grouped",
			       .size = rdp_mesh_grouped_size,
			       .round = rdp_mesh_grouped_round,
			       .width = rdp_mesh_grouped_width,
			       .head = rdp_mesh_grouped_head,
			       .directed = 1,
			       .groups = 1 },
	[RDP_MESH_QUICK] = { .name = "quick",
			     .size = rdp_mesh_matchings_draw,
			     .round = rdp_mesh_matching_round,
			     .width = width_half,
			     .head = head_quick,
			     .directed = 1,
			     .permutations = 1 },
	[RDP_MESH_COVER] = { .name = "cover",
			     .size = rdp_mesh_cover_size,
			     .round = rdp_mesh_cover_round,
			     .width = rdp_mesh_cover_width,
			     .head = rdp_mesh_cover_head,
			     .directed = 1 },
	[RDP_MESH_INCAST] = { .name = "incast",
			      .size = rdp_mesh_incast_size,
			      .round = rdp_mesh_incast_round,
			      .width = rdp_mesh_incast_width,
			      .head = rdp_mesh_incast_head,
			      .fan = rdp_mesh_incast_fan,
			      .width_own = 1 },
	[RDP_MESH_ALLTOALL] = { .name = "alltoall",
				.size = rdp_mesh_alltoall_size,
				.round = rdp_mesh_alltoall_round,
				.width = rdp_mesh_alltoall_width,
				.head = rdp_mesh_alltoall_head,
				.fan = rdp_mesh_alltoall_fan,
				.width_own = 1 },
};

void rdp_mesh_plan_head(const struct rdp_mesh_plan *p, FILE *f)
{
	fprintf(f, "%s plan for %u nodes, %zu rounds: ",
		rdp_mesh_pattern_name(p->o.pattern), p->o.nodes, p->rounds);
	patterns[p->o.pattern].head(p, f);
}

static void print_round(const struct rdp_mesh_plan *p, size_t k,
			const struct rdp_mesh_xfer *x, size_t cnt,
			unsigned char *busy, FILE *f)
{
	struct rdp_mesh_xfer v;
	unsigned int i;
	size_t j;

	fprintf(f, "round %zu", k + 1);
	if (patterns[p->o.pattern].labels_shift)
		fprintf(f, " (+%zu)", k + 1);
	fputc(':', f);
	memset(busy, 0, p->o.nodes);
	for (j = 0; j < cnt; j++) {
		fprintf(f, " %u%s%u", x[j].tx, x[j].both ? "<->" : "->",
			x[j].rx);
		busy[x[j].tx] = busy[x[j].rx] = 1;
	}
	if (rdp_mesh_plan_victim(p, k, &v)) {
		fprintf(f, " victim %u->%u", v.tx, v.rx);
		busy[v.tx] = 1;
	}
	for (i = 0; i < p->o.nodes; i++)
		if (!busy[i])
			fprintf(f, " bye %u", i);
	fputc('\n', f);
}

/* Round by round: a plan of 100 000 nodes streams out in O(N) memory. */
int rdp_mesh_plan_print(const struct rdp_mesh_plan *p, FILE *f)
{
	struct rdp_mesh_xfer *x = calloc(rdp_mesh_plan_width(p), sizeof(*x));
	unsigned char *busy = malloc(p->o.nodes);
	size_t k;
	int ret = -ENOMEM;

	if (x && busy) {
		rdp_mesh_plan_head(p, f);
		for (k = 0; k < p->rounds && !ferror(f); k++)
			print_round(p, k, x, rdp_mesh_plan_round(p, k, x), busy,
				    f);
		ret = ferror(f) ? -EIO : 0;
	}
	free(busy);
	free(x);
	return ret;
}

int rdp_mesh_retest_schedule(const struct rdp_mesh_xfer *x, size_t n,
			     unsigned int nodes, unsigned int *round_of,
			     unsigned int *rounds)
{
	unsigned int *stamp, r = 0; /* stamp: the round a node is busy in, +1 */
	size_t i, left = n;

	for (i = 0; i < n; i++)
		if (x[i].tx >= nodes || x[i].rx >= nodes || x[i].tx == x[i].rx)
			return -EINVAL;
	stamp = calloc(nodes ? nodes : 1, sizeof(*stamp));
	if (!stamp)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		round_of[i] = UINT_MAX;
	/* Each pass fills one round; the first transfer left always fits. */
	for (; left; r++)
		for (i = 0; i < n; i++) {
			if (round_of[i] != UINT_MAX ||
			    stamp[x[i].tx] == r + 1 || stamp[x[i].rx] == r + 1)
				continue;
			stamp[x[i].tx] = stamp[x[i].rx] = r + 1;
			round_of[i] = r;
			left--;
		}
	free(stamp);
	*rounds = r;
	return 0;
}
