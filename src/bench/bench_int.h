/* SPDX-License-Identifier: BSD-2-Clause */
/* Loop engines shared by the test files: each test is its ops table, and
 * these engines serve it the verb of run->ops. */
#ifndef RDMAPERF_BENCH_INT_H
#define RDMAPERF_BENCH_INT_H

#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/clock.h>

/* Bandwidth: window (-t, and -o with both devices for READ/atomics),
 * signalling (-Q within the window), inline for WRITE and SEND. */
void rdp_bw_decide(const struct rdp_bench_ops *ops, const struct rdp_params *p,
		   const struct rdp_conn *conn, struct rdp_decisions *d);
/* Bandwidth: a window of ops->verb in flight on every QP. */
int rdp_bw_client(struct rdp_run *run, struct rdp_result *res);
/* Bandwidth, SEND: receive and repost until the client is done. */
int rdp_bw_server_recv(struct rdp_run *run, struct rdp_result *res);
/* The server of one-sided tests only lends its memory. */
int rdp_passive_server(struct rdp_run *run, struct rdp_result *res);
/* ...unless -b asked it to run the same loop towards the client. */
int rdp_bw_server(struct rdp_run *run, struct rdp_result *res);

/* Round trips: one operation in flight, each signaled, none inline. */
void rdp_rtt_decide(const struct rdp_bench_ops *ops, const struct rdp_params *p,
		    const struct rdp_conn *conn, struct rdp_decisions *d);
/* One-sided round trips (READ, atomics): one ops->verb at a time. */
int rdp_rtt_client(struct rdp_run *run, struct rdp_result *res);
/* Ping-pongs (WRITE, SEND): ops->client and ops->server alike; the
 * variant (verb, -e, immediate data, a perftest peer) is chosen at set-up
 * (pingpong.c). */
int rdp_pingpong(struct rdp_run *run, struct rdp_result *res);

/* A loop that has seen nothing for this long asks whether the peer's
 * out-of-band connection closed (a dead peer ends the loop at once, not
 * at the stall time). */
#define RDP_PEER_WATCH_MS 100

/* The word that ends run's timed loop early (run->stop), or one that
 * never does: picked at set-up, read in the loop with a relaxed load. */
const int *rdp_bench_stop_word(const struct rdp_run *run);
/* The cycles of silence after which a loop asks rdp_bench_peer_gone():
 * RDP_PEER_WATCH_MS, or the stall time where that is shorter. */
uint64_t rdp_bench_watch_cycles(const struct rdp_run *run);
/* After quiet_cycles of silence (at least the watch time): 1 when the
 * peer's out-of-band connection has closed (the peer died or was
 * stopped), else 0. A poll of the socket, never on the per-message path. */
int rdp_bench_peer_gone(const struct rdp_run *run, uint64_t quiet_cycles);

/* Post rx_depth receives on every QP into its receive slot. */
int rdp_post_receives(struct rdp_run *run);
/* Receive WR for QP q, wr_id = q, into its receive slot. */
void rdp_recv_wr(const struct rdp_run *run, uint32_t q, struct ibv_recv_wr *wr,
		 struct ibv_sge *sge);

/* Latency loops look at the clock for the stall bound once in this many
 * + 1 spins. */
#define RDP_SPIN_CHECK_MASK 0x3fffu

/* -e in a latency loop whose CQ was found empty: arm it (0 at once, the
 * caller polls again) or sleep until an event; -ETIMEDOUT after the stall
 * time, -ECONNRESET when the peer's out-of-band connection closed during
 * the sleep, else 0. */
int rdp_lat_sleep(struct rdp_run *run, int *armed);

/* What a latency client runs inside and after the clock. */
struct rdp_lat_loop {
	/* The timed loop: round trip i stamped in stamps[i + 1], until total
	 * of them or a stamp at or past end; *done of them. */
	int (*timed)(struct rdp_run *run, void *state, uint64_t *stamps,
		     uint64_t total, uint64_t end, uint64_t *done);
	/* After the clock, with the loop's result: stop the peer; a failure
	 * logged. */
	int (*close)(struct rdp_run *run, void *state, uint64_t done, int ret);
};

/* --latency_gap: spin gap_cycles (the timed loops' variants with a gap);
 * the cycles it took, which the loop leaves out of its stamps. */
static inline __attribute__((always_inline)) uint64_t
rdp_lat_pause(uint64_t gap_cycles)
{
	uint64_t t0 = rdp_cycles(), now;

	do
		now = rdp_cycles();
	while (now - t0 < gap_cycles);
	return now - t0;
}

/* The cycles of run's --latency_gap (0: none). */
static inline uint64_t rdp_lat_gap_cycles(const struct rdp_run *run)
{
	return (uint64_t)((double)run->params->latency_gap_ns *
			  run->clk->cycles_per_ns);
}

/* A latency client on state, set up by the test: the stamps (taken right
 * before the loop), loop, close, the statistics (warm-up excluded; each
 * round trip halved where run->ops->lat_kind is one-way). */
int rdp_lat_client(struct rdp_run *run, struct rdp_result *res,
		   const struct rdp_lat_loop *loop, void *state);

/*
 * A latency loop failed: the cause for the peer, with the QP and how far it
 * got ("no reply for 10.0 s after N round trips", or the post error).
 */
int rdp_lat_fail(struct rdp_run *run, uint32_t qpn, uint64_t round_trips,
		 int ret, const char *what);

/* validate() shared by tests, naming the test by p->test: size within
 * 1 B .. 1 GiB; that and one QP; atomics' 8 bytes. */
int rdp_check_size(const struct rdp_params *p, char *why, size_t len);
int rdp_check_one_qp(const struct rdp_params *p, char *why, size_t len);
int rdp_check_atomic(const struct rdp_params *p, char *why, size_t len);

/* verify() for atomics: the remote counters add up to what was posted. */
int rdp_verify_atomic(const struct rdp_run *run, uint64_t count,
		      struct rdp_data_check *r);
/* verify() for the bandwidth tests that move data: where ops->verb put
 * it (with -b on both sides). */
int rdp_verify_data_rx(const struct rdp_run *run, uint64_t count,
		       struct rdp_data_check *r);

#endif /* RDMAPERF_BENCH_INT_H */
