/* SPDX-License-Identifier: BSD-2-Clause */
/* Option tables for rdmaperf and rdmaperf-server: perftest's letters and
 * meanings, strict numbers, duplicates rejected, usage from the table. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/log.h>
#include <rdmaperf/opts.h>

enum opt_id {
	OPT_DEV = 'd',
	OPT_IB_PORT = 'i',
	OPT_GID = 'x',
	OPT_PORT = 'p',
	OPT_SIZE = 's',
	OPT_ALL_SIZES = 'a',
	OPT_ITERS = 'n',
	OPT_DURATION = 'D',
	OPT_QPS = 'q',
	OPT_TX_DEPTH = 't',
	OPT_CQ_MOD = 'Q',
	OPT_MTU = 'm',
	OPT_RX_DEPTH = 'r',
	OPT_OUTSTANDING = 'o',
	OPT_ATOMIC = 'A',
	OPT_INLINE = 'I',
	OPT_POST_LIST = 'l',
	OPT_QP_TIMEOUT = 'u',
	OPT_SL = 'S',
	OPT_TOS = 'T',
	OPT_NO_PEAK = 'N',
	OPT_LIMIT_BW = 'w',
	OPT_LIMIT_MSGRATE = 'y',
	OPT_HISTOGRAM = 'H',
	OPT_BIDIR = 'b',
	OPT_MARGIN = 'f',
	OPT_FREQ = 'F',
	OPT_HELP = 'h',
	OPT_VERSION = 'V',
	OPT_GBITS = 256,
	OPT_WARMUP,
	OPT_TCLASS,
	OPT_SEED,
	OPT_GRH,
	OPT_OOB_TIMEOUT,
	OPT_CQ_TIMEOUT,
	OPT_BIND,
	OPT_JSON,
	OPT_JSON_FILE,
	OPT_OUTPUT,
	OPT_INTERVAL,
};

struct opt_def {
	const char *name;
	int id;
	const char *arg; /* NULL: a flag */
	const char *help;
};

