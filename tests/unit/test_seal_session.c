/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Authenticated sessions in one process, client and server with one
 * secret and the fake engine, through a relay that passes whole messages
 * and can change, drop or repeat one after AUTH: the session runs to its
 * end untouched, and any change ends it on both sides before the message
 * is acted on (a changed PARAMS: the server opens no device).
 */
#include <errno.h>
#include <unistd.h>
#include <sys/socket.h>

#include "session_pair.h"
#include "unit.h"
#include <rdmaperf/secret.h>

#define FRAME_BYTES (RDP_WIRE_HDR_BYTES + RDP_WIRE_MAX_PAYLOAD)

enum act {
	PASS,
	FLIP,
	DROP,
	REPEAT
};

/* What the relay does to the nth message of a type in one direction. */
struct tamper {
	int to_server; /* 1: client to server, 0: server to client */
	uint16_t type;
	int nth; /* 1: the first of that type */
	enum act act;
	size_t at; /* FLIP: this byte of the frame, from the end if past it */
};

/* One direction of the relay. */
struct pipe_dir {
	int in, out;
	const struct tamper *t; /* NULL: pass everything */
	int seen, acted;
	pthread_t tid;
};

static int read_all(int fd, uint8_t *b, size_t n)
{
	ssize_t r;

	while (n) {
		r = read(fd, b, n);
		if (r <= 0)
			return -1;
		b += r;
		n -= (size_t)r;
	}
	return 0;
}

static void write_all(int fd, const uint8_t *b, size_t n)
{
	ssize_t r;

	while (n) {
		r = send(fd, b, n, MSG_NOSIGNAL);
		if (r <= 0)
			return;
		b += r;
		n -= (size_t)r;
	}
}

/* Frames from in to out, until in closes; then out is closed for
 * writing, as a real relay passes the end on. */
static void *pipe_main(void *arg)
{
	struct pipe_dir *d = arg;
	uint8_t f[FRAME_BYTES];
	size_t n;

	while (!read_all(d->in, f, RDP_WIRE_HDR_BYTES)) {
		n = (size_t)f[8] << 24 | (size_t)f[9] << 16 |
		    (size_t)f[10] << 8 | f[11];
		if (n > RDP_WIRE_MAX_PAYLOAD ||
		    read_all(d->in, f + RDP_WIRE_HDR_BYTES, n))
			break;
		n += RDP_WIRE_HDR_BYTES;
		if (d->t && (f[6] << 8 | f[7]) == d->t->type &&
		    ++d->seen == d->t->nth) {
			d->acted = 1;
			if (d->t->act == FLIP)
				f[d->t->at < n ? d->t->at : n - 1] ^= 0x10;
			if (d->t->act == DROP)
				continue;
			if (d->t->act == REPEAT)
				write_all(d->out, f, n);
		}
		write_all(d->out, f, n);
	}
	shutdown(d->out, SHUT_WR);
	return NULL;
}

struct fixture {
	char secret[64];
	struct rdp_secret cs, ss;
	struct rdp_opts co;
	struct server_side srv;
	struct pipe_dir c2s, s2c;
};

static int setup(void **state)
{
	/* 32 random bytes in base64, as a secret file holds them */
	static const char key[] =
		"TtoATJys8I58R9LtmUSJRtdr4GApi87U4rz5kUH0wEM=\n";
	struct fixture *f = calloc(1, sizeof(*f));
	char err[256];
	int fd;

	if (!f)
		return -1;
	snprintf(f->secret, sizeof(f->secret), "/tmp/rdp-seal-XXXXXX");
	fd = mkstemp(f->secret);
	if (fd < 0 || write(fd, key, strlen(key)) != (ssize_t)strlen(key)) {
		free(f);
		return -1;
	}
	close(fd);
	if (SERVER(&f->srv.o, err, "--no-pin", "--auth-file", f->secret))
		return -1;
	f->srv.o.conn.oob_timeout_ms = IO_MS;
	if (rdp_session_load_secret(&f->srv.o, 0, &f->ss))
		return -1;
	fake_engine_reset();
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	unlink(f->secret);
	rdp_secret_clear(&f->cs);
	rdp_secret_clear(&f->ss);
	free(f);
	return 0;
}

/* rdmaperf ARGS --auth-file SECRET loopback */
#define CLIENT_OPTS(f, ...)                                                    \
	do {                                                                   \
		char err_[256];                                                \
		assert_int_equal(CLIENT(&(f)->co, err_, __VA_ARGS__,           \
					"--no-pin", "--auth-file",             \
					(f)->secret, "loopback"),              \
				 RDP_PARSE_OK);                                \
		(f)->co.conn.oob_timeout_ms = IO_MS;                           \
		assert_int_equal(                                              \
			rdp_session_load_secret(&(f)->co, 1, &(f)->cs), 0);    \
	} while (0)

static void start_pipe(struct pipe_dir *d, int in, int out,
		       const struct tamper *t)
{
	d->in = in;
	d->out = out;
	d->t = t;
	assert_int_equal(pthread_create(&d->tid, NULL, pipe_main, d), 0);
}

