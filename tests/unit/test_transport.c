/* SPDX-License-Identifier: BSD-2-Clause */
/* The transport rows: lookups, each row's facts and QP attribute builders
 * (every field per transition), and what the engine refuses from them
 * before any verbs call. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/cm.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/log.h>
#include <rdmaperf/transport.h>

#define INIT_BASE (IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT)
#define RTR_PATH                                                               \
	(IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |        \
	 IBV_QP_RQ_PSN)
#define RTS_BASE (IBV_QP_STATE | IBV_QP_SQ_PSN)
#define RC_RTS                                                                 \
	(RTS_BASE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |     \
	 IBV_QP_MAX_QP_RD_ATOMIC)
#define ALL_ACCESS                                                             \
	(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |                    \
	 IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC)

/* What each row's builders must set, transition by transition. */
static const struct {
	uint32_t id;
	const char *name;
	enum ibv_qp_type qp_type;
	int init_mask, rtr_mask, rts_mask;
	int access; /* qp_access_flags from ALL_ACCESS */
} want[] = {
	{ RDP_TRANSPORT_RC, "RC", IBV_QPT_RC, INIT_BASE | IBV_QP_ACCESS_FLAGS,
	  RTR_PATH | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER, RC_RTS,
	  RDP_ACCESS_REMOTE },
	{ RDP_TRANSPORT_UC, "UC", IBV_QPT_UC, INIT_BASE | IBV_QP_ACCESS_FLAGS,
	  RTR_PATH, RTS_BASE, IBV_ACCESS_REMOTE_WRITE },
	{ RDP_TRANSPORT_UD, "UD", IBV_QPT_UD, INIT_BASE | IBV_QP_QKEY,
	  IBV_QP_STATE, RTS_BASE, 0 },
};

static const struct rdp_qp_cfg roce_cfg = {
	.port = 1,
	.link_layer = IBV_LINK_LAYER_ETHERNET,
	.use_grh = 1,
	.sgid_index = 3,
	.psn = 0x123456,
	.path_mtu = IBV_MTU_1024,
	.max_rd_atomic = 16,
	.max_dest_rd_atomic = 8,
	.traffic_class = 106,
	.pkey_index = 2,
	.flow_label = 0xabcde,
	.hop_limit = 9,
	.timeout = 14,
	.retry_cnt = 7,
	.rnr_retry = 7,
	.min_rnr_timer = 12,
};

/* The peer's QP: its number, first PSN, LID and an IPv4 RoCE v2 GID. */
static const struct rdp_qp_info their_qp = {
	.qpn = 0x1a2,
	.psn = 0xabcdef,
	.lid = 7,
	.gid = { [10] = 0xff, [11] = 0xff, [12] = 10, [15] = 2 },
};

static const struct rdp_qp_info peer = { .qpn = 0x1a2, .psn = 0xabcdef };

/* Every row that runs tests: its builders give exactly its masks, and
 * the public builders (by QP type) are the row's. */
static void test_row_builders(void **state)
{
	struct ibv_qp_attr a, b;
	struct rdp_qp_cfg cfg;
	int mask, mask_b;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct rdp_transport *t = rdp_transport_get(want[i].id);

		assert_non_null(t);
		assert_int_equal(t->id, want[i].id);
		assert_string_equal(t->name, want[i].name);
		assert_int_equal(t->qp_type, want[i].qp_type);
		assert_true(t->runs_tests);
		cfg = roce_cfg;
		cfg.qkey = RDP_UD_QKEY;
		cfg.qp_type = t->qp_type;
		t->attr_init(&cfg, ALL_ACCESS, &a, &mask);
		assert_int_equal(a.qp_state, IBV_QPS_INIT);
		assert_int_equal(a.pkey_index, 2);
		assert_int_equal(mask, want[i].init_mask);
		assert_int_equal(a.qp_access_flags, want[i].access);
		rdp_qp_attr_init(&cfg, ALL_ACCESS, &b, &mask_b);
		assert_int_equal(mask_b, mask);
		assert_memory_equal(&a, &b, sizeof(a));
		t->attr_rtr(&cfg, &peer, &a, &mask);
		assert_int_equal(a.qp_state, IBV_QPS_RTR);
		assert_int_equal(mask, want[i].rtr_mask);
		assert_int_equal(a.dest_qp_num, t->connected ? 0x1a2 : 0);
		rdp_qp_attr_rtr(&cfg, &peer, &b, &mask_b);
		assert_int_equal(mask_b, mask);
		assert_memory_equal(&a, &b, sizeof(a));
		t->attr_rts(&cfg, &a, &mask);
		assert_int_equal(a.qp_state, IBV_QPS_RTS);
		assert_int_equal(a.sq_psn, 0x123456);
		assert_int_equal(mask, want[i].rts_mask);
		assert_int_equal(a.retry_cnt, t->reliable ? 7 : 0);
		rdp_qp_attr_rts(&cfg, &b, &mask_b);
		assert_int_equal(mask_b, mask);
		assert_memory_equal(&a, &b, sizeof(a));
	}
}

