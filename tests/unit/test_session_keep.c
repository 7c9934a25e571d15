/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Sessions that keep what they can from one to the next (a mesh's
 * rounds): on the fake engine, the device opened and the clock
 * calibrated once per side, the connection's buffer built once and
 * reused while the parameters stay, and nothing kept without reuse.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>

#include <rdmaperf/oob.h>
#include <rdmaperf/opts.h>
#include <rdmaperf/session.h>

#include "session_pair.h"

struct kept_server {
	struct rdp_opts o;
	struct rdp_oob oob;
	struct rdp_session_keep *keep;
	pthread_t tid;
	int ret;
};

static void *kept_serve_main(void *arg)
{
	struct kept_server *s = arg;

	s->ret = rdp_session_serve_kept(&s->o, &fake_engine, &s->oob, s->keep);
	rdp_oob_close(&s->oob);
	return NULL;
}

/* One session, each side with its keep; the client's exit code. */
static int kept_pair(const struct rdp_opts *co, struct rdp_session_keep *ck,
		     struct kept_server *srv)
{
	struct rdp_session_results *res = NULL;
	struct rdp_oob cli;
	int rc;

	assert_int_equal(rdp_oob_loopback(IO_MS, &cli, &srv->oob), 0);
	assert_int_equal(pthread_create(&srv->tid, NULL, kept_serve_main, srv),
			 0);
	rc = rdp_session_client_kept(co, &fake_engine, &cli, ck, NULL, &res);
	assert_int_equal(pthread_join(srv->tid, NULL), 0);
	assert_int_equal(srv->ret, 0);
	if (rc == RDP_EXIT_OK) {
		assert_non_null(res);
		assert_int_equal(res->n, 1);
		assert_non_null(res->doc);
	}
	rdp_session_results_free(res);
	return rc;
}

static void counts_are(const struct rdp_session_keep *k, uint32_t sessions,
		       uint32_t opens, uint32_t clocks, uint32_t built,
		       uint32_t reused)
{
	struct rdp_session_keep_counts n;

	rdp_session_keep_counts(k, &n);
	assert_int_equal(n.sessions, sessions);
	assert_int_equal(n.dev_opens, opens);
	assert_int_equal(n.clock_calibrations, clocks);
	assert_int_equal(n.conns_built, built);
	assert_int_equal(n.conns_reused, reused);
}

static int setup(void **state)
{
	(void)state;
	fake_engine_reset();
	return 0;
}

/* Three rounds: one device and one clock per side, the connection built
 * once and reused twice; closed with the keeps. */
static void test_kept_rounds(void **state)
{
	struct rdp_session_keep *ck, *sk;
	struct kept_server srv = { 0 };
	struct rdp_session_phases ph;
	struct rdp_opts co;
	int i;

	(void)state;
	assert_int_equal(rdp_session_keep_create(1, &ck), 0);
	assert_int_equal(rdp_session_keep_create(1, &sk), 0);
	client_opts(&co, ARGS("write_bw", "-s", "4K", "-n", "100"));
	server_opts(&srv.o, ARGS("--max-memory", "1M"));
	srv.keep = sk;
	for (i = 0; i < 3; i++)
		assert_int_equal(kept_pair(&co, ck, &srv), RDP_EXIT_OK);
	counts_are(ck, 3, 1, 1, 1, 2);
	counts_are(sk, 3, 1, 1, 1, 2);
	assert_int_equal(fake_engine_cfg.devs_opened, 2);
	assert_int_equal(fake_engine_cfg.devs_closed, 0);
	assert_int_equal(fake_engine_cfg.conns_created, 2);
	rdp_session_keep_phases(ck, &ph);
	assert_true(ph.loop_s >= 0 && ph.teardown_s >= 0 && ph.start_s >= 0);
	rdp_session_keep_free(ck);
	rdp_session_keep_free(sk);
	balanced();
}

/* Without reuse every session opens and closes all, as a lone one; the
 * keep only counts. */
static void test_nothing_kept(void **state)
{
	struct rdp_session_keep *ck, *sk;
	struct kept_server srv = { 0 };
	struct rdp_opts co;
	int i;

	(void)state;
	assert_int_equal(rdp_session_keep_create(0, &ck), 0);
	assert_int_equal(rdp_session_keep_create(0, &sk), 0);
	client_opts(&co, ARGS("write_bw", "-s", "4K", "-n", "100"));
	server_opts(&srv.o, ARGS("--max-memory", "1M"));
	srv.keep = sk;
	for (i = 0; i < 2; i++)
		assert_int_equal(kept_pair(&co, ck, &srv), RDP_EXIT_OK);
	counts_are(ck, 2, 2, 2, 2, 0);
	counts_are(sk, 2, 2, 2, 2, 0);
	balanced(); /* before the keeps go: they hold nothing */
	rdp_session_keep_free(ck);
	rdp_session_keep_free(sk);
	balanced();
}

/* Other parameters need another buffer: built anew, then reused while
 * they stay; -b changes what the server grants, so the same. */
static void test_shape_changes(void **state)
{
	struct rdp_session_keep *ck, *sk;
	struct kept_server srv = { 0 };
	struct rdp_opts co;

	(void)state;
	assert_int_equal(rdp_session_keep_create(1, &ck), 0);
	assert_int_equal(rdp_session_keep_create(1, &sk), 0);
	server_opts(&srv.o, ARGS("--max-memory", "1M"));
	srv.keep = sk;
	client_opts(&co, ARGS("write_bw", "-s", "4K", "-n", "100"));
	assert_int_equal(kept_pair(&co, ck, &srv), RDP_EXIT_OK);
	client_opts(&co, ARGS("write_bw", "-s", "8K", "-n", "100"));
	assert_int_equal(kept_pair(&co, ck, &srv), RDP_EXIT_OK);
	assert_int_equal(kept_pair(&co, ck, &srv), RDP_EXIT_OK);
	counts_are(ck, 3, 1, 1, 2, 1);
	counts_are(sk, 3, 1, 1, 2, 1);
	rdp_session_keep_free(ck);
	rdp_session_keep_free(sk);
	balanced();
}

