/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perftest's memory and addressing options: --mmap and --mmap-offset (the
 * file memory type), --use-null-mr, --wait_destroy, --dlid, -O and
 * --report-per-port. Their command-line lines, their rules, the file type
 * on real files, the address vector --dlid builds, the spread of -O's QPs
 * and the per-port sums, and the client's check of its device.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
#include <infiniband/verbs.h>
#include <jansson.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/clock.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/json_sys.h>
#include <rdmaperf/log.h>
#include <rdmaperf/mem.h>
#include <rdmaperf/params.h>
#include <rdmaperf/report.h>
#include <rdmaperf/rules.h>
#include <rdmaperf/run_opts.h>

#include <rdmaperf/opts.h>

/* unit.h's doctor verdicts clash with the session's headers: the
 * command-line macros alone. */
#include "argv.h"
#include "session_int.h"

/* The client's command line ends in err; its status. */
#define PARSE(o, err, ...)                                                     \
	rdp_opts_parse_client(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), o, err,    \
			      sizeof(err))

/* The client refuses the line with exactly want. */
#define expect_line(want, ...)                                                 \
	do {                                                                   \
		static struct rdp_opts o_;                                     \
		char err_[512] = "";                                           \
		assert_int_equal(PARSE(&o_, err_, __VA_ARGS__), -EINVAL);      \
		assert_string_equal(err_, want);                               \
	} while (0)

static void test_parse(void **state)
{
	static struct rdp_opts o;
	char err[512];

	(void)state;
	assert_int_equal(PARSE(&o, err, "write_bw", "--mmap", "/tmp/buf",
			       "--mmap-offset", "8K", "h"),
			 0);
	assert_ptr_equal(o.mem.type, &rdp_mem_file);
	assert_string_equal(o.mem.device, "/tmp/buf");
	assert_int_equal(o.mem.offset_bytes, 8192);
	assert_int_equal(PARSE(&o, err, "write_bw", "--wait_destroy", "3",
			       "--dlid", "7", "--use-null-mr", "h"),
			 0);
	assert_int_equal(o.conn.wait_destroy_s, 3);
	assert_int_equal(o.conn.dlid, 7);
	assert_true(o.params.flags & RDP_PARAM_NULL_MR);
	assert_int_equal(PARSE(&o, err, "write_bw", "h"), 0);
	assert_int_equal(o.conn.wait_destroy_s, 0);
	assert_int_equal(o.conn.dlid, 0);
	assert_int_equal(o.mem.offset_bytes, 0);
	assert_false(o.params.flags & RDP_PARAM_NULL_MR);
}

static void test_lines(void **state)
{
	(void)state;
	expect_line("--mmap-offset 100 is not a multiple of the page size "
		    "(4096): mmap maps whole pages",
		    "write_bw", "--mmap", "/tmp/buf", "--mmap-offset", "100",
		    "h");
	expect_line("--mmap-offset needs a byte count like 4096 or 2M, not "
		    "'x'",
		    "write_bw", "--mmap-offset", "x", "h");
	expect_line("--mmap-offset applies to --mmap FILE: add it or drop "
		    "the offset",
		    "write_bw", "--mmap-offset", "4096", "h");
	expect_line("--mmap and --use_cuda both choose where the buffers "
		    "are: give one",
		    "write_bw", "--mmap", "/tmp/buf", "--use_cuda", "0", "h");
	expect_line("--mmap FILE gives host buffers of its own: drop "
		    "--use_hugepages",
		    "write_bw", "--mmap", "/tmp/buf", "--use_hugepages", "h");
	expect_line("--wait_destroy 0 is out of range: use 1..86400",
		    "write_bw", "--wait_destroy", "0", "h");
	expect_line("--dlid 49152 is out of range: use 1..49151", "write_bw",
		    "--dlid", "49152", "h");
	expect_line("--dlid addresses by LID without a GRH; --grh routes by "
		    "GID: give one",
		    "write_bw", "--dlid", "7", "--grh", "h");
	expect_line("--dlid addresses by LID without a GRH; -x picks a GID "
		    "for one: give one",
		    "write_bw", "--dlid", "7", "-x", "1", "h");
	expect_line("--dlid does not apply with -R: RDMA CM resolves the "
		    "path to HOST",
		    "write_bw", "--dlid", "7", "-R", "h");
	expect_line("--report-per-port applies to -O (--dualport): add it, "
		    "or drop the option",
		    "write_bw", "-q", "2", "--report-per-port", "h");
	expect_line("-O (--dualport) puts half the QPs on each port: "
		    "give -q 2 or more",
		    "write_bw", "-O", "h");
	expect_line("-O (--dualport) spreads a bandwidth test's QPs "
		    "over two ports: write_lat is a latency test",
		    "write_lat", "-O", "h");
	expect_line("-O (--dualport) does not combine with -R: drop "
		    "one",
		    "write_bw", "-O", "-q", "2", "-R", "h");
}

