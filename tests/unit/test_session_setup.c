/* SPDX-License-Identifier: BSD-2-Clause */
/* The set-up the client and the perftest peer share (session/common.c):
 * the run's constants, the QP settings, the text stream, the dial. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "session_int.h"
#include <rdmaperf/clock.h>
#include <rdmaperf/opts.h>

static void opts_for(struct rdp_opts *o, const char *test)
{
	memset(o, 0, sizeof(*o));
	o->bench = rdp_bench_find(test);
	assert_non_null(o->bench);
	o->params.num_qps = 2;
	o->params.size_bytes = 65536;
	o->params.tx_depth = 128;
	o->params.rx_depth = 512;
	o->conn.gid_index = 3;
	o->conn.cq_timeout_ms = 1000;
	o->conn.oob_timeout_ms = 4321;
	o->report.interval_s = 0.5;
	o->report.margin_s = 1;
	o->report.samples = 1;
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
	assert_int_equal(run.perftest, 0);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_init),
		cmocka_unit_test(test_qp_cfg),
		cmocka_unit_test(test_text_out),
		cmocka_unit_test(test_dial_open),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
