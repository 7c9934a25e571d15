/* SPDX-License-Identifier: BSD-2-Clause */
/* --time-budget: a duration, and whether the next round still fits. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <rdmaperf/mesh_run.h>

int rdp_mesh_budget_allows(double budget_s, double elapsed_s, double rounds_s,
			   size_t ran)
{
	double next_s = ran ? rounds_s / (double)ran : 0;

	if (budget_s <= 0)
		return 1;
	return elapsed_s + next_s <= budget_s;
}

int rdp_mesh_parse_duration(const char *s, double *out_s)
{
	static const struct {
		const char *unit;
		double s;
	} units[] = { { "", 1 }, { "s", 1 }, { "m", 60 }, { "h", 3600 } };
	char *end;
	double v;
	size_t i;

	if (!s || !*s || strchr(" \t+-", *s))
		return -EINVAL;
	v = strtod(s, &end);
	if (end == s || !isfinite(v) || v <= 0)
		return -EINVAL;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit)) {
			*out_s = v * units[i].s;
			return 0;
		}
	return -EINVAL;
}
