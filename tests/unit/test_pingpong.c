/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The ping-pong engine (src/bench/pingpong.c) in one process: the verbs
 * calls of one QP go to a fake context whose peer answers each message at
 * once, as rdmaperf's echo, rdmaperf's pinging client or perftest would.
 * Also: which variant each test, side and peer gets, and what each
 * latency test's figure measures.
 */
#include <errno.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <infiniband/verbs.h>

#include "unit.h"
#include "../../src/bench/bench_int.h"
#include "../../src/bench/pingpong_int.h"
#include <rdmaperf/bench.h>
#include <rdmaperf/clock.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/log.h>
#include <rdmaperf/oob.h>

#define SLOT  64
#define RING  64
#define ITERS 100

enum peer_role {
	PEER_ECHO,  /* rdmaperf's server: answer each ping with its tag */
	PEER_PINGS, /* rdmaperf's client: a ping per answer, then the stop */
	PEER_PT,    /* perftest: message n + 1 for our n, up to limit */
};

/* The fake device and the peer behind it; one test at a time. */
static struct fake {
	struct ibv_context ctx;
	struct ibv_qp qp;
	struct ibv_cq cq;
	struct ibv_srq srq;
	struct ibv_wc ring[RING];
	unsigned int head, tail;
	enum peer_role role;
	int sends;	 /* the peer's messages arrive as receives */
	int with_imm;	 /* ... carrying an immediate value */
	int wrong_tag;	 /* PEER_ECHO: answer with another tag */
	int silent;	 /* never answer */
	uint64_t next;	 /* PEER_PINGS: pings sent; PEER_PT: last number */
	uint64_t limit;	 /* PEER_PINGS, PEER_PT: how many */
	uint8_t *rx_tag; /* where the peer's writes land */
	/* what we did */
	uint64_t posted, signaled, recvs_posted, srq_posted;
	uint8_t last_tag;
	uint32_t last_imm;
	enum ibv_wr_opcode last_opcode;
	int last_signaled;
} fk;

static void push(const struct ibv_wc *wc)
{
	fk.ring[fk.tail++ % RING] = *wc;
	assert_true(fk.tail - fk.head <= RING);
}

/* The peer's message: its tag into our slot (WRITE), a receive
 * completion where one comes. */
static void deliver(uint8_t tag, uint32_t imm)
{
	struct ibv_wc wc = { .status = IBV_WC_SUCCESS };

	if (!fk.sends)
		fk.rx_tag[0] = tag;
	if (!fk.sends && !fk.with_imm)
		return;
	wc.opcode = fk.sends ? IBV_WC_RECV : IBV_WC_RECV_RDMA_WITH_IMM;
	if (fk.with_imm) {
		wc.wc_flags = IBV_WC_WITH_IMM;
		wc.imm_data = htonl(imm);
	}
	push(&wc);
}

/* rdmaperf's client's next ping, or its stop after limit of them. */
static void next_ping(void)
{
	if (fk.next++ < fk.limit)
		deliver((uint8_t)(fk.next % 255 + 1), 0);
	else
		deliver(0, 1);
}

static int fake_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
			  struct ibv_send_wr **bad)
{
	const uint8_t *tx = (const uint8_t *)(uintptr_t)wr->sg_list->addr;
	struct ibv_wc wc = { .status = IBV_WC_SUCCESS, .wr_id = wr->wr_id };
	int stop;

	(void)qp;
	(void)bad;
	assert_null(wr->next);
	fk.posted++;
	fk.last_tag = tx[wr->sg_list->length - 1];
	fk.last_imm = ntohl(wr->imm_data);
	fk.last_opcode = wr->opcode;
	fk.last_signaled = !!(wr->send_flags & IBV_SEND_SIGNALED);
	if (fk.last_signaled) {
		fk.signaled++;
		wc.opcode = fk.sends ? IBV_WC_SEND : IBV_WC_RDMA_WRITE;
		push(&wc);
	}
	if (fk.silent)
		return 0;
	stop = wr->opcode == IBV_WR_SEND_WITH_IMM ? fk.last_imm == 1
						  : fk.last_tag == 0;
	switch (fk.role) {
	case PEER_ECHO:
		if (!stop)
			deliver(fk.last_tag + (fk.wrong_tag ? 1 : 0), 0);
		break;
	case PEER_PINGS:
		next_ping();
		break;
	case PEER_PT:
		if (fk.next < fk.limit) {
			fk.next++;
			deliver((uint8_t)fk.next, 0);
		}
		break;
	}
	return 0;
}

