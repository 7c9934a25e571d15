/* SPDX-License-Identifier: BSD-2-Clause */
/* The session's edge: wire messages into the program's own structs and
 * back, each array within both bounds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <rdmaperf/counters.h>
#include <rdmaperf/convert.h>
#include <rdmaperf/peer.h>
#include <rdmaperf/wire.h>

/* The wire takes the non-zero ones first when all do not fit. */
static void test_counters_to_result(void **state)
{
	static struct rdp_msg_result r;
	static struct rdp_counters d;
	struct rdp_ctr_pair *p = calloc(1, sizeof(*p));
	size_t i;

	(void)state;
	assert_non_null(p);
	d.n = RDP_WIRE_MAX_COUNTERS + 10;
	for (i = 0; i < d.n; i++) {
		snprintf(d.c[i].name, sizeof(d.c[i].name), "c%zu", i);
		d.c[i].value = i >= RDP_WIRE_MAX_COUNTERS ? i : 0;
	}
	rdp_ctr_to_result(&d, &r);
	assert_int_equal(r.n_counters, RDP_WIRE_MAX_COUNTERS);
	for (i = 0; i < 10; i++)
		assert_int_equal(r.counters[i].value,
				 RDP_WIRE_MAX_COUNTERS + i);
	rdp_ctr_from_result(p, &r);
	assert_true(p->have_peer);
	assert_int_equal(p->peer.n, RDP_WIRE_MAX_COUNTERS);
	assert_string_equal(p->peer.c[0].name, "c64");
	free(p);
}

/* A count past the message's array (never decoded so) reads no further
 * than the array: the copy has its own bound, not the decoder's. */
static void test_counters_count_past_array(void **state)
{
	static struct rdp_msg_result r;
	struct rdp_ctr_pair *p = calloc(1, sizeof(*p));
	static struct rdp_counters d;

	(void)state;
	assert_non_null(p);
	r.n_counters = RDP_COUNTERS_MAX;
	memset(r.counters[0].name, 'x', sizeof(r.counters[0].name));
	rdp_ctr_from_result(p, &r);
	assert_int_equal(p->peer.n, RDP_WIRE_MAX_COUNTERS);
	/* an unterminated name comes out as a string */
	assert_int_equal(strlen(p->peer.c[0].name),
			 sizeof(p->peer.c[0].name) - 1);
	d.n = (size_t)-1; /* a count past the model's array */
	rdp_ctr_to_result(&d, &r);
	assert_int_equal(r.n_counters, RDP_WIRE_MAX_COUNTERS);
	free(p);
}

static void test_host_from_hello(void **state)
{
	struct rdp_msg_hello h;
	struct rdp_host_info out;

	(void)state;
	memset(&h, 'a', sizeof(h)); /* no terminator anywhere */
	snprintf(h.tool_version, sizeof(h.tool_version), "0.9");
	snprintf(h.cpu_model, sizeof(h.cpu_model), "Test CPU @ 3 GHz");
	h.cpus = 12;
	rdp_host_from_hello(&h, &out);
	assert_string_equal(out.tool_version, "0.9");
	assert_string_equal(out.cpu_model, "Test CPU @ 3 GHz");
	assert_int_equal(strlen(out.hostname), sizeof(out.hostname) - 1);
	assert_int_equal(strlen(out.kernel), sizeof(out.kernel) - 1);
	assert_int_equal(out.cpus, 12);
}

static void test_peer_from_accept(void **state)
{
	struct rdp_msg_accept a;
	struct rdp_peer_info out;

	(void)state;
	memset(&a, 0, sizeof(a));
	snprintf(a.device, sizeof(a.device), "rxe1");
	a.port = 2;
	a.link_layer = 2;
	a.gid_type = 1;
	a.gid_index = 3;
	a.active_mtu_bytes = 1024;
	a.numa_node = -1;
	a.cpu = 7;
	a.cm_port = 4791;
	a.place_mode = 9; /* from a newer peer */
	a.cross_numa = 5;
	a.place_node = 1;
	snprintf(a.cpus, sizeof(a.cpus), "4-7");
	a.mem_kind = 2;
	a.mem_path = 1;
	a.mem_stage = 2;
	memset(a.mem_gpu, 'g', sizeof(a.mem_gpu));
	snprintf(a.mem_bus_id, sizeof(a.mem_bus_id), "0000:3b:00.0");
	rdp_peer_from_accept(&a, &out);
	assert_string_equal(out.device, "rxe1");
	assert_int_equal(out.port, 2);
	assert_int_equal(out.link_layer, 2);
	assert_int_equal(out.gid_type, 1);
	assert_int_equal(out.gid_index, 3);
	assert_int_equal(out.active_mtu_bytes, 1024);
	assert_int_equal(out.numa_node, -1);
	assert_int_equal(out.cpu, 7);
	assert_int_equal(out.place.mode, 9);
	assert_int_equal(out.place.cross_numa, 1);
	assert_int_equal(out.place.node, 1);
	assert_string_equal(out.place.cpus, "4-7");
	assert_int_equal(out.mem.kind, 2);
	assert_int_equal(out.mem.path, 1);
	assert_int_equal(out.mem.stage, 2);
	assert_int_equal(strlen(out.mem.gpu), sizeof(out.mem.gpu) - 1);
	assert_string_equal(out.mem.bus_id, "0000:3b:00.0");
}

/* A figure past the wire's range saturates: a cast would be undefined
 * there (a sanitizer stops on it). */
static void test_wire_count_saturates(void **state)
{
	(void)state;
	assert_int_equal(rdp_wire_count(0.0), 0);
	assert_int_equal(rdp_wire_count(-5.0), 0);
	assert_int_equal(rdp_wire_count(NAN), 0);
	assert_int_equal(rdp_wire_count(12345.9), 12345);
	assert_true(rdp_wire_count(1.83654e+21) == UINT64_MAX);
	assert_true(rdp_wire_count(INFINITY) == UINT64_MAX);
	assert_true(rdp_wire_count(9007199254740992.0) == 9007199254740992ull);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counters_to_result),
		cmocka_unit_test(test_counters_count_past_array),
		cmocka_unit_test(test_host_from_hello),
		cmocka_unit_test(test_peer_from_accept),
		cmocka_unit_test(test_wire_count_saturates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
