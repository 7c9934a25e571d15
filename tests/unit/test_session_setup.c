/* SPDX-License-Identifier: BSD-2-Clause */
/* The set-up the client and the perftest peer share (session/common.c):
 * the run's constants, the QP settings, the text stream, the dial; and
 * the two dialogues behind struct rdp_session_proto_ops. */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <cmocka.h>

#include "session_int.h"
#include <rdmaperf/clock.h>
#include <rdmaperf/opts.h>

#include "../fake/fake_engine.h"
#include "port.h"

static void opts_for(struct rdp_opts *o, const char *test)
{
	memset(o, 0, sizeof(*o));
	o->bench = rdp_bench_find(test);
	assert_non_null(o->bench);
	o->params = (struct rdp_params){ .num_qps = 2,
					 .size_bytes = 65536,
					 .tx_depth = 128,
					 .rx_depth = 512 };
	o->conn = (struct rdp_conn_opts){ .gid_index = 3,
					  .cq_timeout_ms = 1000,
					  .oob_timeout_ms = 4321 };
	o->report = (struct rdp_report_opts){ .interval_s = 0.5,
					      .margin_s = 1,
					      .samples = 1 };
}

/* Both peers' runs take the same clocks from the options. */
static void test_run_init(void **state)
{
	struct rdp_clock clk = { .cycles_per_ns = 2, .source = "test" };
	struct rdp_conn *conn = (struct rdp_conn *)&clk; /* only kept */
	struct rdp_opts o;
	struct rdp_run run;

	(void)state;
	opts_for(&o, "write_bw");
	memset(&run, 0xa5, sizeof(run));
	rdp_session_run_init(&run, &o, &o.params, conn, &clk, RDP_SIDE_SERVER,
			     7);
	assert_ptr_equal(run.params, &o.params);
	assert_ptr_equal(run.ops, o.bench);
	assert_ptr_equal(run.conn, conn);
	assert_ptr_equal(run.clk, &clk);
	assert_int_equal(run.side, RDP_SIDE_SERVER);
	assert_int_equal(run.oob_fd, 7);
	assert_int_equal(run.interval_cycles, 1000000000ull);
	assert_int_equal(run.margin_cycles, 2000000000ull);
	assert_int_equal(run.stall_cycles, 2000000000ull);
	assert_int_equal(run.keep_samples, 1);
	/* What differs is each caller's to set. */
	assert_int_equal(run.counted_pingpong, 0);
	assert_int_equal(run.pin_threads, 0);
}

/* The QP settings follow the side and the channel's local address. */
static void test_qp_cfg(void **state)
{
	struct rdp_oob oob = { .fd = -1 };
	struct rdp_conn_cfg cfg;
	struct rdp_path_opts path;
	struct rdp_opts o;

	(void)state;
	opts_for(&o, "send_bw");
	rdp_session_qp_cfg(&o, &o.params, RDP_SIDE_CLIENT, &oob, &cfg, &path);
	assert_int_equal(cfg.num_qps, 2);
	assert_int_equal(cfg.msg_bytes, 65536);
	assert_int_equal(cfg.gid_index, 3);
	assert_null(cfg.local_ip);
	oob.have_local_ip = 1;
	rdp_session_qp_cfg(&o, &o.params, RDP_SIDE_SERVER, &oob, &cfg, &path);
	assert_ptr_equal(cfg.local_ip, &oob.local_ip);
	assert_int_equal(cfg.rx_depth, 512); /* the server receives */
}

static void test_text_out(void **state)
{
	FILE *f = NULL;

	(void)state;
	assert_int_equal(rdp_session_text_out(0, &f), 0);
	assert_ptr_equal(f, stdout);
	assert_int_equal(rdp_session_text_out(1, &f), 0);
	assert_non_null(f);
	assert_ptr_not_equal(f, stdout);
	fclose(f);
}

/* An open channel is not dialled again; its timeout is the options'. */
static void test_dial_open(void **state)
{
	struct rdp_oob oob = { .fd = 1000, .timeout_ms = 1 };
	struct rdp_opts o;

	(void)state;
	opts_for(&o, "write_bw");
	assert_int_equal(rdp_session_dial(&o, &oob), 0);
	assert_int_equal(oob.fd, 1000);
	assert_int_equal(oob.timeout_ms, 4321);
}

/* rdmaperf TEST --perftest [-p PORT] ARGS [HOST], parsed as the client;
 * all: perftest's sweep (-a) instead of one size. */
