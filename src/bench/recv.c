/* SPDX-License-Identifier: BSD-2-Clause */
/* Receive side of the SEND tests: keep every receive queue full, and the
 * bandwidth server's receive loop. */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench_int.h"
#include "validate_int.h"
#include <rdmaperf/clock.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/log.h>
#include <rdmaperf/mcast.h>
#include <rdmaperf/stage.h>

#define POLL_BATCH	32
#define IDLE_CHECK_MASK 0x3ffu

void rdp_recv_wr(const struct rdp_run *run, uint32_t q, struct ibv_recv_wr *wr,
		 struct ibv_sge *sge)
{
	sge->addr = (uint64_t)(uintptr_t)rdp_conn_rx(run->conn, q);
	sge->length = (uint32_t)run->params->size_bytes + run->conn->grh_bytes;
	sge->lkey = rdp_conn_lkey(run->conn, q);
	memset(wr, 0, sizeof(*wr));
	wr->wr_id = q;
	wr->sg_list = sge;
	wr->num_sge = 1;
}

static int post_failed(struct rdp_run *run, uint32_t q, int ret)
{
	if (run->conn->srq)
		rdp_err("post receive on the shared receive queue (slot of "
			"qp %u): %s",
			q, strerror(ret));
	else
		rdp_err("post receive on qp 0x%x: %s",
			run->conn->qps[q]->qp_num, strerror(ret));
	return -ret;
}

/* QP q's receive slot, on its own queue or (srq, a constant in each
 * caller) on the shared one. */
static inline int post_recv(struct rdp_run *run, uint32_t q,
			    struct ibv_recv_wr *wr, const int srq)
{
	struct ibv_recv_wr *bad;
	int ret = srq ? ibv_post_srq_recv(run->conn->srq, wr, &bad)
		      : ibv_post_recv(run->conn->qps[q], wr, &bad);

	return ret ? post_failed(run, q, ret) : 0;
}

/* --recv_post_list: receives go back in chains of this many (1: alone). */
static uint32_t chain_of(const struct rdp_params *p)
{
	return p->recv_post_list > 1 ? p->recv_post_list : 1;
}

/* QP q's chain of n receives into its slot, wrs[0] its head. */
static void recv_chain(const struct rdp_run *run, uint32_t q,
		       struct ibv_recv_wr *wrs, struct ibv_sge *sge, uint32_t n)
{
	uint32_t j;

	for (j = 0; j < n; j++) {
		rdp_recv_wr(run, q, &wrs[j], sge);
		wrs[j].next = j + 1 < n ? &wrs[j + 1] : NULL;
	}
}

/* Round by round over the QPs' slots, so that a shared queue hands out
 * every slot before it hands out one twice; with --recv_post_list in
 * chains, what is left of -r one at a time. */
int rdp_post_receives(struct rdp_run *run)
{
	uint32_t n = run->conn->num_qps, chain = chain_of(run->params);
	uint32_t depth = run->params->rx_depth, q, i;
	struct ibv_recv_wr *wr = calloc((size_t)n * chain, sizeof(*wr));
	struct ibv_sge *sge = calloc(n, sizeof(*sge));
	int ret = wr && sge ? 0 : -ENOMEM;

	for (q = 0; !ret && q < n; q++)
		recv_chain(run, q, &wr[(size_t)q * chain], &sge[q], chain);
	/* --data_validation (which refuses --recv_post_list): message i
	 * into its place */
	for (i = 0; !ret && run->dv.ring > 1 && i < depth; i++)
		for (q = 0; !ret && q < n; q++) {
			rdp_dv_recv_place(run, q, i, &sge[q]);
			ret = rdp_conn_post_recv(run->conn, q, &wr[q]);
		}
	for (i = run->dv.ring > 1 ? depth : 0; !ret && i + chain <= depth;
	     i += chain)
		for (q = 0; !ret && q < n; q++)
			ret = rdp_conn_post_recv(run->conn, q,
						 &wr[(size_t)q * chain]);
	for (; !ret && i < depth; i++)
		for (q = 0; !ret && q < n; q++)
			ret = rdp_conn_post_recv(
				run->conn, q,
				&wr[(size_t)q * chain + chain - 1]);
	if (ret > 0)
		ret = post_failed(run, q - 1, ret);
	free(wr);
	free(sge);
	return ret;
}

/* Has the client sent something (DONE, or an ERROR)? */
static int peer_spoke(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return poll(&pfd, 1, 0) > 0;
}

struct recv_loop {
	struct ibv_recv_wr *wrs; /* a chain per QP (one receive alone) */
	struct ibv_sge *sges;
	uint32_t chain;	  /* --recv_post_list, else 1 */
	uint32_t *owed;	  /* chained: each QP's receives not yet back */
	uint64_t *seq;	  /* --data_validation: each QP's messages so far */
	uint64_t *per_qp; /* -g: what each QP of the group took */
	uint64_t got;
};