/* A row no test runs on (XRC) has no builders; the public builders fall
 * back to RC's for it and for a type left 0. */
static void test_unbuilt_row(void **state)
{
	const struct rdp_transport *x = rdp_transport_get(RDP_TRANSPORT_XRC);
	struct rdp_qp_cfg cfg = roce_cfg;
	cfg.qkey = RDP_UD_QKEY;
	struct ibv_qp_attr a;
	int mask;

	(void)state;
	assert_non_null(x);
	assert_false(x->runs_tests);
	assert_null(x->attr_init);
	assert_int_equal(x->dev_cap_flag, IBV_DEVICE_XRC);
	assert_string_equal(x->dev_cap_name, "IBV_DEVICE_XRC");
	cfg.qp_type = IBV_QPT_XRC_SEND;
	rdp_qp_attr_rts(&cfg, &a, &mask);
	assert_int_equal(mask, RC_RTS);
	cfg.qp_type = 0;
	rdp_qp_attr_rtr(&cfg, &peer, &a, &mask);
	assert_true(mask & IBV_QP_MAX_DEST_RD_ATOMIC);
}

static void test_lookup(void **state)
{
	uint32_t id;

	(void)state;
	for (id = 0; id < RDP_TRANSPORT_COUNT; id++) {
		const struct rdp_transport *t = rdp_transport_get(id);

		assert_ptr_equal(rdp_transport_by_name(t->name), t);
		assert_ptr_equal(rdp_transport_by_qp_type(t->qp_type), t);
		assert_string_equal(rdp_transport_name(id), t->name);
	}
	assert_ptr_equal(rdp_transport_by_name("ud"),
			 rdp_transport_get(RDP_TRANSPORT_UD));
	assert_ptr_equal(rdp_transport_by_name("Uc"),
			 rdp_transport_get(RDP_TRANSPORT_UC));
	/* unknown names, types and ids */
	assert_null(rdp_transport_by_name("DC"));
	assert_null(rdp_transport_by_name("R"));
	assert_null(rdp_transport_by_name("RCX"));
	assert_null(rdp_transport_by_name(""));
	assert_null(rdp_transport_by_name(NULL));
	assert_null(rdp_transport_by_qp_type(IBV_QPT_RAW_PACKET));
	assert_null(rdp_transport_get(RDP_TRANSPORT_COUNT));
	assert_string_equal(rdp_transport_name(7), "?");
}

/* What the rest of the tree asks of the rows. */
static void test_row_facts(void **state)
{
	const struct rdp_transport *rc = rdp_transport_get(RDP_TRANSPORT_RC);
	const struct rdp_transport *uc = rdp_transport_get(RDP_TRANSPORT_UC);
	const struct rdp_transport *ud = rdp_transport_get(RDP_TRANSPORT_UD);

	(void)state;
	/* loss: counted where nothing acknowledges, late messages awaited */
	assert_false(rdp_transport_lossy(RDP_TRANSPORT_RC));
	assert_true(rdp_transport_lossy(RDP_TRANSPORT_UC));
	assert_true(rdp_transport_lossy(RDP_TRANSPORT_UD));
	assert_true(rdp_transport_lossy(RDP_TRANSPORT_COUNT));
	assert_int_equal(rc->late_quiet_ms, 0);
	assert_int_equal(uc->late_quiet_ms, 100);
	assert_int_equal(ud->late_quiet_ms, 100);
	/* verbs: bit n is enum rdp_verb n */
	assert_true(rdp_transport_carries(rc, RDP_VERB_READ));
	assert_true(rdp_transport_carries(rc, RDP_VERB_ATOMIC));
	assert_true(rdp_transport_carries(uc, RDP_VERB_WRITE));
	assert_true(rdp_transport_carries(uc, RDP_VERB_SEND));
	assert_false(rdp_transport_carries(uc, RDP_VERB_READ));
	assert_false(rdp_transport_carries(uc, RDP_VERB_ATOMIC));
	assert_true(rdp_transport_carries(ud, RDP_VERB_SEND));
	assert_false(rdp_transport_carries(ud, RDP_VERB_WRITE));
	assert_false(rdp_transport_carries(ud, 40));
	assert_true(ud->verbs & RDP_TRANSPORT_SEND_IMM);
	assert_false(ud->verbs & RDP_TRANSPORT_WRITE_IMM);
	/* UD: address handles, a GRH ahead of each message, one packet */
	assert_true(ud->needs_ah && !ud->connected && ud->one_packet);
	assert_int_equal(ud->grh_bytes, RDP_UD_GRH_BYTES);
	assert_int_equal(ud->default_size_bytes, 1024);
	assert_true(ud->host_memory_only);
	assert_false(uc->needs_ah || uc->one_packet || uc->grh_bytes);
	/* RDMA CM and perftest's peer: RC only */
	assert_true(rc->cm_ok && rc->perftest_ok);
	assert_false(uc->cm_ok || uc->perftest_ok);
	assert_false(ud->cm_ok || ud->perftest_ok);
	/* ODP: each row's own entry of the device's caps */
	assert_int_equal(ud->odp_caps_offset,
			 offsetof(struct ibv_odp_caps,
				  per_transport_caps.ud_odp_caps));
}

