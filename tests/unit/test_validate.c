/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --data_validation (src/bench/validate.c) through the real loops on a fake
 * link: send_bw's server (recv.c) takes the client's stamped messages into
 * its receives, read_bw's client (bw.c) reads the server's. Each path runs
 * clean, finds one corrupt byte and names its QP, sequence and offset,
 * and finds a message that never landed. The link asserts that no place is
 * written again before its message was checked. Then the option's rules.
 */
#include <errno.h>
#include <infiniband/verbs.h>

#include "unit.h"
#include "../../src/bench/bench_int.h"
#include "../../src/bench/validate_int.h"
#include <rdmaperf/bench.h>
#include <rdmaperf/clock.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/log.h>
#include <rdmaperf/mem.h>
#include <rdmaperf/rules.h>
#include <rdmaperf/transport.h>

#define MSG	   100 /* bytes per message: places 128 bytes apart */
#define STRIDE	   128
#define QPS	   2
#define ITERS	   25
#define RING_MAX   8 /* -t 4 -r 3: 8 places for SEND, 5 for READ */
#define SLOT	   (STRIDE * RING_MAX)
#define WRID_SHIFT 40 /* as bw_int.h's BW_WRID_QP_SHIFT */
#define FIFO	   64

static struct rdp_clock clk;

/* One side: its buffer, connection and run. */
struct side {
	struct rdp_params p;
	struct rdp_dev dev;
	struct rdp_conn conn;
	struct rdp_run run;
	struct rdp_qp_info remote[QPS];
	struct ibv_mr mr;
	struct ibv_qp *qps[QPS];
	uint8_t buf[QPS * 2 * SLOT];
};

/* The fake link: what the sender's images are, what to break. */
static struct fake {
	struct ibv_context ctx;
	struct ibv_qp qp[QPS];
	struct ibv_cq cq;
	const struct side *src; /* SEND: the client's images */
	/* each QP's posted receives (their addresses), in order */
	uint64_t rq[QPS][FIFO];
	unsigned int rq_head[QPS], rq_tail[QPS];
	uint64_t sent[QPS];
	struct ibv_wc done[4096]; /* READ: completions to hand out */
	unsigned int done_head, done_tail;
	/* one byte to break in flight, and one message to lose */
	int flip_qp, lose_qp;
	uint64_t flip_seq, flip_off, lose_seq;
} fk;

static uint32_t qp_index(const struct ibv_qp *qp)
{
	return (uint32_t)(qp - fk.qp);
}

/* Message seq of QP q lands at dst: the place must hold no unchecked
 * message (the check clears its stamp). */
static void land(uint8_t *dst, const uint8_t *src, uint32_t q, uint64_t seq)
{
	static const uint8_t zero[RDP_DV_HEAD_BYTES];

	assert_memory_equal(dst, zero, RDP_DV_HEAD_BYTES);
	if (fk.lose_qp == (int)q && fk.lose_seq == seq)
		return;
	memcpy(dst, src, MSG);
	if (fk.flip_qp == (int)q && fk.flip_seq == seq)
		dst[fk.flip_off] ^= 0x81;
}

static int fake_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr,
			  struct ibv_recv_wr **bad)
{
	uint32_t q = qp_index(qp);

	(void)bad;
	for (; wr; wr = wr->next) {
		assert_true(fk.rq_tail[q] - fk.rq_head[q] < FIFO);
		fk.rq[q][fk.rq_tail[q]++ % FIFO] = wr->sg_list->addr;
	}
	return 0;
}

/* SEND: the client's next message on each QP with a receive posted. */
static int fake_poll_recv(struct ibv_cq *cq, int n, struct ibv_wc *wc)
{
	const struct side *s = fk.src;
	uint32_t ring = s->run.dv.ring, q;
	int i = 0;

	(void)cq;
	for (q = 0; q < QPS && i < n; q++) {
		uint64_t seq = fk.sent[q];

		if (seq == ITERS || fk.rq_head[q] == fk.rq_tail[q])
			continue;
		land((uint8_t *)(uintptr_t)fk.rq[q][fk.rq_head[q]++ % FIFO],
		     rdp_conn_tx(&s->conn, q) + (seq % ring) * STRIDE, q, seq);
		fk.sent[q]++;
		memset(&wc[i], 0, sizeof(wc[i]));
		wc[i].opcode = IBV_WC_RECV;
		wc[i].byte_len = MSG;
		wc[i++].wr_id = q;
	}
	return i;
}