/* The rules of --use-null-mr, as client and server both run them. */
static const char *null_mr_why(const char *test, uint32_t flags, int bounce,
			       int perftest)
{
	static char why[512];
	struct rdp_params p = { .num_qps = 1, .size_bytes = 4096 };
	struct rdp_rules_side side = { .bounce = bounce, .perftest = perftest };

	if (bounce)
		side.mem = rdp_mem_types()[0];
	p.flags = RDP_PARAM_NULL_MR | flags;
	why[0] = '\0';
	rdp_rules_check(&p, rdp_bench_find(test), &side, why, sizeof(why));
	return why;
}

static void test_null_mr_rules(void **state)
{
	(void)state;
	assert_string_equal(null_mr_why("write_bw", 0, 0, 0), "");
	assert_string_equal(null_mr_why("read_bw", 0, 0, 0), "");
	assert_string_equal(null_mr_why("read_lat", 0, 0, 0), "");
	assert_string_equal(null_mr_why("send_bw", 0, 0, 0),
			    "--use-null-mr discards what is written and reads "
			    "zeros: it runs write_bw, read_bw and read_lat, "
			    "not send_bw, whose data is read");
	assert_string_equal(null_mr_why("write_lat", 0, 0, 0),
			    "--use-null-mr discards what is written and reads "
			    "zeros: it runs write_bw, read_bw and read_lat, "
			    "not write_lat, whose data is read");
	assert_string_equal(null_mr_why("write_bw", RDP_PARAM_MR_PER_QP, 0, 0),
			    "--use-null-mr puts one null MR in place of the "
			    "buffer's: drop --mr_per_qp");
	assert_string_equal(null_mr_why("write_bw", RDP_PARAM_ODP, 0, 0),
			    "--use-null-mr puts one null MR in place of the "
			    "buffer's: drop --odp");
	assert_string_equal(null_mr_why("write_bw", 0, 0, 1),
			    "--use-null-mr puts one null MR in place of the "
			    "buffer's: drop --perftest");
}

/* The file memory type over a real file in a private directory. */
struct file_fix {
	char dir[64];
	char path[96];
};

static int file_setup(void **state)
{
	static struct file_fix f;

	snprintf(f.dir, sizeof(f.dir), "/tmp/rdp-memopts-XXXXXX");
	assert_non_null(mkdtemp(f.dir));
	snprintf(f.path, sizeof(f.path), "%s/buf", f.dir);
	*state = &f;
	return 0;
}

static int file_teardown(void **state)
{
	struct file_fix *f = *state;

	unlink(f->path);
	rmdir(f->dir);
	return 0;
}

static void make_file(const char *path, size_t bytes, int byte)
{
	unsigned char block[4096];
	size_t done;
	int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600);

	assert_true(fd >= 0);
	memset(block, byte, sizeof(block));
	for (done = 0; done < bytes; done += sizeof(block))
		assert_int_equal(write(fd, block, sizeof(block)),
				 sizeof(block));
	close(fd);
}

static int file_byte(const char *path, off_t at)
{
	unsigned char b = 0;
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &b, 1, at), 1);
	close(fd);
	return b;
}

static void test_file_missing(void **state)
{
	struct file_fix *f = *state;
	struct rdp_mem *m = NULL;
	char want[256];

	assert_int_equal(rdp_mem_open(&rdp_mem_file, f->path, "rxe0", &m),
			 -ENOENT);
	assert_null(m);
	snprintf(want, sizeof(want),
		 "--mmap %s: No such file or directory: give a file this user "
		 "may read and write (the run writes its data into it)",
		 f->path);
	assert_string_equal(rdp_last_error(), want);
}

static void test_file_short(void **state)
{
	struct file_fix *f = *state;
	struct rdp_mem *m;
	char want[512];
	void *p = NULL;

	make_file(f->path, 8192, 0xff);
	assert_int_equal(rdp_mem_open(&rdp_mem_file, f->path, "rxe0", &m), 0);
	m->file_offset_bytes = 4096;
	assert_int_equal(rdp_mem_file.alloc(m, 8192, -1, &p), -ENOSPC);
	assert_null(p);
	snprintf(want, sizeof(want),
		 "--mmap %s: the file holds 8192 bytes, the run needs 12288 "
		 "(8192 from offset 4096): make it larger (truncate -s 12288 "
		 "%s) or run smaller points",
		 f->path, f->path);
	assert_string_equal(rdp_last_error(), want);
	rdp_mem_close(m);
}

