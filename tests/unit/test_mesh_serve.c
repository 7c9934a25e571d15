/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A mesh rank's serving side as incast and alltoall need it, on the fake
 * engine over TCP on 127.0.0.1: widened to four workers, it serves a
 * client while three others hold the first three workers; not widened,
 * the same client waits behind them and gives up. And the helper that
 * runs a round's sessions at once.
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

#include <rdmaperf/oob.h>
#include <rdmaperf/opts.h>
#include <rdmaperf/session.h>

#include "session_pair.h"
#include "../../src/mesh/run_int.h"

#define HELD 3

static int setup(void **state)
{
	(void)state;
	fake_engine_reset();
	return 0;
}

/* A server on 127.0.0.1 with `workers` workers (0: one client at a
 * time), HELD clients connected that never speak, then a real session
 * with a 3 s timeout: its exit code. */
static int behind_held(unsigned int workers)
{
	struct rdp_mesh_server s = { .lfd = -1 };
	struct rdp_session_results *res = NULL;
	struct rdp_session_keep *ck;
	struct rdp_oob held[HELD];
	struct rdp_opts co;
	uint16_t port = 0;
	int i, rc;

	server_opts(&s.o, ARGS("--max-memory", "1M"));
	s.eng = &fake_engine;
	assert_int_equal(rdp_mesh_serve_start(&s, "127.0.0.1", &port), 0);
	assert_int_equal(rdp_mesh_serve_widen(&s, workers), 0);
	assert_int_equal(s.n_workers, workers > 1 ? workers : 0);
	for (i = 0; i < HELD; i++)
		assert_int_equal(rdp_oob_connect("127.0.0.1", port, NULL, IO_MS,
						 &held[i]),
				 0);
	client_opts(&co, ARGS("write_bw", "-s", "4K", "-n", "100"));
	snprintf(co.conn.host, sizeof(co.conn.host), "127.0.0.1");
	co.conn.tcp_port = port;
	co.conn.oob_timeout_ms = 3000;
	assert_int_equal(rdp_session_keep_create(1, &ck), 0);
	rc = rdp_session_client_kept(&co, &fake_engine, NULL, ck, NULL, &res);
	if (rc == RDP_EXIT_OK) {
		assert_non_null(res);
		assert_int_equal(res->n, 1);
	}
	rdp_session_results_free(res);
	for (i = 0; i < HELD; i++)
		rdp_oob_close(&held[i]);
	rdp_mesh_serve_stop(&s);
	assert_int_equal(s.lfd, -1);
	assert_null(s.workers);
	rdp_session_keep_free(ck);
	return rc;
}

static void test_served_at_once(void **state)
{
	(void)state;
	assert_int_equal(behind_held(HELD + 1), RDP_EXIT_OK);
	balanced();
}

static void test_one_at_a_time(void **state)
{
	(void)state;
	assert_int_not_equal(behind_held(0), RDP_EXIT_OK);
	balanced();
}

struct meet {
	pthread_barrier_t *all;
	int met;
};

/* Passes the barrier only when every job runs at once. */
static void *meet_main(void *arg)
{
	struct meet *m = arg;

	pthread_barrier_wait(m->all);
	m->met = 1;
	return NULL;
}

static void test_parallel(void **state)
{
	pthread_barrier_t all;
	struct meet m[4];
	int i;

	(void)state;
	assert_int_equal(pthread_barrier_init(&all, NULL, 4), 0);
	for (i = 0; i < 4; i++)
		m[i] = (struct meet){ &all, 0 };
	rdp_mesh_parallel(m, 4, sizeof(m[0]), meet_main);
	for (i = 0; i < 4; i++)
		assert_int_equal(m[i].met, 1);
	pthread_barrier_destroy(&all);
	rdp_mesh_parallel(NULL, 0, sizeof(m[0]), meet_main);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_served_at_once, setup),
		cmocka_unit_test_setup(test_one_at_a_time, setup),
		cmocka_unit_test(test_parallel),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
