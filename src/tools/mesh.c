/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdmaperf mesh --plan N [--pattern P] [--estimate]: print the rounds of a
 * cluster mesh without running it, or what it would take (rounds, cells,
 * wall time, what fits a time budget). Measuring a mesh is
 * rdmaperf-mesh's work, under MPI; any other use of this subcommand says
 * so.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdmaperf/log.h>
#include <rdmaperf/mesh.h>
#include <rdmaperf/mesh_plan.h>
#include <rdmaperf/mesh_topo.h>
#include <rdmaperf/opts.h>
#include <rdmaperf/session.h>
#include <rdmaperf/tool.h>

#include "mesh_sim.h"

#define DEFAULT_ROUND_S 2.0 /* -D of --estimate */

struct mesh_args {
	unsigned int plan; /* nodes; 0: not given */
	const char *pattern;
	unsigned int permutations;
	unsigned int group_size;
	uint64_t seed;
	int bidir;
	int estimate;
	struct rdp_mesh_fit_opts fit;
	const struct rdp_cli_opt *fit_given; /* of the estimate, given */
	const char *topology;		     /* cover's fabric */
	unsigned int load_pct;		     /* 0: not given */
	unsigned int fan_in, rounds;	     /* incast; 0: not given */
	const char *victim;		     /* incast: lat or bw */
};

/* Cover's fabric: the nodes are its hosts in order, on every rail all
 * of them have. */
struct cover_fabric {
	struct rdp_mesh_topo *topo;
	struct rdp_mesh_place *place;
	struct rdp_mesh_cover cover;
	const char **names;
};

static int set_victim(void *base, const struct rdp_cli_opt *d, const char *arg,
		      char *err, size_t len)
{
	enum rdp_mesh_victim v;

	(void)base;
	(void)d;
	return rdp_mesh_victim_parse(arg, &v, err, len);
}

static int set_pattern(void *base, const struct rdp_cli_opt *d, const char *arg,
		       char *err, size_t len)
{
	enum rdp_mesh_pattern p;

	(void)base;
	(void)d;
	return rdp_mesh_pattern_check(arg, &p, err, len);
}

/* The rows of the estimate remember that one was given. */
static int set_fit(void *base, const struct rdp_cli_opt *d, const char *arg,
		   char *err, size_t len)
{
	(void)arg;
	(void)err;
	(void)len;
	((struct mesh_args *)base)->fit_given = d;
	return 0;
}

static int set_budget(void *base, const struct rdp_cli_opt *d, const char *arg,
		      char *err, size_t len)
{
	struct mesh_args *a = base;

	a->fit_given = d;
	return rdp_mesh_duration_parse("--time-budget", arg, &a->fit.budget_s,
				       err, len);
}

#define UINT(m, lo, hi, d)                                                     \
	.type = RDP_CLI_UINT, .off = offsetof(struct mesh_args, m),            \
	.width = sizeof(((struct mesh_args *)0)->m), .min = lo, .max = hi,     \
	.def = d
#define REAL(m, s)                                                             \
	.type = RDP_CLI_DECIMAL, .off = offsetof(struct mesh_args, m),         \
	.width = sizeof(double), .say = s, .set = set_fit
#define T RDP_CLI_TOOL

