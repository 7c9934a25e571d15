/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The server's admission (src/session/admit.c) with exact counts on a
 * clock the test drives: --allow, --max-handshake-rate, --max-prefix-rate,
 * one handshake per prefix and the handshake timeout's watchdog. Each
 * refusal is also written as the gate logs it (rdp_refusal_str through
 * the refusal log), and that line is compared whole.
 */
#include <errno.h>
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
#include <rdmaperf/cidr.h>
#include <rdmaperf/wire.h>

#define MS  1000000ull
#define SEC 1000000000ull
#define T0  (1000 * SEC) /* the tests' clock starts here */

/* One admission and its refusal log, written to memory. */
static struct door {
	struct rdp_admit *adm;
	struct rdp_rlog *log;
	FILE *f;
	char *text;
	size_t len;
	unsigned int admitted, refused[RDP_REFUSE_RATE + 1];
} d;

static void door_open(double rate, double prefix_rate, unsigned int v4_bits,
		      const struct rdp_cidr_list *allow)
{
	struct rdp_admit_cfg cfg = { .allow = allow,
				     .rate = rate,
				     .prefix_rate = prefix_rate,
				     .v4_bits = v4_bits,
				     .v6_bits = 64 };

	memset(&d, 0, sizeof(d));
	assert_int_equal(rdp_admit_create(&cfg, T0, &d.adm), 0);
	d.f = open_memstream(&d.text, &d.len);
	assert_non_null(d.f);
	/* a window longer than any test: every first refusal in full */
	assert_int_equal(rdp_rlog_create(d.f, 3600 * SEC, &d.log), 0);
}

static void door_close(void)
{
	rdp_rlog_destroy(d.log);
	fclose(d.f);
	free(d.text);
	rdp_admit_destroy(d.adm);
}

static struct sockaddr_storage addr(const char *a)
{
	struct sockaddr_storage ss = { 0 };
	struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;

	if (inet_pton(AF_INET, a, &s4->sin_addr) == 1) {
		s4->sin_family = AF_INET;
		return ss;
	}
	s6->sin6_family = AF_INET6;
	assert_int_equal(inet_pton(AF_INET6, a, &s6->sin6_addr), 1);
	return ss;
}

/* A connection from a at now, as the gate's let_in() takes it: counted,
 * and a refusal logged. Returns the verdict; *slot when admitted. */
static enum rdp_refusal knock(const char *a, uint64_t now, unsigned int *slot)
{
	struct sockaddr_storage ss = addr(a);
	char why[RDP_WIRE_TEXT_MAX];
	struct rdp_cidr prefix = { 0 };
	enum rdp_refusal r;

	r = rdp_admit_try(d.adm, (struct sockaddr *)&ss, -1, now,
			  now + 10 * SEC, slot, &prefix);
	if (r == RDP_ADMITTED) {
		d.admitted++;
		return r;
	}
	d.refused[r]++;
	rdp_rlog_refused(d.log, a, &prefix,
			 rdp_refusal_str(r, &prefix, why, sizeof(why)), now);
	return r;
}

/* Knock, and when admitted end the handshake at once. */
static enum rdp_refusal knock_done(const char *a, uint64_t now)
{
	unsigned int slot;
	enum rdp_refusal r = knock(a, now, &slot);

	if (r == RDP_ADMITTED)
		rdp_admit_release(d.adm, slot);
	return r;
}

static void expect_log(const char *want)
{
	fflush(d.f);
	assert_string_equal(d.text, want);
}

/* --allow 10.0.0.0/8,2001:db8::/32: inside it all are let in, outside it
 * none, an IPv4 address seen through an IPv6 socket included. */
