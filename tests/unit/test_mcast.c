/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Multicast (-g, -M): the group's GID in both of its written forms, what
 * counts as a multicast one, the default group of each GID family, the
 * device's answer, the command line's exact refusals, the loss line
 * that counts a copy per QP of the group, and the join through the RDMA
 * CM (-g -R): what travels, the server's refusals, the join's answers,
 * and how the reports name the way the group was joined; each group QP's
 * count from the server's RESULT to the client's rows and JSON.
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
#include <jansson.h>
#include <rdma/rdma_cma.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/convert.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/gid.h>
#include <rdmaperf/json_sys.h>
#include <rdmaperf/log.h>
#include <rdmaperf/mcast.h>
#include <rdmaperf/opts.h>
#include <rdmaperf/params.h>
#include <rdmaperf/report.h>
#include <rdmaperf/rules.h>
#include <rdmaperf/wire.h>

#include "../../src/engine/engine_int.h"
#include "unit.h"

static void expect_gid(const char *text, const char *want)
{
	char got[RDP_MGID_STR_MAX];
	uint8_t g[16];

	if (rdp_mgid_parse(text, g))
		fail_msg("'%s' does not parse", text);
	rdp_mgid_str(g, got, sizeof(got));
	assert_string_equal(got, want);
}

static void test_parse(void **state)
{
	static const char *bad[] = {
		"",
		"ff0e",
		"ff0e::1::2",
		"239.1.1.1",
		"ff0e::g",
		/* perftest's form: 16 bytes, each 0..255, nothing else */
		"255:1:0:0:0:2:201:133:0:0:0:0:0:0:0",
		"255:1:0:0:0:2:201:133:0:0:0:0:0:0:0:256",
		"255:1:0:0:0:2:201:133:0:0:0:0:0:0:0:-1",
		"255:1:0:0:0:2:201:133:0:0:0:0:0:0::1",
		"255:1:0:0:0:2:201:133:0:0:0:0:0:0:0:1x",
	};
	uint8_t g[16];
	size_t i;

	(void)state;
	expect_gid("ff0e::1", "ff0e::1");
	expect_gid("::ffff:239.1.2.3", "::ffff:239.1.2.3");
	expect_gid("255:14:0:0:0:0:0:0:0:0:0:0:0:0:0x52:0x50", "ff0e::5250");
	expect_gid("0:0:0:0:0:0:0:0:0:0:255:255:239:255:82:80",
		   "::ffff:239.255.82.80");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (!rdp_mgid_parse(bad[i], g))
			fail_msg("'%s' parsed", bad[i]);
}

static int is_mc(const char *text)
{
	uint8_t g[16];

	assert_int_equal(rdp_mgid_parse(text, g), 0);
	return rdp_mgid_is_multicast(g);
}

static void test_is_multicast(void **state)
{
	(void)state;
	assert_true(is_mc("ff0e::1"));
	assert_true(is_mc("ff02::1:2"));
	assert_true(is_mc("::ffff:224.0.0.1"));
	assert_true(is_mc("::ffff:239.255.255.255"));
	assert_false(is_mc("fe80::1"));
	assert_false(is_mc("::ffff:10.0.0.1"));
	assert_false(is_mc("::ffff:240.0.0.1"));
	assert_false(is_mc("::ffff:223.255.255.255"));
	assert_false(is_mc("::"));
}

static void gid_entry(struct rdp_gid_entry *e, const char *text,
		      enum rdp_gid_type type)
{
	memset(e, 0, sizeof(*e));
	e->index = 1;
	e->type = type;
	assert_int_equal(rdp_mgid_parse(text, e->raw), 0);
}

static void group_of(const struct rdp_gid_entry *e, const char *asked,
		     const char *want)
{
	uint8_t a[16] = { 0 }, g[16];
	char got[RDP_MGID_STR_MAX];

	if (asked)
		assert_int_equal(rdp_mgid_parse(asked, a), 0);
	assert_int_equal(rdp_mcast_group(e, a, g), 0);
	rdp_mgid_str(g, got, sizeof(got));
	assert_string_equal(got, want);
}

