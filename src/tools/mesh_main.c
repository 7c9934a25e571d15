/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdmaperf-mesh: every link of a cluster, round by round, under MPI.
 * The mesh's own options are taken out of the command line; the rest is
 * an rdmaperf client's (the test and its options), without a host.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/boot.h>
#include <rdmaperf/engine_ops.h>
#include <rdmaperf/limits.h>
#include <rdmaperf/log.h>
#include <rdmaperf/mesh_run.h>
#include <rdmaperf/opts.h>
#include <rdmaperf/session.h>
#include <rdmaperf/tool.h>

#include "mesh_doctor.h"

struct mesh_args {
	const char *pattern;
	unsigned int permutations;
	unsigned int group_size;
	uint64_t seed;
	const char *output_dir;
	double tolerance_pct;
	const char *min_bw;
	const char *max_lat;
	unsigned int round_timeout_s;
	const char *devs;
	const char *scale;
	int retest;
	unsigned int retest_wait_s;
	const char *resume;
	const char *time_budget;
	int no_prune;
	const char *topology;
	unsigned int load_pct; /* 0: not given */
	const char *max_errors;
	/* Incast: senders, rounds (0: not given), the victim's kind. */
	unsigned int fan_in, rounds;
	const char *victim;
	int doctor;
};

#define UINT(m, lo, hi, d)                                                     \
	.type = RDP_CLI_UINT, .off = offsetof(struct mesh_args, m),            \
	.width = sizeof(((struct mesh_args *)0)->m), .min = lo, .max = hi,     \
	.def = d
#define TEXT(m)                                                                \
	.type = RDP_CLI_TEXT, .off = offsetof(struct mesh_args, m),            \
	.width = sizeof(const char *)
#define REAL(m, s)                                                             \
	.type = RDP_CLI_DECIMAL, .off = offsetof(struct mesh_args, m),         \
	.width = sizeof(double), .say = s
#define T RDP_CLI_TOOL

/* clang-format off */
static const struct rdp_cli_opt rows[] = {
	{ "ib-dev", 'd', "DEV0,DEV1,...", T, TEXT(devs),
	  .help = "one device a rail: the node-local rank picks its own" },
	{ "pattern", 0, "P", T, TEXT(pattern),
	  .help = "pairwise (default), bisection, ring-shift, grouped, "
		  "quick, cover (with --topology), incast or alltoall" },
	RDP_MESH_PLAN_ROWS(struct mesh_args),
	{ "fan-in", 0, "K", T, UINT(fan_in, 1, RDP_MESH_MAX_NODES, 0),
	  .help = "incast: K senders into one receiver a round, the K nodes "
		  "after it" },
	{ "rounds", 0, "R", T, UINT(rounds, 1, RDP_MESH_MAX_NODES, 0),
	  .help = "incast: R receivers spread over the nodes (default every "
		  "node)" },
	{ "victim", 0, "lat|bw", T, TEXT(victim),
	  .help = "incast: the node after the senders sends to the receiver, "
		  "alone then under the load: the congestion impact factor" },
	{ "output-dir", 0, "DIR", T, TEXT(output_dir),
	  .help = "mesh.json, matrices, outliers, logs (default mesh)" },
	{ "tolerance", 0, "PCT", T, REAL(tolerance_pct, "a percentage like 10"),
	  .help = "flag cells this far from the rail's median (default 10)" },
	{ "min-bw", 0, "GBPS|PCT%", T, TEXT(min_bw),
	  .help = "flag cells below it (PCT% of the line rate)" },
	{ "max-lat", 0, "TIME", T, TEXT(max_lat),
	  .help = "flag cells whose median latency is above it: 5us, "
		  "800ns, 0.1ms (a plain number is us)" },
	{ "max-errors", 0, "KIND=N,...", T, TEXT(max_errors),
	  .help = "flag cells whose sender's or receiver's port counters "
		  "rose past it: KIND link, retries, congestion or a "
		  "counter's name, N a count or any (default link=0)" },
	{ "heatmap-scale", 0, "median|line", T, TEXT(scale),
	  .help = "colour cells in % of the rail's median (default) or of "
		  "the line rate" },
	{ "retest", 0, NULL, T, .type = RDP_CLI_ON,
	  .off = offsetof(struct mesh_args, retest), .width = sizeof(int),
	  .help = "then run the pairs of flagged and failed cells again (quick: halving rounds against known-good nodes)" },
	{ "retest-wait", 0, "SEC", T, UINT(retest_wait_s, 0, 3600, 0),
	  .help = "before the retest rounds: time for a link that flapped to "
		  "come back" },
	{ "round-timeout", 0, "SEC", T, UINT(round_timeout_s, 10, 86400, 600),
	  .help = "the longest a round may take before the job ends" },
	{ "resume", 0, "DIR", T, TEXT(resume),
	  .help = "continue the mesh of DIR whose job died, at its first "
		  "unfinished round (the same options and nodes)" },
	{ "time-budget", 0, "DURATION", T, TEXT(time_budget),
	  .help = "start no round the mean round time says would end past "
		  "it: 90s, 30m, 2h" },
	{ "no-prune", 0, NULL, T, .type = RDP_CLI_ON,
	  .off = offsetof(struct mesh_args, no_prune), .width = sizeof(int),
	  .help = "keep running the cells of a node that fails against half "
		  "of its peers (default: it is left out)" },
	{ "topology", 0, "FILE", T, TEXT(topology),
	  .help = "the fabric (ibnetdiscover's output or NODE RAIL SWITCH "
		  "PORT lines): name the parts behind the bad cells" },
	{ "load", 0, "PCT", T, UINT(load_pct, 1, 100, 0),
	  .help = "cover: load every leaf's uplinks to PCT % of their rate, "
		  "100 when not given" },
	{ "doctor", 0, NULL, T, .type = RDP_CLI_ON,
	  .off = offsetof(struct mesh_args, doctor), .width = sizeof(int),
	  .help = "no test: compare every node's device and host (link, MTU, "
		  "firmware, PCIe, GID, limits) and name the ones that differ" },
	{ "help", 'h', NULL, T, .type = RDP_CLI_HELP, .help = "show this help" },
};
/* clang-format on */

