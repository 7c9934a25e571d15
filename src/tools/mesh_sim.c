/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdmaperf mesh --simulate N: a mesh made up on a fabric (a file or a
 * synthetic leaf-spine), with noise and injected faults, through the
 * same store, analysis, localisation and writers as a measured one; then
 * what was found against what was injected. Exit 0 when every fault was
 * found and nothing else named, 1 otherwise.
 */
#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rdmaperf/log.h>
#include <rdmaperf/mesh.h>
#include <rdmaperf/mesh_plan.h>
#include <rdmaperf/mesh_topo.h>
#include <rdmaperf/opts.h>
#include <rdmaperf/session.h>
#include <rdmaperf/tool.h>

#include "mesh_sim.h"

#define MAX_INJECT 64

struct sim_args {
	unsigned int simulate, rails, leaves, spines;
	const char *topology, *inject, *pattern, *output_dir, *max_errors;
	unsigned int permutations, group_size, load_pct;
	uint64_t seed;
	int bidir;
	double noise_pct, tolerance_pct, nominal_gbps;
};

#define UINT(m, lo, hi, d)                                                     \
	.type = RDP_CLI_UINT, .off = offsetof(struct sim_args, m),             \
	.width = sizeof(((struct sim_args *)0)->m), .min = lo, .max = hi,      \
	.def = d
#define TEXT(m)                                                                \
	.type = RDP_CLI_TEXT, .off = offsetof(struct sim_args, m),             \
	.width = sizeof(const char *)
#define REAL(m, s)                                                             \
	.type = RDP_CLI_DECIMAL, .off = offsetof(struct sim_args, m),          \
	.width = sizeof(double), .say = s
#define T RDP_CLI_TOOL

/* clang-format off */
static const struct rdp_cli_opt rows[] = {
	{ "simulate", 0, "N", T, UINT(simulate, RDP_MESH_MIN_NODES,
				      RDP_MESH_MAX_NODES, 0),
	  .help = "simulate a mesh of N nodes" },
	{ "rails", 0, "R", T, UINT(rails, 1, 64, 1),
	  .help = "rails a node" },
	{ "topology", 0, "FILE", T, TEXT(topology),
	  .help = "the fabric: ibnetdiscover's output or NODE RAIL SWITCH "
		  "PORT lines (its first N hosts)" },
	{ "leaves", 0, "L", T, UINT(leaves, 0, 4096, 0),
	  .help = "without --topology: leaves a rail (0: N/16 rounded up)" },
	{ "spines", 0, "S", T, UINT(spines, 1, 4096, 4),
	  .help = "without --topology: spines, each joined to every leaf" },
	{ "inject", 0, "SPEC,...", T, TEXT(inject),
	  .help = "faults: nic:NODE[:RAIL]=PCT%, cable:NODE:RAIL=down|PCT%, "
		  "uplink:LEAF:SPINE=down|PCT%, flaky:NODE[:RAIL]=PCT%, "
		  "errors:NODE[:RAIL]=N" },
	{ "max-errors", 0, "KIND=N,...", T, TEXT(max_errors),
	  .help = "flag cells whose ports' error counters rose past it "
		  "(default link=0)" },
	{ "noise", 0, "PCT", T, REAL(noise_pct, "a percentage like 3"),
	  .help = "the cells' spread, one standard deviation (default 3)" },
	{ "nominal", 0, "GBPS", T, REAL(nominal_gbps, "Gb/s like 100"),
	  .help = "a healthy cell's bandwidth (default 100)" },
	{ "tolerance", 0, "PCT", T, REAL(tolerance_pct, "a percentage like 10"),
	  .help = "flag cells this far below the rail's median (default 10)" },
	{ "pattern", 0, "P", T, TEXT(pattern),
	  .help = "pairwise (default), bisection, ring-shift, grouped, "
		  "quick or cover" },
	RDP_MESH_PLAN_ROWS(struct sim_args),
	{ "load", 0, "PCT", T, UINT(load_pct, 1, 100, 0),
	  .help = "cover: load every leaf's uplinks to PCT % of their rate, "
		  "100 when not given" },
	{ "bidirectional", 'b', NULL, T, .type = RDP_CLI_ON,
	  .off = offsetof(struct sim_args, bidir), .width = sizeof(int),
	  .help = "both directions of a pair in one round" },
	{ "output-dir", 0, "DIR", T, TEXT(output_dir),
	  .help = "write mesh.json, cells.csv, ... there (default: none)" },
	{ "help", 'h', NULL, T, .type = RDP_CLI_HELP, .help = "show this help" },
};
/* clang-format on */

