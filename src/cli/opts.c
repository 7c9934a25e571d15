/* SPDX-License-Identifier: BSD-2-Clause */
/* rdmaperf's and rdmaperf-server's command lines: strict numbers, the
 * setters of the table's rows (table.c), the rules across options. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/outpath.h>
#include <rdmaperf/log.h>
#include <rdmaperf/opts.h>
#include <rdmaperf/rules.h>

#include "opts_int.h"

/* The leading digits of s, which must start with one (strtoull alone
 * would take blanks and a sign); *end is what follows them. */
static int leading_digits(const char *s, uint64_t *v, const char **end)
{
	unsigned long long n;
	char *e;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	n = strtoull(s, &e, 10);
	if (errno == ERANGE)
		return -ERANGE;
	*v = n;
	*end = e;
	return 0;
}

int rdp_parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	const char *end;
	uint64_t v;
	int ret = leading_digits(s, &v, &end);

	if (ret)
		return ret;
	if (*end)
		return -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int rdp_parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !(isdigit((unsigned char)*s) || *s == '.'))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || v != v || v < 0)
		return -EINVAL;
	*out = v;
	return 0;
}

/* After K, M or G: nothing, "B" or "iB" in either case (4K, 4KB, 4kb,
 * 4KiB: all 4096, so a size as the reports print it reads back). */
static int unit_tail(const char *t)
{
	if (*t == 'i' || *t == 'I')
		t++;
	else if (!*t)
		return 0;
	return (*t == 'b' || *t == 'B') && !t[1] ? 0 : -EINVAL;
}

int rdp_parse_size(const char *s, uint64_t *out)
{
	unsigned int shift = 0;
	const char *end;
	uint64_t v;
	int ret = leading_digits(s, &v, &end);

	if (ret)
		return ret;
	switch (*end) {
	case '\0':
		break;
	case 'b':
	case 'B':
		if (end[1])
			return -EINVAL;
		break;
	case 'k':
	case 'K':
		shift = 10;
		break;
	case 'm':
	case 'M':
		shift = 20;
		break;
	case 'g':
	case 'G':
		shift = 30;
		break;
	default:
		return -EINVAL;
	}
	if (shift && unit_tail(end + 1))
		return -EINVAL;
	if (shift && v > (UINT64_MAX >> shift))
		return -ERANGE;
	*out = v << shift;
	return 0;
}

