/* SPDX-License-Identifier: BSD-2-Clause */
/* The only list of subcommands. */
#include <stdio.h>
#include <string.h>

#include <rdmaperf/tool.h>

extern const struct rdp_tool rdp_tool_doctor;
extern const struct rdp_tool rdp_tool_compare;
extern const struct rdp_tool rdp_tool_plot;
extern const struct rdp_tool rdp_tool_certify;
extern const struct rdp_tool rdp_tool_completion;
extern const struct rdp_tool rdp_tool_mesh;
extern const struct rdp_tool rdp_tool_report;

/* clang-format off */
static const struct rdp_tool *const tools[] = {
	&rdp_tool_doctor,
	&rdp_tool_compare,
	&rdp_tool_plot,
	&rdp_tool_certify,
	&rdp_tool_mesh,
	&rdp_tool_report,
	&rdp_tool_completion,
	NULL,
};
/* clang-format on */

const struct rdp_tool *const *rdp_tool_all(void)
{
	return tools;
}

const struct rdp_tool *rdp_tool_find(const char *name)
{
	const struct rdp_tool *const *t;

	for (t = tools; *t; t++)
		if (!strcmp((*t)->name, name))
			return *t;
	return NULL;
}

void rdp_tool_help(FILE *f)
{
	const struct rdp_tool *const *t;

	fprintf(f, "\nOther commands (rdmaperf COMMAND --help):\n");
	for (t = tools; *t; t++)
		fprintf(f, "  %-10s %s\n", (*t)->name, (*t)->summary);
}
