/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Golden reports: fixed results, hosts, CPU, clock and time in; the text
 * report and the JSON document compared byte for byte with the files in
 * tests/fixtures/golden/. RDP_GOLDEN_UPDATE=1 rewrites them (review the
 * diff before committing).
 */
#include <errno.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>

#include <rdmaperf/clock.h>
#include <rdmaperf/counters.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/json.h>
#include <rdmaperf/placement.h>
#include <rdmaperf/report.h>
#include <rdmaperf/sink.h>
#include <rdmaperf/stage.h>
#include <rdmaperf/verdict.h>

#include "report_ctx.h"

#define VERSION_MARK "@VERSION@"

static void add_counter(struct rdp_counters *d, const char *name, int hw,
			uint64_t value)
{
	struct rdp_counter *c = &d->c[d->n++];

	snprintf(c->name, sizeof(c->name), "%s", name);
	c->hw = (uint8_t)hw;
	c->value = value;
}

/* What each side's buffer allows in the test as c's parameters ask. */
static void ctx_access(struct ctx *c)
{
	c->conn.mr_access =
		rdp_bench_access(c->info.ops, &c->params, RDP_SIDE_CLIENT);
	c->peer.mem.access = (uint32_t)rdp_bench_access(c->info.ops, &c->params,
							RDP_SIDE_SERVER);
}

/* A RoCE v2 port at 200 Gb/s, placed, the peer on a GPU. */
static void ctx_bw(struct ctx *c, const char *test)
{
	ctx_init_ops(c, rdp_bench_find(test));
	assert_non_null(c->info.ops);
	strcpy(c->local.cpu_model, "Client CPU 8C @ 3.0GHz");
	c->local.cpus = 16;
	strcpy(c->peer_hello.cpu_model, "Server CPU 32C @ 2.4GHz");
	c->peer_hello.cpus = 64;
	c->conn.max_inline_bytes = 220;
	c->conn.max_rd_atomic = 16;
	c->peer.cpu = 5;
	c->peer.place = (struct rdp_peer_place){
		.mode = RDP_PLACE_CPU, .cross_numa = 1, .node = 1, .cpus = "4-7"
	};
	c->peer.mem = (struct rdp_peer_mem){
		.kind = RDP_MEM_KIND_GPU,
		.path = RDP_MEM_PATH_DMABUF,
		.gpu = "GPU 0 Fake H200 (0000:3b:00.0)",
		.bus_id = "0000:3b:00.0",
	};
	c->place.mode = RDP_PLACE_NIC;
	c->place.nic_node = 1;
	c->place.node = 1;
	c->place.mem_bound = 1;
	CPU_ZERO(&c->place.cpus);
	CPU_SET(8, &c->place.cpus);
	CPU_SET(9, &c->place.cpus);
	CPU_SET(10, &c->place.cpus);
	c->params.outstanding = 8;
	c->params.flags = RDP_PARAM_RDMA_CM | RDP_PARAM_BIDIR;
	snprintf(c->params.test, sizeof(c->params.test), "%s", test);
	c->ctr.have_local = c->ctr.have_peer = 1;
	add_counter(&c->ctr.local, "port_xmit_data", 0, 33554432);
	add_counter(&c->ctr.local, "port_rcv_data", 0, 0);
	add_counter(&c->ctr.local, "np_cnp_sent", 1, 12);
	add_counter(&c->ctr.peer, "port_rcv_data", 0, 33554400);
	add_counter(&c->ctr.peer, "out_of_sequence", 1, 3);
	c->info.cpu = 9;
	c->info.now = 1700000000; /* 2023-11-14T22:13:20Z */
	c->info.n_sizes = 2;
	c->info.n_qps = 1;
	c->info.placement = &c->place;
	c->info.counters = &c->ctr;
	ctx_access(c);
	rdp_bench_decide(c->info.ops, &c->params, &c->conn, &c->dec);
}

/* An InfiniBand port of unknown speed, no GID, host memory both sides,
 * nothing known of the placement. */
