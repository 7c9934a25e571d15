/* SPDX-License-Identifier: BSD-2-Clause */
/* QP attribute builders, MTU rules and RDMA CM private data, without a
 * device. */
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

static void remote_info(struct rdp_qp_info *r)
{
	memset(r, 0, sizeof(*r));
	r->qpn = 0x1a2;
	r->psn = 0xabcdef;
	r->lid = 7;
	r->gid[10] = 0xff;
	r->gid[11] = 0xff;
	r->gid[12] = 10;
	r->gid[15] = 2;
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
	struct rdp_qp_info r;
	struct ibv_qp_attr a;
	int mask;

	(void)state;
	cfg.qp_type = IBV_QPT_UC;
	remote_info(&r);
	rdp_qp_attr_init(&cfg,
			 IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				 IBV_ACCESS_REMOTE_READ |
				 IBV_ACCESS_REMOTE_ATOMIC,
			 &a, &mask);
	assert_int_equal(a.qp_access_flags, IBV_ACCESS_REMOTE_WRITE);
	assert_int_equal(mask, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
				       IBV_QP_ACCESS_FLAGS);
	rdp_qp_attr_rtr(&cfg, &r, &a, &mask);
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
	struct rdp_qp_info r;
	struct ibv_qp_attr a, rc;
	struct ibv_ah_attr ah;
	int mask;

	(void)state;
	cfg.qp_type = IBV_QPT_UD;
	cfg.qkey = RDP_UD_QKEY;
	remote_info(&r);
	rdp_qp_attr_init(&cfg, IBV_ACCESS_REMOTE_WRITE, &a, &mask);
	assert_int_equal(mask, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
				       IBV_QP_QKEY);
	assert_int_equal(a.qkey, RDP_UD_QKEY);
	assert_int_equal(a.pkey_index, 2);
	rdp_qp_attr_rtr(&cfg, &r, &a, &mask);
	assert_int_equal(mask, IBV_QP_STATE);
	assert_int_equal(a.qp_state, IBV_QPS_RTR);
	rdp_qp_attr_rts(&cfg, &a, &mask);
	assert_int_equal(mask, IBV_QP_STATE | IBV_QP_SQ_PSN);
	rdp_qp_attr_ah(&cfg, &r, &ah);
	rdp_qp_attr_rtr(&roce_cfg, &r, &rc, &mask);
	assert_memory_equal(&ah, &rc.ah_attr, sizeof(ah));
	assert_int_equal(ah.is_global, 1);
	assert_int_equal(ah.grh.flow_label, 0xabcde);
}

/* What the device cannot do is refused from its capabilities before any
 * verbs call: a fixture device, no context behind it but its vector
 * count. */
static void test_device_limits(void **state)
{
	struct ibv_context ctx = { .num_comp_vectors = 2 };
	struct rdp_dev dev = { .ctx = &ctx, .name = "fix0" };
	struct rdp_conn_cfg cfg = {
		.num_qps = 1, .msg_bytes = 64, .tx_depth = 128, .rx_depth = 0
	};
	struct rdp_conn *conn = NULL;

	(void)state;
	dev.attr.max_qp_wr = 1024;
	dev.attr.max_qp = 8;
	dev.port.num = 1;
	dev.port.pkey_tbl_len = 1;
	cfg.pkey_index = 1; /* past a one-entry P_Key table */
	assert_int_equal(rdp_conn_create(&dev, &cfg, &conn), -ENOSYS);
	cfg.pkey_index = 0;
	cfg.events = 1;
	cfg.comp_vector = 2; /* vectors 0 and 1 only */
	assert_int_equal(rdp_conn_create(&dev, &cfg, &conn), -ENOSYS);
	cfg.comp_vector = -1;
	assert_int_equal(rdp_conn_create(&dev, &cfg, &conn), -ENOSYS);
	cfg.events = 0;
	cfg.odp = 1; /* no on-demand paging at all */
	cfg.odp_ops = IBV_ODP_SUPPORT_SEND | IBV_ODP_SUPPORT_RECV;
	assert_int_equal(rdp_conn_create(&dev, &cfg, &conn), -ENOSYS);
	dev.odp.general_caps = IBV_ODP_SUPPORT;
	dev.odp.per_transport_caps.rc_odp_caps = IBV_ODP_SUPPORT_SEND;
	assert_int_equal(rdp_conn_create(&dev, &cfg, &conn), -ENOSYS);
	dev.odp.per_transport_caps.rc_odp_caps |= IBV_ODP_SUPPORT_RECV;
	cfg.transport = RDP_TRANSPORT_UD; /* RC's caps do not count for UD */
	assert_int_equal(rdp_conn_create(&dev, &cfg, &conn), -ENOSYS);
	cfg.odp = 0;
	cfg.transport = RDP_TRANSPORT_RC;
	cfg.use_srq = 1; /* max_srq 0 */
	assert_int_equal(rdp_conn_create(&dev, &cfg, &conn), -ENOSYS);
	cfg.use_srq = 0;
	cfg.transport = RDP_TRANSPORT_XRC; /* no IBV_DEVICE_XRC */
	assert_int_equal(rdp_conn_create(&dev, &cfg, &conn), -ENOSYS);
	dev.attr.device_cap_flags = IBV_DEVICE_XRC; /* not built either */
	assert_int_equal(rdp_conn_create(&dev, &cfg, &conn), -ENOSYS);
	cfg.transport = RDP_TRANSPORT_RC;
	cfg.tx_depth = 2048; /* deeper than max_qp_wr */
	assert_int_equal(rdp_conn_create(&dev, &cfg, &conn), -EINVAL);
	cfg.tx_depth = 128;
	cfg.num_qps = 9; /* more than max_qp */
	assert_int_equal(rdp_conn_create(&dev, &cfg, &conn), -EINVAL);
	assert_null(conn);
}