/* The mapping starts zeroed, writes reach the file from the offset on,
 * and the file keeps them after the buffer is wiped and freed. */
static void test_file_shared(void **state)
{
	struct file_fix *f = *state;
	struct rdp_mem *m;
	unsigned char *p = NULL;

	make_file(f->path, 16384, 0xff);
	assert_int_equal(rdp_mem_open(&rdp_mem_file, f->path, "rxe0", &m), 0);
	assert_non_null(strstr(m->desc, f->path));
	assert_string_equal(rdp_mem_file_path(m), f->path);
	assert_null(rdp_mem_file_path(NULL));
	m->file_offset_bytes = 4096;
	assert_int_equal(rdp_mem_file.alloc(m, 8192, -1, (void **)&p), 0);
	assert_int_equal(p[0], 0);
	assert_int_equal(p[8191], 0);
	p[0] = 0x5a;
	p[8191] = 0xa5;
	assert_int_equal(rdp_mem_file.wipe(m, p, 8192), 0);
	rdp_mem_file.free(m, p, 8192);
	rdp_mem_close(m);
	assert_int_equal(file_byte(f->path, 0), 0xff);	   /* before */
	assert_int_equal(file_byte(f->path, 4096), 0x5a);  /* the buffer */
	assert_int_equal(file_byte(f->path, 4097), 0);	   /* zeroed */
	assert_int_equal(file_byte(f->path, 12287), 0xa5); /* its end */
	assert_int_equal(file_byte(f->path, 12288), 0xff); /* after */
	assert_ptr_equal(rdp_mem_find("--mmap"), &rdp_mem_file);
	assert_int_equal(rdp_mem_file.kind, RDP_MEM_KIND_HOST);
}

/* --dlid: the address vector of an InfiniBand path names the given LID
 * without a GRH; RoCE's has no LID. */
static void test_dlid_av(void **state)
{
	struct rdp_qp_cfg cfg = {
		.port = 1,
		.link_layer = IBV_LINK_LAYER_INFINIBAND,
		.dlid = 0x21,
		.sl = 3,
	};
	struct rdp_qp_info remote = { .lid = 7, .qpn = 0x1a2 };
	struct ibv_ah_attr ah;

	(void)state;
	rdp_qp_attr_ah(&cfg, &remote, &ah);
	assert_int_equal(ah.dlid, 0x21);
	assert_int_equal(ah.is_global, 0);
	assert_int_equal(ah.sl, 3);
	assert_int_equal(ah.port_num, 1);
	cfg.dlid = 0;
	rdp_qp_attr_ah(&cfg, &remote, &ah);
	assert_int_equal(ah.dlid, 7);
	cfg.dlid = 0x21;
	cfg.link_layer = IBV_LINK_LAYER_ETHERNET;
	cfg.use_grh = 1;
	rdp_qp_attr_ah(&cfg, &remote, &ah);
	assert_int_equal(ah.dlid, 0);
	assert_int_equal(ah.is_global, 1);
}

/* -O: the first half of the QPs on the device's port, the rest (one more
 * when odd) on the other; no second port, all on the first. */
static void test_dualport_spread(void **state)
{
	static const uint8_t four[] = { 1, 1, 2, 2 },
			     five[] = { 2, 2, 1, 1, 1 };
	uint32_t i;

	(void)state;
	for (i = 0; i < 4; i++)
		assert_int_equal(rdp_qp_port_of(4, 1, 2, i), four[i]);
	for (i = 0; i < 5; i++)
		assert_int_equal(rdp_qp_port_of(5, 2, 1, i), five[i]);
	for (i = 0; i < 3; i++)
		assert_int_equal(rdp_qp_port_of(3, 1, 0, i), 1);
}

/* -O on a fake two-port device: what each QP tells its peer (QP_INFO)
 * names its own port's LID and GID, and the per-QP rows their port. */