static void ctx_lat(struct ctx *c, const char *test)
{
	ctx_bw(c, test);
	c->dev.port.link_layer = IBV_LINK_LAYER_INFINIBAND;
	c->dev.port.lid = 7;
	c->dev.port.active_speed = 0;
	c->dev.port.active_width = 0;
	c->dev.numa_node = -1;
	c->conn.have_gid = 0;
	c->peer.gid_index = -1;
	c->peer.numa_node = -1;
	c->peer.cpu = -1;
	c->peer.place =
		(struct rdp_peer_place){ .mode = RDP_PLACE_NONE, .node = -1 };
	c->peer.mem = (struct rdp_peer_mem){ .kind = RDP_MEM_KIND_HOST };
	c->params.size_bytes = 64;
	c->params.num_qps = 1;
	c->params.tx_depth = 32;
	c->params.cq_mod = 16;
	c->params.flags = 0;
	c->params.duration_s = 0;
	c->info.placement = NULL;
	c->info.counters = NULL;
	c->info.n_sizes = 1;
	c->info.cpu = -1;
	ctx_access(c);
	rdp_bench_decide(c->info.ops, &c->params, &c->conn, &c->dec);
}

static struct rdp_result bw_result(const struct ctx *c, uint64_t size,
				   double avg_gbps)
{
	static uint64_t bytes[3];
	struct rdp_result r = {
		.size_bytes = size,
		.num_qps = 2,
		.msgs = 2000,
		.warmup_iters = 100,
		.elapsed_ns = 25e6,
		.bw_avg_gbps = avg_gbps,
		.bw_peak_gbps = avg_gbps * 1.1,
		.msg_rate_mpps = avg_gbps / 8 / (double)size * 1e3,
		.data_ok = 1,
		.data_checked = 2000 * size,
		.interval_bytes = bytes,
		.n_intervals = 3,
		.interval_s = 0.5,
		.bidir = 1,
		.rx_msgs = 1990,
		.rx_bw_avg_gbps = avg_gbps * 0.9,
		.rx_bw_peak_gbps = avg_gbps,
		.rx_msg_rate_mpps = 0.07,
		.dec = c->dec,
	};

	bytes[0] = 5000000000ull;
	bytes[1] = 6250000000ull;
	bytes[2] = 0;
	return r;
}

static struct rdp_result lat_result(const struct ctx *c)
{
	struct rdp_result r = {
		.size_bytes = 64,
		.num_qps = 1,
		.msgs = 10000,
		.warmup_iters = 1000,
		.elapsed_ns = 18e6,
		.lat = { .n = 10000,
			 .min_ns = 1500,
			 .max_ns = 25300,
			 .median_ns = 1720,
			 .avg_ns = 1801.5,
			 .stdev_ns = 210.25,
			 .p90_ns = 1900,
			 .p99_ns = 2950,
			 .p999_ns = 9100,
			 .p9999_ns = 21000 },
		.data_ok = 1,
		.data_checked = 640000,
		.hist_lo_ns = 1500,
		.hist_hi_ns = 2950,
		.dec = c->dec,
	};
	size_t b;

	for (b = 0; b <= RDP_HIST_BUCKETS; b++)
		r.hist[b] = b < 4 ? 1000 * (b + 1) : 100 / (b + 1);
	return r;
}

/* in with every "from" replaced by "to"; the caller frees. */
static char *replace_all(const char *in, const char *from, const char *to)
{
	size_t fl = strlen(from), tl = strlen(to), n = strlen(in) + 1;
	const char *s, *m;
	char *out, *o;

	for (s = in; (m = strstr(s, from)); s = m + fl)
		n += tl;
	out = o = malloc(n);
	assert_non_null(out);
	for (s = in; (m = strstr(s, from)); s = m + fl) {
		memcpy(o, s, (size_t)(m - s));
		o += m - s;
		memcpy(o, to, tl);
		o += tl;
	}
	strcpy(o, s);
	return out;
}

