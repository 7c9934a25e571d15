/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Runs that end early, in one process on the fake engine: SIGINT or
 * SIGTERM mid-sweep reports the points done and the one cut short (text
 * and JSON), stops the sweep, leaves the server to serve on, and exits
 * 128 + the signal; a second signal exits at once; the out-of-band
 * socket's watch tells an open peer from one that left.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <cmocka.h>
#include <jansson.h>

#include <rdmaperf/oob.h>
#include <rdmaperf/opts.h>
#include <rdmaperf/session.h>

#include "session_int.h"
#include "session_pair.h"

struct fixture {
	char json[64];
	char text[64];
	struct rdp_opts co;
	struct server_side srv;
};

static int make_tmp(char *path, size_t len)
{
	int fd;

	snprintf(path, len, "/tmp/rdp-interrupt-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f || make_tmp(f->json, sizeof(f->json)) ||
	    make_tmp(f->text, sizeof(f->text))) {
		free(f);
		return -1;
	}
	fake_engine_reset();
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	unlink(f->json);
	unlink(f->text);
	free(f);
	return 0;
}

/* The client as the command line runs it (the handler armed), its
 * stdout into f->text; the server in a thread. The client's exit code. */
static int run_pair(struct fixture *f)
{
	struct rdp_oob cli;
	int rc, out, saved;

	assert_int_equal(rdp_oob_loopback(IO_MS, &cli, &f->srv.oob), 0);
	serve_start(&f->srv);
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	out = open(f->text, O_WRONLY | O_TRUNC);
	assert_true(saved >= 0 && out >= 0);
	assert_int_equal(dup2(out, STDOUT_FILENO), STDOUT_FILENO);
	close(out);
	assert_int_equal(rdp_session_signals_arm(), 0);
	rc = rdp_session_client_with(&f->co, &fake_engine, &cli);
	rdp_session_signals_disarm();
	fflush(stdout);
	assert_int_equal(dup2(saved, STDOUT_FILENO), STDOUT_FILENO);
	close(saved);
	serve_join(&f->srv);
	return rc;
}

