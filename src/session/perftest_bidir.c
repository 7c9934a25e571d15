/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A perftest 6.28+ client's -b at rdmaperf-server, which takes the test
 * from the client's parameter block: the block has no field for -b, so
 * the server reads it from what the client does next, where it can, and
 * refuses it in one line naming the one-shot server that serves it.
 *
 *   write_bw, read_bw, atomic_bw -b -D  a barrier before the run, before
 *                                       half the time a one-way client
 *                                       must run
 *   write_bw, read_bw -b -a             a barrier after the first size's
 *                                       run, where a one-way client
 *                                       sends its report
 *   send_bw -b -n                       no closing barrier after the
 *                                       run: it waits for this side's
 *                                       SENDs
 *
 * What stays out of sight (the RDMA tests' -b on one size under -n,
 * whose barriers and reports come as a one-way client's do, and send_bw
 * -b -D) is served one way, as the block asks.
 */
#include <errno.h>
#include <string.h>

#include <infiniband/verbs.h>

#include <rdmaperf/engine.h>
#include <rdmaperf/log.h>

#include "perftest_int.h"
#include "session_int.h"

/* How long a one-way send_bw client may take from its last message to
 * its closing barrier: its report first, whose clock estimate takes a
 * fraction of a second; a -b client never sends it. */
#define PT_CLOSE_AFTER_RUN_MS 5000

int rdp_perftest_refuse_bidir(struct pt_peer *c, const char *seen)
{
	const char *t = c->s->o->bench->name;

	rdp_err("perftest %s client from %s runs %s -b (%s), which its "
		"parameter block does not carry: rdmaperf-server serves one "
		"way; start a one-shot `rdmaperf %s -b --perftest [its "
		"options] -p PORT` for it and point it at that port",
		c->version, c->s->oob.peer, t, seen, t);
	return -EPROTONOSUPPORT;
}

int rdp_perftest_bidir_early(struct pt_peer *c, uint64_t since_cycles,
			     int timeout_ms)
{
	uint64_t run_ns = (uint64_t)c->s->p.duration_s * 1000000000ull;
	uint8_t b;
	int n;

	if (!c->from_block || !run_ns)
		return 0;
	n = rdp_oob_peek(&c->s->oob, &b, 1, timeout_ms);
	if (n < 0)
		return 0; /* the barrier's read says why */
	if (rdp_clock_ns(&c->s->clk, rdp_cycles() - since_cycles) >= run_ns / 2)
		return 0;
	return rdp_perftest_refuse_bidir(c, "its barrier came before its "
					    "-D run could have ended");
}

int rdp_perftest_bidir_late(struct pt_peer *c)
{
	uint8_t b;

	if (!c->from_block || !c->all)
		return 0;
	/* A one-way client waits for the answer to its report's first
	 * field; a -b one's sweep sent a whole key message after its first
	 * size. */
	if (rdp_oob_peek(&c->s->oob, &b, 1, 50) != 1)
		return 0;
	return rdp_perftest_refuse_bidir(c, "a barrier after its first "
					    "size, where its report belongs");
}

/* An RDMA WRITE with a key the client never gave: its QP takes it as a
 * remote access error and goes to the error state, which flushes the
 * receives its -b loop waits on, so it ends at once. */
static void end_client_loop(struct pt_peer *c)
{
	const struct rdp_conn *conn = c->s->conn;
	struct ibv_sge sge;
	struct ibv_send_wr wr = { .opcode = IBV_WR_RDMA_WRITE,
				  .sg_list = &sge,
				  .num_sge = 1,
				  .send_flags = IBV_SEND_SIGNALED },
			   *bad;

	if (!conn || !conn->qps || !conn->qps[0] || !conn->remote || !conn->mr)
		return; /* an engine without verbs QPs */
	sge = (struct ibv_sge){ .addr = (uintptr_t)rdp_conn_tx(conn, 0),
				.length = 1,
				.lkey = rdp_conn_lkey(conn, 0) };
	wr.wr.rdma.remote_addr = conn->remote[0].addr;
	wr.wr.rdma.rkey = ~conn->remote[0].rkey;
	/* Not posted: the client's own watchdog ends its loop instead. */
	(void)ibv_post_send(conn->qps[0], &wr, &bad);
}

int rdp_perftest_bidir_close(struct pt_peer *c)
{
	uint8_t b;
	int n;

	if (!c->from_block || c->seq != PT_SEND_BW || c->s->p.duration_s)
		return 0;
	n = rdp_oob_peek(&c->s->oob, &b, 1, PT_CLOSE_AFTER_RUN_MS);
	if (n != -ETIMEDOUT)
		return 0; /* the barrier's read says what came */
	end_client_loop(c);
	return rdp_perftest_refuse_bidir(c, "no closing barrier after its "
					    "run: it waits for this side's "
					    "messages");
}