int rdp_cli_bad(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* A numeric option: range-checked, with the option named on failure. */
int rdp_cli_num(const char *opt, const char *arg, uint64_t min, uint64_t max,
		uint64_t *v, char *err, size_t len)
{
	int ret = rdp_parse_uint(arg, min, max, v);

	if (ret == -ERANGE)
		return rdp_cli_bad(err, len,
				   "%s %s is out of range: use %" PRIu64
				   "..%" PRIu64,
				   opt, arg, min, max);
	if (ret)
		return rdp_cli_bad(err, len,
				   "%s needs a whole number, not '%s'", opt,
				   arg);
	return 0;
}

int rdp_cli_seconds(const char *opt, const char *arg, double lo, double hi,
		    double *out, char *err, size_t len)
{
	if (rdp_parse_double(arg, out) || *out < lo || *out > hi)
		return rdp_cli_bad(err, len,
				   "%s needs seconds from %g to %g, not '%s'",
				   opt, lo, hi, arg);
	return 0;
}

int rdp_cli_file_name(char *dst, size_t size, const char *arg, const char *what,
		      char *err, size_t len)
{
	if (!*arg || strlen(arg) >= size)
		return rdp_cli_bad(err, len, "%s", what);
	snprintf(dst, size, "%s", arg);
	return 0;
}

int rdp_cli_set_max_memory(void *base, const struct rdp_cli_opt *d,
			   const char *arg, char *err, size_t len)
{
	uint64_t v = 0;

	(void)d;
	if (rdp_parse_size(arg, &v) || v < (1u << 20))
		return rdp_cli_bad(err, len,
				   "--max-memory needs a size of at least 1M "
				   "like 512M or 8G, not '%s'",
				   arg);
	((struct rdp_opts *)base)->conn.max_memory_bytes = v;
	return 0;
}

int rdp_cli_set_allow(void *base, const struct rdp_cli_opt *d, const char *arg,
		      char *err, size_t len)
{
	(void)d;
	return rdp_cidr_parse_list(arg, &((struct rdp_opts *)base)->conn.allow,
				   err, len);
}

/* --bind: a numeric address, checked here; whether it is this host's is
 * for bind() to say. */
int rdp_cli_set_bind(void *base, const struct rdp_cli_opt *d, const char *arg,
		     char *err, size_t len)
{
	unsigned char raw[sizeof(struct in6_addr)];

	(void)d;
	(void)base;
	if (inet_pton(AF_INET, arg, raw) == 1 ||
	    inet_pton(AF_INET6, arg, raw) == 1)
		return 0;
	return rdp_cli_bad(err, len,
			   "--bind %s is not an IPv4 or IPv6 address: give a "
			   "numeric address of this host (see `ip addr`)",
			   arg);
}

/* 1073741824 as 1G, 4096 as 4096: how a range reads in an error. */
static const char *size_text(uint64_t v, char *buf, size_t len)
{
	if (v >= (1u << 30) && !(v & ((1u << 30) - 1)))
		snprintf(buf, len, "%" PRIu64 "G", v >> 30);
	else
		snprintf(buf, len, "%" PRIu64, v);
	return buf;
}

/* The step of arg's range that never grows: "a factor of 1", "a step of
 * 0". */
static const char *still_step(const char *arg, char *buf, size_t len)
{
	const char *at, *end;
	uint64_t k;

	for (at = strchr(arg, ':'); at; at = strchr(at + 1, ':')) {
		int mul = at[1] == 'x';

		if ((mul || at[1] == '+') &&
		    !leading_digits(at + 2, &k, &end) &&
		    (!*end || *end == ',') && k < (mul ? 2u : 1u)) {
			snprintf(buf, len, "a %s of %" PRIu64,
				 mul ? "factor" : "step", k);
			return buf;
		}
	}
	return "its step";
}

static int list_error(int ret, const struct rdp_cli_opt *d, const char *arg,
		      char *err, size_t len)
{
	char opt[40], hi[24];

	rdp_cli_spelling(d, opt, sizeof(opt));
	if (ret == -ERANGE)
		return rdp_cli_bad(err, len,
				   "%s %s is out of range: use %" PRIu64 "..%s",
				   opt, arg, d->min,
				   size_text(d->max, hi, sizeof(hi)));
	if (ret == -E2BIG)
		return rdp_cli_bad(err, len, "%s %s: more than %d points", opt,
				   arg, RDP_MAX_POINTS);
	if (ret == RDP_LIST_STILL)
		return rdp_cli_bad(err, len,
				   "%s %s: %s never grows: use a factor from "
				   "x2 or a step from +1",
				   opt, arg, still_step(arg, hi, sizeof(hi)));
	if (ret == RDP_LIST_BACKWARDS)
		return rdp_cli_bad(err, len,
				   "%s %s runs backwards (start above end): "
				   "give FIRST:LAST with FIRST <= LAST",
				   opt, arg);
	return rdp_cli_bad(err, len,
			   "%s needs a value, a list (a,b,c) or a range "
			   "(first:last:xFACTOR or first:last:+STEP), not '%s'",
			   opt, arg);
}

int rdp_cli_set_sizes(void *base, const struct rdp_cli_opt *d, const char *arg,
		      char *err, size_t len)
{
	struct rdp_matrix *m = &((struct rdp_opts *)base)->matrix;
	int ret = rdp_parse_list(arg, 1, d->min, d->max, m->sizes,
				 RDP_MAX_POINTS, &m->n_sizes);

	return ret ? list_error(ret, d, arg, err, len) : 0;
}

int rdp_cli_set_qps(void *base, const struct rdp_cli_opt *d, const char *arg,
		    char *err, size_t len)
{
	struct rdp_matrix *m = &((struct rdp_opts *)base)->matrix;
	int ret = rdp_parse_list(arg, 0, d->min, d->max, m->qps, RDP_MAX_POINTS,
				 &m->n_qps);

	return ret ? list_error(ret, d, arg, err, len) : 0;
}

/* --flow_label: one label for every QP, or a list of one per QP (its
 * length checked against -q by the rules, on both sides). */
int rdp_cli_set_flow_label(void *base, const struct rdp_cli_opt *d,
			   const char *arg, char *err, size_t len)
{
	struct rdp_params *p = &((struct rdp_opts *)base)->params;
	uint64_t v[RDP_FLOW_LABELS_MAX];
	size_t i, n;
	int ret = rdp_parse_list(arg, 0, d->min, d->max, v, RDP_FLOW_LABELS_MAX,
				 &n);

	if (ret == -E2BIG)
		return rdp_cli_bad(err, len,
				   "--flow_label %s: more than %d labels", arg,
				   RDP_FLOW_LABELS_MAX);
	if (ret)
		return list_error(ret, d, arg, err, len);
	p->flow_label = (uint32_t)v[0];
	p->n_flow_labels = n > 1 ? (uint32_t)n : 0;
	for (i = 0; i < n && n > 1; i++)
		p->flow_labels[i] = (uint32_t)v[i];
	return 0;
}

/* -a: every power of two from 2 B to 8 MiB. */
int rdp_cli_set_all(void *base, const struct rdp_cli_opt *d, const char *arg,
		    char *err, size_t len)
{
	struct rdp_matrix *m = &((struct rdp_opts *)base)->matrix;
	uint64_t v;

	(void)d;
	(void)arg;
	(void)err;
	(void)len;
	m->n_sizes = 0;
	for (v = 2; v <= (8u << 20); v *= 2)
		m->sizes[m->n_sizes++] = v;
	return 0;
}

/* After the range check: the MTU is a power of two. */
int rdp_cli_set_mtu(void *base, const struct rdp_cli_opt *d, const char *arg,
		    char *err, size_t len)
{
	uint32_t v = ((struct rdp_opts *)base)->params.mtu_bytes;

	(void)d;
	if (v & (v - 1))
		return rdp_cli_bad(err, len,
				   "-m %s: the MTU is one of 256, 512, 1024, "
				   "2048, 4096",
				   arg);
	return 0;
}

int rdp_cli_set_atomic(void *base, const struct rdp_cli_opt *d, const char *arg,
		       char *err, size_t len)
{
	struct rdp_params *p = &((struct rdp_opts *)base)->params;

	(void)d;
	if (!strcmp(arg, "CMP_AND_SWAP"))
		p->flags |= RDP_PARAM_CAS;
	else if (strcmp(arg, "FETCH_AND_ADD"))
		return rdp_cli_bad(err, len,
				   "-A %s: use FETCH_AND_ADD or CMP_AND_SWAP",
				   arg);
	return 0;
}

int rdp_cli_set_interval(void *base, const struct rdp_cli_opt *d,
			 const char *arg, char *err, size_t len)
{
	(void)d;
	return rdp_cli_seconds("--interval", arg, 0.01, 3600,
			       &((struct rdp_opts *)base)->report.interval_s,
			       err, len);
}

int rdp_cli_set_output(void *base, const struct rdp_cli_opt *d, const char *arg,
		       char *err, size_t len)
{
	static const char *const names[] = { "", "bandwidth", "message_rate",
					     "latency" };
	size_t i;

	(void)d;
	for (i = 1; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(arg, names[i])) {
			((struct rdp_opts *)base)->report.output =
				(enum rdp_output)i;
			return 0;
		}
	}
	return rdp_cli_bad(
		err, len, "--output %s: use bandwidth, message_rate or latency",
		arg);
}