/* READ: the data is there when posted; signaled ones complete. */
static int fake_post_read(struct ibv_qp *qp, struct ibv_send_wr *wr,
			  struct ibv_send_wr **bad)
{
	uint32_t q = qp_index(qp);

	(void)bad;
	for (; wr; wr = wr->next) {
		uint64_t n = wr->wr_id & ((1ull << WRID_SHIFT) - 1);

		assert_int_equal(wr->opcode, IBV_WR_RDMA_READ);
		if (wr->num_sge)
			land((uint8_t *)(uintptr_t)wr->sg_list->addr,
			     (const uint8_t *)(uintptr_t)wr->wr.rdma.remote_addr,
			     q, n - 1);
		if (!(wr->send_flags & IBV_SEND_SIGNALED))
			continue;
		assert_true(fk.done_tail - fk.done_head < 4096);
		memset(&fk.done[fk.done_tail % 4096], 0, sizeof(fk.done[0]));
		fk.done[fk.done_tail % 4096].opcode = IBV_WC_RDMA_READ;
		fk.done[fk.done_tail++ % 4096].wr_id = wr->wr_id;
	}
	return 0;
}

static int fake_poll_read(struct ibv_cq *cq, int n, struct ibv_wc *wc)
{
	int i = 0;

	(void)cq;
	while (i < n && fk.done_head != fk.done_tail)
		wc[i++] = fk.done[fk.done_head++ % 4096];
	return i;
}

static struct side src, dst;

static void side_init(struct side *s, const char *test, enum rdp_side who,
		      uint32_t flags)
{
	uint32_t q;

	memset(s, 0, sizeof(*s));
	snprintf(s->p.test, sizeof(s->p.test), "%s", test);
	s->p.size_bytes = MSG;
	s->p.iters = ITERS;
	s->p.num_qps = QPS;
	s->p.tx_depth = 4;
	s->p.rx_depth = 3;
	s->p.cq_mod = 2;
	s->p.seed = 7;
	s->p.threads = 1;
	s->p.flags = RDP_PARAM_VALIDATE | flags;
	s->run.ops = rdp_bench_find(test);
	assert_non_null(s->run.ops);
	s->conn.dev = &s->dev;
	s->conn.buf = s->buf;
	s->conn.buf_bytes = sizeof(s->buf);
	s->conn.slot_bytes =
		rdp_slot_bytes(rdp_dv_slot_msg_bytes(s->run.ops, &s->p));
	assert_true(s->conn.slot_bytes <= SLOT);
	s->conn.mr = &s->mr;
	s->conn.num_qps = QPS;
	s->conn.max_rd_atomic = 16;
	s->conn.tp = rdp_transport_get(RDP_TRANSPORT_RC);
	s->conn.qp_type = IBV_QPT_RC;
	s->conn.cq = &fk.cq;
	s->conn.remote = s->remote;
	for (q = 0; q < QPS; q++)
		s->qps[q] = &fk.qp[q];
	s->conn.qps = s->qps;
	s->run.params = &s->p;
	s->run.conn = &s->conn;
	s->run.clk = &clk;
	s->run.side = who;
	s->run.oob_fd = -1;
	s->run.stall_cycles = rdp_clock_cycles_of_ms(&clk, 5000);
	rdp_bench_decide(s->run.ops, &s->p, &s->conn, &s->run.dec);
}

static void fake_init(void)
{
	uint32_t q;

	memset(&fk, 0, sizeof(fk));
	fk.flip_qp = fk.lose_qp = -1;
	fk.cq.context = &fk.ctx;
	for (q = 0; q < QPS; q++)
		fk.qp[q].context = &fk.ctx;
	rdp_clear_error();
}