static void allow(void **state)
{
	static const char *const out[] = { "192.0.2.1", "11.0.0.1",
					   "2001:db9::1" };
	static const char *const in[] = { "10.0.0.1", "10.255.255.254",
					  "::ffff:10.1.2.3", "2001:db8:5::1" };
	struct rdp_cidr_list list;
	char err[256];
	unsigned int i;

	(void)state;
	assert_int_equal(rdp_cidr_parse_list("10.0.0.0/8,2001:db8::/32", &list,
					     err, sizeof(err)),
			 0);
	door_open(1000, 1000, 32, &list);
	for (i = 0; i < 3; i++)
		assert_int_equal(knock_done(out[i], T0), RDP_REFUSE_ALLOW);
	for (i = 0; i < 4; i++)
		assert_int_equal(knock_done(in[i], T0), RDP_ADMITTED);
	assert_int_equal(d.admitted, 4);
	assert_int_equal(d.refused[RDP_REFUSE_ALLOW], 3);
	expect_log("client 192.0.2.1: refused: not in --allow\n"
		   "client 11.0.0.1: refused: not in --allow\n"
		   "client 2001:db9::1: refused: not in --allow\n");
	door_close();
}

/* --max-handshake-rate 4: a bucket of 4, refilled 0.5 every 1/8 s. A new
 * address every 1/8 s for 4 s: 7 while the bucket drains, then one every
 * other knock; the prefixes' own buckets never run dry. */
static void handshake_rate(void **state)
{
	char a[32], want[1024];
	unsigned int i;

	(void)state;
	door_open(4, 100, 32, NULL);
	for (i = 0; i < 32; i++) {
		snprintf(a, sizeof(a), "192.0.2.%u", i + 1);
		knock_done(a, T0 + i * (SEC / 8));
	}
	assert_int_equal(d.admitted, 7 + 12);
	assert_int_equal(d.refused[RDP_REFUSE_RATE], 13);
	assert_int_equal(d.refused[RDP_REFUSE_PREFIX_RATE], 0);
	/* each refused address is a prefix of its own: the first eight
	 * (knocks 8, 10, .., 22) get a line each, the rest wait for the
	 * window's count */
	want[0] = '\0';
	for (i = 8; i <= 22; i += 2)
		snprintf(want + strlen(want), sizeof(want) - strlen(want),
			 "client 192.0.2.%u: refused: over the handshake "
			 "rate (--max-handshake-rate)\n",
			 i);
	expect_log(want);
	door_close();
}

/* --max-prefix-rate 2 with /24 prefixes: one address every 1/8 s for 2 s
 * is let in 5 times (a bucket of 2, refilled 0.25 a knock); another
 * address of its /24 shares that bucket, one of another /24 does not. */
static void prefix_rate(void **state)
{
	unsigned int i;

	(void)state;
	door_open(100, 2, 24, NULL);
	for (i = 0; i < 16; i++)
		knock_done("192.0.2.1", T0 + i * (SEC / 8));
	assert_int_equal(d.admitted, 5);
	assert_int_equal(d.refused[RDP_REFUSE_PREFIX_RATE], 11);
	assert_int_equal(knock_done("192.0.2.99", T0 + 15 * (SEC / 8)),
			 RDP_REFUSE_PREFIX_RATE);
	assert_int_equal(knock_done("198.51.100.1", T0 + 15 * (SEC / 8)),
			 RDP_ADMITTED);
	assert_int_equal(d.refused[RDP_REFUSE_RATE], 0);
	/* one line for the /24 in the window: the first refusal */
	expect_log("client 192.0.2.1: refused: over the handshake rate of "
		   "one /24 (--ipv4-prefix, --max-prefix-rate)\n");
	door_close();
	/* A whole address as the prefix names no option of prefix bits. */
	door_open(100, 1, 32, NULL);
	assert_int_equal(knock_done("192.0.2.1", T0), RDP_ADMITTED);
	assert_int_equal(knock_done("192.0.2.1", T0 + SEC / 2),
			 RDP_REFUSE_PREFIX_RATE);
	assert_int_equal(knock_done("192.0.2.1", T0 + SEC), RDP_ADMITTED);
	expect_log("client 192.0.2.1: refused: over the handshake rate of "
		   "one address (--max-prefix-rate)\n");
	door_close();
}

/* One handshake at a time per prefix: the second waits for the first to
 * end, whatever the rates allow. */
