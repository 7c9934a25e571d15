/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The two post APIs (src/engine/post.c): each ibv_wr_* poster turns a
 * chain of prepared work requests into the builder calls of its opcode,
 * on a fake extended QP that writes down what it was asked; the QP maker
 * asks for the test's operations and falls back to a plain QP, said once
 * per device, where the device refuses them; --use_old_post_send and the
 * fallback reach the result through a whole session on the fake engine.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/verbs.h>

#include "unit.h"
#include "report_ctx.h"
#include "session_pair.h"
#include "../../src/engine/engine_int.h"
#include <rdmaperf/bench.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/post.h>
#include <rdmaperf/report.h>

/* What the fake QP was asked, one call after the other. */
static char trace[1024];

static void note(const char *fmt, ...) RDP_PRINTF(1, 2);
static void note(const char *fmt, ...)
{
	size_t off = strlen(trace);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(trace + off, sizeof(trace) - off, fmt, ap);
	va_end(ap);
}

static struct ibv_qp_ex fx;

/* Each builder names itself with the wr_id and wr_flags set before it. */
static void head(struct ibv_qp_ex *x, const char *what)
{
	note("%s[%llu,%#x]", what, (unsigned long long)x->wr_id, x->wr_flags);
}

static void f_start(struct ibv_qp_ex *x)
{
	(void)x;
	note("start");
}

static int f_complete(struct ibv_qp_ex *x)
{
	(void)x;
	note(" complete");
	return 0;
}

static void f_write(struct ibv_qp_ex *x, uint32_t rkey, uint64_t addr)
{
	head(x, " write");
	note("(%u,%#llx)", rkey, (unsigned long long)addr);
}

static void f_write_imm(struct ibv_qp_ex *x, uint32_t rkey, uint64_t addr,
			__be32 imm)
{
	head(x, " write_imm");
	note("(%u,%#llx,%#x)", rkey, (unsigned long long)addr, imm);
}

static void f_read(struct ibv_qp_ex *x, uint32_t rkey, uint64_t addr)
{
	head(x, " read");
	note("(%u,%#llx)", rkey, (unsigned long long)addr);
}

static void f_send(struct ibv_qp_ex *x)
{
	head(x, " send");
}

static void f_send_imm(struct ibv_qp_ex *x, __be32 imm)
{
	head(x, " send_imm");
	note("(%#x)", imm);
}

static void f_cmp_swp(struct ibv_qp_ex *x, uint32_t rkey, uint64_t addr,
		      uint64_t compare, uint64_t swap)
{
	head(x, " cmp_swp");
	note("(%u,%#llx,%llu,%llu)", rkey, (unsigned long long)addr,
	     (unsigned long long)compare, (unsigned long long)swap);
}

static void f_fetch_add(struct ibv_qp_ex *x, uint32_t rkey, uint64_t addr,
			uint64_t add)
{
	head(x, " fetch_add");
	note("(%u,%#llx,%llu)", rkey, (unsigned long long)addr,
	     (unsigned long long)add);
}

static void f_ud(struct ibv_qp_ex *x, struct ibv_ah *ah, uint32_t qpn,
		 uint32_t qkey)
{
	(void)x;
	note(" ud(%s,%#x,%#x)", ah ? "ah" : "-", qpn, qkey);
}

static void f_sge(struct ibv_qp_ex *x, uint32_t lkey, uint64_t addr,
		  uint32_t length)
{
	(void)x;
	note(" sge(%u,%#llx,%u)", lkey, (unsigned long long)addr, length);
}

static void f_inline(struct ibv_qp_ex *x, void *addr, size_t length)
{
	(void)x;
	note(" inline(%p,%zu)", addr, length);
}

static int f_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
		       struct ibv_send_wr **bad)
{
	int n = 0;

	(void)qp;
	(void)bad;
	for (; wr; wr = wr->next)
		n++;
	note("post_send(%d)", n);
	return 0;
}

static struct ibv_context fctx;
static struct rdp_dev fdev = { .name = "rxe0" };
static struct rdp_conn fconn;

