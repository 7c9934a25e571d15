/* SPDX-License-Identifier: BSD-2-Clause */
/* Line rates from speed x width, threshold parsing and evaluation, and
 * the threshold options on the command line. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <infiniband/verbs.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/limits.h>
#include <rdmaperf/opts.h>

#include "unit.h"

#define EPS 1e-9
#define IB  IBV_LINK_LAYER_INFINIBAND
#define ETH IBV_LINK_LAYER_ETHERNET

/* IB codes: speed SDR 1 .. NDR 128; width 1x=1 4x=2 8x=4 12x=8 2x=16. */
static void test_line_rate_ib(void **state)
{
	(void)state;
	assert_float_equal(rdp_line_rate_gbps(IB, 1, 1), 2.0, EPS);
	assert_float_equal(rdp_line_rate_gbps(IB, 4, 2), 32.0, EPS); /* QDR */
	assert_float_equal(rdp_line_rate_gbps(IB, 8, 2), 40.0, EPS); /* FDR10 */
	assert_float_equal(rdp_line_rate_gbps(IB, 16, 2), 56.25 * 64 / 66, EPS);
	assert_float_equal(rdp_line_rate_gbps(IB, 32, 2), 100.0, EPS);
	assert_float_equal(rdp_line_rate_gbps(IB, 64, 2), 200.0, EPS);
	assert_float_equal(rdp_line_rate_gbps(IB, 128, 2), 400.0, EPS);
	assert_float_equal(rdp_line_rate_gbps(IB, 64, 16), 100.0, EPS);
	assert_float_equal(rdp_line_rate_gbps(IB, 32, 8), 300.0, EPS);
	assert_float_equal(rdp_line_rate_gbps(IB, 128, 4), 800.0, EPS);
	/* Unknown codes: no rate, never a guess. */
	assert_float_equal(rdp_line_rate_gbps(IB, 3, 2), 0.0, EPS);
	assert_float_equal(rdp_line_rate_gbps(IB, 32, 3), 0.0, EPS);
	assert_float_equal(rdp_line_rate_gbps(IB, 0, 0), 0.0, EPS);
}

/* How RoCE drivers encode Ethernet speeds in the same codes. */
static void test_line_rate_eth(void **state)
{
	(void)state;
	assert_float_equal(rdp_line_rate_gbps(ETH, 1, 1), 1.0, EPS);
	assert_float_equal(rdp_line_rate_gbps(ETH, 8, 1), 10.0, EPS);
	assert_float_equal(rdp_line_rate_gbps(ETH, 4, 1), 10.0, EPS);
	assert_float_equal(rdp_line_rate_gbps(ETH, 2, 2), 20.0, EPS);
	assert_float_equal(rdp_line_rate_gbps(ETH, 32, 1), 25.0, EPS);
	assert_float_equal(rdp_line_rate_gbps(ETH, 4, 2), 40.0, EPS);
	assert_float_equal(rdp_line_rate_gbps(ETH, 32, 16), 50.0, EPS);
	assert_float_equal(rdp_line_rate_gbps(ETH, 16, 2), 56.0, EPS);
	assert_float_equal(rdp_line_rate_gbps(ETH, 32, 2), 100.0, EPS);
	assert_float_equal(rdp_line_rate_gbps(ETH, 64, 2), 200.0, EPS);
	assert_float_equal(rdp_line_rate_gbps(ETH, 128, 2), 400.0, EPS);
	assert_float_equal(rdp_line_rate_gbps(ETH, 64, 4), 400.0, EPS);
	assert_float_equal(rdp_line_rate_gbps(ETH, 200, 2), 0.0, EPS);
}

static void test_link_signal_and_name(void **state)
{
	char buf[48];

	(void)state;
	assert_float_equal(rdp_link_signal_gbps(4, 2), 40.0, EPS);
	assert_float_equal(rdp_link_signal_gbps(64, 2), 200.0, EPS);
	assert_float_equal(rdp_link_signal_gbps(7, 2), 0.0, EPS);
	rdp_link_name(IB, 32, 2, buf, sizeof(buf));
	assert_string_equal(buf, "EDR 4x");
	rdp_link_name(IB, 128, 16, buf, sizeof(buf));
	assert_string_equal(buf, "NDR 2x");
	rdp_link_name(IB, 3, 5, buf, sizeof(buf));
	assert_string_equal(buf, "speed code 3, width code 5");
	rdp_link_name(ETH, 0, 0, buf, sizeof(buf));
	assert_string_equal(buf, "speed code 0, width code 0");
}

