/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Every verdict of `rdmaperf doctor`, computed from recorded device trees:
 * a downtrained PCIe link, a v1-only GID table, ports without a subnet
 * manager or a cable, a software device, and the pair checks.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include <cmocka.h>

#include <rdmaperf/doctor.h>
#include <rdmaperf/placement.h>
#include <rdmaperf/sysfs.h>
#include <rdmaperf/wire.h>

#include "unit.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static struct rdp_doctor doc;

static void run(const char *fixture, const char *dev, uint32_t active,
		uint32_t max, const char *ipv4)
{
	struct rdp_doctor_verbs v = { active, max };
	struct in_addr a;
	struct rdp_sysfs fs;

	fixture_fs(fixture, &fs);
	if (ipv4)
		assert_int_equal(inet_pton(AF_INET, ipv4, &a), 1);
	rdp_doctor_local(&fs, dev, 1, &v, ipv4 ? &a : NULL, &doc);
}

#define expect(id, v, value_has) expect_verdict(&doc, id, v, value_has, NULL)

static void fix_has(const struct rdp_check *c, const char *text)
{
	if (!strstr(c->fix, text))
		fail_msg("%s: fix '%s' lacks '%s'", c->id, c->fix, text);
}

/* A check's verdict and a text its value must hold. */
struct want {
	const char *id;
	enum rdp_verdict v;
	const char *value_has;
};

static void expect_rows(const struct want *w, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		expect(w[i].id, w[i].v, w[i].value_has);
}

static void test_cx6_downtrained_pcie(void **state)
{
	const struct rdp_check *c;

	(void)state;
	run("cx6-roce", "mlx5_0", 1024, 4096, NULL);
	expect("port_state", RDP_PASS, "ACTIVE, physical LinkUp");
	expect("link_layer", RDP_PASS, "Ethernet");
	c = expect("pcie_link", RDP_WARN, "8.0 GT/s x8 (about 63 Gb/s)");
	assert_non_null(strstr(c->value, "capable of 16.0 GT/s x16 (about "
					 "252 Gb/s)"));
	fix_has(c, "x16 slot");
	/* 63 Gb/s of PCIe under a 100 Gb/s port. */
	c = expect("link_rate", RDP_WARN, "100 Gb/s Ethernet");
	fix_has(c, "about 63 Gb/s, less than the port's 100 Gb/s");
	c = expect("mtu", RDP_WARN,
		   "active 1024, max 4096, netdev "
		   "ens1f0np0 1500");
	fix_has(c, "ens1f0np0 has MTU 1500, which leaves RDMA 1024 B");
	expect("numa", RDP_PASS, "node 1 of 2, local CPUs 28-55,84-111");
	expect("memlock", RDP_WARN, "8192 KiB");
	c = expect("governor", RDP_WARN, "powersave on CPU 28");
	fix_has(c, "performance");
	expect("rdma_cm", RDP_PASS, NULL);
	/* Of the IPv4 and IPv6 GIDs, the first IPv4 RoCE v2 one. */
	expect("gid", RDP_PASS, "index 3, RoCE v2 ::ffff:192.168.1.10");
	assert_int_equal(doc.gids[doc.chosen_gid].index, 3);
	assert_int_equal(doc.n_gids, 6);
	assert_string_equal(doc.netdev, "ens1f0np0");
	assert_int_equal(doc.numa_node, 1);
}

static void test_cx6_gid_follows_address(void **state)
{
	(void)state;
	run("cx6-roce", "mlx5_0", 4096, 4096, "192.168.2.10");
	expect("gid", RDP_PASS, "index 5, RoCE v2 ::ffff:192.168.2.10");
	expect("mtu", RDP_PASS, "active 4096, max 4096");
}

static void test_v1_only_fails(void **state)
{
	const struct rdp_check *c;

	(void)state;
	run("roce-v1-only", "mlx4_0", 4096, 4096, NULL);
	c = expect("gid", RDP_FAIL, "RoCE v1");
	fix_has(c, "enable RoCE v2 (cma_roce_mode -d mlx4_0 -p 1 -m 2");
	fix_has(c, "eth2");
	expect("pcie_link", RDP_PASS, "8.0 GT/s x8");
	/* No node from the firmware, but only one node: nothing to fix. */
	expect("numa", RDP_PASS,
	       "unknown (the device reports none; 1 node(s) here)");
	/* 40 Gb/sec (4X QDR) in sysfs: Ethernet, not an InfiniBand name. */
	expect("link_rate", RDP_PASS, "40 Gb/s Ethernet");
	expect("mtu", RDP_PASS, "netdev eth2 9000");
}

static void test_cx7_ib_clean(void **state)
{
	static const struct want w[] = {
		{ "port_state", RDP_PASS, "ACTIVE" },
		{ "link_layer", RDP_PASS, "InfiniBand" },
		{ "link_rate", RDP_PASS, "400 Gb/sec (4X NDR)" },
		{ "pcie_link", RDP_PASS, "32.0 GT/s x16" },
		{ "gid", RDP_PASS, "index 0, IB" },
		{ "memlock", RDP_PASS, "unlimited" },
		{ "governor", RDP_PASS, "performance on CPU 0" },
		{ "rdma_cm", RDP_WARN, "not loaded" },
	};
	size_t n[4];

	(void)state;
	run("cx7-ib", "mlx5_0", 4096, 4096, NULL);
	expect_rows(w, ARRAY_SIZE(w));
	rdp_doctor_tally(&doc, n);
	assert_int_equal(n[RDP_FAIL], 0);
}

