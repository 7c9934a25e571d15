/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perftest's loop shapes: --recv_post_list, --latency_gap, --burst_size
 * with --typical_pkt_size, and --reversed. Their parsing and refusals (one
 * exact line each), the loop shape in PARAMS, receives chained and the gap
 * left out of the stamps over fake verbs, and a reversed session whose
 * figures are the server's, in one process on the fake engine.
 */
#include <errno.h>
#include <jansson.h>
#include <infiniband/verbs.h>

#include "unit.h"
#include "session_pair.h"
#include "../../src/bench/bench_int.h"
#include <rdmaperf/bench.h>
#include <rdmaperf/clock.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/transport.h>
#include <rdmaperf/wire.h>

#define SLOT   64
#define ITERS  100
#define GAP_NS 20000

/* rdmaperf ARGS 192.0.2.1 through the client's parser: its status. */
static int parse(struct rdp_opts *o, const char **args, char *err, size_t len)
{
	const char *argv[32] = { "rdmaperf" };
	int n = argc_of(args);

	assert_true(n < 28);
	memcpy(argv + 1, args, (size_t)n * sizeof(*argv));
	argv[n + 1] = "192.0.2.1";
	err[0] = '\0';
	return rdp_opts_parse_client(n + 2, (char **)argv, o, err, len);
}

static void test_refusals(void **state)
{
	const struct {
		const char **args;
		const char *line;
	} rows[] = {
		{ ARGS("write_bw", "--recv_post_list", "4"),
		  "write_bw: --recv_post_list chains the receives of send_bw" },
		{ ARGS("send_bw", "--recv_post_list", "600"),
		  "--recv_post_list 600 is more than the receive queue's "
		  "depth (-r 512): give at most 512, or a larger -r" },
		{ ARGS("send_bw", "--recv_post_list", "8", "-r", "4"),
		  "--recv_post_list 8 is more than the receive queue's "
		  "depth (-r 4): give at most 4, or a larger -r" },
		{ ARGS("send_bw", "--recv_post_list", "0"),
		  "--recv_post_list 0 is out of range: use 1..65536" },
		{ ARGS("send_bw", "--recv_post_list", "4", "-b"),
		  "--recv_post_list does not combine with -b: send_bw -b "
		  "puts each receive back as it completes" },
		{ ARGS("write_bw", "--latency_gap", "10"),
		  "write_bw: --latency_gap pauses between the round trips of "
		  "the latency tests: drop it" },
		{ ARGS("write_lat", "--latency_gap", "2x"),
		  "--latency_gap needs a pause up to 1s like 10 "
		  "(microseconds, as perftest), 500ns, 20us or 1ms, not "
		  "'2x'" },
		{ ARGS("write_lat", "--latency_gap", "2s"),
		  "--latency_gap needs a pause up to 1s like 10 "
		  "(microseconds, as perftest), 500ns, 20us or 1ms, not "
		  "'2s'" },
		{ ARGS("write_bw", "--burst_size", "4"),
		  "--burst_size shapes the pacing of --rate_limit: add "
		  "--rate_limit" },
		{ ARGS("write_bw", "--rate_limit", "1", "--typical_pkt_size",
		       "1024"),
		  "--typical_pkt_size tunes the device's pacing: add "
		  "--rate_limit_type HW" },
		{ ARGS("write_lat", "--reversed"),
		  "write_lat: --reversed applies to write_bw and send_bw" },
		{ ARGS("read_bw", "--reversed"),
		  "read_bw: --reversed applies to write_bw and send_bw; "
		  "perftest's swaps the two sides, so that its server posts "
		  "the READs on the client's memory: run read_bw with its "
		  "client on the other host for that" },
		{ ARGS("atomic_bw", "--reversed"),
		  "atomic_bw: --reversed applies to write_bw and send_bw; "
		  "perftest's swaps the two sides, so that its server posts "
		  "the atomics on the client's memory: run atomic_bw with "
		  "its client on the other host for that" },
		{ ARGS("write_bw", "--reversed", "-b"),
		  "--reversed and -b: -b already sends both ways; drop one "
		  "of them" },
		{ ARGS("write_bw", "--reversed", "--perftest"),
		  "--reversed with --perftest is not built in: perftest's "
		  "dialogue cannot ask its server to send; run "
		  "rdmaperf-server there" },
		{ ARGS("send_bw", "--reversed", "-c", "UD"),
		  "--reversed runs on RC: drop -c UD" },
		{ ARGS("write_bw", "--reversed", "--threads", "2"),
		  "--reversed does not combine with --threads, --bounce or "
		  "--run_infinitely" },
	};
	static struct rdp_opts o;
	char err[512];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		assert_int_equal(parse(&o, rows[i].args, err, sizeof(err)),
				 -EINVAL);
		if (strcmp(err, rows[i].line))
			fail_msg("row %zu: '%s', not '%s'", i, err,
				 rows[i].line);
	}
}