/* Options a test client takes, then the server's. */
/* clang-format off */
static const struct opt_def client_table[] = {
	{ "ib-dev", OPT_DEV, "DEV", "RDMA device (default: first with an active port)" },
	{ "ib-port", OPT_IB_PORT, "PORT", "device port (default 1)" },
	{ "gid-index", OPT_GID, "N", "GID index (default: the RoCE v2 GID of the connection's address)" },
	{ "port", OPT_PORT, "PORT", "TCP port of the server (default 18515)" },
	{ "size", OPT_SIZE, "LIST", "message sizes: 4K, 64,4K,1M or 2:8M:x2 (default: 64K bandwidth, 2 latency, 8 atomics)" },
	{ "all", OPT_ALL_SIZES, NULL, "sizes 2 B to 8 MiB in powers of two" },
	{ "iters", OPT_ITERS, "N", "iterations per QP (default 1000)" },
	{ "duration", OPT_DURATION, "SEC", "run for SEC seconds instead of -n" },
	{ "qp", OPT_QPS, "LIST", "QP counts, e.g. 1,2,4,8, bandwidth tests (default 1)" },
	{ "tx-depth", OPT_TX_DEPTH, "N", "work requests in flight per QP (default 128)" },
	{ "cq-mod", OPT_CQ_MOD, "N", "signal one send in N (default 100)" },
	{ "rx-depth", OPT_RX_DEPTH, "N", "receives kept posted per QP, SEND tests (default 512)" },
	{ "outstanding", OPT_OUTSTANDING, "N", "READ/atomic operations in flight per QP (default: device limit)" },
	{ "atomic_type", OPT_ATOMIC, "TYPE", "FETCH_AND_ADD (default) or CMP_AND_SWAP" },
	{ "mtu", OPT_MTU, "BYTES", "path MTU 256..4096 (default: smaller active MTU)" },
	{ "tclass", OPT_TCLASS, "N", "traffic class of the GRH (RoCE: DSCP << 2 | ECN)" },
	{ "tos", OPT_TOS, "N", "type of service of RoCE v2 packets (same byte as --tclass)" },
	{ "sl", OPT_SL, "N", "service level 0..15 (default 0)" },
	{ "qp-timeout", OPT_QP_TIMEOUT, "N", "ACK timeout 4.096 us * 2^N, 0..31 (default 14)" },
	{ "inline_size", OPT_INLINE, "BYTES", "send messages up to BYTES inline (default 220)" },
	{ "post_list", OPT_POST_LIST, "N", "chain up to N work requests per post, 1..32 (default 32)" },
	{ "warmup", OPT_WARMUP, "N", "latency: round trips run before measuring (default 100)" },
	{ "seed", OPT_SEED, "N", "data pattern seed (default 1)" },
	{ "grh", OPT_GRH, NULL, "InfiniBand: route with a GRH" },
	{ "bidirectional", OPT_BIDIR, NULL, "both sides send at once (write_bw, read_bw); TX and RX reported" },
	{ "report_gbits", OPT_GBITS, NULL, "bandwidth in Gb/s (default MiB/s)" },
	{ "noPeak", OPT_NO_PEAK, NULL, "do not compute peak bandwidth" },
	{ "margin", OPT_MARGIN, "SEC", "with -D: leave SEC seconds out at both ends (default 0)" },
	{ "interval", OPT_INTERVAL, "SEC", "with -D: bandwidth of every SEC seconds, after the run" },
	{ "histogram", OPT_HISTOGRAM, NULL, "latency: print the distribution of the samples" },
	{ "limit_bw", OPT_LIMIT_BW, "GBPS", "fail (exit 1) when a point's average is below GBPS Gb/s" },
	{ "limit_msgrate", OPT_LIMIT_MSGRATE, "MPPS", "fail when a point's message rate is below MPPS" },
	{ "output", OPT_OUTPUT, "WHAT", "print only bandwidth, message_rate or latency, one line per point" },
	{ "json", OPT_JSON, NULL, "print the results as one JSON document instead of the table" },
	{ "json-file", OPT_JSON_FILE, "FILE", "also write the JSON document to FILE" },
	{ "CPU-freq", OPT_FREQ, NULL, "do not warn about CPU frequency scaling" },
	{ "oob-timeout", OPT_OOB_TIMEOUT, "SEC", "connect and message timeout (default 5)" },
	{ "cq-timeout", OPT_CQ_TIMEOUT, "SEC", "give up when no completion arrives for SEC (default 10)" },
	{ "help", OPT_HELP, NULL, "show this help" },
	{ "version", OPT_VERSION, NULL, "show the version" },
};

static const struct opt_def server_table[] = {
	{ "ib-dev", OPT_DEV, "DEV", "RDMA device (default: first with an active port)" },
	{ "ib-port", OPT_IB_PORT, "PORT", "device port (default 1)" },
	{ "gid-index", OPT_GID, "N", "GID index (default: the RoCE v2 GID of the connection's address)" },
	{ "port", OPT_PORT, "PORT", "TCP port to listen on (default 18515)" },
	{ "bind", OPT_BIND, "ADDR", "listen on this address only (default: all)" },
	{ "oob-timeout", OPT_OOB_TIMEOUT, "SEC", "message timeout (default 5)" },
	{ "cq-timeout", OPT_CQ_TIMEOUT, "SEC", "give up when no completion arrives for SEC (default 10)" },
	{ "help", OPT_HELP, NULL, "show this help" },
	{ "version", OPT_VERSION, NULL, "show the version" },
};
/* clang-format on */

#define N_CLIENT (sizeof(client_table) / sizeof(client_table[0]))
#define N_SERVER (sizeof(server_table) / sizeof(server_table[0]))
#define MAX_OPTS 64
_Static_assert(N_CLIENT <= MAX_OPTS && N_SERVER <= MAX_OPTS,
	       "raise MAX_OPTS: getopt tables are sized by it");

