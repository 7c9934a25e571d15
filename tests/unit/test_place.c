/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Placement plans on the two-socket fixture (the NIC on node 1), CPU list
 * parsing, and port counter snapshots and deltas on the ConnectX-6 tree.
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

#include <cmocka.h>

#include <rdmaperf/counters.h>
#include <rdmaperf/opts.h>
#include <rdmaperf/placement.h>
#include <rdmaperf/sysfs.h>
#include <rdmaperf/convert.h>
#include <rdmaperf/wire.h>

#include "unit.h"

static void list_is(const cpu_set_t *set, const char *want)
{
	char buf[256];

	rdp_cpulist_format(set, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

static void test_cpulist(void **state)
{
	static const char *const bad[] = { "",	   "a",	  "1,", ",1",
					   "1,,2", "3-1", "1-", "-1",
					   "1 2",  "+1",  "0x1" };
	cpu_set_t s;
	size_t i;

	(void)state;
	assert_int_equal(rdp_cpulist_parse("0-3,8,10-11", &s), 0);
	assert_int_equal(CPU_COUNT(&s), 7);
	list_is(&s, "0-3,8,10-11");
	assert_int_equal(rdp_cpulist_first(&s), 0);
	assert_int_equal(rdp_cpulist_parse("28-55,84-111", &s), 0);
	list_is(&s, "28-55,84-111");
	assert_int_equal(rdp_cpulist_first(&s), 28);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (rdp_cpulist_parse(bad[i], &s) != -EINVAL)
			fail_msg("'%s' accepted", bad[i]);
	assert_int_equal(rdp_cpulist_parse("99999", &s), -ERANGE);
	CPU_ZERO(&s);
	list_is(&s, "");
	assert_int_equal(rdp_cpulist_first(&s), -1);
}

/* Plan on the two-socket tree, the process started on every CPU. */
static int plan(const struct rdp_place_opts *o, int nic_node, const char *start,
		struct rdp_placement *pl, char *err)
{
	struct rdp_sysfs fs;
	cpu_set_t s;

	fixture_fs("two-socket", &fs);
	assert_int_equal(rdp_cpulist_parse(start, &s), 0);
	return rdp_place_plan(&fs, o, nic_node, &s, pl, err, 256);
}

static void test_default_follows_nic(void **state)
{
	struct rdp_place_opts o = { 0 };
	struct rdp_placement pl;
	char err[256];

	(void)state;
	assert_int_equal(plan(&o, 1, "0-111", &pl, err), 0);
	assert_int_equal(pl.mode, RDP_PLACE_NIC);
	assert_int_equal(pl.node, 1);
	assert_false(pl.cross_numa);
	list_is(&pl.cpus, "28-55,84-111");
	/* Pinned like that already (a server's next client): still ours. */
	assert_int_equal(plan(&o, 1, "28-55,84-111", &pl, err), 0);
	assert_int_equal(pl.mode, RDP_PLACE_NIC);
	/* No node from the NIC: nothing to pin to, and it says so. */
	assert_int_equal(plan(&o, -1, "0-111", &pl, err), 0);
	assert_int_equal(pl.mode, RDP_PLACE_NONE);
	assert_non_null(strstr(pl.why, "no NUMA node"));
}

static void test_cpu_choice_cross_numa(void **state)
{
	struct rdp_place_opts o = { .cpus = "2-3" };
	struct rdp_placement pl;
	char err[256];

	(void)state;
	assert_int_equal(plan(&o, 1, "0-111", &pl, err), 0);
	assert_int_equal(pl.mode, RDP_PLACE_CPU);
	assert_int_equal(pl.node, 0);
	assert_true(pl.cross_numa);
	list_is(&pl.cpus, "2-3");
	/* On the NIC's node: no warning. */
	snprintf(o.cpus, sizeof(o.cpus), "30,90");
	assert_int_equal(plan(&o, 1, "0-111", &pl, err), 0);
	assert_false(pl.cross_numa);
	assert_int_equal(pl.node, 1);
	/* Straddling both nodes is cross-NUMA too. */
	snprintf(o.cpus, sizeof(o.cpus), "27-28");
	assert_int_equal(plan(&o, 1, "0-111", &pl, err), 0);
	assert_true(pl.cross_numa);
	/* A CPU this host does not have: one line naming it. */
	snprintf(o.cpus, sizeof(o.cpus), "100-120");
	assert_int_equal(plan(&o, 1, "0-111", &pl, err), -EINVAL);
	assert_non_null(strstr(err, "CPU 112-120 is not online"));
}

static void test_numa_choice(void **state)
{
	struct rdp_place_opts o = { .have_numa = 1, .numa_node = 0 };
	struct rdp_placement pl;
	char err[256];

	(void)state;
	assert_int_equal(plan(&o, 1, "0-111", &pl, err), 0);
	assert_int_equal(pl.mode, RDP_PLACE_NUMA);
	assert_int_equal(pl.node, 0);
	assert_true(pl.cross_numa);
	list_is(&pl.cpus, "0-27,56-83");
	o.numa_node = 1;
	assert_int_equal(plan(&o, 1, "0-111", &pl, err), 0);
	assert_false(pl.cross_numa);
	o.numa_node = 2;
	assert_int_equal(plan(&o, 1, "0-111", &pl, err), -EINVAL);
	assert_non_null(strstr(err, "--numa 2: no such node"));
	assert_non_null(strstr(err, "nodes here: 0-1"));
}

static void test_external_affinity_kept(void **state)
{
	struct rdp_place_opts o = { 0 };
	struct rdp_placement pl;
	char err[256];

	(void)state;
	/* taskset -c 4-7: kept, and it is off the NIC's node. */
	assert_int_equal(plan(&o, 1, "4-7", &pl, err), 0);
	assert_int_equal(pl.mode, RDP_PLACE_EXTERNAL);
	assert_int_equal(pl.node, 0);
	assert_true(pl.cross_numa);
	list_is(&pl.cpus, "4-7");
	/* --no-pin wins over everything and claims no node. */
	o.no_pin = 1;
	assert_int_equal(plan(&o, 1, "0-111", &pl, err), 0);
	assert_int_equal(pl.mode, RDP_PLACE_NONE);
	assert_false(pl.cross_numa);
}

static void test_node_of_cpu(void **state)
{
	struct rdp_sysfs fs;

	(void)state;
	fixture_fs("two-socket", &fs);
	assert_int_equal(rdp_place_node_of_cpu(&fs, 0), 0);
	assert_int_equal(rdp_place_node_of_cpu(&fs, 28), 1);
	assert_int_equal(rdp_place_node_of_cpu(&fs, 111), 1);
	assert_int_equal(rdp_place_node_of_cpu(&fs, 200), -1);
	assert_int_equal(rdp_place_node_of_cpu(&fs, -1), -1);
}

static const struct rdp_counter *get(const struct rdp_counters *s,
				     const char *name)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->c[i].name, name))
			return &s->c[i];
	fail_msg("no counter %s", name);
	return &s->c[0];
}

