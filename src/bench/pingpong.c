/* SPDX-License-Identifier: BSD-2-Clause */
/* The ping-pong engine (WRITE and SEND latency): one message each way at a
 * time on QP 0, round trips stamped. One always-inline loop per role,
 * specialised into the variants of pingpong_int.h, chosen at set-up. */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <arpa/inet.h>
#include <infiniband/verbs.h>

#include "bench_int.h"
#include "pingpong_int.h"
#include <rdmaperf/clock.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/log.h>

/* Inlined even where the compiler would rather share one copy. */
#define HOT_INLINE inline __attribute__((always_inline))

/* WRITE marks a message with its tag in the last byte (0: stop), SEND
 * with its immediate value (1: stop). */
#define TAG_STOP 0
#define IMM_PING 0
#define IMM_STOP 1

/*
 * QP 0's sending half, one pre-built work request from the send slot, one
 * in sig_every signaled so that the send queue never fills; and what the
 * variant needs to see the peer's messages.
 */
struct pp_state {
	enum pp_variant v;
	struct ibv_qp *qp;
	struct ibv_cq *cq;
	struct ibv_send_wr wr;
	struct ibv_sge sge;
	unsigned int base_flags; /* IBV_SEND_INLINE when it fits */
	rdp_post_fn post;	 /* the API the QP was made for */
	uint64_t sig_every, tx_depth;
	uint64_t posted, retired;
	uint64_t last_signaled;	  /* unsignaled sends never complete alone */
	volatile uint8_t *rx_tag; /* WRITE: last byte of our receive slot */
	uint8_t *tx_tag;	  /* WRITE: last byte of our send slot */
	/* the receive each of the peer's messages consumes */
	struct ibv_recv_wr rwr;
	struct ibv_sge rsge;
	int (*repost)(struct pp_state *st); /* SEND: own or shared queue */
	struct ibv_srq *srq;
	uint64_t recvs, consumed; /* receive completions, of them taken */
	uint32_t last_imm;	  /* SEND: the last one's immediate value */
	int armed;		  /* -e: the CQ is armed for its next event */
	/* perftest's SEND peer: receives posted so far, and how many in all */
	uint64_t rposted, rlimit;
	uint64_t gap_cycles;   /* --latency_gap, the client's */
	const int *stop;       /* ends the client's loop (a signal) */
	uint64_t watch_cycles; /* silence before the peer's socket is asked */
};

static HOT_INLINE int is_write(const enum pp_variant v)
{
	return v == PP_WRITE || v == PP_WRITE_IMM || v == PP_PT_WRITE_FIRST ||
	       v == PP_PT_WRITE_REPLY;
}

static HOT_INLINE int is_perftest(const enum pp_variant v)
{
	return v >= PP_PT_WRITE_FIRST;
}

/* rdmaperf's SEND ping-pong: an immediate value in every message. */
static HOT_INLINE int has_imm(const enum pp_variant v)
{
	return v == PP_SEND || v == PP_SEND_EVENTS;
}

/* Does the peer's message arrive as a receive completion? */
static HOT_INLINE int receives(const enum pp_variant v)
{
	return v == PP_WRITE_IMM || !is_write(v);
}

static HOT_INLINE int sleeps(const enum pp_variant v)
{
	return v == PP_SEND_EVENTS;
}

/* The same variant, polling: outside the timed loop it never sleeps. */
static HOT_INLINE enum pp_variant polling(const enum pp_variant v)
{
	return v == PP_SEND_EVENTS ? PP_SEND : v;
}

/* The words of the failure lines. */
static HOT_INLINE const char *post_what(const enum pp_variant v)
{
	return is_write(v) ? "completion" : "send";
}

static const char *last_what(enum pp_variant v)
{
	return is_write(v) ? "completion of the last write"
			   : "completion of the last send";
}

static int repost_own(struct pp_state *st)
{
	struct ibv_recv_wr *bad;

	return ibv_post_recv(st->qp, &st->rwr, &bad);
}

static int repost_shared(struct pp_state *st)
{
	struct ibv_recv_wr *bad;

	return ibv_post_srq_recv(st->srq, &st->rwr, &bad);
}

/* A receive consumed: put it back (perftest's SEND peer: while fewer than
 * its cap are posted). */
