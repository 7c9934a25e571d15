/* SPDX-License-Identifier: BSD-2-Clause */
/* --bounce: the options, who stages what in each test, the per-message
 * copies over the fake CUDA driver, and the memory lines and JSON of both
 * sides. */
#include <dlfcn.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>

#include "../fake/fake_cuda_count.h"
#include <jansson.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/json_mem.h>
#include <rdmaperf/log.h>
#include <rdmaperf/mem.h>
#include <rdmaperf/opts.h>
#include <rdmaperf/report.h>
#include <rdmaperf/stage.h>

#include "unit.h"

static void test_opts_accepted(void **state)
{
	struct rdp_opts o;
	char err[256];

	(void)state;
	assert_int_equal(CLIENT(&o, err, "write_bw", "--use_cuda=0", "--bounce",
				"h"),
			 RDP_PARSE_OK);
	assert_int_equal(o.mem.bounce, 1);
	assert_string_equal(o.mem.device, "0");
	assert_ptr_equal(o.mem.type, &rdp_mem_cuda);
	assert_int_equal(CLIENT(&o, err, "read_bw", "--bounce", "--use_cuda",
				"auto", "-b", "h"),
			 RDP_PARSE_OK);
	assert_int_equal(CLIENT(&o, err, "send_bw", "--use_cuda=0", "--bounce",
				"h"),
			 RDP_PARSE_OK);
	assert_int_equal(CLIENT(&o, err, "write_bw", "--use_cuda=0", "h"),
			 RDP_PARSE_OK);
	assert_int_equal(o.mem.bounce, 0);
	assert_int_equal(SERVER(&o, err, "--use_cuda=auto", "--bounce"),
			 RDP_PARSE_OK);
	assert_int_equal(o.mem.bounce, 1);
}

/* --use_hugepages and --disable_pcie_relaxed on both sides; huge pages
 * are for host buffers: with --use_cuda only under --bounce. */
static void test_memory_knobs(void **state)
{
	struct rdp_opts o;
	char err[256];

	(void)state;
	assert_int_equal(CLIENT(&o, err, "write_bw", "h"), RDP_PARSE_OK);
	assert_int_equal(o.mem.hugepages, 0);
	assert_int_equal(o.mem.no_relaxed, 0);
	assert_int_equal(CLIENT(&o, err, "write_bw", "--use_hugepages",
				"--disable_pcie_relaxed", "h"),
			 RDP_PARSE_OK);
	assert_int_equal(o.mem.hugepages, 1);
	assert_int_equal(o.mem.no_relaxed, 1);
	assert_int_equal(SERVER(&o, err, "--use_hugepages",
				"--disable_pcie_relaxed"),
			 RDP_PARSE_OK);
	assert_int_equal(o.mem.hugepages, 1);
	assert_int_equal(o.mem.no_relaxed, 1);
	assert_int_equal(CLIENT(&o, err, "write_bw", "--use_cuda=0", "--bounce",
				"--use_hugepages", "h"),
			 RDP_PARSE_OK);
	assert_int_equal(CLIENT(&o, err, "write_bw", "--use_cuda=0",
				"--use_hugepages", "h"),
			 -EINVAL);
	expect_in(err, "--use_hugepages is for host buffers: drop it with "
		       "--use_cuda (or add --bounce)");
	assert_int_equal(SERVER(&o, err, "--use_cuda=0", "--use_hugepages"),
			 -EINVAL);
	expect_in(err, "--use_hugepages is for host buffers");
}

static void test_opts_refused(void **state)
{
	static const char *const no_stage[] = {
		"write_lat", "read_lat", "send_lat", "atomic_bw", "atomic_lat",
	};
	struct rdp_opts o;
	char err[256];
	size_t i;

	(void)state;
	assert_int_equal(CLIENT(&o, err, "write_bw", "--bounce", "h"), -EINVAL);
	expect_in(err, "--bounce stages GPU data through host memory: add "
		       "--use_cuda");
	assert_int_equal(SERVER(&o, err, "--bounce"), -EINVAL);
	expect_in(err, "add --use_cuda");
	for (i = 0; i < sizeof(no_stage) / sizeof(no_stage[0]); i++) {
		err[0] = '\0';
		assert_int_equal(CLIENT(&o, err, no_stage[i], "--use_cuda=0",
					"--bounce", "h"),
				 -EINVAL);
		expect_in(err, no_stage[i]);
		expect_in(err, "has none to stage");
		expect_in(err, "drop --bounce");
	}
	assert_int_equal(CLIENT(&o, err, "atomic_bw", "--use_cuda=0",
				"--bounce", "h"),
			 -EINVAL);
	expect_in(err, "updated in place by the NIC");
}

