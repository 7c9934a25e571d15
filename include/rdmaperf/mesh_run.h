/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Measuring a mesh: each rank serves on its rail's address, the ranks
 * swap endpoints through the bootstrap, then each round's senders run
 * rdmaperf's own client session against their receivers, and rank 0
 * gathers the cells, journals each round and writes the files.
 * Layer: mesh
 */
#ifndef RDMAPERF_MESH_RUN_H
#define RDMAPERF_MESH_RUN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <rdmaperf/mesh.h>
#include <rdmaperf/mesh_plan.h>

struct rdp_boot;
struct rdp_opts;
struct rdp_engine_ops;
struct rdp_session_results;
struct json_t;

#define RDP_MESH_DEVS_MAX 16

/* What one rank offers the others: fixed fields, the same binary on
 * every rank, swapped by the bootstrap and never by the OOB wire. */
struct rdp_mesh_endpoint {
	char node[64]; /* RDP_MESH_NODE, else the host name */
	char host[64];
	char dev[64];
	char addr[16]; /* IPv4 of the rail, dotted */
	uint16_t port; /* the kernel chose it */
	int32_t gid_index;
	int32_t numa_node;  /* -1 unknown */
	double line_gbps;   /* 0 unknown */
	int32_t status;	    /* 0, or this rank's -errno: all stop */
	int32_t world_rank; /* filled by the receiver */
};

struct rdp_mesh_run_opts {
	struct rdp_mesh_plan_opts plan; /* .nodes: found by the run */
	struct rdp_mesh_limits limits;
	char devs[RDP_MESH_DEVS_MAX][64]; /* -d list; the local rank picks */
	size_t n_devs;
	const char *output_dir;
	int round_timeout_ms;	    /* bounds every collective */
	FILE *out;		    /* rank 0: the matrix and outliers */
	int progress;		    /* rank 0: a progress line on stderr */
	int retest;		    /* run flagged and failed pairs again */
	unsigned int retest_wait_s; /* every rank, before those rounds */
	enum rdp_mesh_scale scale;  /* of the heatmaps */
	int resume;		    /* --resume: continue in output_dir */
	double time_budget_s;	    /* --time-budget, 0: none */
	int no_prune;		    /* --no-prune */
	/* --topology: the fabric, loaded and checked against the nodes by
	 * rank 0 before the rounds; NULL: none. */
	const char *topology;
	/* The test and its options as given (rdmaperf's part of the
	 * command line): recorded, and checked by --resume. */
	char test_args[1024];
	/* --victim: the victim's test and options (the test's verb as a
	 * latency or bandwidth test, the rest as given); NULL: none. */
	const struct rdp_opts *victim;
};

/* A cell's figures from the last point a client session measured (NaN:
 * none), and the time all its points measured. */
struct rdp_mesh_figures {
	double bw_gbps;	   /* what the sender sent */
	double rx_bw_gbps; /* -b: what it received */
	double lat_us;	   /* the median */
	double measured_s;
};
void rdp_mesh_figures_of(const struct rdp_session_results *r,
			 struct rdp_mesh_figures *f);

/*
 * The node name of a rank: env (RDP_MESH_NODE's value) with "%r" replaced
 * by the world rank, so that one host can stand for several nodes; NULL or
 * "" the host name. 0 or -ENAMETOOLONG.
 */
int rdp_mesh_node_name_of(const char *env, int rank, const char *host,
			  char *buf, size_t len);

/*
 * The IPv4 address, GID index, NUMA node and line rate of dev's port
 * into ep (node and host untouched): the address of its IPv4 RoCE v2 GID
 * (RoCE), else of the netdev the device sits on (IPoIB). 0 or -errno,
 * logged.
 */
int rdp_mesh_endpoint_local(const char *dev, int ib_port,
			    struct rdp_mesh_endpoint *ep);

/*
 * Nodes and rails from every rank's endpoint (in rank order): a node is
 * the ranks of one name, in order of their first rank; a rank's rail its
 * place among them. node_of[i], rail_of[i] per rank; names[] the nodes'
 * (pointers into eps); *nodes, *rails. -EINVAL (logged) when nodes hold
 * different numbers of ranks or there is a single node.
 */
int rdp_mesh_group(const struct rdp_mesh_endpoint *eps, int n,
		   unsigned int *node_of, unsigned int *rail_of,
		   const char **names, unsigned int *nodes,
		   unsigned int *rails);

/*
 * The whole mesh on this rank, collectives through boot; o: the test and
 * its options as rdmaperf takes them. Returns enum rdp_exit: on rank 0,
 * 1 when a cell is flagged or failed.
 */
