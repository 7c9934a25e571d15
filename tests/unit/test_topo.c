/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The topology module on hwloc XML fixtures (a two-socket host with a NIC
 * and two GPUs behind a PCIe switch; a recorded virtual machine), the
 * doctor's PCIe path, GPU and C-state verdicts, and placement on the CPUs
 * hwloc puts near the NIC.
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
#include <unistd.h>

#include <cmocka.h>

#include <rdmaperf/doctor.h>
#include <rdmaperf/opts.h>
#include <rdmaperf/placement.h>
#include <rdmaperf/sysfs.h>
#include <rdmaperf/topo.h>

#include "unit.h"

static void xml_path(const char *name, char *buf, size_t len)
{
	assert_true(snprintf(buf, len, "%s/topo/%s", fixtures_dir(), name) <
		    (int)len);
}

/* The topo fixture's sysfs (rxe parents) stays valid for every test. */
static struct rdp_sysfs topo_fs;

static struct rdp_topo *load(const char *name)
{
	struct rdp_topo *t = NULL;
	char xml[PATH_MAX];

	fixture_fs("topo", &topo_fs);
	xml_path(name, xml, sizeof(xml));
	assert_int_equal(rdp_topo_load(&topo_fs, xml, &t), 0);
	assert_non_null(t);
	return t;
}

static void list_is(const cpu_set_t *set, const char *want)
{
	char got[128];

	rdp_cpulist_format(set, got, sizeof(got));
	assert_string_equal(got, want);
}

static void test_load_errors(void **state)
{
	struct rdp_topo *t = NULL;
	char xml[PATH_MAX];

	(void)state;
	xml_path("no-such.xml", xml, sizeof(xml));
	assert_int_not_equal(rdp_topo_load(NULL, xml, &t), 0);
	assert_null(t);
	xml_path("broken.xml", xml, sizeof(xml));
	assert_int_not_equal(rdp_topo_load(NULL, xml, &t), 0);
	assert_null(t);
	rdp_topo_free(NULL);
}

static void test_nic_behind_switch(void **state)
{
	static const enum rdp_topo_hop_kind kinds[] = {
		RDP_HOP_DEVICE, RDP_HOP_SWITCH, RDP_HOP_SWITCH,
		RDP_HOP_ROOT_PORT, RDP_HOP_HOST_BRIDGE
	};
	static const char *const ids[] = { "0000:18:00.0", "0000:17:00.0",
					   "0000:16:00.0", "0000:15:01.0",
					   "0000:[15-1b]" };
	struct rdp_topo *t = load("two-socket-gpu.xml");
	struct rdp_topo_nic n;
	size_t i;

	(void)state;
	assert_int_equal(rdp_topo_nic(t, "mlx5_0", &n), 0);
	assert_true(n.on_pci);
	assert_string_equal(n.bus_id, "0000:18:00.0");
	assert_string_equal(n.netdev, "");
	assert_int_equal(n.n_path, 5);
	for (i = 0; i < 5; i++) {
		assert_int_equal(n.path[i].kind, kinds[i]);
		assert_string_equal(n.path[i].bus_id, ids[i]);
	}
	/* Gen5 x16 at the NIC, the switch's uplink trained at x8. */
	assert_true(n.path[0].link_gbytes > 60 && n.path[0].link_gbytes < 64);
	assert_true(n.path[2].link_gbytes > 30 && n.path[2].link_gbytes < 32);
	assert_true(n.path[4].link_gbytes == 0);
	assert_int_equal(n.path[0].vendor_id, 0x15b3);
	list_is(&n.cpus, "0-7");
	assert_int_equal(n.node, 0);
	assert_false(n.whole_machine);
	assert_int_equal(rdp_topo_nic(t, "mlx5_3", &n), 0);
	list_is(&n.cpus, "8-15");
	assert_int_equal(n.node, 1);
	assert_int_equal(n.n_path, 3);
	assert_int_equal(rdp_topo_nic(t, "mlx5_9", &n), -ENOENT);
	rdp_topo_free(t);
}

static void test_path_format(void **state)
{
	struct rdp_topo *t = load("two-socket-gpu.xml");
	struct rdp_topo_nic n;
	char buf[192], small[24];

	(void)state;
	assert_int_equal(rdp_topo_nic(t, "mlx5_1", &n), 0);
	rdp_topo_path_format(&n, buf, sizeof(buf));
	assert_string_equal(buf, "0000:1b:00.0 63.0 GB/s > root port "
				 "0000:15:02.0 63.0 GB/s > host bridge "
				 "0000:[15-1b]");
	/* A short buffer is cut, never overrun. */
	rdp_topo_path_format(&n, small, sizeof(small));
	assert_int_equal(strlen(small), sizeof(small) - 1);
	assert_int_equal(strncmp(small, buf, sizeof(small) - 1), 0);
	rdp_topo_free(t);
}

