/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The cells of a cluster mesh (one per sender, receiver, rail and round),
 * the outlier analysis that names the likely bad node, cable direction or
 * link, and the files written from them: mesh.json (the summary), CSV
 * matrices, the cells as CSV and as JSON Lines, outliers.txt, a JSON
 * Lines journal and heatmaps, each streamed or bounded so that a mesh of
 * 1024 nodes on 8 rails (8 M cells) is written in seconds.
 *
 * Use: rdp_mesh_create() over a plan; rdp_mesh_add() each measured or
 * failed cell (rdp_mesh_journal_round() after each round);
 * rdp_mesh_analyze(); for --retest, rdp_mesh_retest_pairs(), run them
 * again and rdp_mesh_add_retest() each, then rdp_mesh_analyze() again;
 * rdp_mesh_write_dir(); rdp_mesh_print_matrices() for the terminal;
 * rdp_mesh_free().
 * Layer: mesh
 */
#ifndef RDMAPERF_MESH_H
#define RDMAPERF_MESH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <rdmaperf/counters.h>
#include <rdmaperf/mesh_plan.h>

struct json_t;
struct rdp_mesh;

#define RDP_MESH_TOLERANCE 0.10 /* default --tolerance */
#define RDP_MESH_MAX_RAILS 64
#define RDP_MESH_MAX_ROUND (1u << 24) /* a cell's round is below it */

/*
 * mesh.json's "schema_version". 1: the first (no such key, "tolerance"
 * as a fraction). 2: "tool", "version", "schema_version",
 * "tolerance_pct" (as --tolerance takes it) in place of "tolerance",
 * "cells_file"; past json_cells_max cells the summary form (no cells[],
 * rounds without their pairs). 3: "totals" always has "skipped"; the
 * cells a pruned node left out are in cells[] (and cells.jsonl,
 * cells.csv) with status "skipped" and their reason, written with the
 * rest; "pruned" (with pruning on) and "coverage" (when the run set it)
 * come from the store (rdp_mesh_set_pruned, rdp_mesh_set_coverage).
 */
#define RDP_MESH_JSON_SCHEMA_VERSION 3
/* mesh.json lists its cells up to this many by default. */
#define RDP_MESH_JSON_MAX_CELLS 65536
/* Heatmaps draw one box a node up to this many nodes, blocks above. */
#define RDP_MESH_HEATMAP_MAX_NODES 256
/* Blocks of consecutive nodes a heatmap axis holds at most by default. */
#define RDP_MESH_HEATMAP_BLOCKS 64
/* The terminal shows a rail's matrix up to this many nodes, a summary
 * above. */
#define RDP_MESH_PRINT_MAX_NODES 32

enum rdp_mesh_status {
	RDP_MESH_OK,
	RDP_MESH_FAILED,  /* no figure: the test did not complete */
	RDP_MESH_FLAGGED, /* set by rdp_mesh_analyze */
	RDP_MESH_SKIPPED, /* not run (a node of it was pruned): neither
			   * measured nor bad; the analysis passes it by */
	/* Writers name any other status by rdp_mesh_status_name() and
	 * count it apart from these. */
};

/* What a flagged or failed cell points at, from the medians of its
 * sender's row (TX) and its receiver's column (RX). */
enum rdp_mesh_class {
	RDP_MESH_CLASS_NONE,
	RDP_MESH_CLASS_NODE, /* suspect's TX row and RX column are low */
	RDP_MESH_CLASS_TX,   /* only the sender's row: its send direction */
	RDP_MESH_CLASS_RX,   /* only the receiver's column: its receive side */
	RDP_MESH_CLASS_LINK, /* neither: this link or path alone */
};

/* A counter that rose on a cell's port, by how much over its points. */
struct rdp_mesh_ctr {
	const char *name;
	uint64_t delta;
};

/*
 * One port's error counters over a cell's points: their rises summed by
 * kind (rdp_counter_kind; traffic, RDP_CTR_OTHER, is not carried) and
 * the counters behind them, in the order the port lists them.
 */
struct rdp_mesh_port_errors {
	struct rdp_ctr_sums sums;
	unsigned int n;
	const struct rdp_mesh_ctr *ctr; /* n of them */
};

