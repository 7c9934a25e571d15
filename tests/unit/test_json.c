/* SPDX-License-Identifier: BSD-2-Clause */
/* The JSON report: a hand-built context without a device, written to
 * memory, parsed back and checked key by key. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>
#include <jansson.h>

#include <rdmaperf/clock.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/json.h>
#include <rdmaperf/mem.h>
#include <rdmaperf/report.h>

#include "report_ctx.h"

#define EPS 1e-9

static const struct rdp_bench_ops bw_ops = {
	.name = "write_bw",
	.kind = RDP_BENCH_BW,
	.check_unit = "bytes verified after the run",
};

static const struct rdp_bench_ops lat_ops = {
	.name = "write_lat",
	.kind = RDP_BENCH_LAT,
	.lat_note = "one-way latency: half of each measured round trip",
	.lat_kind = RDP_LAT_ONE_WAY,
	.check_unit = "bytes verified after the run",
};

static const struct rdp_bench_ops rt_ops = {
	.name = "read_lat",
	.kind = RDP_BENCH_LAT,
	.lat_note = "round-trip latency of each read (not halved)",
	.check_unit = "bytes verified after the run",
};

/* Each test gets a fresh write_bw context (report_ctx.h) in *state. */
static int fresh_ctx(void **state)
{
	static struct ctx c;

	ctx_init_ops(&c, &bw_ops);
	*state = &c;
	return 0;
}

static struct rdp_result bw_result(void)
{
	return (struct rdp_result){
		.size_bytes = 65536,
		.num_qps = 2,
		.msgs = 2000,
		.elapsed_ns = 25e6,
		.bw_avg_gbps = 41.9430,
		.bw_peak_gbps = 45.5,
		.msg_rate_mpps = 0.08,
		.data_ok = 1,
		.data_checked = 131072,
	};
}

static struct rdp_result lat_result(void)
{
	return (struct rdp_result){
		.size_bytes = 8,
		.num_qps = 1,
		.msgs = 1000,
		.warmup_iters = 100,
		.elapsed_ns = 3.5e6,
		.lat = { .n = 1000,
			 .min_ns = 1500,
			 .max_ns = 9000,
			 .median_ns = 1700,
			 .avg_ns = 1750.5,
			 .stdev_ns = 120.25,
			 .p90_ns = 1900,
			 .p99_ns = 2345,
			 .p999_ns = 5000,
			 .p9999_ns = 8800 },
		.data_ok = 1,
		.data_checked = 14,
	};
}

static json_t *parse(const char *text)
{
	json_error_t err;
	json_t *doc = json_loads(text, 0, &err);

	if (!doc)
		fail_msg("line %d: %s", err.line, err.text);
	assert_true(json_is_object(doc));
	return doc;
}

/* A document for c with the given results, parsed back. */
static json_t *roundtrip(struct ctx *c, const struct rdp_result *bw,
			 const struct rdp_result *lat)
{
	struct rdp_json *j = NULL;
	struct ctx lc = *c;
	json_t *doc;
	char *text;

	assert_int_equal(rdp_json_new(&c->info, &j), 0);
	assert_non_null(j);
	if (bw)
		assert_int_equal(rdp_json_add(j, &c->info, bw), 0);
	if (lat) {
		lc.info.ops = c->info.ops->kind == RDP_BENCH_LAT ? c->info.ops
								 : &lat_ops;
		assert_int_equal(rdp_json_add(j, &lc.info, lat), 0);
	}
	text = ctx_json_text(j);
	assert_non_null(text);
	doc = parse(text);
	free(text);
	rdp_json_free(j);
	return doc;
}

static json_t *path(json_t *doc, const char *obj, const char *key)
{
	json_t *o = json_object_get(doc, obj);
	json_t *v;

	assert_true(json_is_object(o));
	v = json_object_get(o, key);
	if (!v)
		fail_msg("%s.%s missing", obj, key);
	return v;
}

static void assert_str(json_t *v, const char *want)
{
	assert_true(json_is_string(v));
	assert_string_equal(json_string_value(v), want);
}

