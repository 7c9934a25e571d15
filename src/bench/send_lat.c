/* SPDX-License-Identifier: BSD-2-Clause */
/* SEND latency: ping-pong of sends into pre-posted receives; one-way
 * latency is half the round trip. An immediate value of 1 says stop. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "bench_int.h"
#include <rdmaperf/clock.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/log.h>

#define SPIN_CHECK_MASK 0x3fffu
#define IMM_PING	0
#define IMM_STOP	1

struct slat {
	struct ibv_qp *qp;
	struct ibv_cq *cq;
	struct ibv_send_wr wr;
	struct ibv_sge sge;
	struct ibv_recv_wr rwr;
	struct ibv_sge rsge;
	unsigned int base_flags;
	uint64_t sig_every, tx_depth;
	uint64_t posted, retired, last_signaled;
	uint64_t recvs, consumed;
	uint32_t last_imm;
};

static void setup(const struct rdp_run *run, struct slat *s)
{
	const struct rdp_conn *conn = run->conn;
	const struct rdp_params *p = run->params;

	memset(s, 0, sizeof(*s));
	s->qp = conn->qps[0];
	s->cq = conn->cq;
	s->sge.addr = (uint64_t)(uintptr_t)rdp_conn_tx(conn, 0);
	s->sge.length = (uint32_t)p->size_bytes;
	s->sge.lkey = conn->mr->lkey;
	s->wr.sg_list = &s->sge;
	s->wr.num_sge = 1;
	s->wr.opcode = IBV_WR_SEND_WITH_IMM;
	if (run->dec.inline_used)
		s->base_flags = IBV_SEND_INLINE;
	rdp_recv_wr(run, 0, &s->rwr, &s->rsge);
	s->tx_depth = run->dec.window;
	s->sig_every = run->dec.signal_every;
}

/* Take one completion of either kind; receives are reposted at once. */
static inline int poll_one(struct slat *s)
{
	struct ibv_recv_wr *bad;
	struct ibv_wc wc;
	int n, ret;

	n = ibv_poll_cq(s->cq, 1, &wc);
	if (n <= 0)
		return n < 0 ? -EIO : 0;
	if (wc.status != IBV_WC_SUCCESS)
		return rdp_bench_wc_error(&wc);
	if (!(wc.opcode & IBV_WC_RECV)) {
		s->retired = wc.wr_id;
		return 1;
	}
	s->recvs++;
	s->last_imm = wc.wc_flags & IBV_WC_WITH_IMM ? ntohl(wc.imm_data)
						    : IMM_PING;
	ret = ibv_post_recv(s->qp, &s->rwr, &bad);
	return ret ? -ret : 1;
}

/* Until cond holds: spin, with the stall bound checked now and then. */
static inline int wait_for(struct rdp_run *run, struct slat *s,
			   const uint64_t *have, uint64_t want)
{
	unsigned int spins = 0;
	uint64_t t0 = 0;
	int ret;

	while (*have < want) {
		ret = poll_one(s);
		if (ret < 0)
			return ret;
		if (ret || (++spins & SPIN_CHECK_MASK))
			continue;
		if (!t0)
			t0 = rdp_cycles();
		else if (rdp_cycles() - t0 > run->stall_cycles)
			return -ETIMEDOUT;
	}
	return 0;
}

static inline int post(struct rdp_run *run, struct slat *s, uint32_t imm)
{
	struct ibv_send_wr *bad;
	int ret;

	if (s->posted - s->retired >= s->tx_depth) {
		ret = wait_for(run, s, &s->retired, s->last_signaled);
		if (ret)
			return ret;
	}
	s->posted++;
	s->wr.wr_id = s->posted;
	s->wr.imm_data = htonl(imm);
	s->wr.send_flags = s->base_flags;
	if (s->posted % s->sig_every == 0 || imm == IMM_STOP) {
		s->wr.send_flags |= IBV_SEND_SIGNALED;
		s->last_signaled = s->posted;
	}
	ret = ibv_post_send(s->qp, &s->wr, &bad);
	return ret ? -ret : 0;
}

static int fail(struct rdp_run *run, const struct slat *s, int ret,
		const char *what)
{
	return rdp_lat_fail(run, s->qp->qp_num, s->consumed, ret, what);
}

/* The timed loop: send, wait for the answer, stamp. */
static int ping_loop(struct rdp_run *run, struct slat *s, uint64_t *stamps,
		     uint64_t total, uint64_t end, uint64_t *done)
{
	uint64_t i;
	int ret;

	for (i = 0; i < total; i++) {
		ret = post(run, s, IMM_PING);
		if (ret)
			return fail(run, s, ret, "send");
		ret = wait_for(run, s, &s->recvs, ++s->consumed);
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

static int client(struct rdp_run *run, struct rdp_result *res)
{
	uint64_t total, end, done = 0;
	uint64_t *stamps;
	struct slat s;
	int ret;

	setup(run, &s);
	stamps = rdp_lat_stamps(run, &total, &end);
	if (!stamps)
		return -ENOMEM;
	ret = ping_loop(run, &s, stamps, total, end, &done);
	if (!ret)
		ret = post(run, &s, IMM_STOP);
	if (!ret)
		ret = wait_for(run, &s, &s.retired, s.last_signaled);
	if (ret)
		ret = fail(run, &s, ret, "completion of the last send");
	else
		ret = rdp_lat_result(run, stamps, done, 1, res);
	free(stamps);
	return ret;
}

/* Answer every ping until the stop message. */
static int server(struct rdp_run *run, struct rdp_result *res)
{
	struct slat s;
	int ret;

	(void)res;
	setup(run, &s);
	for (;;) {
		ret = wait_for(run, &s, &s.recvs, ++s.consumed);
		if (ret)
			return fail(run, &s, ret, "ping");
		if (s.last_imm == IMM_STOP)
			break;
		ret = post(run, &s, IMM_PING);
		if (ret)
			return fail(run, &s, ret, "send");
	}
	ret = wait_for(run, &s, &s.retired, s.last_signaled);
	return ret ? fail(run, &s, ret, "completion") : 0;
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
	.flags = RDP_BENCH_RECV | RDP_BENCH_INLINE,
	.default_size = 2,
	.check_unit = "bytes verified after the run",
	.decide = decide,
	.validate = rdp_check_one_qp,
	.prepare = rdp_post_receives,
	.client = client,
	.server = server,
	.verify = rdp_verify_both_rx,
};