static void more_help(FILE *f)
{
	fprintf(f,
		"\nThe synthetic fabric is rail-optimised: rail r of every "
		"node on leaf group r,\nnodes node0..node<N-1>, leaves "
		"leaf0..., spines spine0...; an uplink fault\nslows the cells "
		"that ECMP sends across it. --seed drives the plan and the\n"
		"noise. Exit 0 when every injected fault is found and nothing "
		"else named.\n");
}

static const struct rdp_cli_table sim_table = {
	.opts = rows,
	.n = sizeof(rows) / sizeof(rows[0]),
	.side = RDP_CLI_TOOL,
	.synopsis = "Usage: rdmaperf mesh --simulate N [--rails R] "
		    "[--topology FILE | --leaves L --spines S]\n"
		    "         [--inject SPEC,...] [--seed S] [--noise PCT] "
		    "[--output-dir DIR]\n"
		    "  Simulate a mesh with injected faults and check the "
		    "analysis names them.",
	.more_help = more_help,
};

int rdp_mesh_sim_asked(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (!strncmp(argv[i], "--simulate", 10))
			return 1;
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Everything the run builds, freed together. */
struct sim_run {
	struct rdp_mesh_topo *topo;
	struct rdp_mesh_place *place;
	struct rdp_mesh_plan *plan;
	struct rdp_mesh *mesh;
	struct rdp_mesh_faults *faults;
	const char **names;
	struct rdp_mesh_inject inj[MAX_INJECT];
	size_t n_inj;
};

static void run_free(struct sim_run *r)
{
	rdp_mesh_faults_free(r->faults);
	rdp_mesh_free(r->mesh);
	rdp_mesh_plan_free(r->plan);
	rdp_mesh_place_free(r->place);
	rdp_mesh_topo_free(r->topo);
	free(r->names);
}

static int args_check(struct sim_args *a)
{
	struct rdp_mesh_limits l;
	char why[256];

	if (rdp_mesh_max_errors_parse(&l, a->max_errors, why, sizeof(why))) {
		rdp_err("mesh: %s", why);
		return -EINVAL;
	}
	if (a->noise_pct < 0 || a->noise_pct > 50) {
		rdp_err("mesh: --noise is a percentage from 0 to 50");
		return -EINVAL;
	}
	if (a->tolerance_pct < 0 || a->tolerance_pct >= 100) {
		rdp_err("mesh: --tolerance is a percentage from 0 to 99");
		return -EINVAL;
	}
	if (a->nominal_gbps <= 0) {
		rdp_err("mesh: --nominal is a bandwidth above 0 Gb/s");
		return -EINVAL;
	}
	if (a->topology && a->leaves) {
		rdp_err("mesh: --leaves makes a synthetic fabric; --topology "
			"gives its own");
		return -EINVAL;
	}
	if (!a->leaves)
		a->leaves = (a->simulate + 15) / 16;
	return 0;
}

static int parse_args(int argc, char **argv, struct sim_args *a)
{
	char err[256];
	int ret;

	*a = (struct sim_args){ .noise_pct = 3,
				.tolerance_pct = 100 * RDP_MESH_TOLERANCE,
				.nominal_gbps = 100 };
	rdp_cli_defaults(&sim_table, a);
	ret = rdp_cli_parse(&sim_table, argc, argv, a, err, sizeof(err));
	if (ret < 0)
		rdp_err("mesh: %s", err);
	if (ret)
		return ret;
	if (optind < argc) {
		rdp_err("mesh: --simulate takes no other argument, not '%s'",
			argv[optind]);
		return -EINVAL;
	}
	return args_check(a);
}

/* The fabric, and the mesh's node names: its first N hosts. */
static int make_fabric(const struct sim_args *a, struct sim_run *r)
{
	char why[512];
	unsigned int i;
	int ret;

	if (a->topology)
		ret = rdp_mesh_topo_load(a->topology, &r->topo, why,
					 sizeof(why));
	else
		ret = rdp_mesh_topo_synthetic(a->simulate, a->rails, a->leaves,
					      a->spines, &r->topo);
	if (ret) {
		if (a->topology)
			rdp_err("mesh: %s", why);
		else
			rdp_err("mesh: a fabric of %u nodes on %u leaves a "
				"rail and %u spines cannot be made",
				a->simulate, a->leaves, a->spines);
		return ret;
	}
	if (rdp_mesh_topo_n_hosts(r->topo) < a->simulate) {
		rdp_err("mesh: %s has %u hosts, --simulate asks for %u",
			a->topology, rdp_mesh_topo_n_hosts(r->topo),
			a->simulate);
		return -EINVAL;
	}
	r->names = calloc(a->simulate, sizeof(*r->names));
	if (!r->names)
		return -ENOMEM;
	for (i = 0; i < a->simulate; i++)
		r->names[i] = rdp_mesh_topo_host_name(r->topo, i);
	ret = rdp_mesh_place_create(r->topo, r->names, a->simulate, a->rails,
				    &r->place, why, sizeof(why));
	if (ret)
		rdp_err("mesh: %s", why);
	return ret;
}

static int make_plan(const struct sim_args *a, struct sim_run *r)
{
	struct rdp_mesh_plan_opts o = { .nodes = a->simulate,
					.permutations = a->permutations,
					.group_size = a->group_size,
					.seed = a->seed,
					.bidir = a->bidir };
	struct rdp_mesh_cover cover = { 0 };
	char why[256];
	int ret;

	if (a->pattern &&
	    rdp_mesh_pattern_check(a->pattern, &o.pattern, why, sizeof(why))) {
		rdp_err("mesh: %s", why);
		return -EINVAL;
	}
	/* cover: the groups of the simulated fabric (a file's or the
	 * synthetic one: there is always a topology), at --load */
	if (rdp_mesh_cover_args(&o, "fabric", a->load_pct, why, sizeof(why))) {
		rdp_err("mesh: %s", why);
		return -EINVAL;
	}
	if (o.pattern == RDP_MESH_COVER &&
	    !rdp_mesh_cover_of(r->place, o.cover_load_pct, &cover))
		rdp_mesh_cover_plan_opts(&cover, &o);
	if (rdp_mesh_plan_check(&o, why, sizeof(why))) {
		rdp_mesh_cover_fini(&cover);
		rdp_err("mesh: %s", why);
		return -EINVAL;
	}
	ret = rdp_mesh_plan_create(&o, &r->plan);
	rdp_mesh_cover_fini(&cover);
	if (!ret)
		ret = rdp_mesh_create(r->plan, a->rails, r->names, &r->mesh);
	if (ret)
		rdp_err("mesh: plan: %s", strerror(-ret));
	return ret;
}

/* --inject's list, comma by comma. */
static int make_injects(const struct sim_args *a, struct sim_run *r)
{
	char *list, *tok, *save = NULL, why[512];
	int ret = 0;

	if (!a->inject || !*a->inject)
		return 0;
	list = strdup(a->inject);
	if (!list)
		return -ENOMEM;
	for (tok = strtok_r(list, ",", &save); !ret && tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (r->n_inj == MAX_INJECT) {
			rdp_err("mesh: --inject takes at most %d faults",
				MAX_INJECT);
			ret = -EINVAL;
			break;
		}
		ret = rdp_mesh_inject_parse(tok, r->place, &r->inj[r->n_inj],
					    why, sizeof(why));
		if (ret)
			rdp_err("mesh: %s", why);
		else
			r->n_inj++;
	}
	free(list);
	return ret;
}

static void print_score(const struct rdp_mesh_sim_score *s, size_t n_inj)
{
	unsigned int k, inj = 0, found = 0;

	for (k = 0; k < RDP_MESH_N_INJECT; k++) {
		inj += s->injected[k];
		found += s->found[k];
		if (s->injected[k])
			printf("%s: %u of %u found\n",
			       rdp_mesh_inject_name(
				       (enum rdp_mesh_inject_kind)k),
			       s->found[k], s->injected[k]);
	}
	printf("injected %zu, found %u, missed %u, named %u, false %u: "
	       "precision %.2f, recall %.2f\n",
	       n_inj, found, inj - found, s->named, s->named - s->right,
	       s->named ? (double)s->right / s->named : 1.0,
	       inj ? (double)found / inj : 1.0);
}

/* Every injected fault found, nothing else named. */
static int all_found(const struct rdp_mesh_sim_score *s)
{
	unsigned int k;

	for (k = 0; k < RDP_MESH_N_INJECT; k++)
		if (s->found[k] != s->injected[k])
			return 0;
	return s->named == s->right;
}

/* Simulate, analyse, locate, write: the steps and their times. */
static int simulate(const struct sim_args *a, struct sim_run *r,
		    struct rdp_mesh_sim_score *score)
{
	struct rdp_mesh_sim_opts o = { .nominal_gbps = a->nominal_gbps,
				       .noise_pct = a->noise_pct,
				       .seed = a->seed };
	struct rdp_mesh_limits l = { .tol = a->tolerance_pct / 100 };
	double t0 = now_s(), t1, t2, t3, t4;
	char why[256];
	int ret;

	/* Checked by args_check already. */
	if (rdp_mesh_max_errors_parse(&l, a->max_errors, why, sizeof(why)))
		return -EINVAL;
	ret = rdp_mesh_simulate(r->mesh, r->plan, r->place, r->inj, r->n_inj,
				&o);

	t1 = now_s();
	if (ret >= 0)
		ret = rdp_mesh_analyze(r->mesh, &l);
	t2 = now_s();
	if (ret >= 0)
		ret = rdp_mesh_locate(r->mesh, r->place, &r->faults);
	t3 = now_s();
	if (ret) {
		rdp_err("mesh: simulate: %s", strerror(-ret));
		return ret;
	}
	rdp_mesh_set_faults(r->mesh, r->faults);
	printf("simulated %zu cells (%u nodes, %u rails, %zu rounds, noise "
	       "%.3g%%)\n",
	       rdp_mesh_n_cells(r->mesh), a->simulate, a->rails,
	       rdp_mesh_plan_rounds(r->plan), a->noise_pct);
	rdp_mesh_faults_print(r->faults, stdout);
	ret = rdp_mesh_sim_score(r->place, r->inj, r->n_inj, r->faults, stdout,
				 score);
	if (!ret && a->output_dir)
		ret = rdp_mesh_write_dir(r->mesh, a->output_dir);
	if (ret == -ENOENT) /* no gnuplot: the other files are written */
		ret = 0;
	t4 = now_s();
	printf("time: simulate %.2f s, analyse %.2f s, locate %.2f s, "
	       "write %.2f s\n",
	       t1 - t0, t2 - t1, t3 - t2, t4 - t3);
	return ret;
}

int rdp_mesh_sim_main(int argc, char **argv)
{
	struct rdp_mesh_sim_score score;
	struct sim_run r = { 0 };
	struct sim_args a;
	int ret = parse_args(argc, argv, &a);

	if (ret)
		return ret > 0 ? RDP_EXIT_OK : RDP_EXIT_USAGE;
	ret = make_fabric(&a, &r);
	if (!ret)
		ret = make_plan(&a, &r);
	if (!ret)
		ret = make_injects(&a, &r);
	if (ret) {
		run_free(&r);
		return ret == -ENOMEM ? RDP_EXIT_FAIL : RDP_EXIT_USAGE;
	}
	ret = simulate(&a, &r, &score);
	if (!ret)
		print_score(&score, r.n_inj);
	if (fflush(stdout) && !ret)
		ret = -EIO;
	run_free(&r);
	if (ret)
		return RDP_EXIT_FAIL;
	return all_found(&score) ? RDP_EXIT_OK : RDP_EXIT_FAIL;
}