int rdp_mesh_run(struct rdp_boot *boot, const struct rdp_opts *o,
		 const struct rdp_engine_ops *eng,
		 const struct rdp_mesh_run_opts *mo);

/*
 * --time-budget: whether one more round fits. elapsed_s: the run's time
 * so far (bootstrap included); rounds_s: the time of the `ran` rounds
 * this run has measured. The next round is taken to last their mean
 * (nothing before the first); it fits when elapsed plus that mean is
 * within budget_s. A budget of 0 always allows.
 */
int rdp_mesh_budget_allows(double budget_s, double elapsed_s, double rounds_s,
			   size_t ran);
/* A duration like 90, 90s, 30m, 2h or 1.5h into seconds; -EINVAL. */
int rdp_mesh_parse_duration(const char *s, double *out_s);

/*
 * Pruning: a node whose cells failed against at least half of the peers
 * it has met, and against at least RDP_MESH_PRUNE_MIN_FAILED of them, is
 * named as the fault and left out of the later rounds. A peer counts
 * once however many cells the two share; a failure with a node already
 * pruned is that node's, and counts for neither side. Of several
 * candidates, the one with the most failed peers goes first (then the
 * higher share, then the lower number), and the others are judged again
 * without it: a dead node's peers, each failed once against it, stay.
 */
#define RDP_MESH_PRUNE_MIN_FAILED 2

struct rdp_mesh_prune {
	unsigned int nodes;
	unsigned char *pair; /* per unordered pair: PRUNE_MET, PRUNE_FAILED */
	/* Per node: the round (0-based) after which it was pruned, -1 not;
	 * its failed peers and peers met then. */
	long *after;
	unsigned int *failed, *met;
};

int rdp_mesh_prune_init(struct rdp_mesh_prune *p, unsigned int nodes);
void rdp_mesh_prune_fini(struct rdp_mesh_prune *p);
/* One cell between tx and rx, failed or not (out of range: ignored). */
void rdp_mesh_prune_note(struct rdp_mesh_prune *p, unsigned int tx,
			 unsigned int rx, int failed);
/* The rule after round k: returns how many nodes it pruned now. */
unsigned int rdp_mesh_prune_decide(struct rdp_mesh_prune *p, size_t k);
/* Whether node was pruned before round k. */
int rdp_mesh_pruned_before(const struct rdp_mesh_prune *p, unsigned int node,
			   size_t k);
/* A rank's record of a transfer (its "tx", "rx" and "result", null
 * when it failed), as rdp_mesh_prune_note. */
void rdp_mesh_prune_note_record(struct rdp_mesh_prune *p, struct json_t *rec);
/* A line for each node pruned after round k into f, names[] its name. */
void rdp_mesh_prune_say(const struct rdp_mesh_prune *p, size_t k,
			const char *const *names, FILE *f);
/* Why node was pruned, "failed against 2 of 3 peers by round 3". */
void rdp_mesh_prune_reason(const struct rdp_mesh_prune *p, unsigned int node,
			   char *buf, size_t len);

/*
 * --resume: the journal's finished rounds of the plan. A last line that
 * does not end in a newline or does not parse is what a killed job left
 * half written: dropped. So are the retest rounds (and what follows the
 * first of them): they are chosen again once the plan is done. lines[k]
 * is round k's object; good_bytes the length of the lines kept, where
 * the journal is cut before it is appended to.
 */
struct rdp_mesh_journal {
	struct json_t **lines;
	size_t n;
	long good_bytes;
};

/* 0, or -EINVAL with one line in why (a round out of order, a line that
 * does not parse before the last, more rounds than plan_rounds). */
int rdp_mesh_journal_read(FILE *f, size_t plan_rounds,
			  struct rdp_mesh_journal *j, char *why, size_t len);
void rdp_mesh_journal_free(struct rdp_mesh_journal *j);
/*
 * Whether the journal's rounds are those of plan over the nodes names:
 * the same pairs in the same order, both directions alike. 0, or
 * -EINVAL with one line in why.
 */
int rdp_mesh_journal_check(const struct rdp_mesh_journal *j,
			   const struct rdp_mesh_plan *plan,
			   const char *const *names, char *why, size_t len);
/*
 * A cell of the journal (as the store's journal writes it) back into c:
 * node numbers from names (nodes of them), status OK (also for a flag,
 * which the analysis sets again) or FAILED with its reason, figures,
 * line rate and a reference to its result document. 0 or -EINVAL.
 */
int rdp_mesh_cell_from_json(struct json_t *o, const char *const *names,
			    unsigned int nodes, struct rdp_mesh_cell *c);

