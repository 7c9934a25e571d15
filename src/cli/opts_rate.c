/* SPDX-License-Identifier: BSD-2-Clause */
/* How a bandwidth run goes on in time: pacing (--rate_limit, --rate_units,
 * --rate_limit_type) and live runs (--run_infinitely). */
#include <math.h>
#include <string.h>
#include <strings.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/params.h>

#include "opts_int.h"

/* The largest rate taken, in any unit: beyond every link's. */
#define RATE_MAX 1e9

int rdp_cli_set_rate_limit(void *base, const struct rdp_cli_opt *d,
			   const char *arg, char *err, size_t len)
{
	struct rdp_params *p = &((struct rdp_opts *)base)->params;
	double v;

	(void)d;
	if (rdp_parse_double(arg, &v) || !(v >= 0.001) || v > RATE_MAX)
		return rdp_cli_bad(err, len,
				   "--rate_limit needs a rate from 0.001 to "
				   "1e9 in --rate_units (Gb/s by default), "
				   "not '%s'",
				   arg);
	p->rate_milli = (uint64_t)llround(v * 1000);
	return 0;
}

int rdp_cli_set_rate_units(void *base, const struct rdp_cli_opt *d,
			   const char *arg, char *err, size_t len)
{
	/* rdmaperf's names, and perftest's letters (its M is MiB/s). */
	static const struct {
		const char *name;
		enum rdp_rate_units units;
	} names[] = {
		{ "Gbps", RDP_RATE_GBPS }, { "g", RDP_RATE_GBPS },
		{ "Mbps", RDP_RATE_MBPS }, { "MiBps", RDP_RATE_MIBPS },
		{ "M", RDP_RATE_MIBPS },   { "pps", RDP_RATE_PPS },
		{ "p", RDP_RATE_PPS },
	};
	struct rdp_params *p = &((struct rdp_opts *)base)->params;
	size_t i;

	(void)d;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(arg, names[i].name)) {
			p->rate_units = names[i].units;
			return 0;
		}
	}
	return rdp_cli_bad(err, len,
			   "--rate_units %s: give Gbps (or g), Mbps, MiBps "
			   "(or M) or pps (or p)",
			   arg);
}

int rdp_cli_set_rate_type(void *base, const struct rdp_cli_opt *d,
			  const char *arg, char *err, size_t len)
{
	struct rdp_params *p = &((struct rdp_opts *)base)->params;

	(void)d;
	if (!strcasecmp(arg, "HW"))
		p->rate_type = RDP_RATE_HW;
	else if (!strcasecmp(arg, "SW"))
		p->rate_type = RDP_RATE_SW;
	else if (!strcasecmp(arg, "auto"))
		p->rate_type = RDP_RATE_AUTO;
	else if (!strcasecmp(arg, "PP"))
		return rdp_cli_bad(err, len,
				   "--rate_limit_type PP is perftest's mlx5 "
				   "packet pacing through mlx5dv, not built "
				   "in: use HW (ibv_modify_qp_rate_limit) or "
				   "SW");
	else
		return rdp_cli_bad(err, len,
				   "--rate_limit_type %s: give HW, SW or auto",
				   arg);
	return 0;
}

/* The report interval of a live run when neither --interval nor -D says. */
#define LIVE_INTERVAL_S 5

int rdp_cli_set_live(void *base, const struct rdp_cli_opt *d, const char *arg,
		     char *err, size_t len)
{
	struct rdp_opts *o = base;

	(void)d;
	(void)arg;
	(void)err;
	(void)len;
	o->report.live = 1;
	o->params.flags |= RDP_PARAM_LIVE;
	return 0;
}

/* A live run is one bandwidth point in duration mode, whose -D (sent to
 * the server) is the report interval. */
int rdp_cli_check_live(struct rdp_opts *o, char *err, size_t len)
{
	struct rdp_params *p = &o->params;
	double every;

	if (!o->report.live)
		return 0;
	if (o->bench->kind != RDP_BENCH_BW)
		return rdp_cli_bad(err, len,
				   "--run_infinitely runs the bandwidth tests: "
				   "for latency use -n or -D");
	if (o->matrix.n_sizes > 1 || o->matrix.n_qps > 1)
		return rdp_cli_bad(err, len,
				   "--run_infinitely runs one size and one QP "
				   "count: drop -a and the lists");
	if (p->flags & (RDP_PARAM_BIDIR | RDP_PARAM_EVENTS) || o->mem.bounce ||
	    p->rate_milli || o->report.margin_s > 0)
		return rdp_cli_bad(err, len,
				   "--run_infinitely does not combine with -b, "
				   "-e, --bounce, --rate_limit or -f");
	every = o->report.interval_s > 0 ? o->report.interval_s
		: p->duration_s		 ? p->duration_s
					 : LIVE_INTERVAL_S;
	o->report.interval_s = every;
	p->duration_s = (uint32_t)ceil(every);
	p->iters = 0;
	return 0;
}