static void assert_int(json_t *v, json_int_t want)
{
	assert_true(json_is_integer(v));
	assert_int_equal(json_integer_value(v), want);
}

static void assert_real(json_t *v, double want)
{
	assert_true(json_is_real(v));
	assert_float_equal(json_real_value(v), want, EPS * fabs(want) + EPS);
}

static void test_top_level_order(void **state)
{
	static const char *const keys[] = {
		"tool",		  "version",
		"schema_version", "timestamp",
		"client",	  "server",
		"authentication", "device",
		"peer_device",	  "gid",
		"placement",	  "memory",
		"peer_memory",	  "path_mtu_bytes",
		"clock",	  "parameters",
		"results",
	};
	struct rdp_result bw = bw_result();
	const char *key;
	json_t *doc, *v;
	size_t i = 0;

	doc = roundtrip(*state, &bw, NULL);
	json_object_foreach(doc, key, v)
	{
		assert_true(i < sizeof(keys) / sizeof(keys[0]));
		assert_string_equal(key, keys[i]);
		i++;
	}
	assert_int_equal(i, sizeof(keys) / sizeof(keys[0]));
	assert_str(json_object_get(doc, "tool"), "rdmaperf");
	/* Host buffers: no GPU named, registered as host memory. */
	v = json_object_get(doc, "memory");
	assert_str(json_object_get(v, "type"), "host");
	assert_str(json_object_get(v, "registration"), "host");
	assert_true(json_is_null(json_object_get(v, "gpu")));
	assert_true(json_is_false(json_object_get(v, "bounce")));
	v = json_object_get(doc, "peer_memory");
	assert_str(json_object_get(v, "type"), "host");
	assert_true(json_is_null(json_object_get(v, "staging")));
	assert_str(json_object_get(doc, "version"), PACKAGE_VERSION);
	assert_int(json_object_get(doc, "schema_version"), 1);
	assert_int(json_object_get(doc, "path_mtu_bytes"), 1024);
	json_decref(doc);
}

static void test_timestamp(void **state)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";
	struct tm tm = { 0 };
	const char *ts, *end;
	json_t *doc;
	time_t t;
	size_t i;

	doc = roundtrip(*state, NULL, NULL);
	ts = json_string_value(json_object_get(doc, "timestamp"));
	assert_non_null(ts);
	assert_int_equal(strlen(ts), strlen(shape));
	for (i = 0; shape[i]; i++) {
		if (shape[i] == 'd')
			assert_true(ts[i] >= '0' && ts[i] <= '9');
		else
			assert_int_equal(ts[i], shape[i]);
	}
	end = strptime(ts, "%Y-%m-%dT%H:%M:%SZ", &tm);
	assert_non_null(end);
	assert_int_equal(*end, '\0');
	t = timegm(&tm);
	assert_true(llabs((long long)(time(NULL) - t)) < 120);
	json_decref(doc);
}

static void test_hosts_and_devices(void **state)
{
	json_t *doc = roundtrip(*state, NULL, NULL);

	assert_str(path(doc, "client", "hostname"), "client-a");
	assert_str(path(doc, "client", "kernel"), "6.1.0-18-amd64");
	assert_str(path(doc, "server", "hostname"), "server-b");
	assert_str(path(doc, "server", "kernel"), "6.8.0-45-generic");
	assert_str(path(doc, "server", "rdmaperf_version"), "0.0.9");
	assert_str(path(doc, "server", "address"), "192.0.2.10:18515");

	assert_str(path(doc, "device", "name"), "mlx5_0");
	assert_str(path(doc, "device", "firmware"), "28.39.1002");
	assert_int(path(doc, "device", "port"), 1);
	assert_str(path(doc, "device", "link_layer"), "Ethernet");
	assert_str(path(doc, "device", "port_state"), "ACTIVE");
	assert_int(path(doc, "device", "active_speed"), 64);
	assert_int(path(doc, "device", "active_width"), 2);
	assert_int(path(doc, "device", "lanes"), 4); /* width code 2 */
	assert_real(path(doc, "device", "link_gbps"), 200.0);
	assert_real(path(doc, "device", "line_rate_gbps"), 200.0);
	assert_int(path(doc, "device", "active_mtu_bytes"), 4096);
	assert_int(path(doc, "device", "numa_node"), 1);

	assert_str(path(doc, "peer_device", "name"), "rxe0");
	assert_int(path(doc, "peer_device", "port"), 1);
	assert_int(path(doc, "peer_device", "active_mtu_bytes"), 1024);
	assert_int(path(doc, "peer_device", "numa_node"), 0);
	assert_int(path(doc, "peer_device", "gid_index"), 1);
	assert_str(path(doc, "peer_device", "gid_type"), "RoCE v2");

	assert_int(path(doc, "gid", "index"), 3);
	assert_str(path(doc, "gid", "type"), "RoCE v2");
	assert_str(path(doc, "gid", "address"), "::ffff:192.0.2.10");
	assert_str(path(doc, "gid", "chosen_because"),
		   "matches the out-of-band address");
	assert_str(path(doc, "clock", "source"), "tsc");
	assert_real(path(doc, "clock", "cycles_per_ns"), 2.5);
	json_decref(doc);
}