/*
 * The record of a run that --resume checks: the plan's options, the
 * nodes in order, the rails and the test as given. A new object, or
 * NULL.
 */
struct json_t *rdp_mesh_run_record(const struct rdp_mesh_plan_opts *po,
				   const char *const *names, unsigned int rails,
				   const char *test_args);
/* Whether rec (as read back) is the record `want` of this run: 0, or
 * -EINVAL with the first difference in why. A record without
 * "topology" (written before it was recorded) is not checked for one;
 * with it, the files' digests must match, wherever the file lies now. */
int rdp_mesh_run_record_check(struct json_t *rec, struct json_t *want,
			      char *why, size_t len);

/*
 * The retest of a quick pass on rank 0 (--pattern quick --retest): each
 * node's state after the pass (start: SUSPECT in a bad cell, FAULTY
 * when pruned, else GOOD) and now, after the halving rounds
 * (rdp_mesh_quick_round and _judge); SUSPECT now: not judged within
 * max_rounds. Then the bad cells between nodes both GOOD now are run
 * again as --retest runs them for the other patterns (confirm_rounds),
 * so each is cleared, or held as a link's, by its own figure.
 */
struct rdp_mesh_quick {
	unsigned int nodes;
	enum rdp_mesh_quick_state *start, *now;
	unsigned int rounds, max_rounds; /* halving rounds run, the bound */
	unsigned int confirm_rounds;
};

/* The bound on the halving rounds of `nodes` nodes: ceil(log2) + 2. */
unsigned int rdp_mesh_quick_max_rounds(unsigned int nodes);
/* q's verdicts for mesh.json's "quick" and the terminal (the store
 * borrows q, which must outlive its writers); NULL: none. */
void rdp_mesh_set_quick(struct rdp_mesh *m, const struct rdp_mesh_quick *q);
/* "quick retest: 3 suspects after the pass, 2 cleared in 1 round; faulty:
 * node3" and a line for the suspects left unjudged; NULL q: nothing. */
void rdp_mesh_quick_print(const struct rdp_mesh_quick *q,
			  const struct rdp_mesh *m, FILE *out);

/*
 * --victim (incast): per round, the victim's figures measured alone and
 * then under the load (NaN: not measured, or its session failed), and
 * the congestion impact factor: latency loaded / alone (p50, p99),
 * bandwidth alone / loaded, so a congested path reads above 1 either
 * way.
 */
struct rdp_mesh_victim_fig {
	double p50_us, p99_us; /* --victim lat */
	double bw_gbps;	       /* --victim bw */
};

struct rdp_mesh_impact {
	double p50, p99, bw; /* NaN where a side lacks the figure or it is
			      * not above 0 */
};

void rdp_mesh_impact_of(const struct rdp_mesh_victim_fig *alone,
			const struct rdp_mesh_victim_fig *loaded,
			struct rdp_mesh_impact *out);

struct rdp_mesh_victim_round {
	unsigned int round; /* 0-based */
	unsigned int tx, rx, rail, senders;
	struct rdp_mesh_victim_fig alone, loaded;
};

struct rdp_mesh_congestion {
	enum rdp_mesh_victim kind;
	struct rdp_mesh_victim_round *v; /* in the order noted */
	size_t n, cap;
};

/* Round's victim v (tx, rx, rail, under `senders`) measured alone
 * (loaded 0) or under the load: f into its entry, made on first note.
 * 0 or -ENOMEM. */
int rdp_mesh_congestion_note(struct rdp_mesh_congestion *c,
			     const struct rdp_mesh_victim_round *v, int loaded,
			     const struct rdp_mesh_victim_fig *f);
void rdp_mesh_congestion_fini(struct rdp_mesh_congestion *c);
/* c onto the store for mesh.json's "congestion" and outliers.txt (the
 * store borrows c, which must outlive its writers); NULL: none. */
void rdp_mesh_set_congestion(struct rdp_mesh *m,
			     const struct rdp_mesh_congestion *c);
/* One line a round, "congestion: round 1, victim node4 -> node0 under
 * 3 senders: p50 2.1 -> 9.8 us (x4.67), p99 3 -> 15 us (x5)" (", rail
 * R" after the nodes with several rails); NULL or empty c: nothing. */
void rdp_mesh_congestion_print(const struct rdp_mesh_congestion *c,
			       const struct rdp_mesh *m, FILE *out);

/* --retest's transfers and the round (0-based, past the plan's) of
 * each, on every rank; rank 0's quick verdicts. */
