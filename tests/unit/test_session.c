/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Whole sessions in one process: the real client and server code over a
 * loopback channel (or local TCP for the busy server), on the fake engine.
 * Handshake, parameters, sweeps, results, errors carried to the peer,
 * timeouts, in milliseconds and without RDMA.
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
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <cmocka.h>
#include <jansson.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/oob.h>
#include <rdmaperf/opts.h>
#include <rdmaperf/rails.h>
#include <rdmaperf/secret.h>
#include <rdmaperf/session.h>
#include <rdmaperf/report.h>
#include <rdmaperf/sink.h>

#include "port.h"
#include "session_pair.h"

/* The client in this thread (with a sink of the test's, and its
 * results asked for when out is not NULL), the server in another; the
 * client's exit code, the server's return in srv->ret. */
static int run_pair_with(const struct rdp_opts *co, struct server_side *srv,
			 struct rdp_report_sink *sink,
			 struct rdp_session_results **out)
{
	struct rdp_oob cli;
	int rc;

	assert_int_equal(rdp_oob_loopback(IO_MS, &cli, &srv->oob), 0);
	serve_start(srv);
	rc = rdp_session_client_results(co, &fake_engine, &cli, sink, out);
	serve_join(srv);
	return rc;
}

static int run_pair(const struct rdp_opts *co, struct server_side *srv)
{
	return run_pair_with(co, srv, NULL, NULL);
}

struct fixture {
	char json[64];
	struct rdp_opts co;
	struct server_side srv;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	int fd;

	if (!f)
		return -1;
	snprintf(f->json, sizeof(f->json), "/tmp/rdp-session-XXXXXX");
	fd = mkstemp(f->json);
	if (fd < 0) {
		free(f);
		return -1;
	}
	close(fd);
	fake_engine_reset();
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	unlink(f->json);
	free(f);
	return 0;
}

static json_t *results_of(const struct fixture *f, size_t expect)
{
	json_error_t jerr;
	json_t *root = json_load_file(f->json, 0, &jerr), *res;

	assert_non_null(root);
	res = json_object_get(root, "results");
	assert_true(json_is_array(res));
	assert_int_equal(json_array_size(res), expect);
	json_incref(res);
	json_decref(root);
	return res;
}

static double real_at(json_t *arr, size_t i, const char *key)
{
	return json_number_value(json_object_get(json_array_get(arr, i), key));
}

static long long int_at(json_t *arr, size_t i, const char *key)
{
	return (long long)json_integer_value(
		json_object_get(json_array_get(arr, i), key));
}

/* One point: the figures the fake produced reach the report intact. */
static void test_one_point(void **state)
{
	struct fixture *f = *state;
	json_t *res;

	client_opts(&f->co, ARGS("write_bw", "-s", "4K", "-n", "1000",
				 "--json-file", f->json));
	server_opts(&f->srv.o, ARGS("--max-memory", "1M"));
	assert_int_equal(run_pair(&f->co, &f->srv), RDP_EXIT_OK);
	assert_int_equal(f->srv.ret, 0);
	res = results_of(f, 1);
	assert_int_equal(int_at(res, 0, "size_bytes"), 4096);
	assert_int_equal(int_at(res, 0, "num_qps"), 1);
	assert_int_equal(int_at(res, 0, "iterations"), 1000);
	/* 4096 B * 8 / 100 ns */
	assert_float_equal(real_at(res, 0, "bw_avg_gbps"), 327.68, 1e-9);
	assert_float_equal(real_at(res, 0, "msg_rate_mpps"), 10.0, 1e-9);
	assert_float_equal(real_at(res, 0, "elapsed_s"), 1e-4, 1e-15);
	json_decref(res);
	assert_int_equal(fake_engine_cfg.conns_created, 2);
	balanced();
}

/* Three sizes by two QP counts over one connection: six points, in the
 * order the matrix gives, each with fresh connections on both sides. */
static void test_sweep(void **state)
{
	static const long long sizes[] = { 64, 4096, 65536 };
	struct fixture *f = *state;
	json_t *res;
	size_t i;

	client_opts(&f->co, ARGS("write_bw", "-N", "-s", "64,4K,64K", "-q",
				 "1,2", "-n", "10", "--json-file", f->json));
	server_opts(&f->srv.o, ARGS("--max-memory", "1M"));
	assert_int_equal(run_pair(&f->co, &f->srv), RDP_EXIT_OK);
	assert_int_equal(f->srv.ret, 0);
	res = results_of(f, 6);
	for (i = 0; i < 6; i++) {
		assert_int_equal(int_at(res, i, "size_bytes"), sizes[i % 3]);
		assert_int_equal(int_at(res, i, "num_qps"), 1 + i / 3);
		assert_int_equal(int_at(res, i, "iterations"),
				 10 * (1 + i / 3));
		/* -N: no peak figures. */
		assert_true(real_at(res, i, "bw_peak_gbps") == 0.0);
	}
	json_decref(res);
	assert_int_equal(fake_engine_cfg.conns_created, 12);
	balanced();
}

/* -b: the server's own figures come back as this side's RX. */
static void test_bidirectional(void **state)
{
	struct fixture *f = *state;
	json_t *res, *rx;

	client_opts(&f->co,
		    ARGS("write_bw", "-b", "-s", "1K", "-n", "50", "--output",
			 "message_rate", "--json-file", f->json));
	server_opts(&f->srv.o, ARGS("--max-memory", "1M"));
	assert_int_equal(run_pair(&f->co, &f->srv), RDP_EXIT_OK);
	res = results_of(f, 1);
	rx = json_object_get(json_array_get(res, 0), "rx");
	assert_non_null(rx);
	assert_int_equal(json_integer_value(json_object_get(rx, "iterations")),
			 50);
	assert_float_equal(
		json_number_value(json_object_get(rx, "bw_avg_gbps")), 81.92,
		1e-9);
	json_decref(res);
	balanced();
}