static void test_accepted(void **state)
{
	static struct rdp_opts o;
	char err[512];

	(void)state;
	assert_int_equal(parse(&o, ARGS("send_bw", "--recv_post_list", "4"),
			       err, sizeof(err)),
			 RDP_PARSE_OK);
	assert_int_equal(o.params.recv_post_list, 4);
	/* perftest's unit is the microsecond; a unit may be given */
	assert_int_equal(parse(&o, ARGS("write_lat", "--latency_gap", "10"),
			       err, sizeof(err)),
			 RDP_PARSE_OK);
	assert_int_equal(o.params.latency_gap_ns, 10000);
	assert_int_equal(parse(&o, ARGS("read_lat", "--latency_gap", "500ns"),
			       err, sizeof(err)),
			 RDP_PARSE_OK);
	assert_int_equal(o.params.latency_gap_ns, 500);
	assert_int_equal(parse(&o, ARGS("send_lat", "--latency_gap", "1ms"),
			       err, sizeof(err)),
			 RDP_PARSE_OK);
	assert_int_equal(o.params.latency_gap_ns, 1000000);
	/* each side's own pause, nothing on the wire: with perftest too */
	assert_int_equal(
		parse(&o,
		      ARGS("write_lat", "--latency_gap", "20", "--perftest"),
		      err, sizeof(err)),
		RDP_PARSE_OK);
	assert_int_equal(o.params.latency_gap_ns, 20000);
	assert_int_equal(parse(&o, ARGS("write_lat", "--latency_gap", "0"), err,
			       sizeof(err)),
			 RDP_PARSE_OK);
	assert_int_equal(o.params.latency_gap_ns, 0);
	assert_int_equal(parse(&o,
			       ARGS("write_bw", "--rate_limit", "1",
				    "--burst_size", "8"),
			       err, sizeof(err)),
			 RDP_PARSE_OK);
	assert_int_equal(o.params.burst_size, 8);
	assert_int_equal(parse(&o,
			       ARGS("write_bw", "--rate_limit", "1",
				    "--rate_limit_type", "HW",
				    "--typical_pkt_size", "1024"),
			       err, sizeof(err)),
			 RDP_PARSE_OK);
	assert_int_equal(o.params.typical_pkt_bytes, 1024);
	assert_int_equal(parse(&o, ARGS("send_bw", "--reversed"), err,
			       sizeof(err)),
			 RDP_PARSE_OK);
	assert_true(o.params.flags & RDP_PARAM_REVERSED);
}

static size_t params_wire(const struct rdp_params *p, struct rdp_params *out)
{
	struct rdp_msg m = { .type = RDP_MSG_PARAMS }, back;
	uint8_t buf[RDP_WIRE_HDR_BYTES + RDP_WIRE_MAX_PAYLOAD];
	struct rdp_wire_hdr hdr;
	size_t len = 0;

	m.u.params = *p;
	assert_int_equal(rdp_wire_encode(&m, buf, sizeof(buf), &len), 0);
	assert_int_equal(rdp_wire_decode_hdr(buf, len, &hdr), 0);
	assert_int_equal(rdp_wire_decode_body(hdr.type,
					      buf + RDP_WIRE_HDR_BYTES,
					      hdr.len_bytes, &back),
			 0);
	*out = back.u.params;
	return len;
}

/* The flag with a shape that says nothing (every field 0, or a chain of
 * 1) is no sender's: it would encode back without them. Malformed. */
static void shape_flagged_empty(void)
{
	struct rdp_msg m = { .type = RDP_MSG_PARAMS }, back;
	uint8_t buf[RDP_WIRE_HDR_BYTES + RDP_WIRE_MAX_PAYLOAD];
	size_t len = 0;

	snprintf(m.u.params.test, sizeof(m.u.params.test), "send_bw");
	m.u.params.num_qps = 1;
	m.u.params.burst_size = 16;
	assert_int_equal(rdp_wire_encode(&m, buf, sizeof(buf), &len), 0);
	/* the shape is the last 20 bytes: recv_post_list 1, the rest 0 */
	memset(buf + len - 20, 0, 20);
	buf[len - 17] = 1;
	assert_int_equal(rdp_wire_decode_body(RDP_MSG_PARAMS,
					      buf + RDP_WIRE_HDR_BYTES,
					      len - RDP_WIRE_HDR_BYTES, &back),
			 -EBADMSG);
}

