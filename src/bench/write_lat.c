/* SPDX-License-Identifier: BSD-2-Clause */
/* RDMA WRITE latency: ping-pong of writes, each side polling the last byte
 * of its receive slot (with --write_with_imm, waiting for the receive
 * completion each write brings, then reading it); one-way latency is half
 * the round trip. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <infiniband/verbs.h>

#include "bench_int.h"
#include <rdmaperf/clock.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/log.h>

#define TAG_STOP 0

struct lat_state {
	struct rdp_lat_tx tx;
	volatile uint8_t *rx_tag; /* last byte of our receive slot */
	uint8_t *tx_tag;	  /* last byte of our send slot */
	/* --write_with_imm: the receive each peer write consumes */
	struct ibv_recv_wr rwr;
	struct ibv_sge rsge;
	uint64_t recvs, consumed;
};

static void setup(const struct rdp_run *run, struct lat_state *ls)
{
	const struct rdp_conn *conn = run->conn;
	uint64_t last = run->params->size_bytes - 1;

	memset(ls, 0, sizeof(*ls));
	rdp_lat_tx_setup(run, &ls->tx,
			 run->params->flags & RDP_PARAM_WRITE_IMM
				 ? IBV_WR_RDMA_WRITE_WITH_IMM
				 : IBV_WR_RDMA_WRITE);
	rdp_recv_wr(run, 0, &ls->rwr, &ls->rsge);
	ls->tx.wr.wr.rdma.remote_addr = conn->remote[0].addr;
	ls->tx.wr.wr.rdma.rkey = conn->remote[0].rkey;
	ls->rx_tag = rdp_conn_rx(conn, 0) + last;
	ls->tx_tag = rdp_conn_tx(conn, 0) + last;
}

/* Reap a completion: wait (bounded) only when asked to block. With
 * immediate data (`imm`, constant per caller) a receive completion counts
 * the peer's write and its receive goes back. */
static inline int reap(struct rdp_run *run, struct lat_state *ls, int block,
		       const int imm)
{
	struct ibv_recv_wr *bad;
	uint64_t t0 = 0;
	struct ibv_wc wc;
	int n;

	for (;;) {
		n = ibv_poll_cq(ls->tx.cq, 1, &wc);
		if (n > 0) {
			if (wc.status != IBV_WC_SUCCESS)
				return rdp_bench_wc_error(&wc);
			if (imm && (wc.opcode & IBV_WC_RECV)) {
				ls->recvs++;
				n = ibv_post_recv(ls->tx.qp, &ls->rwr, &bad);
				return n ? -n : 0;
			}
			ls->tx.retired = wc.wr_id;
			return 0;
		}
		if (n < 0)
			return -EIO;
		if (!block)
			return 0;
		if (!t0)
			t0 = rdp_cycles();
		else if (rdp_cycles() - t0 > run->stall_cycles)
			return -ETIMEDOUT;
	}
}

/* Write tag; last: signaled, whatever the interval. */
static inline int post_as(struct rdp_run *run, struct lat_state *ls,
			  uint8_t tag, int last, const int imm)
{
	int ret;

	while (ls->tx.posted - ls->tx.retired >= ls->tx.tx_depth) {
		ret = reap(run, ls, 1, imm);
		if (ret)
			return ret;
	}
	*ls->tx_tag = tag;
	return rdp_lat_tx_post(&ls->tx, last);
}

static inline int post(struct rdp_run *run, struct lat_state *ls, uint8_t tag,
		       const int imm)
{
	return post_as(run, ls, tag, tag == TAG_STOP, imm);
}

/* Spin until the receive tag differs from `not`; bounded by the stall
 * timeout, checked every few thousand spins, with the CQ polled then so a
 * failed write is reported as such rather than as silence. */
static inline int wait_tag(struct rdp_run *run, struct lat_state *ls,
			   uint8_t not, uint8_t *tag)
{
	uint64_t t0 = 0;
	unsigned int spins = 0;
	uint8_t v;
	int ret;

	while ((v = __atomic_load_n(ls->rx_tag, __ATOMIC_ACQUIRE)) == not ) {
		if (++spins & RDP_SPIN_CHECK_MASK)
			continue;
		ret = reap(run, ls, 0, 0);
		if (ret)
			return ret;
		if (!t0)
			t0 = rdp_cycles();
		else if (rdp_cycles() - t0 > run->stall_cycles)
			return -ETIMEDOUT;
	}
	*tag = v;
	return 0;
}

/* --write_with_imm: wait for the receive completion of the peer's next
 * write, then read its tag, which the write put in place before it. */