static HOT_INLINE int repost(struct pp_state *st, const enum pp_variant v)
{
	struct ibv_recv_wr *bad;

	if (has_imm(v))
		return st->repost(st);
	if (is_perftest(v)) {
		if (st->rposted >= st->rlimit)
			return 0;
		st->rposted++;
	}
	return ibv_post_recv(st->qp, &st->rwr, &bad);
}

/* Take one completion, if any: 1 taken, 0 none, or -errno. A send's
 * retires the sends up to it; a receive counts the peer's message. */
static HOT_INLINE int poll_one(struct pp_state *st, const enum pp_variant v)
{
	struct ibv_wc wc;
	int n, ret;

	n = ibv_poll_cq(st->cq, 1, &wc);
	if (n <= 0)
		return n < 0 ? -EIO : 0;
	if (wc.status != IBV_WC_SUCCESS)
		return rdp_bench_wc_error(&wc);
	if (!receives(v) || !(wc.opcode & IBV_WC_RECV)) {
		st->retired = wc.wr_id;
		return 1;
	}
	st->recvs++;
	if (has_imm(v))
		st->last_imm = wc.wc_flags & IBV_WC_WITH_IMM
				       ? ntohl(wc.imm_data)
				       : IMM_PING;
	ret = repost(st, v);
	return ret ? -ret : 1;
}

/* A wait that has seen nothing for a while: 1 at perftest's deadline end,
 * -ETIMEDOUT once *t0 (0: this is the first look) is the stall time ago,
 * -ECONNRESET when, silent past the watch time, the peer's out-of-band
 * connection has closed; else 0. */
static HOT_INLINE int stalled(const struct rdp_run *run,
			      const struct pp_state *st, uint64_t *t0,
			      uint64_t end, const enum pp_variant v)
{
	uint64_t now = rdp_cycles();

	if (is_perftest(v) && now >= end)
		return 1;
	if (!*t0)
		*t0 = now;
	else if (now - *t0 > run->stall_cycles)
		return -ETIMEDOUT;
	else if (now - *t0 > st->watch_cycles &&
		 rdp_bench_peer_gone(run, now - *t0))
		return -ECONNRESET;
	return 0;
}

/*
 * Poll until *have reaches want: 0; 1 at perftest's deadline end; or
 * -errno (-ETIMEDOUT after the stall time, checked every few thousand
 * empty polls). -e: asleep on the completion channel while the CQ is empty.
 */