int rdp_parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
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

int rdp_parse_size(const char *s, uint64_t *out)
{
	unsigned long long v;
	unsigned int shift = 0;
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	switch (*end) {
	case '\0':
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
	if (*end && end[1])
		return -EINVAL;
	if (shift && v > (UINT64_MAX >> shift))
		return -ERANGE;
	*out = (uint64_t)v << shift;
	return 0;
}

static void usage(FILE *f, const char *synopsis, const struct opt_def *t,
		  size_t n)
{
	char left[48];
	size_t i;

	fprintf(f, "%s\n\nOptions:\n", synopsis);
	for (i = 0; i < n; i++) {
		if (t[i].id < 256)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", t[i].id,
				 t[i].name, t[i].arg ? "=" : "",
				 t[i].arg ? t[i].arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", t[i].name,
				 t[i].arg ? "=" : "", t[i].arg ? t[i].arg : "");
		fprintf(f, "  %-26s %s\n", left, t[i].help);
	}
}

void rdp_opts_usage_client(FILE *f)
{
	const struct rdp_bench_ops *const *b;

	usage(f,
	      "Usage: rdmaperf TEST [options] [HOST]\n"
	      "  With HOST, run TEST against an rdmaperf server there;\n"
	      "  without, serve one client and exit.",
	      client_table, N_CLIENT);
	fprintf(f, "\nTests:");
	for (b = rdp_bench_all(); *b; b++)
		fprintf(f, " %s", (*b)->name);
	fprintf(f, "\n");
}

void rdp_opts_usage_server(FILE *f)
{
	usage(f,
	      "Usage: rdmaperf-server [options]\n"
	      "  Serve rdmaperf clients one after another; each brings "
	      "its test parameters.",
	      server_table, N_SERVER);
}

static int bad(char *err, size_t len, const char *fmt, ...) RDP_PRINTF(3, 4);