static inline int wait_imm(struct rdp_run *run, struct lat_state *ls,
			   uint8_t *tag)
{
	uint64_t t0 = 0;
	unsigned int spins = 0;
	int ret;

	while (ls->recvs <= ls->consumed) {
		ret = reap(run, ls, 0, 1);
		if (ret)
			return ret;
		if (++spins & RDP_SPIN_CHECK_MASK)
			continue;
		if (!t0)
			t0 = rdp_cycles();
		else if (rdp_cycles() - t0 > run->stall_cycles)
			return -ETIMEDOUT;
	}
	ls->consumed++;
	*tag = __atomic_load_n(ls->rx_tag, __ATOMIC_ACQUIRE);
	return 0;
}

/* The wait for the peer's next tag: memory, or its completion (imm). */
static inline int wait_next(struct rdp_run *run, struct lat_state *ls,
			    uint8_t prev, uint8_t *tag, const int imm)
{
	return imm ? wait_imm(run, ls, tag) : wait_tag(run, ls, prev, tag);
}

static int fail(struct rdp_run *run, const struct lat_state *ls, int ret,
		const char *what)
{
	return rdp_lat_fail(run, ls->tx.qp->qp_num, ls->tx.posted, ret, what);
}

/* The timed loop: stamp after each round trip; nothing else. */
static inline int ping_loop(struct rdp_run *run, void *state, uint64_t *stamps,
			    uint64_t total, uint64_t end, uint64_t *done,
			    const int imm)
{
	struct lat_state *ls = state;
	uint8_t tag, prev = 0;
	uint64_t i;
	int ret;

	for (i = 0; i < total; i++) {
		tag = (uint8_t)(i % 255 + 1);
		ret = post(run, ls, tag, imm);
		if (ret)
			return fail(run, ls, ret, "completion");
		ret = wait_next(run, ls, prev, &prev, imm);
		if (ret)
			return fail(run, ls, ret, "reply");
		stamps[i + 1] = rdp_cycles();
		if (prev != tag)
			return fail(run, ls, -EPROTO, "matching reply");
		if (stamps[i + 1] >= end) {
			i++;
			break;
		}
	}
	*done = i;
	return 0;
}

static int ping_loop_mem(struct rdp_run *run, void *state, uint64_t *stamps,
			 uint64_t total, uint64_t end, uint64_t *done)
{
	return ping_loop(run, state, stamps, total, end, done, 0);
}

static int ping_loop_imm(struct rdp_run *run, void *state, uint64_t *stamps,
			 uint64_t total, uint64_t end, uint64_t *done)
{
	return ping_loop(run, state, stamps, total, end, done, 1);
}

/* Tell the server to stop, and see that write through. */
static int ping_close(struct rdp_run *run, void *state, uint64_t done, int ret)
{
	struct lat_state *ls = state;
	int imm = !!(run->params->flags & RDP_PARAM_WRITE_IMM);

	(void)done;
	if (!ret)
		ret = post(run, ls, TAG_STOP, imm);
	while (!ret && ls->tx.retired < ls->tx.last_signaled)
		ret = reap(run, ls, 1, imm);
	return ret ? fail(run, ls, ret, "completion of the last write") : 0;
}

static const struct rdp_lat_loop ping = {
	.timed = ping_loop_mem,
	.close = ping_close,
};

static const struct rdp_lat_loop ping_imm = {
	.timed = ping_loop_imm,
	.close = ping_close,
};

static int client(struct rdp_run *run, struct rdp_result *res)
{
	struct lat_state ls;

	setup(run, &ls);
	return rdp_lat_client(
		run, res,
		run->params->flags & RDP_PARAM_WRITE_IMM ? &ping_imm : &ping,
		&ls);
}

/* Echo every tag back until the stop tag arrives. */
static inline int echo(struct rdp_run *run, struct lat_state *ls, const int imm)
{
	uint8_t prev = 0, tag;
	int ret;

	for (;;) {
		ret = wait_next(run, ls, prev, &tag, imm);
		if (ret)
			return fail(run, ls, ret, "ping");
		if (tag == TAG_STOP)
			break;
		ret = post(run, ls, tag, imm);
		if (ret)
			return fail(run, ls, ret, "completion");
		prev = tag;
	}
	while (ls->tx.retired < ls->tx.last_signaled) {
		ret = reap(run, ls, 1, imm);
		if (ret)
			return fail(run, ls, ret, "completion");
	}
	return 0;
}

static int server(struct rdp_run *run, struct rdp_result *res)
{
	struct lat_state ls;

	(void)res;
	setup(run, &ls);
	return run->params->flags & RDP_PARAM_WRITE_IMM ? echo(run, &ls, 1)
							: echo(run, &ls, 0);
}

/* --write_with_imm: both sides receive a completion per write. */
static int prepare(struct rdp_run *run)
{
	return run->params->flags & RDP_PARAM_WRITE_IMM ? rdp_post_receives(run)
							: 0;
}