/* This build's version where a report prints it (after "rdmaperf " in
 * text, as "version" in JSON) becomes VERSION_MARK, and back. */
static char *mark_version(const char *text)
{
	static const char *const before[] = { "rdmaperf ", "\"version\": \"" };
	char from[64], to[64], *cur = strdup(text), *next;
	size_t i;

	assert_non_null(cur);
	for (i = 0; i < 2; i++) {
		snprintf(from, sizeof(from), "%s%s", before[i],
			 PACKAGE_VERSION);
		snprintf(to, sizeof(to), "%s%s", before[i], VERSION_MARK);
		next = replace_all(cur, from, to);
		free(cur);
		cur = next;
	}
	return cur;
}

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0, len;

	if (!f)
		return NULL;
	len = (size_t)getdelim(&buf, &cap, '\0', f);
	fclose(f);
	return len == (size_t)-1 ? strdup("") : buf;
}

/* Compare with the golden file NAME, or rewrite it when asked. */
static void golden(const char *name, const char *actual)
{
	char path[512], *marked, *want, *expected;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", RDP_GOLDEN_DIR, name);
	marked = mark_version(actual);
	if (getenv("RDP_GOLDEN_UPDATE")) {
		f = fopen(path, "w");
		assert_non_null(f);
		fputs(marked, f);
		assert_int_equal(fclose(f), 0);
	}
	free(marked);
	want = read_all(path);
	if (!want)
		fail_msg("%s: %s; RDP_GOLDEN_UPDATE=1 writes it", path,
			 strerror(errno));
	expected = replace_all(want, VERSION_MARK, PACKAGE_VERSION);
	if (strcmp(expected, actual)) {
		print_error("--- %s\n%s+++ this build\n%s", path, expected,
			    actual);
		fail_msg("%s differs from the report (shown above); if the "
			 "change is meant, RDP_GOLDEN_UPDATE=1 rewrites it",
			 path);
	}
	free(expected);
	free(want);
}

typedef void (*print_fn)(FILE *f, struct ctx *c);

static char *capture(print_fn fn, struct ctx *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f, c);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void print_read_bw(FILE *f, struct ctx *c)
{
	struct rdp_result r1 = bw_result(c, 65536, 41.943);
	struct rdp_result r2 = bw_result(c, 1048576, 187.5);
	struct rdp_verdict v = {
		.lim = { .min_bw_gbps = 50, .bw_opt = "--min-bw" },
		.line_gbps = 200,
		.is_bw = 1,
	};

	struct rdp_text_sink_cfg cfg = { 0 };
	struct rdp_report_summary sum = { .n = 2 };
	struct rdp_report_sinks l = { 0 };
	struct rdp_report_sink *s;

	/* As a session hands them out: through the text and verdict sinks. */
	assert_int_equal(rdp_text_sink_create(f, &cfg, &s), 0);
	assert_int_equal(rdp_sinks_add(&l, s), 0);
	assert_int_equal(rdp_verdict_sink_create(&v, f, NULL, &s), 0);
	assert_int_equal(rdp_sinks_add(&l, s), 0);
	assert_int_equal(rdp_sinks_begin(&l, &c->info), 0);
	rdp_sinks_start(&l, &c->info, 1);
	assert_int_equal(rdp_sinks_point(&l, &c->info, &r1), 0);
	c->ctr.same_port = 1;
	rdp_sinks_start(&l, &c->info, 0);
	assert_int_equal(rdp_sinks_point(&l, &c->info, &r2), 0);
	assert_int_equal(rdp_sinks_end(&l, &c->info, &sum), 0);
	assert_int_equal(rdp_sinks_close(&l, &c->info), 0);
	assert_int_equal(sum.n_failed, 1);
	rdp_sinks_free(&l);
}

static void test_read_bw_text(void **state)
{
	struct ctx c;
	char *t;

	(void)state;
	ctx_bw(&c, "read_bw");
	t = capture(print_read_bw, &c);
	golden("read_bw.txt", t);
	free(t);
}

