/* SPDX-License-Identifier: BSD-2-Clause */
/* SEND latency: ping-pong of sends into pre-posted receives; one-way
 * latency is half the round trip. An immediate value of 1 says stop. */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <arpa/inet.h>

#include "bench_int.h"
#include <rdmaperf/clock.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/log.h>

#define IMM_PING 0
#define IMM_STOP 1

struct slat {
	struct rdp_lat_tx tx;
	struct ibv_recv_wr rwr;
	struct ibv_sge rsge;
	/* where a receive goes back: the QP's queue, or the shared one */
	int (*repost)(struct slat *s);
	struct ibv_srq *srq;
	uint64_t recvs, consumed;
	uint32_t last_imm;
	int armed; /* -e: the CQ is armed for its next event */
	/* perftest's peer: receives posted so far, and how many in all */
	uint64_t rposted, rlimit;
};

static int repost_own(struct slat *s)
{
	struct ibv_recv_wr *bad;

	return ibv_post_recv(s->tx.qp, &s->rwr, &bad);
}

static int repost_shared(struct slat *s)
{
	struct ibv_recv_wr *bad;

	return ibv_post_srq_recv(s->srq, &s->rwr, &bad);
}

static void setup(const struct rdp_run *run, struct slat *s)
{
	memset(s, 0, sizeof(*s));
	rdp_lat_tx_setup(run, &s->tx, IBV_WR_SEND_WITH_IMM);
	rdp_recv_wr(run, 0, &s->rwr, &s->rsge);
	s->srq = run->conn->srq;
	s->repost = s->srq ? repost_shared : repost_own;
}

/* Take one completion of either kind; receives are reposted at once. */
static inline int poll_one(struct slat *s)
{
	struct ibv_wc wc;
	int n, ret;

	n = ibv_poll_cq(s->tx.cq, 1, &wc);
	if (n <= 0)
		return n < 0 ? -EIO : 0;
	if (wc.status != IBV_WC_SUCCESS)
		return rdp_bench_wc_error(&wc);
	if (!(wc.opcode & IBV_WC_RECV)) {
		s->tx.retired = wc.wr_id;
		return 1;
	}
	s->recvs++;
	s->last_imm = wc.wc_flags & IBV_WC_WITH_IMM ? ntohl(wc.imm_data)
						    : IMM_PING;
	ret = s->repost(s);
	return ret ? -ret : 1;
}

/* Until cond holds: spin, with the stall bound checked now and then;
 * with -e (`ev`, constant per caller) asleep on the completion channel
 * whenever the CQ is empty. */
static inline int wait_for(struct rdp_run *run, struct slat *s,
			   const uint64_t *have, uint64_t want, const int ev)
{
	unsigned int spins = 0;
	uint64_t t0 = 0;
	int ret;

	while (*have < want) {
		ret = poll_one(s);
		if (ret < 0)
			return ret;
		if (ev && !ret) {
			ret = rdp_lat_sleep(run, &s->armed);
			if (ret)
				return ret;
			continue;
		}
		if (ret || (++spins & RDP_SPIN_CHECK_MASK))
			continue;
		if (!t0)
			t0 = rdp_cycles();
		else if (rdp_cycles() - t0 > run->stall_cycles)
			return -ETIMEDOUT;
	}
	return 0;
}

static inline int post(struct rdp_run *run, struct slat *s, uint32_t imm,
		       const int ev)
{
	int ret;

	if (s->tx.posted - s->tx.retired >= s->tx.tx_depth) {
		ret = wait_for(run, s, &s->tx.retired, s->tx.last_signaled, ev);
		if (ret)
			return ret;
	}
	s->tx.wr.imm_data = htonl(imm);
	return rdp_lat_tx_post(&s->tx, imm == IMM_STOP);
}

static int fail(struct rdp_run *run, const struct slat *s, int ret,
		const char *what)
{
	return rdp_lat_fail(run, s->tx.qp->qp_num, s->consumed, ret, what);
}

/* The timed loop: send, wait for the answer, stamp. */
static inline int ping_loop(struct rdp_run *run, void *state, uint64_t *stamps,
			    uint64_t total, uint64_t end, uint64_t *done,
			    const int ev)
{
	struct slat *s = state;
	uint64_t i;
	int ret;

	for (i = 0; i < total; i++) {
		ret = post(run, s, IMM_PING, ev);
		if (ret)
			return fail(run, s, ret, "send");
		ret = wait_for(run, s, &s->recvs, ++s->consumed, ev);
		stamps[i + 1] = rdp_cycles();
		if (ret)
			return fail(run, s, ret, "reply");
		if (stamps[i + 1] >= end) {
			i++;
			break;
		}
	}
	*done = i;
	return 0;
}