static int connected_only(const struct rdp_transport *t)
{
	return t->connected;
}

static int cm_only(const struct rdp_transport *t)
{
	return t->cm_ok;
}

static void test_list(void **state)
{
	char buf[64];

	(void)state;
	rdp_transport_list(NULL, " and ", buf, sizeof(buf));
	assert_string_equal(buf, "RC, UC and UD");
	rdp_transport_list(NULL, " or ", buf, sizeof(buf));
	assert_string_equal(buf, "RC, UC or UD");
	rdp_transport_list(connected_only, " or ", buf, sizeof(buf));
	assert_string_equal(buf, "RC or UC");
	rdp_transport_list(cm_only, " and ", buf, sizeof(buf));
	assert_string_equal(buf, "RC");
	rdp_transport_list(NULL, " and ", buf, 5); /* cut, still a string */
	assert_string_equal(buf, "RC, ");
}

static void test_init(void **state)
{
	struct ibv_qp_attr a;
	int mask;

	(void)state;
	rdp_qp_attr_init(&roce_cfg, IBV_ACCESS_REMOTE_WRITE, &a, &mask);
	assert_int_equal(a.qp_state, IBV_QPS_INIT);
	assert_int_equal(a.port_num, 1);
	assert_int_equal(a.pkey_index, 2);
	assert_int_equal(a.qp_access_flags, IBV_ACCESS_REMOTE_WRITE);
	assert_int_equal(mask, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
				       IBV_QP_ACCESS_FLAGS);
}

/* UC: no ACKs, so no READ/atomic access, depth, retries or timeout. */
static void test_uc(void **state)
{
	struct rdp_qp_cfg cfg = roce_cfg;
	struct ibv_qp_attr a;
	int mask;

	(void)state;
	cfg.qp_type = IBV_QPT_UC;
	rdp_qp_attr_init(&cfg,
			 IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				 IBV_ACCESS_REMOTE_READ |
				 IBV_ACCESS_REMOTE_ATOMIC,
			 &a, &mask);
	assert_int_equal(a.qp_access_flags, IBV_ACCESS_REMOTE_WRITE);
	assert_int_equal(mask, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
				       IBV_QP_ACCESS_FLAGS);
	rdp_qp_attr_rtr(&cfg, &their_qp, &a, &mask);
	assert_int_equal(mask, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
				       IBV_QP_DEST_QPN | IBV_QP_RQ_PSN);
	assert_int_equal(a.dest_qp_num, 0x1a2);
	assert_int_equal(a.ah_attr.grh.sgid_index, 3);
	rdp_qp_attr_rts(&cfg, &a, &mask);
	assert_int_equal(mask, IBV_QP_STATE | IBV_QP_SQ_PSN);
	assert_int_equal(a.sq_psn, 0x123456);
}

/* UD: a Q_Key at INIT, nothing about the peer at RTR (each send names its
 * address handle), which has the path RTR would have had. */