static void print_write_bw_gbits(FILE *f, struct ctx *c)
{
	struct rdp_result r = bw_result(c, 4096, 97.25);

	r.bidir = 0;
	r.n_intervals = 0;
	rdp_report_header(f, &c->info);
	rdp_report_table_head(f, &c->info);
	rdp_report_row(f, &c->info, &r);
	r.msg_rate_mpps = 12.5; /* the line-rate column shifts by one */
	rdp_report_row(f, &c->info, &r);
	rdp_report_footer(f, &c->info);
	/* A port of unknown speed: no line-rate column. */
	c->dev.port.active_speed = 0;
	rdp_report_table_head(f, &c->info);
	rdp_report_row(f, &c->info, &r);
}

/* Gb/s, one point, host memory on both sides, -o left to the device. */
static void test_write_bw_gbits_text(void **state)
{
	struct ctx c;
	char *t;

	(void)state;
	ctx_bw(&c, "write_bw");
	c.info.gbits = 1;
	c.info.n_sizes = 1;
	c.params.size_bytes = 4096;
	c.params.flags = 0;
	c.params.duration_s = 10;
	c.peer.mem = (struct rdp_peer_mem){ .kind = RDP_MEM_KIND_HOST };
	ctx_access(&c);
	rdp_bench_decide(c.info.ops, &c.params, &c.conn, &c.dec);
	t = capture(print_write_bw_gbits, &c);
	golden("write_bw_gbits.txt", t);
	free(t);
}

/* --threads 2 -q 4: a row per thread, then the sum over the window both
 * ran in, in text and JSON. */
static struct rdp_thread_result thread_rows[2] = {
	{ 0, 2, 0, 600000, 0.0, 2.0, 2e9, 0.1536, 0.16, 0.3 },
	{ 2, 2, 1, 580000, 0.004, 2.01, 2.006e9, 0.1480, 0.155, 0.289 },
};

static struct rdp_result threads_result(struct ctx *c)
{
	struct rdp_result r = bw_result(c, 64, 0.3);

	r.bidir = 0;
	r.n_intervals = 0;
	r.num_qps = 4;
	r.msgs = 1180000;
	r.threads = thread_rows;
	r.n_threads = 2;
	r.window_start_s = 0.004;
	r.window_end_s = 2.0;
	r.overlap_pct = 99.3;
	r.window_msgs = 1175123;
	return r;
}

static void print_threads(FILE *f, struct ctx *c)
{
	struct rdp_result r = threads_result(c);

	rdp_report_header(f, &c->info);
	rdp_report_table_head(f, &c->info);
	rdp_report_row(f, &c->info, &r);
}

static void threads_ctx(struct ctx *c)
{
	ctx_bw(c, "write_bw");
	c->params.size_bytes = 64;
	c->params.num_qps = 4;
	c->params.threads = 2;
	c->params.flags = 0;
	c->info.n_sizes = 1;
	c->peer.mem = (struct rdp_peer_mem){ .kind = RDP_MEM_KIND_HOST };
	ctx_access(c);
	rdp_bench_decide(c->info.ops, &c->params, &c->conn, &c->dec);
}

static void test_threads_text(void **state)
{
	struct ctx c;
	char *t;

	(void)state;
	threads_ctx(&c);
	t = capture(print_threads, &c);
	golden("write_bw_threads.txt", t);
	free(t);
}

static void test_threads_json(void **state)
{
	struct rdp_json *j = NULL;
	struct rdp_result r;
	struct ctx c;
	char *t;

	(void)state;
	threads_ctx(&c);
	r = threads_result(&c);
	c.info.counters = NULL;
	assert_int_equal(rdp_json_new(&c.info, &j), 0);
	assert_int_equal(rdp_json_add(j, &c.info, &r), 0);
	t = ctx_json_text(j);
	assert_non_null(t);
	golden("write_bw_threads.json", t);
	free(t);
	rdp_json_free(j);
}

