/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The matrices for a terminal: aligned columns under a heading that
 * names the unit; a summary per rail where the matrix would not fit a
 * screen (its CSV file holds it).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mesh_int.h"

#define LABEL_MAX 16 /* characters of a row's node name */
#define COL_MAX	  12 /* characters of a column */
#define COL_MIN	  7  /* "100.00*" */

static const char *const unit[N_FIGS] = { "Gb/s", "us" };

static unsigned int longest_name(const struct rdp_mesh *m)
{
	unsigned int i, w = 0;
	size_t len;

	for (i = 0; i < m->nodes; i++) {
		len = strlen(m->names[i]);
		if (len > w)
			w = (unsigned int)len;
	}
	return w;
}

/* One cell, right-aligned in w: the figure ("*" when flagged), "failed",
 * "skipped", "-" untested, "?" for a status without a figure. */
static void cell_text(FILE *f, const struct rdp_mesh_cell *c, int fig, int w)
{
	char buf[32];
	double v = c && fig >= 0 ? rdp_mesh_fig(c, fig) : NAN;

	if (!c)
		snprintf(buf, sizeof(buf), "-");
	else if (c->status == RDP_MESH_FAILED)
		snprintf(buf, sizeof(buf), "failed");
	else if (c->status == RDP_MESH_SKIPPED)
		snprintf(buf, sizeof(buf), "skipped");
	else if (isfinite(v))
		snprintf(buf, sizeof(buf), "%.2f%s", v,
			 c->status == RDP_MESH_FLAGGED ? "*" : "");
	else
		snprintf(buf, sizeof(buf), "?");
	fprintf(f, " %*s", w, buf);
}

static int matrix_text(const struct rdp_mesh *m, unsigned int rail, FILE *f)
{
	int fig = rdp_mesh_rail_fig(m, rail), flagged = 0;
	unsigned int tx, rx, name = longest_name(m);
	int lw = (int)(name < LABEL_MAX ? (name < 5 ? 5 : name) : LABEL_MAX);
	int cw = (int)(name < COL_MIN	? COL_MIN
		       : name < COL_MAX ? name
					: COL_MAX);
	const struct rdp_mesh_cell *c;
	int32_t *g = rdp_mesh_grid(m, rail);

	if (!g)
		return -ENOMEM;
	/* The heading run.c printed before: scripts match it. */
	fprintf(f, "rail %u: sender rows, receiver columns, %s\n", rail,
		fig >= 0 ? unit[fig] : "no figures");
	fprintf(f, "%-*s", lw, "tx\\rx");
	for (rx = 0; rx < m->nodes; rx++)
		fprintf(f, " %*.*s", cw, cw, m->names[rx]);
	fputc('\n', f);
	for (tx = 0; tx < m->nodes; tx++) {
		fprintf(f, "%-*.*s", lw, lw, m->names[tx]);
		for (rx = 0; rx < m->nodes; rx++) {
			c = g[(size_t)tx * m->nodes + rx] < 0
				    ? NULL
				    : &m->cells[g[(size_t)tx * m->nodes + rx]];
			flagged |= c && c->status == RDP_MESH_FLAGGED;
			cell_text(f, c, fig, cw);
		}
		fputc('\n', f);
	}
	if (flagged)
		fputs("* flagged\n", f);
	free(g);
	return 0;
}

/* The lowest bandwidth (highest latency) of v[nodes]: its node, or -1. */
static long worst_of(const struct rdp_mesh *m, const double *v, int fig)
{
	long worst = -1;
	unsigned int i;

	for (i = 0; i < m->nodes; i++)
		if (!isnan(v[i]) &&
		    (worst < 0 ||
		     (fig == FIG_BW ? v[i] < v[worst] : v[i] > v[worst])))
			worst = (long)i;
	return worst;
}

/* "; lowest TX row node5 60.00, lowest RX column node5 59.90" */
static void worst_lines(const struct rdp_mesh *m, unsigned int rail, int fig,
			FILE *f)
{
	const struct rail_stats *s = &m->stats[rail];
	const char *what = fig == FIG_BW ? "lowest" : "highest";
	long row = worst_of(m, s->row[fig], fig);
	long col = worst_of(m, s->col[fig], fig);

	if (row >= 0)
		fprintf(f, "; %s TX row %s %.2f", what, m->names[row],
			s->row[fig][row]);
	if (col >= 0)
		fprintf(f, ", %s RX column %s %.2f", what, m->names[col],
			s->col[fig][col]);
}

/* "rail 0: 1047552 cells of 1024 nodes, Gb/s: median 100.00, 16377
 * flagged, 1023 failed; lowest TX row ...; the matrix: matrix-rail0.csv" */
static void summary_text(const struct rdp_mesh *m, unsigned int rail, FILE *f)
{
	int fig = rdp_mesh_rail_fig(m, rail);
	size_t n = 0, flagged = 0, failed = 0, skipped = 0, i;

	for (i = 0; i < m->n; i++) {
		if (m->cells[i].rail != rail)
			continue;
		n++;
		flagged += m->cells[i].status == RDP_MESH_FLAGGED;
		failed += m->cells[i].status == RDP_MESH_FAILED;
		skipped += m->cells[i].status == RDP_MESH_SKIPPED;
	}
	fprintf(f, "rail %u: %zu cells of %u nodes, %s", rail, n, m->nodes,
		fig >= 0 ? unit[fig] : "no figures");
	if (m->analyzed && fig >= 0)
		fprintf(f, ": median %.2f", m->stats[rail].med[fig]);
	fprintf(f, ", %zu flagged, %zu failed", flagged, failed);
	if (skipped)
		fprintf(f, ", %zu skipped", skipped);
	if (m->analyzed && fig >= 0)
		worst_lines(m, rail, fig, f);
	fprintf(f, "; the matrix: matrix-rail%u.csv\n", rail);
}

int rdp_mesh_print_matrices(const struct rdp_mesh *m, FILE *f)
{
	unsigned int rail;
	int ret = 0;

	for (rail = 0; !ret && rail < m->rails; rail++) {
		if (m->nodes <= RDP_MESH_PRINT_MAX_NODES)
			ret = matrix_text(m, rail, f);
		else
			summary_text(m, rail, f);
	}
	if (!ret && (ferror(f) || fflush(f)))
		ret = -EIO;
	return ret;
}
