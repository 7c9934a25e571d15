/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The fleet doctor (rdmaperf-mesh --doctor): the facts read from recorded
 * device trees, and the comparison that names each node differing from
 * the most common value (ties, unreadable values, numbers and text,
 * rails, ranks without a device), its lines and doctor.json.
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
#include <jansson.h>

#include <cmocka.h>

#include <rdmaperf/boot.h>
#include <rdmaperf/doctor.h>
#include <rdmaperf/mesh_run.h>
#include <rdmaperf/sysfs.h>

#include "mesh_doctor.h"
#include "unit.h"

#define MAXN 8

static struct rdp_doctor doc;
static struct rdp_doctor_facts all[MAXN];
static struct rdp_doctor_diff diffs[MAXN * RDP_FACT_N];

static void read_fixture(const char *fixture, const char *dev, uint32_t active,
			 uint32_t max, struct rdp_doctor_facts *f)
{
	struct rdp_doctor_verbs v = { active, max };
	struct rdp_sysfs fs;

	fixture_fs(fixture, &fs);
	rdp_doctor_local(&fs, dev, 1, &v, NULL, &doc);
	memset(f, 0, sizeof(*f));
	rdp_doctor_facts_of(&fs, &doc, &v, f);
}

static void expect_text(const struct rdp_doctor_facts *f, enum rdp_fact_id k,
			const char *want)
{
	const struct rdp_doctor_fact *x = &f->f[k];

	if (!x->readable)
		fail_msg("%s: unreadable, wanted '%s'", rdp_fact_def(k)->id,
			 want);
	if (strcmp(x->text, want))
		fail_msg("%s: '%s', wanted '%s'", rdp_fact_def(k)->id, x->text,
			 want);
}

static void expect_num(const struct rdp_doctor_facts *f, enum rdp_fact_id k,
		       int64_t want)
{
	assert_true(f->f[k].readable);
	assert_int_equal(f->f[k].num, want);
}

static void test_facts_of_cx6(void **state)
{
	struct rdp_doctor_facts f;

	(void)state;
	read_fixture("fleet-cx6", "mlx5_0", 1024, 4096, &f);
	expect_text(&f, RDP_FACT_PORT_STATE, "ACTIVE");
	expect_text(&f, RDP_FACT_LINK_LAYER, "Ethernet");
	expect_num(&f, RDP_FACT_RATE, 100000);
	expect_text(&f, RDP_FACT_RATE, "100 Gb/sec");
	expect_text(&f, RDP_FACT_WIDTH, "2X");
	expect_num(&f, RDP_FACT_WIDTH, 2); /* lanes */
	expect_num(&f, RDP_FACT_MTU_ACTIVE, 1024);
	expect_num(&f, RDP_FACT_MTU_MAX, 4096);
	expect_num(&f, RDP_FACT_NETDEV_MTU, 1500);
	expect_text(&f, RDP_FACT_FW, "20.39.1002");
	expect_text(&f, RDP_FACT_PCIE_SPEED, "8.0 GT/s");
	expect_num(&f, RDP_FACT_PCIE_WIDTH, 8);
	expect_text(&f, RDP_FACT_PCIE_MAX_SPEED, "16.0 GT/s");
	expect_num(&f, RDP_FACT_PCIE_MAX_WIDTH, 16);
	expect_text(&f, RDP_FACT_GID_TYPE, "RoCE v2");
	expect_num(&f, RDP_FACT_GID_INDEX, 3);
	expect_text(&f, RDP_FACT_PKEYS, "0xffff,0x8001");
	expect_text(&f, RDP_FACT_ECN_NP, "priority 3");
	expect_text(&f, RDP_FACT_ECN_RP, "off");
	expect_text(&f, RDP_FACT_PFC, "0,0,0,1,0,0,0,0");
	expect_text(&f, RDP_FACT_TRUST, "dscp");
	expect_num(&f, RDP_FACT_NUMA, 1);
	expect_text(&f, RDP_FACT_GOVERNOR, "powersave");
	expect_text(&f, RDP_FACT_MEMLOCK, "8192 KiB");
	expect_text(&f, RDP_FACT_RDMA_CM, "loaded");
}

/* numa_node -1 in sysfs: a node the firmware does not give, "unknown". */
static void test_facts_numa_unknown(void **state)
{
	struct rdp_doctor_facts f;

	(void)state;
	read_fixture("roce-v1-only", "mlx4_0", 4096, 4096, &f);
	expect_num(&f, RDP_FACT_NUMA, -1);
	expect_text(&f, RDP_FACT_NUMA, "unknown");
	expect_num(&f, RDP_FACT_WIDTH, 4);
}

