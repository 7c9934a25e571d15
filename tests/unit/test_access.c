/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Least exposure: the access each side of each test grants, what its QPs
 * and QP_INFO carry of it, and buffers zeroed between deregistration and
 * free. No device: QP and MR structs stand in for the verbs' own.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <infiniband/verbs.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/mem.h>

#define LW IBV_ACCESS_LOCAL_WRITE
#define RW IBV_ACCESS_REMOTE_WRITE
#define RR IBV_ACCESS_REMOTE_READ
#define RA IBV_ACCESS_REMOTE_ATOMIC

/* Every test, one way and with -b where it runs both ways: the flags of
 * the client's buffer and of the server's. */
static const struct {
	const char *test;
	int bidir;
	int client, server;
} table[] = {
	{ "write_bw", 0, 0, LW | RW },
	{ "write_bw", 1, LW | RW, LW | RW },
	{ "write_lat", 0, LW | RW, LW | RW },
	{ "read_bw", 0, LW, RR },
	{ "read_bw", 1, LW | RR, LW | RR },
	{ "read_lat", 0, LW, RR },
	{ "send_bw", 0, 0, LW },
	{ "send_bw", 1, LW, LW },
	{ "send_lat", 0, LW, LW },
	{ "atomic_bw", 0, LW, LW | RA },
	{ "atomic_bw", 1, LW | RA, LW | RA },
	{ "atomic_lat", 0, LW, LW | RA },
};

#define N_TABLE (sizeof(table) / sizeof(table[0]))

static void params_of(struct rdp_params *p, const char *test, uint32_t flags)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->test, sizeof(p->test), "%s", test);
	p->size_bytes = 8;
	p->num_qps = 1;
	p->flags = flags;
}

static int access_of(const char *test, uint32_t flags, uint32_t transport,
		     enum rdp_side side)
{
	const struct rdp_bench_ops *ops = rdp_bench_find(test);
	struct rdp_params p;

	assert_non_null(ops);
	params_of(&p, test, flags);
	p.transport = transport;
	return rdp_bench_access(ops, &p, side);
}

static void test_table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < N_TABLE; i++) {
		uint32_t f = table[i].bidir ? RDP_PARAM_BIDIR : 0;

		if (access_of(table[i].test, f, 0, RDP_SIDE_CLIENT) !=
			    table[i].client ||
		    access_of(table[i].test, f, 0, RDP_SIDE_SERVER) !=
			    table[i].server)
			fail_msg(
				"%s%s: client 0x%x server 0x%x, want 0x%x "
				"0x%x",
				table[i].test, table[i].bidir ? " -b" : "",
				access_of(table[i].test, f, 0, RDP_SIDE_CLIENT),
				access_of(table[i].test, f, 0, RDP_SIDE_SERVER),
				table[i].client, table[i].server);
	}
}

/* The table covers the registry: a new test needs its row. */
static void test_table_whole(void **state)
{
	const struct rdp_bench_ops *const *t;
	size_t i;
	int b, found;

	(void)state;
	for (t = rdp_bench_all(); *t; t++) {
		for (b = 0; b < 2; b++) {
			if (b && !((*t)->flags & RDP_BENCH_BIDIR))
				continue;
			found = 0;
			for (i = 0; i < N_TABLE; i++)
				found |= !strcmp(table[i].test, (*t)->name) &&
					 table[i].bidir == b;
			if (!found)
				fail_msg("no row for %s%s", (*t)->name,
					 b ? " -b" : "");
		}
	}
}

/* Verbs' own rule: remote write and remote atomic need local write. */
static void test_verbs_rule(void **state)
{
	size_t i;
	int a[2];

	(void)state;
	for (i = 0; i < N_TABLE; i++) {
		a[0] = table[i].client;
		a[1] = table[i].server;
		assert_true(!(a[0] & (RW | RA)) || (a[0] & LW));
		assert_true(!(a[1] & (RW | RA)) || (a[1] & LW));
	}
}

