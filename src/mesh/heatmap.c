/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The heatmap of one rail as a gnuplot script: one box per cell, sender
 * rows and receiver columns, coloured by % of the rail's median (or of
 * each cell's line rate), failed cells in black and flagged cells crossed. The data goes inline as
 * datablocks, as in report/plot.c.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "mesh_int.h"

/* Above this many nodes the axes get numbers, not names. */
#define NAMED_AXES_MAX 64

/* A node name inside a quoted gnuplot string: letters, digits, ".-_". */
static void tic_name(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
				      (*s >= '0' && *s <= '9') || *s == '.' ||
				      *s == '-' || *s == '_'
			      ? *s
			      : '-',
		      f);
}

static void tics(FILE *f, const struct rdp_mesh *m, const char *axis)
{
	unsigned int i;

	if (m->nodes > NAMED_AXES_MAX) {
		fprintf(f, "set %stics out\n", axis);
		return;
	}
	fprintf(f, "set %stics out (", axis);
	for (i = 0; i < m->nodes; i++) {
		fprintf(f, "%s\"", i ? ", " : "");
		tic_name(f, m->names[i]);
		fprintf(f, "\" %u", i);
	}
	fprintf(f, ")%s\n", axis[0] == 'x' ? " rotate by 90 right" : "");
}

/* What a cell is drawn in % of: its line rate, or the rail's median. */
static double base_of(const struct rdp_mesh *m, const struct rdp_mesh_cell *c,
		      double med)
{
	return m->scale == RDP_MESH_SCALE_LINE ? c->line_gbps : med;
}

/*
 * The three datablocks ($cells: receiver, sender, % of the base;
 * $failed, $flagged: receiver, sender); counts of each in n[].
 */
static void blocks(FILE *f, const struct rdp_mesh *m, const int32_t *g, int fig,
		   double med, size_t n[3])
{
	static const char *const name[3] = { "cells", "failed", "flagged" };
	const struct rdp_mesh_cell *c;
	unsigned int tx, rx;
	double v, base;
	int b;

	for (b = 0; b < 3; b++) {
		n[b] = 0;
		fprintf(f, "$%s << EOD\n", name[b]);
		for (tx = 0; tx < m->nodes; tx++)
			for (rx = 0; rx < m->nodes; rx++) {
				if (g[(size_t)tx * m->nodes + rx] < 0)
					continue;
				c = &m->cells[g[(size_t)tx * m->nodes + rx]];
				v = fig < 0 ? NAN : rdp_mesh_fig(c, fig);
				base = base_of(m, c, med);
				if (b == 0 && (c->status == RDP_MESH_FAILED ||
					       !isfinite(v) || !(base > 0)))
					continue;
				if (b == 1 && c->status != RDP_MESH_FAILED)
					continue;
				if (b == 2 && c->status != RDP_MESH_FLAGGED)
					continue;
				fprintf(f, "%u %u", rx, tx);
				if (b == 0)
					fprintf(f, " %.4f", 100 * v / base);
				fputc('\n', f);
				n[b]++;
			}
		fprintf(f, "EOD\n");
	}
}

/* Colours: green at the median, yellow at the tolerance, red far off;
 * bandwidth is bad below, latency above. */
static void palette(FILE *f, int fig, double tol)
{
	double edge, far;

	if (fig == FIG_LAT) {
		edge = fmax(100 * (1 + tol), 100.5);
		far = fmax(200, 100 * (1 + 2 * tol));
		fprintf(f,
			"set cbrange [90:%.4g]\n"
			"set palette defined (90 '#1b5e20', 100 '#2e7d32', "
			"%.4g '#fdd835', %.4g '#b71c1c')\n",
			far, edge, far);
		return;
	}
	edge = fmin(100 * (1 - tol), 99.5);
	far = fmax(fmin(50, 100 * (1 - 2 * tol)), 0);
	if (far >= edge)
		far = edge / 2;
	fprintf(f,
		"set cbrange [%.4g:110]\n"
		"set palette defined (%.4g '#b71c1c', %.4g '#fdd835', 100 "
		"'#2e7d32', 110 '#1b5e20')\n",
		far, far, edge);
}

