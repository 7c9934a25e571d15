/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The server's door: the time left to a deadline, admission per address
 * prefix with a clock the test drives, the watchdog, the refusal lines
 * gathered, and a real gate on 127.0.0.1 cutting a client at its deadline.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <cmocka.h>

#include "session_int.h"
#include <rdmaperf/clock.h>
#include <rdmaperf/opts.h>
#include <rdmaperf/wire.h>

#define MS  1000000ull
#define SEC 1000000000ull
#define T0  (1000 * SEC) /* the tests' clock starts here */

static void test_left_ms(void **state)
{
	(void)state;
	/* Under 1 ms left is 1 ms: 0 would mean "no deadline". */
	assert_int_equal(rdp_gate_left_ms(T0, T0 + 400000), 1);
	assert_int_equal(rdp_gate_left_ms(T0, T0 + 1), 1);
	assert_int_equal(rdp_gate_left_ms(T0, T0 + MS), 1);
	assert_int_equal(rdp_gate_left_ms(T0, T0 + MS + 1), 2);
	assert_int_equal(rdp_gate_left_ms(T0, T0 + 10 * SEC), 10000);
	/* At and past the deadline: still 1, which the channel's hard
	 * deadline turns into an immediate timeout. */
	assert_int_equal(rdp_gate_left_ms(T0, T0), 1);
	assert_int_equal(rdp_gate_left_ms(T0 + SEC, T0), 1);
	assert_int_equal(rdp_gate_left_ms(0, UINT64_MAX), 0x7fffffff);
}

static struct sockaddr_storage v4(const char *a)
{
	struct sockaddr_storage ss = { 0 };
	struct sockaddr_in *s = (struct sockaddr_in *)&ss;

	s->sin_family = AF_INET;
	assert_int_equal(inet_pton(AF_INET, a, &s->sin_addr), 1);
	return ss;
}

static struct sockaddr_storage v6(const char *a)
{
	struct sockaddr_storage ss = { 0 };
	struct sockaddr_in6 *s = (struct sockaddr_in6 *)&ss;

	s->sin6_family = AF_INET6;
	assert_int_equal(inet_pton(AF_INET6, a, &s->sin6_addr), 1);
	return ss;
}

static struct rdp_admit *admit_new(double rate, double prefix_rate,
				   const struct rdp_cidr_list *allow)
{
	struct rdp_admit_cfg cfg = { .allow = allow,
				     .rate = rate,
				     .prefix_rate = prefix_rate,
				     .v4_bits = 32,
				     .v6_bits = 64 };
	struct rdp_admit *a;

	assert_int_equal(rdp_admit_create(&cfg, T0, &a), 0);
	return a;
}

static enum rdp_refusal try_at(struct rdp_admit *a,
			       const struct sockaddr_storage *ss, uint64_t now,
			       unsigned int *slot)
{
	struct rdp_cidr prefix;

	return rdp_admit_try(a, (const struct sockaddr *)ss, -1, now,
			     now + 10 * SEC, slot, &prefix);
}

static void test_prefix_of(void **state)
{
	struct sockaddr_storage a = v6("2001:db8:1:2:3:4:5:6");
	struct sockaddr_storage m = v6("::ffff:192.0.2.77");
	struct sockaddr_storage b = v4("192.0.2.77");
	struct rdp_cidr c, d, want = { .family = AF_INET6, .prefix = 64 };

	(void)state;
	inet_pton(AF_INET6, "2001:db8:1:2::", want.addr);
	assert_int_equal(rdp_cidr_of((struct sockaddr *)&a, 32, 64, &c), 0);
	assert_true(rdp_cidr_equal(&c, &want));
	/* An IPv4 peer on a dual-stack socket is the IPv4 address. */
	assert_int_equal(rdp_cidr_of((struct sockaddr *)&m, 24, 64, &c), 0);
	assert_int_equal(rdp_cidr_of((struct sockaddr *)&b, 24, 64, &d), 0);
	assert_true(rdp_cidr_equal(&c, &d));
	assert_int_equal(c.family, AF_INET);
	assert_int_equal(c.prefix, 24);
	assert_int_equal(c.addr[3], 0);
	assert_int_equal(c.addr[2], 2);
	/* Bits inside a byte: /60 keeps the high nibble of byte 7. */
	a = v6("2001:db8:1:2ff:3:4:5:6");
	assert_int_equal(rdp_cidr_of((struct sockaddr *)&a, 32, 60, &c), 0);
	assert_int_equal(c.addr[6], 0x02);
	assert_int_equal(c.addr[7], 0xf0);
}

