/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What a mesh that was pruned or cut short by its time budget reached,
 * added to its files: the coverage, the pruned nodes and the cells they
 * left out ("skipped"), beside the cells the store wrote.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include <rdmaperf/log.h>
#include <rdmaperf/mesh_run.h>

int rdp_mesh_coverage_of(const struct rdp_mesh *m, unsigned int nodes,
			 struct rdp_mesh_coverage *cov)
{
	size_t cells = (size_t)nodes * nodes;
	unsigned char *seen = calloc(cells ? cells : 1, 1);
	const struct rdp_mesh_cell *c;
	size_t i;
	unsigned int a, b;

	if (!seen)
		return -ENOMEM;
	cov->pairs_measured = 0;
	cov->pairs_total = (size_t)nodes * (nodes ? nodes - 1 : 0) / 2;
	for (i = 0; (c = rdp_mesh_cell_at(m, i)); i++) {
		if (c->tx >= nodes || c->rx >= nodes || c->tx == c->rx)
			continue;
		a = c->tx < c->rx ? c->tx : c->rx;
		b = c->tx < c->rx ? c->rx : c->tx;
		if (seen[(size_t)a * nodes + b])
			continue;
		seen[(size_t)a * nodes + b] = 1;
		cov->pairs_measured++;
	}
	free(seen);
	return 0;
}

/* Where the skipped cells go: mesh.json's cells[] (NULL in its summary
 * form), cells.csv and cells.jsonl (NULL when they cannot be opened). */
struct sinks {
	json_t *cells;
	FILE *csv, *jsonl;
};

/* One skipped cell into each sink. */
static int skipped_cell(const struct sinks *to, const struct rdp_mesh *m,
			unsigned int tx, unsigned int rx, unsigned int rail,
			size_t k, const char *why)
{
	const char *st = rdp_mesh_status_name(RDP_MESH_SKIPPED);
	json_t *o = json_pack("{s:s, s:s, s:i, s:I, s:s, s:s}", "tx",
			      rdp_mesh_node_name(m, tx), "rx",
			      rdp_mesh_node_name(m, rx), "rail", (int)rail,
			      "round", (json_int_t)k + 1, "status", st,
			      "reason", why);

	if (!o)
		return -ENOMEM;
	if (to->csv)
		fprintf(to->csv, "%s,%s,%u,%zu,%s,,,,,,,,%s\n",
			rdp_mesh_node_name(m, tx), rdp_mesh_node_name(m, rx),
			rail, k + 1, st, why);
	if (to->jsonl && !json_dumpf(o, to->jsonl, JSON_COMPACT))
		fputc('\n', to->jsonl);
	if (to->cells)
		return json_array_append_new(to->cells, o) ? -ENOMEM : 0;
	json_decref(o);
	return 0;
}

/* The pruning's reason for a transfer of round k, or NULL (not left out). */
static const char *left_out(const struct rdp_mesh *m,
			    const struct rdp_mesh_prune *p,
			    const struct rdp_mesh_xfer *x, size_t k, char *buf,
			    size_t len)
{
	unsigned int who = rdp_mesh_pruned_before(p, x->tx, k) ? x->tx : x->rx;
	char why[96];

	if (!rdp_mesh_pruned_before(p, who, k))
		return NULL;
	rdp_mesh_prune_reason(p, who, why, sizeof(why));
	snprintf(buf, len, "pruned: %s %s", rdp_mesh_node_name(m, who), why);
	return buf;
}

/* The cells the pruned nodes left out of the first `rounds` rounds. */
static int skipped_cells(const struct rdp_mesh_run_files *f,
			 const struct sinks *to, size_t *n_out)
{
	size_t w = rdp_mesh_plan_width(f->plan), k, i, n;
	struct rdp_mesh_xfer *x = calloc(w ? w : 1, sizeof(*x));
	const char *why;
	char buf[160];
	unsigned int rail;
	int ret = x ? 0 : -ENOMEM;

	*n_out = 0;
	for (k = 0; !ret && k < f->cov.rounds_run; k++) {
		n = rdp_mesh_plan_round(f->plan, k, x);
		for (i = 0; !ret && i < n; i++) {
			why = left_out(f->mesh, f->prune, &x[i], k, buf,
				       sizeof(buf));
			for (rail = 0; why && !ret && rail < f->rails; rail++) {
				ret = skipped_cell(to, f->mesh, x[i].tx,
						   x[i].rx, rail, k, why);
				if (!ret && x[i].both)
					ret = skipped_cell(to, f->mesh, x[i].rx,
							   x[i].tx, rail, k,
							   why);
				*n_out += x[i].both ? 2 : 1;
			}
		}
	}
	free(x);
	return ret ? -ENOMEM : 0;
}