static int setup_fake(void **state)
{
	(void)state;
	memset(&fx, 0, sizeof(fx));
	fx.wr_start = f_start;
	fx.wr_complete = f_complete;
	fx.wr_rdma_write = f_write;
	fx.wr_rdma_write_imm = f_write_imm;
	fx.wr_rdma_read = f_read;
	fx.wr_send = f_send;
	fx.wr_send_imm = f_send_imm;
	fx.wr_atomic_cmp_swp = f_cmp_swp;
	fx.wr_atomic_fetch_add = f_fetch_add;
	fx.wr_set_ud_addr = f_ud;
	fx.wr_set_sge = f_sge;
	fx.wr_set_inline_data = f_inline;
	fctx.ops.post_send = f_post_send;
	fx.qp_base.context = &fctx;
	memset(&fconn, 0, sizeof(fconn));
	fconn.dev = &fdev;
	fdev.wr_api_refused = 0;
	fconn.post_api = RDP_POST_WR;
	fconn.qp_type = IBV_QPT_RC;
	trace[0] = '\0';
	return 0;
}

/* Two work requests of op as the loops build them: one SGE each, the
 * second signaled; inline in the flags where asked. */
static void post_two(enum ibv_wr_opcode op, int inl)
{
	static struct ibv_sge sge = { .addr = 0x10, .length = 64, .lkey = 3 };
	struct ibv_send_wr wr[2], *bad = NULL;
	unsigned int flags = inl ? IBV_SEND_INLINE : 0;
	int i;

	memset(wr, 0, sizeof(wr));
	for (i = 0; i < 2; i++) {
		wr[i].wr_id = (uint64_t)i + 1;
		wr[i].opcode = op;
		wr[i].sg_list = &sge;
		wr[i].num_sge = 1;
		wr[i].send_flags = flags;
		wr[i].imm_data = 0x700;
		if (op == IBV_WR_ATOMIC_CMP_AND_SWP ||
		    op == IBV_WR_ATOMIC_FETCH_AND_ADD) {
			wr[i].wr.atomic.remote_addr = 0x2000;
			wr[i].wr.atomic.rkey = 9;
			wr[i].wr.atomic.compare_add = (uint64_t)i;
			wr[i].wr.atomic.swap = (uint64_t)i + 1;
		} else if (fconn.qp_type == IBV_QPT_UD) {
			wr[i].wr.ud.remote_qpn = 0x11;
			wr[i].wr.ud.remote_qkey = 0x22;
		} else {
			wr[i].wr.rdma.remote_addr = 0x1000;
			wr[i].wr.rdma.rkey = 7;
		}
	}
	wr[0].next = &wr[1];
	wr[1].send_flags |= IBV_SEND_SIGNALED;
	assert_int_equal(rdp_post_pick(&fconn, op, inl)(&fx.qp_base, wr, &bad),
			 0);
}

