/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What a plan costs: its rounds, transfers, cells and node pairs counted
 * round by round without making the rounds, the wall time they take and
 * what fits a time budget (rdmaperf mesh --plan N --estimate).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plan_int.h"

/* The counts of the first r rounds; fresh: per matching, the node pairs
 * new in it, or NULL when every transfer meets a new pair. */
static void count_rounds(const struct rdp_mesh_plan *p, size_t r,
			 const uint64_t *fresh, struct rdp_mesh_plan_count *c)
{
	int directed = rdp_mesh_plan_directed(p);
	size_t per = directed && !p->o.bidir ? 2 : 1, k, q, w;
	uint64_t dirs = directed && p->o.bidir ? 2 : 1, cells;

	memset(c, 0, sizeof(*c));
	c->rounds = r;
	c->pairs_all = (uint64_t)p->o.nodes * (p->o.nodes - 1);
	for (k = 0; k < r; k++) {
		q = k / per;
		w = rdp_mesh_plan_pairing_width(p, q);
		cells = w * dirs;
		c->transfers += w;
		c->cells += cells;
		c->pairs_met += fresh ? fresh[q] * dirs : cells;
	}
}

/* Per matching of the first r rounds, the node pairs met first in it;
 * NULL in *out for the patterns that meet no pair twice. */
static int fresh_pairs(const struct rdp_mesh_plan *p, size_t r, uint64_t **out)
{
	size_t per = p->o.bidir ? 1 : 2, m = (r + per - 1) / per;
	int ret;

	*out = NULL;
	if ((!p->order && !p->cover) || !m)
		return 0;
	*out = calloc(m, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	ret = p->cover ? rdp_mesh_cover_fresh(p, m, *out)
		       : rdp_mesh_matchings_fresh(p, m, *out);
	if (ret) {
		free(*out);
		*out = NULL;
	}
	return ret;
}

int rdp_mesh_plan_count(const struct rdp_mesh_plan *p, size_t rounds,
			struct rdp_mesh_plan_count *out)
{
	size_t r = rounds < p->rounds ? rounds : p->rounds;
	uint64_t *fresh;
	int ret = fresh_pairs(p, r, &fresh);

	if (ret)
		return ret;
	count_rounds(p, r, fresh, out);
	free(fresh);
	return 0;
}

int rdp_mesh_fit_check(const struct rdp_mesh_fit_opts *f, char *why, size_t len)
{
	if (!(f->round_s > 0) || !isfinite(f->round_s))
		snprintf(why, len,
			 "-D needs the seconds a round measures, above 0");
	else if (!(f->overhead_s >= 0) || !isfinite(f->overhead_s))
		snprintf(why, len, "--round-overhead needs seconds, 0 or more");
	else if (!(f->budget_s >= 0) || !isfinite(f->budget_s))
		snprintf(why, len,
			 "--time-budget needs a duration above 0 like 90s, "
			 "30m or 2h");
	else if (!f->rails)
		snprintf(why, len, "--rails needs 1 or more");
	else
		return 0;
	return -EINVAL;
}

int rdp_mesh_plan_fit(const struct rdp_mesh_plan *p,
		      const struct rdp_mesh_fit_opts *f,
		      struct rdp_mesh_fit *out)
{
	struct rdp_mesh_fit fit = { 0 };
	char why[160];
	uint64_t *fresh;
	double whole;
	size_t r;
	int ret;

	if (rdp_mesh_fit_check(f, why, sizeof(why)))
		return -EINVAL;
	ret = fresh_pairs(p, p->rounds, &fresh);
	if (ret)
		return ret;
	/* An incast victim measures alone, then under the load: two
	 * phases a round, each with its own set-up. */
	fit.round_s = (f->round_s + f->overhead_s) * rdp_mesh_plan_phases(p);
	fit.wall_s = (double)p->rounds * fit.round_s;
	count_rounds(p, p->rounds, fresh, &fit.all);
	r = p->rounds;
	if (f->budget_s > 0) {
		/* Whole rounds only; a hair of slack for 90 s / 2.5 s. */
		whole = floor(f->budget_s / fit.round_s * (1 + 1e-12));
		if (whole < (double)r)
			r = (size_t)whole;
	}
	count_rounds(p, r, fresh, &fit.fits);
	free(fresh);
	fit.fits_s = (double)r * fit.round_s;
	fit.coverage = fit.all.pairs_all ? (double)fit.fits.pairs_met /
						   (double)fit.all.pairs_all
					 : 0;
	*out = fit;
	return 0;
}

/* Seconds in a unit letter; 0 for none known. */
static double unit_s(const char *u)
{
	static const struct {
		const char *name;
		double s;
	} units[] = { { "", 1 },     { "s", 1 },    { "m", 60 },
		      { "min", 60 }, { "h", 3600 }, { "d", 86400 } };
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(u, units[i].name))
			return units[i].s;
	return 0;
}

int rdp_mesh_duration_parse(const char *what, const char *s, double *out_s,
			    char *why, size_t len)
{
	char *end;
	double v, unit;

	errno = 0;
	v = strtod(s, &end);
	unit = end == s || errno ? 0 : unit_s(end);
	if (!unit || !isfinite(v * unit) || !(v > 0) ||
	    isspace((unsigned char)*s)) {
		snprintf(why, len,
			 "%s needs a duration above 0 like 90s, 30m or 2h, not "
			 "'%s'",
			 what, s);
		return -EINVAL;
	}
	*out_s = v * unit;
	return 0;
}
