/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A report is a sink: a session hands each one its points as it measures
 * them, through one const ops table, and never prints a line itself. Text,
 * JSON, the --output figure and the verdict are sinks; a new format is one
 * more. The session keeps a list and calls every sink in its order:
 *
 *   begin (first point connected) -> start, point (each point; live while
 *   a --run_infinitely loop runs) -> end (the run's summary) -> close
 *
 * Layer: report
 */
#ifndef RDMAPERF_SINK_H
#define RDMAPERF_SINK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct rdp_json;
struct rdp_live_point;
struct rdp_report_info;
struct rdp_result;
struct rdp_verdict;

/* What the run measured, for the sinks' end; the verdict's sink fills
 * n_failed. */
struct rdp_report_summary {
	const struct rdp_result *points;
	size_t n;
	const char *check_unit; /* NULL: no data check line (perftest) */
	uint64_t data_checked;	/* over all points, in check_unit */
	size_t n_failed;	/* points that failed a threshold */
	/* a signal ended the run after n of planned points (the last one
	 * marked interrupted if its loop was cut short); 0: none */
	int signo;
	size_t planned;
	size_t reported; /* points handed to the sinks */
	int partial;	 /* the last of them was cut short */
};

struct rdp_report_sink;

/* Every member may be NULL: that sink has nothing to do then. */
struct rdp_report_sink_ops {
	const char *name;
	/* The first point is connected: the run's context (a header). */
	int (*begin)(struct rdp_report_sink *s,
		     const struct rdp_report_info *in);
	/* A point is about to run; group: the first of its QP count. */
	void (*start)(struct rdp_report_sink *s,
		      const struct rdp_report_info *in, int group);
	/* One measured point, once. */
	int (*point)(struct rdp_report_sink *s,
		     const struct rdp_report_info *in,
		     const struct rdp_result *r);
	/* A sample of a live run, from the reporter's thread. */
	void (*live)(struct rdp_report_sink *s,
		     const struct rdp_report_info *in,
		     const struct rdp_live_point *pt);
	/* After the last point: summaries. */
	int (*end)(struct rdp_report_sink *s, const struct rdp_report_info *in,
		   struct rdp_report_summary *sum);
	/* After every sink's end: documents and files out. */
	int (*close)(struct rdp_report_sink *s,
		     const struct rdp_report_info *in);
	void (*destroy)(struct rdp_report_sink *s);
};

struct rdp_report_sink {
	const struct rdp_report_sink_ops *ops;
};

#define RDP_REPORT_SINKS_MAX 8

/* A session's sinks, called in the order they were added. */
struct rdp_report_sinks {
	struct rdp_report_sink *v[RDP_REPORT_SINKS_MAX];
	size_t n;
};

/* Append s (the list destroys it); -ENOSPC when full (s destroyed). */
int rdp_sinks_add(struct rdp_report_sinks *l, struct rdp_report_sink *s);
/* Each call below reaches every sink in order; an int one stops at the
 * first error and returns it. */
int rdp_sinks_begin(const struct rdp_report_sinks *l,
		    const struct rdp_report_info *in);
void rdp_sinks_start(const struct rdp_report_sinks *l,
		     const struct rdp_report_info *in, int group);
int rdp_sinks_point(const struct rdp_report_sinks *l,
		    const struct rdp_report_info *in,
		    const struct rdp_result *r);
void rdp_sinks_live(const struct rdp_report_sinks *l,
		    const struct rdp_report_info *in,
		    const struct rdp_live_point *pt);
int rdp_sinks_end(const struct rdp_report_sinks *l,
		  const struct rdp_report_info *in,
		  struct rdp_report_summary *sum);
int rdp_sinks_close(const struct rdp_report_sinks *l,
		    const struct rdp_report_info *in);
/* Destroys every sink; the list is empty after. */
void rdp_sinks_free(struct rdp_report_sinks *l);

/* The text report (text.c's lines) on f, which stays the caller's. */
struct rdp_text_sink_cfg {
	int cpu_util;  /* --cpu_util: the CPU lines */
	int histogram; /* -H: the histogram */
	int rate;      /* --rate_limit: asked and achieved */
	int per_qp;    /* --report-per-qp: a row per QP under the point */
	int per_port;  /* --report-per-port: a row per port (-O) */
	/* The header and table head; NULL: rdmaperf's */
	void (*head)(FILE *f, const struct rdp_report_info *in, void *arg);
	void *head_arg;
};
int rdp_text_sink_create(FILE *f, const struct rdp_text_sink_cfg *cfg,
			 struct rdp_report_sink **out);

/* --output: the one figure asked for, alone on its line of f. */
enum rdp_figure {
	RDP_FIGURE_BW,	    /* Gb/s with gbits, else MiB/s */
	RDP_FIGURE_MSGRATE, /* Mpps */
	RDP_FIGURE_LAT,	    /* median, us */
};
int rdp_figure_sink_create(FILE *f, enum rdp_figure which, int gbits,
			   struct rdp_report_sink **out);

/* The JSON document, started by the first point (or by close when there
 * is none), written at close: to out (compact: on one line), to file,
 * then plot_file drawn from it. NULL or "": not there. */
struct rdp_json_sink_cfg {
	FILE *out;
	int compact;
	const char *file;
	const char *plot_file;
	int per_qp; /* --report-per-qp: each entry's per_qp array */
	/* --report-per-port: each entry's per_port array */
	int per_port;
};
int rdp_json_sink_create(const struct rdp_json_sink_cfg *cfg,
			 struct rdp_report_sink **out);
/* The sink's document (borrowed), NULL before its first point or when s
 * is no JSON sink. */
struct rdp_json *rdp_json_sink_doc(const struct rdp_report_sink *s);

/* The thresholds of v (initialised) marked under each row on text, and
 * into json's document (a JSON sink, or NULL); the summary at end. */
int rdp_verdict_sink_create(const struct rdp_verdict *v, FILE *text,
			    const struct rdp_report_sink *json,
			    struct rdp_report_sink **out);

#endif /* RDMAPERF_SINK_H */