/* A software device: no PCIe, no NUMA node, no firmware or DCB files:
 * each of them unreadable, not a failure. */
static void test_facts_of_rxe(void **state)
{
	static const enum rdp_fact_id absent[] = {
		RDP_FACT_FW,
		RDP_FACT_PCIE_SPEED,
		RDP_FACT_PCIE_WIDTH,
		RDP_FACT_PCIE_MAX_SPEED,
		RDP_FACT_PCIE_MAX_WIDTH,
		RDP_FACT_PKEYS,
		RDP_FACT_ECN_NP,
		RDP_FACT_ECN_RP,
		RDP_FACT_PFC,
		RDP_FACT_TRUST,
		RDP_FACT_NUMA,
		RDP_FACT_GOVERNOR,
		RDP_FACT_MEMLOCK,
	};
	struct rdp_doctor_facts f;
	size_t i;

	(void)state;
	read_fixture("rxe", "rxe0", 1024, 4096, &f);
	expect_num(&f, RDP_FACT_RATE, 10000);
	expect_text(&f, RDP_FACT_WIDTH, "1X");
	expect_num(&f, RDP_FACT_WIDTH, 1);
	expect_num(&f, RDP_FACT_NETDEV_MTU, 1500);
	expect_text(&f, RDP_FACT_RDMA_CM, "not loaded");
	for (i = 0; i < sizeof(absent) / sizeof(absent[0]); i++)
		if (f.f[absent[i]].readable)
			fail_msg("%s: '%s', wanted unreadable",
				 rdp_fact_def(absent[i])->id,
				 f.f[absent[i]].text);
	/* Without verbs' figures the MTUs are unreadable too. */
	read_fixture("rxe", "rxe0", 0, 0, &f);
	assert_false(f.f[RDP_FACT_MTU_ACTIVE].readable);
	assert_false(f.f[RDP_FACT_MTU_MAX].readable);
}

/* n nodes "nodeI (rxeI)" that agree: a number and a text fact set. */
static void fleet(size_t n)
{
	size_t i;

	memset(all, 0, sizeof(all));
	for (i = 0; i < n; i++) {
		snprintf(all[i].node, sizeof(all[i].node), "node%zu", i);
		snprintf(all[i].dev, sizeof(all[i].dev), "rxe%zu", i);
		all[i].f[RDP_FACT_MTU_ACTIVE] =
			(struct rdp_doctor_fact){ 1, 4096, "4096" };
		all[i].f[RDP_FACT_FW] =
			(struct rdp_doctor_fact){ 1, 0, "20.39.1002" };
	}
}

static void set(size_t i, enum rdp_fact_id k, int64_t num, const char *text)
{
	all[i].f[k].readable = 1;
	all[i].f[k].num = num;
	snprintf(all[i].f[k].text, sizeof(all[i].f[k].text), "%s", text);
}

static long compare(size_t n)
{
	long nd = rdp_doctor_compare(all, n, diffs);

	assert_true(nd >= 0);
	return nd;
}

/* The report of n ranks as text (the whole of it). */
static char *report(size_t n, long nd)
{
	static char buf[8192];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	assert_non_null(f);
	rdp_doctor_fleet_print(f, all, n, diffs, (size_t)nd);
	fclose(f);
	return buf;
}

static void test_majority(void **state)
{
	long nd;

	(void)state;
	fleet(6);
	set(3, RDP_FACT_MTU_ACTIVE, 1024, "1024");
	nd = compare(6);
	assert_int_equal(nd, 1);
	assert_int_equal(diffs[0].node, 3);
	assert_int_equal(diffs[0].fact, RDP_FACT_MTU_ACTIVE);
	assert_int_equal(diffs[0].other_count, 5);
	assert_int_equal(diffs[0].own_count, 1);
	assert_int_equal(diffs[0].readable, 6);
	assert_false(diffs[0].tie);
	assert_string_equal(
		report(6, nd),
		"doctor: 6 node(s): 1 difference(s) on 1 node(s)\n"
		"node3 (rxe3): active MTU 1024; the majority (5 of 6): 4096\n"
		"unreadable on every node: port state, link layer, link rate, "
		"link width, max MTU, netdev MTU, PCIe speed, PCIe width, "
		"PCIe slot speed, PCIe slot width, GID type, GID index, "
		"P_Keys, ECN (notification point), ECN (reaction point), PFC, "
		"QoS trust, NIC NUMA node, CPU governor, locked memory, "
		"C-states, RDMA CM\n");
}

