/* SPDX-License-Identifier: BSD-2-Clause */
/* The bandwidth engine: the client keeps a window of work requests in
 * flight on every QP and samples progress; SEND servers keep receiving. */
#include <endian.h>
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_int.h"
#include <rdmaperf/clock.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/log.h>
#include <rdmaperf/measure.h>
#include <rdmaperf/stage.h>

#define POST_BATCH	32
#define POLL_BATCH	32
#define WRID_QP_SHIFT	40
#define WRID_COUNT_MASK ((1ull << WRID_QP_SHIFT) - 1)
#define SAMPLE_GRID_MAX 65536
#define IDLE_CHECK_MASK 0xfffu
/* Inlined even where the compiler would rather share one copy. */
#define HOT_INLINE inline __attribute__((always_inline))

/* Loop variants, picked once at setup. The loop body and everything it
 * calls per work request are always inlined into one function per
 * variant, where the variant is a constant: each is compiled without the
 * others' work (tests/check-hotloop.sh reads the object code to keep it
 * so). */
enum bw_variant {
	BW_PLAIN,
	BW_ATOMIC,	  /* operands per work request */
	BW_STAGE_OUT,	  /* --bounce: GPU -> host copy before each post */
	BW_STAGE_IN,	  /* --bounce: host -> GPU copy after each completion */
	BW_EVENTS,	  /* -e: sleep on the completion channel when idle */
	BW_ATOMIC_EVENTS, /* both */
	BW_PACED,	  /* --rate_limit in software: post when allowed */
	BW_ATOMIC_PACED,  /* both */
	BW_LIVE,	  /* --run_infinitely: record, stop on a flag */
	BW_ATOMIC_LIVE,	  /* both */
	BW_DUPLEX,	  /* send_bw -b: also take the peer's SENDs */
};

static HOT_INLINE int has_operands(const enum bw_variant v)
{
	return v == BW_ATOMIC || v == BW_ATOMIC_EVENTS ||
	       v == BW_ATOMIC_PACED || v == BW_ATOMIC_LIVE;
}

static HOT_INLINE int duplex(const enum bw_variant v)
{
	return v == BW_DUPLEX;
}

static HOT_INLINE int live(const enum bw_variant v)
{
	return v == BW_LIVE || v == BW_ATOMIC_LIVE;
}

/* Live: has the run been told to end? */
static HOT_INLINE int live_stopped(const struct rdp_run *run,
				   const enum bw_variant v)
{
	return live(v) && __atomic_load_n(&run->live->stop, __ATOMIC_RELAXED);
}

static HOT_INLINE int paced(const enum bw_variant v)
{
	return v == BW_PACED || v == BW_ATOMIC_PACED;
}

static HOT_INLINE int sleeps(const enum bw_variant v)
{
	return v == BW_EVENTS || v == BW_ATOMIC_EVENTS;
}

struct bw_qp {
	struct ibv_qp *qp;
	struct ibv_send_wr wr[POST_BATCH];
	struct ibv_sge sge;
	uint64_t posted;
	uint64_t completed; /* up to the last signaled completion */
	uint64_t last_signaled;
	uint64_t limit; /* messages to post; UINT64_MAX: until time */
	uint64_t id;	/* QP index, pre-shifted into wr_id */
};

struct bw_state {
	struct bw_qp *qps;
	uint32_t num_qps;
	uint32_t window;	 /* work requests in flight per QP */
	uint32_t batch;		 /* work requests chained per post (-l) */
	unsigned int base_flags; /* IBV_SEND_INLINE when it fits */
	uint32_t cq_mod;
	uint64_t msg_bytes;
	uint64_t target_msgs; /* UINT64_MAX in duration mode */
	uint64_t end_cycles;  /* UINT64_MAX in iteration mode */
	uint64_t sample_step; /* cycles between samples; 0: every poll */
	uint64_t add_base;    /* atomics: compare_add = base + (n-1)*step */
	uint64_t add_step;
	/* software pacing: one message (all QPs) per pace_cycles / 1024 */
	uint64_t pace_cycles;
	uint64_t pace_start;
	uint64_t posted_all;
	uint32_t next_qp; /* whose turn the next message is */
	/* send_bw -b: each QP's receive, what came, the peer's end marks */
	struct ibv_recv_wr *rwrs;
	struct ibv_sge *rsges;
	uint64_t rx_got;
	uint32_t marks_in;
	struct rdp_bw_sample *samples;
	size_t nsamples, cap;
	uint64_t done;
	uint64_t last_cycles; /* time of the last completion */
	enum bw_variant variant;
	const struct rdp_stage *stage; /* --bounce, else NULL */
};

