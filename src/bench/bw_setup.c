/* SPDX-License-Identifier: BSD-2-Clause */
/* The bandwidth engine's decisions and setup, before the clock starts:
 * pre-built work requests, sampling grid, pacing, the loop variant. */
#include <endian.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bw_int.h"
#include "validate_int.h"
#include <rdmaperf/clock.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/log.h>

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
	b->id = (uint64_t)q << BW_WRID_QP_SHIFT;
	setup_sge(&b->sge, run, q, verb);
	for (i = 0; i < BW_POST_BATCH; i++) {
		setup_wr(&b->wr[i], &b->sge, run, q, verb);
		b->wr[i].next = i + 1 < BW_POST_BATCH ? &b->wr[i + 1] : NULL;
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
		st->cap = BW_SAMPLE_GRID_MAX;
	} else if (p->duration_s) {
		/* Time grid: at most BW_SAMPLE_GRID_MAX samples, 1 ms apart or
		 * more. */
		uint64_t step_ms =
			(uint64_t)p->duration_s * 1000 / BW_SAMPLE_GRID_MAX + 1;

		st->sample_step = rdp_clock_cycles_of_ms(run->clk, step_ms);
		st->cap = (size_t)(p->duration_s * 1000ull / step_ms) + 16;
	} else {
		st->cap = (size_t)(st->target_msgs / st->cq_mod) +
			  2ull * p->num_qps + 16;
	}
}

int rdp_bw_setup(const struct rdp_run *run, struct bw_state *st,
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
	st->batch = p->post_list && p->post_list < BW_POST_BATCH
			    ? p->post_list
			    : BW_POST_BATCH;
	if (d->inline_used)
		st->base_flags = IBV_SEND_INLINE;
	st->msg_bytes = p->size_bytes;
	/* -D: until the taper sets every QP's limit */
	st->target_msgs = p->duration_s ? UINT64_MAX : p->iters * p->num_qps;
	st->end_cycles = UINT64_MAX;
	st->close_cycles = UINT64_MAX;
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
	st->post = rdp_post_pick(run->conn, st->qps[0].wr[0].opcode,
				 d->inline_used);
	if (run->dv.ring > 1)
		rdp_bw_ring_setup(run, st);
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

int rdp_bw_setup_pacing(struct rdp_run *run, struct bw_state *st)
{
	const struct rdp_params *p = run->params;
	const struct ibv_packet_pacing_caps *pc = &run->conn->dev->pacing;
	uint64_t burst;
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
		burst = (uint64_t)p->burst_size * p->size_bytes;
		return rdp_conn_rate_limit(run->conn, run->dec.pacing_qp_kbps,
					   burst > UINT32_MAX ? UINT32_MAX
							      : (uint32_t)burst,
					   (uint16_t)p->typical_pkt_bytes);
	case RDP_PACE_SOFTWARE:
		cycles = run->clk->cycles_per_ns * 1e9 /
			 rdp_rate_msgs_per_s(p) * 1024;
		st->pace_cycles = cycles >= 1 ? (uint64_t)cycles : 1;
		st->pace_burst = p->burst_size ? p->burst_size : 1;
		return 0;
	case RDP_PACE_NONE:
		break;
	}
	return 0;
}

/* Atomics carry operands; --bounce copies each message on this side. */
enum bw_variant rdp_bw_variant_of(const struct rdp_run *run, enum rdp_verb verb)
{
	int ev = run->conn->channel != NULL;

	/* --data_validation refuses the other variants' options */
	if (run->dv.ring > 1)
		return verb == RDP_VERB_READ ? BW_RING_READ : BW_RING;

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

void rdp_bw_state_free(struct bw_state *st)
{
	free(st->qps);
	free(st->samples);
	free(st->rwrs);
	free(st->rsges);
}

int rdp_bw_per_qp_take(const struct rdp_run *run, const struct bw_state *st,
		       struct rdp_result *res)
{
	struct rdp_qp_result *q;
	uint32_t i;

	q = calloc(st->num_qps, sizeof(*q));
	if (!q)
		return -ENOMEM;
	for (i = 0; i < st->num_qps; i++) {
		q[i].index = i;
		q[i].qp_num = st->qps[i].qp->qp_num;
		q[i].flow_label = rdp_params_flow_label(run->params, i);
		q[i].port = rdp_conn_qp_port(run->conn, i);
		q[i].msgs = st->qps[i].completed;
		q[i].bytes = q[i].msgs * st->msg_bytes;
	}
	free(res->per_qp);
	res->per_qp = q;
	res->n_per_qp = st->num_qps;
	return 0;
}

void rdp_bw_per_qp_rates(struct rdp_result *res)
{
	uint32_t i;

	for (i = 0; i < res->n_per_qp; i++)
		res->per_qp[i].bw_gbps =
			res->elapsed_ns > 0 ? (double)res->per_qp[i].bytes * 8 /
						      res->elapsed_ns
					    : 0;
}

/* Post one warm-up operation on b: the test's own, signalled; atomics
 * add 0 (or swap 0 for 0), so the peer's word stays as it was. */
static int warm_post(struct bw_qp *b, enum rdp_verb verb)
{
	struct ibv_send_wr wr = b->wr[0], *bad;
	int ret;

	wr.next = NULL;
	wr.send_flags |= IBV_SEND_SIGNALED;
	if (verb == RDP_VERB_ATOMIC) {
		wr.wr.atomic.compare_add = 0;
		wr.wr.atomic.swap = 0;
	}
	ret = ibv_post_send(b->qp, &wr, &bad);
	if (ret)
		rdp_err("post a warm-up operation on qp 0x%x: %s",
			b->qp->qp_num, strerror(ret));
	return -ret;
}

/* Wait for n completions, none failed, within the stall limit. */
static int warm_reap(struct rdp_run *run, uint32_t n)
{
	struct ibv_wc wc[BW_POLL_BATCH];
	uint64_t progress = rdp_cycles();
	int got, i;

	while (n) {
		got = ibv_poll_cq(run->conn->cq,
				  n < BW_POLL_BATCH ? (int)n : BW_POLL_BATCH,
				  wc);
		if (got < 0)
			return -EIO;
		for (i = 0; i < got; i++)
			if (wc[i].status != IBV_WC_SUCCESS)
				return rdp_bench_wc_error(&wc[i]);
		if (got) {
			n -= (uint32_t)got;
			progress = rdp_cycles();
		} else if (rdp_cycles() - progress > run->stall_cycles) {
			rdp_err("warm-up: no completion for %.1f s: the peer "
				"or the link stopped responding",
				rdp_clock_ns(run->clk, run->stall_cycles) /
					1e9);
			return -ETIMEDOUT;
		}
	}
	return 0;
}

int rdp_bw_warm_up(struct rdp_run *run, struct bw_state *st, enum rdp_verb verb)
{
	uint32_t q, left, chunk, i;
	int ret = 0;

	for (q = 0; !ret && q < st->num_qps; q++) {
		for (left = run->params->warmup_iters; !ret && left;
		     left -= chunk) {
			chunk = left < st->window ? left : st->window;
			for (i = 0; !ret && i < chunk; i++)
				ret = warm_post(&st->qps[q], verb);
			if (!ret)
				ret = warm_reap(run, chunk);
		}
	}
	return ret;
}
