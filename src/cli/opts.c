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

#include "opts_int.h"

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

static void defaults(struct rdp_opts *o)
{
	memset(o, 0, sizeof(*o));
	rdp_params_defaults(&o->params);
	o->params.warmup_iters = 100;
	o->conn.ib_port = 1;
	o->conn.gid_index = -1;
	o->conn.tcp_port = RDP_DEFAULT_PORT;
	o->conn.oob_timeout_ms = 5000;
	o->conn.connect_timeout_ms = 10000;
	o->conn.max_memory_bytes = 4ull << 30;
	o->conn.cq_timeout_ms = 10000;
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

static int apply_conn(struct rdp_opts *o, int id, const char *arg, char *err,
		      size_t len)
{
	struct rdp_conn_opts *c = &o->conn;
	uint64_t v = 0;
	int ret = 0;

	switch (id) {
	case OPT_DEV:
		if (strlen(arg) >= sizeof(c->dev))
			return rdp_cli_bad(err, len,
					   "-d %s: device name too long", arg);
		snprintf(c->dev, sizeof(c->dev), "%s", arg);
		return 0;
	case OPT_MAX_MEMORY:
		if (rdp_parse_size(arg, &v) || v < (1u << 20))
			return rdp_cli_bad(err, len,
					   "--max-memory needs a size of at "
					   "least 1M like 512M or 8G, not '%s'",
					   arg);
		c->max_memory_bytes = v;
		return 0;
	case OPT_BIND:
		if (strlen(arg) >= sizeof(c->bind))
			return rdp_cli_bad(err, len, "--bind %s: too long",
					   arg);
		snprintf(c->bind, sizeof(c->bind), "%s", arg);
		return 0;
	case OPT_IB_PORT:
		ret = rdp_cli_num("-i", arg, 1, 254, &v, err, len);
		c->ib_port = (int)v;
		break;
	case OPT_GID:
		ret = rdp_cli_num("-x", arg, 0, 65535, &v, err, len);
		c->gid_index = (int)v;
		break;
	case OPT_PORT:
		ret = rdp_cli_num("-p", arg, 1, 65535, &v, err, len);
		c->tcp_port = (uint16_t)v;
		break;
	case OPT_OOB_TIMEOUT:
		ret = rdp_cli_num("--oob-timeout", arg, 1, 3600, &v, err, len);
		c->oob_timeout_ms = (int)v * 1000;
		break;
	case OPT_CQ_TIMEOUT:
		ret = rdp_cli_num("--cq-timeout", arg, 1, 3600, &v, err, len);
		c->cq_timeout_ms = (int)v * 1000;
		break;
	case OPT_CONNECT_TIMEOUT:
		ret = rdp_cli_num("--connect-timeout", arg, 1, 3600, &v, err,
				  len);
		c->connect_timeout_ms = (int)v * 1000;
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
		return rdp_cli_bad(err, len, "%s %s is out of range: use %s",
				   opt, arg, range);
	if (ret == -E2BIG)
		return rdp_cli_bad(err, len, "%s %s: more than %d points", opt,
				   arg, RDP_MAX_POINTS);
	return rdp_cli_bad(err, len,
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
	return rdp_cli_bad(
		err, len, "--output %s: use bandwidth, message_rate or latency",
		arg);
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
			return rdp_cli_bad(err, len,
					   "-f needs seconds like 1 or 0.5, "
					   "not '%s'",
					   arg);
		return 0;
	case OPT_INTERVAL:
		if (rdp_parse_double(arg, &r->interval_s) ||
		    r->interval_s < 0.01 || r->interval_s > 3600)
			return rdp_cli_bad(err, len,
					   "--interval needs seconds from "
					   "0.01 to 3600, not '%s'",
					   arg);
		return 0;
	case OPT_LIMIT_BW:
		if (rdp_parse_double(arg, &r->limit_bw_gbps))
			return rdp_cli_bad(err, len,
					   "-w needs Gb/s like 90 or 12.5, "
					   "not '%s'",
					   arg);
		return 0;
	case OPT_LIMIT_MSGRATE:
		if (rdp_parse_double(arg, &r->limit_msgrate_mpps))
			return rdp_cli_bad(err, len,
					   "-y needs Mpps like 10 or 0.5, "
					   "not '%s'",
					   arg);
		return 0;
	case OPT_OUTPUT:
		return apply_output(r, arg, err, len);
	case OPT_JSON_FILE:
		if (!*arg || strlen(arg) >= sizeof(r->json_file))
			return rdp_cli_bad(err, len,
					   "--json-file needs a file name");
		snprintf(r->json_file, sizeof(r->json_file), "%s", arg);
		return 0;
	case OPT_FREQ:
		r->no_freq_check = 1;
		return 0;
	default:
		return 1;
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
		ret = rdp_cli_num("-n", arg, 1, 1ull << 40, &v, err, len);
		p->iters = v;
		return ret;
	case OPT_DURATION:
		ret = rdp_cli_num("-D", arg, 1, 86400, &v, err, len);
		p->duration_s = (uint32_t)v;
		return ret;
	case OPT_QPS:
		return apply_qps(&o->matrix, arg, err, len);
	case OPT_TX_DEPTH:
		ret = rdp_cli_num("-t", arg, 1, 65536, &v, err, len);
		p->tx_depth = (uint32_t)v;
		return ret;
	case OPT_CQ_MOD:
		ret = rdp_cli_num("-Q", arg, 1, 65536, &v, err, len);
		p->cq_mod = (uint32_t)v;
		return ret;
	case OPT_MTU:
		ret = rdp_cli_num("-m", arg, 256, 4096, &v, err, len);
		if (!ret && (v & (v - 1)))
			return rdp_cli_bad(err, len,
					   "-m %s: the MTU is one of 256, "
					   "512, 1024, 2048, 4096",
					   arg);
		p->mtu_bytes = (uint32_t)v;
		return ret;
	case OPT_TCLASS:
		ret = rdp_cli_num("--tclass", arg, 0, 255, &v, err, len);
		p->tclass = (uint32_t)v;
		p->flags |= RDP_PARAM_TOS;
		return ret;
	case OPT_WARMUP:
		ret = rdp_cli_num("--warmup", arg, 0, 1u << 30, &v, err, len);
		p->warmup_iters = (uint32_t)v;
		return ret;
	case OPT_SEED:
		ret = rdp_cli_num("--seed", arg, 0, UINT32_MAX, &v, err, len);
		p->seed = (uint32_t)v;
		return ret;
	case OPT_RX_DEPTH:
		ret = rdp_cli_num("-r", arg, 1, 65536, &v, err, len);
		p->rx_depth = (uint32_t)v;
		return ret;
	case OPT_OUTSTANDING:
		ret = rdp_cli_num("-o", arg, 1, 255, &v, err, len);
		p->outstanding = (uint32_t)v;
		return ret;
	case OPT_ATOMIC:
		if (!strcmp(arg, "CMP_AND_SWAP"))
			p->flags |= RDP_PARAM_CAS;
		else if (strcmp(arg, "FETCH_AND_ADD"))
			return rdp_cli_bad(
				err, len,
				"-A %s: use FETCH_AND_ADD or CMP_AND_SWAP",
				arg);
		return 0;
	case OPT_INLINE:
		ret = rdp_cli_num("-I", arg, 0, 4096, &v, err, len);
		p->inline_bytes = (uint32_t)v;
		return ret;
	case OPT_POST_LIST:
		ret = rdp_cli_num("-l", arg, 1, 32, &v, err, len);
		p->post_list = (uint32_t)v;
		return ret;
	case OPT_QP_TIMEOUT:
		ret = rdp_cli_num("-u", arg, 0, 31, &v, err, len);
		p->qp_timeout = (uint32_t)v;
		return ret;
	case OPT_SL:
		ret = rdp_cli_num("-S", arg, 0, 15, &v, err, len);
		p->sl = (uint32_t)v;
		return ret;
	case OPT_TOS:
		ret = rdp_cli_num("-T", arg, 0, 255, &v, err, len);
		p->tclass = (uint32_t)v;
		p->flags |= RDP_PARAM_TOS;
		return ret;
	case OPT_GRH:
		p->flags |= RDP_PARAM_GRH;
		return 0;
	case OPT_RDMA_CM:
		p->flags |= RDP_PARAM_RDMA_CM;
		return 0;
	case OPT_BIDIR:
		p->flags |= RDP_PARAM_BIDIR;
		return 0;
	default:
		return apply_report(&o->report, id, arg, err, len);
	}
}

/* Every option group; each takes its own ids and passes on the rest. */
static rdp_cli_apply_fn *const groups[] = {
	apply_conn,	   apply_test,		rdp_cli_apply_accept,
	rdp_cli_apply_mem, rdp_cli_apply_place, rdp_cli_apply_bounce,
};

static int apply_group(struct rdp_opts *o, int id, const char *arg, char *err,
		       size_t len)
{
	size_t i;
	int ret;

	for (i = 0; i < sizeof(groups) / sizeof(groups[0]); i++) {
		ret = groups[i](o, id, arg, err, len);
		if (ret != 1)
			return ret;
	}
	return rdp_cli_bad(err, len, "unhandled option");
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
		return rdp_cli_bad(err, len, "option %s needs a value", opt);
	if (optopt)
		return rdp_cli_bad(err, len, "unknown option -%c (see --help)",
				   optopt);
	return rdp_cli_bad(err, len, "unknown option %s (see --help)", opt);
}

/* Walk the options; positional arguments are left in argv[optind..]. */
static int parse_table(int argc, char **argv, const struct opt_def *t, size_t n,
		       struct rdp_opts *o, char *err, size_t len,
		       void (*help)(FILE *f))
{
	struct option lo[RDP_CLI_MAX_OPTS + 1];
	char so[2 * RDP_CLI_MAX_OPTS + 2];
	unsigned char seen[512] = { 0 };
	int c, ret;

	build_getopt(t, n, lo, so);
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		if (c == '?' || c == ':')
			return getopt_failure(c, argv, err, len);
		if (seen[c]++)
			return rdp_cli_bad(err, len, "option --%s given twice",
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
		ret = apply_group(o, c, optarg, err, len);
		if (ret)
			return ret;
		if (c == OPT_ITERS && seen[OPT_DURATION])
			return rdp_cli_bad(err, len,
					   "-n and -D exclude each other");
		if (c == OPT_DURATION && seen[OPT_ITERS])
			return rdp_cli_bad(err, len,
					   "-n and -D exclude each other");
		if ((c == OPT_TOS && seen[OPT_TCLASS]) ||
		    (c == OPT_TCLASS && seen[OPT_TOS]))
			return rdp_cli_bad(err, len,
					   "-T and --tclass set the same byte: "
					   "give one");
		if ((c == OPT_SIZE && seen[OPT_ALL_SIZES]) ||
		    (c == OPT_ALL_SIZES && seen[OPT_SIZE]))
			return rdp_cli_bad(err, len,
					   "-a and -s exclude each other");
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
		return rdp_cli_bad(
			err, len, "--output %s does not fit %s",
			o->report.output == RDP_OUTPUT_LAT  ? "latency"
			: o->report.output == RDP_OUTPUT_BW ? "bandwidth"
							    : "message_rate",
			o->bench->name);
	if (o->report.interval_s > 0 &&
	    (o->bench->kind != RDP_BENCH_BW || !p->duration_s))
		return rdp_cli_bad(err, len,
				   "--interval needs a bandwidth test in "
				   "duration mode (-D)");
	if (o->report.margin_s > 0 &&
	    (!p->duration_s || 2 * o->report.margin_s >= p->duration_s))
		return rdp_cli_bad(err, len,
				   "-f needs -D longer than twice the margin");
	if ((p->flags & RDP_PARAM_BIDIR) &&
	    !(o->bench->flags & RDP_BENCH_BIDIR))
		return rdp_cli_bad(err, len,
				   "-b applies to write_bw and read_bw");
	if ((p->flags & RDP_PARAM_RDMA_CM) && p->mtu_bytes)
		return rdp_cli_bad(err, len,
				   "-m does not apply with -R: RDMA CM takes "
				   "the path MTU from the route (set the "
				   "netdev's MTU instead)");
	if ((p->flags & RDP_PARAM_RDMA_CM) && o->conn.gid_index >= 0)
		return rdp_cli_bad(err, len,
				   "-x does not apply with -R: RDMA CM picks "
				   "the GID of the route to HOST");
	if (o->report.histogram && o->bench->kind != RDP_BENCH_LAT)
		return rdp_cli_bad(err, len, "-H applies to latency tests");
	if (o->report.output && o->report.json)
		return rdp_cli_bad(err, len,
				   "--output and --json both want stdout");
	if (o->bench->kind == RDP_BENCH_LAT &&
	    (o->report.limit_bw_gbps > 0 || o->report.limit_msgrate_mpps > 0))
		return rdp_cli_bad(err, len,
				   "-w and -y apply to bandwidth tests");
	/* Signal often enough that the send queue never fills; a ping-pong
	 * needs room for one signaled write still in flight. */
	if (p->cq_mod > p->tx_depth)
		p->cq_mod = p->tx_depth;
	if (o->bench->kind == RDP_BENCH_LAT && p->cq_mod > p->tx_depth / 2)
		p->cq_mod = p->tx_depth / 2 ? p->tx_depth / 2 : 1;
	if (rdp_cli_check_accept(o, err, len))
		return -EINVAL;
	if (rdp_cli_check_bounce(o, err, len) || rdp_cli_check_mem(o, err, len))
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

int rdp_opts_parse_client(int argc, char **argv, struct rdp_opts *o, char *err,
			  size_t errlen)
{
	int ret, npos;

	defaults(o);
	ret = parse_table(argc, argv, rdp_cli_client_table, rdp_cli_n_client, o,
			  err, errlen, rdp_opts_usage_client);
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
	return validate_client(o, err, errlen);
}

int rdp_opts_parse_server(int argc, char **argv, struct rdp_opts *o, char *err,
			  size_t errlen)
{
	int ret;

	defaults(o);
	ret = parse_table(argc, argv, rdp_cli_server_table, rdp_cli_n_server, o,
			  err, errlen, rdp_opts_usage_server);
	if (ret)
		return ret;
	if (optind < argc)
		return rdp_cli_bad(err, errlen,
				   "unexpected argument '%s': the "
				   "server takes its test parameters from each "
				   "client",
				   argv[optind]);
	return rdp_cli_check_bounce(o, err, errlen) ? -EINVAL : 0;
}