static void test_ib_mtu_fix_names_sm(void **state)
{
	(void)state;
	run("cx7-ib", "mlx5_0", 2048, 4096, NULL);
	fix_has(expect("mtu", RDP_WARN, "active 2048"), "partitions.conf");
}

static void test_no_subnet_manager(void **state)
{
	(void)state;
	run("cx7-ib", "mlx5_1", 4096, 4096, NULL);
	fix_has(expect("port_state", RDP_FAIL, "INIT, physical LinkUp"),
		"no subnet manager");
}

static void test_no_cable(void **state)
{
	(void)state;
	run("cx7-ib", "mlx5_2", 0, 0, NULL);
	fix_has(expect("port_state", RDP_FAIL, "DOWN, physical Polling"),
		"check the cable");
	/* Without verbs figures the MTU check says so instead of guessing. */
	expect("mtu", RDP_SKIP, "could not be queried");
	fix_has(expect("gid", RDP_FAIL, "no valid GID"), "subnet manager");
}

static void test_missing_port(void **state)
{
	struct rdp_sysfs fs;

	(void)state;
	fixture_fs("cx7-ib", &fs);
	rdp_doctor_local(&fs, "mlx5_0", 7, NULL, NULL, &doc);
	expect("port_state", RDP_FAIL, "has no port 7");
}

static void test_rxe_software_device(void **state)
{
	static const struct want w[] = {
		{ "pcie_link", RDP_SKIP, "software device" },
		{ "numa", RDP_SKIP, "1 node(s)" },
		{ "governor", RDP_SKIP, "no cpufreq" },
		{ "link_rate", RDP_PASS, "10 Gb/s Ethernet" },
		{ "gid", RDP_PASS, "index 1, RoCE v2 ::ffff:10.77.0.1" },
		{ "mtu", RDP_WARN, "netdev veth-rdp0 1500" },
	};

	(void)state;
	run("rxe", "rxe0", 1024, 4096, "10.77.0.1");
	expect_rows(w, ARRAY_SIZE(w));
}

static void test_pick_device(void **state)
{
	struct rdp_sysfs fs;
	char name[64];

	(void)state;
	fixture_fs("cx7-ib", &fs);
	assert_int_equal(rdp_doctor_pick_device(&fs, 1, name, sizeof(name)), 0);
	assert_string_equal(name, "mlx5_0");
	fixture_fs("two-socket/proc", &fs);
	assert_int_equal(rdp_doctor_pick_device(&fs, 1, name, sizeof(name)),
			 -ENODEV);
}

static void test_pair(void **state)
{
	struct rdp_doctor_verbs v = { 1024, 4096 };
	struct rdp_msg_accept a = { .active_mtu_bytes = 4096,
				    .gid_index = 1,
				    .gid_type = RDP_GID_ROCE_V1 };

	(void)state;
	snprintf(a.device, sizeof(a.device), "mlx5_1");
	run("cx6-roce", "mlx5_0", 1024, 4096, NULL);
	rdp_doctor_pair(&doc, &v, &a);
	fix_has(expect("pair_mtu", RDP_WARN, "here 1024, peer mlx5_1 4096"),
		"smaller MTU (1024)");
	fix_has(expect("pair_gid_type", RDP_FAIL, "here RoCE v2, peer RoCE v1"),
		"-x");
	run("cx6-roce", "mlx5_0", 1024, 4096, NULL);
	a.active_mtu_bytes = 1024;
	a.gid_type = RDP_GID_ROCE_V2;
	rdp_doctor_pair(&doc, &v, &a);
	expect("pair_mtu", RDP_PASS, NULL);
	expect("pair_gid_type", RDP_PASS, NULL);
	/* IB has no GID types to compare. */
	run("cx7-ib", "mlx5_0", 4096, 4096, NULL);
	a.active_mtu_bytes = 4096;
	rdp_doctor_pair(&doc, &v, &a);
	assert_null(rdp_doctor_find(&doc, "pair_gid_type"));
}

static void test_roce_mtu(void **state)
{
	(void)state;
	assert_int_equal(rdp_doctor_roce_mtu(1500), 1024);
	assert_int_equal(rdp_doctor_roce_mtu(9000), 4096);
	assert_int_equal(rdp_doctor_roce_mtu(4200), 4096);
	assert_int_equal(rdp_doctor_roce_mtu(4100), 2048);
	assert_int_equal(rdp_doctor_roce_mtu(100), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cx6_downtrained_pcie),
		cmocka_unit_test(test_cx6_gid_follows_address),
		cmocka_unit_test(test_v1_only_fails),
		cmocka_unit_test(test_cx7_ib_clean),
		cmocka_unit_test(test_ib_mtu_fix_names_sm),
		cmocka_unit_test(test_no_subnet_manager),
		cmocka_unit_test(test_no_cable),
		cmocka_unit_test(test_missing_port),
		cmocka_unit_test(test_rxe_software_device),
		cmocka_unit_test(test_pick_device),
		cmocka_unit_test(test_pair),
		cmocka_unit_test(test_roce_mtu),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
