/* SPDX-License-Identifier: BSD-2-Clause */
/* What the files of the mesh folder share: the store and its analysis. */
#ifndef RDMAPERF_MESH_INT_H
#define RDMAPERF_MESH_INT_H

#include <stdint.h>
#include <jansson.h>

#include <rdmaperf/mesh.h>
#include <rdmaperf/mesh_topo.h>

/* The figures a cell may carry. */
enum {
	FIG_BW,
	FIG_LAT,
	N_FIGS
};

/* Texts the store owns, in chunks; with a table when interned. */
struct str_chunk;
struct str_pool {
	struct str_chunk *head;
	const char **slot; /* open addressing, n_slots a power of 2 */
	size_t n_slots, used;
};

/* A copy of s in p, or NULL when out of memory. */
const char *rdp_mesh_str_add(struct str_pool *p, const char *s);
/* The copy of s in p, made on the first call with that text. */
const char *rdp_mesh_str_intern(struct str_pool *p, const char *s);
/* Every text of p freed; p is empty again. */
void rdp_mesh_str_free(struct str_pool *p);
/* len bytes of p, aligned for any field, uninitialised; NULL when out of
 * memory. Freed with p. */
void *rdp_mesh_pool_alloc(struct str_pool *p, size_t len);

/* One node's port on one rail over its cells, for the evidence: [0] as
 * sender, [1] as receiver. */
struct rdp_mesh_node_errs {
	struct rdp_ctr_sums sums; /* both ways */
	unsigned int cells[2];	  /* measured or failed */
	unsigned int with[2];	  /* its port's counters rose */
	unsigned int over[2];	  /* its port broke --max-errors */
	int suspect; /* over in more than half of its cells of a way */
};

/* One rail, as rdp_mesh_analyze left it. */
struct rail_stats {
	double med[N_FIGS]; /* of the measured cells; NAN: none */
	/* Per node: the medians of its TX row and RX column, failed cells
	 * as 0 Gb/s or an infinite latency; NAN: no cell. */
	double *row[N_FIGS], *col[N_FIGS];
	unsigned char *row_low, *col_low; /* more than half of them bad */
	int fig;			  /* rdp_mesh_rail_fig() */
	size_t n_cells;			  /* of this rail */
	int32_t *grid;			  /* rdp_mesh_grid() */
	unsigned char *bads; /* bit tx * nodes + rx: a bad cell of the pair */
};

struct rdp_mesh {
	const struct rdp_mesh_plan *plan;
	unsigned int nodes, rails;
	char **names;
	struct rdp_mesh_cell *cells;
	size_t n, cap;
	struct rdp_mesh_cell *retests; /* run again, past the plan's rounds */
	size_t n_re, cap_re;
	struct rail_stats *stats;	   /* one per rail */
	struct rdp_mesh_round_time *times; /* per round; wall 0: none */
	size_t n_times;
	double bootstrap_s;
	struct rdp_mesh_limits limits; /* of the last analysis */
	enum rdp_mesh_scale scale;     /* of the heatmaps */
	int analyzed;
	/* The cells of each round in the order added, for the journal:
	 * first[k] and last[k] of round k (n_idx rounds), next[i] the cell
	 * after cell i in its round (cap_idx entries); -1 none. */
	int32_t *first, *last, *next;
	size_t n_idx, cap_idx;
	struct str_pool reasons; /* of failed cells, interned */
	struct str_pool flags;	 /* of the analysis's flags */
	size_t json_cells_max;	 /* mesh.json lists cells up to this */
	/* Heatmap blocks, rdp_mesh_set_groups(); NULL: by node, or by
	 * consecutive nodes above RDP_MESH_HEATMAP_MAX_NODES. */
	unsigned int *group_of, n_groups;
	char **group_names;
	const struct rdp_mesh_faults *faults; /* rdp_mesh_set_faults */
	const struct rdp_mesh_quick *quick;   /* rdp_mesh_set_quick */
	struct rdp_mesh_pruned *pruned;	      /* rdp_mesh_set_pruned */
	size_t n_pruned;
	int pruning;			   /* set_pruned called */
	struct rdp_mesh_coverage coverage; /* rdp_mesh_set_coverage */
	int has_coverage;
	/* --topology: the cells' paths in the files; NULL: none. */
	const struct rdp_mesh_place *place;
	struct rdp_mesh_cover_reach cover; /* rdp_mesh_set_cover */
	int has_cover;
	/* The cells' error counters and their names. */
	struct str_pool errs;
	/* Per node x rails + rail, by the last analysis; NULL before. */
	struct rdp_mesh_node_errs *nerr;
	/* --victim's figures, rdp_mesh_set_congestion; NULL: none. */
	const struct rdp_mesh_congestion *congestion;
};