static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *buf = calloc(1, 65536);
	size_t n;

	assert_non_null(fp);
	assert_non_null(buf);
	n = fread(buf, 1, 65535, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

static json_t *doc_of(const struct fixture *f)
{
	json_error_t jerr;
	json_t *root = json_load_file(f->json, 0, &jerr);

	assert_non_null(root);
	return root;
}

/* SIGINT during the second of three sizes: two rows, the second marked,
 * the footer; the JSON document's two points, the second flagged; the
 * server served the whole conversation; exit 130. */
static void test_sigint_mid_sweep(void **state)
{
	struct fixture *f = *state;
	json_t *root, *res, *intr;
	char *text;

	client_opts(&f->co, ARGS("write_bw", "-s", "64,4K,64K", "-n", "1000",
				 "--json-file", f->json));
	server_opts(&f->srv.o, ARGS("--max-memory", "1M"));
	fake_engine_cfg.client_signal = SIGINT;
	fake_engine_cfg.client_signal_at = 2;
	assert_int_equal(run_pair(f), 130);
	assert_int_equal(f->srv.ret, 0);
	assert_int_equal(fake_engine_cfg.client_loops, 2);

	text = slurp(f->text);
	assert_non_null(strstr(text, " 64         1000 "));
	assert_non_null(strstr(text, " 4096       500 "));
	assert_non_null(strstr(text, "  (interrupted)\n"));
	assert_null(strstr(text, " 65536 "));
	assert_non_null(strstr(text, " Run             : interrupted by SIGINT "
				     "after 2 of 3 points (the last one "
				     "measured up to the signal)\n"));
	free(text);

	root = doc_of(f);
	res = json_object_get(root, "results");
	assert_int_equal(json_array_size(res), 2);
	assert_null(json_object_get(json_array_get(res, 0), "interrupted"));
	assert_true(json_is_true(
		json_object_get(json_array_get(res, 1), "interrupted")));
	assert_int_equal(json_integer_value(json_object_get(
				 json_array_get(res, 1), "iterations")),
			 500);
	intr = json_object_get(root, "interrupted");
	assert_string_equal(json_string_value(json_object_get(intr, "signal")),
			    "SIGINT");
	assert_int_equal(
		json_integer_value(json_object_get(intr, "points_done")), 2);
	assert_int_equal(
		json_integer_value(json_object_get(intr, "points_planned")), 3);
	assert_true(json_is_true(json_object_get(intr, "partial_point")));
	json_decref(root);
	balanced();
}

/* SIGTERM on a latency run of one point: that point, cut short and
 * marked; exit 143. */
static void test_sigterm_one_point(void **state)
{
	struct fixture *f = *state;
	json_t *root, *intr;

	client_opts(&f->co, ARGS("write_lat", "-s", "8", "-n", "1000",
				 "--json-file", f->json));
	server_opts(&f->srv.o, ARGS("--max-memory", "1M"));
	fake_engine_cfg.client_signal = SIGTERM;
	fake_engine_cfg.client_signal_at = 1;
	assert_int_equal(run_pair(f), 143);
	assert_int_equal(f->srv.ret, 0);
	root = doc_of(f);
	assert_int_equal(json_array_size(json_object_get(root, "results")), 1);
	intr = json_object_get(root, "interrupted");
	assert_string_equal(json_string_value(json_object_get(intr, "signal")),
			    "SIGTERM");
	assert_int_equal(
		json_integer_value(json_object_get(intr, "points_planned")), 1);
	json_decref(root);
	balanced();
}

/* No signal: nothing marked, exit 0 (the handler armed changes nothing). */
static void test_no_signal(void **state)
{
	struct fixture *f = *state;
	json_t *root;
	char *text;

	client_opts(&f->co, ARGS("write_bw", "-s", "64,4K", "-n", "100",
				 "--json-file", f->json));
	server_opts(&f->srv.o, ARGS("--max-memory", "1M"));
	assert_int_equal(run_pair(f), RDP_EXIT_OK);
	text = slurp(f->text);
	assert_null(strstr(text, "interrupted"));
	free(text);
	root = doc_of(f);
	assert_null(json_object_get(root, "interrupted"));
	assert_int_equal(json_array_size(json_object_get(root, "results")), 2);
	json_decref(root);
}

/* The first signal sets the stop word; its echo at once (timeout(1)
 * signals the process, then its group) changes nothing; a second one
 * later exits at once with 128 + its number. */
static void test_second_signal_exits(void **state)
{
	struct timespec later = { 0, 300000000 };
	pid_t pid;
	int status;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (rdp_session_signals_arm())
			_exit(10);
		raise(SIGINT);
		if (!*rdp_session_stop_word() || rdp_session_signal() != SIGINT)
			_exit(11);
		raise(SIGINT); /* the echo */
		nanosleep(&later, NULL);
		raise(SIGINT);
		_exit(12); /* not reached */
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 130);
}

/* Disarmed, the handlers before are back and what was caught is gone. */
static void test_disarm_restores(void **state)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, now;

	(void)state;
	sigemptyset(&ign.sa_mask);
	assert_int_equal(sigaction(SIGTERM, &ign, NULL), 0);
	assert_int_equal(rdp_session_signals_arm(), 0);
	assert_int_equal(rdp_session_signals_arm(), 0); /* nested */
	rdp_session_signals_disarm();
	assert_int_equal(sigaction(SIGTERM, NULL, &now), 0);
	assert_true(now.sa_handler != SIG_IGN);
	rdp_session_signals_disarm();
	assert_int_equal(sigaction(SIGTERM, NULL, &now), 0);
	assert_true(now.sa_handler == SIG_IGN);
	now.sa_handler = SIG_DFL;
	assert_int_equal(sigaction(SIGTERM, &now, NULL), 0);
}

/* The watch: an open, quiet peer is there; one with a message waiting
 * is there (the message left unread); one that closed is gone. */
static void test_peer_gone(void **state)
{
	int sv[2];
	char b;

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(rdp_oob_peer_gone(sv[0]), 0);
	assert_int_equal(write(sv[1], "x", 1), 1);
	assert_int_equal(rdp_oob_peer_gone(sv[0]), 0);
	assert_int_equal(read(sv[0], &b, 1), 1);
	close(sv[1]);
	assert_int_equal(rdp_oob_peer_gone(sv[0]), 1);
	close(sv[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_sigint_mid_sweep, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_sigterm_one_point, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_no_signal, setup,
						teardown),
		cmocka_unit_test(test_second_signal_exits),
		cmocka_unit_test(test_disarm_restores),
		cmocka_unit_test(test_peer_gone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
