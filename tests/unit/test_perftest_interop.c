/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --perftest against plain perftest programs: perftest's defaults per
 * test, the negotiation block as perftest fills it (--run_infinitely
 * too), and the block found from the bytes a client sends, whatever
 * version it calls itself (a server over a socket pair, the fake engine).
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
#include <unistd.h>
#include <sys/socket.h>
#include <cmocka.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/oob.h>
#include <rdmaperf/opts.h>
#include <rdmaperf/params.h>
#include <rdmaperf/perftest_wire.h>
#include <rdmaperf/session.h>
#include <rdmaperf/session_steps.h>

#include "../fake/fake_engine.h"
#include "argv.h"

/* What each test gets with --perftest and no other option: perftest's
 * init of its parameters for that test. */
static void test_defaults_per_test(void **state)
{
	static const struct {
		const char *test;
		uint64_t iters;
		uint32_t cq_mod, inline_bytes;
	} want[] = {
		/* 64 KiB by default: above 8 KiB every send is signalled */
		{ "write_bw", 5000, 1, 0 },    { "read_bw", 1000, 1, 0 },
		{ "send_bw", 1000, 1, 0 },     { "atomic_bw", 1000, 100, 0 },
		{ "write_lat", 1000, 1, 220 }, { "send_lat", 1000, 1, 236 },
		{ "read_lat", 1000, 1, 0 },    { "atomic_lat", 1000, 1, 0 },
	};
	struct rdp_opts o;
	char err[256] = "";
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_int_equal(CLIENT(&o, err, want[i].test, "--perftest",
					"h"),
				 RDP_PARSE_OK);
		assert_int_equal(o.params.iters, want[i].iters);
		assert_int_equal(o.conn.perftest_iters, want[i].iters);
		assert_int_equal(o.params.post_list, 1);
		assert_int_equal(o.params.inline_bytes, want[i].inline_bytes);
		if (o.bench->kind == RDP_BENCH_BW) {
			assert_int_equal(o.params.tx_depth, 128);
			assert_int_equal(o.params.cq_mod, want[i].cq_mod);
		}
		assert_true(o.report.margin_s == 0);
	}
	/* the receives of the SEND tests: 512 */
	assert_int_equal(CLIENT(&o, err, "send_bw", "--perftest", "h"),
			 RDP_PARSE_OK);
	assert_int_equal(o.params.rx_depth, 512);
}

/* rdmaperf's own defaults stay without --perftest. */
static void test_defaults_own(void **state)
{
	struct rdp_opts o;
	char err[256] = "";

	(void)state;
	assert_int_equal(CLIENT(&o, err, "write_bw", "h"), RDP_PARSE_OK);
	assert_int_equal(o.params.iters, 1000);
	assert_int_equal(o.params.post_list, 32);
	assert_int_equal(o.params.inline_bytes, 220);
	assert_int_equal(o.params.cq_mod, 100);
	assert_int_equal(o.conn.perftest_iters, 0);
	assert_int_equal(CLIENT(&o, err, "write_bw", "-D", "8", "h"),
			 RDP_PARSE_OK);
	assert_true(o.report.margin_s == 0);
}

/* What the command line says wins; what follows from it as in perftest:
 * queues no deeper than -n, CQ moderation by size, -f a quarter of -D. */