/* How a buffer is registered or reached changes nothing it grants;
 * immediate data adds receives only where the writes land anyway. */
static void test_invariants(void **state)
{
	static const uint32_t reg[] = { RDP_PARAM_MR_PER_QP, RDP_PARAM_ODP,
					RDP_PARAM_ODP | RDP_PARAM_ODP_IMPLICIT,
					RDP_PARAM_RDMA_CM, RDP_PARAM_EVENTS };
	size_t i, k;
	enum rdp_side s;

	(void)state;
	for (i = 0; i < N_TABLE; i++)
		for (k = 0; k < sizeof(reg) / sizeof(reg[0]); k++)
			for (s = RDP_SIDE_CLIENT; s <= RDP_SIDE_SERVER; s++)
				assert_int_equal(
					access_of(
						table[i].test,
						reg[k] |
							(table[i].bidir
								 ? RDP_PARAM_BIDIR
								 : 0),
						0, s),
					s ? table[i].server : table[i].client);
	/* --write_with_imm: the server also receives */
	assert_int_equal(access_of("write_bw", RDP_PARAM_WRITE_IMM, 0,
				   RDP_SIDE_SERVER),
			 LW | RW);
	assert_int_equal(access_of("write_bw", RDP_PARAM_WRITE_IMM, 0,
				   RDP_SIDE_CLIENT),
			 0);
	/* UC and UD, immediate data, a shared receive queue: receives only */
	assert_int_equal(access_of("send_bw",
				   RDP_PARAM_SRQ | RDP_PARAM_SEND_IMM,
				   RDP_TRANSPORT_UD, RDP_SIDE_SERVER),
			 LW);
	assert_int_equal(
		access_of("send_bw", 0, RDP_TRANSPORT_UC, RDP_SIDE_CLIENT), 0);
	assert_int_equal(access_of("send_lat", 0, RDP_TRANSPORT_UD,
				   RDP_SIDE_CLIENT),
			 LW);
	assert_int_equal(access_of("write_bw", 0, RDP_TRANSPORT_UC,
				   RDP_SIDE_SERVER),
			 LW | RW);
}

static void test_names(void **state)
{
	char buf[80];

	(void)state;
	assert_string_equal(rdp_access_str(0, buf, sizeof(buf)), "");
	assert_string_equal(rdp_access_str(LW | RW | RR | RA | 0x100000, buf,
					   sizeof(buf)),
			    "local_write, remote_write, remote_read, "
			    "remote_atomic");
	assert_string_equal(rdp_access_str(RA, buf, sizeof(buf)),
			    "remote_atomic");
	/* cut, never overrun */
	assert_string_equal(rdp_access_str(LW | RW, buf, 8), "local_w");
}

/* QPs take the remote flags of the buffer's access and nothing about how
 * it is registered; UC no READ or atomics; UD no access flags at all. */
static void test_qp_flags(void **state)
{
	struct rdp_qp_cfg cfg = { .port = 1 };
	int all = LW | RW | RR | RA | IBV_ACCESS_ON_DEMAND;
	struct ibv_qp_attr a;
	int mask;

	(void)state;
	cfg.qp_type = IBV_QPT_RC;
	rdp_qp_attr_init(&cfg, all, &a, &mask);
	assert_int_equal(a.qp_access_flags, RW | RR | RA);
	rdp_qp_attr_init(&cfg, LW, &a, &mask);
	assert_int_equal(a.qp_access_flags, 0);
	assert_true(mask & IBV_QP_ACCESS_FLAGS);
	cfg.qp_type = IBV_QPT_UC;
	rdp_qp_attr_init(&cfg, all, &a, &mask);
	assert_int_equal(a.qp_access_flags, RW);
	cfg.qp_type = IBV_QPT_UD;
	rdp_qp_attr_init(&cfg, all, &a, &mask);
	assert_int_equal(a.qp_access_flags, 0);
	assert_false(mask & IBV_QP_ACCESS_FLAGS);
}

