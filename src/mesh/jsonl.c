/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cells.jsonl: every cell one JSON object a line, as mesh.json's cells[]
 * has it, streamed so that millions of cells take no more memory than
 * one. A plain cell (no result document, no retest) is printed directly;
 * the others go through jansson.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mesh_int.h"

#define JSONL_FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(10))

/* s as a quoted JSON string, malloc'd; NULL when out of memory. */
static char *quoted(const char *s)
{
	json_t *j = json_string(s);
	char *q = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;

	json_decref(j);
	return q;
}

/* v as jansson writes a real at 10 digits ("100.0", "1e5"), or null. */
static void number(FILE *f, double v)
{
	char buf[48];

	if (isfinite(v))
		fwrite(buf, 1, rdp_mesh_fmt_real10(buf, sizeof(buf), v), f);
	else
		fputs("null", f);
}

/* A cell's "path" (m->place set), as cell_json writes it. */
static int path_of(FILE *f, const struct rdp_mesh *m,
		   const struct rdp_mesh_cell *c)
{
	json_t *p = rdp_mesh_cell_path_json(m, c);
	int ret = p ? 0 : -ENOMEM;

	fputs(",\"path\":", f);
	if (!ret && json_dumpf(p, f, JSONL_FLAGS | JSON_ENCODE_ANY))
		ret = -EIO;
	json_decref(p);
	return ret;
}

/* A cell with no result document, retest or errors, in cell_json's
 * order. */
static int plain_cell(FILE *f, const struct rdp_mesh *m, char *const *names,
		      const struct rdp_mesh_cell *c)
{
	char *why;

	fprintf(f,
		"{\"tx\":%s,\"rx\":%s,\"rail\":%u,\"round\":%u,"
		"\"status\":\"%s\"",
		names[c->tx], names[c->rx], c->rail, c->round + 1,
		rdp_mesh_status_name(c->status));
	if (c->reason) {
		why = quoted(c->reason);
		fprintf(f, ",\"reason\":%s", why ? why : "\"\"");
		free(why);
	}
	if (c->cls != RDP_MESH_CLASS_NONE)
		fprintf(f, ",\"class\":\"%s\",\"suspect\":%s",
			rdp_mesh_class_name(c->cls), names[c->suspect]);
	fputs(",\"bw_gbps\":", f);
	number(f, c->bw_gbps);
	fputs(",\"lat_us\":", f);
	number(f, c->lat_us);
	if (c->line_gbps > 0) {
		fputs(",\"line_rate_gbps\":", f);
		number(f, c->line_gbps);
	}
	if (m->place && path_of(f, m, c))
		return -ENOMEM;
	fputs(",\"result\":null}\n", f);
	return 0;
}

/* A cell through jansson: its result, retest and errors included. */
static int full_cell(FILE *f, const struct rdp_mesh *m,
		     const struct rdp_mesh_cell *c)
{
	json_t *o = rdp_mesh_cell_json(m, c);
	int ret;

	if (!o)
		return -ENOMEM;
	ret = json_dumpf(o, f, JSONL_FLAGS) ? -EIO : 0;
	json_decref(o);
	if (!ret && fputc('\n', f) == EOF)
		ret = -EIO;
	return ret;
}

static void free_names(char **names, unsigned int n)
{
	unsigned int i;

	for (i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
}

int rdp_mesh_write_cells_jsonl(const struct rdp_mesh *m, FILE *f)
{
	char **names = calloc(m->nodes, sizeof(*names));
	const struct rdp_mesh_cell *c;
	unsigned int i;
	size_t k;
	int ret = names ? 0 : -ENOMEM;

	for (i = 0; !ret && i < m->nodes; i++)
		if (!(names[i] = quoted(m->names[i])))
			ret = -ENOMEM;
	for (k = 0; !ret && k < m->n; k++) {
		c = &m->cells[k];
		if (c->result || c->again >= 0 || c->errors)
			ret = full_cell(f, m, c);
		else
			ret = plain_cell(f, m, names, c);
	}
	free_names(names, m->nodes);
	if (!ret && (ferror(f) || fflush(f)))
		ret = -EIO;
	return ret;
}