/* rxe has no PCI function: the one of the netdev under it stands in. */
static void test_software_nic(void **state)
{
	struct rdp_topo *t = load("vm-virtio.xml");
	struct rdp_topo_gpu g[4];
	struct rdp_topo_nic n;
	char buf[128];
	size_t count;

	(void)state;
	assert_int_equal(rdp_topo_nic(t, "rxe0", &n), 0);
	assert_string_equal(n.netdev, "eth0");
	assert_true(n.on_pci);
	assert_string_equal(n.bus_id, "0000:00:03.0");
	assert_int_equal(n.n_path, 2);
	assert_int_equal(n.path[1].kind, RDP_HOP_HOST_BRIDGE);
	/* A virtual NIC reports no link speed, and it shows none. */
	rdp_topo_path_format(&n, buf, sizeof(buf));
	assert_string_equal(buf, "0000:00:03.0 > host bridge 0000:[00-00]");
	assert_true(n.whole_machine);
	list_is(&n.cpus, "0-1");
	/* Over a veth, which is on no bus at all. */
	assert_int_equal(rdp_topo_nic(t, "rxe1", &n), -ENOENT);
	assert_int_equal(rdp_topo_gpus(t, NULL, g, 4, &count), 0);
	assert_int_equal(count, 0);
	rdp_topo_free(t);
}

static void gpus_of(struct rdp_topo *t, const char *nic, enum rdp_topo_dist d)
{
	struct rdp_topo_gpu g[RDP_TOPO_GPU_MAX];
	struct rdp_topo_nic n;
	size_t count, i;

	assert_int_equal(rdp_topo_nic(t, nic, &n), 0);
	assert_int_equal(rdp_topo_gpus(t, &n, g, RDP_TOPO_GPU_MAX, &count), 0);
	/* The two H100s; the BMC's VGA with its DRM card is no GPU. */
	assert_int_equal(count, 2);
	assert_string_equal(g[0].bus_id, "0000:19:00.0");
	assert_string_equal(g[0].name, "cuda0");
	assert_string_equal(g[1].name, "cuda1");
	assert_string_equal(g[0].model, "NVIDIA H100 80GB HBM3");
	for (i = 0; i < count; i++) {
		if (g[i].dist != d)
			fail_msg("%s: GPU %s is '%s', expected '%s'", nic,
				 g[i].bus_id, rdp_topo_dist_str(g[i].dist),
				 rdp_topo_dist_str(d));
		assert_int_equal(g[i].node, 0);
	}
}

static void test_gpu_distances(void **state)
{
	struct rdp_topo *t = load("two-socket-gpu.xml");
	struct rdp_topo_gpu g[1];
	size_t count;

	(void)state;
	gpus_of(t, "mlx5_0", RDP_DIST_SWITCH);
	gpus_of(t, "mlx5_1", RDP_DIST_HOST_BRIDGE);
	gpus_of(t, "mlx5_2", RDP_DIST_NODE);
	gpus_of(t, "mlx5_3", RDP_DIST_OTHER_NODE);
	/* Without a NIC: listed, no distance; cap holds. */
	assert_int_equal(rdp_topo_gpus(t, NULL, g, 1, &count), 0);
	assert_int_equal(count, 1);
	assert_int_equal(g[0].dist, RDP_DIST_UNKNOWN);
	rdp_topo_free(t);
}

static void test_nearest_gpu(void **state)
{
	struct rdp_topo *t = load("two-socket-gpu.xml");
	struct rdp_topo *vm = load("vm-virtio.xml");
	enum rdp_topo_dist d;
	char bus[RDP_TOPO_BUS_ID_MAX] = "";

	(void)state;
	assert_int_equal(
		rdp_topo_nearest_gpu(t, "mlx5_0", bus, sizeof(bus), &d), 0);
	assert_string_equal(bus, "0000:19:00.0");
	assert_int_equal(d, RDP_DIST_SWITCH);
	assert_int_equal(
		rdp_topo_nearest_gpu(t, "mlx5_3", bus, sizeof(bus), &d), 0);
	assert_int_equal(d, RDP_DIST_OTHER_NODE);
	assert_int_equal(rdp_topo_nearest_gpu(t, "mlx5_9", bus, sizeof(bus),
					      NULL),
			 -ENOENT);
	assert_int_equal(rdp_topo_nearest_gpu(vm, "rxe0", bus, sizeof(bus),
					      NULL),
			 -ENODEV);
	rdp_topo_free(vm);
	rdp_topo_free(t);
}