static void print_lat(FILE *f, struct ctx *c)
{
	struct rdp_result r = lat_result(c);
	struct rdp_verdict v = {
		.lim = { .lat = { { RDP_LAT_P99, 2500 } }, .n_lat = 1 },
	};

	rdp_report_header(f, &c->info);
	rdp_report_table_head(f, &c->info);
	rdp_report_row(f, &c->info, &r);
	rdp_report_histogram(f, &c->info, &r);
	rdp_verdict_point(&v, f, &r, NULL, NULL);
	rdp_report_footer(f, &c->info);
	rdp_verdict_finish(&v, f, NULL);
}

static void test_write_lat_text(void **state)
{
	struct ctx c;
	char *t;

	(void)state;
	ctx_lat(&c, "write_lat");
	t = capture(print_lat, &c);
	golden("write_lat.txt", t);
	free(t);
}

/* The inline decision as the loop took it: too big for the QP. */
static void test_send_lat_not_inline_text(void **state)
{
	struct ctx c;
	char *t;

	(void)state;
	ctx_lat(&c, "send_lat");
	c.params.size_bytes = 4096;
	rdp_bench_decide(c.info.ops, &c.params, &c.conn, &c.dec);
	assert_false(c.dec.inline_used);
	t = capture(print_lat, &c);
	golden("send_lat.txt", t);
	free(t);
}

/* One read at a time, each signaled: what the round-trip loop does. */
static void test_read_lat_text(void **state)
{
	struct ctx c;
	char *t;

	(void)state;
	ctx_lat(&c, "read_lat");
	assert_int_equal(c.dec.window, 1);
	assert_int_equal(c.dec.signal_every, 1);
	t = capture(print_lat, &c);
	golden("read_lat.txt", t);
	free(t);
}

static void test_read_bw_json(void **state)
{
	struct rdp_json *j = NULL;
	struct ctx c;
	struct rdp_result r1, r2;
	char *t;

	(void)state;
	ctx_bw(&c, "read_bw");
	r1 = bw_result(&c, 65536, 41.943);
	r2 = bw_result(&c, 1048576, 187.5);
	r2.bidir = 0;
	r2.n_intervals = 0;
	/* Both sides' CPU on the first point: 0.5 s busy over 2 s for its
	 * messages; the server's host busy share unknown. */
	r1.cpu = (struct rdp_cpu_cost){ 1, 2.0, 0.375, 0.125, 51.5 };
	r1.peer_cpu = (struct rdp_cpu_cost){ 1, 2.0, 0.0, 0.01, -1 };
	assert_int_equal(rdp_json_new(&c.info, &j), 0);
	assert_int_equal(rdp_json_add(j, &c.info, &r1), 0);
	c.info.counters = NULL;
	assert_int_equal(rdp_json_add(j, &c.info, &r2), 0);
	t = ctx_json_text(j);
	assert_non_null(t);
	golden("read_bw.json", t);
	free(t);
	rdp_json_free(j);
}

static void test_write_lat_json(void **state)
{
	struct rdp_json *j = NULL;
	struct ctx c;
	struct rdp_result r;
	char *t;

	(void)state;
	ctx_lat(&c, "write_lat");
	r = lat_result(&c);
	assert_int_equal(rdp_json_new(&c.info, &j), 0);
	assert_int_equal(rdp_json_add(j, &c.info, &r), 0);
	r.lat.n = 0; /* a point without samples: statistics null */
	assert_int_equal(rdp_json_add(j, &c.info, &r), 0);
	t = ctx_json_text(j);
	assert_non_null(t);
	golden("write_lat.json", t);
	free(t);
	rdp_json_free(j);
}

static void has(const char *text, const char *want)
{
	if (!strstr(text, want))
		fail_msg("'%s' lacks '%s'", text, want);
}

/* -C: the latency table in CPU cycles (2.5 per ns here); -U: every
 * sample in the order measured, in the text and the JSON. */