/* One address connecting and closing a thousand times a second spends its
 * own bucket; another address, at its modest pace, is let in every time. */
static void test_hammer_does_not_lock_out(void **state)
{
	struct sockaddr_storage a = v4("192.0.2.1"), b = v4("192.0.2.2");
	struct rdp_admit *adm = admit_new(20, 5, NULL);
	unsigned int slot, a_in = 0, b_in = 0, b_tries = 0, i;
	uint64_t now;

	(void)state;
	for (i = 0; i < 2000; i++) {
		now = T0 + (uint64_t)i * MS;
		if (try_at(adm, &a, now, &slot) == RDP_ADMITTED) {
			a_in++;
			rdp_admit_unwatch(adm, slot);
			rdp_admit_release(adm, slot);
		}
		if (i % 250 == 0) {
			b_tries++;
			assert_int_equal(try_at(adm, &b, now, &slot),
					 RDP_ADMITTED);
			b_in++;
			rdp_admit_release(adm, slot);
		}
	}
	assert_int_equal(b_in, b_tries);
	/* a: a bucket of 5, refilled at 5 a second for 2 s */
	assert_in_range(a_in, 5, 16);
	/* Over its own rate, not the global one. */
	assert_int_equal(try_at(adm, &a, now, &slot), RDP_REFUSE_PREFIX_RATE);
	rdp_admit_destroy(adm);
}

/* 64 addresses of one /64 hold one handshake slot between them. */
static void test_one_slash64_one_slot(void **state)
{
	struct rdp_admit *adm = admit_new(100000, 100000, NULL);
	struct sockaddr_storage ss;
	unsigned int slot, i, in = 0;
	char text[RDP_WIRE_TEXT_MAX], addr[64];
	struct rdp_cidr prefix;
	enum rdp_refusal r;

	(void)state;
	for (i = 1; i <= 64; i++) {
		snprintf(addr, sizeof(addr), "2001:db8:0:1::%x", i);
		ss = v6(addr);
		r = rdp_admit_try(adm, (struct sockaddr *)&ss, -1, T0 + i,
				  T0 + 10 * SEC, &slot, &prefix);
		if (r == RDP_ADMITTED)
			in++;
		else
			assert_int_equal(r, RDP_REFUSE_PREFIX_BUSY);
	}
	assert_int_equal(in, 1);
	assert_int_equal(rdp_admit_active(adm), 1);
	assert_string_equal(rdp_refusal_str(RDP_REFUSE_PREFIX_BUSY, &prefix,
					    text, sizeof(text)),
			    "a handshake from this address's /64 "
			    "(--ipv6-prefix) is in progress");
	/* Other /64s still find room: all 63 free slots. */
	for (i = 2; i <= 64; i++) {
		snprintf(addr, sizeof(addr), "2001:db8:0:%x::1", i);
		ss = v6(addr);
		assert_int_equal(try_at(adm, &ss, T0 + SEC, &slot),
				 RDP_ADMITTED);
	}
	assert_int_equal(rdp_admit_active(adm), 64);
	ss = v6("2001:db8:0:ffff::1");
	assert_int_equal(try_at(adm, &ss, T0 + SEC, &slot), RDP_REFUSE_SLOTS);
	rdp_admit_release(adm, slot);
	assert_int_equal(rdp_admit_active(adm), 63);
	assert_int_equal(try_at(adm, &ss, T0 + SEC, &slot), RDP_ADMITTED);
	rdp_admit_destroy(adm);
}

static void test_allow_and_global_rate(void **state)
{
	struct sockaddr_storage in = v4("10.1.2.3"), out = v4("192.0.2.1");
	struct rdp_cidr_list allow;
	struct rdp_admit *adm;
	unsigned int slot, i;
	char err[256];

	(void)state;
	assert_int_equal(
		rdp_cidr_parse_list("10.0.0.0/8", &allow, err, sizeof(err)), 0);
	adm = admit_new(2, 5, &allow);
	assert_int_equal(try_at(adm, &out, T0, &slot), RDP_REFUSE_ALLOW);
	/* The global bucket holds one second's: 2 from 2 addresses */
	for (i = 0; i < 2; i++) {
		in = v4(i ? "10.0.0.2" : "10.0.0.1");
		assert_int_equal(try_at(adm, &in, T0, &slot), RDP_ADMITTED);
	}
	in = v4("10.0.0.3");
	assert_int_equal(try_at(adm, &in, T0, &slot), RDP_REFUSE_RATE);
	assert_int_equal(try_at(adm, &in, T0 + SEC / 2, &slot), RDP_ADMITTED);
	rdp_admit_destroy(adm);
}