static void refuse_group(const struct rdp_gid_entry *e, const char *asked,
			 const char *line)
{
	uint8_t a[16], g[16];

	assert_int_equal(rdp_mgid_parse(asked, a), 0);
	rdp_clear_error();
	assert_int_equal(rdp_mcast_group(e, a, g), -EINVAL);
	assert_string_equal(rdp_last_error(), line);
}

/* The default follows the GID's family; a group of the other family is
 * refused on RoCE v2, where it would be the packets' IP address. */
static void test_group(void **state)
{
	struct rdp_gid_entry v4, v6, v1;

	(void)state;
	gid_entry(&v4, "::ffff:10.77.0.2", RDP_GID_ROCE_V2);
	gid_entry(&v6, "fd00::2", RDP_GID_ROCE_V2);
	gid_entry(&v1, "fe80::2", RDP_GID_ROCE_V1);
	group_of(&v4, NULL, "::ffff:239.255.82.80");
	group_of(&v6, NULL, "ff0e::5250");
	group_of(NULL, NULL, "ff0e::5250");
	group_of(&v4, "::ffff:239.1.1.1", "::ffff:239.1.1.1");
	group_of(&v6, "ff0e::1", "ff0e::1");
	group_of(&v1, "ff0e::1", "ff0e::1");
	refuse_group(&v4, "ff0e::1",
		     "-M ff0e::1: the GID here (index 1) is an IPv4 one, and a "
		     "RoCE v2 group must be of its family: give an IPv4 group "
		     "as ::ffff:239.x.y.z");
	refuse_group(&v6, "::ffff:239.1.1.1",
		     "-M ::ffff:239.1.1.1: the GID here (index 1) is an IPv6 "
		     "one, and a RoCE v2 group must be of its family: give an "
		     "IPv6 group as ff0e::N");
}

static void refuse_dev(const struct rdp_dev *dev, uint32_t qps,
		       const char *line)
{
	rdp_clear_error();
	assert_int_equal(rdp_mcast_check_dev(dev, qps, 0), -ENOSYS);
	assert_string_equal(rdp_last_error(), line);
}

static void test_device(void **state)
{
	struct rdp_dev dev;

	(void)state;
	memset(&dev, 0, sizeof(dev));
	snprintf(dev.name, sizeof(dev.name), "rxe0");
	dev.port.num = 1;
	dev.port.link_layer = IBV_LINK_LAYER_ETHERNET;
	dev.attr.max_mcast_grp = 8192;
	dev.attr.max_mcast_qp_attach = 56;
	assert_int_equal(rdp_mcast_check_dev(&dev, 2, 0), 0);
	refuse_dev(&dev, 57,
		   "-g with 57 QPs: rxe0 attaches at most 56 QPs to a group "
		   "(max_mcast_qp_attach): lower -q");
	dev.attr.max_mcast_grp = 0;
	refuse_dev(&dev, 1,
		   "-g: rxe0 has no multicast groups (max_mcast_grp 0 from "
		   "ibv_query_device): run without -g, or on a device with "
		   "multicast");
	dev.attr.max_mcast_grp = 8192;
	dev.port.link_layer = IBV_LINK_LAYER_INFINIBAND;
	refuse_dev(&dev, 1,
		   "-g: port 1 of rxe0 is InfiniBand, where a group is joined "
		   "through the subnet manager: add -R to join it through the "
		   "RDMA CM, or run -g on RoCE");
	/* -R: the RDMA CM asks the subnet manager */
	assert_int_equal(rdp_mcast_check_dev(&dev, 1, 1), 0);
}

/* The client refuses the line with exactly this error. */
#define expect_line(line, ...)                                                 \
	do {                                                                   \
		struct rdp_opts o_;                                            \
		char err_[512] = "";                                           \
		assert_int_equal(CLIENT(&o_, err_, __VA_ARGS__), -EINVAL);     \
		assert_string_equal(err_, line);                               \
	} while (0)

