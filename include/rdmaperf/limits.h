/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The line rate of a port (speed x width) and the pass/fail thresholds a
 * run applies to every point: --min-bw, --min-msgrate, --max-lat,
 * --max-errors.
 * Layer: report
 */
#ifndef RDMAPERF_LIMITS_H
#define RDMAPERF_LIMITS_H

#include <stddef.h>
#include <stdint.h>

#include <rdmaperf/counters.h>

struct rdp_result;

/*
 * Signalling rate of the link: lanes times the rate of one lane, from
 * ibv_port_attr's active_speed and active_width; 0 for unknown codes.
 */
double rdp_link_signal_gbps(uint8_t speed, uint8_t width);

/*
 * The rate data can cross the link, which percentages refer to. On
 * InfiniBand, after line coding (QDR 4x: 32 Gb/s); on Ethernet, the
 * speed the driver encoded (a 100GbE port reports EDR 4x: 100 Gb/s,
 * 1GbE and slower SDR 1x: 1 Gb/s). 0 for unknown codes.
 */
double rdp_line_rate_gbps(uint8_t link_layer, uint8_t speed, uint8_t width);

/* Lanes of an active_width code: 1, 2, 4, 8 or 12; 0 for unknown codes. */
unsigned int rdp_link_lanes(uint8_t width);

/*
 * The port's link in the words of its link layer: "EDR 4x" on InfiniBand,
 * "100 Gb/s Ethernet" on RoCE (whose drivers borrow InfiniBand's codes to
 * say an Ethernet speed); "speed code 3, width code 5" when unknown.
 */
void rdp_link_name(uint8_t link_layer, uint8_t speed, uint8_t width, char *buf,
		   size_t len);

/* A NUMA node for people: "1", or "unknown" for a negative one. */
const char *rdp_numa_name(int node, char *buf, size_t len);

/* The latency figure a --max-lat limit applies to. */
enum rdp_lat_stat {
	RDP_LAT_P50,
	RDP_LAT_P90,
	RDP_LAT_P99,
	RDP_LAT_P999,
	RDP_LAT_P9999,
	RDP_LAT_AVG,
	RDP_LAT_MAX,
};

#define RDP_MAX_LAT_LIMITS 7

struct rdp_lat_limit {
	enum rdp_lat_stat stat;
	double max_ns;
};

struct rdp_limits {
	double min_bw_gbps;	 /* 0: none */
	double min_bw_pct;	 /* of the line rate, 0: none */
	double min_msgrate_mpps; /* 0: none */
	struct rdp_lat_limit lat[RDP_MAX_LAT_LIMITS];
	size_t n_lat;
	const char *bw_opt; /* option named in messages: "--min-bw", "-w" */
	const char *msgrate_opt;
	/* --max-errors, over each side's port counter deltas; n == 0: the
	 * defaults (rdp_max_errors_default), which every run applies */
	struct rdp_max_errors max_errors;
};

/* "90" (Gb/s) or "85%" (of the line rate); -EINVAL or -ERANGE. */
int rdp_limits_parse_bw(const char *s, struct rdp_limits *l);
/* "p99=5us", "p50=2.5us,p99.9=20us"; units ns, us (default), ms. */
int rdp_limits_parse_lat(const char *s, struct rdp_limits *l);

int rdp_limits_any(const struct rdp_limits *l);
const char *rdp_lat_stat_name(enum rdp_lat_stat s); /* "p99.9" */
double rdp_lat_stat_ns(const struct rdp_result *r, enum rdp_lat_stat s);

/* One failed criterion of one point. */
struct rdp_limit_fail {
	const char *key; /* "min_bw", "min_msgrate", "max_lat_p99" ... */
	double value;
	double limit;
	char text[320]; /* "0.412 Gb/s is below the limit of 1.000 Gb/s
			 * (--min-bw)" */
};

/*
 * Check one point. Bandwidth limits apply to bandwidth results,
 * latency limits to latency results; line_gbps 0 leaves a percentage
 * unchecked (the caller refuses that before running). Returns how many
 * criteria failed, at most cap described in out.
 */
size_t rdp_limits_eval(const struct rdp_limits *l, const struct rdp_result *r,
		       int is_bw, double line_gbps, struct rdp_limit_fail *out,
		       size_t cap);

#endif /* RDMAPERF_LIMITS_H */