static void more_help(FILE *f)
{
	fprintf(f,
		"\nEvery other option is rdmaperf's, for the test (rdmaperf "
		"--help);\n-b runs both directions of a pair in one round.\n"
		"Keep MPI off the HCAs under test: mpirun --mca pml ob1 --mca "
		"btl self,vader,tcp\n(or UCX_TLS=tcp,sm,self). On one host, "
		"RDP_MESH_NODE=node%%r makes each rank a node.\n");
}

static const struct rdp_cli_table mesh_table = {
	.opts = rows,
	.n = sizeof(rows) / sizeof(rows[0]),
	.side = RDP_CLI_TOOL,
	.synopsis = "Usage: mpirun -np N --map-by ppr:R:node rdmaperf-mesh "
		    "TEST [rdmaperf options]\n"
		    "         [-d DEV0,DEV1,...] [--pattern P] [--output-dir "
		    "DIR] [--tolerance PCT]\n"
		    "  Measure every link of N/R nodes with R rails, round by "
		    "round.",
	.more_help = more_help,
};

/* The mesh row an argument names, and whether it carries its value. */
static const struct rdp_cli_opt *mesh_row(const char *a, int *inline_value)
{
	size_t i, n;

	*inline_value = 0;
	if (a[0] == '-' && a[1] != '-') {
		for (i = 0; i < mesh_table.n; i++)
			if (rows[i].letter && a[1] == rows[i].letter) {
				*inline_value = a[2] != '\0';
				return &rows[i];
			}
		return NULL;
	}
	if (strncmp(a, "--", 2))
		return NULL;
	n = strcspn(a + 2, "=");
	for (i = 0; i < mesh_table.n; i++)
		if (strlen(rows[i].name) == n &&
		    !strncmp(a + 2, rows[i].name, n)) {
			*inline_value = a[2 + n] == '=';
			return &rows[i];
		}
	return NULL;
}