/* The error counters of both ports of a cell. */
struct rdp_mesh_errors {
	struct rdp_mesh_port_errors tx; /* the sender's port */
	struct rdp_mesh_port_errors rx; /* the receiver's port */
};

/* Which ports of a cell broke --max-errors (rdp_mesh_cell.errs_over). */
#define RDP_MESH_ERRS_TX 1u
#define RDP_MESH_ERRS_RX 2u

struct rdp_mesh_cell {
	unsigned int tx, rx; /* node numbers of the plan */
	unsigned int rail;
	unsigned int round;	     /* 0-based; files write it 1-based */
	enum rdp_mesh_status status; /* OK, FAILED or SKIPPED when added */
	/* Written by rdp_mesh_analyze: RDP_MESH_ERRS_TX, _RX. */
	unsigned char errs_over;
	/* FAILED, SKIPPED: why (one copy of each text, kept by the store);
	 * FLAGGED: the thresholds broken, written by the analysis; NULL
	 * otherwise. Valid until the next analysis (FLAGGED) or
	 * rdp_mesh_free(). */
	const char *reason;
	double bw_gbps;	       /* NAN when the test measures none */
	double lat_us;	       /* median latency, NAN when none */
	double line_gbps;      /* the rail's line rate, 0 unknown */
	struct json_t *result; /* the full rdmaperf results document */
	/* Written by rdp_mesh_analyze for FLAGGED and FAILED cells. */
	enum rdp_mesh_class cls;
	unsigned int suspect; /* the node cls names (LINK: tx) */
	/* Written by rdp_mesh_analyze on a flagged or failed cell that was
	 * run again: its retest, rdp_mesh_retest_at(); -1 none. */
	long again;
	/* The ports' error counters; NULL: none rose (or none were read).
	 * rdp_mesh_add copies them into the store. */
	const struct rdp_mesh_errors *errors;
};

struct rdp_mesh_limits {
	double tol;	    /* 0.10: flag 10 % below the median bandwidth,
			     * or above the median latency; [0, 1) */
	double min_bw_gbps; /* absolute floors, 0: none */
	double min_bw_pct;  /* % of the cell's line rate, 0: none */
	double max_lat_us;  /* 0: none */
	/* --max-errors: a cell whose sender's or receiver's port broke a
	 * rule is flagged whatever its figures; no rules (n 0): none.
	 * rdp_mesh_max_errors_parse() sets the defaults and the rules. */
	struct rdp_max_errors max_errors;
};

/*
 * rdmaperf-mesh's --max-errors arg (NULL: the defaults alone) into
 * l->max_errors: rdp_max_errors_default() and rdp_max_errors_parse()'s
 * rules, where a counter named must be a link, retry or congestion
 * counter (the cells carry no other). 0, or -EINVAL with one line in
 * why.
 */
int rdp_mesh_max_errors_parse(struct rdp_mesh_limits *l, const char *arg,
			      char *why, size_t len);

/*
 * A store for the cells of plan (which must outlive it) over `rails`
 * rails (1..RDP_MESH_MAX_RAILS); names: one per node, copied, NULL for
 * "node0", "node1"... -EINVAL or -ENOMEM.
 */
int rdp_mesh_create(const struct rdp_mesh_plan *plan, unsigned int rails,
		    const char *const *names, struct rdp_mesh **out);
/* Frees every cell's result, the reasons and the store. NULL is fine. */
void rdp_mesh_free(struct rdp_mesh *m);

/*
 * Add a copy of c; the store takes c->result (one reference) in every
 * case, also on error. -EINVAL: a node, rail or round out of range,
 * tx == rx, a status other than OK, FAILED or SKIPPED; -ENOMEM; -E2BIG
 * past 2^31 cells. A cell added twice (the same tx, rx and rail) is kept
 * twice; the matrices show the later one, a measured or failed cell
 * before a skipped one. A SKIPPED cell (no figures, no result; its
 * reason like "pruned: node3 failed against 2 of 3 peers by round 1")
 * is written by every writer but never in a median, flagged, counted
 * against a node's row or column, or run again.
 */
int rdp_mesh_add(struct rdp_mesh *m, const struct rdp_mesh_cell *c);

