/* SPDX-License-Identifier: BSD-2-Clause */
/* Every file of a mesh into one directory; the heatmaps through gnuplot. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <rdmaperf/log.h>
#include <rdmaperf/mesh_run.h>
#include <rdmaperf/plot.h>

#include "mesh_int.h"

/* A writer of one file; rail is for those written per rail. */
typedef int write_fn(const struct rdp_mesh *m, unsigned int rail, FILE *f);

static int json_file(const struct rdp_mesh *m, unsigned int rail, FILE *f)
{
	(void)rail;
	return rdp_mesh_write_json(m, f);
}

static int cells_file(const struct rdp_mesh *m, unsigned int rail, FILE *f)
{
	(void)rail;
	return rdp_mesh_write_cells(m, f);
}

static int jsonl_file(const struct rdp_mesh *m, unsigned int rail, FILE *f)
{
	(void)rail;
	return rdp_mesh_write_cells_jsonl(m, f);
}

static int outliers_file(const struct rdp_mesh *m, unsigned int rail, FILE *f)
{
	int ret = rdp_mesh_write_outliers(m, f);

	(void)rail;
	if (!ret)
		rdp_mesh_congestion_print(m->congestion, m, f);
	return ret ? ret : rdp_mesh_write_reach(m, f);
}

static int write_one(const struct rdp_mesh *m, unsigned int rail,
		     const char *path, write_fn *fn)
{
	FILE *f = fopen(path, "we");
	int ret;

	if (!f) {
		ret = -errno;
		rdp_err("mesh: open %s: %s", path, strerror(-ret));
		return ret;
	}
	ret = fn(m, rail, f);
	if (fclose(f) && !ret)
		ret = -EIO;
	if (ret)
		rdp_err("mesh: write %s: %s", path, strerror(-ret));
	return ret;
}

/* Rail's heatmap into path; -EINVAL (nothing to draw) is no error. */
static int heatmap(const struct rdp_mesh *m, unsigned int rail,
		   const char *path)
{
	char *script = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&script, &len);
	int ret;

	if (!f)
		return -ENOMEM;
	ret = rdp_mesh_heatmap_script(m, rail, f);
	if (fclose(f) && !ret)
		ret = -ENOMEM;
	if (!ret)
		ret = rdp_plot_draw(script, len, path);
	free(script);
	return ret == -EINVAL ? 0 : ret;
}

/* dir/name into path (PATH_MAX bytes). */
static int join(char *path, const char *dir, const char *name)
{
	if ((size_t)snprintf(path, PATH_MAX, "%s/%s", dir, name) < PATH_MAX)
		return 0;
	rdp_err("mesh: %s/%s: the path is too long", dir, name);
	return -ENAMETOOLONG;
}

int rdp_mesh_write_dir(const struct rdp_mesh *m, const char *dir)
{
	static const struct {
		const char *name;
		write_fn *fn;
	} once[] = { { "mesh.json", json_file },
		     { "cells.csv", cells_file },
		     { "cells.jsonl", jsonl_file },
		     { "outliers.txt", outliers_file } };
	char path[PATH_MAX], name[32];
	unsigned int r;
	size_t i;
	int ret = 0;

	if (!m->analyzed)
		return -EINVAL;
	if (mkdir(dir, 0777) && errno != EEXIST) {
		ret = -errno;
		rdp_err("mesh: make directory %s: %s", dir, strerror(-ret));
		return ret;
	}
	for (i = 0; !ret && i < sizeof(once) / sizeof(once[0]); i++) {
		ret = join(path, dir, once[i].name);
		if (!ret)
			ret = write_one(m, 0, path, once[i].fn);
	}
	for (r = 0; !ret && r < m->rails; r++) {
		snprintf(name, sizeof(name), "matrix-rail%u.csv", r);
		ret = join(path, dir, name);
		if (!ret)
			ret = write_one(m, r, path, rdp_mesh_write_matrix);
	}
	for (r = 0; !ret && r < m->rails; r++) {
		snprintf(name, sizeof(name), "heatmap-rail%u.svg", r);
		ret = join(path, dir, name);
		if (!ret)
			ret = heatmap(m, r, path);
	}
	return ret;
}