/* Every width code as lanes; unknown codes as 0. */
static void test_link_lanes(void **state)
{
	static const struct {
		uint8_t code;
		unsigned int lanes;
	} w[] = { { 1, 1 },  { 2, 4 }, { 4, 8 }, { 8, 12 },
		  { 16, 2 }, { 0, 0 }, { 3, 0 }, { 32, 0 } };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		assert_int_equal(rdp_link_lanes(w[i].code), w[i].lanes);
}

/*
 * Every speed code, 1x and 4x, named on each link layer: InfiniBand's
 * speed names on InfiniBand only; a RoCE port in Gb/s of Ethernet
 * (rdma_rxe on a 10 Gb/s netdev reports FDR10 1x).
 */
static void test_link_names(void **state)
{
	static const struct {
		uint8_t speed, width, link_layer;
		const char *name;
	} n[] = {
		{ 1, 1, IB, "SDR 1x" },
		{ 2, 2, IB, "DDR 4x" },
		{ 4, 2, IB, "QDR 4x" },
		{ 8, 1, IB, "FDR10 1x" },
		{ 16, 2, IB, "FDR 4x" },
		{ 32, 4, IB, "EDR 8x" },
		{ 64, 8, IB, "HDR 12x" },
		{ 128, 16, IB, "NDR 2x" },
		{ 1, 1, ETH, "1 Gb/s Ethernet" },
		{ 2, 2, ETH, "20 Gb/s Ethernet" },
		{ 4, 2, ETH, "40 Gb/s Ethernet" },
		{ 8, 1, ETH, "10 Gb/s Ethernet" },
		{ 8, 2, ETH, "40 Gb/s Ethernet" },
		{ 16, 2, ETH, "56 Gb/s Ethernet" },
		{ 32, 1, ETH, "25 Gb/s Ethernet" },
		{ 32, 16, ETH, "50 Gb/s Ethernet" },
		{ 32, 2, ETH, "100 Gb/s Ethernet" },
		{ 64, 2, ETH, "200 Gb/s Ethernet" },
		{ 128, 2, ETH, "400 Gb/s Ethernet" },
		{ 128, 4, ETH, "800 Gb/s Ethernet" },
		{ 8, 3, ETH, "speed code 8, width code 3" },
	};
	char buf[48];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(n) / sizeof(n[0]); i++) {
		rdp_link_name(n[i].link_layer, n[i].speed, n[i].width, buf,
			      sizeof(buf));
		assert_string_equal(buf, n[i].name);
		if (n[i].link_layer == ETH)
			assert_null(strstr(buf, "DR"));
	}
}

static void test_numa_name(void **state)
{
	char buf[16];

	(void)state;
	assert_string_equal(rdp_numa_name(0, buf, sizeof(buf)), "0");
	assert_string_equal(rdp_numa_name(3, buf, sizeof(buf)), "3");
	assert_string_equal(rdp_numa_name(-1, buf, sizeof(buf)), "unknown");
	assert_string_equal(rdp_numa_name(-7, buf, sizeof(buf)), "unknown");
}

static void test_parse_bw(void **state)
{
	struct rdp_limits l;

	(void)state;
	memset(&l, 0, sizeof(l));
	assert_int_equal(rdp_limits_parse_bw("90", &l), 0);
	assert_float_equal(l.min_bw_gbps, 90.0, EPS);
	assert_int_equal(rdp_limits_parse_bw("12.5Gb/s", &l), 0);
	assert_float_equal(l.min_bw_gbps, 12.5, EPS);
	assert_int_equal(rdp_limits_parse_bw("85%", &l), 0);
	assert_float_equal(l.min_bw_pct, 85.0, EPS);
	assert_int_equal(rdp_limits_parse_bw("101%", &l), -ERANGE);
	assert_int_equal(rdp_limits_parse_bw("0", &l), -ERANGE);
	assert_int_equal(rdp_limits_parse_bw("-5", &l), -EINVAL);
	assert_int_equal(rdp_limits_parse_bw("90x", &l), -EINVAL);
	assert_int_equal(rdp_limits_parse_bw("85%%", &l), -EINVAL);
	assert_int_equal(rdp_limits_parse_bw("", &l), -EINVAL);
	assert_int_equal(rdp_limits_parse_bw("inf", &l), -EINVAL);
}