static void test_latency(void **state)
{
	struct fixture *f = *state;
	json_t *res;

	client_opts(&f->co,
		    ARGS("write_lat", "-s", "8", "-n", "20", "-H", "--output",
			 "latency", "--json-file", f->json));
	server_opts(&f->srv.o, ARGS("--max-memory", "1M"));
	assert_int_equal(run_pair(&f->co, &f->srv), RDP_EXIT_OK);
	res = results_of(f, 1);
	assert_int_equal(int_at(res, 0, "iterations"), 20);
	json_decref(res);
	balanced();
}

/* --interval: the loop's intervals reach the report. */
static void test_intervals(void **state)
{
	struct fixture *f = *state;
	json_t *res, *iv;

	client_opts(&f->co, ARGS("write_bw", "-s", "1K", "-D", "2",
				 "--interval", "1", "--json-file", f->json));
	server_opts(&f->srv.o, ARGS("--max-memory", "1M"));
	assert_int_equal(run_pair(&f->co, &f->srv), RDP_EXIT_OK);
	res = results_of(f, 1);
	/* -D 2: the fake's 2000 messages of 1 KiB, in four intervals. */
	assert_int_equal(int_at(res, 0, "iterations"), 2000);
	iv = json_object_get(json_array_get(res, 0), "intervals");
	assert_true(json_is_array(iv));
	assert_int_equal(json_array_size(iv), FAKE_INTERVALS);
	json_decref(res);
	balanced();
}

/* A --json-file whose directory went away after the command line was
 * read (it is checked then: test_opts) fails the run after the points. */
static void test_json_file_unwritable(void **state)
{
	struct fixture *f = *state;
	char dir[] = "/tmp/rdp-json-XXXXXX", path[64];

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out.json", dir);
	client_opts(&f->co, ARGS("write_bw", "-s", "64", "-n", "10",
				 "--json-file", path));
	assert_int_equal(rmdir(dir), 0);
	server_opts(&f->srv.o, ARGS("--max-memory", "1M"));
	assert_int_equal(run_pair(&f->co, &f->srv), RDP_EXIT_FAIL);
	balanced();
}

/* --output and --time-per-point: the figure alone, batches to a stable
 * one (the fake's figures never change: the second batch stops). */
static void test_adaptive_figure_only(void **state)
{
	struct fixture *f = *state;

	client_opts(&f->co, ARGS("write_bw", "-s", "64", "--output",
				 "bandwidth", "--time-per-point", "2"));
	server_opts(&f->srv.o, ARGS("--max-memory", "1M"));
	assert_int_equal(run_pair(&f->co, &f->srv), RDP_EXIT_OK);
	assert_int_equal(f->srv.ret, 0);
	/* Two batches, each a fresh connection on both sides. */
	assert_int_equal(fake_engine_cfg.conns_created, 4);
	balanced();
}

/* run_pair with stdout (both sides' lines) in out, cut to fit. */
static int run_pair_out(const struct rdp_opts *co, struct server_side *srv,
			char *out, size_t cap)
{
	char path[] = "/tmp/rdp-pair-outXXXXXX";
	int fd = mkstemp(path), saved, rc;
	ssize_t got;

	assert_true(fd >= 0);
	fflush(stdout);
	saved = dup(1);
	assert_true(saved >= 0 && dup2(fd, 1) == 1);
	rc = run_pair(co, srv);
	fflush(stdout);
	assert_int_equal(dup2(saved, 1), 1);
	close(saved);
	got = pread(fd, out, cap - 1, 0);
	out[got > 0 ? got : 0] = '\0';
	close(fd);
	unlink(path);
	return rc;
}

/* The server refuses what is over its --max-memory; the client fails
 * with the server's reason instead of a closed socket, and the server's
 * line on the client gives that reason, not its errno's words. */
static void test_refused_by_server(void **state)
{
	struct fixture *f = *state;
	char out[4096];

	client_opts(&f->co, ARGS("write_bw", "-s", "1M", "-q", "4"));
	server_opts(&f->srv.o, ARGS("--max-memory", "1M"));
	assert_int_equal(run_pair_out(&f->co, &f->srv, out, sizeof(out)),
			 RDP_EXIT_FAIL);
	assert_int_equal(f->srv.ret, -E2BIG);
	assert_int_equal(fake_engine_cfg.conns_created, 0);
	assert_non_null(strstr(out, ": write_bw: failed (refused: 1048576 B "
				    "x 4 QPs needs"));
	assert_null(strstr(out, "Argument list too long"));
	balanced();
}

/* The server's QPs fail to connect: its cause reaches the client, which
 * stops waiting at once. */
static void test_server_connect_fails(void **state)
{
	struct fixture *f = *state;

	client_opts(&f->co, ARGS("write_bw", "-s", "64", "-n", "10"));
	server_opts(&f->srv.o, ARGS("--ib-port", "2"));
	fake_engine_cfg.connect_fails_port = 2;
	assert_int_equal(run_pair(&f->co, &f->srv), RDP_EXIT_FAIL);
	assert_int_equal(f->srv.ret, -EINVAL);
	balanced();
}

/* The client's QPs fail to connect: it tells the server, which stops. */
static void test_client_connect_fails(void **state)
{
	struct fixture *f = *state;

	client_opts(&f->co, ARGS("write_bw", "-s", "64", "-i", "3"));
	server_opts(&f->srv.o, ARGS("--max-memory", "1M"));
	fake_engine_cfg.connect_fails_port = 3;
	assert_int_equal(run_pair(&f->co, &f->srv), RDP_EXIT_FAIL);
	assert_int_equal(f->srv.ret, -ECANCELED);
	balanced();
}

