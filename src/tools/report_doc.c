/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What report reads, told apart by content: a run or sweep (results[]), a
 * mesh.json (rdmaperf-mesh's nodes[]), a certify folder (certify.md and
 * the runs' JSON beside it); and the sections made of them.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <jansson.h>

#include <rdmaperf/log.h>

#include "report_int.h"

#define HIST_BINS    40
#define CERTIFY_MD   "certify.md"
#define CERTIFY_HEAD "# Certification record"
#define WHAT_WE_TAKE                                                           \
	"give a results JSON (--json-file), a mesh.json or a certify folder"

/* The latency samples (-U) as HIST_BINS bins, log-spaced when they span
 * more than a factor of two: {"edges_us", "counts", "samples"}. */
static json_t *histogram(const json_t *samples)
{
	size_t i, n = json_array_size(samples), counts[HIST_BINS] = { 0 };
	double lo = INFINITY, hi = -INFINITY, v, pos;
	json_t *edges = json_array(), *cnt = json_array();
	int logb, k;

	for (i = 0; i < n; i++) {
		v = json_number_value(json_array_get(samples, i));
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	if (!n || !edges || !cnt || !(lo > 0) || !(hi >= lo))
		goto none;
	if (hi == lo)
		hi = lo * 1.01;
	logb = hi / lo > 2;
	for (i = 0; i < n; i++) {
		v = json_number_value(json_array_get(samples, i));
		pos = logb ? log(v / lo) / log(hi / lo) : (v - lo) / (hi - lo);
		k = (int)(pos * HIST_BINS);
		counts[k < 0 ? 0 : k >= HIST_BINS ? HIST_BINS - 1 : k]++;
	}
	for (k = 0; k <= HIST_BINS; k++)
		json_array_append_new(
			edges,
			json_real(
				logb ? lo * pow(hi / lo, (double)k / HIST_BINS)
				     : lo + (hi - lo) * k / HIST_BINS));
	for (k = 0; k < HIST_BINS; k++)
		json_array_append_new(cnt, json_integer((json_int_t)counts[k]));
	return json_pack("{s:o, s:o, s:I, s:b}", "edges_us", edges, "counts",
			 cnt, "samples", (json_int_t)n, "log", logb);
none:
	json_decref(edges);
	json_decref(cnt);
	return NULL;
}

json_t *rdp_report_run_section(json_t *doc, const char *path)
{
	json_t *e, *h;
	size_t i;

	json_array_foreach(json_object_get(doc, "results"), i, e)
	{
		h = histogram(json_object_get(e, "samples_us"));
		if (h)
			json_object_set_new(e, "lat_histogram", h);
		json_object_del(e, "samples_us");
	}
	return json_pack("{s:s, s:s, s:o}", "kind", "run", "file", path, "doc",
			 doc);
}

json_t *rdp_report_compare(json_t *base, json_t *cur, double tol_pct)
{
	return json_pack("{s:s, s:f, s:o, s:o}", "kind", "compare",
			 "tolerance_pct", tol_pct, "base", base, "new", cur);
}

/* "| Key | Value |" of certify.md's first table, as [key, value] pairs;
 * the verdict's and the band's figures picked out for the page. */
static void certify_facts(FILE *f, json_t *sec)
{
	json_t *facts = json_array();
	char line[1024], *key, *val, *end;
	int in_table = 0;

	while (facts && fgets(line, sizeof(line), f)) {
		if (line[0] != '|') {
			if (in_table)
				break;
			continue;
		}
		in_table = 1;
		if (line[1] != ' ')
			continue;
		key = line + 2;
		val = strstr(key, " | ");
		end = val ? strstr(val + 3, " |") : NULL;
		if (!val || !end || val == key)
			continue;
		*val = *end = '\0';
		val += 3;
		json_array_append_new(facts, json_pack("[s, s]", key, val));
		if (!strcmp(key, "Verdict"))
			json_object_set_new(sec, "verdict",
					    json_string(strstr(val, "PASS")
								? "PASS"
								: "FAIL"));
		if (!strcmp(key, "Band") && strchr(val, '-') &&
		    strtod(val, NULL) > 0) {
			json_object_set_new(sec, "band_lo_pct",
					    json_real(strtod(val, NULL)));
			json_object_set_new(
				sec, "band_hi_pct",
				json_real(strtod(strchr(val, '-') + 1, NULL)));
			key = strstr(val, "messages of ");
			if (key)
				json_object_set_new(
					sec, "band_min_bytes",
					json_integer(
						strtoll(key + 12, NULL, 10)));
		}
	}
	json_object_set_new(sec, "facts", facts);
}

static int is_json_name(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 5 && !strcmp(d->d_name + n - 5, ".json");
}

/* Each TEST.json in dir that is a results document, by name. */
static json_t *certify_runs(const char *dir)
{
	struct dirent **names;
	json_t *runs = json_array(), *doc;
	char path[PATH_MAX];
	int n, i;

	n = scandir(dir, &names, is_json_name, alphasort);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		doc = json_load_file(path, 0, NULL);
		if (doc && json_is_array(json_object_get(doc, "results")))
			json_array_append_new(
				runs, rdp_report_run_section(doc, path));
		else
			json_decref(doc);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	return runs;
}

static int load_certify(const char *dir, json_t **out)
{
	char md[PATH_MAX];
	json_t *sec;
	FILE *f;

	snprintf(md, sizeof(md), "%s/%s", dir, CERTIFY_MD);
	f = fopen(md, "r");
	if (!f) {
		rdp_err("report: %s: %s (a certify folder holds %s; %s)", md,
			strerror(errno), CERTIFY_MD, WHAT_WE_TAKE);
		return -EINVAL;
	}
	sec = json_pack("{s:s, s:s, s:o}", "kind", "certify", "file", dir,
			"runs", certify_runs(dir));
	if (sec)
		certify_facts(f, sec);
	fclose(f);
	if (!sec)
		return -ENOMEM;
	*out = sec;
	return 0;
}

/* Whether path's first line is certify.md's title. */
static int is_certify_md(const char *path)
{
	char head[sizeof(CERTIFY_HEAD)] = "";
	FILE *f = fopen(path, "r");
	size_t got;

	if (!f)
		return 0;
	got = fread(head, 1, sizeof(head) - 1, f);
	fclose(f);
	head[got] = '\0';
	return !strcmp(head, CERTIFY_HEAD);
}

/* path's folder into dir ("." when it has none). */
static void folder_of(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, len, ".");
	else
		snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

static int load_json(const char *path, json_t **out)
{
	json_error_t e;
	json_t *doc = json_load_file(path, 0, &e), *sec;

	if (!doc) {
		rdp_err("report: %s line %d: %s (not JSON: %s)", path, e.line,
			e.text, WHAT_WE_TAKE);
		return -EINVAL;
	}
	if (json_is_array(json_object_get(doc, "nodes")) &&
	    json_is_object(json_object_get(doc, "totals")))
		sec = rdp_report_mesh_section(doc, path);
	else if (json_is_array(json_object_get(doc, "results")))
		sec = rdp_report_run_section(doc, path);
	else {
		rdp_err("report: %s is not one of rdmaperf's documents (no "
			"results[] of a run, no nodes[] of a mesh.json): %s",
			path, WHAT_WE_TAKE);
		json_decref(doc);
		return -EINVAL;
	}
	if (!sec)
		return -EINVAL;
	*out = sec;
	return 0;
}

int rdp_report_load(const char *path, json_t **out)
{
	char dir[PATH_MAX];
	struct stat st;

	if (stat(path, &st)) {
		rdp_err("report: %s: %s (%s)", path, strerror(errno),
			WHAT_WE_TAKE);
		return -EINVAL;
	}
	if (S_ISDIR(st.st_mode))
		return load_certify(path, out);
	if (is_certify_md(path)) {
		folder_of(path, dir, sizeof(dir));
		return load_certify(dir, out);
	}
	return load_json(path, out);
}