static void test_command_line(void **state)
{
	static const uint8_t want[16] = { 0xff, 0x0e, [15] = 7 };
	struct rdp_opts o;
	char err[512];

	(void)state;
	assert_int_equal(CLIENT(&o, err, "send_bw", "-c", "UD", "-g", "-q", "2",
				"-M", "ff0e::7", "h"),
			 RDP_PARSE_OK);
	assert_true(o.params.flags & RDP_PARAM_MCAST);
	assert_memory_equal(o.params.mgid, want, 16);
	assert_int_equal(CLIENT(&o, err, "send_lat", "-c", "UD", "--mcg", "h"),
			 RDP_PARSE_OK);
	assert_true(o.params.flags & RDP_PARAM_MCAST);
	assert_false(rdp_mgid_is_set(o.params.mgid));
	expect_line("-M ff0e:1 is not a GID: give IPv6 text such as ff0e::1 "
		    "or ::ffff:239.1.1.1, or 16 bytes between colons",
		    "send_bw", "-c", "UD", "-g", "-M", "ff0e:1", "h");
	expect_line("-M ::ffff:10.0.0.1 is not a multicast GID: give one in "
		    "ff00::/8, or ::ffff:224.0.0.0 to ::ffff:239.255.255.255 "
		    "for IPv4",
		    "send_bw", "-c", "UD", "-g", "--MGID=::ffff:10.0.0.1", "h");
	expect_line("-M names the group of -g: add -g", "send_bw", "-c", "UD",
		    "-M", "ff0e::1", "h");
	expect_line("-g sends to a multicast group, which takes UD datagrams: "
		    "add -c UD (-c UC connects each QP to one peer QP)",
		    "send_bw", "-c", "UC", "-g", "h");
	expect_line("read_lat: -g (multicast) applies to send_bw and send_lat",
		    "read_lat", "-g", "h");
}

/* send_bw -g: the loss line counts the copies every QP should have. */
static void test_loss_line(void **state)
{
	struct rdp_result r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.loss_counted = 1;
	r.sent_msgs = 1000;
	r.received_msgs = 1990;
	r.group_qps = 2;
	assert_int_equal(rdp_result_expected(&r), 2000);
	assert_int_equal(rdp_result_lost(&r), 10);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	rdp_report_loss(f, &r);
	fclose(f);
	assert_string_equal(buf, "   Loss            : 10 of 2000 copies never "
				 "arrived (0.500 %): 1000 messages sent to a "
				 "group of 2 QPs, counted by the receiver\n");
	free(buf);
	r.group_qps = 0;
	r.received_msgs = 990;
	assert_int_equal(rdp_result_lost(&r), 10);
}

/* -g -R: the client sends the RDMA CM's join in place of -R, whose QPs
 * it does not connect; the rest of -g's rules hold. */
static void test_cm_command_line(void **state)
{
	struct rdp_opts o;
	char err[512];

	(void)state;
	assert_int_equal(CLIENT(&o, err, "send_bw", "-c", "UD", "-g", "-q", "2",
				"-R", "h"),
			 RDP_PARSE_OK);
	assert_true(o.params.flags & RDP_PARAM_MCAST);
	assert_true(o.params.flags & RDP_PARAM_MCAST_CM);
	assert_true(o.params.flags & RDP_PARAM_MCAST_COUNTS);
	assert_false(o.params.flags & RDP_PARAM_RDMA_CM);
	assert_int_equal(CLIENT(&o, err, "send_lat", "-c", "UD", "--mcg",
				"--rdma_cm", "h"),
			 RDP_PARSE_OK);
	assert_true(o.params.flags & RDP_PARAM_MCAST_CM);
	assert_false(o.params.flags & RDP_PARAM_RDMA_CM);
	/* the CM binds the GID's address: -x picks it */
	assert_int_equal(CLIENT(&o, err, "send_bw", "-c", "UD", "-g", "-R",
				"-x", "1", "h"),
			 RDP_PARSE_OK);
	/* without -g, -R still connects RC QPs only */
	assert_int_equal(CLIENT(&o, err, "send_bw", "-c", "RC", "-R", "h"),
			 RDP_PARSE_OK);
	assert_true(o.params.flags & RDP_PARAM_RDMA_CM);
	assert_false(o.params.flags & RDP_PARAM_MCAST_CM);
	assert_false(o.params.flags & RDP_PARAM_MCAST_COUNTS);
	expect_line("-R connects RC QPs: drop -R to run -c UD (QPs exchanged "
		    "over TCP)",
		    "send_bw", "-c", "UD", "-R", "h");
	expect_line("-g sends to a multicast group, which takes UD datagrams: "
		    "add -c UD (-c RC connects each QP to one peer QP)",
		    "send_bw", "-g", "-R", "h");
	expect_line("send_bw -g sends one way, to the group: drop -b",
		    "send_bw", "-c", "UD", "-g", "-R", "-b", "h");
	expect_line("write_bw: -g (multicast) applies to send_bw and send_lat",
		    "write_bw", "-g", "-R", "h");
}