static void test_dualport_info(void **state)
{
	struct ibv_qp qps[4];
	struct ibv_qp *qpp[4];
	uint32_t psns[4] = { 0 }, i;
	struct rdp_dev dev;
	struct rdp_conn conn;
	struct rdp_qp_info info;

	(void)state;
	memset(&dev, 0, sizeof(dev));
	memset(&conn, 0, sizeof(conn));
	dev.port.num = 1;
	dev.port.lid = 5;
	dev.attr.phys_port_cnt = 2;
	for (i = 0; i < 4; i++) {
		memset(&qps[i], 0, sizeof(qps[i]));
		qps[i].qp_num = 0x100 + i;
		qpp[i] = &qps[i];
	}
	conn.dev = &dev;
	conn.qps = qpp;
	conn.psns = psns;
	conn.num_qps = 4;
	conn.have_gid = 1;
	memset(conn.gid.entry.raw, 0x11, 16);
	conn.port2 = 2;
	conn.port2_lid = 9;
	memset(conn.port2_gid, 0x22, 16);
	conn.port2_qps = 4;
	for (i = 0; i < 4; i++) {
		rdp_conn_local_info(&conn, i, 0, &info);
		assert_int_equal(info.qpn, 0x100 + i);
		assert_int_equal(rdp_conn_qp_port(&conn, i), i < 2 ? 1 : 2);
		assert_int_equal(info.lid, i < 2 ? 5 : 9);
		assert_int_equal(info.gid[0], i < 2 ? 0x11 : 0x22);
		assert_int_equal(info.gid[15], i < 2 ? 0x11 : 0x22);
	}
	/* One port: every QP on the device's. */
	conn.port2 = 0;
	for (i = 0; i < 4; i++) {
		rdp_conn_local_info(&conn, i, 0, &info);
		assert_int_equal(rdp_conn_qp_port(&conn, i), 1);
		assert_int_equal(info.lid, 5);
	}
}

/* --report-per-port: a fake two-port point's QP rows, summed by port as
 * text and JSON. */
static void test_per_port(void **state)
{
	struct rdp_qp_result q[4] = {
		{ .index = 0, .port = 1, .msgs = 100, .bytes = 409600 },
		{ .index = 1, .port = 1, .msgs = 300, .bytes = 1228800 },
		{ .index = 2, .port = 2, .msgs = 50, .bytes = 204800 },
		{ .index = 3, .port = 2, .msgs = 150, .bytes = 614400 },
	};
	struct rdp_result r = { .per_qp = q, .n_per_qp = 4, .elapsed_ns = 1e6 };
	struct rdp_report_info in = { .gbits = 1 };
	struct rdp_port_sum s[RDP_PORTS_MAX];
	char *text = NULL, *js;
	size_t len = 0;
	json_t *a;
	FILE *f;

	(void)state;
	assert_int_equal(rdp_result_per_port(&r, s, RDP_PORTS_MAX), 2);
	assert_int_equal(s[0].port, 1);
	assert_int_equal(s[0].first_qp, 0);
	assert_int_equal(s[0].n_qps, 2);
	assert_int_equal(s[0].msgs, 400);
	assert_int_equal(s[0].bytes, 1638400);
	assert_true(s[0].bw_gbps > 13.10 && s[0].bw_gbps < 13.11);
	assert_int_equal(s[1].port, 2);
	assert_int_equal(s[1].first_qp, 2);
	assert_int_equal(s[1].msgs, 200);
	assert_int_equal(s[0].msgs + s[1].msgs, 600);
	f = open_memstream(&text, &len);
	assert_non_null(f);
	rdp_report_per_port(f, &in, &r);
	fclose(f);
	assert_string_equal(text,
			    " [port 1]   400            -                   "
			    "13.11                  0.400000   QPs 0-1\n"
			    " [port 2]   200            -                   "
			    "6.55                   0.200000   QPs 2-3\n");
	free(text);
	a = rdp_json_per_port(&r);
	assert_non_null(a);
	js = json_dumps(a, JSON_COMPACT | JSON_REAL_PRECISION(4));
	assert_string_equal(js, "[{\"port\":1,\"first_qp\":0,\"num_qps\":2,"
				"\"msgs\":400,\"bytes\":1638400,"
				"\"bw_gbps\":13.11},"
				"{\"port\":2,\"first_qp\":2,\"num_qps\":2,"
				"\"msgs\":200,\"bytes\":819200,"
				"\"bw_gbps\":6.554}]");
	free(js);
	json_decref(a);
}