/* --data_validation: QP q's next message is in its place (RC keeps the
 * order); check it, and let the receive going back take the message
 * rx_depth later into that one's place. */
static inline void check_recv(struct rdp_run *run, struct recv_loop *rl,
			      uint32_t q)
{
	uint64_t s = rl->seq[q]++;

	run->dv.check(run, q, s,
		      rdp_conn_rx(run->conn, q) +
			      (s % run->dv.ring) * run->dv.stride);
	rdp_dv_recv_place(run, q, s + run->params->rx_depth, &rl->sges[q]);
}

/* Count receives and put each buffer straight back; with --bounce
 * (`staged`, a constant in each caller) copy it to the GPU first; with
 * --use-srq (`srq`) onto the shared queue; with --recv_post_list
 * (`chained`) a QP's receives go back a chain at a time; with
 * --data_validation (`checked`) each message is checked first; with -g (`group`) each
 * QP's copies are counted too. */
static inline int recv_batch(struct rdp_run *run, struct recv_loop *rl,
			     const int staged, const int srq, const int chained,
			     const int checked, const int group)
{
	uint32_t q;
	struct ibv_wc wc[POLL_BATCH];
	int n, i, ret;

	n = ibv_poll_cq(run->conn->cq, POLL_BATCH, wc);
	for (i = 0; i < n; i++) {
		if (wc[i].status != IBV_WC_SUCCESS)
			return rdp_bench_wc_error(&wc[i]);
		if (!(wc[i].opcode & IBV_WC_RECV))
			continue;
		/* An empty message is the sender's closing fence (UD). */
		rl->got += wc[i].byte_len > run->conn->grh_bytes;
		if (staged) {
			ret = rdp_stage_in(run->conn->stage,
					   (uint32_t)wc[i].wr_id, 1);
			if (ret)
				return ret;
		}
		q = (uint32_t)wc[i].wr_id;
		if (group)
			rl->per_qp[q] += wc[i].byte_len > run->conn->grh_bytes;
		if (checked && wc[i].byte_len)
			check_recv(run, rl, q);
		if (chained && ++rl->owed[q] < rl->chain)
			continue;
		if (chained)
			rl->owed[q] = 0;
		ret = post_recv(run, q,
				chained ? &rl->wrs[(size_t)q * rl->chain]
					: &rl->wrs[q],
				srq);
		if (ret)
			return ret;
	}
	return n < 0 ? -EIO : n;
}

typedef int (*recv_batch_fn)(struct rdp_run *run, struct recv_loop *rl);

#define RECV_BATCH(name, staged, srq, chained, checked, group)                 \
	static int name(struct rdp_run *run, struct recv_loop *rl)             \
	{                                                                      \
		return recv_batch(run, rl, staged, srq, chained, checked,      \
				  group);                                      \
	}

/* --use-srq refuses --bounce. */
RECV_BATCH(recv_batch_plain, 0, 0, 0, 0, 0)
RECV_BATCH(recv_batch_staged, 1, 0, 0, 0, 0)
RECV_BATCH(recv_batch_srq, 0, 1, 0, 0, 0)
RECV_BATCH(recv_batch_chain, 0, 0, 1, 0, 0)
RECV_BATCH(recv_batch_chain_staged, 1, 0, 1, 0, 0)
RECV_BATCH(recv_batch_chain_srq, 0, 1, 1, 0, 0)
/* --data_validation refuses --bounce, --use-srq and --recv_post_list. */
RECV_BATCH(recv_batch_checked, 0, 0, 0, 1, 0)
/* -g on the QPs' own receive queues (UD: host memory, no --bounce, no
 * --recv_post_list); with --use-srq a slot names no QP, and only the total
 * is counted. */
RECV_BATCH(recv_batch_group, 0, 0, 0, 0, 1)

/* -g: what each QP of the group took, one line each in the server's log,
 * and in res for the RESULT that takes them to the client's report. */
static void group_report(const struct rdp_run *run, const uint64_t *per_qp,
			 struct rdp_result *res)
{
	char text[RDP_MGID_STR_MAX];
	uint32_t q, n = run->conn->num_qps;

	rdp_mgid_str(run->conn->mcast_gid, text, sizeof(text));
	for (q = 0; q < n; q++)
		rdp_info("multicast group %s: qp 0x%x received %llu messages",
			 text, run->conn->qps[q]->qp_num,
			 (unsigned long long)per_qp[q]);
	free(res->group);
	res->n_group = 0;
	res->group = calloc(n, sizeof(*res->group));
	if (!res->group)
		return; /* the log has them */
	for (q = 0; q < n; q++) {
		res->group[q].index = q;
		res->group[q].qp_num = run->conn->qps[q]->qp_num;
		res->group[q].msgs = per_qp[q];
		res->group[q].bytes = per_qp[q] * run->params->size_bytes;
	}
	res->n_group = n;
}