/*
 * perftest's ping-pong (doc/perftest-protocol.md 5.3): its server writes
 * first; each side numbers its own writes 1, 2, ... in the last byte
 * (wrapping through 0) and waits for the peer's number; exactly -n writes
 * each way and no stop message; with -D each side stops at its own
 * deadline, so a wait ends there too. Returns 0 when want arrived, 1 at
 * the deadline, or -errno.
 */
static inline int pt_wait(struct rdp_run *run, struct lat_state *ls,
			  uint8_t want, uint64_t end)
{
	unsigned int spins = 0;
	uint64_t t0 = 0, now;
	int ret;

	while (__atomic_load_n(ls->rx_tag, __ATOMIC_ACQUIRE) != want) {
		if (++spins & RDP_SPIN_CHECK_MASK)
			continue;
		ret = reap(run, ls, 0, 0);
		if (ret)
			return ret;
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

/* As perftest's client: the server's first write starts the clock; then
 * write n, wait for its n + 1. The last write goes out in pt_close. */
static int pt_loop_client(struct rdp_run *run, void *state, uint64_t *stamps,
			  uint64_t total, uint64_t end, uint64_t *done)
{
	struct lat_state *ls = state;
	uint64_t i = 0;
	int ret;

	*done = 0;
	ret = pt_wait(run, ls, 1, end);
	if (ret)
		return ret < 0 ? fail(run, ls, ret, "first write") : 0;
	stamps[0] = rdp_cycles();
	for (; i + 1 < total; i++) {
		ret = post_as(run, ls, (uint8_t)(i + 1), 0, 0);
		if (ret)
			return fail(run, ls, ret, "completion");
		ret = pt_wait(run, ls, (uint8_t)(i + 2), end);
		if (ret < 0)
			return fail(run, ls, ret, "reply");
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

/* As perftest's server: write n, wait for the client's n. */
static int pt_loop_server(struct rdp_run *run, void *state, uint64_t *stamps,
			  uint64_t total, uint64_t end, uint64_t *done)
{
	struct lat_state *ls = state;
	uint64_t i;
	int ret;

	for (i = 0; i < total; i++) {
		ret = post_as(run, ls, (uint8_t)(i + 1), 0, 0);
		if (ret)
			return fail(run, ls, ret, "completion");
		ret = pt_wait(run, ls, (uint8_t)(i + 1), end);
		if (ret < 0)
			return fail(run, ls, ret, "reply");
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

/* The client's last write answers the server's last (with -n; under -D
 * the peer stops by its own clock and expects nothing), then every
 * signaled write is seen through. */
static int pt_close(struct rdp_run *run, void *state, uint64_t done, int ret)
{
	struct lat_state *ls = state;

	if (!ret && run->side == RDP_SIDE_CLIENT && !run->params->duration_s)
		ret = post_as(run, ls, (uint8_t)(done + 1), 1, 0);
	while (!ret && ls->tx.retired < ls->tx.last_signaled)
		ret = reap(run, ls, 1, 0);
	return ret ? fail(run, ls, ret, "completion of the last write") : 0;
}

static const struct rdp_lat_loop pt_ping[] = {
	[RDP_SIDE_CLIENT] = { .timed = pt_loop_client,
			      .close = pt_close, },
	[RDP_SIDE_SERVER] = { .timed = pt_loop_server,
			      .close = pt_close, },
};

static int perftest(struct rdp_run *run, struct rdp_result *res)
{
	struct lat_state ls;

	setup(run, &ls);
	return rdp_lat_client(run, res, &pt_ping[run->side], &ls);
}

/* Signal often enough that the send queue never fills. */
static void decide(const struct rdp_bench_ops *ops, const struct rdp_params *p,
		   const struct rdp_conn *conn, struct rdp_decisions *d)
{
	(void)ops;
	d->window = p->tx_depth;
	d->signal_every = p->tx_depth / 2 ? p->tx_depth / 2 : 1;
	if (p->cq_mod && p->cq_mod < d->signal_every)
		d->signal_every = p->cq_mod;
	d->inline_used = p->size_bytes <= conn->max_inline_bytes;
}

const struct rdp_bench_ops rdp_bench_write_lat = {
	.name = "write_lat",
	.title = "RDMA WRITE latency",
	.kind = RDP_BENCH_LAT,
	.verb = RDP_VERB_WRITE,
	.flags = RDP_BENCH_INLINE | RDP_BENCH_CPU_POLL | RDP_BENCH_UC |
		 RDP_BENCH_PINGPONG,
	.lat_note = "one-way latency: half of each measured round trip",
	.lat_kind = RDP_LAT_ONE_WAY,
	.default_size = 2,
	.tail_bytes = 1,
	.check_unit = "bytes verified after the run",
	.decide = decide,
	.validate = rdp_check_one_qp,
	.prepare = prepare,
	.client = client,
	.server = server,
	.perftest = perftest,
	.verify = rdp_verify_both_rx,
};