static void test_defaults_follow_line(void **state)
{
	struct rdp_opts o;
	char err[256] = "";

	(void)state;
	assert_int_equal(CLIENT(&o, err, "write_bw", "--perftest", "-n", "9",
				"-Q", "7", "-l", "4", "-I", "64", "h"),
			 RDP_PARSE_OK);
	assert_int_equal(o.params.iters, 9);
	assert_int_equal(o.params.post_list, 4);
	assert_int_equal(o.params.inline_bytes, 64);
	assert_int_equal(o.params.tx_depth, 9);
	assert_int_equal(o.params.cq_mod, 7);
	assert_int_equal(CLIENT(&o, err, "send_bw", "--perftest", "-n", "100",
				"h"),
			 RDP_PARSE_OK);
	assert_int_equal(o.params.rx_depth, 100);
	assert_int_equal(o.params.tx_depth, 100);
	assert_int_equal(CLIENT(&o, err, "write_bw", "--perftest", "-s", "8K",
				"h"),
			 RDP_PARSE_OK);
	assert_int_equal(o.params.cq_mod, 100);
	assert_int_equal(CLIENT(&o, err, "write_bw", "--perftest", "-a", "h"),
			 RDP_PARSE_OK);
	assert_int_equal(o.params.cq_mod, 100);
	assert_int_equal(CLIENT(&o, err, "write_bw", "--perftest", "-D", "8",
				"h"),
			 RDP_PARSE_OK);
	assert_true(o.report.margin_s == 2);
	assert_int_equal(o.conn.perftest_iters, 0);
	assert_int_equal(CLIENT(&o, err, "write_bw", "--perftest", "-D", "3",
				"h"),
			 RDP_PARSE_OK);
	assert_true(o.report.margin_s == 0);
	assert_int_equal(CLIENT(&o, err, "write_bw", "--perftest", "-D", "8",
				"-f", "1", "h"),
			 RDP_PARSE_OK);
	assert_true(o.report.margin_s == 1);
	/* the one-shot server reads the same */
	assert_int_equal(CLIENT(&o, err, "write_bw", "--perftest"),
			 RDP_PARSE_OK);
	assert_int_equal(o.params.iters, 5000);
	/* a mistake is still named once */
	assert_int_equal(CLIENT(&o, err, "write_bw", "--perftest", "-n", "0",
				"h"),
			 -EINVAL);
	assert_non_null(strstr(err, "-n 0 is out of range"));
}

/* --perform_warm_up: perftest's warm-up, a send queue's depth (or a
 * longer post list) per QP, for WRITE, READ and atomic bandwidth only. */
static void test_warm_up(void **state)
{
	static const struct {
		const char *args[8];
		uint32_t want;
	} rows[] = {
		{ { "write_bw" }, 0 },
		{ { "write_bw", "--perform_warm_up", "-l", "1", "-t", "64" },
		  64 },
		{ { "write_bw", "--perform_warm_up", "-t", "16" }, 32 },
		{ { "write_bw", "--perftest", "--perform_warm_up" }, 128 },
		{ { "read_bw", "--perftest", "--perform_warm_up", "-n", "50" },
		  50 },
		{ { "atomic_bw", "--perform_warm_up", "-l", "1" }, 128 },
		{ { "send_bw", "--perform_warm_up" }, 0 },
		{ { "write_bw", "--perform_warm_up", "--write_with_imm" }, 0 },
		{ { "write_lat", "--perform_warm_up" }, 100 },
	};
	const char *argv[12];
	struct rdp_opts o;
	char err[256];
	size_t i;
	int n;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		argv[0] = "rdmaperf";
		for (n = 0; rows[i].args[n]; n++)
			argv[n + 1] = rows[i].args[n];
		argv[++n] = "h";
		argv[n + 1] = NULL;
		err[0] = '\0';
		n = rdp_opts_parse_client(n + 1, (char **)argv, &o, err,
					  sizeof(err));
		assert_string_equal(err, "");
		assert_int_equal(n, RDP_PARSE_OK);
		assert_int_equal(o.params.warmup_iters, rows[i].want);
	}
}

/* The block for one command line, at its first point. */
static void neg_of(struct rdp_pt_neg *n, const char *const *args, int argc)
{
	const char *argv[16] = { "rdmaperf" };
	struct rdp_opts o;
	char err[256] = "";
	int i, ret;

	for (i = 0; i < argc; i++)
		argv[i + 1] = args[i];
	ret = rdp_opts_parse_client(argc + 1, (char **)argv, &o, err,
				    sizeof(err));
	assert_string_equal(err, "");
	assert_int_equal(ret, RDP_PARSE_OK);
	rdp_session_perftest_neg(&o, &o.params, o.matrix.n_sizes > 1, 16, n);
}

#define NEG(n, ...)                                                            \
	neg_of(n, (const char *const[]){ __VA_ARGS__ },                        \
	       (int)(sizeof((const char *[]){ __VA_ARGS__ }) /                 \
		     sizeof(char *)))

/*
 * The block as perftest 6.29 fills it for the same command line: its
 * defaults (5000 iterations for write_bw), and --run_infinitely's method
 * (2), by duration (1), keeping its iterations and 5 s, or -D's time and
 * no iterations.
 */