static void settings(FILE *f, const struct rdp_mesh *m, unsigned int rail,
		     int fig, double med)
{
	unsigned int side = 500 + 14 * m->nodes;

	if (side > 4000)
		side = 4000;
	fprintf(f,
		"set terminal svg size %u,%u dynamic enhanced font "
		"'sans,11' background rgb 'white'\n"
		"set termoption noenhanced\n",
		side + 120, side);
	if (fig >= 0 && m->scale == RDP_MESH_SCALE_LINE)
		fprintf(f,
			"set title 'rail %u: bandwidth in %% of the line rate "
			"(failed cells black, flagged crossed)'\n",
			rail);
	else if (fig >= 0 && med > 0)
		fprintf(f,
			"set title 'rail %u: %s in %% of the median %.3f %s "
			"(failed cells black, flagged crossed)'\n",
			rail, fig == FIG_BW ? "bandwidth" : "latency", med,
			fig == FIG_BW ? "Gb/s" : "us");
	else
		fprintf(f,
			"set title 'rail %u: no cell measured (failed cells "
			"black)'\n",
			rail);
	fprintf(f,
		"set xlabel 'receiver'\nset ylabel 'sender'\n"
		"set xrange [-0.5:%u.5]\nset yrange [%u.5:-0.5]\n"
		"set size ratio -1\nset style fill solid 1.0 noborder\n"
		"set cblabel '%% of the %s'\nset key below\n",
		m->nodes - 1, m->nodes - 1,
		m->scale == RDP_MESH_SCALE_LINE ? "line rate" : "median");
	/* On the line rate, yellow at --min-bw PCT% where it is set. */
	palette(f, fig,
		m->scale == RDP_MESH_SCALE_LINE && m->limits.min_bw_pct > 0
			? 1 - m->limits.min_bw_pct / 100
			: m->limits.tol);
	tics(f, m, "x");
	tics(f, m, "y");
}

static void plot_line(FILE *f, const size_t n[3])
{
	const char *sep = "plot ";

	if (n[0]) {
		fprintf(f,
			"%s$cells using 1:2:(0.5):(0.5):3 with boxxyerror "
			"fc palette notitle",
			sep);
		sep = ", ";
	}
	if (n[1]) {
		fprintf(f,
			"%s$failed using 1:2:(0.5):(0.5) with boxxyerror fc "
			"rgb '#000000' title 'failed'",
			sep);
		sep = ", ";
	}
	if (n[2])
		fprintf(f,
			"%s$flagged using 1:2 with points pt 2 ps 1.5 lc rgb "
			"'#000000' title 'flagged'",
			sep);
	fputc('\n', f);
}

int rdp_mesh_heatmap_script(const struct rdp_mesh *m, unsigned int rail,
			    FILE *f)
{
	int fig = rdp_mesh_rail_fig(m, rail);
	double med;
	int32_t *g;
	size_t n[3];

	if (!m->analyzed || rail >= m->rails)
		return -EINVAL;
	med = fig >= 0 ? m->stats[rail].med[fig] : NAN;
	if (fig != FIG_BW && m->scale == RDP_MESH_SCALE_LINE)
		return -EINVAL;
	g = rdp_mesh_grid(m, rail);
	if (!g)
		return -ENOMEM;
	fprintf(f,
		"# rdmaperf mesh heatmap of rail %u: data inline, SVG on "
		"stdout\n",
		rail);
	blocks(f, m, g, fig, med, n);
	free(g);
	if (!n[0] && !n[1])
		return -EINVAL;
	settings(f, m, rail, fig, med);
	plot_line(f, n);
	return ferror(f) ? -EIO : 0;
}