static void test_ud(void **state)
{
	struct rdp_qp_cfg cfg = roce_cfg;
	struct ibv_qp_attr a, rc;
	struct ibv_ah_attr ah;
	int mask;

	(void)state;
	cfg.qp_type = IBV_QPT_UD;
	cfg.qkey = RDP_UD_QKEY;
	rdp_qp_attr_init(&cfg, IBV_ACCESS_REMOTE_WRITE, &a, &mask);
	assert_int_equal(mask, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
				       IBV_QP_QKEY);
	assert_int_equal(a.qkey, RDP_UD_QKEY);
	assert_int_equal(a.pkey_index, 2);
	rdp_qp_attr_rtr(&cfg, &their_qp, &a, &mask);
	assert_int_equal(mask, IBV_QP_STATE);
	assert_int_equal(a.qp_state, IBV_QPS_RTR);
	rdp_qp_attr_rts(&cfg, &a, &mask);
	assert_int_equal(mask, IBV_QP_STATE | IBV_QP_SQ_PSN);
	rdp_qp_attr_ah(&cfg, &their_qp, &ah);
	rdp_qp_attr_rtr(&roce_cfg, &their_qp, &rc, &mask);
	assert_memory_equal(&ah, &rc.ah_attr, sizeof(ah));
	assert_int_equal(ah.is_global, 1);
	assert_int_equal(ah.grh.flow_label, 0xabcde);
}

static void test_rtr_roce(void **state)
{
	struct ibv_qp_attr a;
	int mask;

	(void)state;
	rdp_qp_attr_rtr(&roce_cfg, &their_qp, &a, &mask);
	assert_int_equal(a.qp_state, IBV_QPS_RTR);
	assert_int_equal(a.dest_qp_num, 0x1a2);
	assert_int_equal(a.rq_psn, 0xabcdef);
	assert_int_equal(a.path_mtu, IBV_MTU_1024);
	assert_int_equal(a.max_dest_rd_atomic, 8);
	assert_int_equal(a.min_rnr_timer, 12);
	assert_int_equal(a.ah_attr.is_global, 1);
	assert_memory_equal(a.ah_attr.grh.dgid.raw, their_qp.gid, 16);
	assert_int_equal(a.ah_attr.grh.sgid_index, 3);
	assert_int_equal(a.ah_attr.grh.hop_limit, 9);
	assert_int_equal(a.ah_attr.grh.traffic_class, 106);
	assert_int_equal(a.ah_attr.grh.flow_label, 0xabcde);
	assert_int_equal(a.ah_attr.dlid, 0); /* RoCE has no LIDs */
	assert_int_equal(a.ah_attr.port_num, 1);
	assert_true(mask & IBV_QP_AV);
	assert_true(mask & IBV_QP_PATH_MTU);
	assert_true(mask & IBV_QP_DEST_QPN);
	assert_true(mask & IBV_QP_RQ_PSN);
	assert_true(mask & IBV_QP_MAX_DEST_RD_ATOMIC);
	assert_true(mask & IBV_QP_MIN_RNR_TIMER);
}

static void test_rtr_ib_lid(void **state)
{
	struct rdp_qp_cfg cfg = roce_cfg;
	struct ibv_qp_attr a;
	int mask;

	(void)state;
	cfg.link_layer = IBV_LINK_LAYER_INFINIBAND;
	cfg.use_grh = 0;
	rdp_qp_attr_rtr(&cfg, &their_qp, &a, &mask);
	assert_int_equal(a.ah_attr.is_global, 0);
	assert_int_equal(a.ah_attr.dlid, 7);
	/* With a GRH on IB both are set. */
	cfg.use_grh = 1;
	rdp_qp_attr_rtr(&cfg, &their_qp, &a, &mask);
	assert_int_equal(a.ah_attr.is_global, 1);
	assert_int_equal(a.ah_attr.dlid, 7);
}

static void test_rts(void **state)
{
	struct ibv_qp_attr a;
	int mask;

	(void)state;
	rdp_qp_attr_rts(&roce_cfg, &a, &mask);
	assert_int_equal(a.qp_state, IBV_QPS_RTS);
	assert_int_equal(a.sq_psn, 0x123456);
	assert_int_equal(a.timeout, 14);
	assert_int_equal(a.retry_cnt, 7);
	assert_int_equal(a.rnr_retry, 7);
	assert_int_equal(a.max_rd_atomic, 16);
	assert_int_equal(mask, IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT |
				       IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
				       IBV_QP_MAX_QP_RD_ATOMIC);
}

/* A fixture device that accepts everything the checks ask. */
static void fixture_dev(struct rdp_dev *dev, struct ibv_context *ctx)
{
	memset(dev, 0, sizeof(*dev));
	dev->ctx = ctx;
	strcpy(dev->name, "fix0");
	dev->attr.max_qp_wr = 1024;
	dev->attr.max_qp = 8;
	dev->port.num = 1;
	dev->port.pkey_tbl_len = 1;
}

