/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Pass/fail thresholds: parsed from the command line, applied to each
 * point on its own, all criteria AND-ed (unlike perftest, where a later
 * size can hide an earlier failure).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/limits.h>
#include <rdmaperf/log.h>

static const struct {
	const char *name;
	enum rdp_lat_stat stat;
} lat_names[] = {
	{ "p50", RDP_LAT_P50 },	     { "median", RDP_LAT_P50 },
	{ "p90", RDP_LAT_P90 },	     { "p99", RDP_LAT_P99 },
	{ "p99.9", RDP_LAT_P999 },   { "p999", RDP_LAT_P999 },
	{ "p99.99", RDP_LAT_P9999 }, { "p9999", RDP_LAT_P9999 },
	{ "avg", RDP_LAT_AVG },	     { "max", RDP_LAT_MAX },
};

const char *rdp_lat_stat_name(enum rdp_lat_stat s)
{
	static const char *const names[] = {
		[RDP_LAT_P50] = "p50",	    [RDP_LAT_P90] = "p90",
		[RDP_LAT_P99] = "p99",	    [RDP_LAT_P999] = "p99.9",
		[RDP_LAT_P9999] = "p99.99", [RDP_LAT_AVG] = "avg",
		[RDP_LAT_MAX] = "max",
	};

	return (unsigned int)s < sizeof(names) / sizeof(names[0]) ? names[s]
								  : "?";
}

double rdp_lat_stat_ns(const struct rdp_result *r, enum rdp_lat_stat s)
{
	const struct rdp_lat_stats *l = &r->lat;

	switch (s) {
	case RDP_LAT_P50:
		return l->median_ns;
	case RDP_LAT_P90:
		return l->p90_ns;
	case RDP_LAT_P99:
		return l->p99_ns;
	case RDP_LAT_P999:
		return l->p999_ns;
	case RDP_LAT_P9999:
		return l->p9999_ns;
	case RDP_LAT_AVG:
		return l->avg_ns;
	case RDP_LAT_MAX:
		return l->max_ns;
	}
	return 0.0;
}

/* A positive finite decimal at s; the rest in *end. */
static int number(const char *s, double *v, char **end)
{
	if (!s || !((*s >= '0' && *s <= '9') || *s == '.'))
		return -EINVAL;
	errno = 0;
	*v = strtod(s, end);
	if (errno || *end == s || !isfinite(*v))
		return -EINVAL;
	return *v > 0 ? 0 : -ERANGE;
}

int rdp_limits_parse_bw(const char *s, struct rdp_limits *l)
{
	char *end;
	double v;
	int ret = number(s, &v, &end);

	if (ret)
		return ret;
	if (!strcmp(end, "%")) {
		if (v > 100)
			return -ERANGE;
		l->min_bw_pct = v;
		return 0;
	}
	if (*end && strcmp(end, "Gb/s") && strcmp(end, "G"))
		return -EINVAL;
	l->min_bw_gbps = v;
	return 0;
}

static int lat_stat(const char *s, size_t len, enum rdp_lat_stat *out)
{
	size_t i;

	for (i = 0; i < sizeof(lat_names) / sizeof(lat_names[0]); i++) {
		if (strlen(lat_names[i].name) == len &&
		    !strncmp(lat_names[i].name, s, len)) {
			*out = lat_names[i].stat;
			return 0;
		}
	}
	return -EINVAL;
}

/* One "pNN=VALUE[unit]" item, len bytes at s. */
static int lat_item(const char *s, size_t len, struct rdp_lat_limit *out)
{
	char item[64], *eq, *end;
	double v, scale = 1e3;
	int ret;

	if (len == 0 || len >= sizeof(item))
		return -EINVAL;
	memcpy(item, s, len);
	item[len] = '\0';
	eq = strchr(item, '=');
	if (!eq || lat_stat(item, (size_t)(eq - item), &out->stat))
		return -EINVAL;
	ret = number(eq + 1, &v, &end);
	if (ret)
		return ret;
	if (!strcmp(end, "ns"))
		scale = 1;
	else if (!strcmp(end, "ms"))
		scale = 1e6;
	else if (*end && strcmp(end, "us"))
		return -EINVAL;
	out->max_ns = v * scale;
	return 0;
}

int rdp_limits_parse_lat(const char *s, struct rdp_limits *l)
{
	struct rdp_lat_limit tmp[RDP_MAX_LAT_LIMITS];
	size_t n = 0, len;
	const char *comma;
	int ret;

	if (!s || !*s)
		return -EINVAL;
	for (;;) {
		comma = strchr(s, ',');
		len = comma ? (size_t)(comma - s) : strlen(s);
		if (n == RDP_MAX_LAT_LIMITS)
			return -E2BIG;
		ret = lat_item(s, len, &tmp[n++]);
		if (ret)
			return ret;
		if (!comma)
			break;
		s = comma + 1;
	}
	memcpy(l->lat, tmp, n * sizeof(tmp[0]));
	l->n_lat = n;
	return 0;
}

