/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdmaperf certify HOST: the standard certification matrix (write and read
 * bandwidth at 1 and 8 QPs over a size sweep, write/read/send latency at
 * small sizes), each run as a child rdmaperf with adaptive iterations and
 * its JSON kept, the band of the line rate applied to large messages, and
 * a one-page Markdown record with the plots.
 */
#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <jansson.h>

#include <infiniband/verbs.h>

#include <rdmaperf/limits.h>
#include <rdmaperf/log.h>
#include <rdmaperf/opts.h>
#include <rdmaperf/metrics.h>
#include <rdmaperf/plot.h>
#include <rdmaperf/session.h>
#include <rdmaperf/tool.h>

extern char **environ;

/* The band applies from this size up: smaller messages are bound by the
 * message rate, not the link. */
#define BAND_MIN_BYTES 65536

struct certify_opts {
	const char *host, *dev, *port, *dir;
	const char *sizes, *lat_sizes, *qps, *tpp;
	const char *metrics;	 /* --metrics FILE, NULL none */
	double band_lo, band_hi; /* fractions of the line rate */
};

struct test_run {
	const char *test;
	int bw;
	int rc;	     /* the child's exit code */
	json_t *doc; /* its JSON, NULL when none */
	int plotted;
	size_t band_points, band_fail;
};

static const char *const tests[] = { "write_bw", "read_bw", "write_lat",
				     "read_lat", "send_lat" };
#define N_TESTS (sizeof(tests) / sizeof(tests[0]))

static void more_help(FILE *f)
{
	fprintf(f,
		"\nExit 0 when every run completed and every bandwidth point "
		"of %d B\nand up is within the band; 1 otherwise.\n",
		BAND_MIN_BYTES);
}

/* LO-HI in percent of the line rate, two strict decimal numbers. */
static int set_band(void *base, const struct rdp_cli_opt *d, const char *arg,
		    char *err, size_t len)
{
	struct certify_opts *a = base;
	char lo[32];
	const char *dash = strchr(arg, '-');
	double l, h;

	(void)d;
	if (!dash || (size_t)(dash - arg) >= sizeof(lo))
		goto bad;
	memcpy(lo, arg, (size_t)(dash - arg));
	lo[dash - arg] = '\0';
	if (rdp_parse_double(lo, &l) || rdp_parse_double(dash + 1, &h) ||
	    !(l > 0) || h < l || h > 150)
		goto bad;
	a->band_lo = l / 100;
	a->band_hi = h / 100;
	return 0;
bad:
	return rdp_cli_bad(err, len,
			   "--band needs LO-HI in %% of the line rate like "
			   "90-98.75, not '%s'",
			   arg);
}

static int set_tpp(void *base, const struct rdp_cli_opt *d, const char *arg,
		   char *err, size_t len)
{
	double s;

	(void)base;
	(void)d;
	return rdp_cli_seconds("--time-per-point", arg, 0.01, 3600, &s, err,
			       len);
}

static int set_metrics(void *base, const struct rdp_cli_opt *d, const char *arg,
		       char *err, size_t len)
{
	(void)base;
	(void)d;
	return rdp_metrics_check_path(arg, err, len);
}

static int set_port(void *base, const struct rdp_cli_opt *d, const char *arg,
		    char *err, size_t len)
{
	uint64_t v;

	(void)base;
	(void)d;
	return rdp_cli_num("-p", arg, 1, 65535, &v, err, len);
}

#define TEXT(m)                                                                \
	.type = RDP_CLI_TEXT, .off = offsetof(struct certify_opts, m),         \
	.width = sizeof(const char *)
#define T RDP_CLI_TOOL

/* clang-format off */
static const struct rdp_cli_opt rows[] = {
	{ "ib-dev", 'd', "DEV", T, TEXT(dev), .help = "RDMA device" },
	{ "port", 'p', "PORT", T, TEXT(port), .set = set_port,
	  .help = "TCP port of the server" },
	{ "dir", 0, "DIR", T, TEXT(dir),
	  .help = "where to write (default certify-DATE-TIME)" },
	{ "sizes", 0, "LIST", T, TEXT(sizes),
	  .help = "bandwidth sizes (default 2:8M:x4)" },
	{ "lat-sizes", 0, "LIST", T, TEXT(lat_sizes),
	  .help = "latency sizes (default 2,8,64,512)" },
	{ "qp", 0, "LIST", T, TEXT(qps), .help = "QP counts (default 1,8)" },
	{ "time-per-point", 0, "SEC", T, TEXT(tpp), .set = set_tpp,
	  .help = "adaptive bound per point (default 2)" },
	{ "band", 0, "LO-HI", T, .set = set_band,
	  .help = "band in % of the line rate (default 90-98.75)" },
	{ "metrics", 0, "FILE", T, TEXT(metrics), .set = set_metrics,
	  .help = "also write every run's figures and verdict to FILE as OpenMetrics text" },
	{ "help", 'h', NULL, T, .type = RDP_CLI_HELP, .help = "show this help" },
};
/* clang-format on */