static void test_no_gid_unknowns_null(void **state)
{
	struct ctx *c = *state;
	json_t *doc;

	c->conn.have_gid = 0;
	c->dev.numa_node = -1;
	c->dev.port.link_layer = IBV_LINK_LAYER_INFINIBAND;
	c->dev.port.active_speed = 3; /* not a verbs speed code */
	c->peer.gid_index = -1;
	c->peer.numa_node = -1;
	doc = roundtrip(c, NULL, NULL);
	assert_true(json_is_null(json_object_get(doc, "gid")));
	assert_true(json_is_null(path(doc, "device", "numa_node")));
	assert_str(path(doc, "device", "link_layer"), "InfiniBand");
	assert_null(
		json_object_get(json_object_get(doc, "device"), "link_gbps"));
	/* width code 2 is still 4 lanes; an unknown one is left out */
	assert_int(path(doc, "device", "lanes"), 4);
	assert_true(json_is_null(path(doc, "peer_device", "gid_index")));
	assert_true(json_is_null(path(doc, "peer_device", "gid_type")));
	assert_true(json_is_null(path(doc, "peer_device", "numa_node")));
	json_decref(doc);
}

/* The memory object reads the connection's registered buffer: a GPU
 * buffer names its GPU, its registration path and the whole DMA-BUF note;
 * a connection without one (a fake engine's) is host memory. */
static void test_memory(void **state)
{
	static const char note[] = "rxe0 refused the DMA-BUF region: the "
				   "kernel or driver lacks dma-buf support";
	struct rdp_mem gpu = { .ops = &rdp_mem_cuda,
			       .desc = "GPU 0 Fake",
			       .bus_id = "0000:3b:00.0" };
	struct rdp_mem_buf mb = { .mem = &gpu, .path = RDP_MEM_PATH_PEERMEM };
	struct ctx *c = *state;
	json_t *doc = roundtrip(c, NULL, NULL);

	assert_str(path(doc, "memory", "type"), "host");
	assert_str(path(doc, "memory", "registration"), "host");
	assert_true(json_is_null(path(doc, "memory", "dmabuf_note")));
	json_decref(doc);
	snprintf(mb.note, sizeof(mb.note), "%s", note);
	c->dev.mem = &gpu;
	c->conn.mb = &mb;
	doc = roundtrip(c, NULL, NULL);
	assert_str(path(doc, "memory", "type"), "cuda");
	assert_str(path(doc, "memory", "gpu_bus_id"), "0000:3b:00.0");
	assert_str(path(doc, "memory", "registration"), "peermem");
	assert_str(path(doc, "memory", "dmabuf_note"), note);
	json_decref(doc);
}