/* argv into the mesh's arguments and rdmaperf's, each with argv[0]. */
static void split(int argc, char **argv, char **mesh, int *n_mesh, char **test,
		  int *n_test)
{
	const struct rdp_cli_opt *d;
	int i, inl;

	mesh[0] = test[0] = argv[0];
	*n_mesh = *n_test = 1;
	for (i = 1; i < argc; i++) {
		d = mesh_row(argv[i], &inl);
		if (!d) {
			test[(*n_test)++] = argv[i];
			continue;
		}
		mesh[(*n_mesh)++] = argv[i];
		if (d->arg && !inl && i + 1 < argc)
			mesh[(*n_mesh)++] = argv[++i];
	}
	mesh[*n_mesh] = test[*n_test] = NULL;
}

static int set_devs(const char *list, struct rdp_mesh_run_opts *mo)
{
	const char *p = list;
	size_t n;

	while (*p) {
		n = strcspn(p, ",");
		if (!n || n >= sizeof(mo->devs[0]) ||
		    mo->n_devs == RDP_MESH_DEVS_MAX) {
			rdp_err("-d needs at most %d device names, separated "
				"by commas, not '%s'",
				RDP_MESH_DEVS_MAX, list);
			return -EINVAL;
		}
		memcpy(mo->devs[mo->n_devs], p, n);
		mo->devs[mo->n_devs++][n] = '\0';
		p += n + (p[n] == ',');
	}
	return 0;
}

/*
 * --max-lat in rdmaperf's own latency units (its --max-lat parser): 5us,
 * 800ns, 0.1ms, a plain number in us, or p50=5us; the mesh judges the
 * median, so no other figure.
 */
static int set_max_lat(const char *arg, struct rdp_mesh_limits *l)
{
	struct rdp_limits lim = { 0 };
	char item[64];

	if (strchr(arg, '='))
		snprintf(item, sizeof(item), "%s", arg);
	else
		snprintf(item, sizeof(item), "p50=%s", arg);
	if (strlen(arg) >= sizeof(item) - 4 ||
	    rdp_limits_parse_lat(item, &lim) || lim.n_lat != 1 ||
	    lim.lat[0].stat != RDP_LAT_P50 || !(lim.lat[0].max_ns > 0)) {
		rdp_err("--max-lat needs the median's limit like 5us, 800ns, "
			"0.1ms or 5.5 (us), not '%s'",
			arg);
		return -EINVAL;
	}
	l->max_lat_us = lim.lat[0].max_ns / 1e3;
	return 0;
}

static int set_limits(const struct mesh_args *a, struct rdp_mesh_limits *l)
{
	char *end, why[256];
	double v;

	l->tol = a->tolerance_pct / 100.0;
	if (rdp_mesh_max_errors_parse(l, a->max_errors, why, sizeof(why))) {
		rdp_err("%s", why);
		return -EINVAL;
	}
	if (a->max_lat && set_max_lat(a->max_lat, l))
		return -EINVAL;
	if (l->tol >= 1) {
		rdp_err("--tolerance needs a percentage below 100");
		return -EINVAL;
	}
	if (!a->min_bw)
		return 0;
	v = strtod(a->min_bw, &end);
	if (end == a->min_bw || v <= 0 || (*end && strcmp(end, "%")) ||
	    (*end && v > 100)) {
		rdp_err("--min-bw needs Gb/s like 90 or a share of the line "
			"rate like 80%%, not '%s'",
			a->min_bw);
		return -EINVAL;
	}
	if (*end)
		l->min_bw_pct = v;
	else
		l->min_bw_gbps = v;
	return 0;
}

static int mesh_opts(const struct mesh_args *a, const struct rdp_opts *o,
		     struct rdp_mesh_run_opts *mo)
{
	struct rdp_mesh_plan_opts *p = &mo->plan;
	char why[256];

