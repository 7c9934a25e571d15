/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What bounds one client's use of a server: --max-memory counting queues
 * as well as buffers, on rdmaperf's path and perftest's; --max-session
 * (a live run included) and the wait for DONE; --max-points; a client GID
 * that is not its address. Whole sessions in one process on the fake
 * engine, and the pure functions behind them.
 */
#include <errno.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "session_pair.h"
#include <rdmaperf/bench.h>
#include <rdmaperf/gid.h>
#include <rdmaperf/log.h>
#include <rdmaperf/perftest_wire.h>
#include <rdmaperf/session_steps.h>

struct fixture {
	struct rdp_opts co;
	struct server_side srv;
};

/* Two ends over local TCP (addresses known, a shut read side as on a
 * real connection), or a socketpair. */
static void pair(struct rdp_oob *cli, struct rdp_oob *srv, int tcp)
{
	uint16_t port;
	int lfd;

	if (!tcp) {
		assert_int_equal(rdp_oob_loopback(IO_MS, cli, srv), 0);
		return;
	}
	assert_int_equal(rdp_oob_listen("127.0.0.1", 0, &lfd), 0);
	assert_int_equal(rdp_oob_local_port(lfd, &port), 0);
	assert_int_equal(rdp_oob_connect("127.0.0.1", port, NULL, IO_MS, cli),
			 0);
	assert_int_equal(rdp_oob_accept(lfd, IO_MS, IO_MS, srv), 0);
	close(lfd);
}

static int run_pair(struct fixture *f, int tcp)
{
	struct rdp_oob cli;
	int rc;

	pair(&cli, &f->srv.oob, tcp);
	serve_start(&f->srv);
	rc = rdp_session_client_with(&f->co, &fake_engine, &cli);
	serve_join(&f->srv);
	return rc;
}

static int64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	fake_engine_reset();
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	free(*state);
	return 0;
}

/* The estimate: buffers, send and receive WQEs, CQ entries. */
static void test_mem_need(void **state)
{
	struct rdp_opts o;
	struct rdp_mem_need n;

	(void)state;
	client_opts(&o, ARGS("write_bw", "-s", "64"));
	rdp_session_mem_need(&o.params, o.bench, &n);
	assert_int_equal(n.buf_bytes, 2 * 64);
	/* 128 sends of 512 B, the one receive a QP has, 129 CQEs */
	assert_int_equal(n.queue_bytes, 128 * 512 + 64 + 129 * 64);
	client_opts(&o, ARGS("send_bw", "-s", "64", "-q", "2"));
	rdp_session_mem_need(&o.params, o.bench, &n);
	assert_int_equal(n.queue_bytes,
			 2 * (128 * 512 + 512 * 64) + 2 * 641 * 64);
	/* The table's largest queues: far over the default 4 GiB. */
	client_opts(&o, ARGS("send_bw", "-s", "64", "-q", "4096", "-t", "65536",
			     "-r", "65536"));
	rdp_session_mem_need(&o.params, o.bench, &n);
	assert_true(n.queue_bytes > 100ull << 30);
}

/* Buffers that fit, queues that do not: refused, the line says both. */
static void test_queues_refused(void **state)
{
	struct fixture *f = *state;

	client_opts(&f->co,
		    ARGS("write_bw", "-s", "64", "-q", "64", "-t", "8192"));
	server_opts(&f->srv.o, ARGS("--max-memory", "64M"));
	assert_int_equal(run_pair(f, 0), RDP_EXIT_FAIL);
	assert_int_equal(f->srv.ret, -E2BIG);
	assert_non_null(strstr(rdp_last_error(), "buffers and queues"));
	assert_non_null(strstr(rdp_last_error(), "--max-memory of 64 MiB"));
	assert_int_equal(fake_engine_cfg.conns_created, 0);
	/* Shallower queues run on the same limit. */
	client_opts(&f->co, ARGS("write_bw", "-s", "64", "-q", "64"));
	assert_int_equal(run_pair(f, 0), RDP_EXIT_OK);
	assert_int_equal(f->srv.ret, 0);
}

/* A perftest 6.28+ client's block, as ib_write_bw -s SIZE -q QPS. */
static void pt_block(struct rdp_pt_neg *n, uint64_t size, int32_t qps)
{
	memset(n, 0, sizeof(*n));
	n->verb = RDP_PT_WRITE;
	n->tst = RDP_PT_BW;
	n->size_bytes = size;
	n->num_qps = qps;
	n->iters = 1000;
}

/* perftest's path refuses what rdmaperf's does: --max-memory (buffers
 * and queues), the option table's ranges, -D past --max-session. */
