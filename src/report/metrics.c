/* SPDX-License-Identifier: BSD-2-Clause */
/* --metrics: the run's figures as OpenMetrics text (base units, rdmaperf_
 * prefix), which node_exporter's textfile collector also reads as the
 * Prometheus text format: gauges and one summary, no counters. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <jansson.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/log.h>
#include <rdmaperf/metrics.h>
#include <rdmaperf/outpath.h>
#include <rdmaperf/peer.h>
#include <rdmaperf/report.h>
#include <rdmaperf/sink.h>

/* A value as both formats read it. */
static void put_value(FILE *f, double v)
{
	if (isnan(v))
		fputs(" NaN\n", f);
	else if (isinf(v))
		fputs(v > 0 ? " +Inf\n" : " -Inf\n", f);
	else
		fprintf(f, " %.10g\n", v);
}

/* A label value between quotes: backslash, quote and newline escaped. */
static void put_label(FILE *f, const char *name, const char *v, int first)
{
	fprintf(f, "%s%s=\"", first ? "" : ",", name);
	for (; v && *v; v++) {
		if (*v == '\\')
			fputs("\\\\", f);
		else if (*v == '"')
			fputs("\\\"", f);
		else if (*v == '\n')
			fputs("\\n", f);
		else
			fputc(*v, f);
	}
	fputc('"', f);
}

/* name{test,size,qps,device,peer[,quantile]} value; p NULL: the run's. */
static void put_sample(FILE *f, const char *name,
		       const struct rdp_metrics_run *run,
		       const struct rdp_metrics_point *p, const char *quantile,
		       double v)
{
	char num[32];

	fprintf(f, "%s{", name);
	put_label(f, "test", run->test, 1);
	if (p) {
		snprintf(num, sizeof(num), "%" PRIu64, p->size_bytes);
		put_label(f, "size", num, 0);
		snprintf(num, sizeof(num), "%" PRIu32, p->num_qps);
		put_label(f, "qps", num, 0);
	}
	put_label(f, "device", run->device, 0);
	put_label(f, "peer", run->peer, 0);
	if (quantile)
		put_label(f, "quantile", quantile, 0);
	fputc('}', f);
	put_value(f, v);
}

/* A gauge with one sample per point that has it. */
struct gauge {
	const char *name;
	const char *help;
	int (*has)(const struct rdp_metrics_point *p);
	double (*value)(const struct rdp_metrics_point *p);
};

static int is_bw(const struct rdp_metrics_point *p)
{
	return p->bw;
}

static int has_peak(const struct rdp_metrics_point *p)
{
	return p->bw && p->peak_bytes_per_s > 0;
}

static int has_lat(const struct rdp_metrics_point *p)
{
	return p->lat.n > 0;
}

static int always(const struct rdp_metrics_point *p)
{
	(void)p;
	return 1;
}

static int has_loss(const struct rdp_metrics_point *p)
{
	return p->loss_counted;
}

static double bw_of(const struct rdp_metrics_point *p)
{
	return p->bw_bytes_per_s;
}

static double peak_of(const struct rdp_metrics_point *p)
{
	return p->peak_bytes_per_s;
}

static double rate_of(const struct rdp_metrics_point *p)
{
	return p->msgs_per_s;
}

static double min_of(const struct rdp_metrics_point *p)
{
	return p->lat.min_ns / 1e9;
}

static double max_of(const struct rdp_metrics_point *p)
{
	return p->lat.max_ns / 1e9;
}

static double data_errors_of(const struct rdp_metrics_point *p)
{
	return !p->data_ok;
}

static double lost_of(const struct rdp_metrics_point *p)
{
	return (double)p->lost_msgs;
}

static double events_of(const struct rdp_metrics_point *p)
{
	return (double)p->device_events;
}

static const struct gauge gauges[] = {
	{ "rdmaperf_bandwidth_bytes_per_second",
	  "Average bandwidth of the point.", is_bw, bw_of },
	{ "rdmaperf_bandwidth_peak_bytes_per_second",
	  "Peak bandwidth of the point.", has_peak, peak_of },
	{ "rdmaperf_messages_per_second", "Message rate of the point.", is_bw,
	  rate_of },
	{ "rdmaperf_latency_min_seconds", "Lowest latency of the point.",
	  has_lat, min_of },
	{ "rdmaperf_latency_max_seconds", "Highest latency of the point.",
	  has_lat, max_of },
	{ "rdmaperf_data_errors",
	  "1 when the point's data check failed, else 0.", always,
	  data_errors_of },
	{ "rdmaperf_lost_messages",
	  "Messages sent that the receiver never counted (UC/UD).", has_loss,
	  lost_of },
	{ "rdmaperf_device_events",
	  "Device events (port changes, errors) seen during the point.", always,
	  events_of },
};