	p->permutations = a->permutations;
	p->group_size = a->group_size;
	p->seed = a->seed;
	p->bidir = !!(o->params.flags & RDP_PARAM_BIDIR);
	p->fan_in = a->fan_in;
	p->rounds = a->rounds;
	if (a->victim &&
	    rdp_mesh_victim_parse(a->victim, &p->victim, why, sizeof(why))) {
		rdp_err("%s", why);
		return -EINVAL;
	}
	/* The plan's rules, as `rdmaperf mesh --plan` says them; the node
	 * count is the ranks', checked when they are counted. */
	if ((a->pattern && rdp_mesh_pattern_check(a->pattern, &p->pattern, why,
						  sizeof(why))) ||
	    rdp_mesh_plan_check(p, why, sizeof(why)) ||
	    rdp_mesh_cover_args(p, a->topology, a->load_pct, why,
				sizeof(why))) {
		rdp_err("%s", why);
		return -EINVAL;
	}
	if (o->conn.host[0]) {
		rdp_err("rdmaperf-mesh takes no host ('%s'): the ranks find "
			"each other through MPI",
			o->conn.host);
		return -EINVAL;
	}
	if (a->resume && a->output_dir && strcmp(a->resume, a->output_dir)) {
		rdp_err("--resume DIR continues in DIR: give no other "
			"--output-dir ('%s')",
			a->output_dir);
		return -EINVAL;
	}
	mo->resume = !!a->resume;
	mo->output_dir = a->resume	 ? a->resume
			 : a->output_dir ? a->output_dir
					 : "mesh";
	if (a->time_budget &&
	    rdp_mesh_parse_duration(a->time_budget, &mo->time_budget_s)) {
		rdp_err("--time-budget needs a duration like 90s, 30m or 2h, "
			"not '%s'",
			a->time_budget);
		return -EINVAL;
	}
	mo->no_prune = a->no_prune;
	mo->topology = a->topology;
	mo->round_timeout_ms = (int)a->round_timeout_s * 1000;
	mo->retest = a->retest;
	mo->retest_wait_s = a->retest_wait_s;
	if (a->retest_wait_s && !a->retest) {
		rdp_err("--retest-wait applies to --retest");
		return -EINVAL;
	}
	if (a->scale && !strcmp(a->scale, "line") &&
	    o->bench->kind != RDP_BENCH_BW) {
		rdp_err("--heatmap-scale line needs a bandwidth test, not %s: "
			"latency has no line rate",
			o->bench->name);
		return -EINVAL;
	}
	if (a->scale && strcmp(a->scale, "line") &&
	    strcmp(a->scale, "median")) {
		rdp_err("--heatmap-scale needs median or line, not '%s'",
			a->scale);
		return -EINVAL;
	}
	mo->scale = a->scale && !strcmp(a->scale, "line")
			    ? RDP_MESH_SCALE_LINE
			    : RDP_MESH_SCALE_MEDIAN;
	if (a->devs && set_devs(a->devs, mo))
		return -EINVAL;
	return set_limits(a, &mo->limits);
}

/* rdmaperf's part of the command line as one string, for the record
 * --resume checks. */
static void test_args(int n, char **v, char *buf, size_t len)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 1; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 i > 1 ? " " : "", v[i]);
}

/*
 * --victim's test: the mesh test's verb as a latency test (lat) or a
 * bandwidth test (bw), "write_bw" -> "write_lat"; the test itself when
 * it is of that kind already.
 */
static const char *victim_test(const struct rdp_opts *o, enum rdp_mesh_victim v,
			       char *buf, size_t len)
{
	int lat = v == RDP_MESH_VICTIM_LAT;
	const char *from = lat ? "_bw" : "_lat", *to = lat ? "_lat" : "_bw";
	size_t n = strlen(o->bench->name), f = strlen(from);

	if ((o->bench->kind == RDP_BENCH_LAT) == lat)
		return o->bench->name;
	if (n < f || strcmp(o->bench->name + n - f, from))
		return NULL;
	snprintf(buf, len, "%.*s%s", (int)(n - f), o->bench->name, to);
	return rdp_bench_find(buf) ? buf : NULL;
}

/*
 * The victim's options (--victim): rdmaperf's part of the command line
 * parsed again, its test (tv[ti]) swapped for the victim's. 0 or -EINVAL
 * (logged).
 */
static int victim_opts(int nt, char **tv, int ti, const struct rdp_opts *o,
		       struct rdp_mesh_run_opts *mo, struct rdp_opts *vo)
{
	char name[64], err[256];
	const char *test = victim_test(o, mo->plan.victim, name, sizeof(name));

	if (!test) {
		rdp_err("--victim %s: %s has no %s test to run beside the load",
			rdp_mesh_victim_name(mo->plan.victim), o->bench->name,
			rdp_mesh_victim_name(mo->plan.victim));
		return -EINVAL;
	}
	tv[ti] = (char *)test;
	if (rdp_opts_parse_client(nt, tv, vo, err, sizeof(err))) {
		rdp_err("--victim %s (%s): %s",
			rdp_mesh_victim_name(mo->plan.victim), test, err);
		return -EINVAL;
	}
	mo->victim = vo;
	return 0;
}

