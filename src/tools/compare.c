/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdmaperf compare BASE.json NEW.json [--tolerance 5%]: one row per point
 * with the change of its headline figure (average bandwidth, or median
 * latency), exit 1 when any point regressed beyond the tolerance.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include <rdmaperf/compare.h>
#include <rdmaperf/log.h>
#include <rdmaperf/opts.h>
#include <rdmaperf/session.h>
#include <rdmaperf/tool.h>

#define DEFAULT_TOL 0.05

/* The headline figure of a point and which way is better. */
struct figure {
	const char *key;
	int higher_better;
};

static struct figure figure_of(const json_t *e)
{
	const char *kind = json_string_value(json_object_get(e, "kind"));

	if (kind && !strcmp(kind, "latency"))
		return (struct figure){ "lat_p50_us", 0 };
	return (struct figure){ "bw_avg_gbps", 1 };
}

static int same_point(const json_t *a, const json_t *b)
{
	static const char *const keys[] = { "size_bytes", "num_qps" };
	const char *ta = json_string_value(json_object_get(a, "test"));
	const char *tb = json_string_value(json_object_get(b, "test"));
	size_t i;

	if (!ta || !tb || strcmp(ta, tb))
		return 0;
	for (i = 0; i < 2; i++)
		if (!json_equal(json_object_get(a, keys[i]),
				json_object_get(b, keys[i])))
			return 0;
	return 1;
}

static const json_t *find_point(const json_t *results, const json_t *want)
{
	size_t i;

	for (i = 0; i < json_array_size(results); i++)
		if (same_point(json_array_get(results, i), want))
			return json_array_get(results, i);
	return NULL;
}

static void row_head(FILE *out, const json_t *e)
{
	fprintf(out,
		" %-11s %-10" JSON_INTEGER_FORMAT " %-4" JSON_INTEGER_FORMAT,
		json_string_value(json_object_get(e, "test")) ?: "?",
		json_integer_value(json_object_get(e, "size_bytes")),
		json_integer_value(json_object_get(e, "num_qps")));
}

/* One baseline point against its match; returns 1 on a regression. */
static int compare_point(const json_t *b, const json_t *n, double tol,
			 FILE *out)
{
	struct figure fig = figure_of(b);
	double vb = json_number_value(json_object_get(b, fig.key));
	double vn = json_number_value(json_object_get(n, fig.key));
	double delta;
	int bad;

	row_head(out, b);
	if (!(vb > 0) || !json_is_number(json_object_get(n, fig.key))) {
		fprintf(out, " %-12s %12s %12s %9s  no figure to compare\n",
			fig.key, "-", "-", "-");
		return 1;
	}
	delta = (vn - vb) / vb;
	bad = fig.higher_better ? delta < -tol : delta > tol;
	fprintf(out, " %-12s %12.4f %12.4f %+8.1f%%  %s\n", fig.key, vb, vn,
		delta * 100, bad ? "REGRESSION" : "ok");
	return bad;
}

static const json_t *results_of(const json_t *doc)
{
	const json_t *r = json_object_get(doc, "results");

	return json_is_array(r) ? r : NULL;
}

/* A point's headline figure as a table cell: "-" when it has none. */
static const char *cell(const json_t *e, char *buf, size_t len)
{
	const json_t *v = json_object_get(e, figure_of(e).key);

	if (!json_is_number(v))
		return "-";
	snprintf(buf, len, "%12.4f", json_number_value(v));
	return buf;
}

/* A baseline point the new run lacks, with what the baseline had. */
static void missing_row(FILE *out, const json_t *e)
{
	char b[32];

	row_head(out, e);
	fprintf(out, " %-12s %12s %12s %9s  MISSING\n", figure_of(e).key,
		cell(e, b, sizeof(b)), "-", "");
}

/* A point only the new run has: shown, never a failure. */
static void added_row(FILE *out, const json_t *e)
{
	char b[32];

	row_head(out, e);
	fprintf(out, " %-12s %12s %12s %9s  NEW (not in baseline)\n",
		figure_of(e).key, "-", cell(e, b, sizeof(b)), "");
}

int rdp_compare_docs(json_t *base, json_t *cur, double tol, FILE *out,
		     struct rdp_compare_sum *sum)
{
	const json_t *rb = results_of(base), *rn = results_of(cur), *e, *m;
	size_t i;

	memset(sum, 0, sizeof(*sum));
	if (!rb || !rn)
		return -EINVAL;
	fprintf(out, " %-11s %-10s %-4s %-12s %12s %12s %9s  %s\n", "test",
		"#bytes", "QPs", "figure", "baseline", "new", "change",
		"verdict");
	for (i = 0; i < json_array_size(rb); i++) {
		e = json_array_get(rb, i);
		m = find_point(rn, e);
		if (!m) {
			missing_row(out, e);
			sum->missing++;
			continue;
		}
		sum->points++;
		sum->regressions += (size_t)compare_point(e, m, tol, out);
	}
	for (i = 0; i < json_array_size(rn); i++) {
		e = json_array_get(rn, i);
		if (!find_point(rb, e)) {
			added_row(out, e);
			sum->added++;
		}
	}
	return 0;
}