/* The watchdog on the test's clock: nothing before deadline + grace, then
 * the socket shut down (its peer reads the end), once. */
static void test_watchdog(void **state)
{
	struct sockaddr_storage a = v4("192.0.2.1");
	struct rdp_admit *adm = admit_new(20, 5, NULL);
	uint64_t deadline = T0 + SEC, grace = 500 * MS;
	struct rdp_cidr prefix;
	unsigned int slot;
	int sp[2];
	char c;

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sp), 0);
	assert_int_equal(rdp_admit_try(adm, (struct sockaddr *)&a, sp[0], T0,
				       deadline, &slot, &prefix),
			 RDP_ADMITTED);
	assert_int_equal(rdp_admit_watchdog(adm, deadline + grace - 1, grace),
			 deadline + grace);
	assert_int_equal(recv(sp[1], &c, 1, MSG_DONTWAIT), -1);
	assert_int_equal(rdp_admit_watchdog(adm, deadline + grace, grace),
			 UINT64_MAX);
	assert_int_equal(recv(sp[1], &c, 1, MSG_DONTWAIT), 0);
	assert_int_equal(rdp_admit_unwatch(adm, slot), 1);
	rdp_admit_release(adm, slot);
	close(sp[0]);
	close(sp[1]);
	/* An unwatched socket is left alone. */
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sp), 0);
	assert_int_equal(rdp_admit_try(adm, (struct sockaddr *)&a, sp[0],
				       T0 + 2 * SEC, T0 + 3 * SEC, &slot,
				       &prefix),
			 RDP_ADMITTED);
	assert_int_equal(rdp_admit_unwatch(adm, slot), 0);
	assert_int_equal(rdp_admit_watchdog(adm, T0 + 10 * SEC, grace),
			 UINT64_MAX);
	assert_int_equal(send(sp[1], "x", 1, MSG_NOSIGNAL), 1);
	assert_int_equal(recv(sp[0], &c, 1, MSG_DONTWAIT), 1);
	close(sp[0]);
	close(sp[1]);
	rdp_admit_destroy(adm);
}

static unsigned int count_lines(const char *s, const char *with)
{
	unsigned int n = 0;
	const char *nl;

	for (; *s; s = nl + 1) {
		nl = strchr(s, '\n');
		if (!nl)
			break;
		if (!with || (strstr(s, with) && strstr(s, with) < nl))
			n++;
	}
	return n;
}

static void test_refusal_lines(void **state)
{
	const char *why = "over the handshake rate (--max-handshake-rate)";
	struct sockaddr_storage ss;
	struct rdp_cidr p;
	struct rdp_rlog *l;
	char *buf = NULL, addr[64];
	size_t len = 0;
	FILE *f;
	int i;

	(void)state;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(rdp_rlog_create(f, 10 * SEC, &l), 0);
	/* A thousand from one address in a second: one line. */
	ss = v4("192.0.2.1");
	rdp_cidr_of((struct sockaddr *)&ss, 32, 64, &p);
	for (i = 0; i < 1000; i++)
		rdp_rlog_refused(l, "192.0.2.1", &p, why,
				 T0 + (uint64_t)i * MS);
	rdp_rlog_tick(l, T0 + 9 * SEC);
	fflush(f);
	assert_int_equal(count_lines(buf, NULL), 1);
	assert_int_equal(count_lines(buf, "client 192.0.2.1: refused: over "
					  "the handshake rate"),
			 1);
	/* The window ends: the rest in one line. */
	rdp_rlog_tick(l, T0 + 10 * SEC);
	fflush(f);
	assert_int_equal(count_lines(buf, NULL), 2);
	assert_int_equal(count_lines(buf, "refused 999 more connections in the "
					  "last 10 s: over the handshake rate "
					  "(--max-handshake-rate) (1 prefix)"),
			 1);
	/* Fifty /64s: the first eight get a line, the rest a count. */
	for (i = 0; i < 50; i++) {
		snprintf(addr, sizeof(addr), "2001:db8:0:%x::1", i + 1);
		ss = v6(addr);
		rdp_cidr_of((struct sockaddr *)&ss, 32, 64, &p);
		rdp_rlog_refused(l, addr, &p, why, T0 + 20 * SEC);
		rdp_rlog_refused(l, addr, &p, "not in --allow", T0 + 20 * SEC);
	}
	rdp_rlog_tick(l, T0 + 30 * SEC);
	fflush(f);
	assert_int_equal(count_lines(buf, "refused: not in --allow"), 8);
	assert_int_equal(count_lines(buf, NULL), 2 + 16 + 2);
	assert_int_equal(count_lines(buf, "refused 42 more connections in the "
					  "last 10 s: not in --allow "
					  "(42 prefixes)"),
			 1);
	/* A new window: the first line again. */
	rdp_rlog_refused(l, "192.0.2.1", &p, why, T0 + 40 * SEC);
	fflush(f);
	assert_int_equal(count_lines(buf, NULL), 21);
	rdp_rlog_destroy(l);
	fclose(f);
	free(buf);
}