static int bad(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static void defaults(struct rdp_opts *o)
{
	memset(o, 0, sizeof(*o));
	rdp_params_defaults(&o->params);
	o->params.warmup_iters = 100;
	o->conn.ib_port = 1;
	o->conn.gid_index = -1;
	o->conn.tcp_port = RDP_DEFAULT_PORT;
	o->conn.oob_timeout_ms = 5000;
	o->conn.cq_timeout_ms = 10000;
}

/* A numeric option: range-checked, with the option named on failure. */
static int num(const char *opt, const char *arg, uint64_t min, uint64_t max,
	       uint64_t *v, char *err, size_t len)
{
	int ret = rdp_parse_uint(arg, min, max, v);

	if (ret == -ERANGE)
		return bad(err, len,
			   "%s %s is out of range: use %" PRIu64 "..%" PRIu64,
			   opt, arg, min, max);
	if (ret)
		return bad(err, len, "%s needs a whole number, not '%s'", opt,
			   arg);
	return 0;
}

static int apply_conn(struct rdp_opts *o, int id, const char *arg, char *err,
		      size_t len)
{
	struct rdp_conn_opts *c = &o->conn;
	uint64_t v = 0;
	int ret = 0;

	switch (id) {
	case OPT_DEV:
		if (strlen(arg) >= sizeof(c->dev))
			return bad(err, len, "-d %s: device name too long",
				   arg);
		snprintf(c->dev, sizeof(c->dev), "%s", arg);
		return 0;
	case OPT_BIND:
		if (strlen(arg) >= sizeof(c->bind))
			return bad(err, len, "--bind %s: too long", arg);
		snprintf(c->bind, sizeof(c->bind), "%s", arg);
		return 0;
	case OPT_IB_PORT:
		ret = num("-i", arg, 1, 254, &v, err, len);
		c->ib_port = (int)v;
		break;
	case OPT_GID:
		ret = num("-x", arg, 0, 65535, &v, err, len);
		c->gid_index = (int)v;
		break;
	case OPT_PORT:
		ret = num("-p", arg, 1, 65535, &v, err, len);
		c->tcp_port = (uint16_t)v;
		break;
	case OPT_OOB_TIMEOUT:
		ret = num("--oob-timeout", arg, 1, 3600, &v, err, len);
		c->oob_timeout_ms = (int)v * 1000;
		break;
	case OPT_CQ_TIMEOUT:
		ret = num("--cq-timeout", arg, 1, 3600, &v, err, len);
		c->cq_timeout_ms = (int)v * 1000;
		break;
	default:
		return 1; /* not a connection option */
	}
	return ret;
}

static int list_error(int ret, const char *opt, const char *arg,
		      const char *range, char *err, size_t len)
{
	if (ret == -ERANGE)
		return bad(err, len, "%s %s is out of range: use %s", opt, arg,
			   range);
	if (ret == -E2BIG)
		return bad(err, len, "%s %s: more than %d points", opt, arg,
			   RDP_MAX_POINTS);
	return bad(err, len,
		   "%s needs a value, a list (a,b,c) or a range "
		   "(first:last:xFACTOR or first:last:+STEP), not '%s'",
		   opt, arg);
}

static int apply_size(struct rdp_matrix *m, const char *arg, char *err,
		      size_t len)
{
	int ret = rdp_parse_list(arg, 1, 1, 1ull << 30, m->sizes,
				 RDP_MAX_POINTS, &m->n_sizes);

	return ret ? list_error(ret, "-s", arg, "1..1G", err, len) : 0;
}

static int apply_qps(struct rdp_matrix *m, const char *arg, char *err,
		     size_t len)
{
	int ret = rdp_parse_list(arg, 0, 1, 4096, m->qps, RDP_MAX_POINTS,
				 &m->n_qps);

	return ret ? list_error(ret, "-q", arg, "1..4096", err, len) : 0;
}

/* -a: every power of two from 2 B to 8 MiB. */
static void all_sizes(struct rdp_matrix *m)
{
	uint64_t v;

	m->n_sizes = 0;
	for (v = 2; v <= (8u << 20); v *= 2)
		m->sizes[m->n_sizes++] = v;
}

static int apply_output(struct rdp_report_opts *r, const char *arg, char *err,
			size_t len)
{
	static const char *const names[] = { "", "bandwidth", "message_rate",
					     "latency" };
	size_t i;

	for (i = 1; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(arg, names[i])) {
			r->output = (enum rdp_output)i;
			return 0;
		}
	}
	return bad(err, len,
		   "--output %s: use bandwidth, message_rate or latency", arg);
}

/* Options that shape the report only; the server never sees them. */
static int apply_report(struct rdp_report_opts *r, int id, const char *arg,
			char *err, size_t len)
{
	switch (id) {
	case OPT_GBITS:
		r->gbits = 1;
		return 0;
	case OPT_JSON:
		r->json = 1;
		return 0;
	case OPT_NO_PEAK:
		r->no_peak = 1;
		return 0;
	case OPT_HISTOGRAM:
		r->histogram = 1;
		return 0;
	case OPT_MARGIN:
		if (rdp_parse_double(arg, &r->margin_s))
			return bad(err, len,
				   "-f needs seconds like 1 or 0.5, "
				   "not '%s'",
				   arg);
		return 0;
	case OPT_INTERVAL:
		if (rdp_parse_double(arg, &r->interval_s) ||
		    r->interval_s < 0.01 || r->interval_s > 3600)
			return bad(err, len,
				   "--interval needs seconds from "
				   "0.01 to 3600, not '%s'",
				   arg);
		return 0;
	case OPT_LIMIT_BW:
		if (rdp_parse_double(arg, &r->limit_bw_gbps))
			return bad(err, len,
				   "-w needs Gb/s like 90 or 12.5, "
				   "not '%s'",
				   arg);
		return 0;
	case OPT_LIMIT_MSGRATE:
		if (rdp_parse_double(arg, &r->limit_msgrate_mpps))
			return bad(err, len,
				   "-y needs Mpps like 10 or 0.5, "
				   "not '%s'",
				   arg);
		return 0;
	case OPT_OUTPUT:
		return apply_output(r, arg, err, len);
	case OPT_JSON_FILE:
		if (!*arg || strlen(arg) >= sizeof(r->json_file))
			return bad(err, len, "--json-file needs a file name");
		snprintf(r->json_file, sizeof(r->json_file), "%s", arg);
		return 0;
	case OPT_FREQ:
		r->no_freq_check = 1;
		return 0;
	default:
		return bad(err, len, "unhandled option");
	}
}