/* The server's rules on a PARAMS no client of ours sends. */
static void server_refuses(uint32_t flags, const char *line)
{
	struct rdp_rules_side side;
	struct rdp_params p;
	char why[512] = "";

	memset(&p, 0, sizeof(p));
	memset(&side, 0, sizeof(side));
	snprintf(p.test, sizeof(p.test), "send_bw");
	p.transport = RDP_TRANSPORT_UD;
	p.num_qps = 1;
	p.hop_limit = 64;
	p.flags = flags;
	assert_int_equal(rdp_rules_check(&p, rdp_bench_find("send_bw"), &side,
					 why, sizeof(why)),
			 -EINVAL);
	assert_string_equal(why, line);
}

static void test_cm_server_rules(void **state)
{
	(void)state;
	server_refuses(RDP_PARAM_MCAST_CM,
		       "a join through the RDMA CM is -g's: add -g");
	server_refuses(RDP_PARAM_MCAST_COUNTS,
		       "the counts of a group's QPs are -g's: add -g");
	server_refuses(
		RDP_PARAM_MCAST | RDP_PARAM_MCAST_CM | RDP_PARAM_RDMA_CM,
		"-g -R joins the group through the RDMA CM and exchanges "
		"the UD QPs over TCP: the QPs cannot also be connected "
		"by RDMA CM");
}

static void refuse_answer(int type, int status, int ret, const char *line)
{
	rdp_clear_error();
	assert_int_equal(rdp_mcast_cm_answer(type, status, "::ffff:239.1.2.3",
					     "rxe0", 5000),
			 ret);
	assert_string_equal(rdp_last_error(), line);
}

/* The join's event, or none by the deadline: one line each, naming the
 * group, the device and the likely fix. */
static void test_cm_answer(void **state)
{
	(void)state;
	assert_int_equal(rdp_mcast_cm_answer(RDMA_CM_EVENT_MULTICAST_JOIN, 0,
					     "ff0e::5250", "rxe0", 5000),
			 0);
	refuse_answer(-1, 0, -ETIMEDOUT,
		      "join the multicast group ::ffff:239.1.2.3 through the "
		      "RDMA CM on rxe0: no answer in 5000 ms (on RoCE, is the "
		      "netdev up with multicast on? on InfiniBand, does a "
		      "subnet manager run?)");
	refuse_answer(RDMA_CM_EVENT_MULTICAST_ERROR, -ENETUNREACH, -ENETUNREACH,
		      "join the multicast group ::ffff:239.1.2.3 through the "
		      "RDMA CM on rxe0: refused (Network is unreachable) (on "
		      "InfiniBand, see the subnet manager's log; or drop -R "
		      "to attach the QPs by MGID)");
	refuse_answer(RDMA_CM_EVENT_MULTICAST_ERROR, 0, -EIO,
		      "join the multicast group ::ffff:239.1.2.3 through the "
		      "RDMA CM on rxe0: refused (no reason given) (on "
		      "InfiniBand, see the subnet manager's log; or drop -R "
		      "to attach the QPs by MGID)");
	rdp_clear_error();
	assert_int_equal(rdp_mcast_cm_refused(-524, "ff0e::5250", "rxe0"),
			 -EOPNOTSUPP);
	assert_string_equal(rdp_last_error(),
			    "join the multicast group ff0e::5250 through the "
			    "RDMA CM on rxe0: the kernel's RDMA CM joins RoCE "
			    "v2 groups over IPv4 only: drop -R to attach the "
			    "QPs by MGID, or use an IPv4 GID");
	rdp_clear_error();
	assert_int_equal(rdp_mcast_cm_refused(-EINVAL, "ff0e::1", "rxe0"),
			 -EINVAL);
	assert_string_equal(rdp_last_error(),
			    "join the multicast group ff0e::1 through the RDMA "
			    "CM on rxe0: Invalid argument (give -M a group of "
			    "the address's family)");
	refuse_answer(RDMA_CM_EVENT_DEVICE_REMOVAL, 0, -EPROTO,
		      "join the multicast group ::ffff:239.1.2.3 through the "
		      "RDMA CM on rxe0: the answer was "
		      "RDMA_CM_EVENT_DEVICE_REMOVAL, not a join (is the device "
		      "being removed?)");
}

