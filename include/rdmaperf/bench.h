/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Test loops. Each is one file exporting one const struct rdp_bench_ops;
 * registry.c holds the only list of them.
 */
#ifndef RDMAPERF_BENCH_H
#define RDMAPERF_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include <rdmaperf/params.h>
#include <rdmaperf/stats.h>
#include <rdmaperf/wire.h>

struct rdp_conn;
struct rdp_clock;

enum rdp_bench_kind {
	RDP_BENCH_BW,
	RDP_BENCH_LAT
};
enum rdp_side {
	RDP_SIDE_CLIENT = 0,
	RDP_SIDE_SERVER = 1
};

/* Which rx slots hold the peer's pattern after a run. */
enum rdp_check_flags {
	RDP_CHECK_SERVER_RX = 1u << 0,
	RDP_CHECK_CLIENT_RX = 1u << 1,
};

struct rdp_run {
	const struct rdp_params *params;
	struct rdp_conn *conn;
	const struct rdp_clock *clk;
	uint64_t stall_cycles; /* no progress for this long: give up */
	enum rdp_side side;
	char errtext[RDP_WIRE_TEXT_MAX]; /* cause of a failure, for the peer */
};

struct rdp_result {
	uint64_t size_bytes;
	uint32_t num_qps;
	uint64_t msgs;	       /* completed messages, all QPs */
	uint32_t warmup_iters; /* run but not measured */
	double elapsed_ns;
	double bw_avg_gbps;
	double bw_peak_gbps;
	double msg_rate_mpps;
	struct rdp_lat_stats lat;
};

struct rdp_bench_ops {
	const char *name;  /* command-line name */
	const char *title; /* header line */
	enum rdp_bench_kind kind;
	const char *lat_note;	   /* what a latency figure measures */
	unsigned int check;	   /* enum rdp_check_flags */
	uint32_t check_tail_bytes; /* trailing bytes used as flags, not data */
	/* Reject parameters this test cannot run; why gets one line. */
	int (*validate)(const struct rdp_params *p, char *why, size_t len);
	int (*client)(struct rdp_run *run, struct rdp_result *res);
	int (*server)(struct rdp_run *run, struct rdp_result *res);
};

const struct rdp_bench_ops *rdp_bench_find(const char *name);
/* NULL-terminated list, in registry order. */
const struct rdp_bench_ops *const *rdp_bench_all(void);

/* Shared helpers for the loops (bench/common.c). */
void rdp_pattern_fill(uint8_t *buf, size_t len, uint32_t seed, uint32_t qp,
		      enum rdp_side side);
/* Returns the first mismatching offset, or -1 when all match. */
long long rdp_pattern_check(const uint8_t *buf, size_t len, uint32_t seed,
			    uint32_t qp, enum rdp_side side);
/* Fill res from bandwidth samples (cycles, cumulative bytes). */
void rdp_result_bw(struct rdp_result *res, const struct rdp_bw_sample *s,
		   size_t n, uint64_t start_cycles,
		   const struct rdp_clock *clk);
/* Poll failures: logged with the status, its hint, and the QP. */
int rdp_bench_wc_error(struct rdp_run *run, const void *wc);

#endif /* RDMAPERF_BENCH_H */
