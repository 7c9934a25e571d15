/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * One check per rule: a table of (test, options, memory) and the line it
 * is refused with, run three ways: rdp_rules_check itself, the client's
 * command line, and the in-process server answering PARAMS on that
 * memory (the fake engine, a loopback channel). All three say the same.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/mem.h>
#include <rdmaperf/mesh_plan.h>
#include <rdmaperf/oob.h>
#include <rdmaperf/opts.h>
#include <rdmaperf/rules.h>
#include <rdmaperf/session.h>
#include <rdmaperf/wire.h>

#include "../fake/fake_engine.h"
#include "unit.h"

#define IO_MS	 15000
#define MAX_ARGS 16

#define LIST(...)                                                              \
	{                                                                      \
		__VA_ARGS__, NULL                                              \
	}
#define NONE                                                                   \
	{                                                                      \
		NULL                                                           \
	}
#define CUDA   LIST("--use_cuda=0")
#define BOUNCE LIST("--use_cuda=0", "--bounce")

struct rule_case {
	const char *test;
	const char *args[8]; /* the point's options, client only */
	const char *mem[4];  /* the memory both sides run on */
	/* Parameters no client sends (it refuses them first): PARAMS are a
	 * plain line's, then this. NULL: the args on host memory pass on
	 * the client and give the PARAMS. */
	void (*poke)(struct rdp_params *p);
	const char *why; /* the exact line */
};

static void bidir(struct rdp_params *p)
{
	p->flags |= RDP_PARAM_BIDIR;
}

static void events(struct rdp_params *p)
{
	p->flags |= RDP_PARAM_EVENTS;
}

static void vector(struct rdp_params *p)
{
	p->comp_vector = 1;
}

static void cm_mtu(struct rdp_params *p)
{
	p->flags |= RDP_PARAM_RDMA_CM;
	p->mtu_bytes = 1024;
}

static void cm_uc(struct rdp_params *p)
{
	p->flags |= RDP_PARAM_RDMA_CM;
	p->transport = RDP_TRANSPORT_UC;
}

static void write_imm(struct rdp_params *p)
{
	p->flags |= RDP_PARAM_WRITE_IMM;
}

static void srq(struct rdp_params *p)
{
	p->flags |= RDP_PARAM_SRQ;
}

/* -g: a group for the server's QPs to join, over UD unless said. */
static void mcast_rc(struct rdp_params *p)
{
	p->flags |= RDP_PARAM_MCAST;
}

static void mcast(struct rdp_params *p)
{
	p->flags |= RDP_PARAM_MCAST;
	p->transport = RDP_TRANSPORT_UD;
}

static void mcast_bidir(struct rdp_params *p)
{
	mcast(p);
	p->flags |= RDP_PARAM_BIDIR;
}

static void mcast_threads(struct rdp_params *p)
{
	mcast(p);
	p->threads = 2;
	p->num_qps = 2;
}

/* fe80::1: a GID, not a group */
static void mcast_unicast(struct rdp_params *p)
{
	static const uint8_t link_local[16] = { 0xfe, 0x80, [15] = 1 };

	mcast(p);
	memcpy(p->mgid, link_local, sizeof(p->mgid));
}