/* Appends "; "-separated text to why (a bounded buffer). */
static void note(char *why, size_t len, const char *fmt, ...) RDP_PRINTF(3, 4);

static void note(char *why, size_t len, const char *fmt, ...)
{
	size_t n = strlen(why);
	va_list ap;

	if (n && n + 2 < len) {
		memcpy(why + n, "; ", 3);
		n += 2;
	}
	if (n + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(why + n, len - n, fmt, ap);
	va_end(ap);
}

/* How long each point ran: "-D 10", "-n 5000"; NULL unknown. */
static const char *length_of(const json_t *doc, char *buf, size_t len)
{
	const json_t *p = json_object_get(doc, "parameters");
	const json_t *d = json_object_get(p, "duration_s");
	const json_t *n = json_object_get(p, "iterations");

	if (json_is_integer(d))
		snprintf(buf, len, "-D %" JSON_INTEGER_FORMAT,
			 json_integer_value(d));
	else if (json_is_integer(n))
		snprintf(buf, len, "-n %" JSON_INTEGER_FORMAT,
			 json_integer_value(n));
	else
		return NULL;
	return buf;
}

static int by_value(const void *a, const void *b)
{
	json_int_t x = *(const json_int_t *)a, y = *(const json_int_t *)b;

	return (x > y) - (x < y);
}

/* The distinct values of key over the results, as "1,8" or, past four,
 * "24 from 2 to 8388608"; "" when there are none. */
static void set_of(const json_t *doc, const char *key, char *buf, size_t len)
{
	const json_t *r = results_of(doc);
	size_t i, n = 0, m = 0, at;
	json_int_t *v = calloc(json_array_size(r) + 1, sizeof(*v));

	buf[0] = '\0';
	if (!v)
		return;
	for (i = 0; i < json_array_size(r); i++) {
		const json_t *x = json_object_get(json_array_get(r, i), key);

		if (json_is_integer(x))
			v[n++] = json_integer_value(x);
	}
	qsort(v, n, sizeof(*v), by_value);
	for (i = 0; i < n; i++)
		if (!i || v[i] != v[m - 1])
			v[m++] = v[i];
	if (m > 4) {
		snprintf(buf, len,
			 "%zu from %" JSON_INTEGER_FORMAT
			 " to %" JSON_INTEGER_FORMAT,
			 m, v[0], v[m - 1]);
		m = 0;
	}
	for (i = 0, at = 0; i < m && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at,
				       "%s%" JSON_INTEGER_FORMAT, i ? "," : "",
				       v[i]);
	free(v);
}

/* The device's line rate (else its signal rate) in Gb/s; 0 unknown. */
static double rate_of(const json_t *doc)
{
	const json_t *d = json_object_get(doc, "device");
	const json_t *r = json_object_get(d, "line_rate_gbps");

	if (!json_is_number(r))
		r = json_object_get(d, "link_gbps");
	return json_is_number(r) ? json_number_value(r) : 0;
}

/* A parameter both documents have, unequal: "tx_depth 128 against 512". */
static void param_diff(const json_t *base, const json_t *cur, const char *key,
		       char *why, size_t len)
{
	const json_t *a =
		json_object_get(json_object_get(base, "parameters"), key);
	const json_t *b =
		json_object_get(json_object_get(cur, "parameters"), key);
	char *ta, *tb;

	if (!a || !b || json_equal(a, b))
		return;
	ta = json_dumps(a, JSON_ENCODE_ANY);
	tb = json_dumps(b, JSON_ENCODE_ANY);
	if (ta && tb)
		note(why, len, "%s %s against %s", key, ta, tb);
	free(ta);
	free(tb);
}

size_t rdp_compare_setup(const json_t *base, const json_t *cur, char *why,
			 size_t len)
{
	static const char *const params[] = { "tx_depth", "threads",
					      "transport", "mtu_bytes" };
	static const char *const sets[][2] = { { "num_qps", "QP counts" },
					       { "size_bytes", "sizes" } };
	char a[96], b[96];
	const char *la = length_of(base, a, sizeof(a));
	const char *lb;
	double ra = rate_of(base), rb = rate_of(cur);
	size_t i;

	why[0] = '\0';
	if (la) {
		la = strcpy(b, la); /* a is reused below */
		lb = length_of(cur, a, sizeof(a));
		if (lb && strcmp(la, lb))
			note(why, len, "the baseline ran %s, the new run %s",
			     la, lb);
	}
	for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		set_of(base, sets[i][0], a, sizeof(a));
		set_of(cur, sets[i][0], b, sizeof(b));
		if (a[0] && b[0] && strcmp(a, b))
			note(why, len, "%s %s against %s", sets[i][1], a, b);
	}
	if (ra > 0 && rb > 0 && fabs(ra - rb) > 1e-6 * ra)
		note(why, len, "line rate %g Gb/s against %g Gb/s", ra, rb);
	for (i = 0; i < sizeof(params) / sizeof(params[0]); i++)
		param_diff(base, cur, params[i], why, len);
	return strlen(why);
}