/* Client here, server and relay in threads; the client's exit code. */
static int run_relayed(struct fixture *f, const struct tamper *t)
{
	int cs[2], ss[2], rc;
	struct rdp_oob cli;

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, cs), 0);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, ss), 0);
	rdp_oob_from_fd(cs[0], IO_MS, &cli);
	rdp_oob_from_fd(ss[0], IO_MS, &f->srv.oob);
	start_pipe(&f->c2s, cs[1], ss[1], t && t->to_server ? t : NULL);
	start_pipe(&f->s2c, ss[1], cs[1], t && !t->to_server ? t : NULL);
	serve_start(&f->srv);
	rc = rdp_session_client_with(&f->co, &fake_engine, &cli);
	serve_join(&f->srv);
	assert_int_equal(pthread_join(f->c2s.tid, NULL), 0);
	assert_int_equal(pthread_join(f->s2c.tid, NULL), 0);
	close(cs[1]);
	close(ss[1]);
	if (t)
		assert_true(t->to_server ? f->c2s.acted : f->s2c.acted);
	return rc;
}

/* Untouched, a sweep of two points over two QPs runs to its end. */
static void test_relay_passes(void **state)
{
	struct fixture *f = *state;

	CLIENT_OPTS(f, "write_bw", "-s", "64,4096", "-q", "2", "-n", "100");
	assert_int_equal(run_relayed(f, NULL), RDP_EXIT_OK);
	assert_int_equal(f->srv.ret, 0);
	assert_int_equal(fake_engine_cfg.conns_created, 4);
	balanced();
}

/* One byte of PARAMS changed: the server refuses it before it opens a
 * device or builds anything; the client hears why and fails. */
static void test_relay_params(void **state)
{
	const struct tamper t = { 1, RDP_MSG_PARAMS, 1, FLIP, 20 };
	struct fixture *f = *state;

	CLIENT_OPTS(f, "write_bw", "-s", "64", "-n", "100");
	assert_int_equal(run_relayed(f, &t), RDP_EXIT_FAIL);
	assert_int_equal(f->srv.ret, -EBADMSG);
	assert_int_equal(fake_engine_cfg.devs_opened, 1); /* the client's */
	assert_int_equal(fake_engine_cfg.conns_created, 0);
	balanced();
}

/* The second point's PARAMS, its tag's last byte: the first point ran,
 * the second is never set up. */
static void test_relay_second_params(void **state)
{
	const struct tamper t = { 1, RDP_MSG_PARAMS, 2, FLIP, SIZE_MAX };
	struct fixture *f = *state;

	CLIENT_OPTS(f, "write_bw", "-s", "64,128", "-n", "100");
	assert_int_equal(run_relayed(f, &t), RDP_EXIT_FAIL);
	assert_int_equal(f->srv.ret, -EBADMSG);
	assert_int_equal(fake_engine_cfg.conns_created, 2); /* point 1 */
	balanced();
}

/* QP_INFO changed either way: the side that receives it ends the
 * session, the other hears why. */
static void test_relay_qp_info(void **state)
{
	const struct tamper to_client = { 0, RDP_MSG_QP_INFO, 1, FLIP, 14 };
	const struct tamper to_server = { 1, RDP_MSG_QP_INFO, 1, FLIP, 14 };
	struct fixture *f = *state;

	CLIENT_OPTS(f, "write_bw", "-s", "64", "-n", "100");
	assert_int_equal(run_relayed(f, &to_client), RDP_EXIT_FAIL);
	assert_int_equal(f->srv.ret, -ECANCELED);
	balanced();
	memset(&f->c2s, 0, sizeof(f->c2s));
	memset(&f->s2c, 0, sizeof(f->s2c));
	assert_int_equal(run_relayed(f, &to_server), RDP_EXIT_FAIL);
	assert_int_equal(f->srv.ret, -EBADMSG);
	balanced();
}

/* A message dropped (the first of two QP_INFO) or sent twice (SYNC):
 * out of order, refused. */
static void test_relay_drop_repeat(void **state)
{
	const struct tamper drop = { 0, RDP_MSG_QP_INFO, 1, DROP, 0 };
	const struct tamper again = { 1, RDP_MSG_SYNC, 1, REPEAT, 0 };
	struct fixture *f = *state;

	CLIENT_OPTS(f, "write_bw", "-s", "64", "-q", "2", "-n", "100");
	assert_int_equal(run_relayed(f, &drop), RDP_EXIT_FAIL);
	balanced();
	memset(&f->c2s, 0, sizeof(f->c2s));
	memset(&f->s2c, 0, sizeof(f->s2c));
	assert_int_equal(run_relayed(f, &again), RDP_EXIT_FAIL);
	assert_int_equal(f->srv.ret, -EBADMSG);
	balanced();
}

/* The result changed on its way back: the client does not report it. */
static void test_relay_result(void **state)
{
	const struct tamper t = { 0, RDP_MSG_RESULT, 1, FLIP, 16 };
	struct fixture *f = *state;

	CLIENT_OPTS(f, "write_bw", "-s", "64", "-n", "100");
	assert_int_equal(run_relayed(f, &t), RDP_EXIT_FAIL);
	balanced();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_relay_passes, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_relay_params, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_relay_second_params, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_relay_qp_info, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_relay_drop_repeat, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_relay_result, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