int rdp_cli_set_json_file(void *base, const struct rdp_cli_opt *d,
			  const char *arg, char *err, size_t len)
{
	struct rdp_report_opts *r = &((struct rdp_opts *)base)->report;
	char what[64];

	/* --json-file, and perftest's --out_json_file: naming the file is
	 * enough to have it written. */
	snprintf(what, sizeof(what), "--%s", d->name);
	if (rdp_out_path_check(what, arg, "rdmaperf.json", "results.json", 0,
			       err, len))
		return -EINVAL;
	snprintf(what, sizeof(what), "--%s needs a file name", d->name);
	return rdp_cli_file_name(r->json_file, sizeof(r->json_file), arg, what,
				 err, len);
}

/* Every point of the matrix must be runnable, not just the first: the
 * rules the server applies to each PARAMS, on this side's memory. */
static int validate_points(struct rdp_opts *o, char *err, size_t len)
{
	struct rdp_rules_side side =
		rdp_rules_side_of(&o->mem, o->conn.perftest);
	struct rdp_params p = o->params;
	size_t i, k;
	int ret;

	for (k = 0; k < o->matrix.n_qps; k++) {
		for (i = 0; i < o->matrix.n_sizes; i++) {
			p.size_bytes = o->matrix.sizes[i];
			p.num_qps = (uint32_t)o->matrix.qps[k];
			ret = rdp_rules_check(&p, o->bench, &side, err, len);
			if (ret)
				return ret;
		}
	}
	o->params.size_bytes = o->matrix.sizes[0];
	o->params.num_qps = (uint32_t)o->matrix.qps[0];
	return 0;
}