static int apply_test(struct rdp_opts *o, int id, const char *arg, char *err,
		      size_t len)
{
	struct rdp_params *p = &o->params;
	uint64_t v = 0;
	int ret;

	switch (id) {
	case OPT_SIZE:
		return apply_size(&o->matrix, arg, err, len);
	case OPT_ALL_SIZES:
		all_sizes(&o->matrix);
		return 0;
	case OPT_ITERS:
		ret = num("-n", arg, 1, 1ull << 40, &v, err, len);
		p->iters = v;
		return ret;
	case OPT_DURATION:
		ret = num("-D", arg, 1, 86400, &v, err, len);
		p->duration_s = (uint32_t)v;
		return ret;
	case OPT_QPS:
		return apply_qps(&o->matrix, arg, err, len);
	case OPT_TX_DEPTH:
		ret = num("-t", arg, 1, 65536, &v, err, len);
		p->tx_depth = (uint32_t)v;
		return ret;
	case OPT_CQ_MOD:
		ret = num("-Q", arg, 1, 65536, &v, err, len);
		p->cq_mod = (uint32_t)v;
		return ret;
	case OPT_MTU:
		ret = num("-m", arg, 256, 4096, &v, err, len);
		if (!ret && (v & (v - 1)))
			return bad(err, len,
				   "-m %s: the MTU is one of 256, "
				   "512, 1024, 2048, 4096",
				   arg);
		p->mtu_bytes = (uint32_t)v;
		return ret;
	case OPT_TCLASS:
		ret = num("--tclass", arg, 0, 255, &v, err, len);
		p->tclass = (uint32_t)v;
		return ret;
	case OPT_WARMUP:
		ret = num("--warmup", arg, 0, 1u << 30, &v, err, len);
		p->warmup_iters = (uint32_t)v;
		return ret;
	case OPT_SEED:
		ret = num("--seed", arg, 0, UINT32_MAX, &v, err, len);
		p->seed = (uint32_t)v;
		return ret;
	case OPT_RX_DEPTH:
		ret = num("-r", arg, 1, 65536, &v, err, len);
		p->rx_depth = (uint32_t)v;
		return ret;
	case OPT_OUTSTANDING:
		ret = num("-o", arg, 1, 255, &v, err, len);
		p->outstanding = (uint32_t)v;
		return ret;
	case OPT_ATOMIC:
		if (!strcmp(arg, "CMP_AND_SWAP"))
			p->flags |= RDP_PARAM_CAS;
		else if (strcmp(arg, "FETCH_AND_ADD"))
			return bad(err, len,
				   "-A %s: use FETCH_AND_ADD or CMP_AND_SWAP",
				   arg);
		return 0;
	case OPT_INLINE:
		ret = num("-I", arg, 0, 4096, &v, err, len);
		p->inline_bytes = (uint32_t)v;
		return ret;
	case OPT_POST_LIST:
		ret = num("-l", arg, 1, 32, &v, err, len);
		p->post_list = (uint32_t)v;
		return ret;
	case OPT_QP_TIMEOUT:
		ret = num("-u", arg, 0, 31, &v, err, len);
		p->qp_timeout = (uint32_t)v;
		return ret;
	case OPT_SL:
		ret = num("-S", arg, 0, 15, &v, err, len);
		p->sl = (uint32_t)v;
		return ret;
	case OPT_TOS:
		ret = num("-T", arg, 0, 255, &v, err, len);
		p->tclass = (uint32_t)v;
		return ret;
	case OPT_GRH:
		p->flags |= RDP_PARAM_GRH;
		return 0;
	case OPT_BIDIR:
		p->flags |= RDP_PARAM_BIDIR;
		return 0;
	default:
		return apply_report(&o->report, id, arg, err, len);
	}
}