static void setup_wr(struct ibv_send_wr *wr, struct ibv_sge *sge,
		     const struct rdp_run *run, uint32_t q, enum rdp_verb verb)
{
	const struct rdp_conn *conn = run->conn;
	const struct rdp_qp_info *r = &conn->remote[q];
	int cas = !!(run->params->flags & RDP_PARAM_CAS);
	int imm = !!(run->params->flags &
		     (RDP_PARAM_WRITE_IMM | RDP_PARAM_SEND_IMM));

	wr->sg_list = sge;
	wr->imm_data = htobe32(q); /* the sending QP's index */
	wr->num_sge = 1;
	switch (verb) {
	case RDP_VERB_WRITE:
	case RDP_VERB_READ:
		wr->opcode = verb == RDP_VERB_READ ? IBV_WR_RDMA_READ
			     : imm		   ? IBV_WR_RDMA_WRITE_WITH_IMM
						   : IBV_WR_RDMA_WRITE;
		wr->wr.rdma.remote_addr = r->addr;
		wr->wr.rdma.rkey = r->rkey;
		break;
	case RDP_VERB_SEND:
		wr->opcode = imm ? IBV_WR_SEND_WITH_IMM : IBV_WR_SEND;
		break;
	case RDP_VERB_ATOMIC:
		wr->opcode = cas ? IBV_WR_ATOMIC_CMP_AND_SWP
				 : IBV_WR_ATOMIC_FETCH_AND_ADD;
		wr->wr.atomic.remote_addr = r->addr;
		wr->wr.atomic.rkey = r->rkey;
		wr->wr.atomic.compare_add = 1;
		break;
	}
	rdp_conn_send_dest(conn, q, wr);
}

/* Where a verb's local data lives: sources in the send slot, READ's data
 * in the receive slot; an atomic's fetched value goes to the send slot,
 * which it does not otherwise use, so that under -b it never lands on the
 * counter the peer's atomics work on. */
static void setup_sge(struct ibv_sge *sge, const struct rdp_run *run,
		      uint32_t q, enum rdp_verb verb)
{
	const struct rdp_conn *conn = run->conn;
	int into_rx = verb == RDP_VERB_READ;

	sge->addr = (uint64_t)(uintptr_t)(into_rx ? rdp_conn_rx(conn, q)
						  : rdp_conn_tx(conn, q));
	sge->length =
		verb == RDP_VERB_ATOMIC ? 8 : (uint32_t)run->params->size_bytes;
	sge->lkey = rdp_conn_lkey(conn, q);
}

static void setup_qp(struct bw_qp *b, const struct rdp_run *run, uint32_t q,
		     uint64_t limit, enum rdp_verb verb)
{
	int i;

	b->qp = run->conn->qps[q];
	b->limit = limit;
	b->id = (uint64_t)q << WRID_QP_SHIFT;
	setup_sge(&b->sge, run, q, verb);
	for (i = 0; i < POST_BATCH; i++) {
		setup_wr(&b->wr[i], &b->sge, run, q, verb);
		b->wr[i].next = i + 1 < POST_BATCH ? &b->wr[i + 1] : NULL;
	}
}

/* --rate_limit: the device paces where it can (a bit rate within its
 * per-QP range, on this QP type), unless SW was asked; software pacing
 * signals often enough that a completion comes every ~10 ms per QP, so the
 * run's end is timed to the message, not to a batch seconds long. */
static void decide_pacing(const struct rdp_params *p,
			  const struct rdp_conn *conn, struct rdp_decisions *d)
{
	const struct ibv_packet_pacing_caps *pc = &conn->dev->pacing;
	uint64_t kbps = rdp_rate_kbps(p) / p->num_qps;
	double per_qp = rdp_rate_msgs_per_s(p) / p->num_qps / 100;
	int device = pc->qp_rate_limit_max &&
		     (pc->supported_qpts & (1u << conn->qp_type)) &&
		     p->rate_units != RDP_RATE_PPS &&
		     kbps >= pc->qp_rate_limit_min &&
		     kbps <= pc->qp_rate_limit_max;

	if (p->rate_type == RDP_RATE_SW ||
	    (p->rate_type == RDP_RATE_AUTO && !device)) {
		d->pacing = RDP_PACE_SOFTWARE;
		if (per_qp < d->signal_every)
			d->signal_every = per_qp >= 1 ? (uint32_t)per_qp : 1;
	} else if (device) {
		d->pacing = RDP_PACE_DEVICE;
		d->pacing_qp_kbps = (uint32_t)kbps;
	} else {
		d->pacing = RDP_PACE_REFUSED;
		d->pacing_qp_kbps = kbps > UINT32_MAX ? UINT32_MAX
						      : (uint32_t)kbps;
	}
}