static int fake_poll_cq(struct ibv_cq *cq, int n, struct ibv_wc *wc)
{
	(void)cq;
	if (n < 1 || fk.head == fk.tail)
		return 0;
	*wc = fk.ring[fk.head++ % RING];
	return 1;
}

static int fake_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr,
			  struct ibv_recv_wr **bad)
{
	(void)qp;
	(void)wr;
	(void)bad;
	fk.recvs_posted++;
	return 0;
}

static int fake_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr,
			      struct ibv_recv_wr **bad)
{
	(void)srq;
	(void)wr;
	(void)bad;
	fk.srq_posted++;
	return 0;
}

/* One side's run of test with flags on the fake QP. */
struct env {
	struct rdp_params p;
	struct rdp_conn conn;
	struct rdp_run run;
	struct rdp_clock clk;
	struct rdp_qp_info remote;
	struct ibv_mr mr;
	struct ibv_qp *qps[1];
	uint8_t buf[2 * SLOT];
	struct rdp_result res;
};

static void setup_env(struct env *e, const char *test, uint32_t flags,
		      enum rdp_side side, enum peer_role role)
{
	memset(e, 0, sizeof(*e));
	memset(&fk, 0, sizeof(fk));
	fk.ctx.ops.post_send = fake_post_send;
	fk.ctx.ops.poll_cq = fake_poll_cq;
	fk.ctx.ops.post_recv = fake_post_recv;
	fk.ctx.ops.post_srq_recv = fake_post_srq_recv;
	fk.qp.context = &fk.ctx;
	fk.qp.qp_num = 0x1a2;
	fk.cq.context = &fk.ctx;
	fk.srq.context = &fk.ctx;
	fk.role = role;
	fk.limit = ITERS;

	snprintf(e->p.test, sizeof(e->p.test), "%s", test);
	e->p.size_bytes = 8;
	e->p.iters = ITERS;
	e->p.num_qps = 1;
	e->p.tx_depth = 16;
	e->p.rx_depth = 16;
	e->p.flags = flags;
	e->qps[0] = &fk.qp;
	e->conn.buf = e->buf;
	e->conn.buf_bytes = sizeof(e->buf);
	e->conn.slot_bytes = SLOT;
	e->conn.mr = &e->mr;
	e->conn.qps = e->qps;
	e->conn.num_qps = 1;
	e->conn.cq = &fk.cq;
	e->conn.remote = &e->remote;
	e->conn.qp_type = IBV_QPT_RC;
	e->clk.cycles_per_ns = 1.0;
	e->clk.source = "test";
	e->run.params = &e->p;
	e->run.ops = rdp_bench_find(test);
	assert_non_null(e->run.ops);
	e->run.conn = &e->conn;
	e->run.clk = &e->clk;
	e->run.side = side;
	/* far beyond any wait of these runs */
	e->run.stall_cycles = 2000000000ull;
	rdp_bench_decide(e->run.ops, &e->p, &e->conn, &e->run.dec);

	fk.sends = e->run.ops->verb == RDP_VERB_SEND;
	fk.with_imm = fk.sends || (flags & RDP_PARAM_WRITE_IMM);
	fk.rx_tag = rdp_conn_rx(&e->conn, 0) + e->p.size_bytes - 1;
}