/* The first point's defaults, where the command line left them. */
static void client_defaults(struct rdp_opts *o)
{
	struct rdp_params *p = &o->params;

	if (p->duration_s)
		p->iters = 0;
	if (!o->matrix.n_sizes) {
		/* A UD message is one packet: by default one that fits
		 * every MTU from 1024 up. */
		o->matrix.sizes[0] = p->transport == RDP_TRANSPORT_UD
					     ? 1024
					     : o->bench->default_size;
		o->matrix.n_sizes = 1;
	}
	if (!o->matrix.n_qps) {
		o->matrix.qps[0] = 1;
		o->matrix.n_qps = 1;
	}
	/* Bandwidth: no warm-up, unless --perform_warm_up */
	if (o->bench->kind != RDP_BENCH_LAT)
		p->warmup_iters = rdp_cli_warm_up_bw(o);
	/* Signal often enough that the send queue never fills; a ping-pong
	 * needs room for one signaled write still in flight. */
	if (p->cq_mod > p->tx_depth)
		p->cq_mod = p->tx_depth;
	if (o->bench->kind == RDP_BENCH_LAT && p->cq_mod > p->tx_depth / 2)
		p->cq_mod = p->tx_depth / 2 ? p->tx_depth / 2 : 1;
}

/* Report options that fit one kind of test, refused on the other. */
static const struct kind_rule {
	size_t off; /* of an int (set: non-zero) or a double (set: > 0) */
	int is_double;
	enum rdp_bench_kind kind; /* the tests the option applies to */
	const char *why;
} kind_rules[] = {
	{ offsetof(struct rdp_report_opts, histogram), 0, RDP_BENCH_LAT,
	  "-H applies to latency tests" },
	{ offsetof(struct rdp_report_opts, samples), 0, RDP_BENCH_LAT,
	  "-U applies to latency tests" },
	{ offsetof(struct rdp_report_opts, cycles), 0, RDP_BENCH_LAT,
	  "-C applies to latency tests: bandwidth is in Gb/s or MiB/s" },
	{ offsetof(struct rdp_report_opts, limit_bw_gbps), 1, RDP_BENCH_BW,
	  "-w and -y apply to bandwidth tests" },
	{ offsetof(struct rdp_report_opts, limit_msgrate_mpps), 1, RDP_BENCH_BW,
	  "-w and -y apply to bandwidth tests" },
};

static int kind_rule_set(const struct rdp_report_opts *r,
			 const struct kind_rule *k)
{
	const char *f = (const char *)r + k->off;
	double d;
	int i;

	if (k->is_double) {
		memcpy(&d, f, sizeof(d));
		return d > 0;
	}
	memcpy(&i, f, sizeof(i));
	return i != 0;
}