static struct rdp_counters before, after, delta;

static void test_counters(void **state)
{
	struct rdp_sysfs fs;
	size_t i;

	(void)state;
	fixture_fs("cx6-roce", &fs);
	rdp_counters_snapshot(&fs, "mlx5_0", 1, &before);
	assert_int_equal(before.n, 18);
	assert_int_equal(get(&before, "out_of_sequence")->value, 12);
	assert_int_equal(get(&before, "out_of_sequence")->hw, 1);
	assert_int_equal(get(&before, "port_rcv_data")->hw, 0);
	after = before;
	for (i = 0; i < after.n; i++)
		if (!strcmp(after.c[i].name, "out_of_sequence"))
			after.c[i].value += 5;
		else if (!strcmp(after.c[i].name, "port_xmit_data"))
			after.c[i].value = 7; /* went back: a reset */
	/* A counter only in one snapshot is left out. */
	after.n--;
	rdp_counters_delta(&before, &after, &delta);
	assert_int_equal(delta.n, 17);
	assert_int_equal(get(&delta, "out_of_sequence")->value, 5);
	assert_int_equal(get(&delta, "port_xmit_data")->value, 7);
	assert_int_equal(get(&delta, "rp_cnp_handled")->value, 0);
	/* A device without counters: empty, not an error. */
	rdp_counters_snapshot(&fs, "mlx5_9", 1, &before);
	assert_int_equal(before.n, 0);
}

static void test_counter_warnings(void **state)
{
	(void)state;
	assert_non_null(strstr(rdp_counter_warning("out_of_sequence"), "loss"));
	assert_non_null(
		strstr(rdp_counter_warning("np_ecn_marked_roce_packets"),
		       "congestion"));
	assert_non_null(rdp_counter_warning("out_of_seq_request"));
	assert_null(rdp_counter_warning("port_xmit_data"));
	assert_null(rdp_counter_warning("rx_write_requests"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpulist),
		cmocka_unit_test(test_default_follows_nic),
		cmocka_unit_test(test_cpu_choice_cross_numa),
		cmocka_unit_test(test_numa_choice),
		cmocka_unit_test(test_external_affinity_kept),
		cmocka_unit_test(test_node_of_cpu),
		cmocka_unit_test(test_counters),
		cmocka_unit_test(test_counter_warnings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
