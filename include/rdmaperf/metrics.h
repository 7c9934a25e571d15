/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --metrics FILE: a run's figures as OpenMetrics text for node_exporter's
 * textfile collector (a gauge or a summary per figure, one sample per
 * point, labelled by test, size, QPs, device and peer host). The file is
 * replaced whole (a temporary file in its directory, then rename), so a
 * collector never reads half of it.
 *
 * Layer: report
 */
#ifndef RDMAPERF_METRICS_H
#define RDMAPERF_METRICS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <rdmaperf/stats.h>

struct json_t;
struct rdp_report_sink;

/* One point's figures, as the sink keeps them. */
struct rdp_metrics_point {
	uint64_t size_bytes;
	uint32_t num_qps;
	int bw;			 /* a bandwidth test: rates are there */
	double bw_bytes_per_s;	 /* average */
	double peak_bytes_per_s; /* 0: not measured (-N) */
	double msgs_per_s;
	struct rdp_lat_stats lat; /* lat.n 0: no latency figures */
	int data_ok;
	int loss_counted;
	uint64_t lost_msgs;
	uint64_t device_events; /* seen in the point, dropped ones too */
};

/* The run's labels and outcome. */
struct rdp_metrics_run {
	const char *test;   /* write_bw, ... */
	const char *device; /* this side's, "" unknown */
	const char *peer;   /* the server's host name, else its address */
	const struct rdp_metrics_point *points;
	size_t n;
	size_t n_failed; /* points that failed a threshold or the link */
	time_t when;	 /* the run's end */
	int failed;	 /* the run itself failed (certify: its exit) */
};

/* The text of n_runs runs (each family once, every run's samples in
 * it), "# EOF" last; 0 or -EIO. The runs' label sets must differ. */
int rdp_metrics_write(FILE *f, const struct rdp_metrics_run *runs,
		      size_t n_runs);
/* The same into path, atomically; 0 or a negative errno (logged). */
int rdp_metrics_write_file(const char *path, const struct rdp_metrics_run *runs,
			   size_t n_runs);
/* The pieces, for other writers (the mesh's): a family's # HELP and
 * # TYPE lines; a sample with labels as name, value pairs ending in NULL
 * (values escaped); the text fn writes ("# EOF" its last line) put in
 * path atomically like rdp_metrics_write_file. */
void rdp_metrics_head(FILE *f, const char *name, const char *type,
		      const char *help);
void rdp_metrics_sample(FILE *f, const char *name, const char *const *labels,
			double v);
typedef int rdp_metrics_fn(FILE *f, const void *arg);
int rdp_metrics_replace(const char *path, rdp_metrics_fn *fn, const void *arg);
/* A results document's entry (rdmaperf's JSON) as a point. */
void rdp_metrics_point_of(const struct json_t *e, struct rdp_metrics_point *p);
/* Before the run: can path be written as the sink will write it (its
 * directory there and writable, path no directory)? -EINVAL with one
 * line in err when not. */
int rdp_metrics_check_path(const char *path, char *err, size_t len);

/* The sink: keeps each point, writes file at close. */
int rdp_metrics_sink_create(const char *file, struct rdp_report_sink **out);

#endif /* RDMAPERF_METRICS_H */