/* Who owns the messages, test by test and side by side. */
static void test_roles(void **state)
{
	const struct rdp_bench_ops *w = rdp_bench_find("write_bw");
	const struct rdp_bench_ops *r = rdp_bench_find("read_bw");
	const struct rdp_bench_ops *s = rdp_bench_find("send_bw");
	const struct rdp_bench_ops *a = rdp_bench_find("atomic_bw");
	struct rdp_params p = { 0 }, bidir = { .flags = RDP_PARAM_BIDIR };

	(void)state;
	assert_int_equal(rdp_stage_role(w, &p, RDP_SIDE_CLIENT), RDP_STAGE_OUT);
	assert_int_equal(rdp_stage_role(w, &p, RDP_SIDE_SERVER),
			 RDP_STAGE_NONE);
	assert_int_equal(rdp_stage_role(w, &bidir, RDP_SIDE_SERVER),
			 RDP_STAGE_OUT);
	assert_int_equal(rdp_stage_role(r, &p, RDP_SIDE_CLIENT), RDP_STAGE_IN);
	assert_int_equal(rdp_stage_role(r, &p, RDP_SIDE_SERVER),
			 RDP_STAGE_NONE);
	assert_int_equal(rdp_stage_role(r, &bidir, RDP_SIDE_SERVER),
			 RDP_STAGE_IN);
	assert_int_equal(rdp_stage_role(s, &p, RDP_SIDE_CLIENT), RDP_STAGE_OUT);
	assert_int_equal(rdp_stage_role(s, &p, RDP_SIDE_SERVER), RDP_STAGE_IN);
	assert_int_equal(rdp_stage_role(a, &p, RDP_SIDE_CLIENT),
			 RDP_STAGE_NONE);
	assert_string_equal(rdp_stage_role_id(RDP_STAGE_OUT), "gpu_to_host");
	assert_string_equal(rdp_stage_role_id(RDP_STAGE_IN), "host_to_gpu");
	assert_string_equal(rdp_stage_role_id(7), "unknown");
}

/* A connection of 2 QPs over host memory, staged on the fake GPU. */
struct fix {
	struct rdp_dev dev;
	struct rdp_conn conn;
	struct rdp_params p;
	struct rdp_run run;
};

#define MSG  100
#define SLOT 128

static int fix_setup(void **state)
{
	struct fix *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	setenv("RDP_CUDA_LIBRARY", RDP_FAKE_CUDA, 1);
	unsetenv("RDP_FAKE_CUDA_PIN");
	assert_int_equal(
		rdp_mem_open(&rdp_mem_staged, "0", "rxe0", &f->dev.mem), 0);
	f->conn.dev = &f->dev;
	f->conn.num_qps = 2;
	f->conn.slot_bytes = SLOT;
	f->conn.buf_bytes = 4096;
	f->conn.buf = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(f->conn.buf != MAP_FAILED);
	assert_int_equal(rdp_stage_create(&f->conn, MSG), 0);
	f->p.size_bytes = MSG;
	f->p.num_qps = 2;
	f->p.seed = 7;
	f->run = (struct rdp_run){ .params = &f->p, .conn = &f->conn };
	*state = f;
	return 0;
}

static int fix_teardown(void **state)
{
	struct fix *f = *state;

	rdp_stage_destroy(&f->conn);
	assert_null(f->conn.stage);
	munmap(f->conn.buf, 4096);
	rdp_mem_close(f->dev.mem);
	free(f);
	return 0;
}

static uint8_t *host_tx(struct fix *f, uint32_t q)
{
	return rdp_conn_tx(&f->conn, q);
}

/* Out copies exactly one message from the GPU send slot, per QP. */
static void test_copy_out(void **state)
{
	struct fix *f = *state;
	struct rdp_stage *s = f->conn.stage;
	uint8_t want[SLOT];

	assert_true(s->pinned);
	memset(want, 0x3c, sizeof(want));
	assert_int_equal(
		s->mem->ops->to_dev(s->mem, s->gpu + 2 * SLOT, want, SLOT), 0);
	assert_int_equal(rdp_stage_out(s, 1, 3), 0);
	assert_memory_equal(host_tx(f, 1), want, MSG);
	assert_int_equal(host_tx(f, 1)[MSG], 0); /* one message only */
	assert_int_equal(host_tx(f, 0)[0], 0);	 /* QP 0 untouched */
	assert_int_equal(rdp_stage_out(s, 0, 0), 0);
}

/* In copies the host receive slot to the GPU; the check then reads the
 * GPU copy, so a side that stages in fails when no copy happened. */