/* READ and atomics are bounded by the responder resources (-o); one
 * work request in -Q is signaled, never fewer than one per window. */
void rdp_bw_decide(const struct rdp_bench_ops *ops, const struct rdp_params *p,
		   const struct rdp_conn *conn, struct rdp_decisions *d)
{
	enum rdp_verb verb = ops->verb;
	uint32_t w = p->tx_depth, o = conn->max_rd_atomic;

	if (verb == RDP_VERB_READ || verb == RDP_VERB_ATOMIC) {
		if (p->outstanding && p->outstanding < o)
			o = p->outstanding;
		if (o < w)
			w = o;
	}
	d->window = w;
	d->signal_every = p->cq_mod < w ? p->cq_mod : w;
	d->inline_used = (verb == RDP_VERB_WRITE || verb == RDP_VERB_SEND) &&
			 p->size_bytes <= conn->max_inline_bytes;
	if (p->rate_milli)
		decide_pacing(p, conn, d);
}

static void setup_sampling(const struct rdp_run *run, struct bw_state *st)
{
	const struct rdp_params *p = run->params;

	if (run->live) {
		/* No end: 100 samples a report interval, as many intervals
		 * as the grid holds (the peak covers those). */
		st->sample_step = rdp_clock_cycles_of_ms(
			run->clk, (uint64_t)p->duration_s * 10);
		st->cap = SAMPLE_GRID_MAX;
	} else if (p->duration_s) {
		/* Time grid: at most SAMPLE_GRID_MAX samples, 1 ms apart or
		 * more. */
		uint64_t step_ms =
			(uint64_t)p->duration_s * 1000 / SAMPLE_GRID_MAX + 1;

		st->sample_step = rdp_clock_cycles_of_ms(run->clk, step_ms);
		st->cap = (size_t)(p->duration_s * 1000ull / step_ms) + 16;
	} else {
		st->cap = (size_t)(st->target_msgs / st->cq_mod) +
			  2ull * p->num_qps + 16;
	}
}

static int setup(const struct rdp_run *run, struct bw_state *st,
		 enum rdp_verb verb)
{
	const struct rdp_decisions *d = &run->dec;
	const struct rdp_params *p = run->params;
	uint64_t limit = p->duration_s ? UINT64_MAX : p->iters;
	uint32_t q;

	memset(st, 0, sizeof(*st));
	st->num_qps = p->num_qps;
	st->window = d->window;
	st->cq_mod = d->signal_every;
	st->batch = p->post_list && p->post_list < POST_BATCH ? p->post_list
							      : POST_BATCH;
	if (d->inline_used)
		st->base_flags = IBV_SEND_INLINE;
	st->msg_bytes = p->size_bytes;
	st->target_msgs = p->duration_s ? UINT64_MAX : p->iters * p->num_qps;
	st->end_cycles = UINT64_MAX;
	/* Fetch-and-add adds 1; compare-and-swap moves n-1 to n. */
	st->add_base = p->flags & RDP_PARAM_CAS ? 0 : 1;
	st->add_step = p->flags & RDP_PARAM_CAS ? 1 : 0;
	setup_sampling(run, st);
	st->qps = calloc(p->num_qps, sizeof(*st->qps));
	st->samples = calloc(st->cap + 1, sizeof(*st->samples));
	if (!st->qps || !st->samples)
		return -ENOMEM;
	for (q = 0; q < p->num_qps; q++)
		setup_qp(&st->qps[q], run, q, limit, verb);
	if (verb == RDP_VERB_SEND && (p->flags & RDP_PARAM_BIDIR)) {
		st->rwrs = calloc(p->num_qps, sizeof(*st->rwrs));
		st->rsges = calloc(p->num_qps, sizeof(*st->rsges));
		if (!st->rwrs || !st->rsges)
			return -ENOMEM;
		for (q = 0; q < p->num_qps; q++)
			rdp_recv_wr(run, q, &st->rwrs[q], &st->rsges[q]);
	}
	return 0;
}

/* How many work requests the next chain on b holds: what the window
 * allows, at most one batch. */
