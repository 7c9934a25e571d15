/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --retest in a run: rank 0 picks the pairs of the flagged and failed
 * cells (not the pruned nodes') and their rounds; every rank learns them.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdmaperf/boot.h>
#include <rdmaperf/log.h>
#include <rdmaperf/mesh_run.h>

void rdp_mesh_retests_free(struct rdp_mesh_retests *rt)
{
	free(rt->re);
	free(rt->round);
	memset(rt, 0, sizeof(*rt));
}

/* Rank 0: the pairs of the flagged and failed cells, and their rounds. */
static int pick(struct rdp_mesh *m, const struct rdp_mesh_limits *l,
		const unsigned char *left_out, unsigned int nodes,
		struct rdp_mesh_retests *rt)
{
	int ret = rdp_mesh_analyze(m, l);
	size_t i, n = 0;

	if (ret > 0)
		ret = rdp_mesh_retest_pairs(m, &rt->re, &rt->n);
	if (ret < 0)
		return ret;
	/* Not the pruned nodes': each would cost a timeout again. */
	for (i = 0; i < rt->n; i++)
		if (!left_out[rt->re[i].tx] && !left_out[rt->re[i].rx])
			rt->re[n++] = rt->re[i];
	rt->n = n;
	rt->round = calloc(rt->n ? rt->n : 1, sizeof(*rt->round));
	if (!rt->round)
		return -ENOMEM;
	return rdp_mesh_retest_schedule(rt->re, rt->n, nodes, rt->round,
					&rt->rounds);
}

/* Every rank: the retests as (tx, rx, both, round) words from rank 0. */
static int share(struct rdp_boot *b, const uint32_t *head, int timeout_ms,
		 struct rdp_mesh_retests *rt)
{
	uint32_t *w = calloc((size_t)head[0] * 4, sizeof(*w));
	size_t i;
	int ret;

	if (b->rank) {
		rdp_mesh_retests_free(rt);
		rt->re = calloc(head[0], sizeof(*rt->re));
		rt->round = calloc(head[0], sizeof(*rt->round));
	}
	/* Out of memory on one rank: the others time out in the bcast. */
	if (!w || !rt->re || !rt->round) {
		free(w);
		return -ENOMEM;
	}
	for (i = 0; !b->rank && i < head[0]; i++) {
		w[4 * i] = rt->re[i].tx;
		w[4 * i + 1] = rt->re[i].rx;
		w[4 * i + 2] = (uint32_t)rt->re[i].both;
		w[4 * i + 3] = rt->round[i];
	}
	ret = b->ops->bcast(b, w, (size_t)head[0] * 4 * sizeof(*w), timeout_ms);
	for (i = 0; !ret && b->rank && i < head[0]; i++) {
		rt->re[i] = (struct rdp_mesh_xfer){ .tx = w[4 * i],
						    .rx = w[4 * i + 1],
						    .both = (int)w[4 * i + 2] };
		rt->round[i] = w[4 * i + 3];
	}
	free(w);
	return ret;
}

int rdp_mesh_retests_share(struct rdp_boot *b, struct rdp_mesh *m,
			   const struct rdp_mesh_limits *l,
			   const unsigned char *left_out, unsigned int nodes,
			   int timeout_ms, struct rdp_mesh_retests *rt)
{
	uint32_t head[2] = { 0 };
	int ret = 0;

	if (!b->rank && (ret = pick(m, l, left_out, nodes, rt)) < 0) {
		rdp_warn("mesh: no retest: %s", strerror(-ret));
		rt->n = rt->rounds = 0;
	}
	head[0] = (uint32_t)rt->n;
	head[1] = rt->rounds;
	ret = b->ops->bcast(b, head, sizeof(head), timeout_ms);
	if (ret || !head[0]) {
		rt->n = rt->rounds = 0;
		return ret;
	}
	ret = share(b, head, timeout_ms, rt);
	rt->n = head[0];
	rt->rounds = head[1];
	if (!ret && !b->rank)
		printf("mesh: %zu pair(s) run again in %u round(s)\n", rt->n,
		       rt->rounds);
	return ret;
}
