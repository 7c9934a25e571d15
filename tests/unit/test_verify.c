/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The data checks (src/bench/verify.c, rdp_verify_atomic) on buffers laid
 * out as a connection's in plain memory: every path passes on the peer's
 * pattern and fails on one corrupted byte at a known offset, with the
 * line that names the QP and the offset.
 */
#include <errno.h>

#include "unit.h"
#include "../../src/bench/bench_int.h"
#include <rdmaperf/bench.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/log.h>
#include <rdmaperf/params.h>

#define MSG   100 /* bytes per message: not a multiple of the slot */
#define SLOT  128 /* rdp_slot_bytes(MSG) */
#define SEED  7
#define EXTRA 64 /* buffer past the last slot */

/* A connection's buffer and the run around it: one test at a time. */
static struct fixture {
	struct rdp_params p;
	struct rdp_bench_ops ops;
	struct rdp_conn conn;
	struct rdp_run run;
	struct rdp_data_check chk;
	uint8_t buf[16 * 2 * 2 * SLOT + EXTRA];
} fx;

static int srq_dummy; /* conn->srq is only tested for NULL */

static void setup(uint32_t qps, enum rdp_side side, enum rdp_verb verb,
		  uint32_t grh)
{
	memset(&fx, 0, sizeof(fx));
	fx.p.size_bytes = MSG;
	fx.p.num_qps = qps;
	fx.p.seed = SEED;
	fx.ops.verb = verb;
	fx.ops.check_unit = "bytes";
	fx.conn.buf = fx.buf;
	fx.conn.num_qps = qps;
	/* on UD a slot holds the GRH and the message */
	fx.conn.slot_bytes = rdp_slot_bytes(MSG + grh);
	fx.conn.buf_bytes = (size_t)qps * 2 * fx.conn.slot_bytes + EXTRA;
	fx.conn.grh_bytes = grh;
	fx.run.params = &fx.p;
	fx.run.ops = &fx.ops;
	fx.run.conn = &fx.conn;
	fx.run.side = side;
	rdp_clear_error();
}

/* The peer's message to QP q (its pattern for QP from) in q's slot. */
static void land(uint32_t q, uint32_t from)
{
	enum rdp_side peer = fx.run.side == RDP_SIDE_CLIENT ? RDP_SIDE_SERVER
							    : RDP_SIDE_CLIENT;

	rdp_pattern_fill(rdp_conn_rx_data(&fx.conn, q), MSG, SEED, from, peer);
}

static void land_all(void)
{
	uint32_t q;

	for (q = 0; q < fx.conn.num_qps; q++)
		land(q, q);
}

/* Flip byte `at` of QP q's received message. */
static void corrupt(uint32_t q, size_t at)
{
	rdp_conn_rx_data(&fx.conn, q)[at] ^= 0x5a;
}

static void expect_fail(int ret, uint64_t offset, const char *line)
{
	assert_int_equal(ret, -EILSEQ);
	assert_int_equal(fx.chk.status, -EILSEQ);
	assert_int_equal(fx.chk.bad_offset, offset);
	assert_string_equal(rdp_last_error(), line);
}

/* write_bw: the data lands in the server's receive slots. */
static void write_bw_server(void **state)
{
	(void)state;
	setup(2, RDP_SIDE_SERVER, RDP_VERB_WRITE, 0);
	land_all();
	assert_int_equal(rdp_verify_data_rx(&fx.run, 0, &fx.chk), 0);
	assert_int_equal(fx.chk.checked_bytes, 2 * MSG);
	corrupt(1, 42);
	expect_fail(rdp_verify_data_rx(&fx.run, 0, &fx.chk), MSG + 42,
		    "data check: QP 1 received a wrong byte 42 of 100 "
		    "(offset 142): data landed in the wrong slot or was "
		    "corrupted");
}

/* -b: the client received the server's writes too. */
static void bidir_client(void **state)
{
	(void)state;
	setup(3, RDP_SIDE_CLIENT, RDP_VERB_WRITE, 0);
	land_all();
	/* without -b the client holds nothing to check */
	corrupt(2, 0);
	assert_int_equal(rdp_verify_data_rx(&fx.run, 0, &fx.chk), 0);
	assert_int_equal(fx.chk.checked_bytes, 0);
	fx.p.flags |= RDP_PARAM_BIDIR;
	expect_fail(rdp_verify_data_rx(&fx.run, 0, &fx.chk), 2 * MSG,
		    "data check: QP 2 received a wrong byte 0 of 100 "
		    "(offset 200): data landed in the wrong slot or was "
		    "corrupted");
}