static void test_server_data_bad(void **state)
{
	struct fixture *f = *state;

	client_opts(&f->co, ARGS("write_bw", "-s", "64", "-n", "10"));
	server_opts(&f->srv.o, ARGS("--max-memory", "1M"));
	fake_engine_cfg.server_data_bad = 1;
	assert_int_equal(run_pair(&f->co, &f->srv), RDP_EXIT_FAIL);
	assert_int_equal(f->srv.ret, -EILSEQ);
	balanced();
}

static void test_client_data_bad(void **state)
{
	struct fixture *f = *state;

	client_opts(&f->co, ARGS("read_bw", "-s", "64", "-n", "10"));
	server_opts(&f->srv.o, ARGS("--max-memory", "1M"));
	fake_engine_cfg.client_data_bad = 1;
	assert_int_equal(run_pair(&f->co, &f->srv), RDP_EXIT_FAIL);
	assert_int_equal(f->srv.ret, -ECANCELED);
	balanced();
}

/* The server's loop fails mid-test (its peer gone): both sides still
 * destroy their QPs, in the second point of a sweep as in the first. */
static void test_server_loop_fails(void **state)
{
	struct fixture *f = *state;

	client_opts(&f->co, ARGS("write_bw", "-s", "64", "-n", "10", "-b"));
	server_opts(&f->srv.o, ARGS("--max-memory", "1M"));
	fake_engine_cfg.server_loop_fails = 1;
	assert_int_equal(run_pair(&f->co, &f->srv), RDP_EXIT_FAIL);
	assert_int_equal(f->srv.ret, -EIO);
	assert_int_equal(fake_engine_cfg.conns_created, 2);
	balanced();
}

/* Each side's access as the test needs it, the server's from its ACCEPT,
 * in the JSON: write_bw lets the client's buffer be read only; read_bw
 * grants remote read alone. */
static void test_access_json(void **state)
{
	static const struct {
		const char *test, *client, *server;
	} want[] = {
		{ "write_bw", "[]", "[\"local_write\",\"remote_write\"]" },
		{ "read_bw", "[\"local_write\"]", "[\"remote_read\"]" },
		{ "atomic_bw", "[\"local_write\"]",
		  "[\"local_write\",\"remote_atomic\"]" },
		{ "send_bw", "[]", "[\"local_write\"]" },
	};
	struct fixture *f = *state;
	json_error_t jerr;
	json_t *root, *acc;
	char *c, *s;
	size_t i;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		client_opts(&f->co, ARGS(want[i].test, "-s", "8", "-n", "10",
					 "--json-file", f->json));
		server_opts(&f->srv.o, ARGS("--max-memory", "1M"));
		assert_int_equal(run_pair(&f->co, &f->srv), RDP_EXIT_OK);
		root = json_load_file(f->json, 0, &jerr);
		assert_non_null(root);
		acc = json_object_get(json_object_get(root, "memory"),
				      "access");
		c = json_dumps(json_object_get(acc, "client"), JSON_COMPACT);
		s = json_dumps(json_object_get(acc, "server"), JSON_COMPACT);
		assert_non_null(c);
		assert_non_null(s);
		assert_string_equal(c, want[i].client);
		assert_string_equal(s, want[i].server);
		free(c);
		free(s);
		json_decref(root);
	}
	balanced();
}

/* --data_validation: the JSON's data check names what was counted, and
 * the server's time in its checks comes back in its RESULT to the
 * client's report, with the side that spent it. */
static void test_validation_cost(void **state)
{
	struct fixture *f = *state;
	json_t *res, *chk;

	client_opts(&f->co, ARGS("send_bw", "-s", "64", "-n", "10",
				 "--data_validation", "--json-file", f->json));
	server_opts(&f->srv.o, ARGS("--max-memory", "16M"));
	fake_engine_cfg.server_check_ns = 12345;
	assert_int_equal(run_pair(&f->co, &f->srv), RDP_EXIT_OK);
	res = results_of(f, 1);
	chk = json_object_get(json_array_get(res, 0), "data_check");
	assert_string_equal(json_string_value(json_object_get(chk, "unit")),
			    RDP_DV_CHECK_UNIT);
	assert_int_equal(json_integer_value(json_object_get(chk, "check_ns")),
			 12345);
	assert_string_equal(
		json_string_value(json_object_get(chk, "checked_on")),
		"server");
	json_decref(res);
	/* without it: the test's unit, no cost */
	fake_engine_cfg.server_check_ns = 0;
	client_opts(&f->co, ARGS("send_bw", "-s", "64", "-n", "10",
				 "--json-file", f->json));
	assert_int_equal(run_pair(&f->co, &f->srv), RDP_EXIT_OK);
	res = results_of(f, 1);
	chk = json_object_get(json_array_get(res, 0), "data_check");
	assert_string_equal(json_string_value(json_object_get(chk, "unit")),
			    "bytes verified after the run");
	assert_null(json_object_get(chk, "check_ns"));
	json_decref(res);
	balanced();
}

