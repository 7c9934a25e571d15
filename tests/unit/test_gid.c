/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * GID tables read from the fixture sysfs trees, and the selection rules
 * that decide RoCE version and source address.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <rdmaperf/gid.h>
#include <rdmaperf/sysfs.h>

#include "unit.h"

#define TAB_CAP	 64
#define BAD_PORT "/sys/class/infiniband/bad0/ports/1"

struct table {
	struct rdp_gid_entry e[TAB_CAP];
	size_t n;
};

static void load(const char *fixture, const char *dev, int eth, struct table *t)
{
	struct rdp_sysfs fs;

	fixture_fs(fixture, &fs);
	t->n = 0;
	assert_int_equal(
		rdp_gid_read_table(&fs, dev, 1, eth, t->e, TAB_CAP, &t->n), 0);
}

static void expect_gid_text(const struct rdp_gid_entry *e, const char *want)
{
	char buf[64];

	rdp_gid_format(e->raw, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

/* An address as the out-of-band socket gives it: IPv4 or IPv6 text. */
static struct rdp_ip ip_of(const char *text)
{
	struct rdp_ip ip;
	struct in_addr a;

	if (inet_pton(AF_INET, text, &a) == 1)
		rdp_ip_from_ipv4(&a, &ip);
	else
		assert_int_equal(inet_pton(AF_INET6, text, ip.raw), 1);
	return ip;
}

static void expect_choice(const struct table *t, const char *addr, int forced,
			  int index, enum rdp_gid_reason reason)
{
	struct rdp_gid_choice c;
	struct rdp_ip a;

	if (addr)
		a = ip_of(addr);
	assert_int_equal(
		rdp_gid_select(t->e, t->n, addr ? &a : NULL, forced, &c), 0);
	assert_int_equal(c.entry.index, index);
	assert_int_equal(c.reason, reason);
}

static void test_read_rxe(void **state)
{
	struct table t;

	(void)state;
	load("rxe", "rxe0", 1, &t);
	/* Indexes 2..7 are all-zero and skipped. */
	assert_int_equal(t.n, 2);
	assert_int_equal(t.e[0].index, 0);
	assert_int_equal(t.e[0].type, RDP_GID_ROCE_V2);
	assert_string_equal(t.e[0].ndev, "veth-rdp0");
	expect_gid_text(&t.e[0], "fe80::c4a1:6eff:fe2b:9d01");
	assert_false(rdp_gid_is_ipv4_mapped(t.e[0].raw));
	assert_int_equal(t.e[1].index, 1);
	assert_int_equal(t.e[1].type, RDP_GID_ROCE_V2);
	expect_gid_text(&t.e[1], "::ffff:10.77.0.1");
	assert_true(rdp_gid_is_ipv4_mapped(t.e[1].raw));
}

static void test_read_cx6(void **state)
{
	static const char *const text[] = {
		"fe80::e42:a1ff:fe5b:3c10", "fe80::e42:a1ff:fe5b:3c10",
		"::ffff:192.168.1.10",	    "::ffff:192.168.1.10",
		"::ffff:192.168.2.10",	    "::ffff:192.168.2.10",
	};
	struct table t;
	size_t i;

	(void)state;
	load("cx6-roce", "mlx5_0", 1, &t);
	assert_int_equal(t.n, 6);
	for (i = 0; i < t.n; i++) {
		assert_int_equal(t.e[i].index, i);
		assert_int_equal(t.e[i].type,
				 i % 2 ? RDP_GID_ROCE_V2 : RDP_GID_ROCE_V1);
		assert_string_equal(t.e[i].ndev, "ens1f0np0");
		expect_gid_text(&t.e[i], text[i]);
	}
}

static void test_read_ib(void **state)
{
	struct table t;

	(void)state;
	load("cx7-ib", "mlx5_0", 0, &t);
	assert_int_equal(t.n, 1);
	assert_int_equal(t.e[0].type, RDP_GID_IB);
	assert_string_equal(t.e[0].ndev, "");
	expect_gid_text(&t.e[0], "fe80::a088:c203:e1:5f42");

	/* Read as Ethernet, the missing type file gives "unknown". */
	load("cx7-ib", "mlx5_0", 1, &t);
	assert_int_equal(t.n, 1);
	assert_int_equal(t.e[0].type, RDP_GID_UNKNOWN);
}

static void test_read_cap_and_missing(void **state)
{
	struct rdp_gid_entry e[2];
	struct rdp_sysfs fs;
	size_t n = 99;

	(void)state;
	fixture_fs("cx6-roce", &fs);
	assert_int_equal(rdp_gid_read_table(&fs, "mlx5_0", 1, 1, e, 2, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(e[1].index, 1);

	/* No such device or port: an empty table, not an error. */
	n = 99;
	assert_int_equal(rdp_gid_read_table(&fs, "mlx5_9", 1, 1, e, 2, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(rdp_gid_read_table(&fs, "mlx5_0", 2, 1, e, 2, &n), 0);
	assert_int_equal(n, 0);
}

/* A one-GID tree of our own, for text that no real kernel prints. */
struct bad_tree {
	char root[256];
	char gid0[PATH_MAX];
};

static void bad_tree_make(struct bad_tree *b)
{
	static const char *const dirs[] = {
		"/sys",
		"/sys/class",
		"/sys/class/infiniband",
		"/sys/class/infiniband/bad0",
		"/sys/class/infiniband/bad0/ports",
		BAD_PORT,
		BAD_PORT "/gids",
	};
	const char *tmp = getenv("TMPDIR");
	char path[PATH_MAX];
	size_t i;

	snprintf(b->root, sizeof(b->root), "%s/rdp-gid-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	assert_non_null(mkdtemp(b->root));
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", b->root, dirs[i]);
		assert_int_equal(mkdir(path, 0700), 0);
	}
	snprintf(b->gid0, sizeof(b->gid0), "%s" BAD_PORT "/gids/0", b->root);
}

static void bad_tree_remove(const struct bad_tree *b)
{
	static const char *const dirs[] = {
		BAD_PORT "/gids",
		BAD_PORT,
		"/sys/class/infiniband/bad0/ports",
		"/sys/class/infiniband/bad0",
		"/sys/class/infiniband",
		"/sys/class",
		"/sys",
		"",
	};
	char path[PATH_MAX];
	size_t i;

	unlink(b->gid0);
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", b->root, dirs[i]);
		rmdir(path);
	}
}

static int read_one(const struct bad_tree *b, const char *text,
		    struct rdp_gid_entry *e)
{
	struct rdp_sysfs fs;
	size_t n = 99;
	FILE *f;
	int ret;

	f = fopen(b->gid0, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	rdp_sysfs_init(&fs, b->root);
	ret = rdp_gid_read_table(&fs, "bad0", 1, 0, e, 1, &n);
	if (ret)
		assert_int_equal(n, 99);
	else
		assert_int_equal(n, 1);
	return ret;
}

static void test_read_strict_text(void **state)
{
	static const char *const bad[] = {
		"fe80::1\n",
		"fe80:0000:0000:0000:0201:02ff:fe03:040\n",
		"fe80:0000:0000:0000:0201:02ff:fe03:04050\n",
		"fe80-0000:0000:0000:0201:02ff:fe03:0405\n",
		"fe80:0000:0000:0000:0201:02ff:fe03:04g5\n",
		"fe80:0000:0000:0000:0201:02ff:fe03::405\n",
		" fe80:0000:0000:0000:0201:02ff:fe03:0405\n",
		"fe80:0000:0000:0000:0201:02ff:fe03:0405x\n",
		"\n",
	};
	struct rdp_gid_entry e;
	struct bad_tree b;
	size_t i;

	(void)state;
	bad_tree_make(&b);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(read_one(&b, bad[i], &e), -EINVAL);
	assert_int_equal(
		read_one(&b, "FE80:0000:0000:0000:0201:02FF:FE03:0405", &e), 0);
	assert_int_equal(e.type, RDP_GID_IB);
	expect_gid_text(&e, "fe80::201:2ff:fe03:405");
	bad_tree_remove(&b);
}

/* Any error but a missing file is passed up. */
static void test_read_error_passed_up(void **state)
{
	struct rdp_gid_entry e;
	struct rdp_sysfs fs;
	struct bad_tree b;
	size_t n = 99;

	(void)state;
	bad_tree_make(&b);
	assert_int_equal(mkdir(b.gid0, 0700), 0);
	rdp_sysfs_init(&fs, b.root);
	assert_int_equal(rdp_gid_read_table(&fs, "bad0", 1, 0, &e, 1, &n),
			 -EISDIR);
	assert_int_equal(n, 99);
	rmdir(b.gid0);
	bad_tree_remove(&b);
}

static void test_select_cx6(void **state)
{
	struct table t;

	(void)state;
	load("cx6-roce", "mlx5_0", 1, &t);
	expect_choice(&t, "192.168.1.10", -1, 3, RDP_GID_ADDR_MATCH);
	expect_choice(&t, "192.168.2.10", -1, 5, RDP_GID_ADDR_MATCH);
	expect_choice(&t, "172.16.0.1", -1, 3, RDP_GID_V2_IPV4);
	expect_choice(&t, NULL, -1, 3, RDP_GID_V2_IPV4);
	/* Forcing wins, even a v1 GID against a matching address. */
	expect_choice(&t, "192.168.1.10", 2, 2, RDP_GID_FORCED);
	expect_choice(&t, NULL, 0, 0, RDP_GID_FORCED);
}

static void test_select_rxe(void **state)
{
	struct table t;

	(void)state;
	load("rxe", "rxe0", 1, &t);
	expect_choice(&t, "10.77.0.1", -1, 1, RDP_GID_ADDR_MATCH);
	expect_choice(&t, "10.77.0.2", -1, 1, RDP_GID_V2_IPV4);
	/* Without the IPv4 GID, the link-local v2 one. */
	t.n = 1;
	expect_choice(&t, "10.77.0.1", -1, 0, RDP_GID_V2_ANY);
}

static void test_select_forced_missing(void **state)
{
	struct rdp_gid_choice c;
	struct table t;

	(void)state;
	load("rxe", "rxe0", 1, &t);
	memset(&c, 0x5a, sizeof(c));
	/* Index 2 exists in sysfs but is all-zero. */
	assert_int_equal(rdp_gid_select(t.e, t.n, NULL, 2, &c), -ENOENT);
	assert_int_equal(rdp_gid_select(t.e, t.n, NULL, 4096, &c), -ENOENT);
	assert_int_equal(c.reason, 0x5a5a5a5a);
}

static void test_select_v1_only(void **state)
{
	struct rdp_gid_choice c;
	struct rdp_ip a = ip_of("192.168.3.10");
	struct table t;

	(void)state;
	load("roce-v1-only", "mlx4_0", 1, &t);
	assert_int_equal(t.n, 2);
	/* A v1 GID carrying the address is not an address match. */
	assert_int_equal(rdp_gid_select(t.e, t.n, &a, -1, &c), 0);
	assert_int_equal(c.reason, RDP_GID_FIRST);
	assert_int_equal(c.entry.index, 0);
	assert_int_equal(c.entry.type, RDP_GID_ROCE_V1);
	assert_string_equal(c.entry.ndev, "eth2");
}

static void test_select_ib(void **state)
{
	struct table t;

	(void)state;
	load("cx7-ib", "mlx5_0", 0, &t);
	expect_choice(&t, "192.168.1.10", -1, 0, RDP_GID_FIRST);
	expect_choice(&t, NULL, -1, 0, RDP_GID_FIRST);
	assert_int_equal(t.e[0].type, RDP_GID_IB);
}

static void test_select_empty(void **state)
{
	struct rdp_gid_choice c;
	struct rdp_gid_entry e;

	(void)state;
	memset(&e, 0, sizeof(e));
	assert_int_equal(rdp_gid_select(&e, 0, NULL, -1, &c), -ENOENT);
	assert_int_equal(rdp_gid_select(&e, 0, NULL, 0, &c), -ENOENT);
}

static void test_type_parse(void **state)
{
	(void)state;
	assert_int_equal(rdp_gid_type_parse("RoCE v2"), RDP_GID_ROCE_V2);
	assert_int_equal(rdp_gid_type_parse("IB/RoCE v1"), RDP_GID_ROCE_V1);
	assert_int_equal(rdp_gid_type_parse("IB"), RDP_GID_UNKNOWN);
	assert_int_equal(rdp_gid_type_parse(""), RDP_GID_UNKNOWN);
}

static void test_strings(void **state)
{
	(void)state;
	assert_string_equal(rdp_gid_type_str(RDP_GID_IB), "IB");
	assert_string_equal(rdp_gid_type_str(RDP_GID_ROCE_V1), "RoCE v1");
	assert_string_equal(rdp_gid_type_str(RDP_GID_ROCE_V2), "RoCE v2");
	assert_string_equal(rdp_gid_type_str(RDP_GID_UNKNOWN), "unknown");
	assert_string_equal(rdp_gid_type_str((enum rdp_gid_type)42), "unknown");
	assert_string_equal(rdp_gid_reason_str(RDP_GID_FORCED), "set with -x");
	assert_string_equal(rdp_gid_reason_str(RDP_GID_ADDR_MATCH),
			    "matches the out-of-band address");
	assert_string_equal(rdp_gid_reason_str(RDP_GID_V2_IPV4),
			    "first IPv4 RoCE v2 GID");
	assert_string_equal(rdp_gid_reason_str(RDP_GID_V2_ANY),
			    "first RoCE v2 GID");
	assert_string_equal(rdp_gid_reason_str(RDP_GID_FIRST),
			    "first valid GID");
}

static void test_format(void **state)
{
	static const uint8_t mapped[16] = {
		[10] = 0xff, [11] = 0xff, [12] = 192,
		[13] = 168,  [14] = 1,	  [15] = 10,
	};
	static const uint8_t zero[16];
	char buf[64];
	char small[8] = "xxxxxxx";

	(void)state;
	rdp_gid_format(mapped, buf, sizeof(buf));
	assert_string_equal(buf, "::ffff:192.168.1.10");
	rdp_gid_format(zero, buf, sizeof(buf));
	assert_string_equal(buf, "::");
	/* Too small: an empty string, never an unterminated one. */
	rdp_gid_format(mapped, small, sizeof(small));
	assert_string_equal(small, "");
	assert_true(rdp_gid_is_ipv4_mapped(mapped));
	assert_false(rdp_gid_is_ipv4_mapped(zero));
}

/* An IPv6 out-of-band address: its own GID, else the first global IPv6
 * RoCE v2 GID (never a link-local one while a global one exists). */
static void test_select_ipv6(void **state)
{
	static const char *const gids[] = { "fe80::1", "::ffff:10.77.0.1",
					    "fd77::5", "fd77::6" };
	struct table t = { .n = 4 };
	struct rdp_ip ip;
	size_t i;

	(void)state;
	for (i = 0; i < t.n; i++) {
		ip = ip_of(gids[i]);
		memcpy(t.e[i].raw, ip.raw, 16);
		t.e[i].index = (int)i;
		t.e[i].type = RDP_GID_ROCE_V2;
	}
	expect_choice(&t, "fd77::6", -1, 3, RDP_GID_ADDR_MATCH);
	expect_choice(&t, "fd77::9", -1, 2, RDP_GID_V2_IPV6);
	expect_choice(&t, "fe80::2", -1, 2, RDP_GID_V2_IPV6);
	expect_choice(&t, "10.77.0.9", -1, 1, RDP_GID_V2_IPV4);
	expect_choice(&t, "10.77.0.1", -1, 1, RDP_GID_ADDR_MATCH);
	/* Only a link-local IPv6 GID: the first RoCE v2 one. */
	t.n = 2;
	expect_choice(&t, "fd77::9", -1, 0, RDP_GID_V2_ANY);
	ip = ip_of("fd77::9");
	assert_false(rdp_ip_is_ipv4(&ip));
	ip = ip_of("10.1.2.3");
	assert_true(rdp_ip_is_ipv4(&ip));
}

/* -x checked before anything connects: past the table, an empty slot, a
 * port without GIDs; each one line with the valid indexes. */
static void test_index_check(void **state)
{
	struct rdp_gid_entry tab[5] = { { .index = 0 },
					{ .index = 1 },
					{ .index = 2 },
					{ .index = 3 },
					{ .index = 8 } };
	char why[320];

	(void)state;
	assert_int_equal(rdp_gid_index_check(tab, 5, 16, 3, "rxe0", 1, why,
					     sizeof(why)),
			 0);
	assert_int_equal(rdp_gid_index_check(tab, 5, 16, 8, "rxe0", 1, why,
					     sizeof(why)),
			 0);
	assert_int_equal(rdp_gid_index_check(tab, 5, 16, 99, "rxe0", 1, why,
					     sizeof(why)),
			 -ENOENT);
	assert_string_equal(why, "GID index 99 of rxe0 port 1 is past its "
				 "table of 16: valid indexes 0-3, 8, fix -x "
				 "(rdmaperf doctor lists them)");
	assert_int_equal(rdp_gid_index_check(tab, 5, 16, 5, "rxe0", 1, why,
					     sizeof(why)),
			 -ENOENT);
	assert_string_equal(why, "GID index 5 of rxe0 port 1 is empty: valid "
				 "indexes 0-3, 8, fix -x (rdmaperf doctor "
				 "lists them)");
	assert_int_equal(rdp_gid_index_check(tab + 4, 1, 0, 0, "mlx5_0", 2, why,
					     sizeof(why)),
			 -ENOENT);
	assert_string_equal(why, "GID index 0 of mlx5_0 port 2 is empty: "
				 "valid indexes 8, fix -x (rdmaperf doctor "
				 "lists them)");
	assert_int_equal(rdp_gid_index_check(tab, 0, 16, 0, "rxe0", 1, why,
					     sizeof(why)),
			 -ENOENT);
	assert_string_equal(why, "GID index 0 of rxe0 port 1: the port has no "
				 "valid GID (is an IP address configured on "
				 "its netdev?)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_rxe),
		cmocka_unit_test(test_read_cx6),
		cmocka_unit_test(test_read_ib),
		cmocka_unit_test(test_read_cap_and_missing),
		cmocka_unit_test(test_read_strict_text),
		cmocka_unit_test(test_read_error_passed_up),
		cmocka_unit_test(test_select_cx6),
		cmocka_unit_test(test_select_rxe),
		cmocka_unit_test(test_select_forced_missing),
		cmocka_unit_test(test_select_v1_only),
		cmocka_unit_test(test_select_ipv6),
		cmocka_unit_test(test_select_ib),
		cmocka_unit_test(test_select_empty),
		cmocka_unit_test(test_type_parse),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_index_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
