/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Subcommands of rdmaperf that are not a test (doctor, compare, plot,
 * certify, report, mesh): one const table each, listed in src/tools/registry.c.
 * Layer: cli
 */
#ifndef RDMAPERF_TOOL_H
#define RDMAPERF_TOOL_H

#include <stdio.h>

struct json_t;
struct rdp_cli_table;

struct rdp_tool {
	const char *name;
	const char *summary;		  /* one line for --help */
	const struct rdp_cli_table *opts; /* its options, NULL: none */
	/* argv[0] is the subcommand's name; returns enum rdp_exit. */
	int (*main)(int argc, char **argv);
};

/* NULL-terminated, in the order --help lists them. */
const struct rdp_tool *const *rdp_tool_all(void);
const struct rdp_tool *rdp_tool_find(const char *name);
/* The subcommands as rdmaperf --help lists them below the tests. */
void rdp_tool_help(FILE *f);

/*
 * A results document (rdmaperf --json-file) read from path, or NULL when
 * it cannot be read or has no results[], with one line "TOOL: why" logged
 * (compare.c).
 */
struct json_t *rdp_tool_load_results(const char *tool, const char *path);

/*
 * The plan's rows that `rdmaperf mesh --plan` and rdmaperf-mesh share:
 * --permutations and --seed into the fields of those names of the struct
 * args, so
 * both commands take the same ranges and defaults (RDP_MESH_MAX_PERMUTATIONS
 * from mesh_plan.h).
 */
/* clang-format off */
#define RDP_MESH_PLAN_ROWS(args)                                               \
	{ "permutations", 0, "K", RDP_CLI_TOOL, .type = RDP_CLI_UINT,          \
	  .off = offsetof(args, permutations),                                 \
	  .width = sizeof(((args *)0)->permutations), .min = 0,                \
	  .max = RDP_MESH_MAX_PERMUTATIONS, .def = 0,                          \
	  .help = "bisection: K random perfect matchings more" },              \
	{ "seed", 0, "S", RDP_CLI_TOOL, .type = RDP_CLI_UINT,                  \
	  .off = offsetof(args, seed), .width = sizeof(((args *)0)->seed),     \
	  .min = 0, .max = UINT32_MAX, .def = 1,                               \
	  .help = "of the random matchings" },                                  \
	{ "group-size", 0, "G", RDP_CLI_TOOL, .type = RDP_CLI_UINT,            \
	  .off = offsetof(args, group_size),                                   \
	  .width = sizeof(((args *)0)->group_size), .min = 1,                  \
	  .max = RDP_MESH_PLAN_MAX_NODES, .def = 0,                            \
	  .help = "grouped: G nodes a group, pairwise inside, groups joined "   \
		  "node to node" }
/* clang-format on */

#endif /* RDMAPERF_TOOL_H */