static void test_parse_lat(void **state)
{
	struct rdp_limits l;

	(void)state;
	memset(&l, 0, sizeof(l));
	assert_int_equal(rdp_limits_parse_lat("p99=5us", &l), 0);
	assert_int_equal(l.n_lat, 1);
	assert_int_equal(l.lat[0].stat, RDP_LAT_P99);
	assert_float_equal(l.lat[0].max_ns, 5000.0, EPS);
	assert_int_equal(rdp_limits_parse_lat("p50=800ns,p99.9=2ms,max=7", &l),
			 0);
	assert_int_equal(l.n_lat, 3);
	assert_int_equal(l.lat[0].stat, RDP_LAT_P50);
	assert_float_equal(l.lat[0].max_ns, 800.0, EPS);
	assert_int_equal(l.lat[1].stat, RDP_LAT_P999);
	assert_float_equal(l.lat[1].max_ns, 2e6, EPS);
	assert_int_equal(l.lat[2].stat, RDP_LAT_MAX);
	assert_float_equal(l.lat[2].max_ns, 7000.0, EPS);
	/* A bad list leaves the previous limits alone. */
	assert_int_equal(rdp_limits_parse_lat("p98=5us", &l), -EINVAL);
	assert_int_equal(rdp_limits_parse_lat("p99", &l), -EINVAL);
	assert_int_equal(rdp_limits_parse_lat("p99=5s", &l), -EINVAL);
	assert_int_equal(rdp_limits_parse_lat("p99=5us,", &l), -EINVAL);
	assert_int_equal(rdp_limits_parse_lat("p99=0us", &l), -ERANGE);
	assert_int_equal(
		rdp_limits_parse_lat("p50=1,p50=1,p50=1,p50=1,p50=1,p50=1,"
				     "p50=1,p50=1",
				     &l),
		-E2BIG);
	assert_int_equal(l.n_lat, 3);
	assert_string_equal(rdp_lat_stat_name(RDP_LAT_P9999), "p99.99");
}

static struct rdp_result bw_point(double gbps, double mpps)
{
	struct rdp_result r;

	memset(&r, 0, sizeof(r));
	r.size_bytes = 65536;
	r.num_qps = 2;
	r.bw_avg_gbps = gbps;
	r.msg_rate_mpps = mpps;
	return r;
}

/* Every criterion is checked; one passing never hides another failing. */
static void test_eval_bw_and(void **state)
{
	struct rdp_limits l = { .min_bw_gbps = 10, .min_msgrate_mpps = 1 };
	struct rdp_result r = bw_point(12, 0.5);
	struct rdp_limit_fail f[4];

	(void)state;
	assert_int_equal(rdp_limits_eval(&l, &r, 1, 0, f, 4), 1);
	assert_string_equal(f[0].key, "min_msgrate");
	assert_non_null(strstr(f[0].text, "0.500000 Mpps is below the limit "
					  "of 1.000000 Mpps (--min-msgrate)"));
	r = bw_point(8, 0.5);
	assert_int_equal(rdp_limits_eval(&l, &r, 1, 0, f, 4), 2);
	assert_string_equal(f[0].key, "min_bw");
	assert_float_equal(f[0].value, 8.0, EPS);
	assert_float_equal(f[0].limit, 10.0, EPS);
	r = bw_point(10, 1);
	assert_int_equal(rdp_limits_eval(&l, &r, 1, 0, f, 4), 0);
	/* The count is exact even when the caller keeps fewer. */
	r = bw_point(1, 0.1);
	assert_int_equal(rdp_limits_eval(&l, &r, 1, 0, f, 1), 2);
}

static void test_eval_bw_pct(void **state)
{
	struct rdp_limits l = { .min_bw_pct = 90 };
	struct rdp_result r = bw_point(350, 1);
	struct rdp_limit_fail f[2];

	(void)state;
	assert_int_equal(rdp_limits_eval(&l, &r, 1, 400, f, 2), 1);
	assert_string_equal(f[0].key, "min_bw_pct");
	assert_float_equal(f[0].value, 87.5, EPS);
	assert_non_null(strstr(f[0].text, "87.5% of the 400.000 Gb/s line"));
	r = bw_point(361, 1);
	assert_int_equal(rdp_limits_eval(&l, &r, 1, 400, f, 2), 0);
	/* Latency limits do not touch a bandwidth point. */
	l.n_lat = 1;
	l.lat[0] = (struct rdp_lat_limit){ RDP_LAT_P99, 1 };
	assert_int_equal(rdp_limits_eval(&l, &r, 1, 400, f, 2), 0);
}