static const char *opt_name(const struct opt_def *t, size_t n, int id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t[i].id == id)
			return t[i].name;
	return "?";
}

static void build_getopt(const struct opt_def *t, size_t n, struct option *lo,
			 char *so)
{
	size_t i, k = 0;

	so[k++] = ':'; /* report a missing value as ':' */
	for (i = 0; i < n; i++) {
		lo[i] = (struct option){ t[i].name,
					 t[i].arg ? required_argument
						  : no_argument,
					 NULL, t[i].id };
		if (t[i].id < 256) {
			so[k++] = (char)t[i].id;
			if (t[i].arg)
				so[k++] = ':';
		}
	}
	lo[n] = (struct option){ 0 };
	so[k] = '\0';
}

static int getopt_failure(int c, char **argv, char *err, size_t len)
{
	const char *opt = argv[optind - 1];

	if (c == ':')
		return bad(err, len, "option %s needs a value", opt);
	if (optopt)
		return bad(err, len, "unknown option -%c (see --help)", optopt);
	return bad(err, len, "unknown option %s (see --help)", opt);
}

/* Walk the options; positional arguments are left in argv[optind..]. */
static int parse_table(int argc, char **argv, const struct opt_def *t, size_t n,
		       struct rdp_opts *o, char *err, size_t len,
		       void (*help)(FILE *f))
{
	struct option lo[MAX_OPTS + 1];
	char so[2 * MAX_OPTS + 2];
	unsigned char seen[512] = { 0 };
	int c, ret;

	build_getopt(t, n, lo, so);
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		if (c == '?' || c == ':')
			return getopt_failure(c, argv, err, len);
		if (seen[c]++)
			return bad(err, len, "option --%s given twice",
				   opt_name(t, n, c));
		if (c == OPT_HELP) {
			help(stdout);
			return RDP_PARSE_EXIT;
		}
		if (c == OPT_VERSION) {
			printf("%s %s\n", program_invocation_short_name,
			       PACKAGE_VERSION);
			return RDP_PARSE_EXIT;
		}
		ret = apply_conn(o, c, optarg, err, len);
		if (ret == 1)
			ret = apply_test(o, c, optarg, err, len);
		if (ret)
			return ret;
		if (c == OPT_ITERS && seen[OPT_DURATION])
			return bad(err, len, "-n and -D exclude each other");
		if (c == OPT_DURATION && seen[OPT_ITERS])
			return bad(err, len, "-n and -D exclude each other");
		if ((c == OPT_TOS && seen[OPT_TCLASS]) ||
		    (c == OPT_TCLASS && seen[OPT_TOS]))
			return bad(err, len,
				   "-T and --tclass set the same byte: "
				   "give one");
		if ((c == OPT_SIZE && seen[OPT_ALL_SIZES]) ||
		    (c == OPT_ALL_SIZES && seen[OPT_SIZE]))
			return bad(err, len, "-a and -s exclude each other");
	}
	return RDP_PARSE_OK;
}

/* Every point of the matrix must be runnable, not just the first. */
static int validate_points(struct rdp_opts *o, char *err, size_t len)
{
	struct rdp_params p = o->params;
	size_t i, k;
	int ret;

	for (k = 0; k < o->matrix.n_qps; k++) {
		for (i = 0; i < o->matrix.n_sizes; i++) {
			p.size_bytes = o->matrix.sizes[i];
			p.num_qps = (uint32_t)o->matrix.qps[k];
			ret = o->bench->validate(&p, err, len);
			if (ret)
				return ret;
		}
	}
	o->params.size_bytes = o->matrix.sizes[0];
	o->params.num_qps = (uint32_t)o->matrix.qps[0];
	return 0;
}