static void test_parameters(void **state)
{
	struct ctx *c = *state;
	json_t *doc = roundtrip(c, NULL, NULL);

	assert_str(path(doc, "parameters", "test"), "write_bw");
	assert_int(path(doc, "parameters", "size_bytes"), 65536);
	assert_int(path(doc, "parameters", "iterations"), 1000);
	assert_true(json_is_null(path(doc, "parameters", "duration_s")));
	assert_int(path(doc, "parameters", "warmup_iters"), 100);
	assert_int(path(doc, "parameters", "num_qps"), 2);
	assert_int(path(doc, "parameters", "tx_depth"), 128);
	assert_int(path(doc, "parameters", "cq_mod"), 100);
	assert_int(path(doc, "parameters", "rx_depth"), 512);
	assert_true(json_is_null(path(doc, "parameters", "outstanding")));
	assert_true(json_is_null(path(doc, "parameters", "mtu_bytes")));
	assert_int(path(doc, "parameters", "tclass"), 96);
	assert_int(path(doc, "parameters", "seed"), 7);
	assert_true(json_is_false(path(doc, "parameters", "grh")));
	assert_str(path(doc, "parameters", "atomic"), "compare_and_swap");
	json_decref(doc);

	c->params.iters = 0;
	c->params.duration_s = 30;
	c->params.outstanding = 16;
	c->params.mtu_bytes = 2048;
	c->params.flags = RDP_PARAM_GRH;
	doc = roundtrip(c, NULL, NULL);
	assert_true(json_is_null(path(doc, "parameters", "iterations")));
	assert_int(path(doc, "parameters", "duration_s"), 30);
	assert_int(path(doc, "parameters", "outstanding"), 16);
	assert_int(path(doc, "parameters", "mtu_bytes"), 2048);
	assert_true(json_is_true(path(doc, "parameters", "grh")));
	assert_str(path(doc, "parameters", "atomic"), "fetch_and_add");
	json_decref(doc);
}

static void test_results(void **state)
{
	struct rdp_result bw = bw_result(), lat = lat_result();
	json_t *doc = roundtrip(*state, &bw, &lat), *res, *e, *chk;

	res = json_object_get(doc, "results");
	assert_true(json_is_array(res));
	assert_int_equal(json_array_size(res), 2);

	e = json_array_get(res, 0);
	assert_str(json_object_get(e, "test"), "write_bw");
	assert_str(json_object_get(e, "kind"), "bandwidth");
	assert_int(json_object_get(e, "size_bytes"), 65536);
	assert_int(json_object_get(e, "num_qps"), 2);
	assert_int(json_object_get(e, "iterations"), 2000);
	assert_int(json_object_get(e, "warmup_iters"), 0);
	assert_real(json_object_get(e, "elapsed_s"), 0.025);
	assert_real(json_object_get(e, "bw_avg_gbps"), 41.943);
	assert_real(json_object_get(e, "bw_peak_gbps"), 45.5);
	assert_real(json_object_get(e, "bw_avg_mibps"), 41.943e9 / 8 / 1048576);
	assert_real(json_object_get(e, "msg_rate_mpps"), 0.08);
	assert_null(json_object_get(e, "lat_p99_us"));
	chk = json_object_get(e, "data_check");
	assert_true(json_is_true(json_object_get(chk, "ok")));
	assert_int(json_object_get(chk, "checked"), 131072);
	assert_str(json_object_get(chk, "unit"),
		   "bytes verified after the run");

	e = json_array_get(res, 1);
	assert_str(json_object_get(e, "test"), "write_lat");
	assert_str(json_object_get(e, "kind"), "latency");
	assert_str(json_object_get(e, "latency_kind"), "one-way");
	assert_int(json_object_get(e, "warmup_iters"), 100);
	assert_real(json_object_get(e, "lat_min_us"), 1.5);
	assert_real(json_object_get(e, "lat_max_us"), 9.0);
	assert_real(json_object_get(e, "lat_p50_us"), 1.7);
	assert_real(json_object_get(e, "lat_avg_us"), 1.7505);
	assert_real(json_object_get(e, "lat_stdev_us"), 0.12025);
	assert_real(json_object_get(e, "lat_p90_us"), 1.9);
	assert_real(json_object_get(e, "lat_p99_us"), lat.lat.p99_ns / 1000);
	assert_real(json_object_get(e, "lat_p999_us"), 5.0);
	assert_real(json_object_get(e, "lat_p9999_us"), 8.8);
	assert_int(json_object_get(e, "lat_samples"), 1000);
	assert_null(json_object_get(e, "bw_avg_gbps"));
	assert_int(json_object_get(json_object_get(e, "data_check"), "checked"),
		   14);
	json_decref(doc);
}