/* One QP over a 2-slot buffer, with stand-ins for the verbs objects. */
struct one_qp {
	struct rdp_dev dev;
	struct rdp_conn conn;
	struct ibv_qp qp, *qps[1];
	struct ibv_mr mr;
	uint32_t psn;
	uint8_t buf[256];
};

static void one_qp_init(struct one_qp *o, int access)
{
	memset(o, 0, sizeof(*o));
	o->dev.port.active_mtu_bytes = 1024;
	o->qp.qp_num = 0x1a2;
	o->qps[0] = &o->qp;
	o->mr.rkey = 0x1234;
	o->psn = 0x77;
	o->conn.dev = &o->dev;
	o->conn.qps = o->qps;
	o->conn.num_qps = 1;
	o->conn.psns = &o->psn;
	o->conn.mr = &o->mr;
	o->conn.buf = o->buf;
	o->conn.buf_bytes = sizeof(o->buf);
	o->conn.slot_bytes = 128;
	o->conn.mr_access = access;
}

/* A side the peer may not reach hands out no key, address or length. */
static void test_qp_info_keys(void **state)
{
	struct rdp_qp_info info;
	struct one_qp o;

	(void)state;
	one_qp_init(&o, LW | IBV_ACCESS_ON_DEMAND);
	rdp_conn_local_info(&o.conn, 0, 0, &info);
	assert_int_equal(info.qpn, 0x1a2);
	assert_int_equal(info.psn, 0x77);
	assert_int_equal(info.rkey, 0);
	assert_int_equal(info.addr, 0);
	assert_int_equal(info.len_bytes, 0);
	one_qp_init(&o, LW | RW);
	rdp_conn_local_info(&o.conn, 0, 0, &info);
	assert_int_equal(info.rkey, 0x1234);
	assert_int_equal(info.addr, (uint64_t)(uintptr_t)(o.buf + 128));
	assert_int_equal(info.len_bytes, 128);
	/* READ: the send slot is what the peer reads */
	one_qp_init(&o, RR);
	rdp_conn_local_info(&o.conn, 0, 1, &info);
	assert_int_equal(info.rkey, 0x1234);
	assert_int_equal(info.addr, (uint64_t)(uintptr_t)o.buf);
}

/* After a point, a byte of the checking side's buffer that no message of
 * it reached must be zero: past the message in either slot, or past the
 * last slot. That is where an earlier test's data would be. */
static void test_untouched_zero(void **state)
{
	static const size_t stray[] = { 100, 127, 128 + 100, 255, 256, 511 };
	const struct rdp_bench_ops *ops = rdp_bench_find("write_bw");
	struct rdp_data_check r;
	struct rdp_params p;
	struct rdp_run run;
	struct one_qp o;
	size_t i;

	(void)state;
	one_qp_init(&o, LW | RW);
	o.conn.buf_bytes = 512; /* two 128-byte slots, then 256 more */
	o.conn.buf = malloc(512);
	assert_non_null(o.conn.buf);
	params_of(&p, "write_bw", 0);
	p.size_bytes = 100;
	p.seed = 7;
	run = (struct rdp_run){ .params = &p, .ops = ops, .conn = &o.conn };
	for (i = 0; i < sizeof(stray) / sizeof(stray[0]) + 1; i++) {
		memset(o.conn.buf, 0, 512);
		rdp_pattern_fill(rdp_conn_rx(&o.conn, 0), 100, 7, 0,
				 RDP_SIDE_CLIENT);
		rdp_pattern_fill(rdp_conn_tx(&o.conn, 0), 100, 7, 0,
				 RDP_SIDE_SERVER);
		memset(&r, 0, sizeof(r));
		run.side = RDP_SIDE_SERVER;
		if (i == sizeof(stray) / sizeof(stray[0])) {
			assert_int_equal(ops->verify(&run, 1, &r), 0);
			assert_int_equal(r.checked_bytes, 100);
			break;
		}
		((uint8_t *)o.conn.buf)[stray[i]] = 0x11;
		assert_int_equal(ops->verify(&run, 1, &r), -EILSEQ);
		assert_int_equal(r.bad_offset, stray[i]);
		/* the client of a one-way write_bw checks nothing */
		run.side = RDP_SIDE_CLIENT;
		memset(&r, 0, sizeof(r));
		assert_int_equal(ops->verify(&run, 1, &r), 0);
	}
	free(o.conn.buf);
}

