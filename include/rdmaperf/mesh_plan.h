/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The schedule of a cluster mesh: which node sends to which in each round,
 * so that no node is in two tests of one round. Nodes are numbered
 * 0..N-1; a transfer between two nodes runs on every rail, rail matched to
 * rail, so the plan knows nodes only. Also what a plan costs (--estimate,
 * --time-budget) and the retest rounds of a quick pass.
 * Layer: mesh
 */
#ifndef RDMAPERF_MESH_PLAN_H
#define RDMAPERF_MESH_PLAN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define RDP_MESH_MIN_NODES 2
/* The most nodes a plan has (rdmaperf mesh --plan); rounds are made when
 * asked, so a plan takes O(N) memory, O(K x N) with K matchings. */
#define RDP_MESH_PLAN_MAX_NODES 100000
/* The most nodes rdmaperf-mesh runs (rdp_mesh_group): its cells are kept
 * in node x node matrices. */
#define RDP_MESH_MAX_NODES	  4096
#define RDP_MESH_MAX_PERMUTATIONS 1024
/* An estimate's default per-round overhead: set-up, teardown and barriers,
 * in seconds. The 4-device Soft-RoCE bed measured 0.13-0.17 s with kept
 * resources and -Q 1, and 0.08-0.1 s a round at the default -Q once the
 * bandwidth loop's end was tapered to its deadline (0.6-1.1 s before):
 * bench-results/mesh-round-overhead.md. More ranks on the bed's two
 * emulated CPUs cost more (bench-results/mesh-estimate-vs-measured.md). */
#define RDP_MESH_ROUND_OVERHEAD_S 0.5

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
	 * random perfect matchings drawn from `seed`, none drawn twice. */
	RDP_MESH_BISECTION,
	/* For D = 1..N-1: each node sends to i+D and receives from i-D
	 * (mod N) in the same round, as mpiGraph does. */
	RDP_MESH_RING_SHIFT,
	/*
	 * Groups of `group_size` (G) consecutive nodes, the last one shorter
	 * when G does not divide N. First the circle method inside every
	 * group at once (G-1 pairings, G for odd G); then the groups meet by
	 * the circle method over groups (groups-1 pairings, groups for an
	 * odd count, one group resting), two meeting groups joined by a
	 * perfect matching of their nodes, rotated by an offset drawn from
	 * `seed`. Every node meets every node of its group once and every
	 * full group once; facing the short group of s nodes, s nodes of a
	 * group meet it and the others rest.
	 */
	RDP_MESH_GROUPED,
	/* A quick pass: the rounds of bisection with `permutations`;
	 * its bad cells are retested by rdp_mesh_quick_round(). */
	RDP_MESH_QUICK,
	/*
	 * Every node cable and every leaf's uplinks loaded, in few rounds
	 * (plan_cover.c): nodes in leaf groups (cover_group), each group
	 * sending cover_quota of its nodes across the spines a pairing, in
	 * turn, the others pairing inside their group. Needs the fabric:
	 * rdp_mesh_cover_of() (mesh_topo.h) fills the cover fields.
	 */
	RDP_MESH_COVER,
	/*
	 * Congestion (plan_incast.c): a node in several transfers of a
	 * round. Incast: `fan_in` (K) senders into one receiver a round;
	 * round r's receiver is node r (with `rounds` R < N, node
	 * floor(r x N / R): a sample spread over the nodes), its senders
	 * the K nodes after it, v+1 .. v+K mod N, so each node sends K
	 * times in a sweep of N rounds and never to itself. With `victim`
	 * node v+K+1 sends to the receiver too, alone first, then under
	 * the load (rdp_mesh_plan_victim).
	 */
	RDP_MESH_INCAST,
	/* Every node to every other at once: N x (N-1) transfers in one
	 * round, at most RDP_MESH_ALLTOALL_MAX_NODES nodes. */
	RDP_MESH_ALLTOALL,
};

/* alltoall's bound: each rank runs N-1 sessions each way at once. */
#define RDP_MESH_ALLTOALL_MAX_NODES 1024

/* What the victim of an incast round measures: its latency (p50, p99)
 * or its bandwidth, alone and under the load. */
enum rdp_mesh_victim {
	RDP_MESH_VICTIM_NONE,
	RDP_MESH_VICTIM_LAT,
	RDP_MESH_VICTIM_BW,
};