/* The batch of run's receive loop, picked once. */
static recv_batch_fn batch_of(const struct rdp_run *run)
{
	static const recv_batch_fn fns[2][3] = {
		{ recv_batch_plain, recv_batch_staged, recv_batch_srq },
		{ recv_batch_chain, recv_batch_chain_staged,
		  recv_batch_chain_srq },
	};
	int kind = run->conn->srq ? 2 : run->conn->stage ? 1 : 0;

	if (run->dv.ring > 1)
		return recv_batch_checked;
	if (run->conn->mcast && kind == 0)
		return recv_batch_group;

	return fns[chain_of(run->params) > 1][kind];
}

/* A lossy transport (UC, UD): the client's DONE may overtake its last
 * messages, which nothing acknowledged. Take what still arrives until the
 * link has been quiet for the row's late_quiet_ms, so that only messages
 * that never came count as lost. */
static int drain_late(struct rdp_run *run, struct recv_loop *rl,
		      recv_batch_fn batch, uint64_t *last)
{
	uint64_t quiet =
		rdp_clock_cycles_of_ms(run->clk, run->conn->tp->late_quiet_ms);
	uint64_t since = rdp_cycles();
	int n;

	while (rdp_cycles() - since < quiet) {
		n = batch(run, rl);
		if (n < 0)
			return n;
		if (n > 0)
			*last = since = rdp_cycles();
	}
	return 0;
}

/* Until the expected count (iteration mode) or the client's DONE; res
 * gets the count and the time from the first receive to the last. */
int rdp_bw_server_recv(struct rdp_run *run, struct rdp_result *res)
{
	const struct rdp_params *p = run->params;
	/* -g: every QP of the group takes every QP's messages */
	uint64_t group = run->conn->mcast ? p->num_qps : 1;
	uint64_t target = p->duration_s ? UINT64_MAX
					: p->iters * p->num_qps * group;
	recv_batch_fn batch = batch_of(run);
	struct recv_loop rl = { .chain = chain_of(p) };
	uint64_t progress = rdp_cycles(), first = 0;
	unsigned int idle = 0;
	int ev = run->conn->channel != NULL, armed = 0;
	int stall_ms =
		(int)(rdp_clock_ns(run->clk, run->stall_cycles) / 1e6) + 1;
	uint32_t q;
	int n = 0;

	rl.wrs = calloc((size_t)p->num_qps * rl.chain, sizeof(*rl.wrs));
	rl.sges = calloc(p->num_qps, sizeof(*rl.sges));
	rl.owed = calloc(p->num_qps, sizeof(*rl.owed));
	rl.seq = calloc(p->num_qps, sizeof(*rl.seq));
	rl.per_qp = calloc(p->num_qps, sizeof(*rl.per_qp));
	if (!rl.wrs || !rl.sges || !rl.owed || !rl.seq || !rl.per_qp) {
		n = -ENOMEM;
		goto out;
	}
	for (q = 0; q < p->num_qps; q++)
		recv_chain(run, q, &rl.wrs[(size_t)q * rl.chain], &rl.sges[q],
			   rl.chain);
	while (rl.got < target) {
		n = batch(run, &rl);
		if (n < 0)
			break;
		if (n > 0) {
			progress = rdp_cycles();
			if (!first)
				first = progress;
			continue;
		}
		/* -e: sleep until a completion or the client's next message */
		if (ev) {
			n = rdp_conn_cq_sleep(run->conn, &armed, run->oob_fd,
					      stall_ms);
			if (n == 1 || n == -ETIMEDOUT)
				break;
			if (n < 0)
				goto out;
			continue;
		}
		if (++idle & IDLE_CHECK_MASK)
			continue;
		if (peer_spoke(run->oob_fd))
			break;
		if (rdp_cycles() - progress > run->stall_cycles) {
			n = -ETIMEDOUT;
			break;
		}
	}
	if (n == -ETIMEDOUT)
		rdp_err("no message for %.1f s after %llu received: the client "
			"or the link stopped",
			rdp_clock_ns(run->clk, run->stall_cycles) / 1e9,
			(unsigned long long)rl.got);
	if (n == 1)
		n = 0;
	if (n >= 0 && !run->conn->tp->reliable)
		n = drain_late(run, &rl, batch, &progress);
	res->msgs = rl.got;
	res->elapsed_ns = first ? rdp_clock_ns(run->clk, progress - first) : 0;
	if (n >= 0 && batch == recv_batch_group)
		group_report(run, rl.per_qp, res);
out:
	free(rl.wrs);
	free(rl.sges);
	free(rl.owed);
	free(rl.seq);
	free(rl.per_qp);
	return n < 0 ? n : 0;
}