/* clang-format off */
static const struct rdp_cli_opt rows[] = {
	{ "plan", 0, "N", T,
	  UINT(plan, RDP_MESH_MIN_NODES, RDP_MESH_PLAN_MAX_NODES, 0),
	  .help = "print the rounds for N nodes" },
	{ "pattern", 0, "P", T, .type = RDP_CLI_TEXT,
	  .off = offsetof(struct mesh_args, pattern),
	  .width = sizeof(const char *), .set = set_pattern,
	  .help = "pairwise (default), bisection, ring-shift, grouped, "
		  "quick, cover, incast or alltoall" },
	RDP_MESH_PLAN_ROWS(struct mesh_args),
	{ "fan-in", 0, "K", T, UINT(fan_in, 1, RDP_MESH_PLAN_MAX_NODES, 0),
	  .help = "incast: K senders into one receiver a round" },
	{ "rounds", 0, "R", T, UINT(rounds, 1, RDP_MESH_PLAN_MAX_NODES, 0),
	  .help = "incast: R receivers spread over the nodes (default all)" },
	{ "victim", 0, "lat|bw", T, .type = RDP_CLI_TEXT,
	  .off = offsetof(struct mesh_args, victim),
	  .width = sizeof(const char *), .set = set_victim,
	  .help = "incast: the next node sends to the receiver, alone then "
		  "under the load" },
	{ "topology", 0, "FILE", T, .type = RDP_CLI_TEXT,
	  .off = offsetof(struct mesh_args, topology),
	  .width = sizeof(const char *),
	  .help = "cover: the fabric, whose hosts are the nodes (--plan may "
		  "be left out)" },
	{ "load", 0, "PCT", T, UINT(load_pct, 1, 100, 0),
	  .help = "cover: load every leaf's uplinks to PCT % of their rate, "
		  "100 when not given" },
	{ "bidirectional", 'b', NULL, T, .type = RDP_CLI_ON,
	  .off = offsetof(struct mesh_args, bidir), .width = sizeof(int),
	  .help = "both directions of a pair in one round" },
	{ "estimate", 0, NULL, T, .type = RDP_CLI_ON,
	  .off = offsetof(struct mesh_args, estimate), .width = sizeof(int),
	  .help = "print rounds, cells and the wall time instead" },
	{ "duration", 'D', "SEC", T, REAL(fit.round_s, "seconds like 2"),
	  .help = "estimate: the test's time a round (default 2)" },
	{ "round-overhead", 0, "SEC", T,
	  REAL(fit.overhead_s, "seconds like 0.5"),
	  .help = "estimate: set-up, teardown and barriers a round "
		  "(default 0.5; a mesh's own is in its mesh.json timing)" },
	{ "rails", 0, "R", T, UINT(fit.rails, 1, RDP_MESH_MAX_RAILS, 1),
	  .set = set_fit, .help = "estimate: ranks (rails) a node" },
	{ "time-budget", 0, "DURATION", T, .type = RDP_CLI_CUSTOM,
	  .set = set_budget,
	  .help = "estimate: the rounds that fit in 90s, 30m, 2h... and the "
		  "pairs they meet" },
	{ "help", 'h', NULL, T, .type = RDP_CLI_HELP, .help = "show this help" },
};
/* clang-format on */

static void more_help(FILE *f)
{
	fputs("\nA mesh is measured by rdmaperf-mesh, built by configure "
	      "--with-mpi\n(Debian: libopenmpi-dev) and run under mpirun or "
	      "srun.\nrdmaperf mesh --simulate N --inject SPEC runs the "
	      "analysis on made-up\ncells with faults put in (rdmaperf mesh "
	      "--simulate 2 --help).\n",
	      f);
}

static const struct rdp_cli_table mesh_table = {
	.opts = rows,
	.n = sizeof(rows) / sizeof(rows[0]),
	.side = RDP_CLI_TOOL,
	.synopsis = "Usage: rdmaperf mesh --plan N [--pattern P] "
		    "[--permutations K] [--group-size G]\n"
		    "                     [--fan-in K [--rounds R] "
		    "[--victim lat|bw]]\n"
		    "                     [--topology FILE [--load PCT]] "
		    "[--seed S] [-b]\n"
		    "                     [--estimate [-D SEC] "
		    "[--rails R]\n"
		    "                     [--round-overhead SEC] "
		    "[--time-budget DURATION]]\n"
		    "  Print the rounds of a cluster mesh of N nodes: each "
		    "round the transfers\n"
		    "  that run at once (0->3: node 0 sends to node 3; 0<->3 "
		    "both ways); with\n"
		    "  --estimate, what it takes: rounds, cells, wall time.",
	.more_help = more_help,
};

/* --plan, --topology (or --help) is the one use that needs no MPI. */
static int plan_asked(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (!strncmp(argv[i], "--plan", 6) ||
		    !strncmp(argv[i], "--topology", 10) ||
		    !strncmp(argv[i], "--help", 6) || !strcmp(argv[i], "-h"))
			return 1;
	return 0;
}