/* The client's check of its own device, before it asks the server. */
static void test_dev_opts(void **state)
{
	static struct rdp_opts o;
	struct rdp_dev dev;

	(void)state;
	memset(&dev, 0, sizeof(dev));
	snprintf(dev.name, sizeof(dev.name), "rxe0");
	dev.port.num = 1;
	dev.port.link_layer = IBV_LINK_LAYER_ETHERNET;
	memset(&o, 0, sizeof(o));
	assert_int_equal(rdp_session_dev_opts(&o, &dev), 0);
	o.conn.dlid = 7;
	assert_int_equal(rdp_session_dev_opts(&o, &dev), -EINVAL);
	assert_string_equal(rdp_last_error(),
			    "--dlid addresses InfiniBand ports: rxe0 port 1 is "
			    "Ethernet; drop it, the GID (-x) addresses RoCE");
	dev.port.link_layer = IBV_LINK_LAYER_INFINIBAND;
	assert_int_equal(rdp_session_dev_opts(&o, &dev), 0);
	/* No verbs context to ask (a fake engine's device): nothing to
	 * refuse. */
	o.params.flags = RDP_PARAM_NULL_MR;
	assert_int_equal(rdp_session_dev_opts(&o, &dev), 0);
	o.params.flags = RDP_PARAM_DUALPORT;
	dev.attr.phys_port_cnt = 1;
	assert_int_equal(rdp_session_dev_opts(&o, &dev), -ENODEV);
	assert_string_equal(
		rdp_last_error(),
		"-O/--dualport spreads the QPs over two ports: rxe0 "
		"has 1 port; run a test per port (-i), or a device "
		"pair per port (-d DEV0,DEV1 HOST0,HOST1)");
	dev.attr.phys_port_cnt = 2;
	assert_int_equal(rdp_session_dev_opts(&o, &dev), 0);
}

static void *interrupt_soon(void *arg)
{
	struct timespec t = { .tv_nsec = 100000000l };

	(void)arg;
	nanosleep(&t, NULL);
	kill(getpid(), SIGINT);
	return NULL;
}

/* --wait_destroy: SIGINT ends the wait at once, and the handler before
 * it is back afterwards. */
static void test_wait_interrupted(void **state)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, now;
	uint64_t t0;
	pthread_t tid;

	(void)state;
	sigemptyset(&ign.sa_mask);
	assert_int_equal(sigaction(SIGINT, &ign, NULL), 0);
	t0 = rdp_clock_mono_ns();
	assert_int_equal(pthread_create(&tid, NULL, interrupt_soon, NULL), 0);
	assert_int_equal(rdp_session_wait_destroy(30, "rxe0"), SIGINT);
	pthread_join(tid, NULL);
	assert_true(rdp_clock_mono_ns() - t0 < 5000000000ull);
	assert_int_equal(sigaction(SIGINT, NULL, &now), 0);
	assert_ptr_equal(now.sa_handler, SIG_IGN);
}

static void test_wait_full(void **state)
{
	uint64_t t0 = rdp_clock_mono_ns();

	(void)state;
	assert_int_equal(rdp_session_wait_destroy(1, "rxe0"), 0);
	assert_true(rdp_clock_mono_ns() - t0 >= 1000000000ull);
}

/* The server's ACCEPT names the device type of its data only where the
 * kind alone would name another: ROCm memory, direct or staged; host
 * and CUDA memory send what they always did. */
static void test_accept_mem_type(void **state)
{
	const struct rdp_mem_ops *rocm = rdp_mem_find("use_rocm");
	const struct rdp_mem_ops *const types[] = {
		rocm,
		rocm,
		&rdp_mem_cuda,
		&rdp_mem_host,
	};
	const char *const want[] = { "rocm", "rocm", "", "" };
	struct rdp_mem gpu = { 0 }, mem = { 0 };
	struct rdp_dev dev = { .mem = &mem };
	struct rdp_conn conn = { .dev = &dev };
	struct rdp_msg_accept a;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		memset(&a, 0, sizeof(a));
		mem.ops = types[i];
		if (i == 1) { /* --bounce: the data on the GPU behind */
			mem.ops = &rdp_mem_staged;
			mem.data_ops = types[i];
			mem.state = &gpu;
		}
		rdp_session_mem_to_accept(&conn, rdp_bench_find("write_bw"),
					  &(struct rdp_params){ 0 }, &a);
		assert_string_equal(a.mem_type, want[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_null_mr_rules),
		cmocka_unit_test_setup_teardown(test_file_missing, file_setup,
						file_teardown),
		cmocka_unit_test_setup_teardown(test_file_short, file_setup,
						file_teardown),
		cmocka_unit_test_setup_teardown(test_file_shared, file_setup,
						file_teardown),
		cmocka_unit_test(test_dlid_av),
		cmocka_unit_test(test_dualport_spread),
		cmocka_unit_test(test_dualport_info),
		cmocka_unit_test(test_per_port),
		cmocka_unit_test(test_dev_opts),
		cmocka_unit_test(test_wait_interrupted),
		cmocka_unit_test(test_wait_full),
		cmocka_unit_test(test_accept_mem_type),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