/* A node the run left out of its later rounds: failed against
 * failed_peers of the peers it had met by round after_round (0-based). */
struct rdp_mesh_pruned {
	unsigned int node;
	unsigned int failed_peers, peers;
	size_t after_round;
};

/* The pruned nodes (n of them, copied; n 0: pruning on, none pruned),
 * for mesh.json's "pruned" and outliers.txt. Without a call the files
 * name no pruning. -EINVAL (a node out of range), -ENOMEM. */
int rdp_mesh_set_pruned(struct rdp_mesh *m, const struct rdp_mesh_pruned *p,
			size_t n);
/* Why node p was pruned: "failed against 2 of 3 peers by round 3". */
void rdp_mesh_pruned_reason(const struct rdp_mesh_pruned *p, char *buf,
			    size_t len);

/* What a mesh reached: rounds of the plan run, and node pairs with a
 * measured or failed cell (either direction) of all pairs. */
struct rdp_mesh_coverage {
	size_t rounds_run, rounds_planned;
	size_t pairs_measured, pairs_total;
	int stopped;	 /* by the time budget */
	double budget_s; /* --time-budget, 0: none */
};

/* The coverage for mesh.json's "coverage" and outliers.txt (copied);
 * without a call the files have none. */
void rdp_mesh_set_coverage(struct rdp_mesh *m,
			   const struct rdp_mesh_coverage *c);
/* How many cells are SKIPPED. */
size_t rdp_mesh_n_skipped(const struct rdp_mesh *m);

/*
 * The node pairs to run again after an analysis: each sender and receiver
 * with a flagged or failed cell, on any rail, once, in the order of the
 * cells; when the plan runs both directions at once, each unordered pair
 * once with .both set. *out: malloc'd (NULL when *n is 0). -EINVAL before
 * an analysis, -ENOMEM.
 */
int rdp_mesh_retest_pairs(const struct rdp_mesh *m, struct rdp_mesh_xfer **out,
			  size_t *n);
/*
 * Add the retest of a flagged or failed cell (the same tx, rx and rail;
 * c->round numbers the extra round, past the plan's): status OK or FAILED
 * as in rdp_mesh_add, which it follows otherwise. The next analysis
 * judges it against the first pass's medians and limits, and links it to
 * that cell (.again): the flag held when the retest is not OK. -ENOENT
 * when the last analysis found no such bad cell (a direction of a pair
 * that was fine); the result is dropped then too.
 */
int rdp_mesh_add_retest(struct rdp_mesh *m, const struct rdp_mesh_cell *c);

/*
 * Where a round's time went, seen from rank 0. wall: from the round's
 * barrier to its cells stored. pair: the slowest transfer's whole client
 * session (connect, set up, measure, tear down). measured: the longest
 * measured interval of the round (the sum of its points' elapsed time).
 * What is neither is the barrier, the gather and the journal.
 */
struct rdp_mesh_round_time {
	double wall_s, pair_s, measured_s;
};

/* Round k's times (of the plan or a retest), for the files. -ENOMEM. */
int rdp_mesh_set_round_time(struct rdp_mesh *m, size_t k,
			    const struct rdp_mesh_round_time *t);
/* The bootstrap's: from the start to the first round (device, server,
 * endpoints swapped, plan). */
void rdp_mesh_set_bootstrap_time(struct rdp_mesh *m, double s);
/* The times of every round with times, summed into *sum; returns how many
 * rounds had them. */
size_t rdp_mesh_time_total(const struct rdp_mesh *m,
			   struct rdp_mesh_round_time *sum);

size_t rdp_mesh_n_cells(const struct rdp_mesh *m);
size_t rdp_mesh_n_retests(const struct rdp_mesh *m);
const struct rdp_mesh_cell *rdp_mesh_retest_at(const struct rdp_mesh *m,
					       size_t i);
const struct rdp_mesh_cell *rdp_mesh_cell_at(const struct rdp_mesh *m,
					     size_t i);
const char *rdp_mesh_node_name(const struct rdp_mesh *m, unsigned int node);
const char *rdp_mesh_status_name(enum rdp_mesh_status s); /* "ok" ... */
const char *rdp_mesh_class_name(enum rdp_mesh_class c);	  /* "node" ... */

