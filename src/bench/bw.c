/* SPDX-License-Identifier: BSD-2-Clause */
/* The bandwidth engine's timed loops: the client keeps a window of work
 * requests in flight on every QP and samples progress, then drains; the
 * setup before the clock is in bw_setup.c. */
#include <endian.h>
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bw_int.h"
#include <rdmaperf/clock.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/log.h>
#include <rdmaperf/measure.h>
#include <rdmaperf/stage.h>

/* Inlined even where the compiler would rather share one copy. */
#define HOT_INLINE inline __attribute__((always_inline))

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

/* Has the run been told to end (a signal; a live run's end)? The one
 * load every variant does where it checks its count. */
static HOT_INLINE int stopped(const struct bw_state *st)
{
	return __atomic_load_n(st->stop, __ATOMIC_RELAXED);
}

/* --data_validation: every message from (or into) its own place. */
static HOT_INLINE int ringed(const enum bw_variant v)
{
	return v == BW_RING || v == BW_RING_READ;
}

static HOT_INLINE int paced(const enum bw_variant v)
{
	return v == BW_PACED || v == BW_ATOMIC_PACED;
}

static HOT_INLINE int sleeps(const enum bw_variant v)
{
	return v == BW_EVENTS || v == BW_ATOMIC_EVENTS;
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
		if (ringed(v)) {
			uint64_t at = ((p - 1) % st->ring) * st->stride;

			b->ring_sge[i].addr = b->laddr + at;
			b->wr[i].wr.rdma.remote_addr = b->raddr + at;
		}
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
	ret = st->post(b->qp, b->wr, &bad);
	b->wr[n - 1].next = n < BW_POST_BATCH ? &b->wr[n] : NULL;
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

/* --data_validation, READ: messages [from, to) of QP q landed in their
 * places (a signaled completion retires those before it too). */
static HOT_INLINE void check_reads(struct rdp_run *run,
				   const struct bw_state *st, uint32_t q,
				   uint64_t from, uint64_t to)
{
	const struct bw_qp *b = &st->qps[q];
	uint64_t s;

	for (s = from; s < to; s++)
		run->dv.check(run, q, s,
			      (uint8_t *)(uintptr_t)b->laddr +
				      (s % st->ring) * st->stride);
}

/* Retire completions; returns how many, or -EIO on a failed one. */
static HOT_INLINE int reap(struct rdp_run *run, struct bw_state *st,
			   struct ibv_wc *wc, const enum bw_variant v)
{
	int n = ibv_poll_cq(run->conn->cq, BW_POLL_BATCH, wc);
	int i, ret;

	for (i = 0; i < n; i++) {
		uint32_t q = (uint32_t)(wc[i].wr_id >> BW_WRID_QP_SHIFT);
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
		c = wc[i].wr_id & BW_WRID_COUNT_MASK;
		if (v == BW_STAGE_IN) {
			ret = rdp_stage_in(st->stage, q, c - b->completed);
			if (ret)
				return ret;
		}
		if (v == BW_RING_READ)
			check_reads(run, st, q, b->completed, c);
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

/* Nothing completed for quiet cycles (past the watch time): a peer
 * whose connection closed ends the loop now (-ECONNRESET, told by the
 * session), silence past the stall time as a stall. */
static int quiet(struct rdp_run *run, const struct bw_state *st,
		 uint64_t quiet_cycles)
{
	if (rdp_bench_peer_gone(run, quiet_cycles))
		return -ECONNRESET;
	return quiet_cycles > run->stall_cycles ? stalled(run, st) : 0;
}

/* One reap after the timed loop: *progress moves on when something
 * completed. 0, or -errno on an error or a stall. */
static int reap_untimed(struct rdp_run *run, struct bw_state *st,
			struct ibv_wc *wc, const enum bw_variant v,
			uint64_t *progress)
{
	int ret = reap(run, st, wc, v);

	if (ret < 0)
		return ret;
	if (ret > 0)
		*progress = rdp_cycles();
	else if (rdp_cycles() - *progress > st->watch_cycles)
		return quiet(run, st, rdp_cycles() - *progress);
	return 0;
}

/* Paced: the messages the rate allows by now, a whole burst at a time,
 * less those posted. */
static HOT_INLINE uint64_t pace_budget(const struct bw_state *st, uint64_t now)
{
	uint64_t due = ((now - st->pace_start) * 1024 / st->pace_cycles /
				st->pace_burst +
			1) *
		       st->pace_burst;

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

/* Whether a QP has room for another chain (posts go a chain at a time). */
static HOT_INLINE int can_post(const struct bw_state *st)
{
	uint32_t q;

	for (q = 0; q < st->num_qps; q++)
		if (next_chain(st, &st->qps[q]))
			return 1;
	return 0;
}

/*
 * -D, at a sample point: at the rate since the first completion, how many
 * more messages a QP completes by the deadline; its limit stops its posts
 * there and signals the last one (post_window signals the limit), so the
 * loop's last completion falls at the deadline with nothing in flight
 * after it. Only QPs whose count moved since their last setting are set
 * again: the others' counts are as old as their last signaled completion.
 * A limit never goes below what is posted, and an unsignaled last one gets
 * a signaled one after it.
 */
static void taper(struct bw_state *st, uint64_t now)
{
	const struct rdp_bw_sample *a = &st->samples[st->nsamples > 2 ? 1 : 0];
	const struct rdp_bw_sample *z = &st->samples[st->nsamples - 1];
	uint64_t target = 0, want, least;
	double per_qp;
	uint32_t q;

	if (now >= st->end_cycles || z->cycles <= a->cycles ||
	    z->bytes <= a->bytes)
		return;
	per_qp = (double)(z->bytes - a->bytes) / (double)st->msg_bytes *
		 (double)(st->end_cycles - now) /
		 (double)(z->cycles - a->cycles) / st->num_qps;
	for (q = 0; q < st->num_qps; q++) {
		struct bw_qp *b = &st->qps[q];

		if (b->completed != b->tapered) {
			b->tapered = b->completed;
			want = b->completed + (uint64_t)per_qp;
			least = b->posted + (b->posted != b->last_signaled);
			b->limit = want > least ? want : least;
		}
		target = b->limit == UINT64_MAX || target == UINT64_MAX
				 ? UINT64_MAX
				 : target + b->limit;
	}
	st->target_msgs = target;
}

/* -D, at the deadline: nothing more is posted; the loop goes on until
 * each QP's last signaled message completed (after a taper, each QP's
 * last one: it completes at about the deadline); unsignaled ones after it
 * are the drain's. */
static void close_posting(struct bw_state *st)
{
	uint64_t target = 0;
	uint32_t q;

	for (q = 0; q < st->num_qps; q++) {
		st->qps[q].limit = st->qps[q].posted;
		target += st->qps[q].last_signaled;
	}
	st->target_msgs = target;
	st->close_cycles = UINT64_MAX;
}

/* -e, with nothing to reap: arm the CQ, or sleep until it has news;
 * bounded by the stall time, and woken when the peer's out-of-band
 * connection closes (-ECONNRESET). */
static int idle_sleep(struct rdp_run *run, struct bw_state *st, int *armed)
{
	int ms = (int)(rdp_clock_ns(run->clk, run->stall_cycles) / 1e6) + 1;
	int fd = run->peer_gone ? run->oob_fd : -1;
	int ret = rdp_conn_cq_sleep(run->conn, armed, fd, ms);

	if (ret == 1) /* the socket: its close, or a message for later */
		return run->peer_gone(fd) ? -ECONNRESET : 0;
	return ret == -ETIMEDOUT ? stalled(run, st) : ret;
}

/* The timed loop: post, poll, sample. Mode differences are data
 * (target_msgs, close_cycles, sample_step, tapers), not branches on the
 * variant. */
static HOT_INLINE int timed_loop(struct rdp_run *run, struct bw_state *st,
				 const enum bw_variant v)
{
	struct ibv_wc wc[BW_POLL_BATCH];
	uint64_t now, progress, next_sample = 0;
	int ret, armed = 0;

	now = progress = st->samples[0].cycles;
	st->pace_start = now;
	while (st->done < st->target_msgs && !stopped(st)) {
		if (now >= st->close_cycles) {
			close_posting(st);
			continue;
		}
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
			if (now - progress > st->watch_cycles) {
				ret = quiet(run, st, now - progress);
				if (ret)
					return ret;
			}
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
			if (st->tapers)
				taper(st, now);
		}
	}
	return 0;
}

/* One function per variant: timed_loop compiled with the variant as a
 * constant (tests/check-hotloop.sh reads the table below). */
#define VARIANT(name, variant)                                                 \
	static int name(struct rdp_run *run, struct bw_state *st)              \
	{                                                                      \
		return timed_loop(run, st, variant);                           \
	}

VARIANT(timed_loop_plain, BW_PLAIN)
VARIANT(timed_loop_atomic, BW_ATOMIC)
VARIANT(timed_loop_stage_out, BW_STAGE_OUT)
VARIANT(timed_loop_stage_in, BW_STAGE_IN)
VARIANT(timed_loop_events, BW_EVENTS)
VARIANT(timed_loop_atomic_events, BW_ATOMIC_EVENTS)
VARIANT(timed_loop_paced, BW_PACED)
VARIANT(timed_loop_atomic_paced, BW_ATOMIC_PACED)
VARIANT(timed_loop_live, BW_LIVE)
VARIANT(timed_loop_atomic_live, BW_ATOMIC_LIVE)
VARIANT(timed_loop_duplex, BW_DUPLEX)
VARIANT(timed_loop_ring, BW_RING)
VARIANT(timed_loop_ring_read, BW_RING_READ)

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
	[BW_RING] = timed_loop_ring,
	[BW_RING_READ] = timed_loop_ring_read,
};

static int drain_to(struct rdp_run *run, struct bw_state *st, int all)
{
	struct ibv_wc wc[BW_POLL_BATCH];
	uint64_t progress = rdp_cycles();
	uint32_t q;
	int ret;

	for (q = 0; q < st->num_qps; q++) {
		struct bw_qp *b = &st->qps[q];

		while (b->completed < (all ? b->posted : b->last_signaled)) {
			ret = reap_untimed(run, st, wc, st->variant, &progress);
			if (ret)
				return ret;
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
	uint32_t q = (uint32_t)(b->id >> BW_WRID_QP_SHIFT);
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

/* send_bw -b against perftest: no end marks, which its receiver would
 * take for messages (or find no receive posted for); under -n the peer's
 * -n per QP all come in, under -D whatever came by then is the count. */
static int duplex_counted_close(struct rdp_run *run, struct bw_state *st)
{
	uint64_t want =
		run->params->duration_s ? 0 : run->params->iters * st->num_qps;
	struct ibv_wc wc[BW_POLL_BATCH];
	uint64_t progress = rdp_cycles();
	int ret;

	while (st->rx_got < want) {
		ret = reap_untimed(run, st, wc, BW_DUPLEX, &progress);
		if (ret)
			return ret;
	}
	return 0;
}

/* send_bw -b: after this side's sends, an empty SEND on each QP marks
 * their end; receiving goes on until every peer QP's mark came (RC keeps
 * a QP's order, so all its messages came first) and the marks sent
 * completed. Neither side stops taking the other's messages early. */
static int duplex_close(struct rdp_run *run, struct bw_state *st)
{
	struct ibv_wc wc[BW_POLL_BATCH];
	uint64_t progress = rdp_cycles();
	struct ibv_send_wr wr, *bad;
	uint32_t q;
	int ret;

	if (run->counted_duplex)
		return duplex_counted_close(run, st);
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
		ret = reap_untimed(run, st, wc, BW_DUPLEX, &progress);
		if (ret)
			return ret;
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

	ret = rdp_bw_setup(run, &st, verb);
	if (!ret)
		ret = rdp_bw_setup_pacing(run, &st);
	if (ret)
		goto out;
	st.variant = rdp_bw_variant_of(run, verb);
	st.stage = run->conn->stage;
	st.stop = run->live ? &run->live->stop : rdp_bench_stop_word(run);
	st.watch_cycles = rdp_bench_watch_cycles(run);
	if (run->params->warmup_iters) {
		ret = rdp_bw_warm_up(run, &st, verb);
		if (ret)
			goto out;
		res->warmup_iters = run->params->warmup_iters;
	}
	start = st.last_cycles = rdp_cycles();
	if (run->params->duration_s && !run->live) {
		st.end_cycles =
			start + rdp_clock_cycles_of_ms(run->clk,
						       run->params->duration_s *
							       1000ull);
		st.close_cycles = st.end_cycles;
		st.tapers = 1;
	}
	st.samples[0] = (struct rdp_bw_sample){ start, 0 };
	st.nsamples = 1;
	ret = loops[st.variant](run, &st);
	if (ret)
		goto out;
	done_at_stop = st.done;
	ret = rdp_bw_per_qp_take(run, &st, res);
	if (ret)
		goto out;
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
	rdp_bw_per_qp_rates(res);
	ret = rdp_result_intervals(res, st.samples, st.nsamples, start,
				   run->interval_cycles, run->clk);
	if (!ret && run->series) {
		*run->series = (struct rdp_bw_series){ st.samples, st.nsamples,
						       start };
		st.samples = NULL;
	}
out:
	rdp_bw_state_free(&st);
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