static HOT_INLINE uint64_t next_chain(const struct bw_state *st,
				      const struct bw_qp *b)
{
	uint64_t room = st->window - (b->posted - b->completed);
	uint64_t left = b->limit - b->posted;
	uint64_t n = room < left ? room : left;

	return n > st->batch ? st->batch : n;
}

/* Post the next chain: one doorbell per chain; paced, no more than the
 * rate's *budget. */
static HOT_INLINE int post_window(struct bw_state *st, struct bw_qp *b,
				  const enum bw_variant v, uint64_t *budget)
{
	uint64_t n = next_chain(st, b);
	struct ibv_send_wr *bad;
	uint64_t i, p;
	int ret;

	if (paced(v)) {
		if (n > *budget)
			n = *budget;
		*budget -= n;
		st->posted_all += n;
	}
	if (n == 0)
		return 0;
	for (i = 0; i < n; i++) {
		p = b->posted + i + 1;
		b->wr[i].wr_id = b->id | p;
		b->wr[i].send_flags = st->base_flags;
		if (has_operands(v)) {
			b->wr[i].wr.atomic.compare_add =
				st->add_base + (p - 1) * st->add_step;
			b->wr[i].wr.atomic.swap = p;
		}
		if (p % st->cq_mod == 0 || p == b->limit) {
			b->wr[i].send_flags |= IBV_SEND_SIGNALED;
			b->last_signaled = p;
		}
	}
	b->wr[n - 1].next = NULL;
	ret = ibv_post_send(b->qp, b->wr, &bad);
	b->wr[n - 1].next = n < POST_BATCH ? &b->wr[n] : NULL;
	if (ret)
		return -ret;
	b->posted += n;
	return 0;
}

/* send_bw -b: a message of the peer's, or (empty) its end mark; the
 * receive goes straight back. */
static HOT_INLINE int take_recv(struct rdp_run *run, struct bw_state *st,
				const struct ibv_wc *wc)
{
	uint32_t q = (uint32_t)wc->wr_id;
	struct ibv_recv_wr *bad;
	int ret;

	if (wc->byte_len)
		st->rx_got++;
	else
		st->marks_in++;
	ret = ibv_post_recv(run->conn->qps[q], &st->rwrs[q], &bad);
	if (ret)
		rdp_err("post receive on qp 0x%x: %s",
			run->conn->qps[q]->qp_num, strerror(ret));
	return -ret;
}

/* Retire completions; returns how many, or -EIO on a failed one. */
static HOT_INLINE int reap(struct rdp_run *run, struct bw_state *st,
			   struct ibv_wc *wc, const enum bw_variant v)
{
	int n = ibv_poll_cq(run->conn->cq, POLL_BATCH, wc);
	int i, ret;

	for (i = 0; i < n; i++) {
		uint32_t q = (uint32_t)(wc[i].wr_id >> WRID_QP_SHIFT);
		struct bw_qp *b;
		uint64_t c;

		if (wc[i].status != IBV_WC_SUCCESS)
			return rdp_bench_wc_error(&wc[i]);
		if (duplex(v) && (wc[i].opcode & IBV_WC_RECV)) {
			ret = take_recv(run, st, &wc[i]);
			if (ret)
				return ret;
			continue;
		}
		b = &st->qps[q];
		c = wc[i].wr_id & WRID_COUNT_MASK;
		if (v == BW_STAGE_IN) {
			ret = rdp_stage_in(st->stage, q, c - b->completed);
			if (ret)
				return ret;
		}
		st->done += c - b->completed;
		b->completed = c;
	}
	return n < 0 ? -EIO : n;
}

/* Name the QP with the most operations still waiting for completion. */
static int stalled(struct rdp_run *run, const struct bw_state *st)
{
	uint64_t out = 0, most = 0, n;
	uint32_t q, worst = 0;

	for (q = 0; q < st->num_qps; q++) {
		n = st->qps[q].posted - st->qps[q].completed;
		out += n;
		if (n > most) {
			most = n;
			worst = q;
		}
	}
	rdp_err("no completion for %.1f s with %llu operations outstanding "
		"on %u QP(s), %llu on qp 0x%x: the peer or the link stopped "
		"responding",
		rdp_clock_ns(run->clk, run->stall_cycles) / 1e9,
		(unsigned long long)out, st->num_qps, (unsigned long long)most,
		run->conn->qps[worst]->qp_num);
	return -ETIMEDOUT;
}