/* What each test measures, and who runs the ping-pong engine. */
static void test_rows(void **state)
{
	static const struct {
		const char *test;
		enum rdp_lat_kind kind;
		int pingpong;
	} rows[] = {
		{ "write_lat", RDP_LAT_ONE_WAY, 1 },
		{ "send_lat", RDP_LAT_ONE_WAY, 1 },
		{ "read_lat", RDP_LAT_ROUND_TRIP, 0 },
		{ "atomic_lat", RDP_LAT_ROUND_TRIP, 0 },
	};
	const struct rdp_bench_ops *const *all;
	const struct rdp_bench_ops *ops;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		ops = rdp_bench_find(rows[i].test);
		assert_non_null(ops);
		assert_int_equal(ops->kind, RDP_BENCH_LAT);
		assert_int_equal(ops->lat_kind, rows[i].kind);
		assert_int_equal(!!(ops->flags & RDP_BENCH_PINGPONG),
				 rows[i].pingpong);
		assert_int_equal(ops->client == rdp_pingpong, rows[i].pingpong);
		assert_int_equal(ops->server == rdp_pingpong, rows[i].pingpong);
	}
	/* Every test that runs the engine says so in its flags. */
	for (all = rdp_bench_all(); *all; all++)
		assert_int_equal((*all)->client == rdp_pingpong,
				 !!((*all)->flags & RDP_BENCH_PINGPONG));
}

static void test_variants(void **state)
{
	const struct rdp_bench_ops *w = rdp_bench_find("write_lat");
	const struct rdp_bench_ops *s = rdp_bench_find("send_lat");
	struct rdp_params p = { 0 };
	struct rdp_params imm = { .flags = RDP_PARAM_WRITE_IMM };
	const enum rdp_side C = RDP_SIDE_CLIENT, S = RDP_SIDE_SERVER;

	(void)state;
	assert_int_equal(rdp_pp_variant(w, &p, C, 0, 0), PP_WRITE);
	assert_int_equal(rdp_pp_variant(w, &p, S, 0, 0), PP_WRITE);
	assert_int_equal(rdp_pp_variant(w, &imm, C, 0, 0), PP_WRITE_IMM);
	assert_int_equal(rdp_pp_variant(w, &imm, S, 0, 0), PP_WRITE_IMM);
	assert_int_equal(rdp_pp_variant(s, &p, C, 0, 0), PP_SEND);
	assert_int_equal(rdp_pp_variant(s, &p, S, 0, 1), PP_SEND_EVENTS);
	/* perftest's write ping-pong starts at its server, its send
	 * ping-pong at its client. */
	assert_int_equal(rdp_pp_variant(w, &p, S, 1, 0), PP_PT_WRITE_FIRST);
	assert_int_equal(rdp_pp_variant(w, &p, C, 1, 0), PP_PT_WRITE_REPLY);
	assert_int_equal(rdp_pp_variant(s, &p, C, 1, 0), PP_PT_SEND_FIRST);
	assert_int_equal(rdp_pp_variant(s, &p, S, 1, 0), PP_PT_SEND_REPLY);
}

/* The client: ITERS round trips measured, then the stop, signaled. */
static void test_write_client(void **state)
{
	struct env e;

	(void)state;
	setup_env(&e, "write_lat", 0, RDP_SIDE_CLIENT, PEER_ECHO);
	assert_int_equal(rdp_pingpong(&e.run, &e.res), 0);
	assert_int_equal(e.res.lat.n, ITERS);
	assert_int_equal(fk.posted, ITERS + 1);
	assert_int_equal(fk.last_tag, 0);
	assert_true(fk.last_signaled);
	assert_int_equal(fk.last_opcode, IBV_WR_RDMA_WRITE);
	assert_int_equal(fk.recvs_posted, 0);
	assert_int_equal(fk.head, fk.tail);
}

/* --write_with_imm: each answer a receive completion, put back. */
static void test_write_imm_client(void **state)
{
	struct env e;

	(void)state;
	setup_env(&e, "write_lat", RDP_PARAM_WRITE_IMM, RDP_SIDE_CLIENT,
		  PEER_ECHO);
	assert_int_equal(rdp_pingpong(&e.run, &e.res), 0);
	assert_int_equal(e.res.lat.n, ITERS);
	assert_int_equal(fk.last_opcode, IBV_WR_RDMA_WRITE_WITH_IMM);
	assert_int_equal(fk.recvs_posted, ITERS);
}