/* The most common value need not be over half: 3 of 6 against 2 and 1. */
static void test_plurality_and_order(void **state)
{
	long nd;

	(void)state;
	fleet(6);
	set(1, RDP_FACT_MTU_ACTIVE, 1024, "1024");
	set(4, RDP_FACT_MTU_ACTIVE, 1024, "1024");
	set(5, RDP_FACT_MTU_ACTIVE, 2048, "2048");
	set(4, RDP_FACT_FW, 0, "20.38.1900");
	nd = compare(6);
	assert_int_equal(nd, 4);
	/* Rank order, then fact order. */
	assert_int_equal(diffs[0].node, 1);
	assert_int_equal(diffs[1].node, 4);
	assert_int_equal(diffs[1].fact, RDP_FACT_MTU_ACTIVE);
	assert_int_equal(diffs[2].node, 4);
	assert_int_equal(diffs[2].fact, RDP_FACT_FW);
	assert_int_equal(diffs[3].node, 5);
	assert_int_equal(diffs[3].other_count, 3);
	assert_int_equal(diffs[3].own_count, 1);
	expect_in(report(6, nd), "doctor: 6 node(s): 4 difference(s) on 3 "
				 "node(s)\n"
				 "node1 (rxe1): active MTU 1024; the majority "
				 "(3 of 6): 4096\n"
				 "node4 (rxe4): active MTU 1024; the majority "
				 "(3 of 6): 4096\n"
				 "node4 (rxe4): firmware 20.38.1900; the "
				 "majority (5 of 6): 20.39.1002\n"
				 "node5 (rxe5): active MTU 2048; the majority "
				 "(3 of 6): 4096\n");
}

/* Two values as common as each other: every node is named, none taken
 * for right. */
static void test_tie(void **state)
{
	long nd;

	(void)state;
	fleet(4);
	set(2, RDP_FACT_MTU_ACTIVE, 1024, "1024");
	set(3, RDP_FACT_MTU_ACTIVE, 1024, "1024");
	nd = compare(4);
	assert_int_equal(nd, 4);
	assert_true(diffs[0].tie && diffs[3].tie);
	assert_int_equal(diffs[0].other, 2);
	assert_int_equal(diffs[3].other, 0);
	expect_in(report(4, nd),
		  "node0 (rxe0): active MTU 4096; no majority: 2 of 4 have "
		  "it, 2 have 1024\n"
		  "node1 (rxe1): active MTU 4096; no majority: 2 of 4 have "
		  "it, 2 have 1024\n"
		  "node2 (rxe2): active MTU 1024; no majority: 2 of 4 have "
		  "it, 2 have 4096\n");
	/* Two nodes that differ: both named. */
	fleet(2);
	set(1, RDP_FACT_FW, 0, "20.38.1900");
	nd = compare(2);
	assert_int_equal(nd, 2);
	assert_int_equal(diffs[0].node, 0);
	assert_int_equal(diffs[1].node, 1);
	assert_true(diffs[1].tie);
}

/* A node that cannot read a fact is not named for it, nor counted. */
static void test_unreadable_ignored(void **state)
{
	long nd;

	(void)state;
	fleet(5);
	all[0].f[RDP_FACT_MTU_ACTIVE].readable = 0;
	all[0].f[RDP_FACT_MTU_ACTIVE].num = 256;
	set(4, RDP_FACT_MTU_ACTIVE, 1024, "1024");
	nd = compare(5);
	assert_int_equal(nd, 1);
	assert_int_equal(diffs[0].node, 4);
	assert_int_equal(diffs[0].readable, 4);
	assert_int_equal(diffs[0].other_count, 3);
	/* Unreadable everywhere but one: nothing to compare. */
	fleet(3);
	set(1, RDP_FACT_PFC, 0, "0,0,0,1,0,0,0,0");
	assert_int_equal(compare(3), 0);
}

/* Numbers compare as numbers, whatever their text; text as text. */
static void test_numbers_and_text(void **state)
{
	(void)state;
	fleet(3);
	set(1, RDP_FACT_MTU_ACTIVE, 4096, "4096 B");
	assert_int_equal(compare(3), 0);
	set(2, RDP_FACT_FW, 0, "20.39.1002 ");
	assert_int_equal(compare(3), 1);
	assert_int_equal(diffs[0].node, 2);
	assert_int_equal(diffs[0].fact, RDP_FACT_FW);
}