struct rdp_mesh_plan_opts {
	enum rdp_mesh_pattern pattern;
	unsigned int nodes;	   /* RDP_MESH_MIN_NODES..PLAN_MAX_NODES */
	unsigned int permutations; /* bisection, quick: random matchings */
	unsigned int group_size;   /* grouped only: 2..N-1 */
	uint64_t seed;		   /* of those matchings, of grouped offsets */
	/*
	 * Pairwise, bisection, grouped, quick: both directions of a pair in
	 * one round. Without it each pairing is two rounds, A->B then B->A,
	 * since faults are often one-directional. Ring-shift refuses it.
	 */
	int bidir;
	/*
	 * Cover only, copied by the plan: per node its leaf group (0 ..
	 * cover_groups-1), per group how many of its nodes cross the spines
	 * in one pairing (0: none, the group pairs inside) and its leaf's
	 * uplinks (for the head line; NULL: not said), and the load they
	 * stand for, a percentage of the uplinks' rate (the head line).
	 */
	const unsigned int *cover_group;
	const unsigned int *cover_quota;
	const unsigned int *cover_uplinks;
	unsigned int cover_groups;
	unsigned int cover_load_pct;
	/* Incast only: senders into a receiver (1..N-1, needed), rounds
	 * (1..N; 0: N, every node receives once) and the victim. */
	unsigned int fan_in;
	unsigned int rounds;
	enum rdp_mesh_victim victim;
};

/* One test of a round: tx sends to rx; both: rx sends to tx too, at the
 * same time. */
struct rdp_mesh_xfer {
	unsigned int tx, rx;
	int both;
};

struct rdp_mesh_plan;

/* "pairwise", "bisection", "ring-shift", "grouped", "quick", "cover",
 * "incast", "alltoall". */
const char *rdp_mesh_pattern_name(enum rdp_mesh_pattern p);
/* The pattern a name means; -EINVAL for any other name. */
int rdp_mesh_pattern_parse(const char *name, enum rdp_mesh_pattern *out);
/* The same, with one line in why naming every pattern on -EINVAL. */
int rdp_mesh_pattern_check(const char *name, enum rdp_mesh_pattern *out,
			   char *why, size_t len);
/*
 * Whether o can be planned, decided once for `rdmaperf mesh --plan` and
 * rdmaperf-mesh: --permutations on bisection and quick only, within range
 * and below the count of distinct matchings of N nodes; --group-size on
 * grouped only (which needs it), 2..N-1; -b not on ring-shift; the node
 * count when known (0: not counted yet); cover, once the nodes are
 * counted, needs its groups (a group past cover_groups, a quota above
 * its group's nodes are refused too); --fan-in on incast only (which
 * needs it), 1..N-1; --rounds on incast only, 1..N; --victim on incast
 * only, with a node left over (K + 2 nodes); alltoall within
 * RDP_MESH_ALLTOALL_MAX_NODES; -b not on incast or alltoall. 0, or
 * -EINVAL with one line in why.
 */
int rdp_mesh_plan_check(const struct rdp_mesh_plan_opts *o, char *why,
			size_t len);

/*
 * Cover's part of a command line: --pattern cover needs --topology
 * (topology: the file given, NULL none); --load PCT (1..100; 0: not
 * given, 100) goes with cover alone. Sets o->cover_load_pct. 0, or
 * -EINVAL with one line in why.
 */
int rdp_mesh_cover_args(struct rdp_mesh_plan_opts *o, const char *topology,
			unsigned int load_pct, char *why, size_t len);

/*
 * The plan of o; -EINVAL (whatever rdp_mesh_plan_check refuses) or
 * -ENOMEM. Rounds are made when asked for; the random matchings are drawn
 * here, from o->seed alone, the same on every host: (1 + permutations) x N
 * node numbers, the only memory a plan keeps.
 */
int rdp_mesh_plan_create(const struct rdp_mesh_plan_opts *o,
			 struct rdp_mesh_plan **out);
void rdp_mesh_plan_free(struct rdp_mesh_plan *p);