struct rdp_mesh_retests {
	struct rdp_mesh_xfer *re;
	unsigned int *round, rounds;
	size_t n;
	/* The first quick_rounds retest rounds are a quick pass's halving
	 * rounds: each suspect against a good node, a pair the pass may
	 * not have run, kept whatever the pass found of it. */
	unsigned int quick_rounds;
	size_t plan_rounds;
	struct rdp_mesh_quick *quick; /* rank 0, quick pattern; else NULL */
};

/* What --retest needs of the run. */
struct rdp_mesh_retest_ctx {
	struct rdp_boot *boot;
	struct rdp_mesh *mesh; /* rank 0's, analysed again here */
	const struct rdp_mesh_run_opts *mo;
	/* Per node, nonzero: pruned; rank 0's, refreshed before each
	 * round by the run. */
	const unsigned char *left_out;
	unsigned int nodes;
	size_t plan_rounds;
	/* Runs retest rounds from..to-1 (0-based past the plan's, of rt)
	 * on every rank: 0, 1 when the time budget stopped them, -errno. */
	int (*run)(void *arg, unsigned int from, unsigned int to);
	void *arg;
};

/*
 * --retest on every rank, after the plan's rounds. Rank 0 analyses the
 * store and picks, every rank learns through the boot (as rank 0's
 * rt), then the run measures. Other patterns: the pairs of the flagged
 * and failed cells (less the pruned nodes'), each in a round
 * (rdp_mesh_retest_schedule). --pattern quick: the halving rounds of
 * struct rdp_mesh_quick one at a time, each judged before the next is
 * picked, up to rdp_mesh_quick_max_rounds(); then the bad cells between
 * nodes left GOOD run again; rt->quick set on the store. Every rank
 * sleeps mo->retest_wait_s before the first retest round. 0 or -errno
 * (of a collective or a round; rank 0's own failure to pick is warned
 * and means no more retests).
 */
int rdp_mesh_retest_run(const struct rdp_mesh_retest_ctx *c,
			struct rdp_mesh_retests *rt);
/*
 * A retest cell into the store (rank 0, from a record). A cell of a
 * quick pass's halving round is kept whatever the pass found of its
 * pair; any other as rdp_mesh_add_retest keeps it, a direction of a
 * retested pair that was fine dropped (0). 0 or -errno; the store takes
 * c->result in every case.
 */
int rdp_mesh_retests_add(const struct rdp_mesh_retests *rt, struct rdp_mesh *m,
			 const struct rdp_mesh_cell *c);
void rdp_mesh_retests_free(struct rdp_mesh_retests *rt);

/*
 * --topology in the record: {"path", "digest"} of the file at path (its
 * content's 64-bit FNV-1a, "fnv1a64:" and 16 hex digits), JSON null for
 * NULL path; NULL when the file cannot be read or out of memory.
 */
struct json_t *rdp_mesh_topology_record(const char *path);

/* The record's file in the output directory. */
#define RDP_MESH_RUN_RECORD "mesh-run.json"

/* record into dir/mesh-run.json (rank 0, a fresh run). 0 or -errno,
 * warned. */
int rdp_mesh_run_record_write(const char *dir, struct json_t *record);

/* What the journal and the record need of this run on rank 0. */
struct rdp_mesh_resume {
	const char *dir;
	struct rdp_mesh *mesh; /* created over plan, empty */
	const struct rdp_mesh_plan *plan;
	const struct rdp_mesh_plan_opts *po; /* of the plan, for the record */
	const char *const *names;	     /* nodes of them */
	unsigned int nodes, rails;
	const char *test_args;
	struct rdp_mesh_prune *prune; /* NULL: no pruning */
	const char *topology;	      /* --topology's path, NULL: none */
};

/*
 * Rank 0 of --resume: the record in dir checked against this run's, the
 * journal read and checked against the plan, its rounds' cells and
 * times into the store (and the pruning replayed round by round), the
 * journal cut after its last whole round and opened for appending
 * (*journal); *from: the first round to run. 0, or -EINVAL with one
 * line logged.
 */
int rdp_mesh_resume_load(const struct rdp_mesh_resume *rs, FILE **journal,
			 size_t *from);
/*
 * Rank 0's journal: resume, as rdp_mesh_resume_load; else a fresh one
 * (warned and NULL when it cannot be opened) beside the run's record,
 * *from 0. 0 or -errno.
 */
int rdp_mesh_journal_open(const struct rdp_mesh_resume *rs, int resume,
			  FILE **journal, size_t *from);

/*
 * Rank 0's start on every rank through b: its status (0, or the -errno
 * every rank then ends with) and *from, the first round to run (rank 0's
 * past the journal's on --resume; it says so on stdout). Returns that
 * status, or the collective's -errno.
 */
