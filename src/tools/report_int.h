/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdmaperf report: rdmaperf's documents (a run or sweep, a certify
 * folder, two runs compared, a mesh) made into the sections of one
 * self-contained HTML page.
 * Layer: cli
 */
#ifndef RDMAPERF_TOOLS_REPORT_INT_H
#define RDMAPERF_TOOLS_REPORT_INT_H

#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

/* A mesh keeps every cell's whole record in the page up to this many
 * cells; above it, only the cells that have something to say (not ok,
 * counters, a retest, an outlier class), at most REPORT_MAX_DETAIL. */
#define REPORT_FULL_CELLS 20000
#define REPORT_MAX_DETAIL 200000
/* The grids of all rails together, nodes x nodes x rails. */
#define REPORT_MAX_CELLS (64 * 1024 * 1024)

/* The page's scripts and styles (src/tools/report/, made C strings by
 * the build: report_assets.c). */
extern const char rdp_report_css[];
extern const char rdp_report_js[];

/*
 * The section for the document at path: {"kind": "run" | "certify" |
 * "mesh", ...} in *out; a folder holding certify.md, or certify.md
 * itself, is a certify record. 0, or -EINVAL with one line logged naming
 * the file and what report takes.
 */
int rdp_report_load(const char *path, json_t **out);

/* {"kind": "compare", "base", "new", "tolerance_pct"} from two run
 * sections (taken). */
json_t *rdp_report_compare(json_t *base, json_t *cur, double tol_pct);

/* A run document's section: the document, its latency samples made a
 * histogram. Takes doc. */
json_t *rdp_report_run_section(json_t *doc, const char *path);

/* A mesh.json's section: the head, the rails' grids, the cells' records
 * (from cells[] or the cells file beside it). Takes doc; NULL with one
 * line logged when the cells cannot be read. */
json_t *rdp_report_mesh_section(json_t *doc, const char *path);

/* The page: sections (an array) as JSON in the page, the script that
 * draws them. 0 or -EIO. */
int rdp_report_html_write(FILE *f, const json_t *sections);

#endif /* RDMAPERF_TOOLS_REPORT_INT_H */