/* The cell's value of fig: failed cells 0 Gb/s and infinite latency. */
double rdp_mesh_fig(const struct rdp_mesh_cell *c, int fig);
/*
 * The figure a rail's matrix and heatmap show: FIG_BW when a cell of the
 * rail has a bandwidth, else FIG_LAT when one has a latency, else -1.
 */
int rdp_mesh_rail_fig(const struct rdp_mesh *m, unsigned int rail);
/*
 * Sender x receiver cell numbers of one rail (nodes x nodes, row-major,
 * -1 where untested; a later cell replaces an earlier one), or NULL
 * when out of memory. The caller frees it.
 */
int32_t *rdp_mesh_grid(const struct rdp_mesh *m, unsigned int rail);
/* Cell i into its pair's place in grid g, unless it is SKIPPED and a
 * measured or failed cell holds the place. */
void rdp_mesh_grid_put(const struct rdp_mesh *m, int32_t *g, size_t i);

/* v as printf's "%.3f" writes it, into buf (at least 32 bytes); returns
 * the length. */
size_t rdp_mesh_fmt_fixed3(char *buf, size_t len, double v);
/* A finite v as jansson writes a real at 10 digits ("100.0", "1e5"),
 * into buf (at least 40 bytes); returns the length. */
size_t rdp_mesh_fmt_real10(char *buf, size_t len, double v);

/* The median of v (n), reordering v; NAN when n is 0. Linear time. */
double rdp_mesh_median(double *v, size_t n);

/* A cell as mesh.json's cells[] and cells.jsonl have it, or NULL when out
 * of memory. */
json_t *rdp_mesh_cell_json(const struct rdp_mesh *m,
			   const struct rdp_mesh_cell *c);

/* The bit of the pair tx->rx in a nodes x nodes bitmap. */
static inline size_t rdp_mesh_pair_bit(const struct rdp_mesh *m,
				       unsigned int tx, unsigned int rx)
{
	return (size_t)tx * m->nodes + rx;
}
/* A cell's "path" (run_topo.c; m->place set), or NULL out of memory. */
struct json_t *rdp_mesh_cell_path_json(const struct rdp_mesh *m,
				       const struct rdp_mesh_cell *c);
/* mesh.json's "quick" (quick_verdict.c; m->quick set), or NULL out of
 * memory. */
struct json_t *rdp_mesh_quick_json(const struct rdp_mesh *m);
/* mesh.json's "congestion" (congestion.c; m->congestion set), or NULL
 * out of memory. */
struct json_t *rdp_mesh_congestion_json(const struct rdp_mesh *m);
/*
 * A retest of a pair the last analysis did not find bad (a quick pass's
 * suspect against a good node): kept as rdp_mesh_add_retest keeps a
 * retest, whatever that analysis found of the pair; the next analysis
 * judges it, and links it to a first-pass cell of the pair only when
 * that cell is bad. 0 or -errno; the store takes c->result in every
 * case.
 */