static int validate_client(struct rdp_opts *o, char *err, size_t len)
{
	struct rdp_params *p = &o->params;

	if (p->duration_s)
		p->iters = 0;
	if (!o->matrix.n_sizes) {
		o->matrix.sizes[0] = o->bench->default_size;
		o->matrix.n_sizes = 1;
	}
	if (!o->matrix.n_qps) {
		o->matrix.qps[0] = 1;
		o->matrix.n_qps = 1;
	}
	if (o->bench->kind != RDP_BENCH_LAT)
		p->warmup_iters = 0;
	if ((o->report.output == RDP_OUTPUT_LAT) !=
		    (o->bench->kind == RDP_BENCH_LAT) &&
	    o->report.output != RDP_OUTPUT_REPORT)
		return bad(err, len, "--output %s does not fit %s",
			   o->report.output == RDP_OUTPUT_LAT  ? "latency"
			   : o->report.output == RDP_OUTPUT_BW ? "bandwidth"
							       : "message_rate",
			   o->bench->name);
	if (o->report.interval_s > 0 &&
	    (o->bench->kind != RDP_BENCH_BW || !p->duration_s))
		return bad(err, len,
			   "--interval needs a bandwidth test in "
			   "duration mode (-D)");
	if (o->report.margin_s > 0 &&
	    (!p->duration_s || 2 * o->report.margin_s >= p->duration_s))
		return bad(err, len,
			   "-f needs -D longer than twice the margin");
	if ((p->flags & RDP_PARAM_BIDIR) &&
	    !(o->bench->flags & RDP_BENCH_BIDIR))
		return bad(err, len, "-b applies to write_bw and read_bw");
	if (o->report.histogram && o->bench->kind != RDP_BENCH_LAT)
		return bad(err, len, "-H applies to latency tests");
	if (o->report.output && o->report.json)
		return bad(err, len, "--output and --json both want stdout");
	if (o->bench->kind == RDP_BENCH_LAT &&
	    (o->report.limit_bw_gbps > 0 || o->report.limit_msgrate_mpps > 0))
		return bad(err, len, "-w and -y apply to bandwidth tests");
	/* Signal often enough that the send queue never fills; a ping-pong
	 * needs room for one signaled write still in flight. */
	if (p->cq_mod > p->tx_depth)
		p->cq_mod = p->tx_depth;
	if (o->bench->kind == RDP_BENCH_LAT && p->cq_mod > p->tx_depth / 2)
		p->cq_mod = p->tx_depth / 2 ? p->tx_depth / 2 : 1;
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

int rdp_opts_parse_client(int argc, char **argv, struct rdp_opts *o, char *err,
			  size_t errlen)
{
	int ret, npos;

	defaults(o);
	ret = parse_table(argc, argv, client_table, N_CLIENT, o, err, errlen,
			  rdp_opts_usage_client);
	if (ret)
		return ret;
	npos = argc - optind;
	if (npos < 1)
		return list_tests(err, errlen, "name the test to run");
	if (npos > 2)
		return bad(err, errlen,
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
			return bad(err, errlen, "host name too long");
		snprintf(o->conn.host, sizeof(o->conn.host), "%s",
			 argv[optind + 1]);
	}
	return validate_client(o, err, errlen);
}

int rdp_opts_parse_server(int argc, char **argv, struct rdp_opts *o, char *err,
			  size_t errlen)
{
	int ret;

	defaults(o);
	ret = parse_table(argc, argv, server_table, N_SERVER, o, err, errlen,
			  rdp_opts_usage_server);
	if (ret)
		return ret;
	if (optind < argc)
		return bad(err, errlen,
			   "unexpected argument '%s': the "
			   "server takes its test parameters from each "
			   "client",
			   argv[optind]);
	return 0;
}