/* Paced: the messages the rate allows by now, less those posted. */
static HOT_INLINE uint64_t pace_budget(const struct bw_state *st, uint64_t now)
{
	uint64_t due = (now - st->pace_start) * 1024 / st->pace_cycles + 1;

	return due > st->posted_all ? due - st->posted_all : 0;
}

static HOT_INLINE int post_failed(const struct bw_qp *b, int ret)
{
	rdp_err("post on qp 0x%x: %s", b->qp->qp_num, strerror(-ret));
	return ret;
}

/* Paced: the rate's budget goes to the QPs in turn, each up to a chain,
 * so that no QP starves while another takes every message it allows. */
static HOT_INLINE int post_paced(struct bw_state *st, const enum bw_variant v,
				 uint64_t now)
{
	uint64_t budget = pace_budget(st, now);
	uint32_t i, q;
	int ret;

	for (i = 0; i < st->num_qps && budget; i++) {
		q = st->next_qp;
		st->next_qp = q + 1 < st->num_qps ? q + 1 : 0;
		ret = post_window(st, &st->qps[q], v, &budget);
		if (ret)
			return post_failed(&st->qps[q], ret);
	}
	return 0;
}

static HOT_INLINE int post_all(struct bw_state *st, const enum bw_variant v,
			       uint64_t now)
{
	uint64_t budget = 0; /* unused unless paced */
	uint32_t q;
	int ret;

	if (paced(v))
		return post_paced(st, v, now);
	for (q = 0; q < st->num_qps; q++) {
		if (v == BW_STAGE_OUT) {
			/* logged by the copy */
			ret = rdp_stage_out(st->stage, q,
					    next_chain(st, &st->qps[q]));
			if (ret)
				return ret;
		}
		ret = post_window(st, &st->qps[q], v, &budget);
		if (ret)
			return post_failed(&st->qps[q], ret);
	}
	return 0;
}

/* The timed loop: post, poll, sample. Mode differences are data
 * (target_msgs, end_cycles, sample_step), not branches. */
/* Whether a QP has room for another chain (posts go a chain at a time). */
static HOT_INLINE int can_post(const struct bw_state *st)
{
	uint32_t q;

	for (q = 0; q < st->num_qps; q++)
		if (next_chain(st, &st->qps[q]))
			return 1;
	return 0;
}

/* -e, with nothing to reap: arm the CQ, or sleep until it has news;
 * bounded by the stall time. */
static int idle_sleep(struct rdp_run *run, struct bw_state *st, int *armed)
{
	int ms = (int)(rdp_clock_ns(run->clk, run->stall_cycles) / 1e6) + 1;
	int ret = rdp_conn_cq_sleep(run->conn, armed, -1, ms);

	return ret == -ETIMEDOUT ? stalled(run, st) : ret;
}

static HOT_INLINE int timed_loop(struct rdp_run *run, struct bw_state *st,
				 const enum bw_variant v)
{
	struct ibv_wc wc[POLL_BATCH];
	uint64_t now, progress, next_sample = 0;
	int ret, armed = 0;

	now = progress = st->samples[0].cycles;
	st->pace_start = now;
	while (st->done < st->target_msgs && now < st->end_cycles &&
	       !live_stopped(run, v)) {
		ret = post_all(st, v, now);
		if (ret)
			return ret;
		ret = reap(run, st, wc, v);
		now = rdp_cycles();
		if (ret < 0)
			return ret;
		if (ret == 0) {
			/* -e: sleep only with every window full, else a
			 * window never reaching a signaled request waits
			 * for nothing. */
			if (sleeps(v) && can_post(st))
				continue;
			if (sleeps(v)) {
				ret = idle_sleep(run, st, &armed);
				if (ret)
					return ret;
				continue;
			}
			/* Paced: a pause of our own is no stall. */
			if (paced(v) && can_post(st))
				progress = now;
			if (now - progress > run->stall_cycles)
				return stalled(run, st);
			continue;
		}
		progress = now;
		st->last_cycles = now;
		if (live(v)) {
			__atomic_store_n(&run->live->done, st->done,
					 __ATOMIC_RELAXED);
			__atomic_store_n(&run->live->cycles, now,
					 __ATOMIC_RELEASE);
		}
		/* -b: a poll may bring only the peer's messages; a sample
		 * then would cut the time between two of ours short. */
		if (duplex(v) && st->done * st->msg_bytes ==
					 st->samples[st->nsamples - 1].bytes)
			continue;
		if (now >= next_sample && st->nsamples < st->cap) {
			st->samples[st->nsamples++] = (struct rdp_bw_sample){
				now, st->done * st->msg_bytes
			};
			next_sample = now + st->sample_step;
		}
	}
	return 0;
}