/*
 * Flag and classify, each rail on its own. A measured cell is FLAGGED
 * below (1 - tol) x the median bandwidth of the rail's measured cells,
 * above (1 + tol) x their median latency, past an absolute limit, or
 * when a port's error counters broke l->max_errors (its reason says
 * "sender's port: ..." or "receiver's port: ...", errs_over which).
 * A node whose port broke max_errors in more than half of the cells it
 * sent or received is named by the errors (outliers.txt's "errors:"
 * line, mesh.json's node_errors), whatever the figures.
 * A node's TX row (RX column) is low when its median cell is bad: more
 * than half of its cells are flagged or failed, failed cells counting
 * as 0 Gb/s. Every flagged or failed cell is then classified: the
 * sender, else the receiver, with both row and column low -> NODE; the
 * sender's row low -> TX; the receiver's column low -> RX; else LINK.
 * The classes need rows of several cells: pairwise or ring-shift from 3
 * nodes, bisection with permutations. With one cell a row (2 nodes,
 * bisection alone) a bad link reads as its sender's TX. The medians hold
 * while fewer than half of a rail's cells are bad (one bad node of 3
 * spoils 4 cells of 6): past that only the absolute limits flag.
 * Retests are judged by the same medians and limits, and never move them.
 * Runs again from scratch when called again. Returns how many cells are
 * flagged or failed, or -EINVAL (a limit out of range), -ENOMEM, -E2BIG
 * (2^31 cells or more).
 */
int rdp_mesh_analyze(struct rdp_mesh *m, const struct rdp_mesh_limits *l);

/*
 * The writers. Statuses, classes and medians are what the last
 * rdp_mesh_analyze found (none before it, or after a cell is added since).
 * Each returns 0, -EIO when f fails, -ENOMEM; outliers, heatmap and
 * directory -EINVAL before an analysis.
 */
/*
 * mesh.json, the summary: tool, version, schema_version, pattern,
 * tolerance_pct, nodes[], rounds[] (1-based, each with its pairs and
 * bye), retest_rounds[] when there were any, medians per rail,
 * cells_file ("cells.jsonl", which rdp_mesh_write_dir writes beside it),
 * cells[] with their result objects (and "retest" where run again),
 * totals (cells, ok, flagged, failed, skipped, retested, held), pruned[]
 * (rdp_mesh_set_pruned: node, after_round, failed_peers, peers, reason)
 * and coverage (rdp_mesh_set_coverage: rounds_run, rounds_planned,
 * pairs_measured, pairs_total, pairs_pct, stopped_by_time_budget,
 * time_budget_s) when set; faults[] (rdp_mesh_set_faults, with a
 * topology) and cover (rdp_mesh_set_cover, --pattern cover:
 * node_cables {carried, of, both_ways} and uplinks {expected, of, sure})
 * when set; timing when rounds were timed; node_errors (each node and
 * rail whose port's counters rose: node, rail, total, link, retries,
 * congestion, sent and received {cells, with_errors, over}, suspect)
 * when a cell carries errors, each such cell its "errors" ({"tx": {link,
 * retries, congestion, counters {NAME: N}}, "rx": {...}}). Past
 * json_cells_max cells
 * (rdp_mesh_set_json_cells_max) the summary form: no cells[]
 * (cells.jsonl holds them) and each round {"round", "transfers",
 * "timing"} without its pairs (the plan gives them again from the
 * pattern and seed).
 */
int rdp_mesh_write_json(const struct rdp_mesh *m, FILE *f);
/* The cells one JSON object a line, each as mesh.json's cells[] has it;
 * streamed, at any size. */
int rdp_mesh_write_cells_jsonl(const struct rdp_mesh *m, FILE *f);
/* mesh.json lists cells up to `cells` (RDP_MESH_JSON_MAX_CELLS unless
 * set), the summary form above. */