static void print_lat_cycles_samples(FILE *f, struct ctx *c)
{
	double samples[3] = { 1500, 1720, 2950 };
	struct rdp_result r = lat_result(c);

	r.samples_ns = samples;
	r.n_samples = 3;
	c->info.cycles = 1;
	rdp_report_table_head(f, &c->info);
	rdp_report_row(f, &c->info, &r);
	rdp_report_samples(f, &c->info, &r);
	c->info.cycles = 0;
	rdp_report_samples(f, &c->info, &r);
}

static void test_lat_cycles_samples(void **state)
{
	double samples[2] = { 1500, 2250 };
	struct rdp_json *j = NULL;
	struct rdp_result r;
	struct ctx c;
	json_t *doc, *want;
	char *t;

	(void)state;
	ctx_lat(&c, "write_lat");
	t = capture(print_lat_cycles_samples, &c);
	has(t, " t_min[cycles] ");
	has(t, "99.9% percentile[cycles]");
	/* min 1500 ns and max 25300 ns at 2.5 cycles/ns */
	has(t, " 3750.000 ");
	has(t, " 63250.000 ");
	has(t, "   every sample [cycles], in the order measured:\n"
	       "   1 3750.000\n   2 4300.000\n   3 7375.000\n"
	       "   every sample [usec], in the order measured:\n"
	       "   1 1.500\n   2 1.720\n   3 2.950\n");
	free(t);
	r = lat_result(&c);
	r.samples_ns = samples;
	r.n_samples = 2;
	assert_int_equal(rdp_json_new(&c.info, &j), 0);
	assert_int_equal(rdp_json_add(j, &c.info, &r), 0);
	t = ctx_json_text(j);
	doc = json_loads(t, 0, NULL);
	assert_non_null(doc);
	want = json_pack("[f, f]", 1.5, 2.25);
	assert_true(json_equal(
		json_object_get(json_array_get(json_object_get(doc, "results"),
					       0),
				"samples_us"),
		want));
	json_decref(want);
	json_decref(doc);
	free(t);
	rdp_json_free(j);
}

static void print_placement_modes(FILE *f, struct ctx *c)
{
	static const uint8_t modes[] = { RDP_PLACE_NIC,	 RDP_PLACE_CPU,
					 RDP_PLACE_NUMA, RDP_PLACE_EXTERNAL,
					 RDP_PLACE_NONE, 200 };
	size_t i;

	for (i = 0; i < sizeof(modes); i++) {
		c->place.mode = (enum rdp_place_mode)modes[i];
		c->place.cross_numa = (int)(i & 1);
		c->place.mem_bound = !(i & 1);
		c->peer.place.mode = modes[i];
		c->peer.place.cross_numa = !(i & 1);
		rdp_report_placement(f, &c->info);
	}
	c->place.node = -1;
	CPU_ZERO(&c->place.cpus);
	c->peer.place.cpus[0] = '\0';
	rdp_report_placement(f, &c->info);
	/* A memory kind from a newer peer; staged GPU memory on the peer. */
	c->peer.mem.kind = 77;
	rdp_report_memory(f, &c->info);
	c->peer.mem.kind = RDP_MEM_KIND_GPU_STAGED;
	c->peer.mem.stage = RDP_STAGE_OUT;
	rdp_report_memory(f, &c->info);
}

/* Every placement mode of both sides, unknown CPUs, unknown memory. */
static void test_placement_lines(void **state)
{
	struct ctx c;
	char *t;

	(void)state;
	ctx_bw(&c, "write_bw");
	t = capture(print_placement_modes, &c);
	golden("placement.txt", t);
	free(t);
}