const struct rdp_mesh_plan_opts *
rdp_mesh_plan_opts(const struct rdp_mesh_plan *p);
/*
 * Rounds in all, each pairing times 2 without bidir: pairwise N-1
 * pairings for even N, N for odd N; bisection and quick 1 + permutations
 * matchings; grouped (G-1 or G) + (groups-1 or groups); cover the most
 * ceil(n_g / q_g) over its groups (plan_cover.c). Ring-shift N-1.
 */
size_t rdp_mesh_plan_rounds(const struct rdp_mesh_plan *p);
/* The most transfers a round holds: N/2, or N for ring-shift, K for
 * incast, N x (N-1) for alltoall. */
size_t rdp_mesh_plan_width(const struct rdp_mesh_plan *p);
/*
 * The most transfers one node receives (in) or sends (out) in a round,
 * its victim's included: 1 for the matchings and ring-shift (a transfer
 * both ways is one session a side), K (+1 with a victim) in for incast,
 * N-1 each way for alltoall. A rank serves and sends that many sessions
 * at once.
 */
unsigned int rdp_mesh_plan_fan(const struct rdp_mesh_plan *p, int in);
/*
 * The victim of round k (incast with --victim): 1 with *v, the node
 * after the senders sending to the receiver; 0 for none.
 */
int rdp_mesh_plan_victim(const struct rdp_mesh_plan *p, size_t k,
			 struct rdp_mesh_xfer *v);
/* The measured phases of a round: 2 with a victim (alone, loaded). */
unsigned int rdp_mesh_plan_phases(const struct rdp_mesh_plan *p);
/* "lat", "bw" ("none"); and back: 0 or -EINVAL with one line in why. */
const char *rdp_mesh_victim_name(enum rdp_mesh_victim v);
int rdp_mesh_victim_parse(const char *name, enum rdp_mesh_victim *out,
			  char *why, size_t len);
/*
 * Round k (0-based) into x, which holds rdp_mesh_plan_width() entries;
 * returns how many it filled (0 when k is past the last round).
 */
size_t rdp_mesh_plan_round(const struct rdp_mesh_plan *p, size_t k,
			   struct rdp_mesh_xfer *x);

/*
 * The plan as text: a line saying what it is, then one line a round,
 * "round 1: 0->3 1->2 bye 4" ("0<->3" both ways at once; an incast
 * victim "victim 4->0"), written round by round. 0, or -EIO when f fails, -ENOMEM.
 */
int rdp_mesh_plan_print(const struct rdp_mesh_plan *p, FILE *f);
/* Its first line alone: "pairwise plan for 8 nodes, 14 rounds: ...". */
void rdp_mesh_plan_head(const struct rdp_mesh_plan *p, FILE *f);

/* What the first rounds of a plan measure, counted. */
struct rdp_mesh_plan_count {
	size_t rounds;
	uint64_t transfers; /* a transfer both ways at once counts once */
	/* Per rail, as the plan measures them: one a direction of each
	 * transfer (a cell: sender, receiver, rail, round). */
	uint64_t cells;
	uint64_t pairs_met; /* ordered node pairs in at least one cell */
	uint64_t pairs_all; /* N x (N-1) */
};

/*
 * The counts of the first `rounds` rounds of p (more than it has: all),
 * without walking the transfers: O(rounds) for every pattern but
 * bisection and quick, which look for node pairs that two matchings share
 * in O(K x N) time and memory. 0, or -ENOMEM.
 */
int rdp_mesh_plan_count(const struct rdp_mesh_plan *p, size_t rounds,
			struct rdp_mesh_plan_count *out);

/* What an estimate of a plan's wall time assumes. */
struct rdp_mesh_fit_opts {
	double round_s;	   /* -D: the measured part of a round, > 0 */
	double overhead_s; /* set-up, teardown and barriers a round, >= 0 */
	double budget_s;   /* --time-budget, > 0; 0: none */
	unsigned int rails;
};

/* One line in why and -EINVAL for a round time of 0 or less, a negative
 * overhead or budget, no rails; else 0. */
int rdp_mesh_fit_check(const struct rdp_mesh_fit_opts *f, char *why,
		       size_t len);

/* What fits a time budget. */
struct rdp_mesh_fit {
	double round_s;			 /* round_s + overhead_s */
	double wall_s;			 /* of the whole plan */
	struct rdp_mesh_plan_count all;	 /* the whole plan */
	struct rdp_mesh_plan_count fits; /* the rounds that fit: all
					  * without a budget */
	double fits_s;			 /* their wall time */
	double coverage;		 /* fits.pairs_met / pairs_all */
};