static void test_eval_lat(void **state)
{
	struct rdp_limits l = { .n_lat = 2 };
	struct rdp_result r;
	struct rdp_limit_fail f[2];

	(void)state;
	l.lat[0] = (struct rdp_lat_limit){ RDP_LAT_P50, 3000 };
	l.lat[1] = (struct rdp_lat_limit){ RDP_LAT_P99, 5000 };
	memset(&r, 0, sizeof(r));
	r.lat.n = 1000;
	r.lat.median_ns = 2500;
	r.lat.p99_ns = 6000;
	assert_int_equal(rdp_limits_eval(&l, &r, 0, 0, f, 2), 1);
	assert_string_equal(f[0].key, "max_lat_p99");
	assert_float_equal(f[0].value, 6.0, EPS);
	assert_non_null(strstr(f[0].text, "p99 latency 6.000 us is above the "
					  "limit of 5.000 us"));
	r.lat.p99_ns = 5000;
	assert_int_equal(rdp_limits_eval(&l, &r, 0, 0, f, 2), 0);
	/* No samples measured: a failure, not a silent pass. */
	r.lat.n = 0;
	assert_int_equal(rdp_limits_eval(&l, &r, 0, 0, f, 2), 2);
}

static void test_cli(void **state)
{
	struct rdp_opts o;
	char err[256];

	(void)state;
	assert_int_equal(CLIENT(&o, err, "write_bw", "--min-bw", "85%",
				"--min-msgrate", "0.5", "h"),
			 0);
	assert_float_equal(o.limits.limits.min_bw_pct, 85.0, EPS);
	assert_float_equal(o.limits.limits.min_msgrate_mpps, 0.5, EPS);
	assert_int_equal(
		CLIENT(&o, err, "write_lat", "--max-lat", "p99=5us", "h"), 0);
	assert_int_equal(o.limits.limits.n_lat, 1);
	assert_int_equal(CLIENT(&o, err, "write_bw", "-a", "--time-per-point",
				"0.5", "h"),
			 0);
	assert_float_equal(o.limits.target_rel_err, 0.01, EPS);
	assert_int_equal(CLIENT(&o, err, "write_bw", "--plot", "x.svg", "h"),
			 0);
	assert_string_equal(o.limits.plot_file, "x.svg");

	assert_int_equal(CLIENT(&o, err, "write_lat", "--min-bw", "1", "h"),
			 -EINVAL);
	assert_non_null(strstr(err, "apply to bandwidth tests"));
	assert_int_equal(CLIENT(&o, err, "write_bw", "--max-lat", "p99=5us",
				"h"),
			 -EINVAL);
	assert_non_null(strstr(err, "--max-lat applies to latency tests"));
	assert_int_equal(CLIENT(&o, err, "write_bw", "--min-bw", "fast", "h"),
			 -EINVAL);
	assert_non_null(strstr(err, "--min-bw needs Gb/s"));
	assert_int_equal(CLIENT(&o, err, "write_lat", "--max-lat", "p97=1us",
				"h"),
			 -EINVAL);
	assert_non_null(strstr(err, "--max-lat needs STAT=TIME"));
	assert_int_equal(CLIENT(&o, err, "write_bw", "--target-error", "2",
				"h"),
			 -EINVAL);
	assert_non_null(strstr(err, "needs --time-per-point"));
	assert_int_equal(CLIENT(&o, err, "write_bw", "-D", "2",
				"--time-per-point", "1", "h"),
			 -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_rate_ib),
		cmocka_unit_test(test_line_rate_eth),
		cmocka_unit_test(test_link_signal_and_name),
		cmocka_unit_test(test_link_lanes),
		cmocka_unit_test(test_link_names),
		cmocka_unit_test(test_numa_name),
		cmocka_unit_test(test_parse_bw),
		cmocka_unit_test(test_parse_lat),
		cmocka_unit_test(test_eval_bw_and),
		cmocka_unit_test(test_eval_bw_pct),
		cmocka_unit_test(test_eval_lat),
		cmocka_unit_test(test_cli),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
