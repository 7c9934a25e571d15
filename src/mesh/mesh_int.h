/* SPDX-License-Identifier: BSD-2-Clause */
/* What the files of the mesh folder share: the store and its analysis. */
#ifndef RDMAPERF_MESH_INT_H
#define RDMAPERF_MESH_INT_H

#include <stdint.h>

#include <rdmaperf/mesh.h>

/* The figures a cell may carry. */
enum {
	FIG_BW,
	FIG_LAT,
	N_FIGS
};

/* One rail, as rdp_mesh_analyze left it. */
struct rail_stats {
	double med[N_FIGS]; /* of the measured cells; NAN: none */
	/* Per node: the medians of its TX row and RX column, failed cells
	 * as 0 Gb/s or an infinite latency; NAN: no cell. */
	double *row[N_FIGS], *col[N_FIGS];
	unsigned char *row_low, *col_low; /* more than half of them bad */
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
	const struct rdp_mesh_faults *faults; /* rdp_mesh_set_faults */
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

/* mesh.json's faults[] (locate.c), or NULL out of memory. */
struct json_t *rdp_mesh_faults_json(const struct rdp_mesh *m);

/* A cell flagged or failed. */
static inline int rdp_mesh_bad(const struct rdp_mesh_cell *c)
{
	return c->status != RDP_MESH_OK;
}

#endif /* RDMAPERF_MESH_INT_H */