/* Two rails a node: each rail compared with its own kind, named with it. */
static void test_rails(void **state)
{
	size_t i;
	long nd;

	(void)state;
	fleet(8);
	for (i = 0; i < 8; i++) {
		snprintf(all[i].node, sizeof(all[i].node), "host%zu", i / 2);
		set(i, RDP_FACT_NUMA, (int64_t)(i % 2), i % 2 ? "1" : "0");
	}
	assert_int_equal(compare(8), 0);
	set(5, RDP_FACT_NUMA, 0, "0");
	nd = compare(8);
	assert_int_equal(nd, 1);
	assert_int_equal(diffs[0].node, 5);
	assert_int_equal(diffs[0].readable, 4);
	expect_in(report(8, nd),
		  "doctor: 4 node(s), 2 rails: 1 difference(s) on 1 node(s)\n"
		  "host2 (rxe5, rail 1): NIC NUMA node 0; the majority (3 of "
		  "4): 1\n");
}

/* A rank without a device: one line, left out of the comparison. */
static void test_no_device(void **state)
{
	const char *text;
	long nd;

	(void)state;
	fleet(4);
	all[2].status = -ENODEV;
	snprintf(all[2].why, sizeof(all[2].why),
		 "device 'mlx5_9' not found: see `ibv_devices`");
	set(2, RDP_FACT_MTU_ACTIVE, 256, "256");
	nd = compare(4);
	assert_int_equal(nd, 0);
	expect_in(report(4, nd),
		  "doctor: 4 node(s): all agree on the 2 facts read; 1 "
		  "rank(s) without a device\n"
		  "node2 (rxe2): no device: device 'mlx5_9' not found: see "
		  "`ibv_devices`\n");
	/* None with a device: nothing read, nothing listed as unreadable. */
	all[0].status = all[1].status = all[3].status = -ENODEV;
	assert_int_equal(compare(4), 0);
	text = report(4, 0);
	expect_in(text, "doctor: 4 node(s): no rank has a device\n");
	assert_null(strstr(text, "unreadable"));
}

static void test_json(void **state)
{
	json_t *o, *d;
	long nd;

	(void)state;
	fleet(3);
	set(1, RDP_FACT_MTU_ACTIVE, 1024, "1024");
	/* No NUMA node from any device: null; a width as its lanes. */
	for (nd = 0; nd < 3; nd++) {
		set((size_t)nd, RDP_FACT_NUMA, -1, "unknown");
		set((size_t)nd, RDP_FACT_WIDTH, 4, "4X");
	}
	nd = compare(3);
	o = rdp_doctor_fleet_json(all, 3, diffs, (size_t)nd, 0.25);
	assert_non_null(o);
	assert_string_equal(json_string_value(json_object_get(o, "command")),
			    "mesh-doctor");
	assert_int_equal(json_integer_value(json_object_get(o, "nodes")), 3);
	assert_true(json_is_false(json_object_get(o, "agree")));
	assert_int_equal(json_array_size(json_object_get(o, "ranks")), 3);
	d = json_array_get(json_object_get(o, "differences"), 0);
	assert_string_equal(json_string_value(json_object_get(d, "node")),
			    "node1");
	assert_string_equal(json_string_value(json_object_get(d, "fact")),
			    "mtu_active");
	assert_int_equal(json_integer_value(json_object_get(d, "value")), 1024);
	assert_int_equal(json_integer_value(json_object_get(d, "majority")),
			 4096);
	assert_int_equal(
		json_integer_value(json_object_get(d, "majority_count")), 2);
	assert_true(json_is_null(json_object_get(
		json_object_get(json_array_get(json_object_get(o, "ranks"), 0),
				"facts"),
		"pfc")));
	assert_string_equal(
		json_string_value(json_object_get(
			json_object_get(
				json_array_get(json_object_get(o, "ranks"), 2),
				"facts"),
			"firmware")),
		"20.39.1002");
	d = json_object_get(json_array_get(json_object_get(o, "ranks"), 1),
			    "facts");
	assert_true(json_is_null(json_object_get(d, "numa_node")));
	assert_int_equal(json_integer_value(json_object_get(d, "link_width")),
			 4);
	json_decref(o);
}

/* A job of 1 + extra ranks in one process: rank 0's own facts, then the
 * others' from all[] (extra of them), each short_by bytes short. */