/* Refused from the row before any verbs call: an id past the table, a
 * row no test runs on, a capability the device lacks. */
static void test_conn_refusals(void **state)
{
	struct ibv_context ctx = { .num_comp_vectors = 1 };
	struct rdp_conn_cfg cfg = { .num_qps = 1,
				    .msg_bytes = 64,
				    .tx_depth = 16 };
	struct rdp_conn *conn = NULL;
	struct rdp_dev dev;

	(void)state;
	fixture_dev(&dev, &ctx);
	cfg.transport = RDP_TRANSPORT_COUNT;
	assert_int_equal(rdp_conn_create(&dev, &cfg, &conn), -EINVAL);
	cfg.transport = 99;
	assert_int_equal(rdp_conn_create(&dev, &cfg, &conn), -EINVAL);
	assert_string_equal(rdp_last_error(),
			    "transport 99 unknown: give -c RC, UC or UD");
	cfg.transport = RDP_TRANSPORT_XRC;
	assert_int_equal(rdp_conn_create(&dev, &cfg, &conn), -ENOSYS);
	assert_string_equal(rdp_last_error(),
			    "-c XRC: fix0 reports no XRC (IBV_DEVICE_XRC is "
			    "not in the device_cap_flags 0x0 of "
			    "ibv_query_device): use -c RC");
	dev.attr.device_cap_flags = IBV_DEVICE_XRC;
	assert_int_equal(rdp_conn_create(&dev, &cfg, &conn), -ENOSYS);
	assert_string_equal(rdp_last_error(),
			    "-c XRC: fix0 offers XRC, on which rdmaperf runs "
			    "no test yet: use -c RC");
	assert_null(conn);
}

/* -R on a row RDMA CM does not connect: refused before any id exists,
 * in the client's words. */
static void test_cm_refuses(void **state)
{
	struct rdp_cm_opts o = { .timeout_ms = 1000 };
	struct rdp_ip ip = { .raw = { 0 } };
	struct rdp_conn conn = { 0 };
	uint16_t port = 0;

	(void)state;
	conn.tp = rdp_transport_get(RDP_TRANSPORT_UD);
	assert_int_equal(rdp_cm_listen(&conn, &ip, &o, &port), -ENOSYS);
	assert_string_equal(rdp_last_error(),
			    "-R connects RC QPs: drop -R to run -c UD (QPs "
			    "exchanged over TCP)");
	assert_null(conn.cm);
	conn.tp = rdp_transport_get(RDP_TRANSPORT_UC);
	assert_int_equal(rdp_cm_connect(&conn, 1, &ip, 7471, 1, &o), -ENOSYS);
	assert_null(conn.cm);
	assert_int_equal(port, 0);
}

/* A row whose messages are one packet each: a size past the path MTU is
 * refused at connect, on both sides alike, before any QP is modified. */
static void test_one_packet(void **state)
{
	struct rdp_qp_info remote = { .qpn = 0x1a2, .mtu_bytes = 1024 };
	struct rdp_path_opts path = { .mtu_bytes = 0 };
	struct rdp_qp_info mine;
	struct ibv_context ctx = { .num_comp_vectors = 1 };
	struct rdp_conn conn = { 0 };
	struct rdp_dev dev;

	(void)state;
	fixture_dev(&dev, &ctx);
	dev.port.active_mtu_bytes = 4096;
	conn.dev = &dev;
	conn.tp = rdp_transport_get(RDP_TRANSPORT_UD);
	conn.num_qps = 1;
	conn.remote = &mine;
	conn.msg_bytes = 4096;
	assert_int_equal(rdp_conn_connect(&conn, &remote, &path), -EMSGSIZE);
	assert_string_equal(rdp_last_error(),
			    "-s 4096: a UD message travels as one packet and "
			    "must fit the path MTU of 1024 bytes: use -s 1024 "
			    "or less (or raise the MTU of both ports)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init),
		cmocka_unit_test(test_uc),
		cmocka_unit_test(test_ud),
		cmocka_unit_test(test_rtr_roce),
		cmocka_unit_test(test_rtr_ib_lid),
		cmocka_unit_test(test_rts),
		cmocka_unit_test(test_row_builders),
		cmocka_unit_test(test_unbuilt_row),
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_row_facts),
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_conn_refusals),
		cmocka_unit_test(test_cm_refuses),
		cmocka_unit_test(test_one_packet),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