static int ping_loop_poll(struct rdp_run *run, void *state, uint64_t *stamps,
			  uint64_t total, uint64_t end, uint64_t *done)
{
	return ping_loop(run, state, stamps, total, end, done, 0);
}

static int ping_loop_ev(struct rdp_run *run, void *state, uint64_t *stamps,
			uint64_t total, uint64_t end, uint64_t *done)
{
	return ping_loop(run, state, stamps, total, end, done, 1);
}

/* Tell the server to stop, and see that send through (outside the
 * clock: -e or not, it polls). */
static int ping_close(struct rdp_run *run, void *state, uint64_t done, int ret)
{
	struct slat *s = state;

	(void)done;
	if (!ret)
		ret = post(run, s, IMM_STOP, 0);
	if (!ret)
		ret = wait_for(run, s, &s->tx.retired, s->tx.last_signaled, 0);
	return ret ? fail(run, s, ret, "completion of the last send") : 0;
}

static const struct rdp_lat_loop ping = {
	.timed = ping_loop_poll,
	.close = ping_close,
};

static const struct rdp_lat_loop ping_ev = {
	.timed = ping_loop_ev,
	.close = ping_close,
};

static int client(struct rdp_run *run, struct rdp_result *res)
{
	struct slat s;

	setup(run, &s);
	return rdp_lat_client(run, res, run->conn->channel ? &ping_ev : &ping,
			      &s);
}

/* Answer every ping until the stop message. */
static inline int answer(struct rdp_run *run, struct slat *s, const int ev)
{
	int ret;

	for (;;) {
		ret = wait_for(run, s, &s->recvs, ++s->consumed, ev);
		if (ret)
			return fail(run, s, ret, "ping");
		if (s->last_imm == IMM_STOP)
			break;
		ret = post(run, s, IMM_PING, ev);
		if (ret)
			return fail(run, s, ret, "send");
	}
	ret = wait_for(run, s, &s->tx.retired, s->tx.last_signaled, 0);
	return ret ? fail(run, s, ret, "completion") : 0;
}

static int server(struct rdp_run *run, struct rdp_result *res)
{
	struct slat s;

	(void)res;
	setup(run, &s);
	return run->conn->channel ? answer(run, &s, 1) : answer(run, &s, 0);
}

/*
 * perftest's ping-pong (doc/perftest-protocol.md 5.5): its client sends
 * first, the server answers; plain SENDs, exactly -n each way, no stop
 * message. Like perftest, at most -n receives are posted per size (the
 * receive queue is empty when a size ends, so the next, larger size never
 * lands in a smaller receive); with -D each side stops at its own
 * deadline and keeps posting.
 */
static inline int pt_poll(struct slat *s)
{
	struct ibv_recv_wr *bad;
	struct ibv_wc wc;
	int n, ret;

	n = ibv_poll_cq(s->tx.cq, 1, &wc);
	if (n <= 0)
		return n < 0 ? -EIO : 0;
	if (wc.status != IBV_WC_SUCCESS)
		return rdp_bench_wc_error(&wc);
	if (!(wc.opcode & IBV_WC_RECV)) {
		s->tx.retired = wc.wr_id;
		return 1;
	}
	s->recvs++;
	if (s->rposted >= s->rlimit)
		return 1;
	s->rposted++;
	ret = ibv_post_recv(s->tx.qp, &s->rwr, &bad);
	return ret ? -ret : 1;
}

/* Until *have reaches want: 0; 1 at the deadline; or -errno. */
static inline int pt_wait(struct rdp_run *run, struct slat *s,
			  const uint64_t *have, uint64_t want, uint64_t end)
{
	unsigned int spins = 0;
	uint64_t t0 = 0, now;
	int ret;

	while (*have < want) {
		ret = pt_poll(s);
		if (ret < 0)
			return ret;
		if (ret || (++spins & RDP_SPIN_CHECK_MASK))
			continue;
		now = rdp_cycles();
		if (now >= end)
			return 1;
		if (!t0)
			t0 = now;
		else if (now - t0 > run->stall_cycles)
			return -ETIMEDOUT;
	}
	return 0;
}

static inline int pt_post(struct rdp_run *run, struct slat *s, int last)
{
	int ret;

	if (s->tx.posted - s->tx.retired >= s->tx.tx_depth) {
		ret = pt_wait(run, s, &s->tx.retired, s->tx.last_signaled,
			      UINT64_MAX);
		if (ret)
			return ret;
	}
	return rdp_lat_tx_post(&s->tx, last);
}

