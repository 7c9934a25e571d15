/* SPDX-License-Identifier: BSD-2-Clause */
/* RDMA WRITE bandwidth: the client keeps a window of writes in flight on
 * every QP; the server's side is passive until the data check. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <infiniband/verbs.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/clock.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/log.h>

#define POST_BATCH	32
#define POLL_BATCH	32
#define WRID_QP_SHIFT	40
#define WRID_COUNT_MASK ((1ull << WRID_QP_SHIFT) - 1)
#define SAMPLE_GRID_MAX 65536

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
	uint32_t tx_depth;
	uint32_t cq_mod;
	uint64_t msg_bytes;
	uint64_t target_msgs; /* UINT64_MAX in duration mode */
	uint64_t end_cycles;  /* UINT64_MAX in iteration mode */
	uint64_t sample_step; /* cycles between samples; 0: every poll */
	struct rdp_bw_sample *samples;
	size_t nsamples, cap;
	uint64_t done;
	uint64_t last_cycles; /* time of the last completion */
};

static void setup_qp(struct bw_qp *b, const struct rdp_run *run, uint32_t q,
		     uint64_t limit)
{
	const struct rdp_conn *conn = run->conn;
	const struct rdp_params *p = run->params;
	int i;

	b->qp = conn->qps[q];
	b->limit = limit;
	b->id = (uint64_t)q << WRID_QP_SHIFT;
	b->sge.addr = (uint64_t)(uintptr_t)rdp_conn_tx(conn, q);
	b->sge.length = (uint32_t)p->size_bytes;
	b->sge.lkey = conn->mr->lkey;
	for (i = 0; i < POST_BATCH; i++) {
		struct ibv_send_wr *wr = &b->wr[i];

		wr->next = i + 1 < POST_BATCH ? &b->wr[i + 1] : NULL;
		wr->sg_list = &b->sge;
		wr->num_sge = 1;
		wr->opcode = IBV_WR_RDMA_WRITE;
		wr->wr.rdma.remote_addr = conn->remote[q].addr;
		wr->wr.rdma.rkey = conn->remote[q].rkey;
	}
}

