/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Machine-readable results: one JSON document per invocation, holding the
 * run's context once and one results[] entry per measured point.
 * Layer: report
 */
#ifndef RDMAPERF_JSON_H
#define RDMAPERF_JSON_H

#include <stdio.h>

struct json_t;
struct rdp_json;
struct rdp_report_info;
struct rdp_result;

#define RDP_JSON_SCHEMA_VERSION 1

/* Start a document from the run's context (the first point's info). */
int rdp_json_new(const struct rdp_report_info *info, struct rdp_json **out);

/* Append one results[] entry for a (test, size, QP count) point. */
int rdp_json_add(struct rdp_json *j, const struct rdp_report_info *info,
		 const struct rdp_result *res);

/*
 * The document's root and its latest results[] entry (borrowed, NULL when
 * none), for reports that add their own keys.
 */
struct json_t *rdp_json_root(struct rdp_json *j);
struct json_t *rdp_json_last(struct rdp_json *j);

/* Write the document: indented (or on one line, compact), keys in
 * insertion order, final newline. */
int rdp_json_write(const struct rdp_json *j, FILE *f, int compact);

struct rdp_live_point;
/* --run_infinitely with --json: one line {"live": {...}} per report. */
int rdp_json_live_line(FILE *f, const struct rdp_live_point *pt);

/* Accepts NULL. */
void rdp_json_free(struct rdp_json *j);

#endif /* RDMAPERF_JSON_H */