/* No such device: exit 77, and the server hears the client leave. */
static void test_no_device(void **state)
{
	struct fixture *f = *state;

	client_opts(&f->co, ARGS("write_bw", "-d", "mlx5_9"));
	server_opts(&f->srv.o, ARGS("--max-memory", "1M"));
	assert_int_equal(run_pair(&f->co, &f->srv), RDP_EXIT_UNSUPPORTED);
	assert_int_equal(f->srv.ret, -ECONNRESET);
	balanced();
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The loopback channel keeps its deadline: 100 ms, not the next message.
 * (Session starts take longer on a loaded host: timed here alone.) */
static void test_loopback_deadline(void **state)
{
	struct rdp_msg msg;
	struct rdp_oob a, b;
	int64_t t0;

	(void)state;
	assert_int_equal(rdp_oob_loopback(100, &a, &b), 0);
	t0 = now_ms();
	assert_int_equal(rdp_oob_recv(&a, &msg, -1), -ETIMEDOUT);
	assert_true(now_ms() - t0 >= 100);
	/* not a wait past the deadline (a bound no load reaches) */
	assert_true(now_ms() - t0 < 30000);
	/* A closed end reads as the peer gone. */
	rdp_oob_close(&b);
	assert_int_equal(rdp_oob_recv(&a, &msg, -1), -ECONNRESET);
	rdp_oob_close(&a);
}

/* A server that never answers: the client gives up after its message
 * timeout instead of waiting for ever. */
static void test_silent_server(void **state)
{
	struct fixture *f = *state;
	struct rdp_oob cli, srv;
	int64_t t0;

	client_opts(&f->co, ARGS("write_bw", "-s", "64"));
	f->co.conn.oob_timeout_ms = 100;
	assert_int_equal(rdp_oob_loopback(100, &cli, &srv), 0);
	t0 = now_ms();
	assert_int_equal(rdp_session_client_with(&f->co, &fake_engine, &cli),
			 RDP_EXIT_FAIL);
	assert_true(now_ms() - t0 >= 100);
	rdp_oob_close(&srv);
	balanced();
}

/* A client that connects and says nothing: the server gives up too. */
static void test_silent_client(void **state)
{
	struct fixture *f = *state;
	struct rdp_oob cli, srv;
	int64_t t0;

	server_opts(&f->srv.o,
		    ARGS("--max-memory", "1M", "--handshake-timeout", "1"));
	assert_int_equal(rdp_oob_loopback(100, &cli, &srv), 0);
	t0 = now_ms();
	assert_int_equal(rdp_session_serve_with(&f->srv.o, &fake_engine, &srv),
			 -ETIMEDOUT);
	assert_true(now_ms() - t0 >= 100);
	rdp_oob_close(&cli);
	rdp_oob_close(&srv);
}

/* A peer that is not rdmaperf: the client names the likely cause. */
static void test_not_rdmaperf(void **state)
{
	struct fixture *f = *state;
	struct rdp_oob cli, srv;

	client_opts(&f->co, ARGS("write_bw", "-s", "64"));
	assert_int_equal(rdp_oob_loopback(IO_MS, &cli, &srv), 0);
	assert_int_equal(write(srv.fd, "SSH-2.0-OpenSSH_9.6\r\n", 21), 21);
	assert_int_equal(rdp_session_client_with(&f->co, &fake_engine, &cli),
			 RDP_EXIT_FAIL);
	rdp_oob_close(&srv);
}

/* Secrets are 32 bytes of key material, base64: one per case. */
#define KEY_BOTH   "K7gIMu4ZZDiMZjXdRoBOTcrmsDnBo280Y5D3OZ0sHug=\n"
#define KEY_SERVER "njmqE0Ck7zslgw2Ke578EhYNRWjqq7TDZf2kyp+lEAc=\n"
#define KEY_CLIENT "7ao3rgVoD4UoKvhF6yDuH+/IpsofxVebzx4yHEfN7io=\n"
#define KEY_OTHER  "Q0z9cotz8QojyFjAamE7FTZAco/px75YMjWGn2Dss+0=\n"
#define KEY_ENV	   "fYY1jn6iRDW5ATTf9/sclKuH3rVnsooU0Y3yxpQmt18=\n"

/* A 0600 secret file with text; the caller unlinks path. */
static void secret_file(char *path, size_t len, const char *text)
{
	int fd;

	snprintf(path, len, "/tmp/rdp-auth-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

/* Both sides with the secret: the test runs, and says it was
 * authenticated. */
static void test_auth_both(void **state)
{
	struct fixture *f = *state;
	struct rdp_secret cs, ss;
	char path[64], *text;
	FILE *fp;

	secret_file(path, sizeof(path), KEY_BOTH);
	client_opts(&f->co, ARGS("write_bw", "-s", "64", "-n", "100",
				 "--auth-file", path, "--json-file", f->json));
	server_opts(&f->srv.o, ARGS("--auth-file", path));
	assert_int_equal(rdp_session_load_secret(&f->co, 1, &cs), 0);
	assert_int_equal(rdp_session_load_secret(&f->srv.o, 0, &ss), 0);
	assert_int_equal(run_pair(&f->co, &f->srv), RDP_EXIT_OK);
	assert_int_equal(f->srv.ret, 0);
	fp = fopen(f->json, "r");
	assert_non_null(fp);
	text = calloc(1, 65536);
	assert_true(fread(text, 1, 65535, fp) > 0);
	fclose(fp);
	assert_non_null(strstr(text, "\"authentication\": \"shared-secret\""));
	free(text);
	unlink(path);
	balanced();
}

/* No secret against a server with one: "authentication required", and
 * the server opened no device and built nothing. */
static void test_auth_required(void **state)
{
	struct fixture *f = *state;
	struct rdp_secret ss;
	char path[64];

	secret_file(path, sizeof(path), KEY_SERVER);
	client_opts(&f->co, ARGS("write_bw", "-s", "64", "-n", "100"));
	server_opts(&f->srv.o, ARGS("--auth-file", path));
	assert_int_equal(rdp_session_load_secret(&f->srv.o, 0, &ss), 0);
	assert_int_equal(run_pair(&f->co, &f->srv), RDP_EXIT_FAIL);
	assert_int_equal(f->srv.ret, -EACCES);
	/* The client's own device only. */
	assert_int_equal(fake_engine_cfg.devs_opened, 1);
	assert_int_equal(fake_engine_cfg.conns_created, 0);
	unlink(path);
}

/* A client with a secret refuses a server without one; and a wrong
 * secret is refused by the client before it proves anything. */
static void test_auth_server_without(void **state)
{
	struct fixture *f = *state;
	struct rdp_secret cs, ss;
	char path[64], other[64];

	secret_file(path, sizeof(path), KEY_CLIENT);
	secret_file(other, sizeof(other), KEY_OTHER);
	client_opts(&f->co, ARGS("write_bw", "-s", "64", "--auth-file", path));
	assert_int_equal(rdp_session_load_secret(&f->co, 1, &cs), 0);
	server_opts(&f->srv.o, ARGS("--max-memory", "1M"));
	assert_int_equal(run_pair(&f->co, &f->srv), RDP_EXIT_FAIL);
	assert_int_equal(f->srv.ret, -EACCES);
	server_opts(&f->srv.o, ARGS("--auth-file", other));
	assert_int_equal(rdp_session_load_secret(&f->srv.o, 0, &ss), 0);
	assert_int_equal(run_pair(&f->co, &f->srv), RDP_EXIT_FAIL);
	assert_int_equal(f->srv.ret, -ECANCELED);
	/* The two clients' devices only. */
	assert_int_equal(fake_engine_cfg.devs_opened, 2);
	assert_int_equal(fake_engine_cfg.conns_created, 0);
	unlink(path);
	unlink(other);
}

/* The client reads RDMAPERF_AUTH_FILE; a group-readable file is refused. */
static void test_auth_env(void **state)
{
	struct fixture *f = *state;
	struct rdp_secret cs;
	char path[64];

	secret_file(path, sizeof(path), KEY_ENV);
	client_opts(&f->co, ARGS("write_bw", "-s", "64"));
	assert_int_equal(setenv("RDMAPERF_AUTH_FILE", path, 1), 0);
	assert_int_equal(rdp_session_load_secret(&f->co, 1, &cs), 0);
	assert_non_null(f->co.conn.secret);
	assert_int_equal(cs.len, 32); /* the decoded key */
	/* The server side never reads the variable. */
	server_opts(&f->srv.o, ARGS("--max-memory", "1M"));
	assert_int_equal(rdp_session_load_secret(&f->srv.o, 0, &cs), 0);
	assert_null(f->srv.o.conn.secret);
	assert_int_equal(chmod(path, 0644), 0);
	assert_int_equal(rdp_session_load_secret(&f->co, 1, &cs), -EPERM);
	unsetenv("RDMAPERF_AUTH_FILE");
	unlink(path);
}

/*
 * A scripted client: HELLO, then msg. The server's answer, if asked for,
 * lands in answer (type 0 when none came). Returns the server's return.
 */
static int serve_scripted(struct fixture *f, const struct rdp_msg *msg,
			  struct rdp_msg *answer)
{
	struct rdp_msg hello = { .type = RDP_MSG_HELLO };
	struct rdp_oob cli;

	assert_int_equal(rdp_oob_loopback(IO_MS, &cli, &f->srv.oob), 0);
	assert_int_equal(pthread_create(&f->srv.tid, NULL, serve_main, &f->srv),
			 0);
	assert_int_equal(rdp_oob_send(&cli, &hello), 0);
	assert_int_equal(rdp_oob_expect(&cli, RDP_MSG_HELLO, &hello, IO_MS), 0);
	assert_int_equal(rdp_oob_send(&cli, msg), 0);
	if (answer && rdp_oob_recv(&cli, answer, IO_MS))
		answer->type = 0;
	rdp_oob_close(&cli);
	assert_int_equal(pthread_join(f->srv.tid, NULL), 0);
	return f->srv.ret;
}

/* PARAMS as a write_bw client would send them, then changed by a test. */
static void params_msg(struct fixture *f, struct rdp_msg *msg)
{
	client_opts(&f->co, ARGS("write_bw", "-s", "64"));
	memset(msg, 0, sizeof(*msg));
	msg->type = RDP_MSG_PARAMS;
	msg->u.params = f->co.params;
}

/* Parameters no honest client sends: each refused with its reason, in an
 * ERROR the client receives instead of ACCEPT. */
static void test_hostile_params(void **state)
{
	struct fixture *f = *state;
	struct rdp_msg msg, answer;

	server_opts(&f->srv.o, ARGS("--max-memory", "1M"));
	params_msg(f, &msg);
	snprintf(msg.u.params.test, sizeof(msg.u.params.test), "nosuch_bw");
	assert_int_equal(serve_scripted(f, &msg, &answer), -EINVAL);
	assert_int_equal(answer.type, RDP_MSG_ERROR);
	assert_non_null(strstr(answer.u.error.text, "nosuch_bw"));

	params_msg(f, &msg);
	msg.u.params.num_qps = 0;
	assert_int_equal(serve_scripted(f, &msg, &answer), -E2BIG);
	assert_int_equal(answer.type, RDP_MSG_ERROR);

	params_msg(f, &msg);
	msg.u.params.outstanding = 300;
	assert_int_equal(serve_scripted(f, &msg, &answer), -E2BIG);
	assert_non_null(strstr(answer.u.error.text, "-o 300"));

	params_msg(f, &msg);
	snprintf(msg.u.params.test, sizeof(msg.u.params.test), "send_lat");
	msg.u.params.flags |= RDP_PARAM_BIDIR;
	assert_int_equal(serve_scripted(f, &msg, &answer), -EINVAL);
	assert_non_null(strstr(answer.u.error.text, "both ways"));

	/* The test's own check: atomics move 8 bytes. */
	params_msg(f, &msg);
	snprintf(msg.u.params.test, sizeof(msg.u.params.test), "atomic_bw");
	assert_int_equal(serve_scripted(f, &msg, &answer), -EINVAL);
	assert_int_equal(answer.type, RDP_MSG_ERROR);
	assert_int_equal(fake_engine_cfg.conns_created, 0);
	balanced();
}

/*
 * No flag widens what a key covers: implicit ODP (a key to the server's
 * whole address space) and any bit the server does not know are refused
 * as usage errors, before anything is registered.
 */
static void test_flags_refused(void **state)
{
	struct fixture *f = *state;
	struct rdp_msg msg, answer;

	server_opts(&f->srv.o, ARGS("--max-memory", "1M"));
	params_msg(f, &msg);
	msg.u.params.flags |= RDP_PARAM_ODP | RDP_PARAM_ODP_IMPLICIT;
	assert_int_equal(serve_scripted(f, &msg, &answer), RDP_OOB_REFUSED);
	assert_int_equal(answer.type, RDP_MSG_ERROR);
	assert_int_equal(answer.u.error.code, RDP_OOB_REFUSED);
	assert_non_null(strstr(answer.u.error.text, "whole address space"));
	assert_non_null(strstr(answer.u.error.text, "use --odp"));

	params_msg(f, &msg);
	msg.u.params.flags |= 1u << 30;
	assert_int_equal(serve_scripted(f, &msg, &answer), RDP_OOB_REFUSED);
	assert_int_equal(answer.u.error.code, RDP_OOB_REFUSED);
	assert_non_null(strstr(answer.u.error.text, "0x40000000"));
	assert_int_equal(fake_engine_cfg.conns_created, 0);

	/* A client that sends it anyway (an older release) exits 2. */
	client_opts(&f->co, ARGS("read_bw", "-s", "64"));
	f->co.params.flags |= RDP_PARAM_ODP | RDP_PARAM_ODP_IMPLICIT;
	assert_int_equal(run_pair(&f->co, &f->srv), RDP_EXIT_USAGE);
	assert_int_equal(f->srv.ret, RDP_OOB_REFUSED);
	assert_int_equal(fake_engine_cfg.conns_created, 0);
	balanced();
}

/* Between points a client may only send PARAMS, or an ERROR. */
static void test_unexpected_messages(void **state)
{
	struct fixture *f = *state;
	struct rdp_msg msg = { .type = RDP_MSG_SYNC }, answer;

	server_opts(&f->srv.o, ARGS("--max-memory", "1M"));
	assert_int_equal(serve_scripted(f, &msg, &answer), -EPROTO);
	assert_int_equal(answer.type, RDP_MSG_ERROR);
	memset(&msg, 0, sizeof(msg));
	msg.type = RDP_MSG_ERROR;
	snprintf(msg.u.error.text, sizeof(msg.u.error.text), "gave up");
	assert_int_equal(serve_scripted(f, &msg, NULL), -ECANCELED);
}

/* A one-shot server started for one test refuses another. */
static void test_one_shot_other_test(void **state)
{
	struct fixture *f = *state;

	client_opts(&f->co, ARGS("write_bw", "-s", "64"));
	server_opts(&f->srv.o, ARGS("--max-memory", "1M"));
	f->srv.o.bench = rdp_bench_find("read_bw");
	assert_int_equal(run_pair(&f->co, &f->srv), RDP_EXIT_FAIL);
	assert_int_equal(f->srv.ret, -EINVAL);
}

/* -R needs IPv4 addresses, which a loopback channel does not have: the
 * server says so. */
static void test_rdma_cm_needs_ipv4(void **state)
{
	struct fixture *f = *state;

	client_opts(&f->co, ARGS("write_bw", "-s", "64", "-R"));
	server_opts(&f->srv.o, ARGS("--max-memory", "1M"));
	assert_int_equal(run_pair(&f->co, &f->srv), RDP_EXIT_FAIL);
	assert_int_equal(f->srv.ret, -EAFNOSUPPORT);
	balanced();
}

/* A point below --min-bw fails the run after the report (exit 1); the
 * server hears why, as of any failure of its client. */
static void test_threshold_fails(void **state)
{
	struct fixture *f = *state;

	/* 64 B per 100 ns: 5.12 Gb/s. */
	client_opts(&f->co, ARGS("write_bw", "-s", "64", "-n", "10", "--min-bw",
				 "6", "--json"));
	server_opts(&f->srv.o, ARGS("--max-memory", "1M"));
	assert_int_equal(run_pair(&f->co, &f->srv), RDP_EXIT_FAIL);
	assert_int_equal(f->srv.ret, -ECANCELED);
	client_opts(&f->co,
		    ARGS("write_bw", "-s", "64", "-n", "10", "--min-bw", "5"));
	assert_int_equal(run_pair(&f->co, &f->srv), RDP_EXIT_OK);
	assert_int_equal(f->srv.ret, 0);
}

/* Rails are refused before any child starts when the command line cannot
 * make them (the runs themselves need devices: Soft-RoCE suite). */
static void test_rails_refusals(void **state)
{
	static const char *lines[][8] = {
		{ "write_bw", "-d", "a,b", NULL },
		{ "write_lat", "-d", "a,b", NULL },
		{ "write_bw", "-d", "a,b", "--json", NULL },
		{ "write_bw", "-d", "a,,b", NULL },
	};
	static const char *hosts[] = { "h1", "h1,h2", "h1,h2", "h1,h2,h3" };
	struct fixture *f = *state;
	size_t i;

	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		client_opts(&f->co, lines[i]);
		snprintf(f->co.conn.host, sizeof(f->co.conn.host), "%s",
			 hosts[i]);
		assert_true(rdp_rails_wanted(&f->co));
		assert_int_equal(rdp_rails_run(0, NULL, &f->co),
				 RDP_EXIT_USAGE);
	}
	client_opts(&f->co, ARGS("write_bw", "-d", "fake0"));
	assert_false(rdp_rails_wanted(&f->co));
}

static void *loop_main(void *arg)
{
	struct server_side *s = arg;

	s->ret = rdp_server_loop_with(&s->o, &fake_engine, 1);
	return NULL;
}

/* While one client is served, a second one is told so at once. */
static void test_busy_server(void **state)
{
	struct fixture *f = *state;
	struct rdp_msg msg = { .type = RDP_MSG_HELLO };
	struct rdp_oob first;
	char port[8];

	snprintf(port, sizeof(port), "%u", unit_reserve_port());
	server_opts(&f->srv.o, ARGS("--port", port, "--bind", "127.0.0.1"));
	assert_int_equal(pthread_create(&f->srv.tid, NULL, loop_main, &f->srv),
			 0);
	/* The first client: its HELLO answered, it is being served. */
	assert_int_equal(rdp_oob_connect("127.0.0.1", (uint16_t)atoi(port),
					 NULL, IO_MS, &first),
			 0);
	assert_int_equal(rdp_oob_send(&first, &msg), 0);
	assert_int_equal(rdp_oob_expect(&first, RDP_MSG_HELLO, &msg, IO_MS), 0);
	/* The second: a whole client session over TCP, turned away. */
	client_opts(&f->co, ARGS("write_bw", "-s", "64", "--port", port));
	snprintf(f->co.conn.host, sizeof(f->co.conn.host), "127.0.0.1");
	assert_int_equal(rdp_session_client_with(&f->co, &fake_engine, NULL),
			 RDP_EXIT_FAIL);
	/* The first leaves before its test: the one-test server ends. */
	rdp_oob_close(&first);
	assert_int_equal(pthread_join(f->srv.tid, NULL), 0);
	assert_int_equal(f->srv.ret, RDP_EXIT_FAIL);
	/* The server's check at start, and the second client's device */
	assert_int_equal(fake_engine_cfg.devs_opened, 2);
	balanced();
}

/* A server whose device is not there says so before it listens, and
 * ends: nothing answers on its port. */
static void test_server_device_first(void **state)
{
	struct fixture *f = *state;
	uint16_t port = unit_reserve_port();
	struct rdp_oob oob;
	char text[8];

	snprintf(text, sizeof(text), "%u", port);
	server_opts(&f->srv.o, ARGS("--port", text, "--bind", "127.0.0.1", "-d",
				    "mlx5_9"));
	/* the fake knows no device by that name, as a host with none */
	assert_int_equal(rdp_server_loop_with(&f->srv.o, &fake_engine, 0),
			 RDP_EXIT_UNSUPPORTED);
	assert_int_equal(fake_engine_cfg.devs_opened, 0);
	assert_int_equal(rdp_oob_connect("127.0.0.1", port, NULL, 50, &oob),
			 -ECONNREFUSED);
}

/* Nothing listens: refused, whatever moment the deadline falls in. */
static void test_connect_refused(void **state)
{
	uint16_t port = unit_reserve_port();
	struct rdp_oob oob;
	int ms;

	(void)state;
	for (ms = 1; ms <= 301; ms += 50)
		assert_int_equal(rdp_oob_connect("127.0.0.1", port, NULL, ms,
						 &oob),
				 -ECONNREFUSED);
}

/* Port 0: the kernel picks one, and a client reaches it there. */
static void test_listen_any_port(void **state)
{
	struct rdp_oob client, server;
	uint16_t port = 0;
	int lfd;

	(void)state;
	assert_int_equal(rdp_oob_listen("127.0.0.1", 0, &lfd), 0);
	assert_int_equal(rdp_oob_local_port(lfd, &port), 0);
	assert_int_not_equal(port, 0);
	assert_int_equal(
		rdp_oob_connect("127.0.0.1", port, NULL, IO_MS, &client), 0);
	assert_int_equal(rdp_oob_accept(lfd, IO_MS, IO_MS, &server), 0);
	rdp_oob_close(&client);
	rdp_oob_close(&server);
	close(lfd);
	assert_int_equal(rdp_oob_local_port(-1, &port), -EBADF);
}

/* A report sink that records what the session hands it. */
struct recorder {
	struct rdp_report_sink base; /* first */
	int begins, starts, groups, ends, closes;
	size_t points, summary_n;
	uint64_t size[8], checked;
	uint32_t qps[8];
};

static int rec_begin(struct rdp_report_sink *s,
		     const struct rdp_report_info *in)
{
	struct recorder *r = (struct recorder *)s;

	assert_int_equal(r->points, 0);
	assert_non_null(in->params);
	r->begins++;
	return 0;
}

static void rec_start(struct rdp_report_sink *s,
		      const struct rdp_report_info *in, int group)
{
	struct recorder *r = (struct recorder *)s;

	(void)in;
	assert_int_equal(r->begins, 1);
	r->starts++;
	r->groups += group;
}

static int rec_point(struct rdp_report_sink *s,
		     const struct rdp_report_info *in,
		     const struct rdp_result *res)
{
	struct recorder *r = (struct recorder *)s;

	assert_true(r->points < 8);
	assert_int_equal(in->params->size_bytes, res->size_bytes);
	r->size[r->points] = res->size_bytes;
	r->qps[r->points] = res->num_qps;
	r->points++;
	assert_int_equal(r->starts, r->points);
	return 0;
}

static int rec_end(struct rdp_report_sink *s, const struct rdp_report_info *in,
		   struct rdp_report_summary *sum)
{
	struct recorder *r = (struct recorder *)s;

	(void)in;
	r->ends++;
	r->summary_n = sum->n;
	r->checked = sum->data_checked;
	return 0;
}

static int rec_close(struct rdp_report_sink *s,
		     const struct rdp_report_info *in)
{
	struct recorder *r = (struct recorder *)s;

	(void)in;
	assert_int_equal(r->ends, 1);
	r->closes++;
	return 0;
}

static const struct rdp_report_sink_ops rec_ops = {
	.name = "recorder",
	.begin = rec_begin,
	.start = rec_start,
	.point = rec_point,
	.end = rec_end,
	.close = rec_close,
};

/* The document as its file holds it: reals to 15 digits. */
static json_t *as_written(json_t *doc)
{
	char *text = json_dumps(doc, JSON_REAL_PRECISION(15));
	json_t *back;

	assert_non_null(text);
	back = json_loads(text, 0, NULL);
	free(text);
	assert_non_null(back);
	return back;
}

/* A sweep: each sink begins and ends once and sees each point once; the
 * points handed back are those the JSON file holds. */
static void test_sinks_and_results(void **state)
{
	struct fixture *f = *state;
	struct recorder rec = { .base.ops = &rec_ops };
	struct rdp_session_results *out = NULL;
	json_t *file, *res, *back;
	uint64_t checked = 0;
	size_t i;

	client_opts(&f->co, ARGS("write_bw", "-s", "64,4K,64K", "-q", "1,2",
				 "-n", "10", "--json-file", f->json));
	server_opts(&f->srv.o, ARGS("--max-memory", "1M"));
	assert_int_equal(run_pair_with(&f->co, &f->srv, &rec.base, &out),
			 RDP_EXIT_OK);
	assert_int_equal(rec.begins, 1);
	assert_int_equal(rec.starts, 6);
	assert_int_equal(rec.groups, 2); /* each QP count's first size */
	assert_int_equal(rec.points, 6);
	assert_int_equal(rec.ends, 1);
	assert_int_equal(rec.closes, 1);
	assert_int_equal(rec.summary_n, 6);
	assert_non_null(out);
	assert_int_equal(out->n, 6);
	assert_string_equal(out->check_unit, f->co.bench->check_unit);
	res = results_of(f, 6);
	for (i = 0; i < out->n; i++) {
		assert_int_equal(out->points[i].size_bytes, rec.size[i]);
		assert_int_equal(out->points[i].num_qps, rec.qps[i]);
		assert_int_equal(out->points[i].size_bytes,
				 int_at(res, i, "size_bytes"));
		assert_int_equal(out->points[i].num_qps,
				 int_at(res, i, "num_qps"));
		assert_int_equal(out->points[i].msgs,
				 int_at(res, i, "iterations"));
		assert_float_equal(out->points[i].bw_avg_gbps,
				   real_at(res, i, "bw_avg_gbps"), 1e-9);
		assert_true(out->points[i].data_ok);
		checked += out->points[i].data_checked;
	}
	assert_true(checked > 0);
	assert_int_equal(out->data_checked, checked);
	assert_int_equal(rec.checked, checked);
	json_decref(res);
	/* The document handed back is the file's. */
	file = json_load_file(f->json, 0, NULL);
	back = as_written(out->doc);
	assert_true(json_equal(file, back));
	json_decref(back);
	json_decref(file);
	rdp_session_results_free(out);
	balanced();
}

/* Without --json: the document is built for the caller all the same, and
 * a latency point's figures come back. */
static void test_results_without_json(void **state)
{
	struct fixture *f = *state;
	struct rdp_session_results *out = NULL;
	json_t *arr;

	client_opts(&f->co, ARGS("write_lat", "-s", "8", "-n", "20", "--output",
				 "latency"));
	server_opts(&f->srv.o, ARGS("--max-memory", "1M"));
	assert_int_equal(run_pair_with(&f->co, &f->srv, NULL, &out),
			 RDP_EXIT_OK);
	assert_non_null(out);
	assert_int_equal(out->n, 1);
	assert_int_equal(out->points[0].lat.n, 20);
	arr = json_object_get(out->doc, "results");
	assert_int_equal(json_array_size(arr), 1);
	assert_float_equal(real_at(arr, 0, "lat_p50_us"),
			   out->points[0].lat.median_ns / 1e3, 1e-12);
	rdp_session_results_free(out);
	balanced();
}

/* A failed run hands nothing back, and its sinks never reach the end. */
static void test_results_on_failure(void **state)
{
	struct fixture *f = *state;
	struct recorder rec = { .base.ops = &rec_ops };
	struct rdp_session_results *out = NULL;

	client_opts(&f->co, ARGS("write_bw", "-s", "1M", "-q", "4"));
	server_opts(&f->srv.o, ARGS("--max-memory", "1M"));
	assert_int_equal(run_pair_with(&f->co, &f->srv, &rec.base, &out),
			 RDP_EXIT_FAIL);
	assert_null(out);
	assert_int_equal(rec.points, 0);
	assert_int_equal(rec.ends, 0);
	balanced();
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_one_point),
		T(test_sweep),
		T(test_bidirectional),
		T(test_latency),
		T(test_intervals),
		T(test_json_file_unwritable),
		T(test_adaptive_figure_only),
		T(test_refused_by_server),
		T(test_server_connect_fails),
		T(test_client_connect_fails),
		T(test_server_data_bad),
		T(test_client_data_bad),
		T(test_server_loop_fails),
		T(test_access_json),
		T(test_validation_cost),
		T(test_no_device),
		cmocka_unit_test(test_loopback_deadline),
		cmocka_unit_test(test_connect_refused),
		cmocka_unit_test(test_listen_any_port),
		T(test_silent_server),
		T(test_silent_client),
		T(test_not_rdmaperf),
		T(test_auth_both),
		T(test_auth_required),
		T(test_auth_server_without),
		T(test_auth_env),
		T(test_hostile_params),
		T(test_flags_refused),
		T(test_unexpected_messages),
		T(test_one_shot_other_test),
		T(test_rdma_cm_needs_ipv4),
		T(test_threshold_fails),
		T(test_rails_refusals),
		T(test_busy_server),
		T(test_server_device_first),
		T(test_sinks_and_results),
		T(test_results_without_json),
		T(test_results_on_failure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