static void test_round_trip_and_guards(void **state)
{
	struct ctx *c = *state;
	struct rdp_result bw = bw_result(), lat = lat_result();
	json_t *doc, *res, *e;

	c->info.ops = &rt_ops;
	bw.bw_avg_gbps = NAN;
	bw.bw_peak_gbps = INFINITY;
	bw.data_ok = 0;
	lat.lat.n = 0;
	doc = roundtrip(c, NULL, &lat);
	e = json_array_get(json_object_get(doc, "results"), 0);
	assert_str(json_object_get(e, "test"), "read_lat");
	assert_str(json_object_get(e, "latency_kind"), "round-trip");
	assert_true(json_is_null(json_object_get(e, "lat_p99_us")));
	assert_int(json_object_get(e, "lat_samples"), 0);
	json_decref(doc);

	c->info.ops = &bw_ops;
	doc = roundtrip(c, &bw, NULL);
	res = json_object_get(doc, "results");
	e = json_array_get(res, 0);
	assert_true(json_is_null(json_object_get(e, "bw_avg_gbps")));
	assert_true(json_is_null(json_object_get(e, "bw_avg_mibps")));
	assert_true(json_is_null(json_object_get(e, "bw_peak_gbps")));
	assert_true(json_is_false(
		json_object_get(json_object_get(e, "data_check"), "ok")));
	json_decref(doc);
}

static void test_hostile_text(void **state)
{
	struct ctx *c = *state;
	json_t *doc;

	/* Not UTF-8, and filling the field with no terminator. */
	memset(c->peer_hello.hostname, 'h', sizeof(c->peer_hello.hostname));
	c->peer_hello.hostname[1] = (char)0xff;
	strcpy(c->peer_hello.kernel, "a\"b\\c\n");
	doc = roundtrip(c, NULL, NULL);
	assert_int_equal(
		strlen(json_string_value(path(doc, "server", "hostname"))),
		sizeof(c->peer_hello.hostname));
	assert_int_equal(json_string_value(path(doc, "server", "hostname"))[1],
			 '?');
	assert_str(path(doc, "server", "kernel"), "a\"b\\c\n");
	json_decref(doc);
}

static void test_text_format(void **state)
{
	struct ctx *c = *state;
	struct rdp_result bw = bw_result();
	struct rdp_json *j = NULL;
	char *text;
	size_t len;

	assert_int_equal(rdp_json_new(&c->info, &j), 0);
	assert_int_equal(rdp_json_add(j, &c->info, &bw), 0);
	text = ctx_json_text(j);
	assert_non_null(text);
	len = strlen(text);
	assert_true(len > 2);
	assert_int_equal(text[0], '{');
	assert_int_equal(text[len - 1], '\n');
	assert_int_equal(text[len - 2], '}');
	assert_non_null(strstr(text, "\n  \"tool\": \"rdmaperf\",\n"));
	assert_null(strstr(text, "NaN"));
	free(text);
	rdp_json_free(j);
	rdp_json_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_top_level_order, fresh_ctx),
		cmocka_unit_test_setup(test_timestamp, fresh_ctx),
		cmocka_unit_test_setup(test_hosts_and_devices, fresh_ctx),
		cmocka_unit_test_setup(test_no_gid_unknowns_null, fresh_ctx),
		cmocka_unit_test_setup(test_memory, fresh_ctx),
		cmocka_unit_test_setup(test_parameters, fresh_ctx),
		cmocka_unit_test_setup(test_results, fresh_ctx),
		cmocka_unit_test_setup(test_round_trip_and_guards, fresh_ctx),
		cmocka_unit_test_setup(test_hostile_text, fresh_ctx),
		cmocka_unit_test_setup(test_text_format, fresh_ctx),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