void rdp_metrics_head(FILE *f, const char *name, const char *type,
		      const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

void rdp_metrics_sample(FILE *f, const char *name, const char *const *labels,
			double v)
{
	size_t i;

	fprintf(f, "%s{", name);
	for (i = 0; labels[i] && labels[i + 1]; i += 2)
		put_label(f, labels[i], labels[i + 1], i == 0);
	fputc('}', f);
	put_value(f, v);
}

static void put_gauge(FILE *f, const struct rdp_metrics_run *runs,
		      size_t n_runs, const struct gauge *g)
{
	const struct rdp_metrics_run *run;
	size_t i, k, n = 0;

	for (k = 0; k < n_runs; k++)
		for (i = 0; i < runs[k].n; i++)
			n += g->has(&runs[k].points[i]) != 0;
	if (!n)
		return; /* no family without samples */
	rdp_metrics_head(f, g->name, "gauge", g->help);
	for (k = 0; k < n_runs; k++) {
		run = &runs[k];
		for (i = 0; i < run->n; i++)
			if (g->has(&run->points[i]))
				put_sample(f, g->name, run, &run->points[i],
					   NULL, g->value(&run->points[i]));
	}
}

/* One point's percentiles, _sum and _count. */
static void put_quantiles(FILE *f, const struct rdp_metrics_run *run,
			  const struct rdp_metrics_point *p)
{
	static const char name[] = "rdmaperf_latency_seconds";
	const struct rdp_lat_stats *l = &p->lat;

	put_sample(f, name, run, p, "0.5", l->median_ns / 1e9);
	put_sample(f, name, run, p, "0.9", l->p90_ns / 1e9);
	put_sample(f, name, run, p, "0.99", l->p99_ns / 1e9);
	put_sample(f, name, run, p, "0.999", l->p999_ns / 1e9);
	put_sample(f, name, run, p, "0.9999", l->p9999_ns / 1e9);
	put_sample(f, "rdmaperf_latency_seconds_sum", run, p, NULL,
		   l->avg_ns * (double)l->n / 1e9);
	put_sample(f, "rdmaperf_latency_seconds_count", run, p, NULL,
		   (double)l->n);
}

/* The percentiles as a summary: quantile samples, _sum and _count. */
static void put_latency(FILE *f, const struct rdp_metrics_run *runs,
			size_t n_runs)
{
	size_t i, k, n = 0;

	for (k = 0; k < n_runs; k++)
		for (i = 0; i < runs[k].n; i++)
			n += has_lat(&runs[k].points[i]);
	if (!n)
		return;
	rdp_metrics_head(f, "rdmaperf_latency_seconds", "summary",
			 "Latency percentiles of the point.");
	for (k = 0; k < n_runs; k++)
		for (i = 0; i < runs[k].n; i++)
			if (has_lat(&runs[k].points[i]))
				put_quantiles(f, &runs[k], &runs[k].points[i]);
}

/* A gauge with one sample per run. */
static void put_per_run(FILE *f, const struct rdp_metrics_run *runs,
			size_t n_runs, const char *name, const char *help,
			double (*value)(const struct rdp_metrics_run *r))
{
	size_t k;

	rdp_metrics_head(f, name, "gauge", help);
	for (k = 0; k < n_runs; k++)
		put_sample(f, name, &runs[k], NULL, NULL, value(&runs[k]));
}

static double points_of(const struct rdp_metrics_run *r)
{
	return (double)r->n;
}

static double failed_of(const struct rdp_metrics_run *r)
{
	return (double)r->n_failed;
}

static double pass_of(const struct rdp_metrics_run *r)
{
	return !r->n_failed && !r->failed;
}

static double when_of(const struct rdp_metrics_run *r)
{
	return (double)r->when;
}

static void put_runs(FILE *f, const struct rdp_metrics_run *runs, size_t n_runs)
{
	put_per_run(f, runs, n_runs, "rdmaperf_points",
		    "Points the run measured.", points_of);
	put_per_run(f, runs, n_runs, "rdmaperf_failed_points",
		    "Points that failed a threshold or saw the link go down.",
		    failed_of);
	put_per_run(f, runs, n_runs, "rdmaperf_pass",
		    "1 when the run completed and passed its thresholds, "
		    "else 0.",
		    pass_of);
	put_per_run(f, runs, n_runs, "rdmaperf_last_run_timestamp_seconds",
		    "When the run ended, in seconds since the epoch.", when_of);
}

int rdp_metrics_write(FILE *f, const struct rdp_metrics_run *runs,
		      size_t n_runs)
{
	size_t i;

	for (i = 0; i < sizeof(gauges) / sizeof(gauges[0]); i++) {
		put_gauge(f, runs, n_runs, &gauges[i]);
		if (i == 2)
			put_latency(f, runs, n_runs); /* after the rates */
	}
	if (n_runs)
		put_runs(f, runs, n_runs);
	fputs("# EOF\n", f);
	return ferror(f) ? -EIO : 0;
}

/* The directory of path (".": none named) into dir. */
int rdp_metrics_check_path(const char *path, char *err, size_t len)
{
	return rdp_out_path_check("--metrics", path, "rdmaperf.prom",
				  "/var/lib/node_exporter/rdmaperf.prom", 1,
				  err, len);
}

/* Write, flush and sync the temporary file fd; closes it. */
static int write_tmp(int fd, rdp_metrics_fn *fn, const void *arg)
{
	FILE *f = fdopen(fd, "w");
	int ret;

	if (!f) {
		ret = -errno;
		close(fd);
		return ret;
	}
	ret = fn(f, arg);
	if (!ret && fflush(f))
		ret = -errno;
	/* The collector may run as another user: readable by all. */
	if (!ret && (fchmod(fd, 0644) || fsync(fd)))
		ret = -errno;
	if (fclose(f) && !ret)
		ret = -EIO;
	return ret;
}

int rdp_metrics_replace(const char *path, rdp_metrics_fn *fn, const void *arg)
{
	char dir[PATH_MAX], tmp[PATH_MAX];
	const char *base = strrchr(path, '/');
	int fd, ret;

	ret = rdp_out_path_dir(path, dir, sizeof(dir));
	/* A dot file: the collector reads only *.prom. */
	if (!ret && snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", dir,
			     base ? base + 1 : path) >= (int)sizeof(tmp))
		ret = -ENAMETOOLONG;
	if (ret) {
		rdp_err("write --metrics %s: %s", path, strerror(-ret));
		return ret;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		ret = -errno;
		rdp_err("write --metrics %s: create a file in %s: %s", path,
			dir, strerror(-ret));
		return ret;
	}
	ret = write_tmp(fd, fn, arg);
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret) {
		unlink(tmp);
		rdp_err("write --metrics %s: %s", path, strerror(-ret));
	}
	return ret;
}