int rdp_limits_any(const struct rdp_limits *l)
{
	return l->min_bw_gbps > 0 || l->min_bw_pct > 0 ||
	       l->min_msgrate_mpps > 0 || l->n_lat > 0;
}

/* One failed criterion, counted even when out is full: its key, both
 * figures and the sentence that says it. */
static size_t add_fail(struct rdp_limit_fail *out, size_t cap, size_t n,
		       const char *key, double value, double limit,
		       const char *fmt, ...) RDP_PRINTF(7, 8);

static size_t add_fail(struct rdp_limit_fail *out, size_t cap, size_t n,
		       const char *key, double value, double limit,
		       const char *fmt, ...)
{
	va_list ap;

	if (n < cap) {
		out[n].key = key;
		out[n].value = value;
		out[n].limit = limit;
		va_start(ap, fmt);
		vsnprintf(out[n].text, sizeof(out[n].text), fmt, ap);
		va_end(ap);
	}
	return n + 1;
}

static size_t eval_bw(const struct rdp_limits *l, const struct rdp_result *r,
		      double line_gbps, struct rdp_limit_fail *out, size_t cap)
{
	const char *bw_opt = l->bw_opt ? l->bw_opt : "--min-bw";
	const char *mr_opt = l->msgrate_opt ? l->msgrate_opt : "--min-msgrate";
	double pct;
	size_t n = 0;

	if (l->min_bw_gbps > 0 && r->bw_avg_gbps < l->min_bw_gbps)
		n = add_fail(out, cap, n, "min_bw", r->bw_avg_gbps,
			     l->min_bw_gbps,
			     "%.3f Gb/s is below the limit of %.3f Gb/s (%s)",
			     r->bw_avg_gbps, l->min_bw_gbps, bw_opt);
	pct = line_gbps > 0 ? 100 * r->bw_avg_gbps / line_gbps : 0;
	if (l->min_bw_pct > 0 && line_gbps > 0 && pct < l->min_bw_pct)
		n = add_fail(out, cap, n, "min_bw_pct", pct, l->min_bw_pct,
			     "%.3f Gb/s is %.1f%% of the %.3f Gb/s line rate, "
			     "below the limit of %.1f%% (--min-bw)",
			     r->bw_avg_gbps, pct, line_gbps, l->min_bw_pct);
	if (l->min_msgrate_mpps > 0 && r->msg_rate_mpps < l->min_msgrate_mpps)
		n = add_fail(out, cap, n, "min_msgrate", r->msg_rate_mpps,
			     l->min_msgrate_mpps,
			     "%.6f Mpps is below the limit of %.6f Mpps (%s)",
			     r->msg_rate_mpps, l->min_msgrate_mpps, mr_opt);
	return n;
}

static const char *lat_key(enum rdp_lat_stat s)
{
	static const char *const keys[] = {
		[RDP_LAT_P50] = "max_lat_p50",
		[RDP_LAT_P90] = "max_lat_p90",
		[RDP_LAT_P99] = "max_lat_p99",
		[RDP_LAT_P999] = "max_lat_p999",
		[RDP_LAT_P9999] = "max_lat_p9999",
		[RDP_LAT_AVG] = "max_lat_avg",
		[RDP_LAT_MAX] = "max_lat_max",
	};

	return (unsigned int)s < sizeof(keys) / sizeof(keys[0]) ? keys[s]
								: "max_lat";
}

static size_t eval_lat(const struct rdp_limits *l, const struct rdp_result *r,
		       struct rdp_limit_fail *out, size_t cap)
{
	size_t i, n = 0;
	double v;

	for (i = 0; i < l->n_lat; i++) {
		v = rdp_lat_stat_ns(r, l->lat[i].stat);
		/* No samples: nothing was measured, which is a failure. */
		if (r->lat.n && v <= l->lat[i].max_ns)
			continue;
		n = add_fail(out, cap, n, lat_key(l->lat[i].stat), v / 1e3,
			     l->lat[i].max_ns / 1e3,
			     "%s latency %.3f us is above the limit of %.3f us "
			     "(--max-lat)",
			     rdp_lat_stat_name(l->lat[i].stat), v / 1e3,
			     l->lat[i].max_ns / 1e3);
	}
	return n;
}

size_t rdp_limits_eval(const struct rdp_limits *l, const struct rdp_result *r,
		       int is_bw, double line_gbps, struct rdp_limit_fail *out,
		       size_t cap)
{
	return is_bw ? eval_bw(l, r, line_gbps, out, cap)
		     : eval_lat(l, r, out, cap);
}