static HOT_INLINE int wait_count(struct rdp_run *run, struct pp_state *st,
				 const uint64_t *have, uint64_t want,
				 uint64_t end, const enum pp_variant v)
{
	unsigned int spins = 0;
	uint64_t t0 = 0;
	int ret;

	while (*have < want) {
		ret = poll_one(st, v);
		if (ret < 0)
			return ret;
		if (sleeps(v) && !ret) {
			ret = rdp_lat_sleep(run, &st->armed);
			if (ret)
				return ret;
			continue;
		}
		if (ret || (++spins & RDP_SPIN_CHECK_MASK))
			continue;
		ret = stalled(run, st, &t0, end, v);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * WRITE: spin on the last byte of the receive slot until it equals ref
 * (perftest's numbering) or differs from it (rdmaperf's tags); the CQ is
 * polled every few thousand spins so that a failed write is reported as
 * such rather than as silence. 0 with *tag, 1 at perftest's deadline, or
 * -errno.
 */
static HOT_INLINE int wait_tag(struct rdp_run *run, struct pp_state *st,
			       uint8_t ref, uint64_t end, uint8_t *tag,
			       const enum pp_variant v)
{
	unsigned int spins = 0;
	uint64_t t0 = 0;
	uint8_t got;
	int ret;

	for (;;) {
		got = __atomic_load_n(st->rx_tag, __ATOMIC_ACQUIRE);
		if (is_perftest(v) ? got == ref : got != ref)
			break;
		if (++spins & RDP_SPIN_CHECK_MASK)
			continue;
		ret = poll_one(st, v);
		if (ret >= 0)
			ret = stalled(run, st, &t0, end, v);
		if (ret)
			return ret;
	}
	*tag = got;
	return 0;
}

/* The peer's next message: *mark gets its tag (WRITE, read after its
 * receive completion with immediate data) or immediate value (SEND). */
static HOT_INLINE int wait_msg(struct rdp_run *run, struct pp_state *st,
			       uint32_t prev, uint32_t *mark,
			       const enum pp_variant v)
{
	uint8_t tag = 0;
	int ret;

	if (v == PP_WRITE) {
		ret = wait_tag(run, st, (uint8_t)prev, UINT64_MAX, &tag, v);
		*mark = tag;
		return ret;
	}
	ret = wait_count(run, st, &st->recvs, ++st->consumed, UINT64_MAX, v);
	*mark = is_write(v) ? __atomic_load_n(st->rx_tag, __ATOMIC_ACQUIRE)
			    : st->last_imm;
	return ret;
}

/* perftest's: the peer's n-th message (WRITE: its number in the last byte,
 * wrapping through 0). 0, 1 at the deadline end, or -errno. */
static HOT_INLINE int pt_wait(struct rdp_run *run, struct pp_state *st,
			      uint64_t n, uint64_t end, const enum pp_variant v)
{
	uint8_t tag;

	if (is_write(v))
		return wait_tag(run, st, (uint8_t)n, end, &tag, v);
	return wait_count(run, st, &st->recvs, n, end, v);
}

/* Number and post the next message with mark (WRITE: the tag in the last
 * byte; rdmaperf's SEND: the immediate value), once the send queue has
 * room; last: signaled whatever the interval. */
static HOT_INLINE int post_msg(struct rdp_run *run, struct pp_state *st,
			       uint32_t mark, int last, const enum pp_variant v)
{
	struct ibv_send_wr *bad;
	int ret;

	if (st->posted - st->retired >= st->tx_depth) {
		ret = wait_count(run, st, &st->retired, st->last_signaled,
				 UINT64_MAX, v);
		if (ret)
			return ret;
	}
	if (is_write(v))
		*st->tx_tag = (uint8_t)mark;
	else if (has_imm(v))
		st->wr.imm_data = htonl(mark);
	st->posted++;
	st->wr.wr_id = st->posted;
	st->wr.send_flags = st->base_flags;
	if (st->posted % st->sig_every == 0 || last) {
		st->wr.send_flags |= IBV_SEND_SIGNALED;
		st->last_signaled = st->posted;
	}
	ret = st->post(st->qp, &st->wr, &bad);
	return ret ? -ret : 0;
}

/* Every signaled send seen through, polling. */
static HOT_INLINE int drain(struct rdp_run *run, struct pp_state *st,
			    const enum pp_variant v)
{
	return wait_count(run, st, &st->retired, st->last_signaled, UINT64_MAX,
			  polling(v));
}

/* The loops do not log: a failure is told here, with the QP and how far
 * the loop got. */
static int fail(struct rdp_run *run, const struct pp_state *st, int ret,
		const char *what)
{
	return rdp_lat_fail(run, st->qp->qp_num,
			    is_write(st->v) ? st->posted : st->consumed, ret,
			    what);
}

/* rdmaperf's client: ping, wait for the echo, stamp; nothing else. With
 * `gap` (--latency_gap, constant per caller) a pause before each ping, on
 * a clock stopped during it. */
static HOT_INLINE int ping_loop(struct rdp_run *run, struct pp_state *st,
				uint64_t *stamps, uint64_t total, uint64_t end,
				uint64_t *done, const enum pp_variant v,
				const int gap)
{
	uint32_t mark, got = 0;
	uint64_t i, now, paused = 0;
	int ret;

	for (i = 0; i < total; i++) {
		if (gap)
			paused += rdp_lat_pause(st->gap_cycles);
		mark = is_write(v) ? (uint32_t)(i % 255 + 1) : IMM_PING;
		ret = post_msg(run, st, mark, 0, v);
		if (ret)
			return fail(run, st, ret, post_what(v));
		ret = wait_msg(run, st, got, &got, v);
		now = rdp_cycles();
		stamps[i + 1] = gap ? now - paused : now;
		if (ret)
			return fail(run, st, ret, "reply");
		if (is_write(v) && got != mark)
			return fail(run, st, -EPROTO, "matching reply");
		/* -D's deadline, or a signal: the same end */
		if (now >= end || __atomic_load_n(st->stop, __ATOMIC_RELAXED)) {
			i++;
			break;
		}
	}
	*done = i;
	return 0;
}

/* rdmaperf's server: echo every ping (WRITE: its tag) until the stop. */
static HOT_INLINE int echo_loop(struct rdp_run *run, struct pp_state *st,
				const enum pp_variant v)
{
	uint32_t got = 0;
	int ret;

	for (;;) {
		ret = wait_msg(run, st, got, &got, v);
		if (ret)
			return fail(run, st, ret, "ping");
		if (got == (is_write(v) ? TAG_STOP : IMM_STOP))
			break;
		ret = post_msg(run, st, is_write(v) ? got : IMM_PING, 0, v);
		if (ret)
			return fail(run, st, ret, post_what(v));
	}
	ret = drain(run, st, v);
	return ret ? fail(run, st, ret, "completion") : 0;
}

/*
 * perftest's exchanges from message 1 on: post n, wait for the peer's
 * n + lead (lead 1: the side that replies has the first already), stamp
 * into stamps[n]. With `gap` (--latency_gap, constant per caller) a pause
 * before each post, as perftest's own, on a clock stopped during it.
 * *done the exchanges that count; late names what did not come. 0 or
 * -errno (logged).
 */
static HOT_INLINE int pt_exchanges(struct rdp_run *run, struct pp_state *st,
				   uint64_t *stamps, uint64_t total,
				   uint64_t end, uint64_t *done, uint64_t lead,
				   const char *late, const enum pp_variant v,
				   const int gap)
{
	uint64_t i, now, paused = 0;
	int ret;

	for (i = 0; i + lead < total; i++) {
		if (gap)
			paused += rdp_lat_pause(st->gap_cycles);
		ret = post_msg(run, st, (uint32_t)(i + 1), 0, v);
		if (ret)
			return fail(run, st, ret, post_what(v));
		ret = pt_wait(run, st, i + 1 + lead, end, v);
		if (ret < 0)
			return fail(run, st, ret, late);
		if (ret)
			break;
		now = rdp_cycles();
		stamps[i + 1] = gap ? now - paused : now;
		if (now >= end) {
			i++;
			break;
		}
	}
	*done = i;
	return 0;
}

/* perftest's side that posts first: message n out, the peer's n back,
 * stamp. */
static HOT_INLINE int pt_first_loop(struct rdp_run *run, struct pp_state *st,
				    uint64_t *stamps, uint64_t total,
				    uint64_t end, uint64_t *done,
				    const enum pp_variant v, const int gap)
{
	return pt_exchanges(run, st, stamps, total, end, done, 0, "reply", v,
			    gap);
}

/* perftest's side that replies: the peer's first message starts the
 * clock; then reply n, wait for its n + 1. The last reply goes out in
 * pt_close. */
static HOT_INLINE int pt_reply_loop(struct rdp_run *run, struct pp_state *st,
				    uint64_t *stamps, uint64_t total,
				    uint64_t end, uint64_t *done,
				    const enum pp_variant v, const int gap)
{
	int ret;

	*done = 0;
	ret = pt_wait(run, st, 1, end, v);
	if (ret)
		return ret < 0 ? fail(run, st, ret,
				      is_write(v) ? "first write"
						  : "first send")
			       : 0;
	stamps[0] = rdp_cycles();
	return pt_exchanges(run, st, stamps, total, end, done, 1,
			    is_write(v) ? "reply" : "ping", v, gap);
}

typedef int (*pp_timed_fn)(struct rdp_run *run, void *state, uint64_t *stamps,
			   uint64_t total, uint64_t end, uint64_t *done);

/* perftest's sequence, without a gap and with --latency_gap. */
#define TIMED(name, loop, variant, gap)                                        \
	static int name(struct rdp_run *run, void *state, uint64_t *stamps,    \
			uint64_t total, uint64_t end, uint64_t *done)          \
	{                                                                      \
		return loop(run, state, stamps, total, end, done, variant,     \
			    gap);                                              \
	}
/* rdmaperf's ping, without a gap and with --latency_gap. */
#define PING(name, variant, gap)                                               \
	static int name(struct rdp_run *run, void *state, uint64_t *stamps,    \
			uint64_t total, uint64_t end, uint64_t *done)          \
	{                                                                      \
		return ping_loop(run, state, stamps, total, end, done,         \
				 variant, gap);                                \
	}

PING(ping_loop_write, PP_WRITE, 0)
PING(ping_loop_write_imm, PP_WRITE_IMM, 0)
PING(ping_loop_send, PP_SEND, 0)
PING(ping_loop_send_events, PP_SEND_EVENTS, 0)
PING(ping_loop_write_gap, PP_WRITE, 1)
PING(ping_loop_write_imm_gap, PP_WRITE_IMM, 1)
PING(ping_loop_send_gap, PP_SEND, 1)
PING(ping_loop_send_events_gap, PP_SEND_EVENTS, 1)
TIMED(pt_first_loop_write, pt_first_loop, PP_PT_WRITE_FIRST, 0)
TIMED(pt_reply_loop_write, pt_reply_loop, PP_PT_WRITE_REPLY, 0)
TIMED(pt_first_loop_send, pt_first_loop, PP_PT_SEND_FIRST, 0)
TIMED(pt_reply_loop_send, pt_reply_loop, PP_PT_SEND_REPLY, 0)
TIMED(pt_first_loop_write_gap, pt_first_loop, PP_PT_WRITE_FIRST, 1)
TIMED(pt_reply_loop_write_gap, pt_reply_loop, PP_PT_WRITE_REPLY, 1)
TIMED(pt_first_loop_send_gap, pt_first_loop, PP_PT_SEND_FIRST, 1)
TIMED(pt_reply_loop_send_gap, pt_reply_loop, PP_PT_SEND_REPLY, 1)

/* The stamping side's loop of each variant. */
static const pp_timed_fn timed_loops[PP_VARIANTS] = {
	[PP_WRITE] = ping_loop_write,
	[PP_WRITE_IMM] = ping_loop_write_imm,
	[PP_SEND] = ping_loop_send,
	[PP_SEND_EVENTS] = ping_loop_send_events,
	[PP_PT_WRITE_FIRST] = pt_first_loop_write,
	[PP_PT_WRITE_REPLY] = pt_reply_loop_write,
	[PP_PT_SEND_FIRST] = pt_first_loop_send,
	[PP_PT_SEND_REPLY] = pt_reply_loop_send,
};

/* --latency_gap: rdmaperf's client pauses before each ping; facing a
 * perftest peer, before each message it posts, as perftest does (the
 * pause is each side's own: nothing of it goes on the wire). */
static const pp_timed_fn gap_loops[PP_VARIANTS] = {
	[PP_WRITE] = ping_loop_write_gap,
	[PP_WRITE_IMM] = ping_loop_write_imm_gap,
	[PP_SEND] = ping_loop_send_gap,
	[PP_SEND_EVENTS] = ping_loop_send_events_gap,
	[PP_PT_WRITE_FIRST] = pt_first_loop_write_gap,
	[PP_PT_WRITE_REPLY] = pt_reply_loop_write_gap,
	[PP_PT_SEND_FIRST] = pt_first_loop_send_gap,
	[PP_PT_SEND_REPLY] = pt_reply_loop_send_gap,
};

typedef int (*pp_echo_fn)(struct rdp_run *run, struct pp_state *st);

#define ECHO(name, variant)                                                    \
	static int name(struct rdp_run *run, struct pp_state *st)              \
	{                                                                      \
		return echo_loop(run, st, variant);                            \
	}

ECHO(echo_loop_write, PP_WRITE)
ECHO(echo_loop_write_imm, PP_WRITE_IMM)
ECHO(echo_loop_send, PP_SEND)
ECHO(echo_loop_send_events, PP_SEND_EVENTS)

/* rdmaperf's server side of each variant. */
static const pp_echo_fn echo_loops[PP_VARIANTS] = {
	[PP_WRITE] = echo_loop_write,
	[PP_WRITE_IMM] = echo_loop_write_imm,
	[PP_SEND] = echo_loop_send,
	[PP_SEND_EVENTS] = echo_loop_send_events,
};

/* rdmaperf's client, after the clock: tell the server to stop, and see
 * that message through (polling, -e or not). */
static int ping_close(struct rdp_run *run, void *state, uint64_t done, int ret)
{
	struct pp_state *st = state;
	enum pp_variant v = polling(st->v);

	(void)done;
	if (ret) /* the loop has told its failure */
		return ret;
	ret = post_msg(run, st, is_write(v) ? TAG_STOP : IMM_STOP, 1, v);
	if (!ret)
		ret = drain(run, st, v);
	return ret ? fail(run, st, ret, last_what(v)) : 0;
}

/* perftest's: the replying side's last message answers the first
 * side's last (with -n; under -D the peer stops by its own clock and
 * expects nothing), then every signaled message is seen through. */
static int pt_close(struct rdp_run *run, void *state, uint64_t done, int ret)
{
	struct pp_state *st = state;
	enum pp_variant v = st->v;

	if (ret) /* the loop has told its failure */
		return ret;
	if ((v == PP_PT_WRITE_REPLY || v == PP_PT_SEND_REPLY) &&
	    !run->params->duration_s)
		ret = post_msg(run, st, (uint32_t)(done + 1), 1, v);
	if (!ret)
		ret = drain(run, st, v);
	return ret ? fail(run, st, ret, last_what(v)) : 0;
}

enum pp_variant rdp_pp_variant(const struct rdp_bench_ops *ops,
			       const struct rdp_params *p, enum rdp_side side,
			       int counted, int events)
{
	if (ops->verb == RDP_VERB_WRITE) {
		if (counted)
			return side == RDP_SIDE_SERVER ? PP_PT_WRITE_FIRST
						       : PP_PT_WRITE_REPLY;
		return p->flags & RDP_PARAM_WRITE_IMM ? PP_WRITE_IMM : PP_WRITE;
	}
	if (counted)
		return side == RDP_SIDE_CLIENT ? PP_PT_SEND_FIRST
					       : PP_PT_SEND_REPLY;
	return events ? PP_SEND_EVENTS : PP_SEND;
}

static enum ibv_wr_opcode pp_opcode(enum pp_variant v,
				    const struct rdp_params *p)
{
	if (is_write(v))
		return p->flags & RDP_PARAM_WRITE_IMM
			       ? IBV_WR_RDMA_WRITE_WITH_IMM
			       : IBV_WR_RDMA_WRITE;
	return has_imm(v) ? IBV_WR_SEND_WITH_IMM : IBV_WR_SEND;
}

/* QP 0's send slot into its peer, as run->dec decided; the receive slot
 * where the peer's messages land. */
static void pp_setup(const struct rdp_run *run, struct pp_state *st,
		     enum pp_variant v)
{
	const struct rdp_conn *conn = run->conn;
	const struct rdp_params *p = run->params;

	memset(st, 0, sizeof(*st));
	st->v = v;
	st->qp = conn->qps[0];
	st->cq = conn->cq;
	st->sge.addr = (uint64_t)(uintptr_t)rdp_conn_tx(conn, 0);
	st->sge.length = (uint32_t)p->size_bytes;
	st->sge.lkey = rdp_conn_lkey(conn, 0);
	st->wr.sg_list = &st->sge;
	st->wr.num_sge = 1;
	st->wr.opcode = pp_opcode(v, p);
	rdp_conn_send_dest(conn, 0, &st->wr);
	if (run->dec.inline_used)
		st->base_flags = IBV_SEND_INLINE;
	st->post = rdp_post_pick(conn, st->wr.opcode, run->dec.inline_used);
	st->stop = rdp_bench_stop_word(run);
	st->watch_cycles = rdp_bench_watch_cycles(run);
	st->tx_depth = run->dec.window;
	st->sig_every = run->dec.signal_every;
	rdp_recv_wr(run, 0, &st->rwr, &st->rsge);
	st->srq = conn->srq;
	st->repost = st->srq ? repost_shared : repost_own;
	if (is_write(v)) {
		st->wr.wr.rdma.remote_addr = conn->remote[0].addr;
		st->wr.wr.rdma.rkey = conn->remote[0].rkey;
		st->rx_tag = rdp_conn_rx(conn, 0) + p->size_bytes - 1;
		st->tx_tag = rdp_conn_tx(conn, 0) + p->size_bytes - 1;
	} else if (is_perftest(v)) {
		/* Like perftest, at most -n receives per size: the receive
		 * queue is empty when a size ends, so the next, larger size
		 * never lands in a smaller receive. */
		st->rposted = p->rx_depth;
		st->rlimit = p->duration_s ? UINT64_MAX : p->iters;
	}
}

int rdp_pingpong(struct rdp_run *run, struct rdp_result *res)
{
	enum pp_variant v = rdp_pp_variant(run->ops, run->params, run->side,
					   run->counted_pingpong,
					   run->conn->channel != NULL);
	struct rdp_lat_loop loop;
	struct pp_state st;

	pp_setup(run, &st, v);
	if (run->side == RDP_SIDE_SERVER && !is_perftest(v))
		return echo_loops[v](run, &st);
	st.gap_cycles = rdp_lat_gap_cycles(run);
	loop.timed = st.gap_cycles && gap_loops[v] ? gap_loops[v]
						   : timed_loops[v];
	loop.close = is_perftest(v) ? pt_close : ping_close;
	return rdp_lat_client(run, res, &loop, &st);
}
