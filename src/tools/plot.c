/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdmaperf plot RESULTS.json -o OUT.svg: draw a results document with
 * gnuplot. Exit 77 when gnuplot is not installed, like a missing device.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <jansson.h>

#include <rdmaperf/log.h>
#include <rdmaperf/opts.h>
#include <rdmaperf/plot.h>
#include <rdmaperf/session.h>
#include <rdmaperf/tool.h>

static const struct rdp_cli_opt rows[] = {
	{ "svg", 0, "FILE", RDP_CLI_TOOL, .type = RDP_CLI_TEXT, .off = 0,
	  .width = sizeof(const char *), .help = "the SVG to write" },
	{ "help", 'h', NULL, RDP_CLI_TOOL, .type = RDP_CLI_HELP,
	  .help = "show this help" },
};

static const struct rdp_cli_table plot_table = {
	.opts = rows,
	.n = sizeof(rows) / sizeof(rows[0]),
	.side = RDP_CLI_TOOL,
	.synopsis = "Usage: rdmaperf plot RESULTS.json --svg=OUT.svg\n"
		    "  Draw bandwidth vs message size (one line per test and "
		    "QP count, the\n"
		    "  axis fitted to the data, the band of the line rate "
		    "shaded when they\n"
		    "  reach it) and latency percentiles vs size with "
		    "gnuplot, titled with\n"
		    "  the tests, device, hosts and date; gnuplot's messages "
		    "only on failure.\n"
		    "  Exit 77 when gnuplot is not "
		    "installed (Debian:\n"
		    "  gnuplot-nox); RDP_GNUPLOT names another gnuplot binary.",
};

/* out: the --svg file, the only field the table fills. */
static int parse_args(int argc, char **argv, const char **out)
{
	char err[256];
	int ret;

	ret = rdp_cli_parse(&plot_table, argc, argv, out, err, sizeof(err));
	if (ret < 0)
		rdp_err("plot: %s", err);
	if (ret)
		return ret;
	if (argc - optind != 1 || !*out) {
		rdp_err("plot needs one results file and --svg=OUT.svg (see "
			"--help)");
		return -EINVAL;
	}
	return 0;
}

static int plot_main(int argc, char **argv)
{
	const char *out = NULL;
	json_t *doc;
	int ret = parse_args(argc, argv, &out);

	if (ret)
		return ret > 0 ? RDP_EXIT_OK : RDP_EXIT_USAGE;
	doc = rdp_tool_load_results("plot", argv[optind]);
	if (!doc)
		return RDP_EXIT_USAGE;
	ret = rdp_plot_file(doc, out);
	json_decref(doc);
	if (ret == -ENOENT)
		return RDP_EXIT_UNSUPPORTED;
	if (!ret)
		printf("plot: wrote %s\n", out);
	return ret ? RDP_EXIT_FAIL : RDP_EXIT_OK;
}

const struct rdp_tool rdp_tool_plot = {
	.name = "plot",
	.summary = "draw a results JSON as an SVG with gnuplot",
	.opts = &plot_table,
	.main = plot_main,
};