/* --rate_limit: who paces, from a fixture device's packet_pacing_caps. */
static void test_pacing_decision(void **state)
{
	struct rdp_dev dev = { .name = "fix0" };
	struct rdp_conn conn = { .dev = &dev, .qp_type = IBV_QPT_RC };
	struct rdp_params p = { .test = "write_bw",
				.size_bytes = 4096,
				.num_qps = 2,
				.tx_depth = 128,
				.cq_mod = 100,
				.rate_milli = 50 /* 0.05 Gb/s */ };
	const struct rdp_bench_ops *ops = rdp_bench_find("write_bw");
	struct rdp_decisions d;

	(void)state;
	/* No packet pacing: the loop paces, signalling a completion every
	 * ~10 ms per QP (763 messages a second each: 1 in 7). */
	rdp_bench_decide(ops, &p, &conn, &d);
	assert_int_equal(d.pacing, RDP_PACE_SOFTWARE);
	assert_int_equal(d.signal_every, 7);
	/* HW asked where there is none: refused when the run starts. */
	p.rate_type = RDP_RATE_HW;
	rdp_bench_decide(ops, &p, &conn, &d);
	assert_int_equal(d.pacing, RDP_PACE_REFUSED);
	/* Pacing for RC QPs from 1 Mb/s to 100 Gb/s: the device, 25 Mb/s
	 * per QP. */
	dev.pacing.qp_rate_limit_min = 1000;
	dev.pacing.qp_rate_limit_max = 100000000;
	dev.pacing.supported_qpts = 1u << IBV_QPT_RC;
	p.rate_type = RDP_RATE_AUTO;
	rdp_bench_decide(ops, &p, &conn, &d);
	assert_int_equal(d.pacing, RDP_PACE_DEVICE);
	assert_int_equal(d.pacing_qp_kbps, 25000);
	/* ... but not on UC, nor below its range, nor when SW is asked. */
	conn.qp_type = IBV_QPT_UC;
	rdp_bench_decide(ops, &p, &conn, &d);
	assert_int_equal(d.pacing, RDP_PACE_SOFTWARE);
	conn.qp_type = IBV_QPT_RC;
	p.rate_milli = 1; /* 1 Mb/s over 2 QPs: below the minimum */
	rdp_bench_decide(ops, &p, &conn, &d);
	assert_int_equal(d.pacing, RDP_PACE_SOFTWARE);
	p.rate_milli = 50;
	p.rate_type = RDP_RATE_SW;
	rdp_bench_decide(ops, &p, &conn, &d);
	assert_int_equal(d.pacing, RDP_PACE_SOFTWARE);
	/* No rate: no pacing. */
	p.rate_milli = 0;
	rdp_bench_decide(ops, &p, &conn, &d);
	assert_int_equal(d.pacing, RDP_PACE_NONE);
}