/* What the report prints: its options against the test's kind. */
static int check_report(const struct rdp_opts *o, char *err, size_t len)
{
	const struct rdp_report_opts *r = &o->report;
	int lat = o->bench->kind == RDP_BENCH_LAT;
	size_t i;

	if ((r->output == RDP_OUTPUT_LAT) != lat &&
	    r->output != RDP_OUTPUT_REPORT)
		return rdp_cli_bad(err, len, "--output %s does not fit %s",
				   r->output == RDP_OUTPUT_LAT ? "latency"
				   : r->output == RDP_OUTPUT_BW
					   ? "bandwidth"
					   : "message_rate",
				   o->bench->name);
	if (r->interval_s > 0 &&
	    (o->bench->kind != RDP_BENCH_BW || !o->params.duration_s))
		return rdp_cli_bad(err, len,
				   "--interval needs a bandwidth test in "
				   "duration mode (-D)");
	if (r->margin_s > 0 &&
	    (!o->params.duration_s || 2 * r->margin_s >= o->params.duration_s))
		return rdp_cli_bad(err, len,
				   "-f needs -D longer than twice the margin");
	for (i = 0; i < sizeof(kind_rules) / sizeof(kind_rules[0]); i++)
		if (kind_rules[i].kind != o->bench->kind &&
		    kind_rule_set(r, &kind_rules[i]))
			return rdp_cli_bad(err, len, "%s", kind_rules[i].why);
	if (r->output && r->json)
		return rdp_cli_bad(err, len,
				   "--output and --json both want stdout");
	if (r->per_port && !(o->params.flags & RDP_PARAM_DUALPORT))
		return rdp_cli_bad(err, len,
				   "--report-per-port applies to -O "
				   "(--dualport): add it, or drop the option");
	return 0;
}

/* The client's own options (the report, -x, --perftest-block), then the
 * rules every point must pass on both sides (rules.h). */
static int validate_client(struct rdp_opts *o, char *err, size_t len)
{
	if (rdp_cli_check_soak(o, err, len) || rdp_cli_check_live(o, err, len))
		return -EINVAL;
	client_defaults(o);
	rdp_cli_mcast_flags(o);
	if (check_report(o, err, len))
		return -EINVAL;
	if ((o->params.flags & RDP_PARAM_RDMA_CM) && o->conn.gid_index >= 0)
		return rdp_cli_bad(err, len,
				   "-x does not apply with -R: RDMA CM picks "
				   "the GID of the route to HOST");
	if (o->conn.perftest_block && !o->conn.perftest)
		return rdp_cli_bad(err, len,
				   "--perftest-block applies to --perftest");
	if (rdp_cli_check_limits(o, err, len))
		return -EINVAL;
	return validate_points(o, err, len);
}

static int list_tests(char *err, size_t len, const char *what)
{
	const struct rdp_bench_ops *const *b;
	size_t off;

	off = (size_t)snprintf(err, len, "%s; tests:", what);
	for (b = rdp_bench_all(); *b && off < len; b++)
		off += (size_t)snprintf(err + off, len - off, " %s",
					(*b)->name);
	return -EINVAL;
}

void rdp_cli_client_help(FILE *f)
{
	const struct rdp_bench_ops *const *b;

	fprintf(f, "\nTests:");
	for (b = rdp_bench_all(); *b; b++)
		fprintf(f, " %s", (*b)->name);
	fprintf(f, "\n");
}

void rdp_opts_usage_client(FILE *f)
{
	rdp_cli_usage(f, &rdp_cli_client);
}

/* pt: --perftest's first reading, whose test takes perftest's defaults
 * (NULL: rdmaperf's). */
static int parse_side(const struct rdp_cli_table *side, int argc, char **argv,
		      struct rdp_opts *o, const struct rdp_opts *pt, char *err,
		      size_t len)
{
	struct rdp_cli_table t = *side;

	memset(o, 0, sizeof(*o));
	/* Both sides start from every default: a one-shot server is a
	 * client's command line. */
	t.side = RDP_CLI_CLIENT | RDP_CLI_SERVER;
	rdp_cli_defaults(&t, o);
	if (pt)
		rdp_cli_perftest_defaults(pt, o);
	o->check_params = rdp_cli_check_params;
	t.side = side->side;
	return rdp_cli_parse(&t, argc, argv, o, err, len);
}

int rdp_opts_parse_client(int argc, char **argv, struct rdp_opts *o, char *err,
			  size_t errlen)
{
	return rdp_opts_parse_client_table(&rdp_cli_client, argc, argv, o, err,
					   errlen);
}

