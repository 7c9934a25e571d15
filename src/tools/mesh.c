/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdmaperf mesh --plan N [--pattern P]: print the rounds of a cluster
 * mesh without running it. Measuring a mesh is rdmaperf-mesh's work,
 * under MPI; any other use of this subcommand says so.
 */
#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <rdmaperf/log.h>
#include <rdmaperf/mesh_plan.h>
#include <rdmaperf/opts.h>
#include <rdmaperf/session.h>
#include <rdmaperf/tool.h>

struct mesh_args {
	unsigned int plan; /* nodes; 0: not given */
	const char *pattern;
	unsigned int permutations;
	uint64_t seed;
	int bidir;
};

static int set_pattern(void *base, const struct rdp_cli_opt *d, const char *arg,
		       char *err, size_t len)
{
	enum rdp_mesh_pattern p;

	(void)base;
	(void)d;
	return rdp_mesh_pattern_check(arg, &p, err, len);
}

#define UINT(m, lo, hi, d)                                                     \
	.type = RDP_CLI_UINT, .off = offsetof(struct mesh_args, m),            \
	.width = sizeof(((struct mesh_args *)0)->m), .min = lo, .max = hi,     \
	.def = d
#define T RDP_CLI_TOOL

/* clang-format off */
static const struct rdp_cli_opt rows[] = {
	{ "plan", 0, "N", T, UINT(plan, RDP_MESH_MIN_NODES, RDP_MESH_MAX_NODES, 0),
	  .help = "print the rounds for N nodes" },
	{ "pattern", 0, "P", T, .type = RDP_CLI_TEXT,
	  .off = offsetof(struct mesh_args, pattern),
	  .width = sizeof(const char *), .set = set_pattern,
	  .help = "pairwise (default), bisection or ring-shift" },
	RDP_MESH_PLAN_ROWS(struct mesh_args),
	{ "bidirectional", 'b', NULL, T, .type = RDP_CLI_ON,
	  .off = offsetof(struct mesh_args, bidir), .width = sizeof(int),
	  .help = "both directions of a pair in one round" },
	{ "help", 'h', NULL, T, .type = RDP_CLI_HELP, .help = "show this help" },
};
/* clang-format on */

static void more_help(FILE *f)
{
	fprintf(f, "\nA mesh is measured by rdmaperf-mesh, built by configure "
		   "--with-mpi\n(Debian: libopenmpi-dev) and run under mpirun "
		   "or srun.\n");
}

static const struct rdp_cli_table mesh_table = {
	.opts = rows,
	.n = sizeof(rows) / sizeof(rows[0]),
	.side = RDP_CLI_TOOL,
	.synopsis = "Usage: rdmaperf mesh --plan N [--pattern P] "
		    "[--permutations K] [--seed S] [-b]\n"
		    "  Print the rounds of a cluster mesh of N nodes: each "
		    "round the transfers\n"
		    "  that run at once (0->3: node 0 sends to node 3; 0<->3 "
		    "both ways).",
	.more_help = more_help,
};

/* --plan (or --help) is the one use that needs no MPI. */
static int plan_asked(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (!strncmp(argv[i], "--plan", 6) ||
		    !strncmp(argv[i], "--help", 6) || !strcmp(argv[i], "-h"))
			return 1;
	return 0;
}

static int plan_opts(const struct mesh_args *a, struct rdp_mesh_plan_opts *o)
{
	char why[256];

	*o = (struct rdp_mesh_plan_opts){ .nodes = a->plan,
					  .permutations = a->permutations,
					  .seed = a->seed,
					  .bidir = a->bidir };
	if (a->pattern)
		rdp_mesh_pattern_parse(a->pattern, &o->pattern);
	/* rdmaperf-mesh's check, in its words. */
	if (rdp_mesh_plan_check(o, why, sizeof(why))) {
		rdp_err("mesh: %s", why);
		return -EINVAL;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct mesh_args *a)
{
	char err[256];
	int ret;

	rdp_cli_defaults(&mesh_table, a);
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

static int needs_mpi(void)
{
	rdp_err("mesh: measuring a mesh needs MPI: configure --with-mpi "
		"(Debian: libopenmpi-dev) and run rdmaperf-mesh under mpirun "
		"or srun; without MPI, rdmaperf mesh --plan N prints the "
		"rounds");
	return RDP_EXIT_USAGE;
}

static int mesh_main(int argc, char **argv)
{
	struct mesh_args a = { 0 };
	struct rdp_mesh_plan_opts o;
	struct rdp_mesh_plan *plan;
	int ret;

	if (!plan_asked(argc, argv))
		return needs_mpi();
	ret = parse_args(argc, argv, &a);
	if (ret)
		return ret > 0 ? RDP_EXIT_OK : RDP_EXIT_USAGE;
	if (!a.plan)
		return needs_mpi();
	if (plan_opts(&a, &o))
		return RDP_EXIT_USAGE;
	ret = rdp_mesh_plan_create(&o, &plan);
	if (ret) {
		rdp_err("mesh: plan: %s", strerror(-ret));
		return RDP_EXIT_FAIL;
	}
	ret = rdp_mesh_plan_print(plan, stdout);
	rdp_mesh_plan_free(plan);
	if (!ret && fflush(stdout))
		ret = -EIO;
	return ret ? RDP_EXIT_FAIL : RDP_EXIT_OK;
}

const struct rdp_tool rdp_tool_mesh = {
	.name = "mesh",
	.summary = "print the rounds of a cluster mesh (--plan N)",
	.opts = &mesh_table,
	.main = mesh_main,
};