void rdp_mesh_set_json_cells_max(struct rdp_mesh *m, size_t cells);
/*
 * The matrices for a terminal, every rail: a heading with the unit
 * ("rail 0: sender rows, receiver columns, Gb/s"), then aligned columns
 * (receivers) and rows (senders) of figures, "failed", "-" where
 * untested, flagged ones starred; above RDP_MESH_PRINT_MAX_NODES nodes a
 * line a rail instead (cells, median, counts, the lowest row and column),
 * the matrix being in its CSV file. -EIO, -ENOMEM.
 */
int rdp_mesh_print_matrices(const struct rdp_mesh *m, FILE *f);
/* Sender rows x receiver columns of one rail: Gb/s (the rail's latency
 * in us when no cell has a bandwidth), "failed", empty where untested. */
int rdp_mesh_write_matrix(const struct rdp_mesh *m, unsigned int rail, FILE *f);
/* One line a cell: tx,rx,rail,round,status,class,suspect,bw_gbps,lat_us,
 * retest (held, cleared or empty),retest_bw_gbps,retest_lat_us,reason. */
int rdp_mesh_write_cells(const struct rdp_mesh *m, FILE *f);
/* One line a flagged or failed cell: where, its class and the figures
 * behind it (the cell, the rail's median, the row and column medians),
 * and whether its flag held when run again. */
int rdp_mesh_write_outliers(const struct rdp_mesh *m, FILE *f);
/* The pruned nodes, one line each ("pruned: node3, the likely fault:
 * failed against 2 of 3 peers by round 1"), then the coverage when set
 * ("coverage: 4 of 6 rounds of the plan, 5 of 6 node pairs (83%); 2
 * cells skipped after pruning; stopped by --time-budget 60 s"). */
int rdp_mesh_write_reach(const struct rdp_mesh *m, FILE *f);
/*
 * The journal: one JSON object on one line for the finished round k
 * (0-based): {"round", "pairs", "cells"} ("retest": true, and the
 * retests as cells, for a round past the plan's), then flushed, so a
 * killed job leaves every round it finished. f: opened for appending.
 */
int rdp_mesh_journal_round(const struct rdp_mesh *m, size_t k, FILE *f);

/* What the heatmaps colour a cell by. */
enum rdp_mesh_scale {
	RDP_MESH_SCALE_MEDIAN, /* % of the rail's median (default) */
	RDP_MESH_SCALE_LINE,   /* % of the cell's line rate: bandwidth only */
};

void rdp_mesh_set_scale(struct rdp_mesh *m, enum rdp_mesh_scale s);

/*
 * The gnuplot script for one rail's heatmap (SVG on gnuplot's stdout):
 * % of the median bandwidth (else of the median latency), or of each
 * cell's line rate, sender rows, receiver columns, failed cells black,
 * flagged cells crossed; a cell of unknown line rate is left blank.
 * -EINVAL also when the rail has no cell, or on the line-rate scale when
 * the rail has no bandwidth.
 */
int rdp_mesh_heatmap_script(const struct rdp_mesh *m, unsigned int rail,
			    FILE *f);
/*
 * Heatmaps by blocks: group_of[node] (groups 0..groups-1, e.g. a
 * topology's leaves) for every node; names: one per group, copied, NULL
 * for "first-last" node numbers. A block heatmap draws one box per
 * sender group x receiver group, coloured by the median of its cells
 * (failed cells as 0 Gb/s), black when most of them failed, crossed
 * when any is flagged or failed. Without a map (group_of NULL, the
 * default) nodes up to RDP_MESH_HEATMAP_MAX_NODES get a box each, more
 * go in RDP_MESH_HEATMAP_BLOCKS blocks of consecutive nodes. -EINVAL (a
 * group out of range), -ENOMEM.
 */
int rdp_mesh_set_groups(struct rdp_mesh *m, const unsigned int *group_of,
			unsigned int groups, const char *const *names);

/*
 * Everything into dir (made when missing): mesh.json, cells.csv,
 * cells.jsonl, outliers.txt, and per rail R matrix-railR.csv and
 * heatmap-railR.svg.
 * The heatmaps come last: -ENOENT when gnuplot is not installed (the
 * other files are written, one line logged); other -errno with the file
 * named in the log.
 */
int rdp_mesh_write_dir(const struct rdp_mesh *m, const char *dir);

#endif /* RDMAPERF_MESH_H */
