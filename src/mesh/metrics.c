/* SPDX-License-Identifier: BSD-2-Clause */
/* The mesh's --metrics: per node and rail summaries of its cells, so the
 * series grow with the nodes, not with the pairs. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdmaperf/mesh.h>
#include <rdmaperf/mesh_metrics.h>
#include <rdmaperf/metrics.h>

#include "mesh_int.h"

/* One node on one rail: its cells' figures as sender and receiver. */
struct side {
	double *v; /* into the shared array */
	size_t n;
};

struct node_sum {
	struct side tx, rx;
	unsigned int bad;     /* its cells flagged or failed */
	unsigned int suspect; /* the analysis names it (node, TX, RX) */
};

struct mesh_arg {
	const struct rdp_mesh *m;
	const char *test;
	time_t when;
	struct node_sum *s; /* nodes x rails */
	double *all;	    /* two figures per cell */
	int lat;	    /* figures are latencies (seconds) */
	size_t cells, bad;
};

static int measured(const struct rdp_mesh_cell *c)
{
	return c->status == RDP_MESH_OK || c->status == RDP_MESH_FLAGGED;
}

/* A cell's figure in base units: bytes per second, or seconds. */
static double figure(const struct rdp_mesh_cell *c, int lat)
{
	return lat ? c->lat_us / 1e6 : c->bw_gbps * 1e9 / 8;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Counts, then the figures in place, sorted per side. */
static void gather(struct mesh_arg *a)
{
	const struct rdp_mesh *m = a->m;
	const struct rdp_mesh_cell *c;
	struct node_sum *tx, *rx;
	size_t i, k, at = 0;

	for (i = 0; i < rdp_mesh_n_cells(m); i++) {
		c = rdp_mesh_cell_at(m, i);
		if (c->status == RDP_MESH_SKIPPED)
			continue;
		a->cells++;
		tx = &a->s[c->tx * m->rails + c->rail];
		rx = &a->s[c->rx * m->rails + c->rail];
		if (c->status == RDP_MESH_FLAGGED ||
		    c->status == RDP_MESH_FAILED) {
			a->bad++;
			tx->bad++;
			rx->bad++;
			if (c->cls == RDP_MESH_CLASS_NODE ||
			    c->cls == RDP_MESH_CLASS_TX ||
			    c->cls == RDP_MESH_CLASS_RX)
				a->s[c->suspect * m->rails + c->rail].suspect =
					1;
		}
		if (measured(c) && isfinite(figure(c, a->lat))) {
			tx->tx.n++;
			rx->rx.n++;
		}
	}
	for (k = 0; k < (size_t)m->nodes * m->rails; k++) {
		a->s[k].tx.v = a->all + at;
		at += a->s[k].tx.n;
		a->s[k].rx.v = a->all + at;
		at += a->s[k].rx.n;
		a->s[k].tx.n = a->s[k].rx.n = 0;
	}
	for (i = 0; i < rdp_mesh_n_cells(m); i++) {
		c = rdp_mesh_cell_at(m, i);
		if (!measured(c) || !isfinite(figure(c, a->lat)))
			continue;
		tx = &a->s[c->tx * m->rails + c->rail];
		rx = &a->s[c->rx * m->rails + c->rail];
		tx->tx.v[tx->tx.n++] = figure(c, a->lat);
		rx->rx.v[rx->rx.n++] = figure(c, a->lat);
	}
	for (k = 0; k < (size_t)m->nodes * m->rails; k++) {
		qsort(a->s[k].tx.v, a->s[k].tx.n, sizeof(double), cmp_double);
		qsort(a->s[k].rx.v, a->s[k].rx.n, sizeof(double), cmp_double);
	}
}

/* The worst (lowest bandwidth, highest latency) and the median of a
 * side, as a summary. */
static void put_side(FILE *f, const struct mesh_arg *a, const char *name,
		     int rx)
{
	const struct rdp_mesh *m = a->m;
	const struct side *sd;
	char rail[16], count[64], sum[64];
	const char *worst = a->lat ? "1" : "0";
	size_t k;
	double t;

	snprintf(count, sizeof(count), "%s_count", name);
	snprintf(sum, sizeof(sum), "%s_sum", name);
	for (k = 0; k < (size_t)m->nodes * m->rails; k++) {
		const char *labels[] = {
			"test",
			a->test,
			"node",
			rdp_mesh_node_name(m, (unsigned)(k / m->rails)),
			"rail",
			rail,
			"quantile",
			NULL,
			NULL,
		};
		size_t i;

		sd = rx ? &a->s[k].rx : &a->s[k].tx;
		if (!sd->n)
			continue;
		snprintf(rail, sizeof(rail), "%zu", k % m->rails);
		labels[7] = worst;
		rdp_metrics_sample(f, name, labels,
				   a->lat ? sd->v[sd->n - 1] : sd->v[0]);
		labels[7] = "0.5";
		rdp_metrics_sample(f, name, labels, sd->v[sd->n / 2]);
		labels[6] = NULL; /* no quantile */
		for (i = 0, t = 0; i < sd->n; i++)
			t += sd->v[i];
		rdp_metrics_sample(f, sum, labels, t);
		rdp_metrics_sample(f, count, labels, (double)sd->n);
	}
}

/* One family with a sample per node and rail: each one's bad cells
 * (suspect 0) or whether the analysis blames it (suspect 1). */
static void put_node_family(FILE *f, const struct mesh_arg *a, const char *name,
			    const char *help, int suspect)
{
	const struct rdp_mesh *m = a->m;
	char rail[16];
	size_t k;

	rdp_metrics_head(f, name, "gauge", help);
	for (k = 0; k < (size_t)m->nodes * m->rails; k++) {
		const char *labels[] = {
			"test", a->test,
			"node", rdp_mesh_node_name(m, (unsigned)(k / m->rails)),
			"rail", rail,
			NULL,
		};

		snprintf(rail, sizeof(rail), "%zu", k % m->rails);
		rdp_metrics_sample(f, name, labels,
				   suspect ? a->s[k].suspect : a->s[k].bad);
	}
}

static void put_nodes(FILE *f, const struct mesh_arg *a)
{
	put_node_family(f, a, "rdmaperf_mesh_node_bad_cells",
			"Cells of the node (sending or receiving) flagged or "
			"failed.",
			0);
	put_node_family(f, a, "rdmaperf_mesh_node_suspect",
			"1 when the analysis blames the node (its sending, "
			"receiving or both), else 0.",
			1);
}

static void put_mesh(FILE *f, const struct mesh_arg *a)
{
	const char *labels[] = { "test", a->test, NULL };

	rdp_metrics_head(f, "rdmaperf_mesh_cells", "gauge",
			 "Cells the mesh ran (skipped ones not counted).");
	rdp_metrics_sample(f, "rdmaperf_mesh_cells", labels, (double)a->cells);
	rdp_metrics_head(f, "rdmaperf_mesh_bad_cells", "gauge",
			 "Cells flagged or failed.");
	rdp_metrics_sample(f, "rdmaperf_mesh_bad_cells", labels,
			   (double)a->bad);
	rdp_metrics_head(f, "rdmaperf_mesh_pass", "gauge",
			 "1 when no cell was flagged or failed, else 0.");
	rdp_metrics_sample(f, "rdmaperf_mesh_pass", labels, a->bad == 0);
	rdp_metrics_head(f, "rdmaperf_mesh_last_run_timestamp_seconds", "gauge",
			 "When the mesh ended, in seconds since the "
			 "epoch.");
	rdp_metrics_sample(f, "rdmaperf_mesh_last_run_timestamp_seconds",
			   labels, (double)a->when);
}

static int write_mesh(FILE *f, const void *arg)
{
	const struct mesh_arg *a = arg;
	const char *tx, *rx;

	tx = a->lat ? "rdmaperf_mesh_node_send_latency_seconds"
		    : "rdmaperf_mesh_node_send_bandwidth_bytes_per_second";
	rx = a->lat ? "rdmaperf_mesh_node_receive_latency_seconds"
		    : "rdmaperf_mesh_node_receive_bandwidth_bytes_per_second";
	rdp_metrics_head(f, tx, "summary",
			 a->lat ? "The node's cells as sender: highest "
				  "(quantile 1) and median latency."
				: "The node's cells as sender: lowest "
				  "(quantile 0) and median bandwidth.");
	put_side(f, a, tx, 0);
	rdp_metrics_head(f, rx, "summary",
			 a->lat ? "The node's cells as receiver: highest "
				  "(quantile 1) and median latency."
				: "The node's cells as receiver: lowest "
				  "(quantile 0) and median bandwidth.");
	put_side(f, a, rx, 1);
	put_nodes(f, a);
	put_mesh(f, a);
	fputs("# EOF\n", f);
	return ferror(f) ? -EIO : 0;
}

/* Latency figures when no measured cell has a bandwidth. */
static int is_lat(const struct rdp_mesh *m)
{
	const struct rdp_mesh_cell *c;
	size_t i;

	for (i = 0; i < rdp_mesh_n_cells(m); i++) {
		c = rdp_mesh_cell_at(m, i);
		if (measured(c) && isfinite(c->bw_gbps))
			return 0;
	}
	return 1;
}

int rdp_mesh_write_metrics(const struct rdp_mesh *m, const char *test,
			   time_t when, const char *path)
{
	struct mesh_arg a = { .m = m, .test = test, .when = when };
	int ret;

	a.s = calloc((size_t)m->nodes * m->rails, sizeof(*a.s));
	a.all = calloc(2 * rdp_mesh_n_cells(m) + 1, sizeof(double));
	if (!a.s || !a.all) {
		free(a.s);
		free(a.all);
		return -ENOMEM;
	}
	a.lat = is_lat(m);
	gather(&a);
	ret = rdp_metrics_replace(path, write_mesh, &a);
	free(a.s);
	free(a.all);
	return ret;
}