/* A session that fails (the server's connect refuses) leaves the keep
 * usable: the next one runs on the kept device. */
static void test_failure_then_round(void **state)
{
	struct rdp_session_keep *ck, *sk;
	struct kept_server srv = { 0 };
	struct rdp_session_results *res = NULL;
	struct rdp_opts co;
	struct rdp_oob cli;
	int rc;

	(void)state;
	assert_int_equal(rdp_session_keep_create(1, &ck), 0);
	assert_int_equal(rdp_session_keep_create(1, &sk), 0);
	client_opts(&co, ARGS("write_bw", "-s", "4K", "-n", "100"));
	server_opts(&srv.o, ARGS("--max-memory", "1M"));
	srv.keep = sk;
	fake_engine_cfg.server_data_bad = 1;
	assert_int_equal(rdp_oob_loopback(IO_MS, &cli, &srv.oob), 0);
	assert_int_equal(pthread_create(&srv.tid, NULL, kept_serve_main, &srv),
			 0);
	rc = rdp_session_client_kept(&co, &fake_engine, &cli, ck, NULL, &res);
	assert_int_equal(pthread_join(srv.tid, NULL), 0);
	assert_int_equal(rc, RDP_EXIT_FAIL);
	assert_null(res);
	fake_engine_cfg.server_data_bad = 0;
	assert_int_equal(kept_pair(&co, ck, &srv), RDP_EXIT_OK);
	counts_are(ck, 2, 1, 1, 1, 1);
	rdp_session_keep_free(ck);
	rdp_session_keep_free(sk);
	balanced();
}

/* The kept device's port goes down: the client's next session fails as
 * a fresh open would (-ENETDOWN, before dialling), the kept connection
 * goes, and once the port is back it is built anew. */
static void test_port_down(void **state)
{
	struct rdp_session_keep *ck, *sk;
	struct kept_server srv = { 0 };
	struct rdp_opts co;

	(void)state;
	assert_int_equal(rdp_session_keep_create(1, &ck), 0);
	assert_int_equal(rdp_session_keep_create(1, &sk), 0);
	client_opts(&co, ARGS("write_bw", "-s", "4K", "-n", "100"));
	server_opts(&srv.o, ARGS("--max-memory", "1M"));
	srv.keep = sk;
	assert_int_equal(kept_pair(&co, ck, &srv), RDP_EXIT_OK);
	fake_engine_cfg.port_down = 1;
	assert_int_equal(rdp_session_client_kept(&co, &fake_engine, NULL, ck,
						 NULL, NULL),
			 RDP_EXIT_FAIL);
	fake_engine_cfg.port_down = 0;
	assert_int_equal(kept_pair(&co, ck, &srv), RDP_EXIT_OK);
	counts_are(ck, 3, 1, 1, 2, 0);
	counts_are(sk, 2, 1, 1, 1, 1);
	rdp_session_keep_free(ck);
	rdp_session_keep_free(sk);
	balanced();
}

/* Warmed before the first session: the device opened and the clock
 * calibrated there, none again for the session; a keep that reuses
 * nothing opens nothing to warm. */
static void test_warm(void **state)
{
	struct rdp_session_keep *ck, *sk, *none;
	struct kept_server srv = { 0 };
	struct rdp_opts co;

	(void)state;
	assert_int_equal(rdp_session_keep_create(1, &ck), 0);
	assert_int_equal(rdp_session_keep_create(1, &sk), 0);
	assert_int_equal(rdp_session_keep_create(0, &none), 0);
	client_opts(&co, ARGS("write_bw", "-s", "4K", "-n", "100"));
	server_opts(&srv.o, ARGS("--max-memory", "1M"));
	srv.keep = sk;
	assert_int_equal(rdp_session_keep_warm(ck, &fake_engine, &co), 0);
	assert_int_equal(rdp_session_keep_warm(sk, &fake_engine, &srv.o), 0);
	assert_int_equal(rdp_session_keep_warm(none, &fake_engine, &co), 0);
	assert_int_equal(fake_engine_cfg.devs_opened, 2);
	counts_are(ck, 0, 1, 1, 0, 0);
	assert_int_equal(kept_pair(&co, ck, &srv), RDP_EXIT_OK);
	counts_are(ck, 1, 1, 1, 1, 0);
	counts_are(sk, 1, 1, 1, 1, 0);
	assert_int_equal(fake_engine_cfg.devs_opened, 2);
	fake_engine_cfg.port_down = 1; /* warming fails as an open does */
	assert_int_equal(rdp_session_keep_warm(none, &fake_engine, &co), 0);
	rdp_session_keep_free(none);
	assert_int_equal(rdp_session_keep_create(1, &none), 0);
	assert_int_equal(rdp_session_keep_warm(none, &fake_engine, &co),
			 -ENETDOWN);
	fake_engine_cfg.port_down = 0;
	rdp_session_keep_free(none);
	rdp_session_keep_free(ck);
	rdp_session_keep_free(sk);
	balanced();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_kept_rounds, setup),
		cmocka_unit_test_setup(test_nothing_kept, setup),
		cmocka_unit_test_setup(test_shape_changes, setup),
		cmocka_unit_test_setup(test_failure_then_round, setup),
		cmocka_unit_test_setup(test_port_down, setup),
		cmocka_unit_test_setup(test_warm, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