/* --doctor runs no test: the doctor's options (-i, --json), no TEST. */
static int doctor_opts(const struct mesh_args *a, int n, char **v,
		       struct rdp_opts *o, struct rdp_mesh_run_opts *mo)
{
	char err[256];
	int ret;

	memset(o, 0, sizeof(*o));
	rdp_cli_defaults(&rdp_cli_doctor, o);
	ret = rdp_cli_parse(&rdp_cli_doctor, n, v, o, err, sizeof(err));
	if (ret < 0)
		rdp_err("%s", err);
	if (ret)
		return ret;
	if (optind < n) {
		rdp_err("--doctor runs no test: unexpected argument '%s'",
			v[optind]);
		return -EINVAL;
	}
	mo->output_dir = a->output_dir; /* NULL: no files */
	mo->round_timeout_ms = (int)a->round_timeout_s * 1000;
	return a->devs ? set_devs(a->devs, mo) : 0;
}

/* 0 to run, RDP_PARSE_EXIT after --help, -EINVAL (logged). */
static int parse(int argc, char **argv, struct rdp_opts *o,
		 struct rdp_mesh_run_opts *mo, struct rdp_opts *vo, int *doctor)
{
	char **mv, **tv, err[256];
	struct mesh_args a;
	int nm, nt, ret, ti = 0;

	mv = calloc((size_t)argc + 1, sizeof(*mv));
	tv = calloc((size_t)argc + 1, sizeof(*tv));
	ret = mv && tv ? 0 : -ENOMEM;
	if (!ret) {
		split(argc, argv, mv, &nm, tv, &nt);
		/* As given: the parsers may reorder tv. */
		test_args(nt, tv, mo->test_args, sizeof(mo->test_args));
		rdp_cli_defaults(&mesh_table, &a);
		a.tolerance_pct = RDP_MESH_TOLERANCE * 100;
		ret = rdp_cli_parse(&mesh_table, nm, mv, &a, err, sizeof(err));
		if (ret < 0)
			rdp_err("%s", err);
	}
	if (!ret && optind < nm) {
		rdp_err("unexpected argument '%s'", mv[optind]);
		ret = -EINVAL;
	}
	*doctor = !ret && a.doctor;
	if (*doctor) {
		ret = doctor_opts(&a, nt, tv, o, mo);
	} else if (!ret) {
		ret = rdp_opts_parse_client(nt, tv, o, err, sizeof(err));
		if (ret < 0)
			rdp_err("%s", err);
		ti = optind; /* the test's place, the options put first */
	}
	if (!ret && !*doctor)
		ret = mesh_opts(&a, o, mo);
	if (!ret && !*doctor && mo->plan.victim)
		ret = victim_opts(nt, tv, ti, o, mo, vo);
	free(mv);
	free(tv);
	return ret;
}

int main(int argc, char **argv)
{
	struct rdp_mesh_run_opts mo = { 0 };
	struct rdp_boot *boot;
	struct rdp_opts o, vo;
	int ret, rc, doctor;

	ret = parse(argc, argv, &o, &mo, &vo, &doctor);
	if (ret)
		return ret > 0 ? RDP_EXIT_OK : RDP_EXIT_USAGE;
	if (rdp_boot_mpi_open(&argc, &argv, &boot))
		return RDP_EXIT_FAIL;
	/* The ranks' own output goes to their logs; rank 0 keeps this. */
	if (!boot->rank) {
		mo.out = fdopen(dup(STDOUT_FILENO), "w");
		mo.progress = isatty(STDERR_FILENO);
	}
	if (doctor)
		rc = rdp_mesh_doctor_run(boot, &(struct rdp_mesh_doctor_opts){
						       &mo, o.conn.ib_port,
						       o.report.json });
	else
		rc = rdp_mesh_run(boot, &o, &rdp_engine_verbs, &mo);
	if (mo.out)
		fclose(mo.out);
	boot->ops->close(boot);
	return rc;
}
