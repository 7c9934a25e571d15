/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The bandwidth engine's timed loop (src/bench/bw.c) in one process: the
 * verbs calls go to a fake link that sends one message every FAKE_MSG_NS,
 * the QPs in turn, on the real clock. A -D run ends at its deadline
 * with every posted message counted and nothing left to drain; a -n run
 * posts and signals what it always did.
 */
#include <errno.h>
#include <infiniband/verbs.h>

#include "unit.h"
#include "../../src/bench/bench_int.h"
#include <rdmaperf/bench.h>
#include <rdmaperf/clock.h>
#include <rdmaperf/engine.h>

#define SLOT	    64
#define MAX_QPS	    2
#define RING	    4096
#define WRID_SHIFT  40	      /* as bw_int.h's BW_WRID_QP_SHIFT */
#define FAKE_MSG_NS 500000ull /* 2000 messages a second */
#define FAKE_LAT_NS 100000ull
/* How far a -D run's last message may complete from its deadline: the
 * taper's own error is a message and a sample step (1 ms); the rest is for
 * a loaded host's scheduling. Without the taper the loop's last counted
 * completion falls up to a signal period (-Q 100: 50 ms) early and the
 * drain after it takes up to a window (-t 128: 64 ms). */
#define TOL_NS 15000000.0
/* The timing is checked only where the loop polled at least this often
 * all through: on a host too busy to run it, no end is on time. */
#define GAP_NS 5000000.0

static struct rdp_clock clk;

/* A posted work request, waiting in its QP's send queue. */
struct pending {
	uint64_t posted_at;
	uint64_t wr_id;
	int signaled;
	int fence; /* the drain's closing operation */
};

/* The fake link, one test at a time: each QP's send queue in order, the
 * queues served one message at a time in turn (as a NIC arbitrates
 * between QPs), completions seen FAKE_LAT_NS after a message went. */
static struct fake {
	struct ibv_context ctx;
	struct ibv_qp qp[MAX_QPS];
	struct ibv_cq cq;
	struct pending sq[MAX_QPS][RING];
	unsigned int sq_head[MAX_QPS], sq_tail[MAX_QPS];
	uint32_t num_qps, turn;
	uint64_t msg_cycles, lat_cycles;
	uint64_t link_free; /* the last message sent went at this time */
	/* what the loop did */
	uint64_t posted, signaled, fences, posted_after_end;
	uint64_t last_done; /* the last message of data seen complete */
	uint64_t last_poll, max_gap; /* the longest wait between polls */
	uint64_t start_cycles,
		end_cycles; /* the test's estimate of the run's */
	int last_signaled[MAX_QPS];
} fk;

static int fake_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
			  struct ibv_send_wr **bad)
{
	uint64_t now = rdp_cycles();
	struct pending *e;
	uint32_t q;

	(void)qp;
	(void)bad;
	for (; wr; wr = wr->next) {
		q = (uint32_t)(wr->wr_id >> WRID_SHIFT);
		assert_true(q < fk.num_qps);
		if (wr->num_sge == 0) {
			fk.fences++; /* the drain's closing operation */
		} else {
			fk.posted++;
			if (fk.end_cycles && now > fk.end_cycles)
				fk.posted_after_end++;
		}
		fk.last_signaled[q] = !!(wr->send_flags & IBV_SEND_SIGNALED);
		fk.signaled += (uint64_t)fk.last_signaled[q];
		assert_true(fk.sq_tail[q] - fk.sq_head[q] < RING);
		e = &fk.sq[q][fk.sq_tail[q]++ % RING];
		e->posted_at = now;
		e->wr_id = wr->wr_id;
		e->signaled = fk.last_signaled[q];
		e->fence = wr->num_sge == 0;
	}
	return 0;
}

/* The QP whose head goes next: in turn among those posted by the time the
 * link is free, else the one posted first; -1 when all are empty. */
static int next_qp(void)
{
	uint64_t first = UINT64_MAX;
	uint32_t i, q;
	int pick = -1;

	for (i = 0; i < fk.num_qps; i++) {
		q = (fk.turn + i) % fk.num_qps;
		if (fk.sq_head[q] == fk.sq_tail[q])
			continue;
		if (fk.sq[q][fk.sq_head[q] % RING].posted_at <= fk.link_free)
			return (int)q;
		if (fk.sq[q][fk.sq_head[q] % RING].posted_at < first) {
			first = fk.sq[q][fk.sq_head[q] % RING].posted_at;
			pick = (int)q;
		}
	}
	return pick;
}

/* The messages sent and seen complete by now, in order; a signaled one
 * is a completion. */