/* As perftest's client: send, wait for the answer, stamp. */
static int pt_loop_client(struct rdp_run *run, void *state, uint64_t *stamps,
			  uint64_t total, uint64_t end, uint64_t *done)
{
	struct slat *s = state;
	uint64_t i;
	int ret;

	for (i = 0; i < total; i++) {
		ret = pt_post(run, s, 0);
		if (ret)
			return fail(run, s, ret, "send");
		ret = pt_wait(run, s, &s->recvs, i + 1, end);
		if (ret < 0)
			return fail(run, s, ret, "reply");
		if (ret)
			break;
		stamps[i + 1] = rdp_cycles();
		if (stamps[i + 1] >= end) {
			i++;
			break;
		}
	}
	*done = i;
	return 0;
}

/* As perftest's server: the client's first send starts the clock; then
 * answer it and wait for the next. The last answer goes out in pt_close. */
static int pt_loop_server(struct rdp_run *run, void *state, uint64_t *stamps,
			  uint64_t total, uint64_t end, uint64_t *done)
{
	struct slat *s = state;
	uint64_t i = 0;
	int ret;

	*done = 0;
	ret = pt_wait(run, s, &s->recvs, 1, end);
	if (ret)
		return ret < 0 ? fail(run, s, ret, "first send") : 0;
	stamps[0] = rdp_cycles();
	for (; i + 1 < total; i++) {
		ret = pt_post(run, s, 0);
		if (ret)
			return fail(run, s, ret, "send");
		ret = pt_wait(run, s, &s->recvs, i + 2, end);
		if (ret < 0)
			return fail(run, s, ret, "ping");
		if (ret)
			break;
		stamps[i + 1] = rdp_cycles();
		if (stamps[i + 1] >= end) {
			i++;
			break;
		}
	}
	*done = i;
	return 0;
}

/* The server's last answer (with -n), then every signaled send seen
 * through. */
static int pt_close(struct rdp_run *run, void *state, uint64_t done, int ret)
{
	struct slat *s = state;

	(void)done;
	if (!ret && run->side == RDP_SIDE_SERVER && !run->params->duration_s)
		ret = pt_post(run, s, 1);
	if (!ret)
		ret = pt_wait(run, s, &s->tx.retired, s->tx.last_signaled,
			      UINT64_MAX);
	return ret ? fail(run, s, ret, "completion of the last send") : 0;
}

static const struct rdp_lat_loop pt_ping[] = {
	[RDP_SIDE_CLIENT] = { .timed = pt_loop_client,
			      .close = pt_close, },
	[RDP_SIDE_SERVER] = { .timed = pt_loop_server,
			      .close = pt_close, },
};

static int perftest(struct rdp_run *run, struct rdp_result *res)
{
	const struct rdp_params *p = run->params;
	struct slat s;

	setup(run, &s);
	s.tx.wr.opcode = IBV_WR_SEND;
	s.rposted = p->rx_depth;
	s.rlimit = p->duration_s ? UINT64_MAX : p->iters;
	return rdp_lat_client(run, res, &pt_ping[run->side], &s);
}

/* At most half the send queue between signaled sends, so it never fills. */
static void decide(const struct rdp_bench_ops *ops, const struct rdp_params *p,
		   const struct rdp_conn *conn, struct rdp_decisions *d)
{
	(void)ops;
	d->window = p->tx_depth;
	d->signal_every = p->cq_mod ? p->cq_mod : 1;
	if (d->signal_every > p->tx_depth / 2 && p->tx_depth > 1)
		d->signal_every = p->tx_depth / 2;
	d->inline_used = p->size_bytes <= conn->max_inline_bytes;
}

const struct rdp_bench_ops rdp_bench_send_lat = {
	.name = "send_lat",
	.title = "SEND latency",
	.kind = RDP_BENCH_LAT,
	.verb = RDP_VERB_SEND,
	.lat_note = "one-way latency: half of each measured round trip",
	.lat_kind = RDP_LAT_ONE_WAY,
	.flags = RDP_BENCH_RECV | RDP_BENCH_INLINE | RDP_BENCH_UC |
		 RDP_BENCH_UD | RDP_BENCH_PINGPONG,
	.default_size = 2,
	.check_unit = "bytes verified after the run",
	.decide = decide,
	.validate = rdp_check_one_qp,
	.prepare = rdp_post_receives,
	.client = client,
	.server = server,
	.perftest = perftest,
	.verify = rdp_verify_both_rx,
};