int rdp_mesh_add_retest_new(struct rdp_mesh *m, const struct rdp_mesh_cell *c);
/* mesh.json's faults[] (locate.c), or NULL out of memory. */
struct json_t *rdp_mesh_faults_json(const struct rdp_mesh *m);
/* mesh.json's "cover" (topo_cover.c), or NULL out of memory. */
struct json_t *rdp_mesh_cover_json(const struct rdp_mesh *m);
/* "cover: 12 of 12 node cables carried traffic ..." */
void rdp_mesh_cover_reach_print(const struct rdp_mesh_cover_reach *r,
				FILE *out);

/* A cell flagged or failed (not OK, not SKIPPED). */
static inline int rdp_mesh_bad(const struct rdp_mesh_cell *c)
{
	return c->status == RDP_MESH_FAILED || c->status == RDP_MESH_FLAGGED;
}

/* ---- Error counters (errors.c) ---- */

/* Counters a port of a cell read from JSON holds at most. */
#define RDP_MESH_ERR_CTRS 32
/* Room for the errors of one cell read from JSON. */
struct rdp_mesh_errors_buf {
	struct rdp_mesh_errors e;
	struct rdp_mesh_ctr ctr[2][RDP_MESH_ERR_CTRS];
};

/* A copy of e in m's pool (NULL in *out when nothing rose). 0, -ENOMEM. */
int rdp_mesh_errors_keep(struct rdp_mesh *m, const struct rdp_mesh_errors *e,
			 const struct rdp_mesh_errors **out);
/* c's ports against me: c->errs_over set, each port broken appended to
 * why ("sender's port: ..."). 0, -ENOMEM. */
int rdp_mesh_errors_judge(const struct rdp_max_errors *me,
			  struct rdp_mesh_cell *c, char *why, size_t len);
/* m->nerr from the cells and their errs_over. 0, -ENOMEM. */
int rdp_mesh_errors_tally(struct rdp_mesh *m);
/* A cell's "errors": {"tx": {"link", "retries", "congestion",
 * "counters": {NAME: N}}, "rx": {...}}, or NULL out of memory. */
json_t *rdp_mesh_errors_json(const struct rdp_mesh_errors *e);
/* The same back, into b (names borrowed from o); NULL when o is no
 * object or nothing rose. */
const struct rdp_mesh_errors *
rdp_mesh_errors_from_json(json_t *o, struct rdp_mesh_errors_buf *b);
/* mesh.json's "node_errors": each node and rail whose port rose. */
json_t *rdp_mesh_node_errors_json(const struct rdp_mesh *m);
/* Whether a cell carries errors. */
int rdp_mesh_errors_any(const struct rdp_mesh *m);
/* outliers.txt's "errors:" line of each node the errors name. */
void rdp_mesh_errors_text(const struct rdp_mesh *m, FILE *f);

/* ---- A rank's sessions' counters (errors_run.c) ---- */

struct rdp_report_sink;
struct rdp_mesh_err_sink;
/* A sink summing the counters of a session's points (NULL out of
 * memory), as the extra sink rdp_session_client_kept takes (its base;
 * NULL for NULL). */
struct rdp_mesh_err_sink *rdp_mesh_err_sink_create(void);
struct rdp_report_sink *rdp_mesh_err_sink_base(struct rdp_mesh_err_sink *e);
/* The sums as the record's "errors" (sender: this side), when any
 * counter rose. 0, -ENOMEM. */
int rdp_mesh_err_sink_put(const struct rdp_mesh_err_sink *e, json_t *rec);
void rdp_mesh_err_sink_free(struct rdp_mesh_err_sink *e);
/* A record's "errors" into b, the ports swapped for its reverse cell
 * (-b); NULL when none rose. */
const struct rdp_mesh_errors *
rdp_mesh_errors_of_record(json_t *rec, int reverse,
			  struct rdp_mesh_errors_buf *b);

#endif /* RDMAPERF_MESH_INT_H */