static void test_copy_in_and_verify(void **state)
{
	struct fix *f = *state;
	struct rdp_stage *s = f->conn.stage;
	struct rdp_data_check r = { 0 };
	uint32_t q;

	f->run.ops = rdp_bench_find("read_bw");
	f->run.side = RDP_SIDE_CLIENT;
	for (q = 0; q < 2; q++)
		rdp_pattern_fill(rdp_conn_rx(&f->conn, q), MSG, 7, q,
				 RDP_SIDE_SERVER);
	assert_int_equal(rdp_stage_verify(&f->run, 1, &r), -EILSEQ);
	assert_int_equal(rdp_stage_in(s, 0, 1), 0);
	assert_int_equal(rdp_stage_in(s, 1, 2), 0);
	memset(&r, 0, sizeof(r));
	assert_int_equal(rdp_stage_verify(&f->run, 1, &r), 0);
	assert_int_equal(r.checked_bytes, 2 * MSG);
	/* A passive side checks its host buffer: the peer wrote there. */
	f->run.ops = rdp_bench_find("write_bw");
	f->run.side = RDP_SIDE_SERVER;
	memset(&r, 0, sizeof(r));
	rdp_pattern_fill(rdp_conn_rx(&f->conn, 1), MSG, 7, 1, RDP_SIDE_CLIENT);
	rdp_pattern_fill(rdp_conn_rx(&f->conn, 0), MSG, 7, 0, RDP_SIDE_CLIENT);
	assert_int_equal(rdp_stage_verify(&f->run, 1, &r), 0);
}

/* The sender's host send slots start empty: only the copies fill them. */
static void test_fill(void **state)
{
	struct fix *f = *state;
	struct rdp_stage *s = f->conn.stage;

	memset(host_tx(f, 0), 0x11, MSG);
	memset(host_tx(f, 1), 0x22, MSG);
	f->run.ops = rdp_bench_find("write_bw");
	f->run.side = RDP_SIDE_CLIENT;
	assert_int_equal(rdp_stage_fill(&f->run), 0);
	assert_int_equal(host_tx(f, 0)[0], 0);
	assert_int_equal(host_tx(f, 1)[MSG - 1], 0);
	assert_int_equal(rdp_stage_out(s, 1, 1), 0);
	assert_int_equal(host_tx(f, 1)[0], 0x22);
	/* The passive side keeps its data in place: the peer reads it. */
	memset(host_tx(f, 0), 0x33, MSG);
	f->run.ops = rdp_bench_find("read_bw");
	f->run.side = RDP_SIDE_SERVER;
	assert_int_equal(rdp_stage_fill(&f->run), 0);
	assert_int_equal(host_tx(f, 0)[0], 0x33);
}

/* The fake driver's count of blocks freed holding data. */
static unsigned long long dirty_frees(void)
{
	unsigned long long n = fake_cuda_dirty_frees(RDP_FAKE_CUDA);

	assert_true(n != ULLONG_MAX);
	return n;
}

/* The GPU twin is zeroed before the driver gets it back. */
static void test_destroy_wipes(void **state)
{
	struct fix *f = *state;
	struct rdp_stage *s = f->conn.stage;
	unsigned long long before = dirty_frees();
	uint8_t data[SLOT];

	memset(data, 0x7e, sizeof(data));
	assert_int_equal(s->mem->ops->to_dev(s->mem, s->gpu, data, SLOT), 0);
	memset(s->shadow, 0x7e, SLOT);
	rdp_stage_destroy(&f->conn);
	assert_null(f->conn.stage);
	assert_int_equal(dirty_frees(), before);
}

static void test_pin_refused(void **state)
{
	struct fix *f;

	setenv("RDP_FAKE_CUDA_PIN", "0", 1);
	rdp_clear_error();
	f = calloc(1, sizeof(*f));
	assert_non_null(f);
	assert_int_equal(
		rdp_mem_open(&rdp_mem_staged, "0", "rxe0", &f->dev.mem), 0);
	f->conn.dev = &f->dev;
	f->conn.buf_bytes = 4096;
	f->conn.slot_bytes = SLOT;
	f->conn.buf = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_int_equal(rdp_stage_create(&f->conn, MSG), 0);
	assert_false(f->conn.stage->pinned);
	expect_in(f->conn.stage->pin_note, "not page-locked for CUDA");
	expect_in(f->conn.stage->pin_note, "CUDA_ERROR_NOT_SUPPORTED");
	*state = f;
	fix_teardown(state);
	unsetenv("RDP_FAKE_CUDA_PIN");
}

static char *report(const struct rdp_report_info *in)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	rdp_report_memory(f, in);
	fclose(f);
	return buf;
}