static void test_block_fields(void **state)
{
	struct rdp_pt_neg n;
	uint8_t b[RDP_PT_NEG_BYTES];

	(void)state;
	NEG(&n, "write_bw", "--perftest", "h");
	assert_int_equal(n.test_method, 0);
	assert_int_equal(n.test_type, 0);
	assert_int_equal(n.verb, RDP_PT_WRITE);
	assert_int_equal(n.tst, RDP_PT_BW);
	assert_int_equal(n.report_fmt, 1);
	assert_true(n.size_bytes == 65536 && n.iters == 5000);
	assert_int_equal(n.duration_s, 5);
	NEG(&n, "write_bw", "--perftest", "--run_infinitely", "h");
	assert_int_equal(n.test_method, 2);
	assert_int_equal(n.test_type, 1);
	assert_true(n.iters == 5000);
	assert_int_equal(n.duration_s, 5);
	NEG(&n, "read_bw", "--perftest", "--run_infinitely", "h");
	assert_true(n.iters == 1000);
	NEG(&n, "write_bw", "--perftest", "--run_infinitely", "-D", "3", "h");
	assert_int_equal(n.test_method, 2);
	assert_int_equal(n.test_type, 1);
	assert_true(n.iters == 0);
	assert_int_equal(n.duration_s, 3);
	NEG(&n, "send_lat", "--perftest", "-a", "h");
	assert_int_equal(n.test_method, 1);
	assert_int_equal(n.tst, RDP_PT_LAT);
	assert_true(n.iters == 1000);
	NEG(&n, "atomic_bw", "--perftest", "-D", "4", "h");
	assert_int_equal(n.atomic_type, 1);
	assert_int_equal(n.test_type, 1);
	assert_true(n.iters == 0);
	assert_int_equal(n.duration_s, 4);
	/* ib_write_bw --run_infinitely's first 48 bytes, by hand */
	NEG(&n, "write_bw", "--perftest", "--run_infinitely", "h");
	assert_int_equal(rdp_pt_neg_encode(&n, b, sizeof(b)), 0);
	assert_memory_equal(b,
			    "\0\0\0\2"	/* test_method: RUN_INFINITELY */
			    "\0\0\0\0"	/* connection_type: RC */
			    "\0\0\0\2"	/* verb: WRITE */
			    "\0\0\0\1"	/* tst: BW */
			    "\0\0\0\0"	/* atomicType */
			    "\0\0\0\1"	/* test_type: DURATION */
			    "\0\0\0\1", /* report_fmt: MBS */
			    28);
	assert_memory_equal(b + 32,
			    "\0\0\0\0\0\1\0\0"	    /* size 64 KiB */
			    "\0\0\0\0\0\0\x13\x88", /* iters 5000 */
			    16);
	assert_memory_equal(b + 56, "\0\0\0\5", 4); /* duration 5 */
}

/* A client's next bytes after the MTU: a key message's are hex digits,
 * a block's a big-endian test_method. */
static void test_block_or_key(void **state)
{
	struct rdp_qp_info qi = { .lid = 0x12, .qpn = 0x11, .psn = 0x22 };
	char key[RDP_PT_KEY_GID_BYTES];
	struct rdp_pt_neg n = { .test_method = 2, .num_qps = 1 };
	uint8_t b[RDP_PT_NEG_MLX5DV_BYTES];
	int gid;

	(void)state;
	for (gid = 0; gid < 2; gid++) {
		rdp_pt_key_encode(&qi, gid, key);
		assert_false(rdp_pt_starts_block((const uint8_t *)key, 1));
		assert_false(rdp_pt_starts_block((const uint8_t *)key, 4));
	}
	qi.lid = 0xa000; /* a LID whose first digit is a letter */
	rdp_pt_key_encode(&qi, 0, key);
	assert_false(rdp_pt_starts_block((const uint8_t *)key, 4));
	assert_int_equal(rdp_pt_neg_encode(&n, b, RDP_PT_NEG_BYTES), 0);
	assert_true(rdp_pt_starts_block(b, 1));
	assert_int_equal(rdp_pt_neg_encode(&n, b, RDP_PT_NEG_MLX5DV_BYTES), 0);
	assert_true(rdp_pt_starts_block(b, 4));
	assert_false(rdp_pt_starts_block(b, 0));
}

/* A perftest client played by hand over a socket pair. */
struct pt_client {
	struct rdp_opts o; /* the one-shot server's */
	struct rdp_oob oob;
	pthread_t tid;
	int ret;
};

