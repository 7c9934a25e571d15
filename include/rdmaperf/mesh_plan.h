/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The schedule of a cluster mesh: which node sends to which in each round,
 * so that no node is in two tests of one round. Nodes are numbered
 * 0..N-1; a transfer between two nodes runs on every rail, rail matched to
 * rail, so the plan knows nodes only.
 * Layer: mesh
 */
#ifndef RDMAPERF_MESH_PLAN_H
#define RDMAPERF_MESH_PLAN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define RDP_MESH_MIN_NODES	  2
#define RDP_MESH_MAX_NODES	  4096
#define RDP_MESH_MAX_PERMUTATIONS 1024

enum rdp_mesh_pattern {
	/*
	 * The circle method: node N-1 (even N) stays, the others turn one
	 * place a pairing, so every node pair meets exactly once in N-1
	 * pairings. Odd N adds a ghost node; whoever meets it sits the
	 * pairing out (its bye), which takes N pairings, not N-1, each node
	 * resting once.
	 */
	RDP_MESH_PAIRWISE,
	/* i <-> i+N/2 (odd N: node N-1 rests), then `permutations`
	 * random perfect matchings drawn from `seed`. */
	RDP_MESH_BISECTION,
	/* For D = 1..N-1: each node sends to i+D and receives from i-D
	 * (mod N) in the same round, as mpiGraph does. */
	RDP_MESH_RING_SHIFT,
};

struct rdp_mesh_plan_opts {
	enum rdp_mesh_pattern pattern;
	unsigned int nodes;	   /* RDP_MESH_MIN_NODES..MAX_NODES */
	unsigned int permutations; /* bisection only: random matchings */
	uint64_t seed;		   /* of those matchings */
	/*
	 * Pairwise and bisection: both directions of a pair in one round.
	 * Without it each pairing is two rounds, A->B then B->A, since
	 * faults are often one-directional. Ring-shift refuses it.
	 */
	int bidir;
};

/* One test of a round: tx sends to rx; both: rx sends to tx too, at the
 * same time. */
struct rdp_mesh_xfer {
	unsigned int tx, rx;
	int both;
};

struct rdp_mesh_plan;

/* "pairwise", "bisection", "ring-shift". */
const char *rdp_mesh_pattern_name(enum rdp_mesh_pattern p);
/* The pattern a name means; -EINVAL for any other name. */
int rdp_mesh_pattern_parse(const char *name, enum rdp_mesh_pattern *out);
/* The same, with one line in why naming every pattern on -EINVAL. */
int rdp_mesh_pattern_check(const char *name, enum rdp_mesh_pattern *out,
			   char *why, size_t len);
/*
 * Whether o can be planned, decided once for `rdmaperf mesh --plan` and
 * rdmaperf-mesh: --permutations on bisection only and within range, -b
 * not on ring-shift, the node count when known (0: not counted yet).
 * 0, or -EINVAL with one line in why.
 */
int rdp_mesh_plan_check(const struct rdp_mesh_plan_opts *o, char *why,
			size_t len);

/*
 * The plan of o; -EINVAL (nodes out of range, permutations on a pattern
 * other than bisection, bidir on ring-shift) or -ENOMEM. Rounds are made
 * when asked for, so a plan of 4096 nodes takes little memory; the random
 * matchings are drawn here, from o->seed alone, the same on every host.
 */
int rdp_mesh_plan_create(const struct rdp_mesh_plan_opts *o,
			 struct rdp_mesh_plan **out);
void rdp_mesh_plan_free(struct rdp_mesh_plan *p);

const struct rdp_mesh_plan_opts *
rdp_mesh_plan_opts(const struct rdp_mesh_plan *p);
/*
 * Rounds in all: pairwise N-1 pairings for even N, N for odd N; bisection
 * 1 + permutations matchings; each times 2 without bidir. Ring-shift N-1.
 */
size_t rdp_mesh_plan_rounds(const struct rdp_mesh_plan *p);
/* The most transfers a round holds: N/2, or N for ring-shift. */
size_t rdp_mesh_plan_width(const struct rdp_mesh_plan *p);
/*
 * Round k (0-based) into x, which holds rdp_mesh_plan_width() entries;
 * returns how many it filled (0 when k is past the last round).
 */
size_t rdp_mesh_plan_round(const struct rdp_mesh_plan *p, size_t k,
			   struct rdp_mesh_xfer *x);

/*
 * The plan as text: a line saying what it is, then one line a round,
 * "round 1: 0->3 1->2 bye 4" ("0<->3" both ways at once). 0, or -EIO
 * when f fails, -ENOMEM.
 */
int rdp_mesh_plan_print(const struct rdp_mesh_plan *p, FILE *f);

/*
 * The rounds that run transfers again (--retest): each of the n transfers
 * of x gets a round in round_of[] (0-based), greedily in order, so that no
 * node is in two transfers of one round. *rounds: how many (0 for n 0).
 * -EINVAL (a node at or past `nodes`, tx == rx) or -ENOMEM.
 */
int rdp_mesh_retest_schedule(const struct rdp_mesh_xfer *x, size_t n,
			     unsigned int nodes, unsigned int *round_of,
			     unsigned int *rounds);

#endif /* RDMAPERF_MESH_PLAN_H */