/* The shape travels only when given, flagged, and the flag is not kept. */
static void test_wire_shape(void **state)
{
	struct rdp_params p = { .test = "send_bw", .num_qps = 1 }, out;
	size_t plain, shaped;

	(void)state;
	plain = params_wire(&p, &out);
	assert_int_equal(out.flags, 0);
	assert_int_equal(out.recv_post_list, 0);
	p.recv_post_list = 4;
	p.burst_size = 16;
	p.typical_pkt_bytes = 1024;
	p.latency_gap_ns = 12345;
	p.flags = RDP_PARAM_REVERSED;
	shaped = params_wire(&p, &out);
	assert_int_equal(shaped, plain + 4 + 4 + 4 + 8);
	assert_int_equal(out.flags, RDP_PARAM_REVERSED);
	assert_int_equal(out.recv_post_list, 4);
	assert_int_equal(out.burst_size, 16);
	assert_int_equal(out.typical_pkt_bytes, 1024);
	assert_int_equal(out.latency_gap_ns, 12345);
	/* recv_post_list 1 is the default: nothing more on the wire */
	memset(&p, 0, sizeof(p));
	snprintf(p.test, sizeof(p.test), "send_bw");
	p.num_qps = 1;
	p.recv_post_list = 1;
	assert_int_equal(params_wire(&p, &out), plain);
	shape_flagged_empty();
}

/* Fake verbs: one QP whose peer answers each write at once (write_lat's
 * echo) or sends ITERS messages into our receives (send_bw). */
static struct fake {
	struct ibv_context ctx;
	struct ibv_qp qp;
	struct ibv_cq cq;
	uint8_t *rx_tag;
	uint64_t wr_ids[64];	     /* the signaled sends' */
	uint64_t pending, delivered; /* completions waiting, made */
	int echo;		     /* write_lat: a completion per reply */
	/* what we did */
	uint64_t post_calls, recvs_posted, longest_chain, sends;
} fk;

static int fake_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
			  struct ibv_send_wr **bad)
{
	const uint8_t *tx = (const uint8_t *)(uintptr_t)wr->sg_list->addr;

	(void)qp;
	(void)bad;
	fk.sends++;
	if (fk.echo && tx[wr->sg_list->length - 1])
		fk.rx_tag[0] = tx[wr->sg_list->length - 1];
	if (wr->send_flags & IBV_SEND_SIGNALED)
		fk.wr_ids[fk.pending++ % 64] = wr->wr_id;
	return 0;
}

static int fake_poll_cq(struct ibv_cq *cq, int n, struct ibv_wc *wc)
{
	int i = 0;

	(void)cq;
	if (fk.echo) { /* the signaled writes' completions */
		for (; i < n && fk.delivered < fk.pending; i++)
			wc[i] = (struct ibv_wc){
				.status = IBV_WC_SUCCESS,
				.opcode = IBV_WC_RDMA_WRITE,
				.wr_id = fk.wr_ids[fk.delivered++ % 64],
			};
		return i;
	}
	for (; i < n && fk.delivered < ITERS; i++, fk.delivered++)
		wc[i] = (struct ibv_wc){ .status = IBV_WC_SUCCESS,
					 .opcode = IBV_WC_RECV,
					 .byte_len = 8 };
	return i;
}

static int fake_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr,
			  struct ibv_recv_wr **bad)
{
	uint64_t n = 0;

	(void)qp;
	(void)bad;
	for (; wr; wr = wr->next)
		n++;
	fk.post_calls++;
	fk.recvs_posted += n;
	if (n > fk.longest_chain)
		fk.longest_chain = n;
	return 0;
}

struct env {
	struct rdp_params p;
	struct rdp_conn conn;
	struct rdp_run run;
	struct rdp_clock clk;
	struct rdp_qp_info remote;
	struct ibv_mr mr;
	struct ibv_qp *qps[1];
	uint8_t buf[2 * SLOT];
	struct rdp_result res;
};

static void setup_env(struct env *e, const char *test, enum rdp_side side)
{
	memset(e, 0, sizeof(*e));
	memset(&fk, 0, sizeof(fk));
	fk.ctx.ops.post_send = fake_post_send;
	fk.ctx.ops.poll_cq = fake_poll_cq;
	fk.ctx.ops.post_recv = fake_post_recv;
	fk.qp.context = &fk.ctx;
	fk.qp.qp_num = 0x1a2;
	fk.cq.context = &fk.ctx;
	snprintf(e->p.test, sizeof(e->p.test), "%s", test);
	e->p.size_bytes = 8;
	e->p.iters = ITERS;
	e->p.num_qps = 1;
	e->p.tx_depth = 16;
	e->p.rx_depth = 18;
	e->qps[0] = &fk.qp;
	e->conn.buf = e->buf;
	e->conn.buf_bytes = sizeof(e->buf);
	e->conn.slot_bytes = SLOT;
	e->conn.mr = &e->mr;
	e->conn.qps = e->qps;
	e->conn.num_qps = 1;
	e->conn.cq = &fk.cq;
	e->conn.remote = &e->remote;
	e->conn.qp_type = IBV_QPT_RC;
	e->conn.tp = rdp_transport_get(RDP_TRANSPORT_RC);
	e->clk.cycles_per_ns = 1.0;
	e->clk.source = "test";
	e->run.params = &e->p;
	e->run.ops = rdp_bench_find(test);
	assert_non_null(e->run.ops);
	e->run.conn = &e->conn;
	e->run.clk = &e->clk;
	e->run.side = side;
	e->run.oob_fd = -1;
	e->run.stall_cycles = 2000000000ull;
	rdp_bench_decide(e->run.ops, &e->p, &e->conn, &e->run.dec);
	fk.rx_tag = rdp_conn_rx(&e->conn, 0) + e->p.size_bytes - 1;
}