static void *serve_main(void *arg)
{
	struct pt_client *s = arg;

	s->ret = rdp_session_perftest_serve(&s->o, &fake_engine, &s->oob);
	rdp_oob_close(&s->oob);
	return NULL;
}

static void full_write(int fd, const void *b, size_t n)
{
	assert_int_equal(write(fd, b, n), (ssize_t)n);
}

static void full_read(int fd, void *b, size_t n)
{
	size_t got = 0;
	ssize_t r;

	while (got < n) {
		r = read(fd, (uint8_t *)b + got, n - got);
		assert_true(r > 0);
		got += (size_t)r;
	}
}

/* version, page size, cache line, MTU as a perftest client says them,
 * the server's answers read */
static void prologue(int fd, const char *version)
{
	uint8_t v[RDP_PT_VERSION_BYTES], back[RDP_PT_VERSION_BYTES];

	rdp_pt_version_encode(version, v);
	full_write(fd, v, sizeof(v));
	full_read(fd, back, sizeof(back));
	full_write(fd, "\0\0\x10\0", 4);
	full_read(fd, back, 4);
	full_write(fd, "\0\0\0\x40", 4);
	full_read(fd, back, 4);
	full_write(fd, "3", 2); /* 1024 and its NUL */
	full_read(fd, back, 2);
}

static void start_server(struct pt_client *s, int *fd)
{
	const char *argv[] = { "rdmaperf-server", "--no-pin", NULL };
	char err[256] = "";
	int sv[2];

	fake_engine_reset();
	assert_int_equal(rdp_opts_parse_server(2, (char **)argv, &s->o, err,
					       sizeof(err)),
			 RDP_PARSE_OK);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	rdp_oob_from_fd(sv[0], 5000, &s->oob);
	snprintf(s->oob.peer, sizeof(s->oob.peer), "pair");
	*fd = sv[1];
	assert_int_equal(pthread_create(&s->tid, NULL, serve_main, s), 0);
}

/*
 * rdmaperf-server and a client's block of each size, from a build that
 * calls itself 6.27 and from 6.29: found by its bytes and their length,
 * answered in the same length with the client's fields.
 */
static void test_block_from_peer(void **state)
{
	static const char *const versions[] = { "6.27", "6.29" };
	size_t sizes[] = { RDP_PT_NEG_BYTES, RDP_PT_NEG_MLX5DV_BYTES };
	struct rdp_pt_neg n = { .verb = RDP_PT_WRITE,
				.tst = RDP_PT_BW,
				.report_fmt = 1,
				.size_bytes = 4096,
				.iters = 5000,
				.num_qps = 1,
				.duration_s = 5 },
			  back;
	uint8_t b[RDP_PT_NEG_MLX5DV_BYTES + 8], a[RDP_PT_NEG_MLX5DV_BYTES];
	struct pt_client s;
	size_t k, v;
	int fd;

	(void)state;
	for (v = 0; v < 2; v++) {
		for (k = 0; k < 2; k++) {
			start_server(&s, &fd);
			prologue(fd, versions[v]);
			assert_int_equal(rdp_pt_neg_encode(&n, b, sizes[k]), 0);
			full_write(fd, b, sizes[k]);
			full_read(fd, a, sizes[k]);
			assert_int_equal(rdp_pt_neg_decode(a, sizes[k], &back),
					 0);
			assert_null(rdp_pt_neg_mismatch(&n, &back));
			/* nothing more than the block's length */
			assert_int_equal(recv(fd, b, 8, MSG_DONTWAIT), -1);
			close(fd); /* gone before the QP exchange */
			assert_int_equal(pthread_join(s.tid, NULL), 0);
			assert_int_not_equal(s.ret, 0);
		}
	}
}

/* A client before 6.28 that sends its key message: no block, told the
 * one-shot command, nothing consumed from it. */
static void test_no_block_from_old(void **state)
{
	struct rdp_qp_info qi = { .lid = 1, .qpn = 2, .psn = 3 };
	char key[RDP_PT_KEY_BYTES];
	struct pt_client s;
	int fd;

	(void)state;
	start_server(&s, &fd);
	prologue(fd, "6.06");
	rdp_pt_key_encode(&qi, 0, key);
	full_write(fd, key, sizeof(key));
	assert_int_equal(pthread_join(s.tid, NULL), 0);
	assert_int_equal(s.ret, -EPROTONOSUPPORT);
	close(fd);
}