static const struct {
	enum ibv_wr_opcode op;
	int inl, ud;
	const char *trace;
} posters[] = {
	{ IBV_WR_RDMA_WRITE, 0, 0,
	  "start write[1,0](7,0x1000) sge(3,0x10,64) write[2,0x2](7,0x1000) "
	  "sge(3,0x10,64) complete" },
	{ IBV_WR_RDMA_WRITE, 1, 0,
	  "start write[1,0x8](7,0x1000) inline(0x10,64) "
	  "write[2,0xa](7,0x1000) inline(0x10,64) complete" },
	{ IBV_WR_RDMA_WRITE_WITH_IMM, 0, 0,
	  "start write_imm[1,0](7,0x1000,0x700) sge(3,0x10,64) "
	  "write_imm[2,0x2](7,0x1000,0x700) sge(3,0x10,64) complete" },
	{ IBV_WR_RDMA_WRITE_WITH_IMM, 1, 0,
	  "start write_imm[1,0x8](7,0x1000,0x700) inline(0x10,64) "
	  "write_imm[2,0xa](7,0x1000,0x700) inline(0x10,64) complete" },
	{ IBV_WR_RDMA_READ, 0, 0,
	  "start read[1,0](7,0x1000) sge(3,0x10,64) read[2,0x2](7,0x1000) "
	  "sge(3,0x10,64) complete" },
	{ IBV_WR_SEND, 0, 0,
	  "start send[1,0] sge(3,0x10,64) send[2,0x2] sge(3,0x10,64) "
	  "complete" },
	{ IBV_WR_SEND, 1, 0,
	  "start send[1,0x8] inline(0x10,64) send[2,0xa] inline(0x10,64) "
	  "complete" },
	{ IBV_WR_SEND_WITH_IMM, 0, 0,
	  "start send_imm[1,0](0x700) sge(3,0x10,64) send_imm[2,0x2](0x700) "
	  "sge(3,0x10,64) complete" },
	{ IBV_WR_SEND_WITH_IMM, 1, 0,
	  "start send_imm[1,0x8](0x700) inline(0x10,64) "
	  "send_imm[2,0xa](0x700) inline(0x10,64) complete" },
	{ IBV_WR_SEND, 0, 1,
	  "start send[1,0] ud(-,0x11,0x22) sge(3,0x10,64) send[2,0x2] "
	  "ud(-,0x11,0x22) sge(3,0x10,64) complete" },
	{ IBV_WR_SEND, 1, 1,
	  "start send[1,0x8] ud(-,0x11,0x22) inline(0x10,64) send[2,0xa] "
	  "ud(-,0x11,0x22) inline(0x10,64) complete" },
	{ IBV_WR_SEND_WITH_IMM, 0, 1,
	  "start send_imm[1,0](0x700) ud(-,0x11,0x22) sge(3,0x10,64) "
	  "send_imm[2,0x2](0x700) ud(-,0x11,0x22) sge(3,0x10,64) complete" },
	{ IBV_WR_SEND_WITH_IMM, 1, 1,
	  "start send_imm[1,0x8](0x700) ud(-,0x11,0x22) inline(0x10,64) "
	  "send_imm[2,0xa](0x700) ud(-,0x11,0x22) inline(0x10,64) "
	  "complete" },
	{ IBV_WR_ATOMIC_CMP_AND_SWP, 0, 0,
	  "start cmp_swp[1,0](9,0x2000,0,1) sge(3,0x10,64) "
	  "cmp_swp[2,0x2](9,0x2000,1,2) sge(3,0x10,64) complete" },
	{ IBV_WR_ATOMIC_FETCH_AND_ADD, 0, 0,
	  "start fetch_add[1,0](9,0x2000,0) sge(3,0x10,64) "
	  "fetch_add[2,0x2](9,0x2000,1) sge(3,0x10,64) complete" },
};

/* One critical section and one builder per work request, the flags as
 * the loop set them (IBV_SEND_INLINE too: rxe reads it), inline data
 * through its setter, UD's address on each. */
static void test_wr_posters(void **state)
{
	size_t i;

	for (i = 0; i < sizeof(posters) / sizeof(posters[0]); i++) {
		setup_fake(state);
		fconn.qp_type = posters[i].ud ? IBV_QPT_UD : IBV_QPT_RC;
		post_two(posters[i].op, posters[i].inl);
		if (strcmp(trace, posters[i].trace))
			fail_msg("poster %zu:\n got  %s\n want %s", i, trace,
				 posters[i].trace);
	}
}

/* --use_old_post_send (or a plain QP): ibv_post_send with the chain. */
static void test_classic_poster(void **state)
{
	struct ibv_send_wr wr[2] = { { 0 } }, *bad;

	setup_fake(state);
	fconn.post_api = RDP_POST_SEND;
	wr[0].next = &wr[1];
	assert_int_equal(rdp_post_pick(&fconn, IBV_WR_RDMA_WRITE,
				       0)(&fx.qp_base, wr, &bad),
			 0);
	assert_string_equal(trace, "post_send(2)");
	assert_string_equal(rdp_post_api_name(RDP_POST_SEND), "post_send");
	assert_string_equal(rdp_post_api_name(RDP_POST_WR), "wr");
}

/* The fake device's answer to each QP it is asked for. */
static struct {
	int refuse_ops; /* errno for a QP with send_ops_flags, 0: made */
	int refuse_all; /* errno for any QP, 0: made */
	int calls;
	uint64_t ops_asked; /* the last send_ops_flags with the mask bit */
	uint32_t inline_granted;
} dev_says;

static struct ibv_qp the_qp;

static struct ibv_qp *fake_maker(void *arg, struct ibv_qp_init_attr_ex *x)
{
	(void)arg;
	dev_says.calls++;
	assert_true(x->comp_mask & IBV_QP_INIT_ATTR_PD);
	if (x->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS) {
		dev_says.ops_asked = x->send_ops_flags;
		if (dev_says.refuse_ops) {
			errno = dev_says.refuse_ops;
			return NULL;
		}
	}
	if (dev_says.refuse_all) {
		errno = dev_says.refuse_all;
		return NULL;
	}
	x->cap.max_inline_data = dev_says.inline_granted;
	return &the_qp;
}