/* A share of the line rate needs a port that reports one. */
static void test_verdict_init(void **state)
{
	struct rdp_limits lim = { .min_bw_pct = 90, .bw_opt = "--min-bw" };
	struct rdp_verdict v;
	struct ctx c;

	(void)state;
	ctx_bw(&c, "write_bw");
	assert_int_equal(rdp_verdict_init(&v, &lim, 1, &c.dev), 0);
	assert_true(v.is_bw);
	assert_float_equal(v.line_gbps, 200, 1e-9);
	assert_float_equal(v.lim.min_bw_pct, 90, 0);
	c.dev.port.active_speed = 0;
	assert_int_equal(rdp_verdict_init(&v, &lim, 1, &c.dev), -EINVAL);
	lim.min_bw_pct = 0;
	lim.min_bw_gbps = 10;
	assert_int_equal(rdp_verdict_init(&v, &lim, 0, &c.dev), 0);
	assert_false(v.is_bw);
	assert_float_equal(v.line_gbps, 0, 0);
}

/* The verdict in the JSON document: each point's outcome, the run's. */
static void test_verdict_json(void **state)
{
	struct rdp_limits lim = {
		.min_bw_gbps = 50,
		.min_bw_pct = 10,
		.min_msgrate_mpps = 0.01,
		.lat = { { RDP_LAT_P999, 20000 } },
		.n_lat = 1,
		.bw_opt = "--min-bw",
		.msgrate_opt = "-y",
	};
	struct rdp_report_summary sum = { .n = 2 };
	struct rdp_report_sinks l = { 0 };
	struct rdp_report_sink *json, *s;
	struct rdp_json_sink_cfg jc = { 0 };
	struct rdp_verdict v;
	struct rdp_result r1, r2;
	struct ctx c;
	FILE *null = fopen("/dev/null", "w");
	char *t = NULL;
	size_t len = 0;

	(void)state;
	assert_non_null(null);
	ctx_bw(&c, "write_bw");
	c.info.counters = NULL;
	assert_int_equal(rdp_verdict_init(&v, &lim, 1, &c.dev), 0);
	r1 = bw_result(&c, 65536, 41.943);
	r2 = bw_result(&c, 1048576, 187.5);
	r1.n_intervals = r2.n_intervals = 0;
	r1.bidir = r2.bidir = 0;
	/* Through the JSON and verdict sinks, the document written at close. */
	jc.out = open_memstream(&t, &len);
	assert_non_null(jc.out);
	assert_int_equal(rdp_json_sink_create(&jc, &json), 0);
	assert_int_equal(rdp_sinks_add(&l, json), 0);
	assert_int_equal(rdp_verdict_sink_create(&v, null, json, &s), 0);
	assert_int_equal(rdp_sinks_add(&l, s), 0);
	assert_int_equal(rdp_sinks_point(&l, &c.info, &r1), 0);
	assert_int_equal(rdp_sinks_point(&l, &c.info, &r2), 0);
	assert_int_equal(rdp_sinks_end(&l, &c.info, &sum), 0);
	assert_int_equal(sum.n_failed, 1);
	assert_int_equal(rdp_sinks_close(&l, &c.info), 0);
	rdp_sinks_free(&l);
	assert_int_equal(fclose(jc.out), 0);
	fclose(null);
	assert_non_null(t);
	golden("write_bw_verdict.json", t);
	free(t);
}

/* One conversion for every place that prints MiB/s. */
static void test_mibps(void **state)
{
	(void)state;
	assert_float_equal(rdp_report_mibps(8.388608), 1000.0, 1e-9);
	assert_float_equal(rdp_report_mibps(0), 0, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_bw_text),
		cmocka_unit_test(test_write_bw_gbits_text),
		cmocka_unit_test(test_write_lat_text),
		cmocka_unit_test(test_lat_cycles_samples),
		cmocka_unit_test(test_send_lat_not_inline_text),
		cmocka_unit_test(test_read_lat_text),
		cmocka_unit_test(test_read_bw_json),
		cmocka_unit_test(test_write_lat_json),
		cmocka_unit_test(test_placement_lines),
		cmocka_unit_test(test_verdict_init),
		cmocka_unit_test(test_verdict_json),
		cmocka_unit_test(test_threads_text),
		cmocka_unit_test(test_threads_json),
		cmocka_unit_test(test_mibps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
