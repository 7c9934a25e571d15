/* SPDX-License-Identifier: BSD-2-Clause */
/* The text files of a mesh: a sender x receiver CSV matrix per rail, the
 * long-form CSV of every cell, and outliers.txt. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mesh_int.h"

static const char *const unit[N_FIGS] = { "Gb/s", "us" };

/* A CSV field: quoted, quotes doubled, when it holds , " or a newline. */
static void csv_text(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* ",25.000", or "," alone when v is not a number. */
static void csv_number(FILE *f, double v)
{
	char buf[40];

	buf[0] = ',';
	if (isfinite(v))
		fwrite(buf, 1, 1 + rdp_mesh_fmt_fixed3(buf + 1, 39, v), f);
	else
		fputc(',', f);
}

static int done(FILE *f)
{
	return ferror(f) || fflush(f) ? -EIO : 0;
}

int rdp_mesh_write_matrix(const struct rdp_mesh *m, unsigned int rail, FILE *f)
{
	int fig = rdp_mesh_rail_fig(m, rail);
	int32_t *g, cell;
	unsigned int tx, rx;

	if (rail >= m->rails)
		return -EINVAL;
	g = rdp_mesh_grid(m, rail);
	if (!g)
		return -ENOMEM;
	fputs("tx\\rx", f);
	for (rx = 0; rx < m->nodes; rx++) {
		fputc(',', f);
		csv_text(f, m->names[rx]);
	}
	fputc('\n', f);
	for (tx = 0; tx < m->nodes; tx++) {
		csv_text(f, m->names[tx]);
		for (rx = 0; rx < m->nodes; rx++) {
			cell = g[(size_t)tx * m->nodes + rx];
			if (cell >= 0 &&
			    m->cells[cell].status == RDP_MESH_FAILED)
				fputs(",failed", f);
			else if (cell >= 0 &&
				 m->cells[cell].status == RDP_MESH_SKIPPED)
				fputs(",skipped", f);
			else if (cell >= 0 && fig >= 0)
				csv_number(f,
					   rdp_mesh_fig(&m->cells[cell], fig));
			else
				fputc(',', f);
		}
		fputc('\n', f);
	}
	free(g);
	return done(f);
}

int rdp_mesh_write_cells(const struct rdp_mesh *m, FILE *f)
{
	const struct rdp_mesh_cell *c, *again;
	size_t i;

	fputs("tx,rx,rail,round,status,class,suspect,bw_gbps,lat_us,retest,"
	      "retest_bw_gbps,retest_lat_us,reason\n",
	      f);
	for (i = 0; i < m->n; i++) {
		c = &m->cells[i];
		csv_text(f, m->names[c->tx]);
		fputc(',', f);
		csv_text(f, m->names[c->rx]);
		fprintf(f, ",%u,%u,%s,%s,", c->rail, c->round + 1,
			rdp_mesh_status_name(c->status),
			rdp_mesh_class_name(c->cls));
		if (c->cls != RDP_MESH_CLASS_NONE)
			csv_text(f, m->names[c->suspect]);
		csv_number(f, c->bw_gbps);
		csv_number(f, c->lat_us);
		again = c->again >= 0 ? &m->retests[c->again] : NULL;
		fprintf(f, ",%s",
			!again		      ? ""
			: rdp_mesh_bad(again) ? "held"
					      : "cleared");
		csv_number(f, again ? again->bw_gbps : NAN);
		csv_number(f, again ? again->lat_us : NAN);
		fputc(',', f);
		csv_text(f, c->reason ? c->reason : "");
		fputc('\n', f);
	}
	return done(f);
}

/* What a class says about the suspect (and, for a link, both ends). */
static void class_text(FILE *f, const struct rdp_mesh *m,
		       const struct rdp_mesh_cell *c)
{
	const char *who = m->names[c->suspect];

	switch (c->cls) {
	case RDP_MESH_CLASS_NODE:
		fprintf(f,
			"node %s or its NIC (its TX row and RX column are "
			"low)",
			who);
		break;
	case RDP_MESH_CLASS_TX:
		fprintf(f,
			"the send direction of %s, a cable or lane (its TX "
			"row is low, its RX column is not)",
			who);
		break;
	case RDP_MESH_CLASS_RX:
		fprintf(f,
			"the receive direction of %s, a cable or lane (its RX "
			"column is low, its TX row is not)",
			who);
		break;
	default:
		fprintf(f,
			"the link or path %s->%s (its rows and columns are "
			"fine)",
			m->names[c->tx], m->names[c->rx]);
		break;
	}
}

static void median_text(FILE *f, double v)
{
	if (isnan(v))
		fputs("-", f);
	else
		fprintf(f, "%.3f", v);
}

/* "; medians Gb/s: rail 25.000, a TX 12.100 RX 12.000, b TX ... RX ..." */
static void medians_text(FILE *f, const struct rdp_mesh *m,
			 const struct rdp_mesh_cell *c)
{
	const struct rail_stats *s = &m->stats[c->rail];
	int fig = rdp_mesh_rail_fig(m, c->rail);
	unsigned int ends[2] = { c->tx, c->rx }, k;

	if (fig < 0)
		return;
	fprintf(f, "; medians %s: rail ", unit[fig]);
	median_text(f, s->med[fig]);
	for (k = 0; k < 2; k++) {
		fprintf(f, ", %s TX ", m->names[ends[k]]);
		median_text(f, s->row[fig][ends[k]]);
		fputs(" RX ", f);
		median_text(f, s->col[fig][ends[k]]);
	}
}

/* "; retest round 9: held (why)" or "; ...: did not hold (97.1 Gb/s)". */
static void again_text(FILE *f, const struct rdp_mesh_cell *r)
{
	fprintf(f, "; retest round %u: ", r->round + 1);
	if (rdp_mesh_bad(r))
		fprintf(f, "held (%s)", r->reason);
	else if (isfinite(r->bw_gbps))
		fprintf(f, "did not hold (%.3f Gb/s)", r->bw_gbps);
	else
		fprintf(f, "did not hold (%.3f us)", r->lat_us);
}

/* What a suspect line groups by: rail, class, suspect, and the far end
 * of a link. */
static void suspect_key(const struct rdp_mesh_cell *c, unsigned int k[4])
{
	k[0] = c->rail;
	k[1] = c->cls;
	k[2] = c->suspect;
	k[3] = c->cls == RDP_MESH_CLASS_LINK ? c->rx : 0;
}

static int cmp_key(const struct rdp_mesh_cell *x, const struct rdp_mesh_cell *y)
{
	unsigned int kx[4], ky[4];
	int i;

	suspect_key(x, kx);
	suspect_key(y, ky);
	for (i = 0; i < 4; i++)
		if (kx[i] != ky[i])
			return kx[i] < ky[i] ? -1 : 1;
	return 0;
}

/* By key, then in the order the cells were added. */
static int cmp_suspect(const void *a, const void *b)
{
	const struct rdp_mesh_cell *x = *(const struct rdp_mesh_cell *const *)a;
	const struct rdp_mesh_cell *y = *(const struct rdp_mesh_cell *const *)b;
	int k = cmp_key(x, y);

	return k ? k : (x > y) - (x < y);
}

/* One line per suspect: "suspect: rail 0: node b or its NIC (...): 6
 * cells". */
static int suspects(FILE *f, const struct rdp_mesh *m, size_t n_bad)
{
	const struct rdp_mesh_cell **bad;
	size_t i, k = 0, run;

	bad = malloc((n_bad ? n_bad : 1) * sizeof(*bad));
	if (!bad)
		return -ENOMEM;
	for (i = 0; i < m->n && k < n_bad; i++)
		if (m->cells[i].status == RDP_MESH_FLAGGED ||
		    m->cells[i].status == RDP_MESH_FAILED)
			bad[k++] = &m->cells[i];
	qsort(bad, n_bad, sizeof(*bad), cmp_suspect);
	for (i = 0; i < n_bad; i += run) {
		for (run = 1; i + run < n_bad; run++)
			if (cmp_key(bad[i], bad[i + run]))
				break;
		fprintf(f, "suspect: rail %u: ", bad[i]->rail);
		class_text(f, m, bad[i]);
		fprintf(f, ": %zu cell%s\n", run, run > 1 ? "s" : "");
	}
	free(bad);
	return 0;
}

int rdp_mesh_write_outliers(const struct rdp_mesh *m, FILE *f)
{
	const struct rdp_mesh_cell *c;
	size_t n[4] = { 0 }, again = 0, held = 0, i, measured;
	int ret;

	if (!m->analyzed)
		return -EINVAL;
	for (i = 0; i < m->n; i++)
		if ((unsigned int)m->cells[i].status < 4)
			n[m->cells[i].status]++;
	measured = m->n - n[RDP_MESH_SKIPPED];
	if (!n[RDP_MESH_FLAGGED] && !n[RDP_MESH_FAILED]) {
		fprintf(f,
			"no outliers: %zu cells within %.4g%% of their "
			"rail's median\n",
			measured, 100 * m->limits.tol);
		return done(f);
	}
	fprintf(f,
		"%zu of %zu cells are outliers (%zu flagged, %zu failed); "
		"tolerance %.4g%%\n",
		n[RDP_MESH_FLAGGED] + n[RDP_MESH_FAILED], measured,
		n[RDP_MESH_FLAGGED], n[RDP_MESH_FAILED], 100 * m->limits.tol);
	for (i = 0; i < m->n; i++)
		if (m->cells[i].again >= 0) {
			again++;
			held += (size_t)rdp_mesh_bad(
				&m->retests[m->cells[i].again]);
		}
	if (again)
		fprintf(f,
			"retest: %zu of %zu outliers run again, the flag held "
			"on %zu\n",
			again, n[RDP_MESH_FLAGGED] + n[RDP_MESH_FAILED], held);
	ret = suspects(f, m, n[RDP_MESH_FLAGGED] + n[RDP_MESH_FAILED]);
	if (ret)
		return ret;
	rdp_mesh_errors_text(m, f);
	for (i = 0; i < m->n; i++) {
		c = &m->cells[i];
		if (!rdp_mesh_bad(c))
			continue;
		fprintf(f, "%s: rail %u round %u %s->%s: ",
			rdp_mesh_status_name(c->status), c->rail, c->round + 1,
			m->names[c->tx], m->names[c->rx]);
		class_text(f, m, c);
		fprintf(f, ": %s", c->reason ? c->reason : "");
		medians_text(f, m, c);
		if (c->again >= 0)
			again_text(f, &m->retests[c->again]);
		fputc('\n', f);
	}
	return done(f);
}

int rdp_mesh_write_reach(const struct rdp_mesh *m, FILE *f)
{
	const struct rdp_mesh_coverage *c = &m->coverage;
	size_t skipped = rdp_mesh_n_skipped(m), i;
	char why[96];

	for (i = 0; i < m->n_pruned; i++) {
		rdp_mesh_pruned_reason(&m->pruned[i], why, sizeof(why));
		fprintf(f, "pruned: %s, the likely fault: %s\n",
			m->names[m->pruned[i].node], why);
	}
	if (!m->has_coverage)
		return done(f);
	fprintf(f,
		"coverage: %zu of %zu rounds of the plan, %zu of %zu node "
		"pairs (%.0f%%)",
		c->rounds_run, c->rounds_planned, c->pairs_measured,
		c->pairs_total,
		c->pairs_total ? 100.0 * (double)c->pairs_measured /
					 (double)c->pairs_total
			       : 0.0);
	if (skipped)
		fprintf(f, "; %zu cells skipped after pruning", skipped);
	if (c->stopped)
		fprintf(f, "; stopped by --time-budget %.0f s", c->budget_s);
	fputc('\n', f);
	return done(f);
}