/* -r 18 in chains of 4: four chains and two alone; then a chain back
 * for every 4 receives that complete. */
static void test_recv_chains(void **state)
{
	struct env e;

	(void)state;
	setup_env(&e, "send_bw", RDP_SIDE_SERVER);
	e.p.recv_post_list = 4;
	assert_int_equal(rdp_post_receives(&e.run), 0);
	assert_int_equal(fk.post_calls, 4 + 2);
	assert_int_equal(fk.recvs_posted, 18);
	fk.post_calls = fk.recvs_posted = fk.longest_chain = 0;
	assert_int_equal(rdp_bw_server_recv(&e.run, &e.res), 0);
	assert_int_equal(e.res.msgs, ITERS);
	assert_int_equal(fk.post_calls, ITERS / 4);
	assert_int_equal(fk.recvs_posted, ITERS);
	assert_int_equal(fk.longest_chain, 4);
	/* without it, each receive goes back alone */
	setup_env(&e, "send_bw", RDP_SIDE_SERVER);
	assert_int_equal(rdp_bw_server_recv(&e.run, &e.res), 0);
	assert_int_equal(fk.post_calls, ITERS);
	assert_int_equal(fk.longest_chain, 1);
}

/* write_lat's client with a gap: ITERS pauses of GAP_NS (1 cycle a ns
 * here) were made, and none is in the figures. */
static void test_latency_gap(void **state)
{
	struct env e;
	uint64_t t0, took;

	(void)state;
	setup_env(&e, "write_lat", RDP_SIDE_CLIENT);
	fk.echo = 1;
	e.p.latency_gap_ns = GAP_NS;
	t0 = rdp_cycles();
	assert_int_equal(rdp_pingpong(&e.run, &e.res), 0);
	took = rdp_cycles() - t0;
	assert_int_equal(e.res.lat.n, ITERS);
	assert_true(took >= (uint64_t)ITERS * GAP_NS);
	assert_true(e.res.lat.median_ns < GAP_NS / 2);
	assert_int_equal(fk.sends, ITERS + 1); /* and the stop */
}

/* write_bw and send_bw --reversed on the fake engine: the server runs
 * the client's loop, and the point's figures are the server's. */
static void test_reversed_session(void **state)
{
	static const char *const tests[] = { "write_bw", "send_bw" };
	struct rdp_session_results *out;
	static struct server_side srv;
	static struct rdp_opts co;
	struct rdp_oob cli;
	json_t *r;
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		fake_engine_reset();
		memset(&srv, 0, sizeof(srv));
		client_opts(&co, ARGS(tests[i], "-n", "500", "-s", "4096",
				      "--reversed"));
		server_opts(&srv.o, ARGS("--port", "1"));
		out = NULL;
		assert_int_equal(rdp_oob_loopback(IO_MS, &cli, &srv.oob), 0);
		serve_start(&srv);
		assert_int_equal(rdp_session_client_results(&co, &fake_engine,
							    &cli, NULL, &out),
				 0);
		serve_join(&srv);
		assert_int_equal(srv.ret, 0);
		assert_non_null(out);
		assert_int_equal(out->n, 1);
		assert_true(out->points[0].reversed);
		assert_int_equal(out->points[0].msgs, 500);
		assert_true(out->points[0].bw_avg_gbps > 0);
		r = json_array_get(json_object_get(out->doc, "results"), 0);
		assert_string_equal(
			json_string_value(json_object_get(r, "sender")),
			"server");
		assert_true(json_is_true(json_object_get(
			json_object_get(out->doc, "parameters"), "reversed")));
		rdp_session_results_free(out);
		balanced();
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_accepted),
		cmocka_unit_test(test_wire_shape),
		cmocka_unit_test(test_recv_chains),
		cmocka_unit_test(test_latency_gap),
		cmocka_unit_test(test_reversed_session),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