/* read_lat: only the client's memory is checked. */
static void client_rx(void **state)
{
	(void)state;
	setup(1, RDP_SIDE_SERVER, RDP_VERB_READ, 0);
	assert_int_equal(rdp_verify_client_rx(&fx.run, 0, &fx.chk), 0);
	setup(1, RDP_SIDE_CLIENT, RDP_VERB_READ, 0);
	land_all();
	assert_int_equal(rdp_verify_client_rx(&fx.run, 0, &fx.chk), 0);
	assert_int_equal(fx.chk.checked_bytes, MSG);
	corrupt(0, MSG - 1);
	expect_fail(rdp_verify_client_rx(&fx.run, 0, &fx.chk), MSG - 1,
		    "data check: QP 0 received a wrong byte 99 of 100 "
		    "(offset 99): data landed in the wrong slot or was "
		    "corrupted");
}

/* A message in the wrong QP's slot is caught: the pattern is per QP. */
static void wrong_slot(void **state)
{
	(void)state;
	setup(2, RDP_SIDE_CLIENT, RDP_VERB_SEND, 0);
	land(0, 1);
	land(1, 1);
	expect_fail(rdp_verify_both_rx(&fx.run, 0, &fx.chk), 0,
		    "data check: QP 0 received a wrong byte 0 of 100 "
		    "(offset 0): data landed in the wrong slot or was "
		    "corrupted");
}

/* --use-srq: any QP's message may be in any slot; one bad one fails. */
static void srq(void **state)
{
	(void)state;
	setup(4, RDP_SIDE_SERVER, RDP_VERB_SEND, 0);
	fx.conn.srq = (struct ibv_srq *)&srq_dummy;
	land(0, 3);
	land(2, 0); /* slots 1 and 3: no message came */
	assert_int_equal(rdp_verify_data_rx(&fx.run, 0, &fx.chk), 0);
	assert_int_equal(fx.chk.checked_bytes, 2 * MSG);
	corrupt(2, 17);
	memset(&fx.chk, 0, sizeof(fx.chk));
	expect_fail(rdp_verify_data_rx(&fx.run, 0, &fx.chk), 2 * MSG + 17,
		    "data check (--use-srq): the receive slot of QP 2 "
		    "holds no QP's message: QP 0's but for byte 17 of 100 "
		    "(offset 217)");
}

static void srq_nothing(void **state)
{
	(void)state;
	setup(2, RDP_SIDE_SERVER, RDP_VERB_SEND, 0);
	fx.conn.srq = (struct ibv_srq *)&srq_dummy;
	expect_fail(rdp_verify_data_rx(&fx.run, 0, &fx.chk), 0,
		    "data check (--use-srq): no message reached any of the "
		    "2 QPs' receive slots (offset 0)");
}

/* -g: every QP of the group takes every peer QP's messages, so a slot
 * holds any of their patterns; one that holds none fails. */
static void group(void **state)
{
	(void)state;
	setup(2, RDP_SIDE_SERVER, RDP_VERB_SEND, 0);
	fx.conn.mcast = 1;
	land(0, 1);
	land(1, 0);
	assert_int_equal(rdp_verify_data_rx(&fx.run, 0, &fx.chk), 0);
	assert_int_equal(fx.chk.checked_bytes, 2 * MSG);
	corrupt(1, 5);
	memset(&fx.chk, 0, sizeof(fx.chk));
	expect_fail(rdp_verify_data_rx(&fx.run, 0, &fx.chk), MSG + 5,
		    "data check (-g): the receive slot of QP 1 holds no QP's "
		    "message: QP 0's but for byte 5 of 100 (offset 105)");
}