static void pt_opts(struct rdp_opts *o, const char *test, const char *port,
		    const char *host, int all)
{
	const char *argv[] = { "rdmaperf", test,       "--perftest", "-p",
			       port,	   "-n",       "200",	     "-s",
			       "4096",	   "--no-pin", host,	     NULL };
	char err[256] = "";
	int n = host ? 11 : 10;

	if (all) {
		argv[7] = "-a";
		argv[8] = "--no-pin";
		argv[9] = host;
		n--;
	}
	assert_int_equal(rdp_opts_parse_client(n, (char **)argv, o, err,
					       sizeof(err)),
			 RDP_PARSE_OK);
	o->conn.oob_timeout_ms = 15000;
	o->conn.connect_timeout_ms = 15000;
}

struct pt_side {
	struct rdp_opts o;
	int rc;
};

static void *pt_main(void *arg)
{
	struct pt_side *s = arg;

	s->rc = rdp_session_perftest(&s->o, &fake_engine);
	return NULL;
}

/* Both ends of perftest's exchange in one process: the one-shot server
 * and the client, each on the set-up the rdmaperf client uses. */
static void perftest_pair(const char *test, int all)
{
	struct pt_side srv, cli;
	char port[16];
	pthread_t tid;

	fake_engine_reset();
	snprintf(port, sizeof(port), "%u", unit_reserve_port());
	pt_opts(&srv.o, test, port, NULL, all);
	pt_opts(&cli.o, test, port, "127.0.0.1", all);
	assert_int_equal(pthread_create(&tid, NULL, pt_main, &srv), 0);
	cli.rc = rdp_session_perftest(&cli.o, &fake_engine);
	assert_int_equal(pthread_join(tid, NULL), 0);
	assert_int_equal(cli.rc, RDP_EXIT_OK);
	assert_int_equal(srv.rc, RDP_EXIT_OK);
	assert_int_equal(fake_engine_cfg.conns_created, 2);
	assert_int_equal(fake_engine_cfg.conns_destroyed, 2);
}

/* RDMA bandwidth: the server passive, the client's figures sent over. */
static void test_perftest_write_bw(void **state)
{
	(void)state;
	perftest_pair("write_bw", 0);
}

/* SEND bandwidth: the server receives and times its own run. */
static void test_perftest_send_bw(void **state)
{
	(void)state;
	perftest_pair("send_bw", 0);
}

/* A ping-pong: both sides run the loop. (Not write_lat: there each side
 * waits for perftest's exit to close the connection.) */
static void test_perftest_send_lat(void **state)
{
	(void)state;
	perftest_pair("send_lat", 0);
}

/* READ latency: the server passive, the client keeps its figures. */
static void test_perftest_read_lat(void **state)
{
	(void)state;
	perftest_pair("read_lat", 0);
}

/* -a: every size on the QPs of the first, a barrier after each size
 * (send_bw), the client's figures of the last (write_bw). */
static void test_perftest_sweep(void **state)
{
	(void)state;
	perftest_pair("write_bw", 1);
	perftest_pair("send_bw", 1);
}

/* Both dialogues fill every step the driver always calls, so it runs
 * either row as it is; the optional ones and the flags as each needs. */
static void test_proto_rows(void **state)
{
	const struct rdp_session_proto_ops *rows[] = { &rdp_proto_rdmaperf,
						       &rdp_proto_perftest };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct rdp_session_proto_ops *r = rows[i];

		assert_non_null(r->name);
		assert_non_null(r->open);
		assert_non_null(r->hello);
		assert_non_null(r->params);
		assert_non_null(r->qps);
		assert_non_null(r->ready);
		assert_non_null(r->loop_failed);
		assert_non_null(r->done);
		assert_non_null(r->close);
	}
	assert_string_equal(rdp_proto_rdmaperf.name, "rdmaperf");
	assert_string_equal(rdp_proto_perftest.name, "perftest");
	/* rdmaperf's: the client's start-up and report, fresh QPs at each
	 * point, its ERROR to the peer on a failure. */
	assert_null(rdp_proto_rdmaperf.start);
	assert_int_equal(rdp_proto_rdmaperf.flags, 0);
	assert_non_null(rdp_proto_rdmaperf.abort);
	/* perftest's: its own start-up and head, every size on one set of
	 * QPs, no data check, nothing to tell a perftest peer. */
	assert_non_null(rdp_proto_perftest.start);
	assert_non_null(rdp_proto_perftest.begin);
	assert_true(rdp_proto_perftest.flags & RDP_PROTO_SAME_QPS);
	assert_true(rdp_proto_perftest.flags & RDP_PROTO_NO_DATA_CHECK);
	assert_null(rdp_proto_perftest.abort);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_init),
		cmocka_unit_test(test_qp_cfg),
		cmocka_unit_test(test_text_out),
		cmocka_unit_test(test_dial_open),
		cmocka_unit_test(test_perftest_write_bw),
		cmocka_unit_test(test_perftest_send_bw),
		cmocka_unit_test(test_perftest_send_lat),
		cmocka_unit_test(test_perftest_read_lat),
		cmocka_unit_test(test_perftest_sweep),
		cmocka_unit_test(test_proto_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