static void test_rtr_roce(void **state)
{
	struct rdp_qp_info r;
	struct ibv_qp_attr a;
	int mask;

	(void)state;
	remote_info(&r);
	rdp_qp_attr_rtr(&roce_cfg, &r, &a, &mask);
	assert_int_equal(a.qp_state, IBV_QPS_RTR);
	assert_int_equal(a.dest_qp_num, 0x1a2);
	assert_int_equal(a.rq_psn, 0xabcdef);
	assert_int_equal(a.path_mtu, IBV_MTU_1024);
	assert_int_equal(a.max_dest_rd_atomic, 8);
	assert_int_equal(a.min_rnr_timer, 12);
	assert_int_equal(a.ah_attr.is_global, 1);
	assert_memory_equal(a.ah_attr.grh.dgid.raw, r.gid, 16);
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
	struct rdp_qp_info r;
	struct ibv_qp_attr a;
	int mask;

	(void)state;
	cfg.link_layer = IBV_LINK_LAYER_INFINIBAND;
	cfg.use_grh = 0;
	remote_info(&r);
	rdp_qp_attr_rtr(&cfg, &r, &a, &mask);
	assert_int_equal(a.ah_attr.is_global, 0);
	assert_int_equal(a.ah_attr.dlid, 7);
	/* With a GRH on IB both are set. */
	cfg.use_grh = 1;
	rdp_qp_attr_rtr(&cfg, &r, &a, &mask);
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

static void test_path_mtu(void **state)
{
	uint32_t mtu = 0;

	(void)state;
	assert_int_equal(rdp_path_mtu(4096, 1024, 0, &mtu), 0);
	assert_int_equal(mtu, 1024);
	assert_int_equal(rdp_path_mtu(1024, 4096, 0, &mtu), 0);
	assert_int_equal(mtu, 1024);
	assert_int_equal(rdp_path_mtu(4096, 4096, 2048, &mtu), 0);
	assert_int_equal(mtu, 2048);
	assert_int_equal(rdp_path_mtu(1024, 4096, 2048, &mtu), -ERANGE);
	assert_int_equal(rdp_path_mtu(1000, 4096, 0, &mtu), -EINVAL);
	assert_int_equal(rdp_path_mtu(1024, 1024, 300, &mtu), -EINVAL);
}

static void test_mtu_enum(void **state)
{
	(void)state;
	assert_int_equal(rdp_mtu_from_bytes(256), IBV_MTU_256);
	assert_int_equal(rdp_mtu_from_bytes(4096), IBV_MTU_4096);
	assert_int_equal(rdp_mtu_from_bytes(1500), 0);
	assert_int_equal(rdp_mtu_to_bytes(IBV_MTU_2048), 2048);
	assert_int_equal(rdp_mtu_to_bytes((enum ibv_mtu)9), 0);
}

static void test_wc_hints(void **state)
{
	(void)state;
	assert_non_null(
		strstr(rdp_wc_status_hint(IBV_WC_RETRY_EXC_ERR), "GID"));
	assert_non_null(
		strstr(rdp_wc_status_hint(IBV_WC_REM_ACCESS_ERR), "rkey"));
	assert_non_null(strstr(rdp_wc_status_hint(IBV_WC_RNR_RETRY_EXC_ERR),
			       "receive"));
}

/* RDMA CM connect requests: ours round-trip, anything else is refused. */
static void test_cm_priv(void **state)
{
	uint8_t buf[RDP_CM_PRIV_BYTES + 4] = { 0 };
	uint32_t nonce = 0, idx = 0;

	(void)state;
	rdp_cm_priv_encode(0xdeadbeef, 4095, buf);
	assert_int_equal(buf[0], 'R');
	assert_int_equal(buf[3], 'C');
	/* IB CM pads private data: trailing bytes are ignored. */
	assert_int_equal(rdp_cm_priv_decode(buf, sizeof(buf), &nonce, &idx), 0);
	assert_int_equal(nonce, 0xdeadbeef);
	assert_int_equal(idx, 4095);
	assert_int_equal(rdp_cm_priv_decode(buf, RDP_CM_PRIV_BYTES - 1, &nonce,
					    &idx),
			 -EBADMSG);
	assert_int_equal(rdp_cm_priv_decode(NULL, 0, &nonce, &idx), -EBADMSG);
	buf[1] ^= 1;
	assert_int_equal(rdp_cm_priv_decode(buf, sizeof(buf), &nonce, &idx),
			 -EBADMSG);
}

static void test_cm_reject_hints(void **state)
{
	(void)state;
	assert_non_null(strstr(rdp_cm_reject_hint(8), "nothing listens"));
	assert_non_null(strstr(rdp_cm_reject_hint(28), "refused"));
	assert_non_null(strstr(rdp_cm_reject_hint(1), "server's log"));
}

/* --threads: QPs split in order, as evenly as they go, every QP in the
 * part that holds it. */
static void test_qp_split(void **state)
{
	static const struct {
		uint32_t qps, parts;
		uint32_t first[4], n[4];
	} cases[] = {
		{ 4, 2, { 0, 2 }, { 2, 2 } },
		{ 5, 2, { 0, 2 }, { 2, 3 } },
		{ 8, 3, { 0, 2, 5 }, { 2, 3, 3 } },
		{ 3, 3, { 0, 1, 2 }, { 1, 1, 1 } },
		{ 7, 1, { 0 }, { 7 } },
	};
	uint32_t c, part, first, n, q, total;

	(void)state;
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		total = 0;
		for (part = 0; part < cases[c].parts; part++) {
			rdp_qp_split(cases[c].qps, cases[c].parts, part, &first,
				     &n);
			assert_int_equal(first, cases[c].first[part]);
			assert_int_equal(n, cases[c].n[part]);
			for (q = first; q < first + n; q++)
				assert_int_equal(rdp_qp_part_of(cases[c].qps,
								cases[c].parts,
								q),
						 part);
			total += n;
		}
		assert_int_equal(total, cases[c].qps);
	}
	/* no split asked: one part of everything */
	rdp_qp_split(6, 0, 0, &first, &n);
	assert_int_equal(first, 0);
	assert_int_equal(n, 6);
}