static int plan_opts(const struct mesh_args *a, struct rdp_mesh_plan_opts *o)
{
	char why[256], opt[40];

	*o = (struct rdp_mesh_plan_opts){ .nodes = a->plan,
					  .permutations = a->permutations,
					  .group_size = a->group_size,
					  .seed = a->seed,
					  .bidir = a->bidir,
					  .fan_in = a->fan_in,
					  .rounds = a->rounds };
	if (a->pattern)
		rdp_mesh_pattern_parse(a->pattern, &o->pattern);
	if (a->victim)
		rdp_mesh_victim_parse(a->victim, &o->victim, why, sizeof(why));
	if (a->topology && o->pattern != RDP_MESH_COVER) {
		rdp_err("mesh: --topology goes with --pattern cover here (the "
			"faults on a fabric are rdmaperf-mesh's)");
		return -EINVAL;
	}
	/* rdmaperf-mesh's check, in its words; cover's groups come later. */
	if (rdp_mesh_cover_args(o, a->topology, a->load_pct, why,
				sizeof(why)) ||
	    (o->pattern != RDP_MESH_COVER &&
	     rdp_mesh_plan_check(o, why, sizeof(why))) ||
	    (a->estimate && rdp_mesh_fit_check(&a->fit, why, sizeof(why)))) {
		rdp_err("mesh: %s", why);
		return -EINVAL;
	}
	if (a->fit_given && !a->estimate) {
		rdp_err("mesh: %s goes with --estimate",
			rdp_cli_spelling(a->fit_given, opt, sizeof(opt)));
		return -EINVAL;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct mesh_args *a)
{
	char err[256];
	int ret;

	rdp_cli_defaults(&mesh_table, a);
	a->fit.round_s = DEFAULT_ROUND_S;
	a->fit.overhead_s = RDP_MESH_ROUND_OVERHEAD_S;
	ret = rdp_cli_parse(&mesh_table, argc, argv, a, err, sizeof(err));
	if (ret < 0)
		rdp_err("mesh: %s", err);
	if (ret)
		return ret;
	if (optind < argc) {
		rdp_err("mesh: --plan takes no other argument, not '%s'",
			argv[optind]);
		return -EINVAL;
	}
	return 0;
}

/* Measuring is rdmaperf-mesh's: where this build has it, the way to run
 * it; else how to get it. */
static int needs_mpi(void)
{
	if (RDP_BUILT_MESH) {
		rdp_err("mesh: a mesh is measured by rdmaperf-mesh, under MPI: "
			"run mpirun -np N rdmaperf-mesh TEST [options] (or "
			"srun); rdmaperf mesh --plan N prints the rounds");
		return RDP_EXIT_USAGE;
	}
	rdp_err("mesh: measuring a mesh needs MPI: configure --with-mpi "
		"(Debian: libopenmpi-dev) and run rdmaperf-mesh under mpirun "
		"or srun; without MPI, rdmaperf mesh --plan N prints the "
		"rounds");
	return RDP_EXIT_USAGE;
}

/* "45 s", "41 min 35 s", "2 h 13 min", "3 d 4 h". */
static void say_time(FILE *f, double s)
{
	double t = floor(s + 0.5);

	if (s < 60)
		fprintf(f, "%.3g s", s);
	else if (t < 3600)
		fprintf(f, "%.0f min %.0f s", floor(t / 60), fmod(t, 60));
	else if (t < 86400)
		fprintf(f, "%.0f h %.0f min", floor(t / 3600),
			floor(fmod(t, 3600) / 60));
	else
		fprintf(f, "%.0f d %.0f h", floor(t / 86400),
			floor(fmod(t, 86400) / 3600));
}

static void say_cells(FILE *f, const struct rdp_mesh_plan_count *c,
		      unsigned int rails)
{
	fprintf(f, "%llu a rail, %llu in all on %u rail%s",
		(unsigned long long)c->cells,
		(unsigned long long)c->cells * rails, rails,
		rails == 1 ? "" : "s");
}

static void say_pairs(FILE *f, const struct rdp_mesh_plan_count *c)
{
	fprintf(f, "%llu of %llu ordered node pairs (%.4g %%)",
		(unsigned long long)c->pairs_met,
		(unsigned long long)c->pairs_all,
		c->pairs_all
			? 100.0 * (double)c->pairs_met / (double)c->pairs_all
			: 0);
}

static void print_estimate(const struct rdp_mesh_plan *p,
			   const struct rdp_mesh_fit_opts *o,
			   const struct rdp_mesh_fit *e, FILE *f)
{
	rdp_mesh_plan_head(p, f);
	fprintf(f, "rounds: %zu\ntransfers: %llu\ncells: ", e->all.rounds,
		(unsigned long long)e->all.transfers);
	say_cells(f, &e->all, o->rails);
	fprintf(f, " (one a direction of each transfer)\npairs met: ");
	say_pairs(f, &e->all);
	fprintf(f,
		"\nround time: %g s (-D %g s + %g s of set-up, teardown and "
		"barriers%s)\nwall time: ",
		e->round_s, o->round_s, o->overhead_s,
		rdp_mesh_plan_phases(p) > 1
			? ", twice: the victim alone, then under the load"
			: "");
	say_time(f, e->wall_s);
	fputc('\n', f);
	if (!(o->budget_s > 0))
		return;
	fprintf(f, "time budget: ");
	say_time(f, o->budget_s);
	fprintf(f, ": %zu of %zu rounds fit (", e->fits.rounds, e->all.rounds);
	say_time(f, e->fits_s);
	fprintf(f, "), cells ");
	say_cells(f, &e->fits, o->rails);
	fprintf(f, "\ncoverage: ");
	say_pairs(f, &e->fits);
	fputc('\n', f);
}

static int estimate(const struct rdp_mesh_plan *p,
		    const struct rdp_mesh_fit_opts *o)
{
	struct rdp_mesh_fit e;
	int ret = rdp_mesh_plan_fit(p, o, &e);

	if (ret) {
		rdp_err("mesh: estimate: %s", strerror(-ret));
		return ret;
	}
	print_estimate(p, o, &e, stdout);
	return ferror(stdout) ? -EIO : 0;
}

static void fabric_free(struct cover_fabric *c)
{
	rdp_mesh_cover_fini(&c->cover);
	rdp_mesh_place_free(c->place);
	rdp_mesh_topo_free(c->topo);
	free(c->names);
}

/* The rail count every host of t has. */
static unsigned int common_rails(const struct rdp_mesh_topo *t)
{
	unsigned int h, r, most = UINT32_MAX;

	for (h = 0; h < rdp_mesh_topo_n_hosts(t); h++) {
		r = rdp_mesh_topo_host_rails(t, h);
		most = r < most ? r : most;
	}
	return most;
}

/* Cover: the fabric's hosts as the nodes, their groups into o. 0, or
 * -EINVAL logged, -ENOMEM. */
static int cover_fabric(const struct mesh_args *a, struct cover_fabric *c,
			struct rdp_mesh_plan_opts *o)
{
	char why[512];
	unsigned int n, i;
	int ret;

	ret = rdp_mesh_topo_load(a->topology, &c->topo, why, sizeof(why));
	if (ret) {
		if (ret == -EINVAL)
			rdp_err("mesh: --topology %s", why);
		else
			rdp_err("mesh: --topology %s: %s", a->topology,
				strerror(-ret));
		return -EINVAL;
	}
	n = rdp_mesh_topo_n_hosts(c->topo);
	if (a->plan && a->plan != n) {
		rdp_err("mesh: --plan %u: %s has %u hosts, the nodes of a "
			"cover (leave --plan out)",
			a->plan, a->topology, n);
		return -EINVAL;
	}
	c->names = calloc(n, sizeof(*c->names));
	if (!c->names)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		c->names[i] = rdp_mesh_topo_host_name(c->topo, i);
	ret = rdp_mesh_place_create(c->topo, c->names, n, common_rails(c->topo),
				    &c->place, why, sizeof(why));
	if (ret == -EINVAL)
		rdp_err("mesh: --topology %s: %s", a->topology, why);
	if (!ret)
		ret = rdp_mesh_cover_of(c->place, o->cover_load_pct, &c->cover);
	if (ret)
		return ret;
	o->nodes = n;
	rdp_mesh_cover_plan_opts(&c->cover, o);
	if (rdp_mesh_plan_check(o, why, sizeof(why))) {
		rdp_err("mesh: %s", why);
		return -EINVAL;
	}
	return 0;
}

static int mesh_main(int argc, char **argv)
{
	struct cover_fabric cf = { 0 };
	struct mesh_args a = { 0 };
	struct rdp_mesh_plan_opts o;
	struct rdp_mesh_plan *plan;
	int ret;

	if (rdp_mesh_sim_asked(argc, argv))
		return rdp_mesh_sim_main(argc, argv);
	if (!plan_asked(argc, argv))
		return needs_mpi();
	ret = parse_args(argc, argv, &a);
	if (ret)
		return ret > 0 ? RDP_EXIT_OK : RDP_EXIT_USAGE;
	if (!a.plan && !a.topology)
		return needs_mpi();
	if (plan_opts(&a, &o))
		return RDP_EXIT_USAGE;
	ret = a.topology ? cover_fabric(&a, &cf, &o) : 0;
	if (!ret)
		ret = rdp_mesh_plan_create(&o, &plan);
	if (ret) {
		if (ret != -EINVAL)
			rdp_err("mesh: plan: %s", strerror(-ret));
		fabric_free(&cf);
		return ret == -EINVAL ? RDP_EXIT_USAGE : RDP_EXIT_FAIL;
	}
	ret = a.estimate ? estimate(plan, &a.fit)
			 : rdp_mesh_plan_print(plan, stdout);
	rdp_mesh_plan_free(plan);
	fabric_free(&cf);
	if (!ret && fflush(stdout))
		ret = -EIO;
	return ret ? RDP_EXIT_FAIL : RDP_EXIT_OK;
}

const struct rdp_tool rdp_tool_mesh = {
	.name = "mesh",
	.summary = "print the rounds of a cluster mesh (--plan N), or what it "
		   "takes (--estimate)",
	.opts = &mesh_table,
	.main = mesh_main,
};