static void test_report_lines(void **state)
{
	struct fix *f = *state;
	struct rdp_peer_info peer = { 0 };
	struct rdp_report_info in = {
		.ops = rdp_bench_find("write_bw"),
		.params = &f->p,
		.conn = &f->conn,
		.peer = &peer,
	};
	struct rdp_stage *s = f->conn.stage;
	struct rdp_mem host = { .ops = &rdp_mem_host }, *staged = f->dev.mem;
	char *t;

	t = report(&in);
	expect_in(t, " Memory          : GPU 0 Fake GPU 0 (host memory) "
		     "(0000:3b:00.0) (as asked), staged through host memory "
		     "(--bounce)\n");
	expect_in(t, " Staging         : each message copied GPU->host "
		     "before it is posted, host buffer page-locked");
	expect_in(t, " Peer memory     : host\n");
	free(t);
	peer.mem.kind = RDP_MEM_KIND_GPU_STAGED;
	peer.mem.stage = RDP_STAGE_NONE;
	strcpy(peer.mem.gpu, "GPU 1 X (0000:86:00.0)");
	t = report(&in);
	expect_in(t, " Peer memory     : GPU 1 X (0000:86:00.0), staged "
		     "through host memory (--bounce): nothing to stage on the "
		     "passive side");
	free(t);
	peer.mem.kind = RDP_MEM_KIND_GPU;
	peer.mem.path = RDP_MEM_PATH_DMABUF;
	t = report(&in);
	expect_in(t, "Peer memory     : GPU 1 X (0000:86:00.0), registered "
		     "by DMA-BUF\n");
	free(t);
	/* Host memory on both sides: no lines, as before GPUs. */
	f->conn.stage = NULL;
	f->dev.mem = &host;
	peer.mem.kind = RDP_MEM_KIND_HOST;
	t = report(&in);
	assert_string_equal(t, "");
	free(t);
	f->dev.mem = staged;
	f->conn.stage = s;
}

static void test_json(void **state)
{
	struct fix *f = *state;
	struct rdp_peer_info peer = {
		.mem = {
			.kind = RDP_MEM_KIND_GPU_STAGED,
			.stage = RDP_STAGE_IN,
			.bus_id = "0000:86:00.0",
			.gpu = "GPU 1 \xff",
		},
	};
	struct rdp_report_info in = {
		.ops = rdp_bench_find("read_bw"),
		.params = &f->p,
		.conn = &f->conn,
		.peer = &peer,
	};
	json_t *mem = json_object(), *pm;

	assert_int_equal(rdp_json_memory_stage(mem, &in), 0);
	assert_true(json_is_true(json_object_get(mem, "bounce")));
	assert_string_equal(json_string_value(json_object_get(mem, "staging")),
			    "host_to_gpu");
	assert_string_equal(json_string_value(json_object_get(mem, "type")),
			    "cuda");
	assert_true(json_is_true(json_object_get(mem, "pinned")));
	json_decref(mem);
	assert_int_equal(rdp_json_memory_stage(NULL, &in), -1);
	pm = rdp_json_peer_memory(&peer);
	assert_non_null(pm);
	assert_true(json_is_true(json_object_get(pm, "bounce")));
	assert_string_equal(json_string_value(json_object_get(pm, "staging")),
			    "host_to_gpu");
	/* Not UTF-8 from the peer: kept as printable ASCII. */
	assert_string_equal(json_string_value(json_object_get(pm, "gpu")),
			    "GPU 1 ?");
	json_decref(pm);
	peer.mem.kind = 9;
	peer.mem.path = 9;
	pm = rdp_json_peer_memory(&peer);
	assert_string_equal(json_string_value(json_object_get(pm, "type")),
			    "unknown");
	assert_string_equal(
		json_string_value(json_object_get(pm, "registration")),
		"unknown");
	json_decref(pm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_opts_accepted),
		cmocka_unit_test(test_opts_refused),
		cmocka_unit_test(test_memory_knobs),
		cmocka_unit_test(test_roles),
		cmocka_unit_test_setup_teardown(test_copy_out, fix_setup,
						fix_teardown),
		cmocka_unit_test_setup_teardown(test_copy_in_and_verify,
						fix_setup, fix_teardown),
		cmocka_unit_test_setup_teardown(test_fill, fix_setup,
						fix_teardown),
		cmocka_unit_test_setup_teardown(test_destroy_wipes, fix_setup,
						fix_teardown),
		cmocka_unit_test(test_pin_refused),
		cmocka_unit_test_setup_teardown(test_report_lines, fix_setup,
						fix_teardown),
		cmocka_unit_test_setup_teardown(test_json, fix_setup,
						fix_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