static const struct rule_case cases[] = {
	{ "send_bw", LIST("-g"), NONE, mcast_rc,
	  "-g sends to a multicast group, which takes UD datagrams: add -c UD "
	  "(-c RC connects each QP to one peer QP)" },
	{ "write_bw", LIST("-g"), NONE, mcast_rc,
	  "write_bw: -g (multicast) applies to send_bw and send_lat" },
	{ "send_bw", LIST("-g", "-c", "UD", "-b"), NONE, mcast_bidir,
	  "send_bw -g sends one way, to the group: drop -b" },
	{ "send_bw", LIST("-g", "-c", "UD", "--threads", "2", "-q", "2"), NONE,
	  mcast_threads,
	  "-g does not combine with --threads: every QP of the group takes "
	  "every message, whichever thread sent it" },
	{ "send_bw", LIST("-g", "-c", "UD", "-M", "fe80::1"), NONE,
	  mcast_unicast,
	  "-M fe80::1 is not a multicast GID: give one in ff00::/8, or "
	  "::ffff:224.0.0.0 to ::ffff:239.255.255.255 for IPv4" },
	{ "send_bw", LIST("--write_with_imm"), NONE, write_imm,
	  "send_bw: --write_with_imm applies to write_bw and write_lat" },
	{ "write_bw", LIST("--use-srq"), NONE, srq,
	  "write_bw: --use-srq applies to send_bw and send_lat" },
	{ "send_lat", LIST("-b"), NONE, bidir,
	  "send_lat cannot run both ways: -b applies to write_bw, read_bw, "
	  "send_bw and atomic_bw" },
	{ "write_lat", LIST("-e"), NONE, events,
	  "-e: write_lat polls its memory for the peer's write, with no "
	  "completion to sleep on: use read_lat, send_lat or atomic_lat" },
	{ "write_bw", LIST("-X", "1"), NONE, vector,
	  "-X picks the completion vector of -e: add -e" },
	{ "write_bw", LIST("-R", "-m", "1024"), NONE, cm_mtu,
	  "-m does not apply with -R: RDMA CM takes the path MTU from the "
	  "route (set the netdev's MTU instead)" },
	{ "send_bw", LIST("-R", "-c", "UC"), NONE, cm_uc,
	  "-R connects RC QPs: drop -R to run -c UC (QPs exchanged over "
	  "TCP)" },
	{ "send_bw", LIST("-b"), BOUNCE, NULL,
	  "send_bw -b does not combine with --bounce" },
	{ "write_bw", LIST("--threads", "2", "-q", "2"), BOUNCE, NULL,
	  "--threads does not combine with --bounce (one staging loop) or "
	  "--perftest (perftest runs one loop): drop one of them" },
	{ "send_bw", LIST("--use-srq"), BOUNCE, NULL,
	  "--use-srq does not combine with --bounce or --perftest" },
	{ "write_bw", LIST("--odp"), CUDA, NULL,
	  "--odp pages host memory: drop --use_cuda" },
	{ "write_bw", LIST("--mr_per_qp"), CUDA, NULL,
	  "--mr_per_qp registers host memory: drop --use_cuda" },
	{ "send_bw", LIST("-c", "UD"), CUDA, NULL,
	  "-c UD runs on host memory: drop --use_cuda and --bounce" },
	{ "send_bw", LIST("-e"), BOUNCE, NULL,
	  "-e does not combine with --bounce: the staged loops poll" },
	{ "write_bw", LIST("-b", "--rate_limit", "10"), BOUNCE, NULL,
	  "--rate_limit does not combine with --bounce" },
	{ "read_lat", NONE, BOUNCE, NULL,
	  "--bounce stages the messages of write_bw, read_bw and send_bw; "
	  "read_lat has none to stage (a round trip of one message is not a "
	  "stream): drop --bounce" },
	{ "atomic_bw", NONE, BOUNCE, NULL,
	  "--bounce stages the messages of write_bw, read_bw and send_bw; "
	  "atomic_bw has none to stage (its 8-byte operands are updated in "
	  "place by the NIC): drop --bounce" },
	{ "write_lat", NONE, CUDA, NULL,
	  "write_lat polls its receive buffer with the CPU, which cannot "
	  "watch GPU memory: measure GPU latency with read_lat, send_lat or "
	  "atomic_lat, or drop --use_cuda" },
};

/* rdmaperf TEST ARGS... MEM... --no-pin [loopback]: 0 or -EINVAL. */
static int parse_client(const struct rule_case *c, int with_args, int with_mem,
			struct rdp_opts *o, char *err, size_t len)
{
	const char *argv[MAX_ARGS + 8] = { "rdmaperf", c->test };
	int n = 2, i;

	for (i = 0; with_args && c->args[i]; i++)
		argv[n++] = c->args[i];
	for (i = 0; with_mem && c->mem[i]; i++)
		argv[n++] = c->mem[i];
	argv[n++] = "--no-pin";
	argv[n++] = "loopback";
	err[0] = '\0';
	return rdp_opts_parse_client(n, (char **)argv, o, err, len);
}

static void parse_server(const struct rule_case *c, struct rdp_opts *o)
{
	const char *argv[MAX_ARGS] = { "rdmaperf-server", "--no-pin",
				       "--max-memory", "1G" };
	char err[256] = "";
	int n = 4, i;

	for (i = 0; c->mem[i]; i++)
		argv[n++] = c->mem[i];
	assert_int_equal(rdp_opts_parse_server(n, (char **)argv, o, err,
					       sizeof(err)),
			 RDP_PARSE_OK);
	o->conn.oob_timeout_ms = IO_MS;
}

/* The PARAMS a client of this case sends. */
static void case_params(const struct rule_case *c, struct rdp_params *p)
{
	struct rdp_opts o;
	char err[256];

	if (parse_client(c, !c->poke, 0, &o, err, sizeof(err)))
		fail_msg("%s on host memory: %s", c->test, err);
	*p = o.params;
	if (c->poke)
		c->poke(p);
}

/* A client that sends HELLO and one PARAMS, and keeps the answer; its
 * steps' results are checked by the main thread. */