static int timed_loop_plain(struct rdp_run *run, struct bw_state *st)
{
	return timed_loop(run, st, BW_PLAIN);
}

static int timed_loop_atomic(struct rdp_run *run, struct bw_state *st)
{
	return timed_loop(run, st, BW_ATOMIC);
}

static int timed_loop_stage_out(struct rdp_run *run, struct bw_state *st)
{
	return timed_loop(run, st, BW_STAGE_OUT);
}

static int timed_loop_stage_in(struct rdp_run *run, struct bw_state *st)
{
	return timed_loop(run, st, BW_STAGE_IN);
}

static int timed_loop_events(struct rdp_run *run, struct bw_state *st)
{
	return timed_loop(run, st, BW_EVENTS);
}

static int timed_loop_atomic_events(struct rdp_run *run, struct bw_state *st)
{
	return timed_loop(run, st, BW_ATOMIC_EVENTS);
}

static int timed_loop_paced(struct rdp_run *run, struct bw_state *st)
{
	return timed_loop(run, st, BW_PACED);
}

static int timed_loop_atomic_paced(struct rdp_run *run, struct bw_state *st)
{
	return timed_loop(run, st, BW_ATOMIC_PACED);
}

static int timed_loop_live(struct rdp_run *run, struct bw_state *st)
{
	return timed_loop(run, st, BW_LIVE);
}

static int timed_loop_atomic_live(struct rdp_run *run, struct bw_state *st)
{
	return timed_loop(run, st, BW_ATOMIC_LIVE);
}

static int timed_loop_duplex(struct rdp_run *run, struct bw_state *st)
{
	return timed_loop(run, st, BW_DUPLEX);
}

static int (*const loops[])(struct rdp_run *, struct bw_state *) = {
	[BW_PLAIN] = timed_loop_plain,
	[BW_ATOMIC] = timed_loop_atomic,
	[BW_STAGE_OUT] = timed_loop_stage_out,
	[BW_STAGE_IN] = timed_loop_stage_in,
	[BW_EVENTS] = timed_loop_events,
	[BW_ATOMIC_EVENTS] = timed_loop_atomic_events,
	[BW_PACED] = timed_loop_paced,
	[BW_ATOMIC_PACED] = timed_loop_atomic_paced,
	[BW_LIVE] = timed_loop_live,
	[BW_ATOMIC_LIVE] = timed_loop_atomic_live,
	[BW_DUPLEX] = timed_loop_duplex,
};

/* --rate_limit as decided: the device's limit on every QP, or the
 * software loop's spacing of messages (all QPs together). */
static int setup_pacing(struct rdp_run *run, struct bw_state *st)
{
	const struct rdp_params *p = run->params;
	const struct ibv_packet_pacing_caps *pc = &run->conn->dev->pacing;
	double cycles;

	switch (run->dec.pacing) {
	case RDP_PACE_REFUSED:
		rdp_err("--rate_limit_type HW: %s cannot pace %u kbit/s per "
			"QP (packet_pacing_caps: qp_rate_limit %u..%u kbit/s, "
			"QP types 0x%x): use --rate_limit_type SW",
			run->conn->dev->name, run->dec.pacing_qp_kbps,
			pc->qp_rate_limit_min, pc->qp_rate_limit_max,
			pc->supported_qpts);
		return -ENOSYS; /* not supported here */
	case RDP_PACE_DEVICE:
		return rdp_conn_rate_limit(run->conn, run->dec.pacing_qp_kbps);
	case RDP_PACE_SOFTWARE:
		cycles = run->clk->cycles_per_ns * 1e9 /
			 rdp_rate_msgs_per_s(p) * 1024;
		st->pace_cycles = cycles >= 1 ? (uint64_t)cycles : 1;
		return 0;
	case RDP_PACE_NONE:
		break;
	}
	return 0;
}

/* Atomics carry operands; --bounce copies each message on this side. */
static enum bw_variant variant_of(const struct rdp_run *run, enum rdp_verb verb)
{
	int ev = run->conn->channel != NULL;