static int fake_poll_cq(struct ibv_cq *cq, int n, struct ibv_wc *wc)
{
	uint64_t now = rdp_cycles(), go;
	struct pending *e;
	int i = 0, q;

	(void)cq;
	if (fk.last_poll && now - fk.last_poll > fk.max_gap)
		fk.max_gap = now - fk.last_poll;
	fk.last_poll = now;
	while (i < n && (q = next_qp()) >= 0) {
		e = &fk.sq[q][fk.sq_head[q] % RING];
		go = e->posted_at > fk.link_free ? e->posted_at : fk.link_free;
		if (go + fk.msg_cycles + fk.lat_cycles > now)
			break;
		fk.link_free = go + fk.msg_cycles;
		if (!e->fence)
			fk.last_done = fk.link_free + fk.lat_cycles;
		fk.sq_head[q]++;
		fk.turn = (uint32_t)q + 1;
		if (!e->signaled)
			continue;
		memset(&wc[i], 0, sizeof(wc[i]));
		wc[i].status = IBV_WC_SUCCESS;
		wc[i].opcode = IBV_WC_RDMA_WRITE;
		wc[i++].wr_id = e->wr_id;
	}
	return i;
}

/* A client's write_bw run on the fake link. */
struct env {
	struct rdp_params p;
	struct rdp_dev dev; /* no pacing: what the loop reads of a device */
	struct rdp_conn conn;
	struct rdp_run run;
	struct rdp_qp_info remote[MAX_QPS];
	struct ibv_mr mr;
	struct ibv_qp *qps[MAX_QPS];
	uint8_t buf[2 * SLOT * MAX_QPS];
	struct rdp_result res;
	double wall_ns; /* the whole rdp_bw_client(), drain included */
};

static void setup_env(struct env *e, uint32_t num_qps, uint32_t duration_s,
		      uint64_t iters, uint32_t tx_depth, uint32_t cq_mod,
		      uint64_t msg_ns)
{
	uint32_t q;

	memset(e, 0, sizeof(*e));
	memset(&fk, 0, sizeof(fk));
	fk.ctx.ops.post_send = fake_post_send;
	fk.ctx.ops.poll_cq = fake_poll_cq;
	fk.cq.context = &fk.ctx;
	fk.msg_cycles = (uint64_t)((double)msg_ns * clk.cycles_per_ns);
	fk.lat_cycles = (uint64_t)((double)FAKE_LAT_NS * clk.cycles_per_ns);
	fk.num_qps = num_qps;
	for (q = 0; q < num_qps; q++) {
		fk.qp[q].context = &fk.ctx;
		fk.qp[q].qp_num = 0x1a2 + q;
		e->qps[q] = &fk.qp[q];
	}

	snprintf(e->p.test, sizeof(e->p.test), "write_bw");
	e->p.size_bytes = SLOT;
	e->p.iters = iters;
	e->p.duration_s = duration_s;
	e->p.num_qps = num_qps;
	e->p.tx_depth = tx_depth;
	e->p.cq_mod = cq_mod;
	e->conn.dev = &e->dev;
	e->conn.buf = e->buf;
	e->conn.buf_bytes = sizeof(e->buf);
	e->conn.slot_bytes = SLOT;
	e->conn.mr = &e->mr;
	e->conn.qps = e->qps;
	e->conn.num_qps = num_qps;
	e->conn.cq = &fk.cq;
	e->conn.remote = e->remote;
	e->conn.qp_type = IBV_QPT_RC;
	e->run.params = &e->p;
	e->run.ops = rdp_bench_find("write_bw");
	assert_non_null(e->run.ops);
	e->run.conn = &e->conn;
	e->run.clk = &clk;
	e->run.side = RDP_SIDE_CLIENT;
	e->run.stall_cycles = rdp_clock_cycles_of_ms(&clk, 5000);
	rdp_bench_decide(e->run.ops, &e->p, &e->conn, &e->run.dec);
}

static void run_client(struct env *e)
{
	uint64_t t0 = rdp_cycles();

	fk.start_cycles = t0;
	if (e->p.duration_s)
		fk.end_cycles = t0 + rdp_clock_cycles_of_ms(
					     &clk, e->p.duration_s * 1000ull);
	assert_int_equal(rdp_bw_client(&e->run, &e->res), 0);
	e->wall_ns = rdp_clock_ns(&clk, rdp_cycles() - t0);
	rdp_result_clear(&e->res);
}

/* Whether the loop kept polling all through (else its timing says only
 * how busy the host was). */
static int kept_up(void)
{
	double gap_ns = rdp_clock_ns(&clk, fk.max_gap);

	if (gap_ns < GAP_NS)
		return 1;
	fprintf(stderr,
		"# the loop was kept off the CPU for %.1f ms: its timing "
		"is not checked\n",
		gap_ns / 1e6);
	return 0;
}

/* What a -D run must show: its last message completes at the deadline,
 * every message posted was counted in the measurement (nothing drained
 * after the clock stopped), no closing operation was needed (each QP's
 * last message was signaled), nothing was posted after the deadline; the
 * measurement covers the -D window and the call returns at its end. */