static void test_send_client(void **state)
{
	struct env e;

	(void)state;
	setup_env(&e, "send_lat", 0, RDP_SIDE_CLIENT, PEER_ECHO);
	assert_int_equal(rdp_pingpong(&e.run, &e.res), 0);
	assert_int_equal(e.res.lat.n, ITERS);
	assert_int_equal(fk.posted, ITERS + 1);
	assert_int_equal(fk.last_opcode, IBV_WR_SEND_WITH_IMM);
	assert_int_equal(fk.last_imm, 1);
	assert_true(fk.last_signaled);
	assert_int_equal(fk.recvs_posted, ITERS);
}

/* The server echoes each ping and ends at the stop, measuring nothing. */
static void test_echo(void **state)
{
	static const struct {
		const char *test;
		uint32_t flags;
	} cases[] = {
		{ "write_lat", 0 },
		{ "write_lat", RDP_PARAM_WRITE_IMM },
		{ "send_lat", 0 },
	};
	struct env e;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		setup_env(&e, cases[i].test, cases[i].flags, RDP_SIDE_SERVER,
			  PEER_PINGS);
		next_ping();
		assert_int_equal(rdp_pingpong(&e.run, &e.res), 0);
		assert_int_equal(fk.posted, ITERS);
		assert_int_equal(e.res.lat.n, 0);
		/* every signaled echo seen through */
		assert_int_equal(fk.head, fk.tail);
	}
}

/* --use-srq: the receives go back to the shared queue. */
static void test_send_srq(void **state)
{
	struct env e;

	(void)state;
	setup_env(&e, "send_lat", RDP_PARAM_SRQ, RDP_SIDE_SERVER, PEER_PINGS);
	e.conn.srq = &fk.srq;
	next_ping();
	assert_int_equal(rdp_pingpong(&e.run, &e.res), 0);
	assert_int_equal(fk.srq_posted, ITERS + 1);
	assert_int_equal(fk.recvs_posted, 0);
}

/* perftest's write: its server writes first; the side that waits first
 * measures one round trip fewer and writes the last message. */
static void test_perftest_write(void **state)
{
	struct env e;

	(void)state;
	setup_env(&e, "write_lat", 0, RDP_SIDE_CLIENT, PEER_PT);
	e.run.counted_pingpong = 1;
	fk.next = 1;
	deliver(1, 0);
	assert_int_equal(rdp_pingpong(&e.run, &e.res), 0);
	assert_int_equal(e.res.lat.n, ITERS - 1);
	assert_int_equal(fk.posted, ITERS);
	assert_int_equal(fk.last_tag, ITERS % 256);
	assert_true(fk.last_signaled);
}

/* perftest's send: its client sends first, no immediate data, no stop;
 * at most -n receives in all. */
static void test_perftest_send(void **state)
{
	struct env e;

	(void)state;
	setup_env(&e, "send_lat", 0, RDP_SIDE_CLIENT, PEER_PT);
	e.run.counted_pingpong = 1;
	fk.with_imm = 0;
	assert_int_equal(rdp_pingpong(&e.run, &e.res), 0);
	assert_int_equal(e.res.lat.n, ITERS);
	assert_int_equal(fk.posted, ITERS);
	assert_int_equal(fk.last_opcode, IBV_WR_SEND);
	assert_int_equal(fk.recvs_posted, ITERS - e.p.rx_depth);
}

/* --latency_gap facing perftest: a pause before each message this side
 * posts, as perftest's own, left out of the figures; the sequence and its
 * counts are those without it. */
static void test_perftest_gap(void **state)
{
	static const char *const tests[] = { "write_lat", "send_lat" };
	const uint64_t gap = 1000000; /* cycles: 1 ms at the fake clock */
	uint64_t t0, took;
	struct env e;
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		setup_env(&e, tests[i], 0, RDP_SIDE_CLIENT, PEER_PT);
		e.run.counted_pingpong = 1;
		e.p.latency_gap_ns = gap;
		if (i == 0) { /* write: the peer's first is already there */
			fk.next = 1;
			deliver(1, 0);
		} else {
			fk.with_imm = 0;
		}
		t0 = rdp_cycles();
		assert_int_equal(rdp_pingpong(&e.run, &e.res), 0);
		took = rdp_cycles() - t0;
		assert_int_equal(e.res.lat.n, i == 0 ? ITERS - 1 : ITERS);
		assert_int_equal(fk.posted, ITERS);
		assert_true(took >= (ITERS - 1) * gap);
		assert_true(e.res.lat.median_ns < (double)gap / 2);
	}
}