/* send_bw: the client stamps its ring, the server receives and checks. */
static void run_send(int want)
{
	struct rdp_result res = { 0 };

	side_init(&src, "send_bw", RDP_SIDE_CLIENT, 0);
	side_init(&dst, "send_bw", RDP_SIDE_SERVER, 0);
	fk.ctx.ops.post_recv = fake_post_recv;
	fk.ctx.ops.poll_cq = fake_poll_recv;
	fk.src = &src;
	assert_int_equal(rdp_bench_prepare(&src.run), want);
	if (want)
		return;
	assert_int_equal(src.run.dv.ring, 8);
	assert_int_equal(rdp_bench_prepare(&dst.run), 0);
	assert_int_equal(rdp_bw_server_recv(&dst.run, &res), 0);
	assert_int_equal(res.msgs, QPS * ITERS);
	assert_int_equal(dst.run.dv.msgs, QPS * ITERS);
	rdp_result_clear(&res);
}

/* read_bw: the server stamps its ring, the client reads and checks. */
static void run_read(void)
{
	struct rdp_result res = { 0 };
	uint32_t q;

	side_init(&src, "read_bw", RDP_SIDE_SERVER, 0);
	side_init(&dst, "read_bw", RDP_SIDE_CLIENT, 0);
	fk.ctx.ops.post_send = fake_post_read;
	fk.ctx.ops.poll_cq = fake_poll_read;
	assert_int_equal(rdp_bench_prepare(&src.run), 0);
	assert_int_equal(src.run.dv.ring, 5);
	for (q = 0; q < QPS; q++)
		dst.remote[q].addr =
			(uint64_t)(uintptr_t)rdp_conn_tx(&src.conn, q);
	assert_int_equal(rdp_bench_prepare(&dst.run), 0);
	assert_int_equal(rdp_bw_client(&dst.run, &res), 0);
	assert_int_equal(res.msgs, QPS * ITERS);
	assert_int_equal(dst.run.dv.msgs, QPS * ITERS);
	rdp_result_clear(&res);
}

/* The checking side's verdict; the side whose data travelled has none. */
static void expect_outcome(int ret, uint64_t offset, const char *line)
{
	struct rdp_data_check chk = { 0 };

	assert_int_equal(rdp_verify_data_rx(&src.run, 0, &chk), 0);
	assert_int_equal(chk.checked_bytes, 0);
	assert_int_equal(rdp_verify_data_rx(&dst.run, 0, &chk), ret);
	if (!ret) {
		assert_int_equal(chk.checked_bytes, QPS * ITERS); /* messages */
		assert_false(dst.run.dv.bad);
		return;
	}
	assert_int_equal(chk.status, -EILSEQ);
	assert_int_equal(chk.bad_offset, offset);
	assert_string_equal(rdp_last_error(), line);
}

static void send_clean(void **state)
{
	(void)state;
	fake_init();
	run_send(0);
	expect_outcome(0, 0, NULL);
}

static void send_corrupt(void **state)
{
	(void)state;
	fake_init();
	fk.flip_qp = 1;
	fk.flip_seq = 19; /* the third round of the ring */
	fk.flip_off = 37;
	run_send(0);
	assert_int_equal(dst.run.dv.bad_qp, 1);
	assert_int_equal(dst.run.dv.bad_seq, 19);
	assert_int_equal(dst.run.dv.expected ^ dst.run.dv.got, 0x81);
	expect_outcome(-EILSEQ, 37,
		       "data validation: QP 1 message sequence 19 is corrupt "
		       "at offset 37 of 100 bytes: expected 0x91, got 0x10 "
		       "(checksum: stamped 0x0e8237a4, of the payload "
		       "0x362bf8a4, expected 0x0e8237a4)");
}

/* A message that never lands leaves the place's cleared stamp. */
static void send_lost(void **state)
{
	(void)state;
	fake_init();
	fk.lose_qp = 0;
	fk.lose_seq = 10;
	run_send(0);
	assert_int_equal(dst.run.dv.bad_seq, 10);
	assert_int_equal(dst.run.dv.expected, 2); /* place 10 % 8 */
	assert_int_equal(dst.run.dv.got, 0);
}

