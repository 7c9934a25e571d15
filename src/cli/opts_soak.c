/* SPDX-License-Identifier: BSD-2-Clause */
/* --soak: one long bandwidth run judged interval by interval; its length
 * and the options it combines with. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "opts_int.h"
#include <rdmaperf/bench.h>
#include <rdmaperf/params.h>
#include <rdmaperf/run_opts.h>

#define SOAK_MAX_S (7 * 86400.0)

/* "90", "90s", "30m", "12h", "2d": seconds. */
static int soak_seconds(const char *arg, double *out)
{
	static const struct {
		char unit;
		double s;
	} units[] = { { 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 } };
	char num[32];
	size_t n = strlen(arg), i;
	double scale = 1;

	if (!n || n >= sizeof(num))
		return -EINVAL;
	memcpy(num, arg, n + 1);
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (num[n - 1] == units[i].unit) {
			scale = units[i].s;
			num[--n] = '\0';
			break;
		}
	}
	if (!n || rdp_parse_double(num, out))
		return -EINVAL;
	*out *= scale;
	return 0;
}

int rdp_cli_set_soak(void *base, const struct rdp_cli_opt *d, const char *arg,
		     char *err, size_t len)
{
	struct rdp_opts *o = base;
	double s;

	(void)d;
	if (soak_seconds(arg, &s) || s < 1 || s > SOAK_MAX_S)
		return rdp_cli_bad(err, len,
				   "--soak needs a length from 1 s to 7 days "
				   "like 600, 30m or 12h, not '%s'",
				   arg);
	o->report.soak_s = s;
	return 0;
}

/* A soak is a live run with an end: one bandwidth point, reported every
 * --interval. Then --run_infinitely's own checks apply. */
int rdp_cli_check_soak(struct rdp_opts *o, char *err, size_t len)
{
	const struct rdp_params *p = &o->params;

	if (o->report.soak_s <= 0)
		return 0;
	if (o->bench->kind != RDP_BENCH_BW)
		return rdp_cli_bad(err, len,
				   "--soak runs the bandwidth tests, not %s",
				   o->bench->name);
	if (o->matrix.n_sizes > 1 || o->matrix.n_qps > 1)
		return rdp_cli_bad(err, len,
				   "--soak runs one size and one QP count: "
				   "drop -a and the lists");
	if (p->flags & (RDP_PARAM_BIDIR | RDP_PARAM_EVENTS) || o->mem.bounce ||
	    p->rate_milli || o->report.margin_s > 0)
		return rdp_cli_bad(err, len,
				   "--soak does not combine with -b, -e, "
				   "--bounce, --rate_limit or -f");
	if (o->report.interval_s > o->report.soak_s)
		return rdp_cli_bad(err, len,
				   "--interval %g s is longer than --soak %g s",
				   o->report.interval_s, o->report.soak_s);
	o->report.live = 1;
	o->params.flags |= RDP_PARAM_LIVE;
	return 0;
}