	/* --run_infinitely and --rate_limit refuse -e, --bounce and each
	 * other */
	if (run->live)
		return verb == RDP_VERB_ATOMIC ? BW_ATOMIC_LIVE : BW_LIVE;
	/* send_bw -b refuses -e, --bounce, --rate_limit and live runs */
	if (verb == RDP_VERB_SEND && (run->params->flags & RDP_PARAM_BIDIR))
		return BW_DUPLEX;
	if (run->dec.pacing == RDP_PACE_SOFTWARE)
		return verb == RDP_VERB_ATOMIC ? BW_ATOMIC_PACED : BW_PACED;
	if (verb == RDP_VERB_ATOMIC)
		return ev ? BW_ATOMIC_EVENTS : BW_ATOMIC;
	if (ev)
		return BW_EVENTS; /* -e refuses --bounce */
	if (!run->conn->stage)
		return BW_PLAIN;
	return verb == RDP_VERB_READ ? BW_STAGE_IN : BW_STAGE_OUT;
}

static int drain_to(struct rdp_run *run, struct bw_state *st, int all)
{
	struct ibv_wc wc[POLL_BATCH];
	uint64_t progress = rdp_cycles();
	uint32_t q;
	int ret;

	for (q = 0; q < st->num_qps; q++) {
		struct bw_qp *b = &st->qps[q];

		while (b->completed < (all ? b->posted : b->last_signaled)) {
			ret = reap(run, st, wc, st->variant);
			if (ret < 0)
				return ret;
			if (ret > 0)
				progress = rdp_cycles();
			else if (rdp_cycles() - progress > run->stall_cycles)
				return stalled(run, st);
		}
	}
	return 0;
}

/*
 * Unsignaled work requests after the last signaled one never complete on
 * their own: follow them with a signaled operation of the test's own verb
 * that changes nothing, so it needs no access the peer did not grant: an
 * empty WRITE or READ, an atomic adding 0 (fetched into the send slot, as
 * the test's are), an empty SEND (which the receiver does not count).
 */
static int fence(struct rdp_run *run, struct bw_qp *b, enum rdp_verb verb)
{
	static const enum ibv_wr_opcode ops[] = {
		[RDP_VERB_WRITE] = IBV_WR_RDMA_WRITE,
		[RDP_VERB_READ] = IBV_WR_RDMA_READ,
		[RDP_VERB_SEND] = IBV_WR_SEND,
		[RDP_VERB_ATOMIC] = IBV_WR_ATOMIC_FETCH_AND_ADD,
	};
	uint32_t q = (uint32_t)(b->id >> WRID_QP_SHIFT);
	const struct rdp_qp_info *r = &run->conn->remote[q];
	struct ibv_send_wr wr = { .wr_id = b->id | b->posted,
				  .opcode = ops[verb],
				  .send_flags = IBV_SEND_SIGNALED },
			   *bad;
	int ret;

	wr.wr.rdma.remote_addr = r->addr;
	wr.wr.rdma.rkey = r->rkey;
	if (verb == RDP_VERB_ATOMIC) { /* a union with wr.rdma's fields */
		wr.wr.atomic.remote_addr = r->addr;
		wr.wr.atomic.compare_add = 0;
		wr.wr.atomic.swap = 0;
		wr.wr.atomic.rkey = r->rkey;
		wr.sg_list = &b->sge;
		wr.num_sge = 1;
	}
	rdp_conn_send_dest(run->conn, q, &wr); /* UD */
	ret = ibv_post_send(b->qp, &wr, &bad);
	if (ret)
		rdp_err("post the closing operation on qp 0x%x: %s",
			b->qp->qp_num, strerror(ret));
	return -ret;
}

static int all_completed(const struct bw_state *st)
{
	uint32_t q;

	for (q = 0; q < st->num_qps; q++)
		if (st->qps[q].completed < st->qps[q].posted)
			return 0;
	return 1;
}

/* After the clock stops: every posted operation completes before the
 * peer is told DONE (it may check what they wrote). send_bw -b's end
 * marks are its fences (an empty SEND here would count as a mark). */
static int drain(struct rdp_run *run, struct bw_state *st, enum rdp_verb verb)
{
	uint32_t q;
	int ret;

	ret = drain_to(run, st, 0);
	for (q = 0; !ret && st->variant != BW_DUPLEX && q < st->num_qps; q++)
		if (st->qps[q].posted > st->qps[q].last_signaled)
			ret = fence(run, &st->qps[q], verb);
	if (!ret && st->variant != BW_DUPLEX)
		ret = drain_to(run, st, 1);
	for (q = 0; q < st->num_qps; q++)
		run->posted += st->qps[q].posted;
	return ret;
}