/* The parameters' JSON names the way the group was joined. */
static void test_cm_json(void **state)
{
	struct rdp_params p;
	json_t *o;

	(void)state;
	memset(&p, 0, sizeof(p));
	o = json_object();
	assert_int_equal(rdp_json_mcast(o, &p), 0);
	assert_int_equal(json_object_size(o), 0);
	p.flags = RDP_PARAM_MCAST;
	assert_int_equal(rdp_json_mcast(o, &p), 0);
	assert_string_equal(json_string_value(json_object_get(o, "mcg_join")),
			    "mgid");
	p.flags |= RDP_PARAM_MCAST_CM;
	assert_int_equal(rdp_json_mcast(o, &p), 0);
	assert_string_equal(json_string_value(json_object_get(o, "mcg_join")),
			    "rdma_cm");
	assert_true(json_is_true(json_object_get(o, "mcg")));
	assert_true(json_is_null(json_object_get(o, "mgid")));
	json_decref(o);
}

/* RESULT: the group's counts travel only when there are any, every other
 * RESULT as it was; at most RDP_WIRE_MAX_GROUP_QPS of them, which fit
 * beside the most counters. */
static size_t encode_result(const struct rdp_msg *m, uint8_t *buf, size_t cap)
{
	size_t len = 0;

	assert_int_equal(rdp_wire_encode(m, buf, cap, &len), 0);
	return len;
}

static void decode_result(const uint8_t *buf, size_t len, struct rdp_msg *out)
{
	struct rdp_wire_hdr hdr;

	assert_int_equal(rdp_wire_decode_hdr(buf, len, &hdr), 0);
	assert_int_equal(hdr.len_bytes, len - RDP_WIRE_HDR_BYTES);
	assert_int_equal(rdp_wire_decode_body(hdr.type,
					      buf + RDP_WIRE_HDR_BYTES,
					      hdr.len_bytes, out),
			 0);
}

static void test_group_wire(void **state)
{
	static struct rdp_msg m, out;
	uint8_t buf[RDP_WIRE_HDR_BYTES + RDP_WIRE_MAX_PAYLOAD];
	size_t plain, len;
	uint16_t i;

	(void)state;
	memset(&m, 0, sizeof(m));
	m.type = RDP_MSG_RESULT;
	plain = encode_result(&m, buf, sizeof(buf));
	decode_result(buf, plain, &out);
	assert_int_equal(out.u.result.n_group, 0);
	m.u.result.rx_msgs = 7998;
	m.u.result.n_group = 2;
	m.u.result.group_qpn[0] = 0x11;
	m.u.result.group_msgs[0] = 3998;
	m.u.result.group_qpn[1] = 0x12;
	m.u.result.group_msgs[1] = 4000;
	len = encode_result(&m, buf, sizeof(buf));
	assert_int_equal(len, plain + 1 + 2 + 2 * 12); /* tag, count, QPs */
	decode_result(buf, len, &out);
	assert_int_equal(out.u.result.n_group, 2);
	assert_int_equal(out.u.result.group_qpn[1], 0x12);
	assert_int_equal(out.u.result.group_msgs[0], 3998);
	assert_int_equal(out.u.result.rx_msgs, 7998);
	/* the most of both still fits one message */
	m.u.result.n_counters = RDP_WIRE_MAX_COUNTERS;
	for (i = 0; i < RDP_WIRE_MAX_COUNTERS; i++) {
		memset(m.u.result.counters[i].name, 'c',
		       RDP_WIRE_COUNTER_NAME_MAX - 1);
		m.u.result.counters[i].value = UINT64_MAX;
	}
	m.u.result.n_group = RDP_WIRE_MAX_GROUP_QPS;
	for (i = 0; i < RDP_WIRE_MAX_GROUP_QPS; i++)
		m.u.result.group_msgs[i] = UINT64_MAX - i;
	len = encode_result(&m, buf, sizeof(buf));
	decode_result(buf, len, &out);
	assert_int_equal(out.u.result.n_group, RDP_WIRE_MAX_GROUP_QPS);
	assert_true(out.u.result.group_msgs[RDP_WIRE_MAX_GROUP_QPS - 1] ==
		    UINT64_MAX - (RDP_WIRE_MAX_GROUP_QPS - 1));
	m.u.result.n_group = RDP_WIRE_MAX_GROUP_QPS + 1;
	assert_int_equal(rdp_wire_encode(&m, buf, sizeof(buf), &len), -EINVAL);
}