static size_t extra, short_by;

static int fake_gather(struct rdp_boot *b, const void *mine, size_t len,
		       char **all_out, size_t *lens, int timeout_ms)
{
	char *bytes = malloc(len * (extra + 1));
	size_t i;

	(void)b;
	(void)timeout_ms;
	assert_non_null(bytes);
	memcpy(bytes, mine, len);
	lens[0] = len;
	for (i = 0; i < extra; i++) {
		memcpy(bytes + len * (i + 1), &all[i], len);
		lens[i + 1] = len - short_by;
	}
	*all_out = bytes;
	return 0;
}

static void fake_abort(struct rdp_boot *b, int code)
{
	(void)b;
	fail_msg("abort %d", code);
}

static const struct rdp_boot_ops fake_ops = {
	.name = "fake",
	.gather = fake_gather,
	.abort = fake_abort,
};

/* rdmaperf-mesh --doctor's run on rank 0 of a fake job: -d names a
 * device that is not there, so rank 0 is named as without one; the other
 * ranks' facts are compared; the report, doctor.json and outliers.txt. */
static void test_run_rank0(void **state)
{
	struct rdp_boot b = { .ops = &fake_ops, .size = 4 };
	static struct rdp_mesh_run_opts mo;
	char dir[] = "/tmp/rdp-doctor-XXXXXX", path[64], text[4096];
	json_t *written;
	FILE *f;
	size_t n;
	int rc;

	(void)state;
	fleet(3);
	snprintf(all[0].node, sizeof(all[0].node), "node1");
	snprintf(all[1].node, sizeof(all[1].node), "node2");
	snprintf(all[2].node, sizeof(all[2].node), "node3");
	set(2, RDP_FACT_MTU_ACTIVE, 1024, "1024");
	extra = 3;
	short_by = 0;
	memset(&mo, 0, sizeof(mo));
	snprintf(mo.devs[0], sizeof(mo.devs[0]), "nosuchdev");
	mo.n_devs = 1;
	assert_non_null(mkdtemp(dir));
	mo.output_dir = dir;
	mo.out = fmemopen(text, sizeof(text), "w");
	assert_non_null(mo.out);
	setenv("RDP_MESH_NODE", "node%r", 1);
	rc = rdp_mesh_doctor_run(&b,
				 &(struct rdp_mesh_doctor_opts){ &mo, 1, 0 });
	fclose(mo.out);
	assert_int_equal(rc, 1);
	expect_in(text, "doctor: 4 node(s): 1 difference(s) on 1 node(s); 1 "
			"rank(s) without a device\n"
			"node0 (nosuchdev): no device: device 'nosuchdev' not "
			"found: see `ibv_devices`\n"
			"node3 (rxe2): active MTU 1024; the majority (2 of 3): "
			"4096\n");
	snprintf(path, sizeof(path), "%s/doctor.json", dir);
	written = json_load_file(path, 0, NULL);
	assert_non_null(written);
	assert_int_equal(
		json_array_size(json_object_get(written, "differences")), 1);
	assert_string_equal(
		json_string_value(json_object_get(
			json_array_get(json_object_get(written, "ranks"), 0),
			"status")),
		"no device");
	json_decref(written);
	snprintf(path, sizeof(path), "%s/outliers.txt", dir);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	expect_in(text, "== rdmaperf-mesh --doctor ==\ndoctor: 4 node(s)");
	expect_in(text, "node3 (rxe2): active MTU 1024; the majority");
	unlink(path);
	snprintf(path, sizeof(path), "%s/doctor.json", dir);
	unlink(path);
	rmdir(dir);

	/* A rank of another build (another size of facts): refused. */
	short_by = 8;
	mo.output_dir = NULL;
	mo.out = fmemopen(text, sizeof(text), "w");
	rc = rdp_mesh_doctor_run(&b,
				 &(struct rdp_mesh_doctor_opts){ &mo, 1, 0 });
	fclose(mo.out);
	assert_int_equal(rc, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_facts_of_cx6),
		cmocka_unit_test(test_facts_of_rxe),
		cmocka_unit_test(test_facts_numa_unknown),
		cmocka_unit_test(test_majority),
		cmocka_unit_test(test_plurality_and_order),
		cmocka_unit_test(test_tie),
		cmocka_unit_test(test_unreadable_ignored),
		cmocka_unit_test(test_numbers_and_text),
		cmocka_unit_test(test_rails),
		cmocka_unit_test(test_no_device),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_run_rank0),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