static int setup(const struct rdp_run *run, struct bw_state *st)
{
	const struct rdp_params *p = run->params;
	uint64_t limit = p->duration_s ? UINT64_MAX : p->iters;
	uint32_t q;

	memset(st, 0, sizeof(*st));
	st->num_qps = p->num_qps;
	st->tx_depth = p->tx_depth;
	st->cq_mod = p->cq_mod < p->tx_depth ? p->cq_mod : p->tx_depth;
	st->msg_bytes = p->size_bytes;
	st->target_msgs = p->duration_s ? UINT64_MAX : p->iters * p->num_qps;
	st->end_cycles = UINT64_MAX;
	if (p->duration_s) {
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
	st->qps = calloc(p->num_qps, sizeof(*st->qps));
	st->samples = calloc(st->cap + 1, sizeof(*st->samples));
	if (!st->qps || !st->samples)
		return -ENOMEM;
	for (q = 0; q < p->num_qps; q++)
		setup_qp(&st->qps[q], run, q, limit);
	return 0;
}

static inline int post_window(struct bw_state *st, struct bw_qp *b)
{
	uint64_t room = st->tx_depth - (b->posted - b->completed);
	uint64_t left = b->limit - b->posted;
	uint64_t n = room < left ? room : left;
	struct ibv_send_wr *bad;
	uint64_t i, p;
	int ret;

	if (n == 0)
		return 0;
	if (n > POST_BATCH)
		n = POST_BATCH;
	for (i = 0; i < n; i++) {
		p = b->posted + i + 1;
		b->wr[i].wr_id = b->id | p;
		b->wr[i].send_flags = 0;
		if (p % st->cq_mod == 0 || p == b->limit) {
			b->wr[i].send_flags = IBV_SEND_SIGNALED;
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

/* Retire completions; returns how many, or -EIO on a failed one. */
static inline int reap(struct rdp_run *run, struct bw_state *st,
		       struct ibv_wc *wc)
{
	int n = ibv_poll_cq(run->conn->cq, POLL_BATCH, wc);
	int i;

	for (i = 0; i < n; i++) {
		struct bw_qp *b;
		uint64_t c;

		if (wc[i].status != IBV_WC_SUCCESS)
			return rdp_bench_wc_error(run, &wc[i]);
		b = &st->qps[wc[i].wr_id >> WRID_QP_SHIFT];
		c = wc[i].wr_id & WRID_COUNT_MASK;
		st->done += c - b->completed;
		b->completed = c;
	}
	return n < 0 ? -EIO : n;
}

static int stalled(struct rdp_run *run, const struct bw_state *st)
{
	uint64_t out = 0;
	uint32_t q;

	for (q = 0; q < st->num_qps; q++)
		out += st->qps[q].posted - st->qps[q].completed;
	rdp_errbuf(run->errtext, sizeof(run->errtext),
		   "no completion for %.1f s with %llu writes outstanding on "
		   "%u QP(s): the peer or the link stopped responding",
		   rdp_clock_ns(run->clk, run->stall_cycles) / 1e9,
		   (unsigned long long)out, st->num_qps);
	return -ETIMEDOUT;
}

static int post_all(struct rdp_run *run, struct bw_state *st)
{
	uint32_t q;
	int ret;

	for (q = 0; q < st->num_qps; q++) {
		ret = post_window(st, &st->qps[q]);
		if (ret) {
			rdp_errbuf(run->errtext, sizeof(run->errtext),
				   "post RDMA WRITE on qp 0x%x: %s",
				   st->qps[q].qp->qp_num, strerror(-ret));
			return ret;
		}
	}
	return 0;
}

/* The timed loop: post, poll, sample. Mode differences are data
 * (target_msgs, end_cycles, sample_step), not branches. */
static int timed_loop(struct rdp_run *run, struct bw_state *st,
		      uint64_t *start_out)
{
	struct ibv_wc wc[POLL_BATCH];
	uint64_t start, now, progress, next_sample = 0;
	int ret;

	start = now = progress = rdp_cycles();
	if (run->params->duration_s)
		st->end_cycles =
			start + rdp_clock_cycles_of_ms(run->clk,
						       run->params->duration_s *
							       1000ull);
	st->samples[0] = (struct rdp_bw_sample){ start, 0 };
	st->last_cycles = start;
	st->nsamples = 1;
	while (st->done < st->target_msgs && now < st->end_cycles) {
		ret = post_all(run, st);
		if (ret)
			return ret;
		ret = reap(run, st, wc);
		now = rdp_cycles();
		if (ret < 0)
			return ret;
		if (ret == 0) {
			if (now - progress > run->stall_cycles)
				return stalled(run, st);
			continue;
		}
		progress = now;
		st->last_cycles = now;
		if (now >= next_sample && st->nsamples < st->cap) {
			st->samples[st->nsamples++] = (struct rdp_bw_sample){
				now, st->done * st->msg_bytes
			};
			next_sample = now + st->sample_step;
		}
	}
	*start_out = start;
	return 0;
}

/* After the clock stops: wait for every signaled write, so no completion
 * is left behind when the QPs are destroyed. */
static int drain(struct rdp_run *run, struct bw_state *st)
{
	struct ibv_wc wc[POLL_BATCH];
	uint64_t progress = rdp_cycles();
	uint32_t q;
	int ret;

	for (q = 0; q < st->num_qps; q++) {
		while (st->qps[q].completed < st->qps[q].last_signaled) {
			ret = reap(run, st, wc);
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

static int client(struct rdp_run *run, struct rdp_result *res)
{
	struct bw_state st;
	uint64_t start = 0, done_at_stop;
	int ret;

	ret = setup(run, &st);
	if (ret)
		goto out;
	ret = timed_loop(run, &st, &start);
	if (ret)
		goto out;
	done_at_stop = st.done;
	/* The last completion always closes the series. */
	if (st.samples[st.nsamples - 1].bytes != done_at_stop * st.msg_bytes)
		st.samples[st.nsamples++] =
			(struct rdp_bw_sample){ st.last_cycles,
						done_at_stop * st.msg_bytes };
	ret = drain(run, &st);
	if (ret)
		goto out;
	res->msgs = done_at_stop;
	rdp_result_bw(res, st.samples, st.nsamples, start, run->clk);
out:
	free(st.qps);
	free(st.samples);
	return ret;
}

/* The server only lends its buffer; the session checks the data after. */
static int server(struct rdp_run *run, struct rdp_result *res)
{
	(void)run;
	(void)res;
	return 0;
}

static int validate(const struct rdp_params *p, char *why, size_t len)
{
	if (p->size_bytes == 0 || p->size_bytes > (1ull << 30)) {
		snprintf(why, len,
			 "write_bw needs a message size of 1 byte "
			 "to 1 GiB (-s)");
		return -EINVAL;
	}
	return 0;
}

const struct rdp_bench_ops rdp_bench_write_bw = {
	.name = "write_bw",
	.title = "RDMA WRITE bandwidth",
	.kind = RDP_BENCH_BW,
	.check = RDP_CHECK_SERVER_RX,
	.check_tail_bytes = 0,
	.validate = validate,
	.client = client,
	.server = server,
};
