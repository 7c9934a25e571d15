/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Whole sessions in one process: a client's and a server's command lines
 * as the programs parse them, and the server side of a pair served in its
 * own thread on the fake engine. For the tests that link
 * tests/fake/fake_engine.c.
 */
#ifndef RDMAPERF_TESTS_SESSION_PAIR_H
#define RDMAPERF_TESTS_SESSION_PAIR_H

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

#include "../fake/fake_engine.h"

/* A NULL-terminated argument list: ARGS("write_bw", "-s", "64"). */
#define ARGS(...) ((const char *[]){ __VA_ARGS__, NULL })

/* Message timeout of the sessions that are not about timeouts, ms: far
 * above what a fake point takes, even on a loaded host. Nothing waits it
 * out. */
#define IO_MS 15000

static inline int argc_of(const char **argv)
{
	int n = 0;

	while (argv[n])
		n++;
	return n;
}

/* rdmaperf ARGS --no-pin loopback, parsed as the client does. */
static inline void client_opts(struct rdp_opts *o, const char **args)
{
	const char *argv[64] = { "rdmaperf" };
	char err[256] = "";
	int n = argc_of(args);

	assert_true(n < 60);
	memcpy(argv + 1, args, (size_t)n * sizeof(*argv));
	argv[n + 1] = "--no-pin";
	argv[n + 2] = "loopback";
	assert_int_equal(rdp_opts_parse_client(n + 3, (char **)argv, o, err,
					       sizeof(err)),
			 RDP_PARSE_OK);
	o->conn.oob_timeout_ms = IO_MS;
}

/* rdmaperf-server --no-pin ARGS, parsed as the server does. */
static inline void server_opts(struct rdp_opts *o, const char **args)
{
	const char *argv[64] = { "rdmaperf-server", "--no-pin" };
	char err[256] = "";
	int n = argc_of(args);

	assert_true(n < 60);
	memcpy(argv + 2, args, (size_t)n * sizeof(*argv));
	assert_int_equal(rdp_opts_parse_server(n + 2, (char **)argv, o, err,
					       sizeof(err)),
			 RDP_PARSE_OK);
	o->conn.oob_timeout_ms = IO_MS;
}

/* The server of a pair: its options, its end of the channel, its thread
 * and what rdp_session_serve_with returned. */
struct server_side {
	struct rdp_opts o;
	struct rdp_oob oob;
	pthread_t tid;
	int ret;
};

static inline void *serve_main(void *arg)
{
	struct server_side *s = arg;

	s->ret = rdp_session_serve_with(&s->o, &fake_engine, &s->oob);
	rdp_oob_close(&s->oob);
	return NULL;
}

/* Serve s->oob in a thread; serve_join waits for its end. */
static inline void serve_start(struct server_side *s)
{
	assert_int_equal(pthread_create(&s->tid, NULL, serve_main, s), 0);
}

static inline void serve_join(struct server_side *s)
{
	assert_int_equal(pthread_join(s->tid, NULL), 0);
}

/* Every connection and device the fake engine opened is closed again. */
static inline void balanced(void)
{
	assert_int_equal(fake_engine_cfg.conns_created,
			 fake_engine_cfg.conns_destroyed);
	assert_int_equal(fake_engine_cfg.devs_opened,
			 fake_engine_cfg.devs_closed);
}

#endif /* RDMAPERF_TESTS_SESSION_PAIR_H */