/*
 * The key a side hands its peer is that of an MR over its own buffer (the
 * buffer's, or with --mr_per_qp the QP's slots): the address and length
 * sent lie inside that MR, and the MR inside the buffer.
 */
static void check_key(const struct rdp_conn *conn, uint32_t q,
		      const struct ibv_mr *want)
{
	struct rdp_qp_info info;
	uint8_t *lo = conn->buf, *hi = lo + conn->buf_bytes;
	uint8_t *mlo = want->addr, *mhi = mlo + want->length;
	uint8_t *at;

	rdp_conn_local_info(conn, q, 0, &info);
	at = (uint8_t *)(uintptr_t)info.addr;
	assert_int_equal(info.rkey, want->rkey);
	assert_true(mlo >= lo && mhi <= hi);
	assert_true(at >= mlo && at + info.len_bytes <= mhi);
}

static void test_key_is_the_buffers(void **state)
{
	static uint8_t buf[4 * 4096];
	struct ibv_qp qps[2] = { { .qp_num = 0x11 }, { .qp_num = 0x12 } };
	struct ibv_qp *qpp[2] = { &qps[0], &qps[1] };
	struct ibv_mr mr = {
		.addr = buf, .length = sizeof(buf), .lkey = 0x100, .rkey = 0x200
	};
	struct ibv_mr per[2] = {
		{ .addr = buf, .length = 2 * 4096, .rkey = 0x301 },
		{ .addr = buf + 2 * 4096, .length = 2 * 4096, .rkey = 0x302 },
	};
	struct ibv_mr *perp[2] = { &per[0], &per[1] };
	struct rdp_mem_buf mb = { .ptr = buf, .bytes = sizeof(buf), .mr = &mr };
	struct rdp_dev dev = { 0 };
	uint32_t psns[2] = { 1, 2 };
	struct rdp_conn conn = {
		.dev = &dev,
		.mb = &mb,
		.buf = buf,
		.buf_bytes = sizeof(buf),
		.slot_bytes = 4096,
		.mr = &mr,
		.qps = qpp,
		.psns = psns,
		.num_qps = 2,
		.mr_access = IBV_ACCESS_REMOTE_WRITE,
	};
	struct rdp_qp_info info;

	(void)state;
	check_key(&conn, 0, &mr);
	check_key(&conn, 1, &mr);
	conn.qp_mrs = perp;
	conn.n_qp_mrs = 2;
	check_key(&conn, 0, &per[0]);
	check_key(&conn, 1, &per[1]);
	/* A buffer the peer may not reach: no key at all. */
	conn.mr_access = IBV_ACCESS_LOCAL_WRITE;
	rdp_conn_local_info(&conn, 1, 0, &info);
	assert_int_equal(info.rkey, 0);
	assert_int_equal(info.addr, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_key_is_the_buffers),
		cmocka_unit_test(test_init),
		cmocka_unit_test(test_device_limits),
		cmocka_unit_test(test_pacing_decision),
		cmocka_unit_test(test_uc),
		cmocka_unit_test(test_ud),
		cmocka_unit_test(test_rtr_roce),
		cmocka_unit_test(test_rtr_ib_lid),
		cmocka_unit_test(test_rts),
		cmocka_unit_test(test_path_mtu),
		cmocka_unit_test(test_mtu_enum),
		cmocka_unit_test(test_wc_hints),
		cmocka_unit_test(test_cm_priv),
		cmocka_unit_test(test_cm_reject_hints),
		cmocka_unit_test(test_qp_split),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