/* RDP_TEST_FLIP on the client: the server finds that very message. */
static void send_test_flip(void **state)
{
	(void)state;
	fake_init();
	setenv("RDP_TEST_FLIP", "0:6:3", 1);
	run_send(0);
	unsetenv("RDP_TEST_FLIP");
	assert_int_equal(dst.run.dv.bad_qp, 0);
	assert_int_equal(dst.run.dv.bad_seq, 6);
	assert_int_equal(dst.run.dv.bad_offset, 3);
	assert_int_equal(dst.run.dv.got, 0x5a);
	fake_init();
	setenv("RDP_TEST_FLIP", "0:8:3", 1);
	run_send(-EINVAL);
	assert_string_equal(
		rdp_last_error(),
		"RDP_TEST_FLIP=0:8:3: the QP must be below 2, the "
		"sequence below the ring's 8, the offset below 100");
	setenv("RDP_TEST_FLIP", "0:8", 1);
	run_send(-EINVAL);
	assert_string_equal(rdp_last_error(),
			    "RDP_TEST_FLIP=0:8: expected QP:SEQUENCE:OFFSET "
			    "(three numbers)");
	unsetenv("RDP_TEST_FLIP");
}

static void read_clean(void **state)
{
	(void)state;
	fake_init();
	run_read();
	expect_outcome(0, 0, NULL);
}

static void read_corrupt(void **state)
{
	(void)state;
	fake_init();
	fk.flip_qp = 0;
	fk.flip_seq = 17;
	fk.flip_off = MSG - 1;
	run_read();
	assert_int_equal(dst.run.dv.bad_qp, 0);
	assert_int_equal(dst.run.dv.bad_seq, 17);
	assert_int_equal(dst.run.dv.bad_offset, MSG - 1);
}

/* The debug check logs and checks alike. */
static void debug_check(void **state)
{
	(void)state;
	fake_init();
	side_init(&src, "read_bw", RDP_SIDE_CLIENT, RDP_PARAM_VALIDATE_DEBUG);
	assert_int_equal(rdp_dv_prepare(&src.run), 0);
	assert_ptr_equal(src.run.dv.check, rdp_dv_check_debug);
	memcpy(rdp_conn_rx(&src.conn, 1) + 3 * STRIDE,
	       rdp_conn_tx(&src.conn, 1) + 3 * STRIDE, MSG);
	src.run.dv.check(&src.run, 1, 3,
			 rdp_conn_rx(&src.conn, 1) + 3 * STRIDE);
	assert_false(src.run.dv.bad);
	assert_int_equal(src.run.dv.msgs, 1);
	/* the wrong QP's message at the right place */
	memcpy(rdp_conn_rx(&src.conn, 1) + 3 * STRIDE,
	       rdp_conn_tx(&src.conn, 0) + 3 * STRIDE, MSG);
	src.run.dv.check(&src.run, 1, 3,
			 rdp_conn_rx(&src.conn, 1) + 3 * STRIDE);
	assert_true(src.run.dv.bad);
	/* the first byte of the checksums that differs */
	assert_in_range(src.run.dv.bad_offset, 4, 7);
}

/* The ring per test, and none without the option. */
static void rings(void **state)
{
	struct rdp_params p = { .size_bytes = 1000,
				.tx_depth = 128,
				.rx_depth = 512 };

	(void)state;
	assert_int_equal(rdp_dv_ring(rdp_bench_find("send_bw"), &p), 1);
	assert_int_equal(rdp_dv_slot_msg_bytes(rdp_bench_find("send_bw"), &p),
			 1000);
	p.flags = RDP_PARAM_VALIDATE;
	assert_int_equal(rdp_dv_ring(rdp_bench_find("send_bw"), &p), 641);
	assert_int_equal(rdp_dv_ring(rdp_bench_find("read_bw"), &p), 129);
	assert_int_equal(rdp_dv_slot_msg_bytes(rdp_bench_find("read_bw"), &p),
			 129 * 1024);
	p.flags |= RDP_PARAM_WRITE_IMM;
	assert_int_equal(rdp_dv_ring(rdp_bench_find("write_bw"), &p), 641);
}

struct refusal {
	const char *test;
	uint32_t flags;
	uint32_t transport;
	uint64_t size;
	uint32_t threads;
	const char *line;
};