static void check_duration_run(const struct env *e)
{
	double d_ns = e->p.duration_s * 1e9;
	double last_ns = rdp_clock_ns(&clk, fk.last_done - fk.start_cycles);
	uint32_t q;

	assert_int_equal(e->run.posted, fk.posted);
	assert_true(e->res.msgs > 0 && e->res.msgs <= fk.posted);
	if (!kept_up())
		return;
	assert_true(last_ns > d_ns - TOL_NS);
	assert_true(last_ns < d_ns + TOL_NS);
	assert_int_equal(e->res.msgs, fk.posted);
	assert_int_equal(fk.fences, 0);
	assert_int_equal(fk.posted_after_end, 0);
	for (q = 0; q < e->p.num_qps; q++)
		assert_true(fk.last_signaled[q]);
	assert_true(e->res.elapsed_ns > d_ns - TOL_NS);
	assert_true(e->res.elapsed_ns < d_ns + TOL_NS + GAP_NS);
	assert_true(e->wall_ns < d_ns + TOL_NS + GAP_NS);
	/* and it kept the link busy */
	assert_true((double)fk.posted > 0.9 * d_ns / FAKE_MSG_NS);
}

/* The defaults (-t 128 -Q 100) on one QP. */
static void test_duration_one_qp(void **state)
{
	struct env e;

	(void)state;
	setup_env(&e, 1, 1, 0, 128, 100, FAKE_MSG_NS);
	run_client(&e);
	check_duration_run(&e);
}

/* Two QPs sharing the link: each QP's count is only as fresh as its own
 * last signaled completion, 100 ms apart here. */
static void test_duration_two_qps(void **state)
{
	struct env e;

	(void)state;
	setup_env(&e, 2, 1, 0, 128, 100, FAKE_MSG_NS);
	run_client(&e);
	check_duration_run(&e);
}

/* -Q 1 -t 16: the short tail that was already close stays so. */
static void test_duration_every_signaled(void **state)
{
	struct env e;

	(void)state;
	setup_env(&e, 1, 1, 0, 16, 1, FAKE_MSG_NS);
	run_client(&e);
	check_duration_run(&e);
	assert_int_equal(fk.signaled, fk.posted);
}

/*
 * A link so slow that the first signaled completion comes after the
 * deadline (-t 12 -Q 10, 110 ms a message): nothing is posted after the
 * deadline, the loop counts up to the last signaled message (1.1 s: the
 * run's first measurement, where it used to end with none), and the two
 * unsignaled after it are drained behind one closing operation.
 */
static void test_duration_no_estimate(void **state)
{
	struct env e;

	(void)state;
	setup_env(&e, 1, 1, 0, 12, 10, 110000000ull);
	run_client(&e);
	assert_int_equal(fk.posted, 12);
	assert_int_equal(e.res.msgs, 10);
	assert_int_equal(fk.fences, 1);
	assert_int_equal(fk.posted_after_end, 0);
	if (!kept_up())
		return;
	assert_true(e.res.elapsed_ns > 1.1e9 - TOL_NS);
	assert_true(e.res.elapsed_ns < 1.1e9 + TOL_NS + GAP_NS);
}

/* -n: the count decides, as before: every message posted, one in -Q
 * signaled and the last one, the time that of the messages. */
static void test_iterations(void **state)
{
	static const struct {
		uint32_t qps;
		uint64_t iters;
		uint32_t depth, cq_mod;
		uint64_t signaled; /* per QP */
	} cases[] = {
		{ 1, 300, 128, 100, 3 },
		{ 1, 250, 128, 100, 3 }, /* 100, 200 and the last */
		{ 2, 150, 16, 10, 15 },
		{ 1, 64, 16, 1, 64 },
	};
	struct env e;
	double want_ns;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		setup_env(&e, cases[i].qps, 0, cases[i].iters, cases[i].depth,
			  cases[i].cq_mod, FAKE_MSG_NS / 10);
		run_client(&e);
		assert_int_equal(fk.posted, cases[i].iters * cases[i].qps);
		assert_int_equal(e.res.msgs, fk.posted);
		assert_int_equal(e.run.posted, fk.posted);
		assert_int_equal(fk.signaled, cases[i].signaled * cases[i].qps);
		assert_int_equal(fk.fences, 0);
		want_ns = (double)fk.posted * FAKE_MSG_NS / 10 + FAKE_LAT_NS;
		if (!kept_up())
			continue;
		assert_true(e.res.elapsed_ns > want_ns - TOL_NS);
		assert_true(e.res.elapsed_ns < want_ns + TOL_NS + GAP_NS);
	}
}

static int calibrate(void **state)
{
	(void)state;
	return rdp_clock_calibrate(&clk);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_duration_one_qp),
		cmocka_unit_test(test_duration_two_qps),
		cmocka_unit_test(test_duration_every_signaled),
		cmocka_unit_test(test_duration_no_estimate),
		cmocka_unit_test(test_iterations),
	};

	return cmocka_run_group_tests(tests, calibrate, NULL);
}