int rdp_mesh_share_start(struct rdp_boot *b, int status, size_t *from,
			 size_t rounds, int timeout_ms);

/* pairs_measured and pairs_total of cov from m's measured and failed
 * cells (nodes of them; skipped cells do not count). 0 or -ENOMEM. */
int rdp_mesh_coverage_of(const struct rdp_mesh *m, unsigned int nodes,
			 struct rdp_mesh_coverage *cov);

/* What the end of a run sets on its store. */
struct rdp_mesh_reach {
	struct rdp_mesh *mesh;
	const struct rdp_mesh_plan *plan;
	unsigned int nodes, rails;
	const struct rdp_mesh_prune *prune; /* NULL: no pruning */
	/* rounds_run, rounds_planned, stopped and budget_s given; the pairs
	 * counted here. */
	struct rdp_mesh_coverage cov;
};

/*
 * Onto the store, before its analysis: the coverage (its pairs counted),
 * and with pruning the pruned nodes and the cells they left out of the
 * rounds run (status SKIPPED, reason "pruned: node3 failed against 2 of
 * 3 peers by round 1", every rail, both directions of a bidirectional
 * transfer). *skipped: how many cells. 0 or -errno, logged.
 */
int rdp_mesh_reach_store(struct rdp_mesh_reach *f, size_t *skipped);

/*
 * --topology on rank 0 (run_topo.c): the fabric of path loaded and the
 * nodes (names, nodes x rails) bound to it before the rounds. NULL path:
 * none, *out NULL. A file that does not parse, cannot be read or lacks a
 * node: -EINVAL with one line logged (every rank exits 2), -ENOMEM.
 */
struct rdp_mesh_run_topo;
struct rdp_mesh_place;
int rdp_mesh_run_topo_load(const char *path, const char *const *names,
			   unsigned int nodes, unsigned int rails,
			   struct rdp_mesh_run_topo **out);
void rdp_mesh_run_topo_free(struct rdp_mesh_run_topo *rt);
/*
 * Every rank's plan of po (its node count set): the check's line logged
 * on a refusal. With --pattern cover rank 0 loads mo->topology first
 * (into *topo; NULL otherwise) and sends its leaf groups and quotas at
 * po->cover_load_pct to every rank (b), which all plan alike, and prints
 * the plan's head to mo->out. 0, -EINVAL (logged; every rank alike),
 * -ENOMEM, or the collective's -errno.
 */
int rdp_mesh_run_plan(struct rdp_boot *b, const struct rdp_mesh_run_opts *mo,
		      struct rdp_mesh_plan_opts *po, const char *const *names,
		      unsigned int rails, struct rdp_mesh_run_topo **topo,
		      struct rdp_mesh_plan **plan);
const struct rdp_mesh_place *
rdp_mesh_run_topo_place(const struct rdp_mesh_run_topo *rt);
/*
 * After the analysis (and the retests): the cells' paths into m's files,
 * the heatmaps by leaf past RDP_MESH_HEATMAP_MAX_NODES nodes, and the
 * faults located and set on m (mesh.json's faults[]). NULL rt: nothing.
 * 0 or -errno, warned: the files are written without them.
 */
int rdp_mesh_run_topo_locate(struct rdp_mesh_run_topo *rt, struct rdp_mesh *m);
/* The faults one line each ("fault 1 [uplink]: ..."); NULL rt: nothing. */
void rdp_mesh_run_topo_print(const struct rdp_mesh_run_topo *rt, FILE *out);
/* Each node's group, its rail 0's leaf: group_of[node], names[group]
 * (the leaves' names, in order of their first node; room for every
 * switch of the fabric), *groups. */
void rdp_mesh_leaf_groups(const struct rdp_mesh_place *p,
			  unsigned int *group_of, const char **names,
			  unsigned int *groups);
/*
 * A cell's path, tx -> rx on rail (mesh numbers), as mesh.json's "path",
 * one string a part in the order crossed, each switch named with its
 * port: the sender's cable, the uplink of its leaf, the uplink of the
 * receiver's leaf, the receiver's cable:
 *   ["cable leaf0:1", "uplink leaf0:3-spine0:1", "uplink leaf1:3-spine0:2",
 *    "cable leaf1:2"]
 * Inside one leaf the two cables alone; across S > 1 spines, which one
 * ECMP takes being unknown, "uplink leaf0 (one of S)" for each uplink.
 * JSON null when the leaves share no spine; NULL out of memory.
 */
struct json_t *rdp_mesh_path_json(const struct rdp_mesh_place *p,
				  unsigned int tx, unsigned int rx,
				  unsigned int rail);

#endif /* RDMAPERF_MESH_RUN_H */