/* rdp_qp_make with stderr caught into logged. */
static struct ibv_qp *make_caught(char *logged, size_t len)
{
	struct ibv_qp_init_attr ia = { .qp_type = IBV_QPT_RC };
	FILE *f = tmpfile();
	struct ibv_qp *qp;
	int saved;
	size_t n;

	ia.cap.max_inline_data = 220;
	fflush(stderr);
	saved = dup(2);
	assert_true(saved >= 0 && f);
	assert_int_equal(dup2(fileno(f), 2), 2);
	qp = rdp_qp_make(&fconn, &ia, fake_maker, NULL);
	fflush(stderr);
	assert_int_equal(dup2(saved, 2), 2);
	close(saved);
	rewind(f);
	n = fread(logged, 1, len - 1, f);
	logged[n] = '\0';
	fclose(f);
	if (qp)
		assert_int_equal(ia.cap.max_inline_data,
				 dev_says.inline_granted);
	return qp;
}

static void reset_dev(int refuse_ops, int refuse_all)
{
	memset(&dev_says, 0, sizeof(dev_says));
	dev_says.refuse_ops = refuse_ops;
	dev_says.refuse_all = refuse_all;
	dev_says.inline_granted = 188;
}

/* An extended QP with the test's operations, nothing said. */
static void test_make_extended(void **state)
{
	char logged[512];

	setup_fake(state);
	reset_dev(0, 0);
	fconn.send_ops = IBV_QP_EX_WITH_RDMA_WRITE;
	assert_ptr_equal(make_caught(logged, sizeof(logged)), &the_qp);
	assert_int_equal(dev_says.calls, 1);
	assert_int_equal(dev_says.ops_asked, IBV_QP_EX_WITH_RDMA_WRITE);
	assert_int_equal(fconn.post_api, RDP_POST_WR);
	assert_string_equal(logged, "");
}

/* Refused: a plain QP, ibv_post_send, one warning per device; the next
 * connection on it asks for a plain QP at once. */
static void test_make_fallback(void **state)
{
	char logged[512], want[512];

	setup_fake(state);
	reset_dev(EOPNOTSUPP, 0);
	fconn.send_ops = IBV_QP_EX_WITH_SEND;
	assert_ptr_equal(make_caught(logged, sizeof(logged)), &the_qp);
	assert_int_equal(dev_says.calls, 2);
	assert_int_equal(fconn.post_api, RDP_POST_SEND);
	snprintf(want, sizeof(want),
		 "%s: warning: rxe0 refused an extended QP for the ibv_wr_* "
		 "post API (%s): posting with ibv_post_send, as "
		 "--use_old_post_send does\n",
		 program_invocation_short_name, strerror(EOPNOTSUPP));
	assert_string_equal(logged, want);
	/* the next QP of the same connection */
	assert_ptr_equal(make_caught(logged, sizeof(logged)), &the_qp);
	assert_string_equal(logged, "");
	assert_int_equal(dev_says.calls, 3);
	/* a new connection on the same device */
	fconn.post_api = RDP_POST_WR;
	assert_ptr_equal(make_caught(logged, sizeof(logged)), &the_qp);
	assert_string_equal(logged, "");
	assert_int_equal(dev_says.calls, 4);
	assert_int_equal(fconn.post_api, RDP_POST_SEND);
}

/* A QP the device makes neither way is a failure of its shape, not a
 * refusal of the API: nothing said, the API unchanged. */
static void test_make_fails(void **state)
{
	char logged[512];

	setup_fake(state);
	reset_dev(0, ENOMEM);
	fconn.send_ops = IBV_QP_EX_WITH_SEND;
	errno = 0;
	assert_null(make_caught(logged, sizeof(logged)));
	assert_int_equal(errno, ENOMEM);
	assert_int_equal(dev_says.calls, 2);
	assert_int_equal(fconn.post_api, RDP_POST_WR);
	assert_int_equal(fdev.wr_api_refused, 0);
	assert_string_equal(logged, "");
}

/* --use_old_post_send asks for a plain QP only. */
static void test_make_plain(void **state)
{
	char logged[512];

	setup_fake(state);
	reset_dev(EOPNOTSUPP, 0);
	fconn.post_api = RDP_POST_SEND;
	assert_ptr_equal(make_caught(logged, sizeof(logged)), &the_qp);
	assert_int_equal(dev_says.calls, 1);
	assert_int_equal(dev_says.ops_asked, 0);
	assert_string_equal(logged, "");
}