struct script {
	struct rdp_oob oob;
	struct rdp_params p;
	struct rdp_msg answer;
	int sent; /* HELLO exchanged and PARAMS sent */
};

static void *script_main(void *arg)
{
	struct script *c = arg;
	struct rdp_msg msg = { .type = RDP_MSG_HELLO };

	c->sent = !rdp_oob_send(&c->oob, &msg) &&
		  !rdp_oob_expect(&c->oob, RDP_MSG_HELLO, &msg, IO_MS);
	memset(&msg, 0, sizeof(msg));
	msg.type = RDP_MSG_PARAMS;
	msg.u.params = c->p;
	c->sent = c->sent && !rdp_oob_send(&c->oob, &msg);
	if (!c->sent || rdp_oob_recv(&c->oob, &c->answer, IO_MS))
		c->answer.type = 0;
	rdp_oob_close(&c->oob);
	return NULL;
}

/* The server of o, in this thread, meets the scripted client sending p:
 * its return, the answer in c->answer. */
static int serve_params(const struct rdp_opts *o, struct script *c)
{
	struct rdp_oob srv;
	pthread_t tid;
	int ret;

	assert_int_equal(rdp_oob_loopback(IO_MS, &c->oob, &srv), 0);
	assert_int_equal(pthread_create(&tid, NULL, script_main, c), 0);
	ret = rdp_session_serve_with(o, &fake_engine, &srv);
	rdp_oob_close(&srv);
	assert_int_equal(pthread_join(tid, NULL), 0);
	assert_true(c->sent);
	return ret;
}

/* The rule itself, on the server's memory. */
static void test_rules_direct(void **state)
{
	struct rdp_rules_side side;
	struct rdp_params p;
	struct rdp_opts so;
	char why[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		case_params(&cases[i], &p);
		parse_server(&cases[i], &so);
		side = rdp_rules_side_of(&so.mem, 0);
		side.server = 1;
		why[0] = '\0';
		assert_int_equal(rdp_rules_check(&p, rdp_bench_find(p.test),
						 &side, why, sizeof(why)),
				 -EINVAL);
		assert_string_equal(why, cases[i].why);
	}
}

/* The client's command line: refused before connecting, same line. */
static void test_rules_client(void **state)
{
	struct rdp_opts o;
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(parse_client(&cases[i], 1, 1, &o, err,
					      sizeof(err)),
				 -EINVAL);
		assert_string_equal(err, cases[i].why);
	}
}

/* The server: the same line in the ERROR that answers PARAMS, nothing
 * built. */
static void test_rules_server(void **state)
{
	struct script c;
	struct rdp_opts so;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fake_engine_reset();
		memset(&c, 0, sizeof(c));
		case_params(&cases[i], &c.p);
		parse_server(&cases[i], &so);
		assert_int_equal(serve_params(&so, &c), -EINVAL);
		assert_int_equal(c.answer.type, RDP_MSG_ERROR);
		assert_string_equal(c.answer.u.error.text, cases[i].why);
		assert_int_equal(fake_engine_cfg.conns_created, 0);
	}
}

/* A server that only lends its memory runs no staged loop: -e and
 * --rate_limit are the client's business there; where it stages (SEND
 * received, -b) they are refused as on the client. */
static void test_rules_server_stages(void **state)
{
	struct rdp_params p = { .test = "write_bw",
				.size_bytes = 4096,
				.num_qps = 1,
				.hop_limit = 64,
				.flags = RDP_PARAM_EVENTS };
	struct rdp_rules_side side = { .mem = &rdp_mem_cuda,
				       .bounce = 1,
				       .server = 1 };
	const struct rdp_bench_ops *w = rdp_bench_find("write_bw");
	char why[256];

	(void)state;
	assert_int_equal(rdp_rules_check(&p, w, &side, why, sizeof(why)), 0);
	side.server = 0;
	assert_int_equal(rdp_rules_check(&p, w, &side, why, sizeof(why)),
			 -EINVAL);
	assert_string_equal(why, "-e does not combine with --bounce: the "
				 "staged loops poll");
	side.server = 1;
	p.flags = RDP_PARAM_BIDIR;
	p.rate_milli = 10000;
	assert_int_equal(rdp_rules_check(&p, w, &side, why, sizeof(why)),
			 -EINVAL);
	assert_string_equal(why, "--rate_limit does not combine with --bounce");
	p.flags = 0;
	assert_int_equal(rdp_rules_check(&p, w, &side, why, sizeof(why)), 0);
}