static void test_perftest_limits(void **state)
{
	struct fixture *f = *state;
	struct rdp_opts *po = calloc(1, sizeof(*po));
	struct rdp_pt_neg n;
	char why[256];

	assert_non_null(po);
	server_opts(&f->srv.o, ARGS("--max-memory", "1M"));
	/* rdmaperf's client: 1 MiB x 1 QP is over 1M with its queues */
	client_opts(&f->co, ARGS("write_bw", "-s", "1M"));
	assert_int_equal(run_pair(f, 0), RDP_EXIT_FAIL);
	assert_int_equal(f->srv.ret, -E2BIG);
	/* perftest's, the same test */
	pt_block(&n, 1 << 20, 1);
	assert_int_equal(rdp_session_perftest_opts(&n, &f->srv.o, po, why,
						   sizeof(why)),
			 -E2BIG);
	assert_non_null(strstr(why, "buffers and queues"));
	assert_non_null(strstr(why, "--max-memory of 1 MiB"));
	/* 1 GiB on 4096 QPs: once within what perftest's path took */
	server_opts(&f->srv.o, ARGS("--max-points", "1024"));
	pt_block(&n, 1 << 30, 4096);
	assert_int_equal(rdp_session_perftest_opts(&n, &f->srv.o, po, why,
						   sizeof(why)),
			 -E2BIG);
	/* -a: the largest size counts (8 MiB x 512 QPs is 8 GiB) */
	pt_block(&n, 65536, 512);
	n.test_method = 1;
	assert_int_equal(rdp_session_perftest_opts(&n, &f->srv.o, po, why,
						   sizeof(why)),
			 -E2BIG);
	/* -D: the table's range, and the session's limit */
	pt_block(&n, 65536, 1);
	n.test_type = 1;
	n.iters = 0;
	n.duration_s = 100000;
	assert_int_equal(rdp_session_perftest_opts(&n, &f->srv.o, po, why,
						   sizeof(why)),
			 -E2BIG);
	assert_non_null(strstr(why, "-D 100000"));
	n.duration_s = 20000;
	assert_int_equal(rdp_session_perftest_opts(&n, &f->srv.o, po, why,
						   sizeof(why)),
			 -E2BIG);
	assert_non_null(strstr(why, "--max-session of 14400 s"));
	n.duration_s = 5;
	assert_int_equal(rdp_session_perftest_opts(&n, &f->srv.o, po, why,
						   sizeof(why)),
			 0);
	assert_int_equal(po->params.duration_s, 5);
	free(po);
}

/* -D from --max-session up is refused before anything is set up. */
static void test_duration_over_session(void **state)
{
	struct fixture *f = *state;

	client_opts(&f->co, ARGS("write_bw", "-s", "64", "-D", "5"));
	server_opts(&f->srv.o, ARGS("--max-session", "5"));
	assert_int_equal(run_pair(f, 0), RDP_EXIT_FAIL);
	assert_int_equal(f->srv.ret, -E2BIG);
	assert_non_null(strstr(rdp_last_error(), "--max-session of 5 s"));
	assert_int_equal(fake_engine_cfg.conns_created, 0);
}

/* A sweep of more points than --max-points: those within it run, the
 * next is refused with its line. */
static void test_max_points(void **state)
{
	struct fixture *f = *state;

	client_opts(&f->co, ARGS("write_bw", "-s", "64,128,256", "-n", "10"));
	server_opts(&f->srv.o, ARGS("--max-points", "2"));
	assert_int_equal(run_pair(f, 0), RDP_EXIT_FAIL);
	assert_int_equal(f->srv.ret, -E2BIG);
	assert_non_null(strstr(rdp_last_error(), "--max-points"));
	assert_int_equal(fake_engine_cfg.conns_created, 4);
	assert_int_equal(fake_engine_cfg.conns_destroyed, 4);
}

/* A live run (--run_infinitely) is ended at --max-session: the client
 * learns why, the server is free again. */
static void test_max_session_live(void **state)
{
	struct fixture *f = *state;
	int64_t t0;

	client_opts(&f->co, ARGS("write_bw", "-s", "64", "--run_infinitely",
				 "-D", "1"));
	server_opts(&f->srv.o, ARGS("--max-session", "1"));
	fake_engine_cfg.client_live_wait_ms = 60000;
	t0 = now_ms();
	assert_int_equal(run_pair(f, 1), RDP_EXIT_FAIL);
	assert_true(now_ms() - t0 >= 1000);
	/* the server's limit ended it, not the client's 60 s */
	assert_true(now_ms() - t0 < 30000);
	assert_int_equal(f->srv.ret, -ETIME);
	assert_non_null(strstr(rdp_last_error(), "--max-session 1 s"));
	balanced();
}

/*
 * A client that goes quiet after READY: the server waits for its DONE
 * no longer than -D and a margin (a test of -D), or what is left of the
 * session (a test of -n).
 */