/* send_bw -b: after this side's sends, an empty SEND on each QP marks
 * their end; receiving goes on until every peer QP's mark came (RC keeps
 * a QP's order, so all its messages came first) and the marks sent
 * completed. Neither side stops taking the other's messages early. */
static int duplex_close(struct rdp_run *run, struct bw_state *st)
{
	struct ibv_wc wc[POLL_BATCH];
	uint64_t progress = rdp_cycles();
	struct ibv_send_wr wr, *bad;
	uint32_t q;
	int ret;

	for (q = 0; q < st->num_qps; q++) {
		memset(&wr, 0, sizeof(wr));
		wr.wr_id = st->qps[q].id | st->qps[q].posted;
		wr.opcode = IBV_WR_SEND;
		wr.send_flags = IBV_SEND_SIGNALED;
		ret = ibv_post_send(st->qps[q].qp, &wr, &bad);
		if (ret) {
			rdp_err("post the end mark on qp 0x%x: %s",
				st->qps[q].qp->qp_num, strerror(ret));
			return -ret;
		}
	}
	while (st->marks_in < st->num_qps || !all_completed(st)) {
		ret = reap(run, st, wc, BW_DUPLEX);
		if (ret < 0)
			return ret;
		if (ret > 0)
			progress = rdp_cycles();
		else if (rdp_cycles() - progress > run->stall_cycles)
			return stalled(run, st);
	}
	return 0;
}

/* -f: keep the samples between start + margin and end - margin, rebased so
 * the first kept one is the new start. */
static void trim_margins(const struct rdp_run *run, struct bw_state *st,
			 uint64_t *start, struct rdp_result *res)
{
	st->nsamples = rdp_measure_trim_bw(st->samples, st->nsamples,
					   *start + run->margin_cycles,
					   st->end_cycles - run->margin_cycles);
	*start = st->samples[0].cycles;
	res->msgs = st->samples[st->nsamples - 1].bytes / st->msg_bytes;
}

int rdp_bw_client(struct rdp_run *run, struct rdp_result *res)
{
	enum rdp_verb verb = run->ops->verb;
	struct bw_state st;
	uint64_t start, done_at_stop;
	int ret;

	ret = setup(run, &st, verb);
	if (!ret)
		ret = setup_pacing(run, &st);
	if (ret)
		goto out;
	st.variant = variant_of(run, verb);
	st.stage = run->conn->stage;
	start = st.last_cycles = rdp_cycles();
	if (run->params->duration_s && !run->live)
		st.end_cycles =
			start + rdp_clock_cycles_of_ms(run->clk,
						       run->params->duration_s *
							       1000ull);
	st.samples[0] = (struct rdp_bw_sample){ start, 0 };
	st.nsamples = 1;
	ret = loops[st.variant](run, &st);
	if (ret)
		goto out;
	done_at_stop = st.done;
	/* The last completion always closes the series. */
	if (st.samples[st.nsamples - 1].bytes != done_at_stop * st.msg_bytes)
		st.samples[st.nsamples++] =
			(struct rdp_bw_sample){ st.last_cycles,
						done_at_stop * st.msg_bytes };
	ret = drain(run, &st, verb);
	if (!ret && st.variant == BW_DUPLEX)
		ret = duplex_close(run, &st);
	if (ret)
		goto out;
	res->msgs = done_at_stop;
	if (run->margin_cycles)
		trim_margins(run, &st, &start, res);
	rdp_result_bw(res, st.samples, st.nsamples, start, run->clk);
	ret = rdp_result_intervals(res, st.samples, st.nsamples, start,
				   run->interval_cycles, run->clk);
	if (!ret && run->series) {
		*run->series = (struct rdp_bw_series){ st.samples, st.nsamples,
						       start };
		st.samples = NULL;
	}
out:
	free(st.qps);
	free(st.samples);
	free(st.rwrs);
	free(st.rsges);
	return ret;
}

int rdp_passive_server(struct rdp_run *run, struct rdp_result *res)
{
	(void)run;
	(void)res;
	return 0;
}

int rdp_bw_server(struct rdp_run *run, struct rdp_result *res)
{
	if (run->params->flags & RDP_PARAM_WRITE_IMM)
		return rdp_bw_server_recv(run, res);
	if (!(run->params->flags & RDP_PARAM_BIDIR))
		return rdp_passive_server(run, res);
	res->size_bytes = run->params->size_bytes;
	res->num_qps = run->params->num_qps;
	return rdp_bw_client(run, res);
}