static void one_per_prefix(void **state)
{
	unsigned int s1, s2, s3;

	(void)state;
	door_open(100, 100, 32, NULL);
	assert_int_equal(knock("192.0.2.1", T0, &s1), RDP_ADMITTED);
	assert_int_equal(knock("192.0.2.1", T0 + MS, &s2),
			 RDP_REFUSE_PREFIX_BUSY);
	assert_int_equal(knock("192.0.2.2", T0 + MS, &s3), RDP_ADMITTED);
	assert_int_equal(rdp_admit_active(d.adm), 2);
	rdp_admit_release(d.adm, s1);
	assert_int_equal(knock("192.0.2.1", T0 + 2 * MS, &s2), RDP_ADMITTED);
	assert_int_equal(d.admitted, 3);
	assert_int_equal(d.refused[RDP_REFUSE_PREFIX_BUSY], 1);
	expect_log("client 192.0.2.1: refused: a handshake from this "
		   "address is in progress\n");
	door_close();
	/* With /24 prefixes a neighbour waits too, and the line says why. */
	door_open(100, 100, 24, NULL);
	assert_int_equal(knock("192.0.2.1", T0, &s1), RDP_ADMITTED);
	assert_int_equal(knock("192.0.2.7", T0, &s2), RDP_REFUSE_PREFIX_BUSY);
	expect_log("client 192.0.2.7: refused: a handshake from this "
		   "address's /24 (--ipv4-prefix) is in progress\n");
	door_close();
}

/* The handshake timeout: three handshakes with deadlines 1, 2 and 3 s
 * out; the watchdog cuts each at its deadline plus the grace, not a
 * nanosecond earlier, and says when the next is due. One whose thread
 * unwatched it in time is never cut. */
static void handshake_timeout(void **state)
{
	uint64_t grace = 250 * MS;
	struct sockaddr_storage ss;
	struct rdp_cidr prefix;
	unsigned int slot[3], i;
	int sp[3][2];
	char a[32], c;

	(void)state;
	door_open(100, 100, 32, NULL);
	for (i = 0; i < 3; i++) {
		assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sp[i]), 0);
		snprintf(a, sizeof(a), "192.0.2.%u", i + 1);
		ss = addr(a);
		assert_int_equal(rdp_admit_try(d.adm, (struct sockaddr *)&ss,
					       sp[i][0], T0, T0 + (i + 1) * SEC,
					       &slot[i], &prefix),
				 RDP_ADMITTED);
	}
	/* the third's thread finished its handshake in time */
	assert_int_equal(rdp_admit_unwatch(d.adm, slot[2]), 0);
	assert_int_equal(rdp_admit_watchdog(d.adm, T0, grace),
			 T0 + SEC + grace);
	assert_int_equal(rdp_admit_watchdog(d.adm, T0 + SEC + grace - 1, grace),
			 T0 + SEC + grace);
	assert_int_equal(recv(sp[0][1], &c, 1, MSG_DONTWAIT), -1);
	assert_int_equal(rdp_admit_watchdog(d.adm, T0 + SEC + grace, grace),
			 T0 + 2 * SEC + grace);
	assert_int_equal(recv(sp[0][1], &c, 1, MSG_DONTWAIT), 0);
	assert_int_equal(recv(sp[1][1], &c, 1, MSG_DONTWAIT), -1);
	assert_int_equal(rdp_admit_watchdog(d.adm, T0 + 9 * SEC, grace),
			 UINT64_MAX);
	assert_int_equal(recv(sp[1][1], &c, 1, MSG_DONTWAIT), 0);
	assert_int_equal(recv(sp[2][1], &c, 1, MSG_DONTWAIT), -1);
	/* the threads learn which were cut */
	assert_int_equal(rdp_admit_unwatch(d.adm, slot[0]), 1);
	assert_int_equal(rdp_admit_unwatch(d.adm, slot[1]), 1);
	for (i = 0; i < 3; i++) {
		rdp_admit_release(d.adm, slot[i]);
		close(sp[i][0]);
		close(sp[i][1]);
	}
	assert_int_equal(rdp_admit_active(d.adm), 0);
	/* the channel's wait for the handshake: what is left, rounded up */
	assert_int_equal(rdp_gate_left_ms(T0, T0 + SEC + grace), 1250);
	door_close();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(allow),
		cmocka_unit_test(handshake_rate),
		cmocka_unit_test(prefix_rate),
		cmocka_unit_test(one_per_prefix),
		cmocka_unit_test(handshake_timeout),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
