/* SPDX-License-Identifier: BSD-2-Clause */
/* Thresholds a run must meet (--min-bw, --min-msgrate, --max-lat,
 * --max-errors), plots and adaptive sweeps. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/counters.h>
#include <rdmaperf/limits.h>
#include <rdmaperf/outpath.h>
#include <rdmaperf/sweep.h>

#include "opts_int.h"

static int min_bw(struct rdp_limits *l, const char *arg, char *err, size_t len)
{
	int ret = rdp_limits_parse_bw(arg, l);

	if (ret == -ERANGE)
		return rdp_cli_bad(err, len,
				   "--min-bw %s is out of range: use Gb/s "
				   "above 0 or a percentage up to 100%%",
				   arg);
	if (ret)
		return rdp_cli_bad(err, len,
				   "--min-bw needs Gb/s like 90 or a share of "
				   "the line rate like 85%%, not '%s'",
				   arg);
	l->bw_opt = "--min-bw";
	return 0;
}

static int max_lat(struct rdp_limits *l, const char *arg, char *err, size_t len)
{
	int ret = rdp_limits_parse_lat(arg, l);

	if (ret == -E2BIG)
		return rdp_cli_bad(err, len, "--max-lat %s: at most %d limits",
				   arg, RDP_MAX_LAT_LIMITS);
	if (ret)
		return rdp_cli_bad(err, len,
				   "--max-lat needs STAT=TIME like p99=5us or "
				   "p50=2us,p99.9=20us (STAT: p50 p90 p99 "
				   "p99.9 p99.99 avg max; TIME in ns, us or "
				   "ms), not '%s'",
				   arg);
	return 0;
}

int rdp_cli_set_min_bw(void *base, const struct rdp_cli_opt *d, const char *arg,
		       char *err, size_t len)
{
	(void)d;
	return min_bw(&((struct rdp_opts *)base)->limits.limits, arg, err, len);
}

int rdp_cli_set_min_msgrate(void *base, const struct rdp_cli_opt *d,
			    const char *arg, char *err, size_t len)
{
	struct rdp_limits *l = &((struct rdp_opts *)base)->limits.limits;

	(void)d;
	if (rdp_parse_double(arg, &l->min_msgrate_mpps) ||
	    l->min_msgrate_mpps <= 0)
		return rdp_cli_bad(err, len,
				   "--min-msgrate needs Mpps above 0 like 10 "
				   "or 0.5, not '%s'",
				   arg);
	l->msgrate_opt = "--min-msgrate";
	return 0;
}

int rdp_cli_set_max_lat(void *base, const struct rdp_cli_opt *d,
			const char *arg, char *err, size_t len)
{
	(void)d;
	return max_lat(&((struct rdp_opts *)base)->limits.limits, arg, err,
		       len);
}

/* Rules over the defaults (link=0, the rest any), so that retries=100
 * alone still fails a link error. */
int rdp_cli_set_max_errors(void *base, const struct rdp_cli_opt *d,
			   const char *arg, char *err, size_t len)
{
	struct rdp_max_errors *m =
		&((struct rdp_opts *)base)->limits.limits.max_errors;

	(void)d;
	if (!m->n)
		rdp_max_errors_default(m);
	return rdp_max_errors_parse(m, arg, err, len) ? -EINVAL : 0;
}

int rdp_cli_set_plot(void *base, const struct rdp_cli_opt *d, const char *arg,
		     char *err, size_t len)
{
	struct rdp_limit_opts *a = &((struct rdp_opts *)base)->limits;

	(void)d;
	if (rdp_out_path_check("--plot", arg, "rdmaperf.svg", "results.svg", 0,
			       err, len))
		return -EINVAL;
	return rdp_cli_file_name(a->plot_file, sizeof(a->plot_file), arg,
				 "--plot needs a file name", err, len);
}

int rdp_cli_set_time_per_point(void *base, const struct rdp_cli_opt *d,
			       const char *arg, char *err, size_t len)
{
	(void)d;
	return rdp_cli_seconds(
		"--time-per-point", arg, 0.01, 3600,
		&((struct rdp_opts *)base)->limits.time_per_point_s, err, len);
}

int rdp_cli_set_target_error(void *base, const struct rdp_cli_opt *d,
			     const char *arg, char *err, size_t len)
{
	double pct;

	(void)d;
	if (rdp_parse_double(arg, &pct) || pct < 0.1 || pct > 50)
		return rdp_cli_bad(err, len,
				   "--target-error needs a percentage from "
				   "0.1 to 50, not '%s'",
				   arg);
	((struct rdp_opts *)base)->limits.target_rel_err = pct / 100;
	return 0;
}

/* Rules across options, once all are parsed. */
int rdp_cli_check_limits(struct rdp_opts *o, char *err, size_t len)
{
	struct rdp_limit_opts *a = &o->limits;
	const struct rdp_limits *l = &a->limits;
	int bw = o->bench->kind == RDP_BENCH_BW;
	struct rdp_params d;

	if (!bw && (l->min_bw_gbps > 0 || l->min_bw_pct > 0 ||
		    l->min_msgrate_mpps > 0))
		return rdp_cli_bad(err, len,
				   "--min-bw and --min-msgrate apply to "
				   "bandwidth tests; use --max-lat");
	if (bw && l->n_lat)
		return rdp_cli_bad(err, len,
				   "--max-lat applies to latency tests; use "
				   "--min-bw or --min-msgrate");
	if (a->target_rel_err > 0 && a->time_per_point_s <= 0)
		return rdp_cli_bad(err, len,
				   "--target-error needs --time-per-point to "
				   "bound each point");
	if (a->time_per_point_s > 0 && o->params.duration_s)
		return rdp_cli_bad(err, len,
				   "--time-per-point and -D exclude each "
				   "other");
	if (a->time_per_point_s > 0 && a->target_rel_err <= 0)
		a->target_rel_err = 0.01;
	/* Adaptive: -n, when given, is the first batch; else a short one. */
	rdp_params_defaults(&d);
	if (a->time_per_point_s > 0 && o->params.iters == d.iters)
		o->params.iters = RDP_SWEEP_FIRST_ITERS;
	return 0;
}
