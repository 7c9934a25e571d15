/* SPDX-License-Identifier: BSD-2-Clause */
/* rdmaperf completion: a bash completion script made from the option
 * table, the test registry and the subcommand list. */
#include <stdio.h>
#include <string.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/log.h>
#include <rdmaperf/opts.h>
#include <rdmaperf/session.h>
#include <rdmaperf/tool.h>

/* The words of one command's options: --name and -l. */
static void words(FILE *f, const struct rdp_cli_table *t)
{
	const struct rdp_cli_opt *d;
	size_t i;

	for (i = 0; i < t->n; i++) {
		d = &t->opts[i];
		if (!(d->sides & t->side))
			continue;
		fprintf(f, " --%s", d->name);
		if (d->letter)
			fprintf(f, " -%c", d->letter);
	}
}

void rdp_cli_completion_bash(FILE *f)
{
	const struct rdp_bench_ops *const *b;
	const struct rdp_tool *const *t;

	fprintf(f, "# bash completion for rdmaperf and rdmaperf-server, "
		   "made by 'rdmaperf completion'\n"
		   "_rdmaperf() {\n"
		   "\tlocal cur=${COMP_WORDS[COMP_CWORD]} words\n"
		   "\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n\t\twords=\"");
	for (b = rdp_bench_all(); *b; b++)
		fprintf(f, "%s ", (*b)->name);
	for (t = rdp_tool_all(); *t; t++)
		fprintf(f, "%s ", (*t)->name);
	fprintf(f, "--help --version\"\n\telse\n\t\tcase "
		   "\"${COMP_WORDS[1]}\" in\n");
	for (t = rdp_tool_all(); *t; t++) {
		if (!(*t)->opts)
			continue;
		fprintf(f, "\t\t%s) words=\"", (*t)->name);
		words(f, (*t)->opts);
		fprintf(f, "\" ;;\n");
	}
	fprintf(f, "\t\t*) words=\"");
	words(f, &rdp_cli_client);
	fprintf(f, "\" ;;\n\t\tesac\n\tfi\n"
		   "\tCOMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n}\n"
		   "_rdmaperf_server() {\n"
		   "\tCOMPREPLY=($(compgen -W \"");
	words(f, &rdp_cli_server);
	fprintf(f, "\" -- \"${COMP_WORDS[COMP_CWORD]}\"))\n}\n"
		   "complete -F _rdmaperf rdmaperf\n"
		   "complete -F _rdmaperf_server rdmaperf-server\n");
}

static int completion_main(int argc, char **argv)
{
	if (argc > 2 || (argc == 2 && strcmp(argv[1], "bash"))) {
		rdp_err("completion writes a bash script: rdmaperf completion "
			"[bash]");
		return RDP_EXIT_USAGE;
	}
	rdp_cli_completion_bash(stdout);
	return RDP_EXIT_OK;
}

const struct rdp_tool rdp_tool_completion = {
	.name = "completion",
	.summary = "print a bash completion script made from the options",
	.main = completion_main,
};