/* A 6.29 client of write_bw with one QP (-D duration_s, else -n, or
 * -a), through the RTR barrier: block, the keys twice, the barrier. */
static void bidir_setup(struct pt_client *s, int *fd, int duration_s, int all,
			char *key)
{
	struct rdp_pt_neg n = { .test_method = all,
				.verb = RDP_PT_WRITE,
				.tst = RDP_PT_BW,
				.report_fmt = 1,
				.size_bytes = all ? 8388608 : 4096,
				.iters = duration_s ? 0 : 5000,
				.test_type = duration_s ? 1 : 0,
				.num_qps = 1,
				.duration_s = duration_s ? duration_s : 5 };
	/* the fake engine takes QP 0x100 at PSN 0x1000 */
	struct rdp_qp_info qi = { .lid = 1, .qpn = 0x100, .psn = 0x1000 };
	uint8_t b[RDP_PT_NEG_MLX5DV_BYTES];
	char back[RDP_PT_KEY_GID_BYTES];
	int i;

	start_server(s, fd);
	prologue(*fd, "6.29");
	assert_int_equal(rdp_pt_neg_encode(&n, b, sizeof(b)), 0);
	full_write(*fd, b, sizeof(b));
	full_read(*fd, b, sizeof(b));
	rdp_pt_key_encode(&qi, 1, key);
	for (i = 0; i < 3; i++) { /* keys, keys again, the RTR barrier */
		full_write(*fd, key, RDP_PT_KEY_GID_BYTES);
		full_read(*fd, back, sizeof(back));
	}
}

/* Whether the server closed: the client reads the end of the stream,
 * or a reset where the server left bytes of it unread. */
static void assert_closed(int fd)
{
	uint8_t b[RDP_PT_KEY_GID_BYTES];

	assert_true(read(fd, b, sizeof(b)) <= 0);
}

/*
 * rdmaperf-server and a perftest 6.28+ write_bw -b client, whose block
 * says nothing of -b: under -a its barrier after the first size, where
 * a one-way client's report begins, is refused; under -D its barrier
 * before the run, long before the time a one-way run takes. The client reads the
 * end of the connection at once; a one-way client is served.
 */
static void test_bidir_from_block(void **state)
{
	char key[RDP_PT_KEY_GID_BYTES], back[RDP_PT_KEY_GID_BYTES];
	uint8_t field[8] = { 0 };
	struct pt_client s;
	int fd, i;

	(void)state;
	/* -a: the barrier before the first size is answered as the end of
	 * a run */
	bidir_setup(&s, &fd, 0, 1, key);
	full_write(fd, key, sizeof(key));
	full_read(fd, back, sizeof(back));
	full_write(fd, key, sizeof(key)); /* after its first size */
	assert_closed(fd);
	assert_int_equal(pthread_join(s.tid, NULL), 0);
	assert_int_equal(s.ret, -EPROTONOSUPPORT);
	close(fd);

	/* -D 5: the barrier before the run, at once */
	bidir_setup(&s, &fd, 5, 0, key);
	full_write(fd, key, sizeof(key));
	assert_closed(fd);
	assert_int_equal(pthread_join(s.tid, NULL), 0);
	assert_int_equal(s.ret, -EPROTONOSUPPORT);
	close(fd);

	/* one way, -a: the barrier, the report field by field, the close */
	bidir_setup(&s, &fd, 0, 1, key);
	full_write(fd, key, sizeof(key));
	full_read(fd, back, sizeof(back));
	for (i = 0; i < 5; i++) {
		full_write(fd, field, sizeof(field));
		full_read(fd, field, sizeof(field));
	}
	full_write(fd, key, sizeof(key));
	full_read(fd, back, sizeof(back));
	assert_int_equal(pthread_join(s.tid, NULL), 0);
	assert_int_equal(s.ret, 0);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_per_test),
		cmocka_unit_test(test_defaults_own),
		cmocka_unit_test(test_defaults_follow_line),
		cmocka_unit_test(test_warm_up),
		cmocka_unit_test(test_block_fields),
		cmocka_unit_test(test_block_or_key),
		cmocka_unit_test(test_block_from_peer),
		cmocka_unit_test(test_no_block_from_old),
		cmocka_unit_test(test_bidir_from_block),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