static const struct refusal refusals[] = {
	{ "write_bw", 0, 0, 64, 1,
	  "--data_validation: a plain RDMA WRITE completes only at the "
	  "writer, so the server cannot check each message as it lands: add "
	  "--write_with_imm (a receive completion per message)" },
	{ "send_lat", 0, 0, 64, 1,
	  "--data_validation checks each message of write_bw, read_bw and "
	  "send_bw, not of send_lat (whose buffers are checked after the "
	  "run)" },
	{ "send_bw", 0, RDP_TRANSPORT_UC, 64, 1,
	  "--data_validation needs -c RC: a message lost on -c UC would "
	  "shift every sequence after it" },
	{ "read_bw", 0, 0, 4, 1,
	  "--data_validation: -s 4 is too small: each message carries its "
	  "sequence and checksum in its first 8 bytes (use -s 8 or more)" },
	{ "send_bw", 0, 0, 1ull << 24, 1,
	  "--data_validation: a ring of 641 messages of 16777216 B per QP "
	  "(-t + -r + 1) is over 1 GiB: lower -s, -t or -r" },
	{ "send_bw", RDP_PARAM_BIDIR, 0, 64, 1,
	  "--data_validation runs one plain loop: drop -b, -e, "
	  "--run_infinitely, --use-srq, --threads, --rate_limit, --reversed "
	  "and --recv_post_list" },
	{ "read_bw", 0, 0, 64, 2,
	  "--data_validation runs one plain loop: drop -b, -e, "
	  "--run_infinitely, --use-srq, --threads, --rate_limit, --reversed "
	  "and --recv_post_list" },
	{ "send_bw", RDP_PARAM_REVERSED, 0, 64, 1,
	  "--data_validation runs one plain loop: drop -b, -e, "
	  "--run_infinitely, --use-srq, --threads, --rate_limit, --reversed "
	  "and --recv_post_list" },
	{ "send_bw", RDP_PARAM_SRQ, 0, 64, 1,
	  "--data_validation runs one plain loop: drop -b, -e, "
	  "--run_infinitely, --use-srq, --threads, --rate_limit, --reversed "
	  "and --recv_post_list" },
};

static void rules(void **state)
{
	struct rdp_rules_side host = { 0 }, gpu = { 0 };
	struct rdp_params p = {
		.tx_depth = 128, .rx_depth = 512, .num_qps = 1, .iters = 10
	};
	char why[512], want[512];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++) {
		const struct refusal *r = &refusals[i];

		p.flags = RDP_PARAM_VALIDATE | r->flags;
		p.transport = r->transport;
		p.size_bytes = r->size;
		p.threads = r->threads;
		why[0] = '\0';
		assert_int_equal(rdp_rules_check(&p, rdp_bench_find(r->test),
						 &host, why, sizeof(why)),
				 -EINVAL);
		assert_string_equal(why, r->line);
	}
	p.flags = RDP_PARAM_VALIDATE;
	p.transport = 0;
	p.size_bytes = 64;
	p.threads = 1;
	assert_int_equal(rdp_rules_check(&p, rdp_bench_find("send_bw"), &host,
					 why, sizeof(why)),
			 0);
	p.flags |= RDP_PARAM_WRITE_IMM;
	assert_int_equal(rdp_rules_check(&p, rdp_bench_find("write_bw"), &host,
					 why, sizeof(why)),
			 0);
	p.flags = RDP_PARAM_VALIDATE;
	gpu.mem = rdp_mem_types()[0];
	gpu.bounce = 1;
	assert_int_equal(rdp_rules_check(&p, rdp_bench_find("read_bw"), &gpu,
					 why, sizeof(why)),
			 -EINVAL);
	snprintf(want, sizeof(want),
		 "--data_validation checks each message with the CPU as it "
		 "completes: host memory only, drop %s and --bounce",
		 gpu.mem->option);
	assert_string_equal(why, want);
}

static int calibrate(void **state)
{
	(void)state;
	return rdp_clock_calibrate(&clk);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(send_clean),  cmocka_unit_test(send_corrupt),
		cmocka_unit_test(send_lost),   cmocka_unit_test(send_test_flip),
		cmocka_unit_test(read_clean),  cmocka_unit_test(read_corrupt),
		cmocka_unit_test(debug_check), cmocka_unit_test(rings),
		cmocka_unit_test(rules),
	};

	return cmocka_run_group_tests(tests, calibrate, NULL);
}
