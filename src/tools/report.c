/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdmaperf report FILE... [--html OUT] [--compare]: one self-contained
 * HTML page (scripts, styles and data inline, nothing fetched) drawn from
 * rdmaperf's documents. Every input is read and the output opened before
 * a byte is written.
 */
#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <jansson.h>

#include <rdmaperf/log.h>
#include <rdmaperf/opts.h>
#include <rdmaperf/session.h>
#include <rdmaperf/tool.h>

#include "report_int.h"

#define DEFAULT_OUT "report.html"

struct report_args {
	const char *out;
	int compare;
	double tol_pct;
};

#define T RDP_CLI_TOOL

/* clang-format off */
static const struct rdp_cli_opt rows[] = {
	{ "html", 0, "FILE", T, .type = RDP_CLI_TEXT,
	  .off = offsetof(struct report_args, out),
	  .width = sizeof(const char *),
	  .help = "the page to write (default " DEFAULT_OUT ")" },
	{ "compare", 0, NULL, T, .type = RDP_CLI_ON,
	  .off = offsetof(struct report_args, compare), .width = sizeof(int),
	  .help = "two runs side by side: BASELINE.json NEW.json" },
	{ "tolerance", 0, "PCT", T, .type = RDP_CLI_DECIMAL,
	  .off = offsetof(struct report_args, tol_pct),
	  .width = sizeof(double),
	  .say = "a percentage below 100 like 5 or 2.5",
	  .help = "--compare: mark changes beyond this (default 5)" },
	{ "help", 'h', NULL, T, .type = RDP_CLI_HELP,
	  .help = "show this help" },
};
/* clang-format on */

static const struct rdp_cli_table report_table = {
	.opts = rows,
	.n = sizeof(rows) / sizeof(rows[0]),
	.side = RDP_CLI_TOOL,
	.synopsis =
		"Usage: rdmaperf report FILE... [--html OUT.html]\n"
		"       rdmaperf report --compare BASELINE.json NEW.json "
		"[--tolerance PCT]\n"
		"  One self-contained HTML page (no network: scripts, styles "
		"and data inline)\n"
		"  from rdmaperf's documents, one section each: a run or "
		"sweep (--json-file),\n"
		"  a certify folder (or its certify.md), a mesh.json from "
		"rdmaperf-mesh or\n"
		"  rdmaperf mesh --simulate (its cells file beside it). Exit 2 "
		"for a file\n"
		"  that is not one of these or an output that cannot be "
		"written.",
};

static int parse_args(int argc, char **argv, struct report_args *a)
{
	char err[256];
	int ret, n;

	ret = rdp_cli_parse(&report_table, argc, argv, a, err, sizeof(err));
	if (ret < 0)
		rdp_err("report: %s", err);
	if (ret)
		return ret;
	n = argc - optind;
	if (!(a->tol_pct < 100)) {
		rdp_err("report: --tolerance needs a percentage below 100 like "
			"5 or 2.5, not %g",
			a->tol_pct);
		return -EINVAL;
	}
	if (a->compare && n != 2) {
		rdp_err("report: --compare needs two run files: BASELINE.json "
			"NEW.json (see --help)");
		return -EINVAL;
	}
	if (n < 1) {
		rdp_err("report needs at least one file: a results JSON, a "
			"mesh.json or a certify folder (see --help)");
		return -EINVAL;
	}
	return 0;
}

static int is_run(const json_t *s)
{
	return !strcmp(json_string_value(json_object_get(s, "kind")) ?: "",
		       "run");
}

/* Every input's section, in order; --compare joins the two runs. */
static json_t *load_all(int n, char **files, const struct report_args *a)
{
	json_t *all = json_array(), *s;
	int i;

	for (i = 0; all && i < n; i++) {
		if (rdp_report_load(files[i], &s)) {
			json_decref(all);
			return NULL;
		}
		if (a->compare && !is_run(s)) {
			rdp_err("report: --compare takes two run documents "
				"(--json-file); %s is a %s",
				files[i],
				json_string_value(json_object_get(s, "kind")));
			json_decref(s);
			json_decref(all);
			return NULL;
		}
		json_array_append_new(all, s);
	}
	if (all && a->compare) {
		s = rdp_report_compare(json_incref(json_array_get(all, 0)),
				       json_incref(json_array_get(all, 1)),
				       a->tol_pct);
		json_array_clear(all);
		if (!s || json_array_append_new(all, s)) {
			json_decref(all);
			return NULL;
		}
	}
	return all;
}

static int report_main(int argc, char **argv)
{
	struct report_args a = { .out = DEFAULT_OUT, .tol_pct = 5 };
	json_t *all;
	FILE *f;
	int ret = parse_args(argc, argv, &a);

	if (ret)
		return ret > 0 ? RDP_EXIT_OK : RDP_EXIT_USAGE;
	all = load_all(argc - optind, argv + optind, &a);
	if (!all)
		return RDP_EXIT_USAGE;
	f = fopen(a.out, "w");
	if (!f) {
		rdp_err("report: cannot write %s: %s (give another --html)",
			a.out, strerror(errno));
		json_decref(all);
		return RDP_EXIT_USAGE;
	}
	ret = rdp_report_html_write(f, all);
	if (fclose(f))
		ret = -EIO;
	json_decref(all);
	if (ret) {
		rdp_err("report: writing %s failed", a.out);
		unlink(a.out);
		return RDP_EXIT_FAIL;
	}
	printf("report: wrote %s\n", a.out);
	return RDP_EXIT_OK;
}

const struct rdp_tool rdp_tool_report = {
	.name = "report",
	.summary = "draw results, certify, compare and mesh documents as one "
		   "HTML page",
	.opts = &report_table,
	.main = report_main,
};
