/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A mesh.json's section of the page. The cells (a million a rail at 1 000
 * nodes) go in as one string a figure and rail: bandwidth, latency and
 * round as comma-separated numbers in row-major order (sender's row,
 * receiver's column), the status as one letter a cell; whole records only
 * for the cells that have something to say (all of them in a small mesh).
 * The cells come from mesh.json's cells[], or, in its summary form, from
 * the cells file beside it, read a line at a time.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include <rdmaperf/log.h>

#include "report_int.h"

/* One rail's grid, n x n cells. */
struct grid {
	double *bw, *lat;
	uint32_t *round;
	char *st;
	int has_lat;
};

struct mesh_in {
	const char *path;
	json_t *index; /* node name -> its number */
	size_t n;      /* nodes */
	unsigned int rails;
	struct grid *g;
	json_t *detail;
	size_t cut, cells;
	int full; /* every cell's record kept */
};

static char status_letter(const char *s)
{
	if (!s)
		return '?';
	if (!strcmp(s, "ok"))
		return 'o';
	if (!strcmp(s, "flagged"))
		return 'f';
	if (!strcmp(s, "failed"))
		return 'x';
	if (!strcmp(s, "skipped"))
		return 's';
	return '?';
}

static double figure(const json_t *c, const char *key)
{
	const json_t *v = json_object_get(c, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static int node_of(const struct mesh_in *m, const json_t *c, const char *key,
		   size_t *out)
{
	const json_t *v = json_object_get(
		m->index, json_string_value(json_object_get(c, key)) ?: "");

	if (!json_is_integer(v))
		return -EINVAL;
	*out = (size_t)json_integer_value(v);
	return 0;
}

/* Whether a cell of a large mesh keeps its whole record. */
static int telling(const json_t *c)
{
	return strcmp(json_string_value(json_object_get(c, "status")) ?: "",
		      "ok") ||
	       json_object_get(c, "errors") || json_object_get(c, "retest") ||
	       json_object_get(c, "class");
}

/* One cell into its rail's grid; takes c. */
static int add_cell(struct mesh_in *m, json_t *c)
{
	json_int_t rail = json_integer_value(json_object_get(c, "rail"));
	size_t tx, rx, i;
	struct grid *g;

	if (node_of(m, c, "tx", &tx) || node_of(m, c, "rx", &rx) || rail < 0 ||
	    (unsigned int)rail >= m->rails) {
		json_decref(c);
		return -EINVAL;
	}
	g = &m->g[rail];
	i = tx * m->n + rx;
	g->bw[i] = figure(c, "bw_gbps");
	g->lat[i] = figure(c, "lat_us");
	g->has_lat |= isfinite(g->lat[i]);
	g->round[i] = (uint32_t)json_integer_value(json_object_get(c, "round"));
	g->st[i] =
		status_letter(json_string_value(json_object_get(c, "status")));
	m->cells++;
	if ((m->full || telling(c)) &&
	    json_array_size(m->detail) < REPORT_MAX_DETAIL) {
		json_object_set_new(c, "i", json_integer((json_int_t)i));
		return json_array_append_new(m->detail, c) ? -ENOMEM : 0;
	}
	m->cut += m->full || telling(c);
	json_decref(c);
	return 0;
}

/* The cells file named by the summary form, beside path. */
static int read_cells_file(struct mesh_in *m, const char *name)
{
	char file[PATH_MAX], *line = NULL;
	const char *slash = strrchr(m->path, '/');
	size_t cap = 0, no = 0;
	json_error_t e;
	json_t *c;
	FILE *f;
	int ret = 0;

	snprintf(file, sizeof(file), "%.*s%s",
		 slash ? (int)(slash - m->path + 1) : 0, m->path, name);
	f = fopen(file, "r");
	if (!f) {
		rdp_err("report: %s: %s (mesh.json's cells are in its "
			"cells_file; keep it beside mesh.json)",
			file, strerror(errno));
		return -EINVAL;
	}
	while (!ret && getline(&line, &cap, f) > 0) {
		no++;
		c = json_loads(line, 0, &e);
		ret = c ? add_cell(m, c) : -EINVAL;
	}
	if (ret)
		rdp_err("report: %s line %zu: not a cell of this mesh", file,
			no);
	free(line);
	fclose(f);
	return ret;
}

static int read_cells(struct mesh_in *m, json_t *doc)
{
	json_t *cells = json_object_get(doc, "cells"), *c;
	const char *file;
	size_t i;
	int ret = 0;

	if (json_is_array(cells)) {
		json_array_foreach(cells, i, c) if (!ret)
			ret = add_cell(m, json_incref(c));
		if (ret)
			rdp_err("report: %s: cells[%zu] is not a cell of this "
				"mesh",
				m->path, i);
		json_object_del(doc, "cells");
		return ret;
	}
	file = json_string_value(json_object_get(doc, "cells_file"));
	if (!file || strchr(file, '/')) {
		rdp_err("report: %s has neither cells[] nor a cells_file",
			m->path);
		return -EINVAL;
	}
	return read_cells_file(m, file);
}

/* Figures as "1.5,,2", an empty field where a cell has none. */
static json_t *numbers(const double *v, size_t n)
{
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len);
	json_t *s;

	if (!f)
		return NULL;
	for (i = 0; i < n; i++) {
		if (isfinite(v[i]))
			fprintf(f, "%.5g", v[i]);
		if (i + 1 < n)
			fputc(',', f);
	}
	fclose(f);
	s = buf ? json_stringn(buf, len) : NULL;
	free(buf);
	return s;
}

static json_t *rounds(const uint32_t *v, size_t n)
{
	double *d = malloc(n * sizeof(*d));
	json_t *s;
	size_t i;

	if (!d)
		return NULL;
	for (i = 0; i < n; i++)
		d[i] = v[i] ? (double)v[i] : NAN;
	s = numbers(d, n);
	free(d);
	return s;
}

static json_t *grid_json(const struct grid *g, unsigned int rail, size_t nn)
{
	return json_pack("{s:i, s:o, s:o, s:o, s:s%}", "rail", (int)rail, "bw",
			 numbers(g->bw, nn), "lat",
			 g->has_lat ? numbers(g->lat, nn) : json_null(),
			 "round", rounds(g->round, nn), "st", g->st, nn);
}

static int grids_alloc(struct mesh_in *m)
{
	size_t nn = m->n * m->n, i;
	unsigned int r;

	m->g = calloc(m->rails, sizeof(*m->g));
	for (r = 0; m->g && r < m->rails; r++) {
		m->g[r].bw = malloc(nn * sizeof(double));
		m->g[r].lat = malloc(nn * sizeof(double));
		m->g[r].round = calloc(nn, sizeof(uint32_t));
		m->g[r].st = malloc(nn + 1);
		if (!m->g[r].bw || !m->g[r].lat || !m->g[r].round ||
		    !m->g[r].st)
			return -ENOMEM;
		for (i = 0; i < nn; i++)
			m->g[r].bw[i] = m->g[r].lat[i] = NAN;
		memset(m->g[r].st, ' ', nn);
		m->g[r].st[nn] = '\0';
	}
	return m->g ? 0 : -ENOMEM;
}

static void grids_free(struct mesh_in *m)
{
	unsigned int r;

	for (r = 0; m->g && r < m->rails; r++) {
		free(m->g[r].bw);
		free(m->g[r].lat);
		free(m->g[r].round);
		free(m->g[r].st);
	}
	free(m->g);
}

static int setup(struct mesh_in *m, json_t *doc)
{
	json_t *nodes = json_object_get(doc, "nodes"), *v;
	json_int_t rails = json_integer_value(json_object_get(doc, "rails"));
	json_int_t cells = json_integer_value(
		json_object_get(json_object_get(doc, "totals"), "cells"));
	size_t i;

	m->n = json_array_size(nodes);
	if (m->n < 2 || rails < 1 || rails > 1024) {
		rdp_err("report: %s: a mesh.json needs nodes[] (2 or more) and "
			"rails (1 or more)",
			m->path);
		return -EINVAL;
	}
	if ((double)m->n * (double)m->n * (double)rails > REPORT_MAX_CELLS) {
		rdp_err("report: %s: %zu nodes and %d rails are more cells "
			"than one page holds (%d)",
			m->path, m->n, (int)rails, REPORT_MAX_CELLS);
		return -EINVAL;
	}
	m->rails = (unsigned int)rails;
	m->full = cells >= 0 && cells <= REPORT_FULL_CELLS;
	m->index = json_object();
	m->detail = json_array();
	json_array_foreach(nodes, i, v) if (m->index && json_is_string(v))
		json_object_set_new(m->index, json_string_value(v),
				    json_integer((json_int_t)i));
	if (!m->index || !m->detail)
		return -ENOMEM;
	return grids_alloc(m);
}

static json_t *section(struct mesh_in *m, json_t *doc)
{
	json_t *grids = json_array();
	unsigned int r;

	for (r = 0; grids && r < m->rails; r++)
		if (json_array_append_new(grids, grid_json(&m->g[r], r,
							   m->n * m->n))) {
			json_decref(grids);
			return NULL;
		}
	return json_pack("{s:s, s:s, s:O, s:I, s:o, s:O, s:I, s:I, s:b}",
			 "kind", "mesh", "file", m->path, "head", doc, "n",
			 (json_int_t)m->n, "grids", grids, "detail", m->detail,
			 "detail_cut", (json_int_t)m->cut, "cells",
			 (json_int_t)m->cells, "full", m->full);
}

json_t *rdp_report_mesh_section(json_t *doc, const char *path)
{
	struct mesh_in m = { .path = path };
	json_t *sec = NULL;

	if (!setup(&m, doc) && !read_cells(&m, doc))
		sec = section(&m, doc);
	grids_free(&m);
	json_decref(m.index);
	json_decref(m.detail);
	json_decref(doc);
	return sec;
}