static int quiet_client(struct fixture *f, const char *len_opt, const char *len)
{
	struct rdp_msg msg = { .type = RDP_MSG_HELLO };
	struct rdp_oob cli;
	int64_t t0;

	client_opts(&f->co, ARGS("write_bw", "-s", "64", len_opt, len));
	pair(&cli, &f->srv.oob, 0);
	serve_start(&f->srv);
	assert_int_equal(rdp_oob_send(&cli, &msg), 0);
	assert_int_equal(rdp_oob_expect(&cli, RDP_MSG_HELLO, &msg, IO_MS), 0);
	memset(&msg, 0, sizeof(msg));
	msg.type = RDP_MSG_PARAMS;
	msg.u.params = f->co.params;
	assert_int_equal(rdp_oob_send(&cli, &msg), 0);
	assert_int_equal(rdp_oob_expect(&cli, RDP_MSG_ACCEPT, &msg, IO_MS), 0);
	assert_int_equal(rdp_oob_expect(&cli, RDP_MSG_QP_INFO, &msg, IO_MS), 0);
	memset(&msg, 0, sizeof(msg));
	msg.type = RDP_MSG_QP_INFO;
	msg.u.qp_info.qpn = 0x100;
	msg.u.qp_info.psn = 0x1000;
	assert_int_equal(rdp_oob_send(&cli, &msg), 0);
	/* Before READY: the server's wait for DONE starts after it. */
	t0 = now_ms();
	assert_int_equal(rdp_sync(&cli, RDP_SYNC_READY, 1, IO_MS, NULL), 0);
	serve_join(&f->srv);
	rdp_oob_close(&cli);
	return (int)(now_ms() - t0);
}

static void test_done_deadline(void **state)
{
	struct fixture *f = *state;
	int ms;

	server_opts(&f->srv.o, ARGS("--max-points", "1024"));
	f->srv.o.conn.oob_timeout_ms = 300; /* the margin of a slow step */
	ms = quiet_client(f, "-D", "1");
	assert_int_equal(f->srv.ret, -ETIMEDOUT);
	/* -D and its margin at least; the upper bounds only tell an end
	 * from a wait for ever, so no load reaches them */
	assert_true(ms >= 1000 && ms < 30000);
	server_opts(&f->srv.o, ARGS("--max-session", "1"));
	ms = quiet_client(f, "-n", "1000");
	assert_int_equal(f->srv.ret, -ETIME);
	assert_true(ms < 30000);
	balanced();
}

static void gid_of(const char *addr, uint8_t gid[16])
{
	struct in_addr a;
	struct rdp_ip ip;

	assert_int_equal(inet_pton(AF_INET, addr, &a), 1);
	rdp_ip_from_ipv4(&a, &ip);
	memcpy(gid, ip.raw, 16);
}

/* IP-based GIDs must be the peer's address; others are not addresses. */
static void test_gid_fits_peer(void **state)
{
	struct rdp_ip peer, peer6 = { { 0xfd, 0, [15] = 1 } };
	struct in_addr a;
	uint8_t gid[16], ib[16] = { 0xfe, 0x80, [15] = 7 };

	(void)state;
	inet_pton(AF_INET, "10.0.0.1", &a);
	rdp_ip_from_ipv4(&a, &peer);
	gid_of("10.0.0.1", gid);
	assert_true(rdp_session_gid_fits_peer(gid, RDP_GID_ROCE_V2, &peer));
	gid_of("10.0.0.2", gid);
	assert_false(rdp_session_gid_fits_peer(gid, RDP_GID_ROCE_V2, &peer));
	/* an IPv4-mapped RoCE v1 GID is an address as well */
	assert_false(rdp_session_gid_fits_peer(gid, RDP_GID_ROCE_V1, &peer));
	/* RoCE v2 over IPv6: the GID is the address */
	assert_true(
		rdp_session_gid_fits_peer(peer6.raw, RDP_GID_ROCE_V2, &peer6));
	assert_false(rdp_session_gid_fits_peer(ib, RDP_GID_ROCE_V2, &peer6));
	/* IB and RoCE v1 link-local GIDs route no IP */
	assert_true(rdp_session_gid_fits_peer(ib, RDP_GID_IB, &peer));
	assert_true(rdp_session_gid_fits_peer(ib, RDP_GID_ROCE_V1, &peer));
}

/* A client whose GID is another host's address: refused with the line,
 * unless the server takes any GID. */
static void test_gid_refused(void **state)
{
	struct fixture *f = *state;

	client_opts(&f->co, ARGS("write_bw", "-s", "64", "-n", "10"));
	server_opts(&f->srv.o, ARGS("--max-points", "1024"));
	fake_engine_cfg.gid_ipv4 = 0x0a090909; /* 10.9.9.9, not 127.0.0.1 */
	assert_int_equal(run_pair(f, 1), RDP_EXIT_FAIL);
	assert_int_equal(f->srv.ret, -EACCES);
	assert_non_null(strstr(rdp_last_error(), "GID ::ffff:10.9.9.9 is not "
						 "its address 127.0.0.1"));
	server_opts(&f->srv.o, ARGS("--any-gid"));
	assert_int_equal(run_pair(f, 1), RDP_EXIT_OK);
	assert_int_equal(f->srv.ret, 0);
	server_opts(&f->srv.o, ARGS("--max-points", "1024"));
	fake_engine_cfg.gid_ipv4 = 0x7f000001; /* its own address */
	assert_int_equal(run_pair(f, 1), RDP_EXIT_OK);
	assert_int_equal(f->srv.ret, 0);
	balanced();
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mem_need),
		T(test_queues_refused),
		T(test_perftest_limits),
		T(test_duration_over_session),
		T(test_max_points),
		T(test_max_session_live),
		T(test_done_deadline),
		cmocka_unit_test(test_gid_fits_peer),
		T(test_gid_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
