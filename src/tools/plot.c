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
#include <rdmaperf/plot.h>
#include <rdmaperf/session.h>
#include <rdmaperf/tool.h>

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: rdmaperf plot RESULTS.json -o OUT.svg\n"
		"  Draw bandwidth vs message size (one line per test and QP "
		"count, the\n"
		"  acceptance band of the line rate shaded) and latency "
		"percentiles vs\n"
		"  size with gnuplot. Exit 77 when gnuplot is not installed "
		"(Debian:\n"
		"  gnuplot-nox); RDP_GNUPLOT names another gnuplot binary.\n");
}

static int parse_args(int argc, char **argv, const char **out)
{
	static const struct option lo[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int c;

	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, ":o:h", lo, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return 1;
		}
		if (c == 'o' && *optarg) {
			*out = optarg;
			continue;
		}
		rdp_err("plot: unknown option or missing value '%s' (see "
			"--help)",
			argv[optind - 1]);
		return -EINVAL;
	}
	if (argc - optind != 1 || !*out) {
		rdp_err("plot needs one results file and -o OUT.svg (see "
			"--help)");
		return -EINVAL;
	}
	return 0;
}

static int plot_main(int argc, char **argv)
{
	const char *out = NULL;
	json_error_t e;
	json_t *doc;
	int ret = parse_args(argc, argv, &out);

	if (ret)
		return ret > 0 ? RDP_EXIT_OK : RDP_EXIT_USAGE;
	doc = json_load_file(argv[optind], 0, &e);
	if (!doc) {
		if (e.line > 0)
			rdp_err("plot: %s line %d: %s", argv[optind], e.line,
				e.text);
		else
			rdp_err("plot: %s", e.text);
		return RDP_EXIT_USAGE;
	}
	if (!json_is_array(json_object_get(doc, "results"))) {
		rdp_err("plot: %s is not an rdmaperf results document (no "
			"results[]): write one with --json-file",
			argv[optind]);
		json_decref(doc);
		return RDP_EXIT_USAGE;
	}
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
	.main = plot_main,
};