/* A percentage from 0 to below 100, "5" or "5%". */
static int set_tol(void *base, const struct rdp_cli_opt *d, const char *arg,
		   char *err, size_t len)
{
	char num[32];
	size_t n = strlen(arg);
	double v;

	(void)d;
	if (n && arg[n - 1] == '%')
		n--;
	if (n >= sizeof(num))
		goto bad;
	memcpy(num, arg, n);
	num[n] = '\0';
	if (rdp_parse_double(num, &v) || v >= 100)
		goto bad;
	*(double *)base = v / 100;
	return 0;
bad:
	return rdp_cli_bad(err, len,
			   "--tolerance needs a percentage from 0 to below "
			   "100 like 5%% or 20, not '%s'",
			   arg);
}

static const struct rdp_cli_opt rows[] = {
	{ "tolerance", 0, "PCT%", RDP_CLI_TOOL, .set = set_tol,
	  .help = "a point may be worse by this much (default 5%)" },
	{ "help", 'h', NULL, RDP_CLI_TOOL, .type = RDP_CLI_HELP,
	  .help = "show this help" },
};

static const struct rdp_cli_table compare_table = {
	.opts = rows,
	.n = sizeof(rows) / sizeof(rows[0]),
	.side = RDP_CLI_TOOL,
	.synopsis = "Usage: rdmaperf compare BASELINE.json NEW.json "
		    "[--tolerance PCT%]\n"
		    "  Compare each point of NEW with the same test, size and "
		    "QP count in BASELINE:\n"
		    "  average bandwidth for bandwidth tests, median latency "
		    "for latency tests.\n"
		    "  Exit 1 when a point is worse by more than the tolerance "
		    "or missing from NEW;\n"
		    "  2 for unreadable input.",
};

json_t *rdp_tool_load_results(const char *tool, const char *path)
{
	json_error_t e;
	json_t *doc = json_load_file(path, 0, &e);

	if (!doc) {
		if (e.line > 0)
			rdp_err("%s: %s line %d: %s", tool, path, e.line,
				e.text);
		else
			rdp_err("%s: %s", tool, e.text);
		return NULL;
	}
	if (!results_of(doc)) {
		rdp_err("%s: %s is not an rdmaperf results document (no "
			"results[]): write one with --json-file",
			tool, path);
		json_decref(doc);
		return NULL;
	}
	return doc;
}

static int parse_args(int argc, char **argv, double *tol)
{
	char err[256];
	int ret;

	ret = rdp_cli_parse(&compare_table, argc, argv, tol, err, sizeof(err));
	if (ret < 0)
		rdp_err("compare: %s", err);
	if (ret)
		return ret;
	if (argc - optind != 2) {
		rdp_err("compare needs two files: BASELINE.json NEW.json "
			"(see --help)");
		return -EINVAL;
	}
	return 0;
}

static int compare_main(int argc, char **argv)
{
	struct rdp_compare_sum s;
	char why[512];
	double tol = DEFAULT_TOL;
	json_t *base, *cur = NULL;
	int ret = parse_args(argc, argv, &tol);

	if (ret)
		return ret > 0 ? RDP_EXIT_OK : RDP_EXIT_USAGE;
	base = rdp_tool_load_results("compare", argv[optind]);
	if (base)
		cur = rdp_tool_load_results("compare", argv[optind + 1]);
	if (!cur) {
		json_decref(base);
		return RDP_EXIT_USAGE;
	}
	rdp_compare_docs(base, cur, tol, stdout, &s);
	fflush(stdout);
	if (rdp_compare_setup(base, cur, why, sizeof(why)))
		rdp_warn("compare: the runs were measured differently, so "
			 "figures may differ for that reason: %s",
			 why);
	printf(" compare: %zu point(s), %zu regression(s) beyond %.1f%%, "
	       "%zu missing, %zu only in the new run: %s\n",
	       s.points, s.regressions, tol * 100, s.missing, s.added,
	       s.regressions || s.missing ? "FAIL" : "pass");
	json_decref(base);
	json_decref(cur);
	return s.regressions || s.missing ? RDP_EXIT_FAIL : RDP_EXIT_OK;
}

const struct rdp_tool rdp_tool_compare = {
	.name = "compare",
	.summary = "compare a results JSON with a baseline; exit 1 on a "
		   "regression",
	.opts = &compare_table,
	.main = compare_main,
};