static json_t *pruned_json(const struct rdp_mesh_run_files *f)
{
	json_t *a = json_array();
	char why[96];
	unsigned int i;

	for (i = 0; a && i < f->prune->nodes; i++) {
		if (f->prune->after[i] < 0)
			continue;
		rdp_mesh_prune_reason(f->prune, i, why, sizeof(why));
		if (json_array_append_new(
			    a,
			    json_pack("{s:s, s:I, s:i, s:i, s:s}", "node",
				      rdp_mesh_node_name(f->mesh, i),
				      "after_round",
				      (json_int_t)f->prune->after[i] + 1,
				      "failed_peers", (int)f->prune->failed[i],
				      "peers", (int)f->prune->met[i], "reason",
				      why))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *coverage_json(const struct rdp_mesh_run_files *f)
{
	const struct rdp_mesh_coverage *c = &f->cov;

	return json_pack("{s:I, s:I, s:I, s:I, s:f, s:b, s:f}", "rounds_run",
			 (json_int_t)c->rounds_run, "rounds_planned",
			 (json_int_t)c->rounds_planned, "pairs_measured",
			 (json_int_t)c->pairs_measured, "pairs_total",
			 (json_int_t)c->pairs_total, "pairs_pct",
			 c->pairs_total ? 100.0 * (double)c->pairs_measured /
						  (double)c->pairs_total
					: 0.0,
			 "stopped_by_time_budget", c->stopped, "time_budget_s",
			 f->budget_s);
}

/* The additions into doc (mesh.json as read back), the skipped cells
 * also into the streamable files of to. */
static int annotate(json_t *doc, struct sinks *to,
		    const struct rdp_mesh_run_files *f, size_t *skipped)
{
	json_t *totals = json_object_get(doc, "totals");
	int ret = 0;

	/* The summary form lists no cells: the files do. */
	to->cells = json_object_get(doc, "cells");
	if (!json_is_array(to->cells))
		to->cells = NULL;
	if (f->prune && f->prune->nodes) {
		ret = skipped_cells(f, to, skipped);
		if (!ret && json_object_set_new(doc, "pruned", pruned_json(f)))
			ret = -ENOMEM;
	}
	if (!ret && json_is_object(totals) &&
	    json_object_set_new(totals, "skipped",
				json_integer((json_int_t)*skipped)))
		ret = -ENOMEM;
	if (!ret && json_object_set_new(doc, "coverage", coverage_json(f)))
		ret = -ENOMEM;
	return ret;
}

/* dir/name into path (PATH_MAX bytes). */
static int join(char *path, const char *dir, const char *name)
{
	return (size_t)snprintf(path, PATH_MAX, "%s/%s", dir, name) < PATH_MAX
		       ? 0
		       : -ENAMETOOLONG;
}

/* doc into path, as the store writes mesh.json. */
static int dump(json_t *doc, const char *path)
{
	FILE *out = fopen(path, "we");
	int ret = out ? 0 : -errno;

	if (!ret &&
	    (json_dumpf(doc, out, JSON_INDENT(2) | JSON_REAL_PRECISION(10)) ||
	     fputc('\n', out) == EOF))
		ret = -EIO;
	if (out && fclose(out) && !ret)
		ret = -EIO;
	return ret;
}

/* dir/name opened for appending, or NULL. */
static FILE *append_to(const char *dir, const char *name)
{
	char path[PATH_MAX];

	return join(path, dir, name) ? NULL : fopen(path, "ae");
}

int rdp_mesh_run_files_write(const struct rdp_mesh_run_files *f,
			     size_t *skipped)
{
	char path[PATH_MAX], tmp[PATH_MAX];
	struct sinks to = { NULL, NULL, NULL };
	json_error_t err;
	json_t *doc = NULL;
	int ret;

	*skipped = 0;
	ret = join(path, f->dir, "mesh.json");
	if (!ret)
		ret = join(tmp, f->dir, "mesh.json.new");
	if (!ret && !(doc = json_load_file(path, 0, &err)))
		ret = -EIO;
	if (!ret) {
		to.csv = append_to(f->dir, "cells.csv");
		to.jsonl = append_to(f->dir, "cells.jsonl");
		ret = annotate(doc, &to, f, skipped);
	}
	if (to.csv && fclose(to.csv) && !ret)
		ret = -EIO;
	if (to.jsonl && fclose(to.jsonl) && !ret)
		ret = -EIO;
	if (!ret)
		ret = dump(doc, tmp);
	if (!ret && rename(tmp, path))
		ret = -errno;
	json_decref(doc);
	if (ret)
		rdp_err("mesh: add the coverage and pruning to %s: %s", path,
			strerror(-ret));
	return ret;
}

void rdp_mesh_reach_print(const struct rdp_mesh_run_files *f, size_t skipped,
			  FILE *out)
{
	const struct rdp_mesh_coverage *c = &f->cov;
	char why[96];
	unsigned int i;

	for (i = 0; f->prune && i < f->prune->nodes; i++)
		if (f->prune->after[i] >= 0) {
			rdp_mesh_prune_reason(f->prune, i, why, sizeof(why));
			fprintf(out, "pruned: %s, the likely fault: %s\n",
				rdp_mesh_node_name(f->mesh, i), why);
		}
	fprintf(out,
		"coverage: %zu of %zu rounds of the plan, %zu of %zu node "
		"pairs (%.0f%%)",
		c->rounds_run, c->rounds_planned, c->pairs_measured,
		c->pairs_total,
		c->pairs_total ? 100.0 * (double)c->pairs_measured /
					 (double)c->pairs_total
			       : 0.0);
	if (skipped)
		fprintf(out, "; %zu cells skipped after pruning", skipped);
	if (c->stopped)
		fprintf(out, "; stopped by --time-budget %.0f s", f->budget_s);
	fputc('\n', out);
}

int rdp_mesh_run_files_finish(struct rdp_mesh_run_files *f, FILE *out,
			      size_t *skipped)
{
	int ret = rdp_mesh_coverage_of(f->mesh, f->nodes, &f->cov);

	*skipped = 0;
	if (!ret)
		ret = rdp_mesh_run_files_write(f, skipped);
	if (!ret)
		rdp_mesh_reach_print(f, *skipped, out);
	return ret;
}
