/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --retest in a run: rank 0 picks the pairs of the flagged and failed
 * cells (not the pruned nodes') and their rounds, or for a quick pass
 * each halving round in turn; every rank learns them, the run measures.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rdmaperf/boot.h>
#include <rdmaperf/log.h>
#include <rdmaperf/mesh_run.h>

#include "mesh_int.h"

void rdp_mesh_retests_free(struct rdp_mesh_retests *rt)
{
	free(rt->re);
	free(rt->round);
	if (rt->quick) {
		free(rt->quick->start);
		free(rt->quick->now);
		free(rt->quick);
	}
	memset(rt, 0, sizeof(*rt));
}

int rdp_mesh_retests_add(const struct rdp_mesh_retests *rt, struct rdp_mesh *m,
			 const struct rdp_mesh_cell *c)
{
	int ret;

	if (c->round >= rt->plan_rounds &&
	    c->round < rt->plan_rounds + rt->quick_rounds)
		return rdp_mesh_add_retest_new(m, c);
	ret = rdp_mesh_add_retest(m, c);
	return ret == -ENOENT ? 0 : ret;
}

/* Room for add more transfers in rt. */
static int grow(struct rdp_mesh_retests *rt, size_t add)
{
	size_t want = rt->n + add ? rt->n + add : 1;
	struct rdp_mesh_xfer *re = realloc(rt->re, want * sizeof(*re));
	unsigned int *round;

	if (!re)
		return -ENOMEM;
	rt->re = re;
	round = realloc(rt->round, want * sizeof(*round));
	if (!round)
		return -ENOMEM;
	rt->round = round;
	return 0;
}

/* x (n of them), each in round `round` past rt's transfers (rank 0). */
static int append(struct rdp_mesh_retests *rt, const struct rdp_mesh_xfer *x,
		  const unsigned int *round, size_t n)
{
	size_t i;
	int ret = grow(rt, n);

	for (i = 0; !ret && i < n; i++) {
		rt->re[rt->n + i] = x[i];
		rt->round[rt->n + i] = round[i];
	}
	return ret;
}

/* Every rank: rank 0's head[0] transfers past rt->n as (tx, rx, both,
 * round) words; head[1] the rounds in all then. */
static int share(struct rdp_boot *b, const uint32_t *head, int timeout_ms,
		 struct rdp_mesh_retests *rt)
{
	size_t i, n = head[0];
	uint32_t *w = calloc(n ? n * 4 : 1, sizeof(*w));
	int ret = b->rank ? grow(rt, n) : 0;

	/* Out of memory on one rank: the others time out in the bcast. */
	if (!w || ret) {
		free(w);
		return -ENOMEM;
	}
	for (i = 0; !b->rank && i < n; i++) {
		w[4 * i] = rt->re[rt->n + i].tx;
		w[4 * i + 1] = rt->re[rt->n + i].rx;
		w[4 * i + 2] = (uint32_t)rt->re[rt->n + i].both;
		w[4 * i + 3] = rt->round[rt->n + i];
	}
	ret = b->ops->bcast(b, w, n * 4 * sizeof(*w), timeout_ms);
	for (i = 0; !ret && b->rank && i < n; i++) {
		rt->re[rt->n + i] =
			(struct rdp_mesh_xfer){ .tx = w[4 * i],
						.rx = w[4 * i + 1],
						.both = (int)w[4 * i + 2] };
		rt->round[rt->n + i] = w[4 * i + 3];
	}
	free(w);
	if (!ret) {
		rt->n += n;
		rt->rounds = head[1];
	}
	return ret;
}

/* Rank 0: the pairs of the flagged and failed cells, less those of the
 * nodes left_out, each in a round past rt's, appended to rt (not yet
 * counted in rt->n): *added of them in *rounds rounds. */
static int pick(struct rdp_mesh *m, const struct rdp_mesh_limits *l,
		const unsigned char *left_out, unsigned int nodes,
		struct rdp_mesh_retests *rt, size_t *added,
		unsigned int *rounds)
{
	struct rdp_mesh_xfer *x = NULL;
	unsigned int *round = NULL;
	size_t i, n = 0, k = 0;
	int ret = rdp_mesh_analyze(m, l);

	*rounds = 0;
	if (ret > 0)
		ret = rdp_mesh_retest_pairs(m, &x, &n);
	/* Not the pruned nodes': each would cost a timeout again. */
	for (i = 0; ret >= 0 && i < n; i++)
		if (!left_out[x[i].tx] && !left_out[x[i].rx])
			x[k++] = x[i];
	if (ret >= 0 && !(round = calloc(k ? k : 1, sizeof(*round))))
		ret = -ENOMEM;
	if (ret >= 0)
		ret = rdp_mesh_retest_schedule(x, k, nodes, round, rounds);
	for (i = 0; ret >= 0 && i < k; i++)
		round[i] += rt->rounds;
	if (ret >= 0)
		ret = append(rt, x, round, k);
	free(x);
	free(round);
	*added = ret < 0 ? 0 : k;
	return ret < 0 ? ret : 0;
}

/* Rank 0's head {transfers, rounds in all} on every rank, then the
 * transfers; *n how many (0: none). */
static int share_head(const struct rdp_mesh_retest_ctx *c, uint32_t *head,
		      struct rdp_mesh_retests *rt)
{
	int ret = c->boot->ops->bcast(c->boot, head, 2 * sizeof(*head),
				      c->mo->round_timeout_ms);

	if (ret || !head[0])
		return ret;
	return share(c->boot, head, c->mo->round_timeout_ms, rt);
}

/* The flagged and failed cells' pairs (less left_out's), picked, shared
 * and run: 0, 1 stopped by the time budget, -errno. */
static int retest_pairs(const struct rdp_mesh_retest_ctx *c,
			const unsigned char *left_out, int wait,
			struct rdp_mesh_retests *rt)
{
	uint32_t head[2] = { 0, rt->rounds };
	unsigned int first = rt->rounds, rounds = 0;
	size_t added = 0;
	int ret = 0;

	if (!c->boot->rank) {
		ret = pick(c->mesh, &c->mo->limits, left_out, c->nodes, rt,
			   &added, &rounds);
		if (ret)
			rdp_warn("mesh: no retest: %s", strerror(-ret));
		head[0] = (uint32_t)added;
		head[1] = rt->rounds + rounds;
	}
	ret = share_head(c, head, rt);
	if (ret || !head[0])
		return ret;
	if (!c->boot->rank)
		printf("mesh: %u pair(s) run again in %u round(s)\n", head[0],
		       head[1] - first);
	if (wait && c->mo->retest_wait_s)
		sleep(c->mo->retest_wait_s); /* every rank, the same */
	return c->run(c->arg, first, rt->rounds);
}

/* Rank 0: the nodes of the pass's bad cells suspects, the pruned ones
 * faulty (they are the named fault already), into rt->quick. */
static int quick_start(const struct rdp_mesh_retest_ctx *c,
		       struct rdp_mesh_retests *rt)
{
	struct rdp_mesh_quick *q = calloc(1, sizeof(*q));
	struct rdp_mesh_xfer *x = NULL;
	size_t n = 0, bytes = (size_t)c->nodes * sizeof(*q->start);
	unsigned int i;
	int ret;

	if (!q)
		return -ENOMEM;
	rt->quick = q;
	q->nodes = c->nodes;
	q->max_rounds = rdp_mesh_quick_max_rounds(c->nodes);
	q->start = malloc(bytes);
	q->now = malloc(bytes);
	if (!q->start || !q->now)
		return -ENOMEM;
	ret = rdp_mesh_analyze(c->mesh, &c->mo->limits);
	if (ret > 0)
		ret = rdp_mesh_retest_pairs(c->mesh, &x, &n);
	if (ret >= 0)
		ret = rdp_mesh_quick_suspects(x, n, c->nodes, q->start);
	free(x);
	for (i = 0; ret >= 0 && i < c->nodes; i++)
		if (c->left_out[i])
			q->start[i] = RDP_MESH_QUICK_FAULTY;
	if (ret >= 0)
		memcpy(q->now, q->start, bytes);
	return ret < 0 ? ret : 0;
}

/* Whether retest cell r is one of x's transfers (either way when both). */
static int is_of(const struct rdp_mesh_cell *r, const struct rdp_mesh_xfer *x)
{
	return (r->tx == x->tx && r->rx == x->rx) ||
	       (x->both && r->tx == x->rx && r->rx == x->tx);
}

/*
 * Rank 0, after halving round k (of rt, its transfers from `from` on):
 * a transfer is bad when a cell of it (any rail, either way) is flagged
 * or failed; one with no cell (a node pruned meanwhile) is not judged.
 * The nodes pruned meanwhile are faulty.
 */
static int quick_judge(const struct rdp_mesh_retest_ctx *c,
		       struct rdp_mesh_retests *rt, size_t from, unsigned int k)
{
	size_t n = rt->n - from, i, j, seen = 0;
	struct rdp_mesh_xfer *x = malloc((n ? n : 1) * sizeof(*x));
	int *bad = calloc(n ? n : 1, sizeof(*bad));
	const struct rdp_mesh_cell *r;
	char *met = calloc(n ? n : 1, 1);
	int ret = -ENOMEM;

	if (x && bad && met)
		ret = rdp_mesh_analyze(c->mesh, &c->mo->limits);
	for (j = 0; ret >= 0 && j < rdp_mesh_n_retests(c->mesh); j++) {
		r = rdp_mesh_retest_at(c->mesh, j);
		for (i = 0; r->round == c->plan_rounds + k && i < n; i++)
			if (is_of(r, &rt->re[from + i])) {
				met[i] = 1;
				bad[i] |= rdp_mesh_bad(r);
			}
	}
	for (i = 0; ret >= 0 && i < n; i++)
		if (met[i]) {
			x[seen] = rt->re[from + i];
			bad[seen++] = bad[i];
		}
	if (ret >= 0)
		ret = rdp_mesh_quick_judge(rt->quick->now, c->nodes, x, bad,
					   seen);
	for (i = 0; ret >= 0 && i < c->nodes; i++)
		if (c->left_out[i])
			rt->quick->now[i] = RDP_MESH_QUICK_FAULTY;
	free(x);
	free(bad);
	free(met);
	return ret < 0 ? ret : 0;
}

/* Rank 0: the next halving round appended to rt; *n its transfers (0:
 * done, or the bound reached). */
static int quick_pick(const struct rdp_mesh_retest_ctx *c,
		      struct rdp_mesh_retests *rt, size_t *n)
{
	const struct rdp_mesh_quick *q = rt->quick;
	struct rdp_mesh_xfer *x = calloc(c->nodes / 2 + 1, sizeof(*x));
	unsigned int *round = calloc(c->nodes / 2 + 1, sizeof(*round));
	size_t i;
	int ret = x && round ? 0 : -ENOMEM;

	*n = 0;
	if (!ret && q->rounds < q->max_rounds)
		*n = rdp_mesh_quick_round(q->now, c->nodes, q->rounds,
					  c->mo->plan.bidir, x);
	for (i = 0; i < *n; i++)
		round[i] = rt->rounds;
	if (!ret)
		ret = append(rt, x, round, *n);
	free(x);
	free(round);
	return ret;
}

/* One halving round picked, shared, run and judged: 0 and *more when
 * another may follow, 1 stopped by the time budget, -errno. */
static int quick_round(const struct rdp_mesh_retest_ctx *c,
		       struct rdp_mesh_retests *rt, int *more)
{
	uint32_t head[2] = { 0, rt->rounds };
	size_t n = 0, from = rt->n;
	int ret = 0;

	*more = 0;
	if (!c->boot->rank && rt->quick && (ret = quick_pick(c, rt, &n)))
		rdp_warn("mesh: quick retest: %s", strerror(-ret));
	head[0] = (uint32_t)n;
	head[1] = rt->rounds + (n > 0);
	ret = share_head(c, head, rt);
	if (ret || !head[0])
		return ret;
	if (!rt->quick_rounds && c->mo->retest_wait_s)
		sleep(c->mo->retest_wait_s); /* every rank, the same */
	rt->quick_rounds = rt->rounds;
	ret = c->run(c->arg, rt->rounds - 1, rt->rounds);
	if (ret)
		return ret;
	if (!c->boot->rank) {
		rt->quick->rounds++;
		ret = quick_judge(c, rt, from, rt->rounds - 1);
		if (ret)
			rdp_warn("mesh: quick retest: %s", strerror(-ret));
	}
	*more = 1; /* rank 0 says when it is done, in the next head */
	return 0;
}

/* The quick pass's retest: halving rounds, then its cleared nodes' bad
 * cells run again. */
static int quick_retest(const struct rdp_mesh_retest_ctx *c,
			struct rdp_mesh_retests *rt)
{
	unsigned char *out = NULL;
	unsigned int i, first;
	int ret = 0, more = 1;

	if (!c->boot->rank && (ret = quick_start(c, rt))) {
		rdp_warn("mesh: quick retest: %s", strerror(-ret));
		rdp_mesh_retests_free(rt);
		rt->plan_rounds = c->plan_rounds;
	}
	while (more && !(ret = quick_round(c, rt, &more)))
		;
	/* What the halving left GOOD: its bad cells on their own figures. */
	if (!ret && !c->boot->rank && rt->quick) {
		out = malloc(c->nodes);
		for (i = 0; out && i < c->nodes; i++)
			out[i] = c->left_out[i] ||
				 rt->quick->now[i] != RDP_MESH_QUICK_GOOD;
	}
	first = rt->rounds;
	if (!ret)
		ret = retest_pairs(c, out ? out : c->left_out,
				   !rt->quick_rounds, rt);
	free(out);
	if (!c->boot->rank && rt->quick) {
		rt->quick->confirm_rounds = rt->rounds - first;
		rdp_mesh_set_quick(c->mesh, rt->quick);
	}
	return ret > 0 ? 0 : ret;
}

int rdp_mesh_retest_run(const struct rdp_mesh_retest_ctx *c,
			struct rdp_mesh_retests *rt)
{
	int ret;

	rt->plan_rounds = c->plan_rounds;
	if (c->mo->plan.pattern == RDP_MESH_QUICK)
		return quick_retest(c, rt);
	ret = retest_pairs(c, c->left_out, 1, rt);
	return ret > 0 ? 0 : ret;
}