/* A memory type that records what rdp_mem_buf_destroy() did, in order. */
static struct {
	char calls[8];
	int n;
	int zero_at_free;
	size_t bytes;
} rec;

static int rec_alloc(struct rdp_mem *m, size_t bytes, int node, void **out)
{
	(void)m;
	(void)node;
	*out = malloc(bytes);
	rec.bytes = bytes;
	return *out ? 0 : -ENOMEM;
}

static int rec_reg(struct rdp_mem *m, struct ibv_pd *pd, void *ptr,
		   size_t bytes, int access, const char *nic,
		   struct ibv_mr **out, enum rdp_mem_path *path, char *note,
		   size_t note_len)
{
	(void)m;
	(void)pd;
	(void)ptr;
	(void)bytes;
	(void)access;
	(void)nic;
	(void)note_len;
	*out = NULL; /* nothing to deregister without a device */
	*path = RDP_MEM_PATH_HOST;
	note[0] = '\0';
	return 0;
}

static int rec_wipe(struct rdp_mem *m, void *ptr, size_t bytes)
{
	(void)m;
	rec.calls[rec.n++] = 'w';
	return rdp_mem_host.wipe(m, ptr, bytes);
}

static void rec_free(struct rdp_mem *m, void *ptr, size_t bytes)
{
	const uint8_t *b = ptr;
	size_t k;

	(void)m;
	rec.calls[rec.n++] = 'f';
	rec.zero_at_free = 1;
	for (k = 0; k < bytes; k++)
		rec.zero_at_free &= !b[k];
	free(ptr);
}

static const struct rdp_mem_ops rec_ops = {
	.name = "recording",
	.cpu_readable = 1,
	.alloc = rec_alloc,
	.free = rec_free,
	.wipe = rec_wipe,
	.reg = rec_reg,
};

/* Wiped, then freed: what the test left never reaches the allocator. */
static void test_buf_wiped_before_free(void **state)
{
	struct rdp_mem m = { .ops = &rec_ops };
	struct rdp_mem_buf *b = NULL;

	(void)state;
	memset(&rec, 0, sizeof(rec));
	assert_int_equal(rdp_mem_buf_create(&m, NULL, 4096, -1, LW | RW,
					    "fake0", &b),
			 0);
	assert_int_equal(b->access, LW | RW);
	memset(b->host, 0x5a, b->bytes);
	rdp_mem_buf_destroy(b);
	assert_int_equal(rec.n, 2);
	assert_memory_equal(rec.calls, "wf", 2);
	assert_true(rec.zero_at_free);
	assert_int_equal(rec.bytes, 4096);
	rdp_mem_buf_destroy(NULL);
}

/* Host memory's wipe zeroes every byte it is given, huge pages or not. */
static void test_host_wipe(void **state)
{
	struct rdp_mem m = { .ops = &rdp_mem_host };
	uint8_t *p = NULL;
	size_t k;

	(void)state;
	assert_int_equal(m.ops->alloc(&m, 8192, -1, (void **)&p), 0);
	memset(p, 0xc3, 8192);
	assert_int_equal(m.ops->wipe(&m, p, 8192), 0);
	for (k = 0; k < 8192; k++)
		assert_int_equal(p[k], 0);
	m.ops->free(&m, p, 8192);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_table_whole),
		cmocka_unit_test(test_verbs_rule),
		cmocka_unit_test(test_invariants),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_qp_flags),
		cmocka_unit_test(test_qp_info_keys),
		cmocka_unit_test(test_untouched_zero),
		cmocka_unit_test(test_buf_wiped_before_free),
		cmocka_unit_test(test_host_wipe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