/* Each test's operations, whichever side posts them. */
static void test_send_ops(void **state)
{
	static const struct {
		const char *test;
		uint64_t ops;
	} rows[] = {
		{ "write_bw", IBV_QP_EX_WITH_RDMA_WRITE |
				      IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM },
		{ "write_lat", IBV_QP_EX_WITH_RDMA_WRITE |
				       IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM },
		{ "read_bw", IBV_QP_EX_WITH_RDMA_READ },
		{ "read_lat", IBV_QP_EX_WITH_RDMA_READ },
		{ "send_bw",
		  IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM },
		{ "send_lat",
		  IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM },
		{ "atomic_bw", IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP |
				       IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD },
		{ "atomic_lat", IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP |
					IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct rdp_bench_ops *ops = rdp_bench_find(rows[i].test);

		assert_non_null(ops);
		assert_int_equal(rdp_bench_send_ops(ops), rows[i].ops);
	}
}

/* A whole session on the fake engine: the API both sides asked for, and
 * the one the client's result records. */
static void session_api(const char *test, int old, int no_qp_ex,
			enum rdp_post_api want)
{
	struct server_side srv;
	struct rdp_session_results *out = NULL;
	struct rdp_opts co;
	struct rdp_oob cli;
	const char *args[] = { test, "-n", "10", "--use_old_post_send", NULL };

	if (!old)
		args[3] = NULL;
	memset(&srv, 0, sizeof(srv));
	fake_engine_reset();
	fake_engine_cfg.no_qp_ex = no_qp_ex;
	client_opts(&co, args);
	server_opts(&srv.o, ARGS("--max-memory", "1M"));
	assert_int_equal(rdp_oob_loopback(IO_MS, &cli, &srv.oob), 0);
	serve_start(&srv);
	assert_int_equal(rdp_session_client_results(&co, &fake_engine, &cli,
						    NULL, &out),
			 RDP_EXIT_OK);
	serve_join(&srv);
	assert_int_equal(srv.ret, 0);
	assert_non_null(out);
	assert_int_equal(out->n, 1);
	assert_int_equal(out->points[0].dec.post_api, want);
	/* the server asked as the client did (PARAMS carries the flag) */
	assert_int_equal(fake_engine_cfg.post_send_asked, old ? 2 : 0);
	rdp_session_results_free(out);
	balanced();
}

static void test_session_default(void **state)
{
	(void)state;
	session_api("write_bw", 0, 0, RDP_POST_WR);
	session_api("send_lat", 0, 0, RDP_POST_WR);
}

static void test_session_old(void **state)
{
	(void)state;
	session_api("write_bw", 1, 0, RDP_POST_SEND);
	session_api("atomic_bw", 1, 0, RDP_POST_SEND);
}

static void test_session_refused(void **state)
{
	(void)state;
	session_api("read_bw", 0, 1, RDP_POST_SEND);
}

/* The header's Posting line: the API that ran, and why not the
 * builders. */
static void header_line(enum rdp_post_api api, uint32_t flags, const char *want)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct ctx c;

	ctx_init_ops(&c, rdp_bench_find("write_bw"));
	c.params.flags |= flags;
	c.dec.post_api = api;
	assert_non_null(f);
	rdp_report_header(f, &c.info);
	assert_int_equal(fclose(f), 0);
	if (!strstr(buf, want))
		fail_msg("no line \"%s\" in:\n%s", want, buf);
	free(buf);
}

static void test_header_line(void **state)
{
	(void)state;
	header_line(RDP_POST_WR, 0,
		    "\n Posting         : ibv_wr_* builders on extended QPs\n");
	header_line(RDP_POST_SEND, RDP_PARAM_OLD_POST_SEND,
		    "\n Posting         : ibv_post_send "
		    "(--use_old_post_send)\n");
	header_line(RDP_POST_SEND, 0,
		    "\n Posting         : ibv_post_send (the device refused "
		    "extended QPs)\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wr_posters),
		cmocka_unit_test(test_classic_poster),
		cmocka_unit_test(test_make_extended),
		cmocka_unit_test(test_make_fallback),
		cmocka_unit_test(test_make_fails),
		cmocka_unit_test(test_make_plain),
		cmocka_unit_test(test_send_ops),
		cmocka_unit_test(test_session_default),
		cmocka_unit_test(test_session_old),
		cmocka_unit_test(test_session_refused),
		cmocka_unit_test(test_header_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