static const struct rdp_cli_table certify_table = {
	.opts = rows,
	.n = sizeof(rows) / sizeof(rows[0]),
	.side = RDP_CLI_TOOL,
	.synopsis = "Usage: rdmaperf certify HOST [options]\n"
		    "  Run the certification matrix against an rdmaperf server "
		    "on HOST and write\n"
		    "  DIR/certify.md (one page, with plots), DIR/TEST.json "
		    "and DIR/TEST.txt.",
	.more_help = more_help,
};

static int parse_args(int argc, char **argv, struct certify_opts *a)
{
	char err[256];
	int ret;

	ret = rdp_cli_parse(&certify_table, argc, argv, a, err, sizeof(err));
	if (ret < 0)
		rdp_err("certify: %s", err);
	if (ret)
		return ret;
	if (argc - optind != 1) {
		rdp_err("certify needs the server: rdmaperf certify HOST (see "
			"--help)");
		return -EINVAL;
	}
	a->host = argv[optind];
	return 0;
}

static int path_in(char *buf, size_t len, const char *dir, const char *test,
		   const char *ext)
{
	int n = snprintf(buf, len, "%s/%s.%s", dir, test, ext);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* One child rdmaperf: its report to DIR/TEST.txt; returns its exit code,
 * or -errno when it could not start. */
static int run_child(const struct certify_opts *a, struct test_run *t)
{
	char json[PATH_MAX], txt[PATH_MAX];
	const char *argv[24];
	posix_spawn_file_actions_t fa;
	size_t n = 0;
	pid_t pid;
	int status, ret;

	if (path_in(json, sizeof(json), a->dir, t->test, "json") ||
	    path_in(txt, sizeof(txt), a->dir, t->test, "txt"))
		return -ENAMETOOLONG;
	argv[n++] = "rdmaperf";
	argv[n++] = t->test;
	argv[n++] = "-s";
	argv[n++] = t->bw ? a->sizes : a->lat_sizes;
	if (t->bw) {
		argv[n++] = "-q";
		argv[n++] = a->qps;
	}
	argv[n++] = "--time-per-point";
	argv[n++] = a->tpp;
	argv[n++] = "--json-file";
	argv[n++] = json;
	argv[n++] = "-F";
	if (a->dev) {
		argv[n++] = "-d";
		argv[n++] = a->dev;
	}
	if (a->port) {
		argv[n++] = "-p";
		argv[n++] = a->port;
	}
	argv[n++] = a->host;
	argv[n] = NULL;
	ret = posix_spawn_file_actions_init(&fa);
	if (!ret)
		ret = posix_spawn_file_actions_addopen(
			&fa, 1, txt, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (!ret)
		ret = posix_spawn(&pid, "/proc/self/exe", &fa, NULL,
				  (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (ret)
		return -ret;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/* Where a point stands against the band: only messages of BAND_MIN_BYTES
 * and up on a port with a known line rate are judged. */
enum band {
	BAND_NONE,
	BAND_BELOW,
	BAND_IN,
	BAND_ABOVE
};

static enum band band_of(const json_t *e, double lo, double hi, double line)
{
	json_int_t size = json_integer_value(json_object_get(e, "size_bytes"));
	double bw = json_number_value(json_object_get(e, "bw_avg_gbps"));

	if (!(line > 0) || size < BAND_MIN_BYTES)
		return BAND_NONE;
	return bw < lo * line	? BAND_BELOW
	       : bw > hi * line ? BAND_ABOVE
				: BAND_IN;
}

/* Large-message points against the band; counts into t. */
static void apply_band(const struct certify_opts *a, struct test_run *t,
		       double line)
{
	enum band b;
	const json_t *e;
	size_t i;

	json_array_foreach(json_object_get(t->doc, "results"), i, e)
	{
		b = band_of(e, a->band_lo, a->band_hi, line);
		t->band_points += b != BAND_NONE;
		t->band_fail += b == BAND_BELOW;
	}
}

static void run_test(const struct certify_opts *a, struct test_run *t)
{
	char path[PATH_MAX];
	double line;

	fprintf(stderr, "certify: %s ...\n", t->test);
	t->rc = run_child(a, t);
	if (t->rc < 0) {
		rdp_err("certify: start %s: %s", t->test, strerror(-t->rc));
		return;
	}
	if (path_in(path, sizeof(path), a->dir, t->test, "json"))
		return;
	t->doc = json_load_file(path, 0, NULL);
	if (!t->doc)
		return;
	line = json_number_value(json_object_get(
		json_object_get(t->doc, "device"), "line_rate_gbps"));
	if (t->bw && line > 0)
		apply_band(a, t, line);
	if (!path_in(path, sizeof(path), a->dir, t->test, "svg"))
		t->plotted = !rdp_plot_file(t->doc, path);
}

static const char *str_at(const json_t *doc, const char *obj, const char *key)
{
	const char *s = json_string_value(
		json_object_get(json_object_get(doc, obj), key));

	return s ? s : "?";
}

static void md_context(FILE *f, const struct certify_opts *a, const json_t *d,
		       int pass)
{
	const json_t *dev = json_object_get(d, "device");
	char link[64];
	double line = json_number_value(json_object_get(dev, "line_rate_gbps"));

	fprintf(f, "# Certification record: %s to %s\n\n",
		str_at(d, "device", "name"), a->host);
	fprintf(f, "| | |\n|---|---|\n");
	fprintf(f, "| Verdict | **%s** |\n", pass ? "PASS" : "FAIL");
	fprintf(f, "| Date | %s |\n",
		json_string_value(json_object_get(d, "timestamp")) ?: "?");
	fprintf(f, "| Client | %s, %s, %s |\n", str_at(d, "client", "hostname"),
		str_at(d, "client", "kernel"),
		str_at(d, "client", "cpu_model"));
	fprintf(f, "| Server | %s (%s), rdmaperf %s |\n",
		str_at(d, "server", "hostname"), str_at(d, "server", "address"),
		str_at(d, "server", "rdmaperf_version"));
	/* the link in its layer's words: "100 Gb/s Ethernet", "NDR 4x" */
	rdp_link_name(strcmp(str_at(d, "device", "link_layer"), "Ethernet")
			      ? IBV_LINK_LAYER_INFINIBAND
			      : IBV_LINK_LAYER_ETHERNET,
		      (uint8_t)json_integer_value(
			      json_object_get(dev, "active_speed")),
		      (uint8_t)json_integer_value(
			      json_object_get(dev, "active_width")),
		      link, sizeof(link));
	fprintf(f,
		"| Device | %s port %" JSON_INTEGER_FORMAT
		", %s, firmware %s, %s |\n",
		str_at(d, "device", "name"),
		json_integer_value(json_object_get(dev, "port")),
		str_at(d, "device", "link_layer"),
		str_at(d, "device", "firmware"), link);
	if (line > 0)
		fprintf(f,
			"| Band | %.4g-%.4g %% of the %.6g Gb/s line rate "
			"(%.4g-%.4g Gb/s), messages of %d B and up |\n",
			a->band_lo * 100, a->band_hi * 100, line,
			a->band_lo * line, a->band_hi * line, BAND_MIN_BYTES);
	else
		fprintf(f, "| Band | not applied: the port reports no known "
			   "line rate |\n");
	fprintf(f,
		"| Method | adaptive iterations, at most %s s per point; "
		"rdmaperf %s |\n\n",
		a->tpp,
		json_string_value(json_object_get(d, "version")) ?: "?");
}

static void md_bw(FILE *f, const struct test_run *t, double lo, double hi,
		  double line)
{
	static const char *const names[] = { [BAND_NONE] = "-",
					     [BAND_BELOW] = "**below**",
					     [BAND_IN] = "in band",
					     [BAND_ABOVE] = "above" };
	const json_t *e;
	size_t i;

	json_array_foreach(json_object_get(t->doc, "results"), i, e)
	{
		json_int_t size =
			json_integer_value(json_object_get(e, "size_bytes"));
		double bw =
			json_number_value(json_object_get(e, "bw_avg_gbps"));
		const char *band = names[band_of(e, lo, hi, line)];

		fprintf(f,
			"| %s | %" JSON_INTEGER_FORMAT
			" | %" JSON_INTEGER_FORMAT " | %.3f | ",
			t->test,
			json_integer_value(json_object_get(e, "num_qps")), size,
			bw);
		if (line > 0)
			fprintf(f, "%.1f | %s |\n", 100 * bw / line, band);
		else
			fprintf(f, "- | %s |\n", band);
	}
}

static void md_lat(FILE *f, const struct test_run *t)
{
	const json_t *e;
	size_t i;

	json_array_foreach(json_object_get(t->doc, "results"), i, e) fprintf(
		f,
		"| %s | %" JSON_INTEGER_FORMAT " | %.3f | %.3f | %.3f | %s |\n",
		t->test, json_integer_value(json_object_get(e, "size_bytes")),
		json_number_value(json_object_get(e, "lat_p50_us")),
		json_number_value(json_object_get(e, "lat_p99_us")),
		json_number_value(json_object_get(e, "lat_p999_us")),
		json_string_value(json_object_get(e, "latency_kind")) ?: "?");
}

static const json_t *first_doc(const struct test_run *t)
{
	size_t i;

	for (i = 0; i < N_TESTS; i++)
		if (t[i].doc)
			return t[i].doc;
	return NULL;
}

static void md_runs(FILE *f, const struct test_run *t)
{
	size_t i;

	fprintf(f, "\n## Runs\n\n| Test | Exit | Band | Files |\n"
		   "|---|---|---|---|\n");
	for (i = 0; i < N_TESTS; i++) {
		fprintf(f, "| %s | %d | ", t[i].test, t[i].rc);
		if (t[i].band_points)
			fprintf(f, "%zu of %zu below", t[i].band_fail,
				t[i].band_points);
		else
			fprintf(f, "-");
		fprintf(f, " | [%s.json](%s.json), [%s.txt](%s.txt)", t[i].test,
			t[i].test, t[i].test, t[i].test);
		if (t[i].plotted)
			fprintf(f, ", [%s.svg](%s.svg)", t[i].test, t[i].test);
		fprintf(f, " |\n");
	}
}

static void md_plots(FILE *f, const struct test_run *t)
{
	size_t i, n = 0;

	for (i = 0; i < N_TESTS; i++)
		n += t[i].plotted;
	fprintf(f, "\n## Plots\n\n");
	if (!n)
		fprintf(f, "None: gnuplot is not installed (Debian: "
			   "gnuplot-nox).\n");
	for (i = 0; i < N_TESTS; i++)
		if (t[i].plotted)
			fprintf(f, "![%s](%s.svg)\n", t[i].test, t[i].test);
}

static int write_record(const struct certify_opts *a, const struct test_run *t,
			int pass)
{
	const json_t *d = first_doc(t);
	double line = json_number_value(json_object_get(
		json_object_get(d, "device"), "line_rate_gbps"));
	char path[PATH_MAX];
	size_t i;
	FILE *f;

	if (path_in(path, sizeof(path), a->dir, "certify", "md"))
		return -ENAMETOOLONG;
	f = fopen(path, "w");
	if (!f) {
		rdp_err("certify: open %s: %s", path, strerror(errno));
		return -errno;
	}
	if (d)
		md_context(f, a, d, pass);
	else
		fprintf(f,
			"# Certification record: %s\n\n**FAIL**: no run "
			"produced results.\n",
			a->host);
	fprintf(f, "## Bandwidth\n\n| Test | QPs | Bytes | Gb/s | %% of line "
		   "| Band |\n|---|---|---|---|---|---|\n");
	for (i = 0; i < N_TESTS; i++)
		if (t[i].bw && t[i].doc)
			md_bw(f, &t[i], a->band_lo, a->band_hi, line);
	fprintf(f, "\n## Latency\n\n| Test | Bytes | p50 [us] | p99 [us] | "
		   "p99.9 [us] | Kind |\n|---|---|---|---|---|---|\n");
	for (i = 0; i < N_TESTS; i++)
		if (!t[i].bw && t[i].doc)
			md_lat(f, &t[i]);
	md_runs(f, t);
	md_plots(f, t);
	if (fclose(f))
		return -EIO;
	printf("certify: %s: %s\n", pass ? "PASS" : "FAIL", path);
	return 0;
}

/* One run's labels and points from its document (pts: room for them). */
static void metrics_run(const struct certify_opts *a, const struct test_run *t,
			struct rdp_metrics_point *pts, time_t now,
			struct rdp_metrics_run *run)
{
	const json_t *res = json_object_get(t->doc, "results");
	const char *dev = json_string_value(
		json_object_get(json_object_get(t->doc, "device"), "name"));
	const char *peer = json_string_value(
		json_object_get(json_object_get(t->doc, "server"), "hostname"));
	size_t i;

	for (i = 0; i < json_array_size(res); i++)
		rdp_metrics_point_of(json_array_get(res, i), &pts[i]);
	*run = (struct rdp_metrics_run){
		.test = t->test,
		.device = dev && *dev ? dev
			  : a->dev    ? a->dev
				      : "",
		.peer = peer && *peer ? peer : a->host,
		.points = pts,
		.n = json_array_size(res),
		.n_failed = t->band_fail,
		.when = now,
		.failed = t->rc != 0 || !t->doc,
	};
}

/* --metrics: every run that started, one file; a run without results is
 * there too, failed. */
static int write_metrics(const struct certify_opts *a, const struct test_run *t)
{
	struct rdp_metrics_point *pts[N_TESTS] = { 0 };
	struct rdp_metrics_run runs[N_TESTS];
	time_t now = time(NULL);
	size_t i, n = 0;
	int ret = 0;

	for (i = 0; i < N_TESTS && t[i].test && !ret; i++) {
		pts[i] = calloc(
			json_array_size(json_object_get(t[i].doc, "results")) +
				1,
			sizeof(*pts[i]));
		if (!pts[i])
			ret = -ENOMEM;
		else
			metrics_run(a, &t[i], pts[i], now, &runs[n++]);
	}
	if (!ret)
		ret = rdp_metrics_write_file(a->metrics, runs, n);
	else
		rdp_err("certify: --metrics: %s", strerror(-ret));
	for (i = 0; i < N_TESTS; i++)
		free(pts[i]);
	return ret;
}

static int make_dir(struct certify_opts *a, char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	if (!a->dir) {
		if (!localtime_r(&now, &tm) ||
		    !strftime(buf, len, "certify-%Y%m%d-%H%M%S", &tm))
			return -EINVAL;
		a->dir = buf;
	}
	if (mkdir(a->dir, 0755) && errno != EEXIST) {
		rdp_err("certify: create %s: %s", a->dir, strerror(errno));
		return -errno;
	}
	return 0;
}

static int certify_main(int argc, char **argv)
{
	struct certify_opts a = { .sizes = "2:8M:x4",
				  .lat_sizes = "2,8,64,512",
				  .qps = "1,8",
				  .tpp = "2",
				  .band_lo = 0.90,
				  .band_hi = 0.9875 };
	struct test_run t[N_TESTS];
	char dir[64];
	size_t i;
	int ret, pass = 1;

	ret = parse_args(argc, argv, &a);
	if (ret)
		return ret > 0 ? RDP_EXIT_OK : RDP_EXIT_USAGE;
	if (make_dir(&a, dir, sizeof(dir)))
		return RDP_EXIT_FAIL;
	memset(t, 0, sizeof(t));
	for (i = 0; i < N_TESTS; i++) {
		t[i].test = tests[i];
		t[i].bw = strstr(tests[i], "_bw") != NULL;
		run_test(&a, &t[i]);
		/* A usage error repeats for every run: stop at the first. */
		if (t[i].rc == RDP_EXIT_USAGE || t[i].rc < 0) {
			pass = 0;
			ret = RDP_EXIT_USAGE;
			break;
		}
		pass &= t[i].rc == 0 && t[i].doc && !t[i].band_fail;
	}
	if (!ret && write_record(&a, t, pass))
		ret = RDP_EXIT_FAIL;
	if (!ret && a.metrics && write_metrics(&a, t))
		ret = RDP_EXIT_FAIL;
	for (i = 0; i < N_TESTS; i++)
		json_decref(t[i].doc);
	if (ret)
		return ret;
	return pass ? RDP_EXIT_OK : RDP_EXIT_FAIL;
}

const struct rdp_tool rdp_tool_certify = {
	.name = "certify",
	.summary = "run the certification matrix and write a one-page record",
	.opts = &certify_table,
	.main = certify_main,
};