/* A wrong answer and no answer: one line naming the QP and the cause. */
static void test_failures(void **state)
{
	struct env e;

	(void)state;
	setup_env(&e, "write_lat", 0, RDP_SIDE_CLIENT, PEER_ECHO);
	fk.wrong_tag = 1;
	assert_int_equal(rdp_pingpong(&e.run, &e.res), -EPROTO);
	assert_non_null(strstr(rdp_last_error(), "qp 0x1a2: matching reply"));

	setup_env(&e, "send_lat", 0, RDP_SIDE_CLIENT, PEER_ECHO);
	fk.silent = 1;
	e.run.stall_cycles = 1000;
	assert_int_equal(rdp_pingpong(&e.run, &e.res), -ETIMEDOUT);
	assert_non_null(strstr(rdp_last_error(),
			       "qp 0x1a2: no reply for 0.0 s after 1 round "
			       "trips: the peer or the link stopped "
			       "responding"));
}

/* The stop word set (a signal): the client ends after the round trip
 * in flight, and still tells the server to stop. */
static void test_stop_word(void **state)
{
	static const int stop = 1;
	struct env e;

	(void)state;
	setup_env(&e, "write_lat", 0, RDP_SIDE_CLIENT, PEER_ECHO);
	e.run.stop = &stop;
	assert_int_equal(rdp_pingpong(&e.run, &e.res), 0);
	assert_int_equal(e.res.lat.n, 1);
	assert_int_equal(fk.posted, 2);
	assert_int_equal(fk.last_tag, 0);
}

/* A silent peer whose out-of-band connection closed ends either side's
 * wait after the watch time, long before the stall time (a minute
 * here), with -ECONNRESET and no line of its own (the session names the
 * peer); one whose connection is open is waited for until the stall. */
static void test_peer_gone(void **state)
{
	static const enum rdp_side sides[] = { RDP_SIDE_SERVER,
					       RDP_SIDE_CLIENT };
	struct env e;
	uint64_t t0;
	size_t i;
	int sv[2];

	(void)state;
	for (i = 0; i < 2; i++) {
		setup_env(&e, "write_lat", 0, sides[i],
			  i ? PEER_ECHO : PEER_PINGS);
		fk.silent = 1;
		assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
		e.run.oob_fd = sv[0];
		e.run.peer_gone = rdp_oob_peer_gone;
		/* open: the stall, as ever */
		e.run.stall_cycles = rdp_clock_cycles_of_ms(&e.clk, 300);
		assert_int_equal(rdp_pingpong(&e.run, &e.res), -ETIMEDOUT);
		setup_env(&e, "write_lat", 0, sides[i],
			  i ? PEER_ECHO : PEER_PINGS);
		fk.silent = 1;
		close(sv[1]);
		e.run.oob_fd = sv[0];
		e.run.peer_gone = rdp_oob_peer_gone;
		e.run.stall_cycles = rdp_clock_cycles_of_ms(&e.clk, 60000);
		rdp_clear_error();
		t0 = rdp_clock_mono_ns();
		assert_int_equal(rdp_pingpong(&e.run, &e.res), -ECONNRESET);
		assert_true(rdp_clock_mono_ns() - t0 < 10000000000ull);
		assert_string_equal(rdp_last_error(), "");
		close(sv[0]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_variants),
		cmocka_unit_test(test_write_client),
		cmocka_unit_test(test_write_imm_client),
		cmocka_unit_test(test_send_client),
		cmocka_unit_test(test_echo),
		cmocka_unit_test(test_send_srq),
		cmocka_unit_test(test_perftest_write),
		cmocka_unit_test(test_perftest_send),
		cmocka_unit_test(test_perftest_gap),
		cmocka_unit_test(test_failures),
		cmocka_unit_test(test_stop_word),
		cmocka_unit_test(test_peer_gone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