/* UD: each message lands after a 40-byte GRH, which is not checked. */
static void ud(void **state)
{
	(void)state;
	setup(2, RDP_SIDE_SERVER, RDP_VERB_SEND, 40);
	land_all();
	memset(rdp_conn_rx(&fx.conn, 1), 0xee, 40);
	assert_int_equal(rdp_verify_data_rx(&fx.run, 0, &fx.chk), 0);
	corrupt(1, 5);
	memset(&fx.chk, 0, sizeof(fx.chk));
	expect_fail(rdp_verify_data_rx(&fx.run, 0, &fx.chk), MSG + 5,
		    "data check: QP 1 received a wrong byte 5 of 100 "
		    "(offset 105): data landed in the wrong slot or was "
		    "corrupted");
}

/* --threads: each thread's QPs are the connection's; the check runs once
 * over all of them after the threads joined. */
static void threaded(void **state)
{
	(void)state;
	setup(8, RDP_SIDE_SERVER, RDP_VERB_WRITE, 0);
	fx.conn.num_cqs = 4;
	fx.conn.split_qps = 8;
	land_all();
	assert_int_equal(rdp_verify_data_rx(&fx.run, 0, &fx.chk), 0);
	assert_int_equal(fx.chk.checked_bytes, 8 * MSG);
	corrupt(5, 63);
	memset(&fx.chk, 0, sizeof(fx.chk));
	expect_fail(rdp_verify_data_rx(&fx.run, 0, &fx.chk), 5 * MSG + 63,
		    "data check: QP 5 received a wrong byte 63 of 100 "
		    "(offset 563): data landed in the wrong slot or was "
		    "corrupted");
}

/* A stray byte outside every message: past QP 1's message in its
 * receive slot, and past the last slot. */
static void stray(void **state)
{
	(void)state;
	setup(2, RDP_SIDE_SERVER, RDP_VERB_WRITE, 0);
	land_all();
	rdp_conn_rx(&fx.conn, 1)[MSG + 3] = 0x11;
	expect_fail(rdp_verify_data_rx(&fx.run, 0, &fx.chk), 3 * SLOT + MSG + 3,
		    "byte 487 of this side's 576-byte buffer, outside every "
		    "message of this test, holds 0x11: a stray write, or data "
		    "left by an earlier test");
	setup(2, RDP_SIDE_SERVER, RDP_VERB_WRITE, 0);
	land_all();
	fx.buf[4 * SLOT + EXTRA - 1] = 0x22;
	expect_fail(rdp_verify_data_rx(&fx.run, 0, &fx.chk), 575,
		    "byte 575 of this side's 576-byte buffer, outside every "
		    "message of this test, holds 0x22: a stray write, or data "
		    "left by an earlier test");
}

static void set_counter(uint32_t q, uint64_t v)
{
	memcpy(rdp_conn_rx(&fx.conn, q), &v, sizeof(v));
}

/* Atomics: the counters add up to the operations done, in either byte
 * order; the check has no byte offset, it reports the sum. */
static void atomic(void **state)
{
	(void)state;
	setup(2, RDP_SIDE_CLIENT, RDP_VERB_WRITE, 0);
	set_counter(0, 1);
	assert_int_equal(rdp_verify_atomic(&fx.run, 5, &fx.chk), 0);
	setup(2, RDP_SIDE_SERVER, RDP_VERB_WRITE, 0);
	set_counter(0, 2);
	set_counter(1, 3);
	assert_int_equal(rdp_verify_atomic(&fx.run, 5, &fx.chk), 0);
	assert_int_equal(fx.chk.checked_bytes, 5);
	set_counter(0, __builtin_bswap64(2));
	set_counter(1, __builtin_bswap64(3));
	assert_int_equal(rdp_verify_atomic(&fx.run, 5, &fx.chk), 0);
	set_counter(0, 2);
	set_counter(1, 4);
	expect_fail(rdp_verify_atomic(&fx.run, 5, &fx.chk), 6,
		    "data check: the counters of the 2 QPs add up to 6, not "
		    "the 5 operations done");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(write_bw_server),
		cmocka_unit_test(bidir_client),
		cmocka_unit_test(client_rx),
		cmocka_unit_test(wrong_slot),
		cmocka_unit_test(srq),
		cmocka_unit_test(srq_nothing),
		cmocka_unit_test(group),
		cmocka_unit_test(ud),
		cmocka_unit_test(threaded),
		cmocka_unit_test(stray),
		cmocka_unit_test(atomic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