/* The server's counts into RESULT and back into the client's result;
 * the rows under the loss line and the JSON's loss.per_qp. */
static void test_group_report(void **state)
{
	struct rdp_qp_result q[2] = {
		{ .index = 0, .qp_num = 0x11, .msgs = 998 },
		{ .index = 1, .qp_num = 0x12, .msgs = 1000 },
	};
	struct rdp_result srv, r;
	struct rdp_msg_result m;
	char *buf = NULL;
	size_t len = 0;
	json_t *a;
	FILE *f;

	(void)state;
	memset(&srv, 0, sizeof(srv));
	memset(&r, 0, sizeof(r));
	memset(&m, 0, sizeof(m));
	srv.group = q;
	srv.n_group = 2;
	rdp_group_to_result(&srv, &m);
	assert_int_equal(m.n_group, 2);
	assert_int_equal(rdp_group_from_result(&m, 1024, &r), 0);
	assert_int_equal(r.n_group, 2);
	assert_int_equal(r.group[1].qp_num, 0x12);
	assert_int_equal(r.group[0].bytes, 998 * 1024);
	r.loss_counted = 1;
	r.sent_msgs = 1000;
	r.received_msgs = 1998;
	r.group_qps = 2;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	rdp_report_loss(f, &r);
	fclose(f);
	assert_string_equal(
		buf, "   Loss            : 2 of 2000 copies never "
		     "arrived (0.100 %): 1000 messages sent to a group "
		     "of 2 QPs, counted by the receiver\n"
		     "   [QP0]           : 998 of 1000 copies received, "
		     "2 lost (0.200 %), the server's qp 0x11\n"
		     "   [QP1]           : 1000 of 1000 copies received, "
		     "0 lost (0.000 %), the server's qp 0x12\n");
	free(buf);
	a = rdp_json_mcast_group(&r);
	assert_non_null(a);
	assert_int_equal(json_array_size(a), 2);
	assert_int_equal(json_integer_value(
				 json_object_get(json_array_get(a, 0), "lost")),
			 2);
	assert_int_equal(json_integer_value(json_object_get(
				 json_array_get(a, 1), "qp_num")),
			 0x12);
	assert_int_equal(json_integer_value(json_object_get(
				 json_array_get(a, 1), "received")),
			 1000);
	json_decref(a);
	rdp_result_clear(&r);
	assert_null(r.group);
	/* a RESULT without counts leaves the result without rows */
	m.n_group = 0;
	assert_int_equal(rdp_group_from_result(&m, 1024, &r), 0);
	assert_int_equal(r.n_group, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_is_multicast),
		cmocka_unit_test(test_group),
		cmocka_unit_test(test_device),
		cmocka_unit_test(test_command_line),
		cmocka_unit_test(test_loss_line),
		cmocka_unit_test(test_cm_command_line),
		cmocka_unit_test(test_cm_server_rules),
		cmocka_unit_test(test_cm_answer),
		cmocka_unit_test(test_cm_json),
		cmocka_unit_test(test_group_wire),
		cmocka_unit_test(test_group_report),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