struct runs_arg {
	const struct rdp_metrics_run *runs;
	size_t n;
};

static int write_runs(FILE *f, const void *arg)
{
	const struct runs_arg *a = arg;

	return rdp_metrics_write(f, a->runs, a->n);
}

int rdp_metrics_write_file(const char *path, const struct rdp_metrics_run *runs,
			   size_t n_runs)
{
	struct runs_arg a = { runs, n_runs };

	return rdp_metrics_replace(path, write_runs, &a);
}

static double num_at(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

/* Microseconds in the document, nanoseconds here; null stays 0. */
static double ns_at(const json_t *e, const char *key)
{
	return num_at(e, key) * 1e3;
}

void rdp_metrics_point_of(const json_t *e, struct rdp_metrics_point *p)
{
	const char *kind = json_string_value(json_object_get(e, "kind"));
	const json_t *check = json_object_get(e, "data_check");
	const json_t *loss = json_object_get(e, "loss");
	const json_t *ev = json_object_get(e, "events");
	struct rdp_lat_stats *l = &p->lat;

	memset(p, 0, sizeof(*p));
	p->size_bytes =
		(uint64_t)json_integer_value(json_object_get(e, "size_bytes"));
	p->num_qps =
		(uint32_t)json_integer_value(json_object_get(e, "num_qps"));
	p->bw = kind && !strcmp(kind, "bandwidth");
	p->bw_bytes_per_s = num_at(e, "bw_avg_gbps") * 1e9 / 8;
	p->peak_bytes_per_s = num_at(e, "bw_peak_gbps") * 1e9 / 8;
	p->msgs_per_s = num_at(e, "msg_rate_mpps") * 1e6;
	if (json_is_number(json_object_get(e, "lat_p50_us"))) {
		l->n = (size_t)json_integer_value(
			json_object_get(e, "lat_samples"));
		l->min_ns = ns_at(e, "lat_min_us");
		l->max_ns = ns_at(e, "lat_max_us");
		l->median_ns = ns_at(e, "lat_p50_us");
		l->avg_ns = ns_at(e, "lat_avg_us");
		l->p90_ns = ns_at(e, "lat_p90_us");
		l->p99_ns = ns_at(e, "lat_p99_us");
		l->p999_ns = ns_at(e, "lat_p999_us");
		l->p9999_ns = ns_at(e, "lat_p9999_us");
	}
	/* an entry without a data check passed none and failed none */
	p->data_ok = !json_is_false(json_object_get(check, "ok"));
	p->loss_counted = json_is_object(loss);
	p->lost_msgs =
		(uint64_t)json_integer_value(json_object_get(loss, "lost"));
	p->device_events = json_array_size(ev) +
			   (uint64_t)json_integer_value(
				   json_object_get(e, "events_dropped"));
}

struct metrics_sink {
	struct rdp_report_sink base; /* first */
	char file[PATH_MAX];
	struct rdp_metrics_point *v;
	size_t n, cap;
	size_t n_failed;
	/* The labels, copied at the first point: the connection and the
	 * peer's records are gone by close. */
	char test[64], device[64], peer[256];
};

static void keep_labels(struct metrics_sink *m,
			const struct rdp_report_info *in)
{
	const struct rdp_host_info *ph = in->peer_host;
	const char *peer = ph && ph->hostname[0] ? ph->hostname : in->peer_addr;

	snprintf(m->test, sizeof(m->test), "%s", in->ops ? in->ops->name : "");
	snprintf(m->device, sizeof(m->device), "%s",
		 in->conn && in->conn->dev ? in->conn->dev->name : "");
	snprintf(m->peer, sizeof(m->peer), "%s", peer ? peer : "");
}

static void keep(struct rdp_metrics_point *m, const struct rdp_report_info *in,
		 const struct rdp_result *r)
{
	memset(m, 0, sizeof(*m));
	m->size_bytes = r->size_bytes;
	m->num_qps = r->num_qps;
	m->bw = in->ops && in->ops->kind == RDP_BENCH_BW;
	m->bw_bytes_per_s = r->bw_avg_gbps * 1e9 / 8;
	m->peak_bytes_per_s = r->bw_peak_gbps * 1e9 / 8;
	m->msgs_per_s = r->msg_rate_mpps * 1e6;
	m->lat = r->lat;
	m->data_ok = r->data_ok;
	m->loss_counted = r->loss_counted;
	m->lost_msgs = rdp_result_lost(r);
	m->device_events = r->n_events + r->events_dropped;
}

static int metrics_point(struct rdp_report_sink *s,
			 const struct rdp_report_info *in,
			 const struct rdp_result *r)
{
	struct metrics_sink *m = (struct metrics_sink *)s;
	struct rdp_metrics_point *v;
	size_t i;

	/* A size given twice (-s 64,64) is one series: the last wins, as
	 * a collector rejects a file with a series twice. */
	for (i = 0; i < m->n; i++)
		if (m->v[i].size_bytes == r->size_bytes &&
		    m->v[i].num_qps == r->num_qps) {
			keep(&m->v[i], in, r);
			return 0;
		}
	if (m->n == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 16;

		v = realloc(m->v, cap * sizeof(*v));
		if (!v) {
			rdp_err("keep the point for --metrics: %s",
				strerror(ENOMEM));
			return -ENOMEM;
		}
		m->v = v;
		m->cap = cap;
	}
	if (!m->n)
		keep_labels(m, in);
	keep(&m->v[m->n++], in, r);
	return 0;
}

/* After the verdict's and the link's ends: their failures are counted. */
static int metrics_end(struct rdp_report_sink *s,
		       const struct rdp_report_info *in,
		       struct rdp_report_summary *sum)
{
	(void)in;
	((struct metrics_sink *)s)->n_failed = sum->n_failed;
	return 0;
}

/* A run without points (a passive server) still says it ran. */
static int metrics_close(struct rdp_report_sink *s,
			 const struct rdp_report_info *in)
{
	struct metrics_sink *m = (struct metrics_sink *)s;
	struct rdp_metrics_run run = {
		.test = m->test,
		.device = m->device,
		.peer = m->peer,
		.points = m->v,
		.n = m->n,
		.n_failed = m->n_failed,
		.when = time(NULL),
	};

	if (!m->n)
		keep_labels(m, in);
	return rdp_metrics_write_file(m->file, &run, 1);
}

static void metrics_destroy(struct rdp_report_sink *s)
{
	free(((struct metrics_sink *)s)->v);
	free(s);
}

static const struct rdp_report_sink_ops metrics_ops = {
	.name = "metrics",
	.point = metrics_point,
	.end = metrics_end,
	.close = metrics_close,
	.destroy = metrics_destroy,
};

int rdp_metrics_sink_create(const char *file, struct rdp_report_sink **out)
{
	struct metrics_sink *m = calloc(1, sizeof(*m));

	if (!m)
		return -ENOMEM;
	if (snprintf(m->file, sizeof(m->file), "%s", file) >=
	    (int)sizeof(m->file)) {
		free(m);
		return -ENAMETOOLONG;
	}
	m->base.ops = &metrics_ops;
	*out = &m->base;
	return 0;
}