/*
 * The arithmetic of --estimate and --time-budget, for the plan's own
 * rounds in order: each takes round_s + overhead_s; the rounds that fit
 * are as many whole rounds as the budget holds (a run stops scheduling
 * new rounds there), and the coverage is the share of ordered node pairs
 * met at least once in them. Cells are per rail (rdp_mesh_plan_count);
 * times f->rails for all. 0, -EINVAL (rdp_mesh_fit_check), -ENOMEM.
 */
int rdp_mesh_plan_fit(const struct rdp_mesh_plan *p,
		      const struct rdp_mesh_fit_opts *f,
		      struct rdp_mesh_fit *out);

/*
 * A duration like 90, 90s, 1.5m, 30m, 2h or 1d into seconds: > 0 and
 * finite. -EINVAL with one line in why ("what needs ...").
 */
int rdp_mesh_duration_parse(const char *what, const char *s, double *out_s,
			    char *why, size_t len);

/*
 * The rounds that run transfers again (--retest): each of the n transfers
 * of x gets a round in round_of[] (0-based), greedily in order, so that no
 * node is in two transfers of one round. *rounds: how many (0 for n 0).
 * -EINVAL (a node at or past `nodes`, tx == rx) or -ENOMEM.
 */
int rdp_mesh_retest_schedule(const struct rdp_mesh_xfer *x, size_t n,
			     unsigned int nodes, unsigned int *round_of,
			     unsigned int *rounds);

/*
 * The follow-up of a quick pass, in halving rounds as ClusterKit does.
 * After the pass every node of a flagged or failed cell is a suspect and
 * every other node is good (rdp_mesh_quick_suspects). Each retest round
 * (rdp_mesh_quick_round) pairs each suspect with a good node of its own,
 * so a suspect is judged alone: the run measures the round and
 * rdp_mesh_quick_judge() clears the suspects whose transfer was clean
 * (they join the good nodes and partner the suspects left next round)
 * and marks FAULTY those whose transfer against a good node was bad again
 * (they stay suspects, for good, and are not paired again). Suspects
 * without a good partner wait; as the cleared ones join the good nodes,
 * the suspects left at least halve each round while good nodes are
 * scarce. Only when no node is good are suspects paired with each other,
 * by the circle method over the suspects with the round number as its
 * pairing: a clean transfer clears both, a bad one leaves both suspects.
 * Done when rdp_mesh_quick_round() returns 0; the caller bounds the
 * rounds of suspects that keep failing each other.
 */
enum rdp_mesh_quick_state {
	RDP_MESH_QUICK_GOOD,	/* in no bad cell, or cleared by a retest */
	RDP_MESH_QUICK_SUSPECT, /* in a bad cell, not judged alone yet */
	RDP_MESH_QUICK_FAULTY,	/* bad again against a good node */
};

/*
 * state[nodes]: SUSPECT for each tx and rx of the n bad cells, GOOD for
 * the other nodes. -EINVAL for a node at or past `nodes` or tx == rx.
 */
int rdp_mesh_quick_suspects(const struct rdp_mesh_xfer *bad, size_t n,
			    unsigned int nodes,
			    enum rdp_mesh_quick_state *state);
/*
 * The next retest round into x (room for nodes/2): suspect j (in node
 * order) sends to good node j, .both as given; with no good node, the
 * suspects with each other, pairing `round` (0, 1, ... the retest rounds
 * so far) of the circle method over them, so that every two meet in
 * turn. No node twice. Returns
 * the count; 0: no suspect left, one alone with no good node, or no
 * memory for the list of suspects.
 */
size_t rdp_mesh_quick_round(const enum rdp_mesh_quick_state *state,
			    unsigned int nodes, unsigned int round, int both,
			    struct rdp_mesh_xfer *x);
/*
 * The verdicts of a round that rdp_mesh_quick_round made: bad[j] nonzero
 * when transfer j was flagged or failed (in either direction). -EINVAL
 * for a node out of range.
 */
int rdp_mesh_quick_judge(enum rdp_mesh_quick_state *state, unsigned int nodes,
			 const struct rdp_mesh_xfer *x, const int *bad,
			 size_t n);

#endif /* RDMAPERF_MESH_PLAN_H */