/* The handshake's hard deadline over a socket pair: the peer's first bytes
 * in its last millisecond, then nothing; it ends at the deadline. */
static void test_last_millisecond_pair(void **state)
{
	struct rdp_opts o = { 0 };
	struct rdp_handoff h = { 0 };
	char why[RDP_WIRE_TEXT_MAX];
	uint64_t deadline_ns, now;
	int sp[2], ret;

	(void)state;
	o.conn.handshake_timeout_ms = 60000; /* the hard deadline rules */
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sp), 0);
	h.oob.fd = sp[0];
	h.oob.timeout_ms = 60000;
	snprintf(h.oob.peer, sizeof(h.oob.peer), "pair");
	deadline_ns = (rdp_clock_mono_ns() / MS + 200) * MS;
	h.oob.hard_deadline_ms = (int64_t)(deadline_ns / MS);
	while (rdp_clock_mono_ns() < deadline_ns - MS)
		usleep(100);
	/* Half a header: what the server reads next never comes. */
	assert_int_equal(send(sp[1], "RDPF\0", 5, MSG_NOSIGNAL), 5);
	ret = rdp_gate_handshake(&o, &h, why, sizeof(why));
	now = rdp_clock_mono_ns();
	assert_int_equal(ret, -ETIMEDOUT);
	/* Long before the 60 s waits the deadline cuts short, whatever the
	 * load. */
	assert_true(now < deadline_ns + 30 * SEC);
	/* The hard deadline is the caller's again. */
	assert_int_equal(h.oob.hard_deadline_ms, (int64_t)(deadline_ns / MS));
	close(sp[0]);
	close(sp[1]);
}

/* A peer that sends one digit of a perftest version, then shuts its side
 * down: it has left, said as such at once, not after the 60 s handshake
 * deadline. */
static void test_digit_then_shutdown(void **state)
{
	struct rdp_opts o = { 0 };
	struct rdp_handoff h = { 0 };
	char why[RDP_WIRE_TEXT_MAX] = "";
	int sp[2], ret;

	(void)state;
	o.conn.handshake_timeout_ms = 60000;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sp), 0);
	h.oob.fd = sp[0];
	h.oob.timeout_ms = 60000;
	snprintf(h.oob.peer, sizeof(h.oob.peer), "pair");
	assert_int_equal(send(sp[1], "6", 1, MSG_NOSIGNAL), 1);
	assert_int_equal(shutdown(sp[1], SHUT_WR), 0);
	ret = rdp_gate_handshake(&o, &h, why, sizeof(why));
	assert_int_equal(ret, -ECONNRESET);
	assert_string_equal(why, "left during the handshake");
	close(sp[0]);
	close(sp[1]);
}

/* A real gate on 127.0.0.1 with a 1 s handshake, on a port of its own.
 * A gate runs until the process ends, its threads reading its options:
 * each gate gets options of its own, never rewritten. */