/* Lists in the lines come from the test rows, in registry order. */
static void test_rules_lists(void **state)
{
	char buf[256];

	(void)state;
	assert_string_equal(rdp_rules_tests(-1, RDP_BENCH_BIDIR, 0, "", " and ",
					    buf, sizeof(buf)),
			    "write_bw, read_bw, send_bw and atomic_bw");
	assert_string_equal(rdp_rules_tests(-1, RDP_BENCH_PT_BIDIR, 0, "ib_",
					    " and ", buf, sizeof(buf)),
			    "ib_write_bw, ib_read_bw, ib_send_bw and "
			    "ib_atomic_bw");
	assert_string_equal(rdp_rules_tests(RDP_BENCH_LAT, 0,
					    RDP_BENCH_CPU_POLL, "", " or ", buf,
					    sizeof(buf)),
			    "read_lat, send_lat or atomic_lat");
	assert_string_equal(rdp_rules_tests(RDP_BENCH_BW, RDP_BENCH_UD, 0, "",
					    " or ", buf, sizeof(buf)),
			    "send_bw");
	assert_string_equal(
		rdp_rules_tests(-1, ~0u, 0, "", " or ", buf, sizeof(buf)), "");
}

/* Memory types: the table finds a row by its option; the server checks
 * its own memory options at start with the client's words. */
static void test_rules_mem(void **state)
{
	struct rdp_rules_side side = { 0 };
	struct rdp_opts o;
	char why[256];

	(void)state;
	assert_ptr_equal(rdp_mem_find("--use_cuda"), &rdp_mem_cuda);
	assert_ptr_equal(rdp_mem_find("use_cuda"), &rdp_mem_cuda);
	assert_null(rdp_mem_find("--use_nothing"));
	assert_ptr_equal(rdp_mem_types()[0], &rdp_mem_cuda);
	assert_false(rdp_mem_cuda.host_pages);
	assert_true(rdp_mem_host.host_pages);
	side.bounce = 1;
	assert_int_equal(rdp_rules_check_mem(&side, why, sizeof(why)), -EINVAL);
	assert_string_equal(why,
			    "--bounce stages GPU data through host "
			    "memory: add --use_cuda=GPU or --use_rocm=GPU");
	assert_int_equal(SERVER(&o, why, "--bounce"), -EINVAL);
	assert_string_equal(why,
			    "--bounce stages GPU data through host "
			    "memory: add --use_cuda=GPU or --use_rocm=GPU");
	side.bounce = 0;
	side.mem = &rdp_mem_cuda;
	side.hugepages = 1;
	assert_int_equal(rdp_rules_check_mem(&side, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "--use_hugepages is for host buffers: drop "
				 "it with --use_cuda (or add --bounce)");
}

/* A mesh plan's rules: one function for rdmaperf mesh --plan and
 * rdmaperf-mesh, the pattern names from the pattern table. */
static void test_rules_mesh_plan(void **state)
{
	struct rdp_mesh_plan_opts o = { .pattern = RDP_MESH_PAIRWISE };
	enum rdp_mesh_pattern pat;
	char why[256];

	(void)state;
	assert_int_equal(rdp_mesh_plan_check(&o, why, sizeof(why)), 0);
	assert_int_equal(rdp_mesh_pattern_check("ring", &pat, why, sizeof(why)),
			 -EINVAL);
	assert_string_equal(why, "--pattern needs pairwise, bisection, "
				 "ring-shift, grouped, quick, cover, incast "
				 "or alltoall, not 'ring'");
	assert_int_equal(
		rdp_mesh_pattern_check("bisection", &pat, why, sizeof(why)), 0);
	assert_int_equal(pat, RDP_MESH_BISECTION);
	o.permutations = 2;
	assert_int_equal(rdp_mesh_plan_check(&o, why, sizeof(why)), -EINVAL);
	assert_string_equal(
		why, "--permutations applies to --pattern bisection or quick");
	o.permutations = 0;
	o.pattern = RDP_MESH_RING_SHIFT;
	o.bidir = 1;
	assert_int_equal(rdp_mesh_plan_check(&o, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "-b does not apply to ring-shift, whose "
				 "nodes send and receive at once already");
	o.bidir = 0;
	o.nodes = 1;
	assert_int_equal(rdp_mesh_plan_check(&o, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "a mesh has 2 to 100000 nodes, not 1: run "
				 "one rank a node and rail");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules_direct),
		cmocka_unit_test(test_rules_client),
		cmocka_unit_test(test_rules_server),
		cmocka_unit_test(test_rules_server_stages),
		cmocka_unit_test(test_rules_lists),
		cmocka_unit_test(test_rules_mem),
		cmocka_unit_test(test_rules_mesh_plan),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