/* The command line over the defaults (pt: as parse_side), TEST and HOST. */
static int parse_client_once(const struct rdp_cli_table *t, int argc,
			     char **argv, struct rdp_opts *o,
			     const struct rdp_opts *pt, char *err,
			     size_t errlen)
{
	int ret, npos;

	ret = parse_side(t, argc, argv, o, pt, err, errlen);
	if (ret)
		return ret;
	npos = argc - optind;
	if (npos < 1)
		return list_tests(err, errlen, "name the test to run");
	if (npos > 2)
		return rdp_cli_bad(err, errlen,
				   "unexpected argument '%s': give TEST "
				   "and at most one HOST",
				   argv[optind + 2]);
	o->bench = rdp_bench_find(argv[optind]);
	if (!o->bench) {
		char what[96];

		snprintf(what, sizeof(what), "unknown test '%.40s'",
			 argv[optind]);
		return list_tests(err, errlen, what);
	}
	snprintf(o->params.test, sizeof(o->params.test), "%s", o->bench->name);
	if (npos == 2) {
		if (strlen(argv[optind + 1]) >= sizeof(o->conn.host))
			return rdp_cli_bad(err, errlen, "host name too long");
		snprintf(o->conn.host, sizeof(o->conn.host), "%s",
			 argv[optind + 1]);
	}
	return 0;
}

int rdp_opts_parse_client_table(const struct rdp_cli_table *t, int argc,
				char **argv, struct rdp_opts *o, char *err,
				size_t errlen)
{
	struct rdp_opts *first;
	int ret = parse_client_once(t, argc, argv, o, NULL, err, errlen);

	/* --perftest: the test is known; read the line again over
	 * perftest's defaults for it. */
	if (!ret && o->conn.perftest) {
		first = malloc(sizeof(*first));
		if (!first)
			return rdp_cli_bad(err, errlen, "out of memory");
		*first = *o;
		ret = parse_client_once(t, argc, argv, o, first, err, errlen);
		free(first);
		/* perftest's block: no iterations under -D */
		o->conn.perftest_iters = o->params.duration_s ? 0
							      : o->params.iters;
	}
	return ret ? ret : validate_client(o, err, errlen);
}

int rdp_opts_parse_server(int argc, char **argv, struct rdp_opts *o, char *err,
			  size_t errlen)
{
	struct rdp_rules_side side;
	int ret;

	ret = parse_side(&rdp_cli_server, argc, argv, o, NULL, err, errlen);
	if (ret)
		return ret;
	if (optind < argc)
		return rdp_cli_bad(err, errlen,
				   "unexpected argument '%s': the "
				   "server takes its test parameters from each "
				   "client",
				   argv[optind]);
	side = rdp_rules_side_of(&o->mem, 0);
	return rdp_rules_check_mem(&side, err, errlen);
}

/* A field of width bytes, as the table's store wrote it. */
static uint64_t load(const unsigned char *f, size_t width)
{
	uint32_t v32;
	uint16_t v16;
	uint64_t v;

	switch (width) {
	case 2:
		memcpy(&v16, f, 2);
		return v16;
	case 4:
		memcpy(&v32, f, 4);
		return v32;
	case 8:
		memcpy(&v, f, 8);
		return v;
	default:
		return *f;
	}
}

/* Parameters a client sent: each is its option's default or in range. */
int rdp_cli_check_params(const struct rdp_params *p, char *err, size_t len)
{
	const struct rdp_cli_opt *d;
	char opt[40];
	uint64_t v;
	size_t i;

	for (i = 0; i < rdp_cli_n_opts; i++) {
		d = &rdp_cli_opts[i];
		if (!(d->sides & RDP_CLI_PEER) || !d->width ||
		    d->off < offsetof(struct rdp_opts, params) ||
		    d->off - offsetof(struct rdp_opts, params) >= sizeof(*p))
			continue;
		v = load((const unsigned char *)p +
				 (d->off - offsetof(struct rdp_opts, params)),
			 d->width);
		if (v == (uint64_t)d->def || (v >= d->min && v <= d->max))
			continue;
		return rdp_cli_bad(err, len,
				   "refused: %s %" PRIu64
				   " is beyond this server's limits: it "
				   "takes %" PRIu64 "..%" PRIu64,
				   rdp_cli_spelling(d, opt, sizeof(opt)), v,
				   d->min, d->max);
	}
	return 0;
}