/*
 * The discovery components hwloc enabled for a live load, as its
 * HWLOC_COMPONENTS_VERBOSE summary on stderr lists them:
 * "linux(0x7a),no_os(0x2)". report: load as the doctor does.
 */
static void live_components(int report, char *list, size_t len)
{
	static const char key[] =
		"Final list of enabled discovery components: ";
	struct rdp_topo_report r;
	struct rdp_topo *t = NULL;
	char line[512], *p;
	FILE *f = tmpfile();
	int saved = dup(2);

	assert_non_null(f);
	assert_true(saved >= 0);
	fflush(stderr);
	assert_true(dup2(fileno(f), 2) == 2);
	setenv("HWLOC_COMPONENTS_VERBOSE", "1", 1);
	if (report)
		rdp_topo_report_read(NULL, NULL, "no-such-dev", &r);
	else if (!rdp_topo_load(NULL, NULL, &t))
		rdp_topo_free(t);
	unsetenv("HWLOC_COMPONENTS_VERBOSE");
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	assert_true(report ? r.loaded : t != NULL);
	list[0] = '\0';
	rewind(f);
	while (fgets(line, sizeof(line), f))
		if ((p = strstr(line, key)))
			snprintf(list, len, "%s", p + strlen(key));
	fclose(f);
	if (!list[0])
		fail_msg("hwloc printed no list of discovery components");
}

static int has_component(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = list; p; p = strchr(p, ','), p = p ? p + 1 : NULL)
		if (!strncmp(p, name, n) && p[n] == '(')
			return 1;
	return 0;
}

/*
 * Only hwloc's OS component loads this host for placement: the plugins
 * of libhwloc-plugins (pci, opencl, gl) and x86's CPUID pass never run,
 * the GPU vendors' plugins only for the doctor. Most of these are not
 * installed where the tests run: the load must not fail for that.
 */
static void test_live_components(void **state)
{
	static const char *const never[] = { "x86", "pci", "opencl", "gl" };
	static const char *const gpu_names[] = { "cuda", "nvml", "rsmi",
						 "levelzero" };
	char list[256];
	size_t i;

	(void)state;
	live_components(0, list, sizeof(list));
	assert_true(has_component(list, "linux"));
	for (i = 0; i < sizeof(never) / sizeof(never[0]); i++)
		assert_false(has_component(list, never[i]));
	for (i = 0; i < sizeof(gpu_names) / sizeof(gpu_names[0]); i++)
		assert_false(has_component(list, gpu_names[i]));
	live_components(1, list, sizeof(list));
	assert_true(has_component(list, "linux"));
	for (i = 0; i < sizeof(never) / sizeof(never[0]); i++)
		assert_false(has_component(list, never[i]));
}

static struct rdp_doctor doc;
static struct rdp_topo_report rep;

static void doctor_on(const char *xml_name, const char *dev)
{
	char xml[PATH_MAX];

	fixture_fs("topo", &topo_fs);
	xml_path(xml_name, xml, sizeof(xml));
	memset(&doc, 0, sizeof(doc));
	snprintf(doc.dev, sizeof(doc.dev), "%s", dev);
	rdp_topo_report_read(&topo_fs, xml, dev, &rep);
	rdp_doctor_check_topo(&doc, &rep);
	assert_ptr_equal(doc.topo, &rep);
}

#define expect(id, v, value_has, fix_has)                                      \
	expect_verdict(&doc, id, v, value_has, fix_has)

static void test_doctor_topo_verdicts(void **state)
{
	(void)state;
	doctor_on("two-socket-gpu.xml", "mlx5_0");
	expect("pcie_path", RDP_WARN,
	       "0000:18:00.0 63.0 GB/s > switch 0000:17:00.0",
	       "switch 0000:16:00.0 carries 31.5 GB/s, less than the NIC's "
	       "63.0 GB/s");
	expect("gpus", RDP_PASS,
	       "nearest cuda0 0000:19:00.0 (same PCIe switch, NVIDIA H100",
	       NULL);
	expect("gpus", RDP_PASS, "2 GPU(s) in all", NULL);
	doctor_on("two-socket-gpu.xml", "mlx5_1");
	expect("pcie_path", RDP_PASS, "> host bridge 0000:[15-1b]", NULL);
	expect("gpus", RDP_PASS, "(same host bridge", NULL);
	doctor_on("two-socket-gpu.xml", "mlx5_2");
	expect("gpus", RDP_WARN, "(same NUMA node", "--use_cuda=0000:19:00.0");
	/* an AMD GPU (ROCm's plugin names it): the fix names --use_rocm */
	snprintf(rep.gpus[0].name, sizeof(rep.gpus[0].name), "rsmi0");
	memset(&doc, 0, sizeof(doc));
	snprintf(doc.dev, sizeof(doc.dev), "mlx5_2");
	rdp_doctor_check_topo(&doc, &rep);
	expect("gpus", RDP_WARN, "nearest rsmi0 0000:19:00.0",
	       "--use_rocm=0000:19:00.0");
	doctor_on("two-socket-gpu.xml", "mlx5_3");
	expect("gpus", RDP_WARN, "(other NUMA node", "use a NIC on node 0");
	assert_int_equal(rep.nic.node, 1);
}