static uint16_t gate_up(void)
{
	static struct rdp_opts opts[4];
	static unsigned int used;
	struct rdp_opts *op;
	struct rdp_gate *g;
	uint16_t port;

	assert_true(used < sizeof(opts) / sizeof(opts[0]));
	op = &opts[used++];
	snprintf(op->conn.bind, sizeof(op->conn.bind), "127.0.0.1");
	op->conn.handshake_timeout_ms = 1000;
	op->conn.oob_timeout_ms = 60000;
	op->conn.max_handshake_rate = 20;
	op->conn.max_prefix_rate = 5;
	op->conn.ipv4_prefix_bits = 32;
	op->conn.ipv6_prefix_bits = 64;
	assert_int_equal(rdp_gate_start(op, &g), 0);
	assert_int_equal(rdp_gate_port(g, &port), 0);
	return port;
}

/* A connection to the gate from src; the socket. */
static int dial(const char *src, uint16_t port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	struct sockaddr_in me = { .sin_family = AF_INET };
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	assert_true(fd >= 0);
	inet_pton(AF_INET, src, &me.sin_addr);
	assert_int_equal(bind(fd, (struct sockaddr *)&me, sizeof(me)), 0);
	sa.sin_port = htons(port);
	inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
	assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	return fd;
}

/* Everything until the server closes: how many bytes. */
static size_t read_to_end(int fd, char *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;

	while ((n = recv(fd, buf + got, len - got - 1, 0)) > 0)
		got += (size_t)n;
	buf[got] = '\0';
	return got;
}

/* Half a header sent in the handshake's last millisecond: the server
 * closes the connection by deadline + 2 s. */
static void test_gate_cuts_at_deadline(void **state)
{
	uint16_t port = gate_up();
	uint64_t t0, now;
	char buf[512];
	int fd;

	(void)state;
	t0 = rdp_clock_mono_ns();
	fd = dial("127.0.0.1", port);
	/* The server's deadline starts at its accept, after t0. */
	while (rdp_clock_mono_ns() < t0 + 999 * MS)
		usleep(100);
	assert_int_equal(send(fd, "RDPF\0", 5, MSG_NOSIGNAL), 5);
	assert_int_equal(read_to_end(fd, buf, sizeof(buf)), 0);
	now = rdp_clock_mono_ns();
	assert_true(now >= t0 + 999 * MS);
	assert_true(now < t0 + 30 * SEC); /* not its 60 s message wait */
	close(fd);
}

/* 127.0.0.2 connects and closes fifty times, each time as soon as the
 * server has answered or let go; 127.0.0.3 then still gets a handshake
 * (silent until its deadline cuts it): 127.0.0.2 spent only its own
 * bucket, and was told so. */
static void test_gate_hammer(void **state)
{
	const char *own = "over the handshake rate of one address "
			  "(--max-prefix-rate)";
	const char *busy = "a handshake from this address is in progress";
	uint16_t port = gate_up();
	unsigned int over = 0, closing = 0;
	char buf[512];
	uint64_t t0;
	double s;
	size_t n;
	int i, fd;

	(void)state;
	t0 = rdp_clock_mono_ns();
	for (i = 0; i < 50; i++) {
		fd = dial("127.0.0.2", port);
		shutdown(fd, SHUT_WR);
		n = read_to_end(fd, buf, sizeof(buf));
		close(fd);
		if (n > 18 && !strcmp(buf + 18, own))
			over++;
		else if (n > 18 && !strcmp(buf + 18, busy))
			closing++;
	}
	s = (double)(rdp_clock_mono_ns() - t0) / SEC;
	/* Its bucket let in at most 5, and 5 a second more for as long as
	 * this ran (a loaded host makes that longer); the rest were refused
	 * by its own limits: over its rate, or (no token taken) while its
	 * last handshake was still closing. */
	assert_true(over + closing + 5 + 5 * s + 1 >= 50);
	t0 = rdp_clock_mono_ns();
	fd = dial("127.0.0.3", port);
	assert_int_equal(read_to_end(fd, buf, sizeof(buf)), 0);
	assert_true(rdp_clock_mono_ns() > t0 + 500 * MS);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_left_ms),
		cmocka_unit_test(test_prefix_of),
		cmocka_unit_test(test_hammer_does_not_lock_out),
		cmocka_unit_test(test_one_slash64_one_slot),
		cmocka_unit_test(test_allow_and_global_rate),
		cmocka_unit_test(test_watchdog),
		cmocka_unit_test(test_refusal_lines),
		cmocka_unit_test(test_last_millisecond_pair),
		cmocka_unit_test(test_digit_then_shutdown),
		cmocka_unit_test(test_gate_cuts_at_deadline),
		cmocka_unit_test(test_gate_hammer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
