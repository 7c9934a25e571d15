/* SPDX-License-Identifier: BSD-2-Clause */
/* How the loops go on between messages: --latency_gap's pause, in
 * perftest's microseconds or with a unit. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <rdmaperf/params.h>

#include "opts_int.h"

/* The longest pause taken: a round trip a second is already no load. */
#define GAP_MAX_NS 1000000000.0

/* "20", "20us", "500ns", "1ms", "0.5s" in ns; -1 when it is none. */
static double gap_ns(const char *arg)
{
	static const struct {
		const char *unit;
		double ns;
	} units[] = {
		{ "", 1e3 },   { "ns", 1 },  { "us", 1e3 },
		{ "ms", 1e6 }, { "s", 1e9 },
	};
	char num[32];
	size_t n = strspn(arg, "0123456789.");
	double v;
	size_t i;

	if (n == 0 || n >= sizeof(num))
		return -1;
	memcpy(num, arg, n);
	num[n] = '\0';
	if (rdp_parse_double(num, &v))
		return -1;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(arg + n, units[i].unit))
			return v * units[i].ns;
	return -1;
}

int rdp_cli_set_latency_gap(void *base, const struct rdp_cli_opt *d,
			    const char *arg, char *err, size_t len)
{
	struct rdp_params *p = &((struct rdp_opts *)base)->params;
	double ns = gap_ns(arg);

	(void)d;
	if (!(ns >= 0) || ns > GAP_MAX_NS)
		return rdp_cli_bad(err, len,
				   "--latency_gap needs a pause up to 1s like "
				   "10 (microseconds, as perftest), 500ns, "
				   "20us or 1ms, not '%s'",
				   arg);
	p->latency_gap_ns = (uint64_t)llround(ns);
	return 0;
}