static void test_doctor_topo_software(void **state)
{
	(void)state;
	doctor_on("vm-virtio.xml", "rxe0");
	expect("pcie_path", RDP_PASS,
	       "0000:00:03.0 > host bridge 0000:[00-00] (netdev eth0)", NULL);
	expect("gpus", RDP_SKIP, "none found", NULL);
	doctor_on("vm-virtio.xml", "rxe1");
	expect("pcie_path", RDP_SKIP,
	       "rxe1 is a software device over veth-rdp0, which has no PCI "
	       "device",
	       NULL);
	expect("gpus", RDP_SKIP, "none found", NULL);
	assert_false(rep.have_nic);
	/* GPUs but a NIC off PCI: listed, no distance, no verdict. */
	doctor_on("two-socket-gpu.xml", "rxe1");
	expect("gpus", RDP_SKIP, "2 GPU(s), first 0000:19:00.0", NULL);
	doctor_on("broken.xml", "mlx5_0");
	expect("pcie_path", RDP_SKIP, "hwloc could not load", NULL);
	expect("gpus", RDP_SKIP, "hwloc could not load", NULL);
}

static void doctor_local(const char *fixture)
{
	struct rdp_doctor_verbs v = { 1024, 1024 };
	struct rdp_sysfs fs;

	fixture_fs(fixture, &fs);
	rdp_doctor_local(&fs, "mlx5_0", 1, &v, NULL, &doc);
}

static void test_cstates(void **state)
{
	(void)state;
	/* The NIC's CPU 8 is checked, not CPU 0. */
	doctor_local("cstates");
	expect("cstates", RDP_WARN, "CPU 8: deep states enabled: C6 (290 us)",
	       "cpupower idle-set -D 10");
	doctor_local("cstates-off");
	expect("cstates", RDP_PASS, "CPU 8: deepest enabled C1E (2 us)", NULL);
	doctor_local("rxe");
	expect("cstates", RDP_SKIP, "no cpuidle states for CPU 0", NULL);
}

static void test_place_near(void **state)
{
	struct rdp_place_opts o = { 0 };
	struct rdp_placement pl;
	struct rdp_sysfs fs;
	cpu_set_t start, near;
	char err[256];

	(void)state;
	fixture_fs("two-socket", &fs);
	assert_int_equal(rdp_cpulist_parse("0-111", &start), 0);
	/* A sub-NUMA cluster of node 1: narrower than the node. */
	assert_int_equal(rdp_cpulist_parse("28-41,84-97", &near), 0);
	assert_int_equal(rdp_place_plan_near(&fs, &o, 1, &near, &start, &pl,
					     err, sizeof(err)),
			 0);
	assert_int_equal(pl.mode, RDP_PLACE_NIC);
	assert_int_equal(pl.node, 1);
	assert_false(pl.cross_numa);
	list_is(&pl.cpus, "28-41,84-97");
	/* Pinned like that already (a server's next client): still ours. */
	assert_int_equal(rdp_place_plan_near(&fs, &o, 1, &near, &near, &pl, err,
					     sizeof(err)),
			 0);
	assert_int_equal(pl.mode, RDP_PLACE_NIC);
	/* Without the topology: the node from sysfs, as before. */
	assert_int_equal(rdp_place_plan_near(&fs, &o, 1, NULL, &start, &pl, err,
					     sizeof(err)),
			 0);
	list_is(&pl.cpus, "28-55,84-111");
	/* The user's --numa still wins over the topology. */
	o.have_numa = 1;
	o.numa_node = 0;
	assert_int_equal(rdp_place_plan_near(&fs, &o, 1, &near, &start, &pl,
					     err, sizeof(err)),
			 0);
	assert_int_equal(pl.mode, RDP_PLACE_NUMA);
	assert_true(pl.cross_numa);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_errors),
		cmocka_unit_test(test_nic_behind_switch),
		cmocka_unit_test(test_path_format),
		cmocka_unit_test(test_software_nic),
		cmocka_unit_test(test_gpu_distances),
		cmocka_unit_test(test_nearest_gpu),
		cmocka_unit_test(test_live_components),
		cmocka_unit_test(test_doctor_topo_verdicts),
		cmocka_unit_test(test_doctor_topo_software),
		cmocka_unit_test(test_cstates),
		cmocka_unit_test(test_place_near),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
