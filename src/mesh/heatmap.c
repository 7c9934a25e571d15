/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The heatmap of one rail as a gnuplot script: one box per cell, sender
 * rows and receiver columns, coloured by % of the rail's median (or of
 * each cell's line rate), failed cells in black and flagged cells
 * crossed; past a few hundred nodes (or by a group map) one box per
 * block of nodes, coloured by its cells' median. The data goes inline as
 * datablocks, as in report/plot.c.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mesh_int.h"

/* What the boxes of each side are: nodes, or blocks of them. */
struct axes {
	unsigned int n;	   /* boxes a side */
	unsigned int *of;  /* node -> block; NULL: a box a node */
	unsigned int size; /* nodes a block when consecutive; 0: a map */
};

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

/* The name of box i of a side. */
static void box_name(FILE *f, const struct rdp_mesh *m, const struct axes *ax,
		     unsigned int i)
{
	unsigned int last;

	if (!ax->of) {
		tic_name(f, m->names[i]);
	} else if (!ax->size) {
		tic_name(f, m->group_names[i]);
	} else {
		last = (i + 1) * ax->size - 1;
		fprintf(f, "%u-%u", i * ax->size,
			last < m->nodes ? last : m->nodes - 1);
	}
}

static void tics(FILE *f, const struct rdp_mesh *m, const struct axes *ax,
		 const char *axis)
{
	unsigned int i;

	if (ax->n > NAMED_AXES_MAX) {
		fprintf(f, "set %stics out\n", axis);
		return;
	}
	fprintf(f, "set %stics out (", axis);
	for (i = 0; i < ax->n; i++) {
		fprintf(f, "%s\"", i ? ", " : "");
		box_name(f, m, ax, i);
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

/* The % of its base that cell c shows: failed 0 (bandwidth) or infinite
 * (latency); NAN when it has no figure or no base. */
static double pct_of(const struct rdp_mesh *m, const struct rdp_mesh_cell *c,
		     int fig, double med)
{
	double v = fig < 0 ? NAN : rdp_mesh_fig(c, fig);
	double base = base_of(m, c, med);

	if (c->status == RDP_MESH_FAILED)
		return fig == FIG_LAT ? INFINITY : 0;
	return isfinite(v) && base > 0 ? 100 * v / base : NAN;
}

/* Per box of a block heatmap: where its values start, how many, how many
 * cells failed and how many are bad. */
struct box_count {
	size_t start, vals, failed, bad, cells;
};

/* Box k of the cell tx->rx, the cell (NULL when untested) in *c. */
static size_t box_of(const struct rdp_mesh *m, const int32_t *g,
		     const struct axes *ax, unsigned int tx, unsigned int rx,
		     const struct rdp_mesh_cell **c)
{
	int32_t i = g[(size_t)tx * m->nodes + rx];

	*c = i >= 0 ? &m->cells[i] : NULL;
	return (size_t)ax->of[tx] * ax->n + ax->of[rx];
}

/* Box counts, then the values of each box into v (grouped by box). */
static void fill_boxes(const struct rdp_mesh *m, const int32_t *g,
		       const struct axes *ax, int fig, double med,
		       struct box_count *b, double *v)
{
	size_t nb = (size_t)ax->n * ax->n, i, k, at = 0;
	const struct rdp_mesh_cell *c;
	unsigned int tx, rx;
	double p;

	for (tx = 0; tx < m->nodes; tx++)
		for (rx = 0; rx < m->nodes; rx++) {
			k = box_of(m, g, ax, tx, rx, &c);
			/* A skipped cell is blank, as an untested one. */
			if (!c || c->status == RDP_MESH_SKIPPED)
				continue;
			b[k].vals += !isnan(pct_of(m, c, fig, med));
			b[k].failed += c->status == RDP_MESH_FAILED;
			b[k].bad += (size_t)rdp_mesh_bad(c);
			b[k].cells++;
		}
	for (i = 0; i < nb; i++) {
		b[i].start = at;
		at += b[i].vals;
		b[i].vals = 0;
	}
	for (tx = 0; tx < m->nodes; tx++)
		for (rx = 0; rx < m->nodes; rx++) {
			k = box_of(m, g, ax, tx, rx, &c);
			p = c ? pct_of(m, c, fig, med) : NAN;
			if (!isnan(p))
				v[b[k].start + b[k].vals++] = p;
		}
}

/* The datablocks of a block heatmap: a box's median, its failed majority,
 * its bad cells. */
static int block_data(FILE *f, const struct rdp_mesh *m, const int32_t *g,
		      const struct axes *ax, int fig, double med, size_t n[3])
{
	size_t nb = (size_t)ax->n * ax->n, i;
	struct box_count *b = calloc(nb, sizeof(*b));
	double *v = malloc(((size_t)m->nodes * m->nodes + 1) * sizeof(*v));
	double p;

	if (!b || !v) {
		free(b);
		free(v);
		return -ENOMEM;
	}
	fill_boxes(m, g, ax, fig, med, b, v);
	memset(n, 0, 3 * sizeof(*n));
	fprintf(f, "$cells << EOD\n");
	for (i = 0; i < nb; i++) {
		p = rdp_mesh_median(v + b[i].start, b[i].vals);
		if (2 * b[i].failed > b[i].cells || !isfinite(p))
			continue;
		fprintf(f, "%zu %zu %.4f\n", i % ax->n, i / ax->n, p);
		n[0]++;
	}
	fprintf(f, "EOD\n$failed << EOD\n");
	for (i = 0; i < nb; i++)
		if (b[i].cells && 2 * b[i].failed > b[i].cells) {
			fprintf(f, "%zu %zu\n", i % ax->n, i / ax->n);
			n[1]++;
		}
	fprintf(f, "EOD\n$flagged << EOD\n");
	for (i = 0; i < nb; i++)
		if (b[i].bad && 2 * b[i].failed <= b[i].cells) {
			fprintf(f, "%zu %zu\n", i % ax->n, i / ax->n);
			n[2]++;
		}
	fprintf(f, "EOD\n");
	free(b);
	free(v);
	return 0;
}

/* The heatmap's sides: the store's group map; blocks of consecutive
 * nodes past RDP_MESH_HEATMAP_MAX_NODES; else a box a node. */
static int axes_of(const struct rdp_mesh *m, struct axes *ax)
{
	unsigned int i;

	memset(ax, 0, sizeof(*ax));
	ax->n = m->nodes;
	if (m->group_of) {
		ax->n = m->n_groups;
		ax->of = m->group_of;
		return 0;
	}
	if (m->nodes <= RDP_MESH_HEATMAP_MAX_NODES)
		return 0;
	ax->size = (m->nodes + RDP_MESH_HEATMAP_BLOCKS - 1) /
		   RDP_MESH_HEATMAP_BLOCKS;
	ax->n = (m->nodes + ax->size - 1) / ax->size;
	ax->of = malloc(m->nodes * sizeof(*ax->of));
	if (!ax->of)
		return -ENOMEM;
	for (i = 0; i < m->nodes; i++)
		ax->of[i] = i / ax->size;
	return 0;
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
		     int fig, double med, const struct axes *ax)
{
	unsigned int side = 500 + 14 * ax->n;
	const char *what = ax->of ? "the median of each block, " : "";

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
			"(%sfailed black, flagged crossed)'\n",
			rail, what);
	else if (fig >= 0 && med > 0)
		fprintf(f,
			"set title 'rail %u: %s in %% of the median %.3f %s "
			"(%sfailed black, flagged crossed)'\n",
			rail, fig == FIG_BW ? "bandwidth" : "latency", med,
			fig == FIG_BW ? "Gb/s" : "us", what);
	else
		fprintf(f,
			"set title 'rail %u: no cell measured (failed cells "
			"black)'\n",
			rail);
	fprintf(f,
		"set xlabel 'receiver%s'\nset ylabel 'sender%s'\n"
		"set xrange [-0.5:%u.5]\nset yrange [%u.5:-0.5]\n"
		"set size ratio -1\nset style fill solid 1.0 noborder\n"
		"set cblabel '%% of the %s'\nset key below\n",
		ax->of ? "s" : "", ax->of ? "s" : "", ax->n - 1, ax->n - 1,
		m->scale == RDP_MESH_SCALE_LINE ? "line rate" : "median");
	/* On the line rate, yellow at --min-bw PCT% where it is set. */
	palette(f, fig,
		m->scale == RDP_MESH_SCALE_LINE && m->limits.min_bw_pct > 0
			? 1 - m->limits.min_bw_pct / 100
			: m->limits.tol);
	tics(f, m, ax, "x");
	tics(f, m, ax, "y");
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
	int fig, ret;
	struct axes ax;
	const int32_t *g;
	double med;
	size_t n[3];

	if (!m->analyzed || rail >= m->rails)
		return -EINVAL;
	fig = rdp_mesh_rail_fig(m, rail);
	med = fig >= 0 ? m->stats[rail].med[fig] : NAN;
	if (fig != FIG_BW && m->scale == RDP_MESH_SCALE_LINE)
		return -EINVAL;
	g = m->stats[rail].grid;
	ret = axes_of(m, &ax);
	if (ret)
		return ret;
	fprintf(f,
		"# rdmaperf mesh heatmap of rail %u: data inline, SVG on "
		"stdout\n",
		rail);
	if (ax.of)
		ret = block_data(f, m, g, &ax, fig, med, n);
	else
		blocks(f, m, g, fig, med, n);
	if (!ret && !n[0] && !n[1])
		ret = -EINVAL;
	if (!ret) {
		settings(f, m, rail, fig, med, &ax);
		plot_line(f, n);
		ret = ferror(f) ? -EIO : 0;
	}
	if (ax.size)
		free(ax.of);
	return ret;
}
