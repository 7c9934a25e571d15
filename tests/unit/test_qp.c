/* SPDX-License-Identifier: BSD-2-Clause */
/* MTU rules, device limits, pacing, keys and RDMA CM private data,
 * without a device (the QP attribute builders: test_transport.c). */
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

/* Who paces the point p on conn (write_bw's rules). */
static enum rdp_pacing pace_of(const struct rdp_params *p,
			       const struct rdp_conn *conn,
			       struct rdp_decisions *d)
{
	rdp_bench_decide(rdp_bench_find("write_bw"), p, conn, d);
	return d->pacing;
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
	struct rdp_decisions d;

	(void)state;
	/* No packet pacing: the loop paces, signalling a completion every
	 * ~10 ms per QP (763 messages a second each: 1 in 7). */
	assert_int_equal(pace_of(&p, &conn, &d), RDP_PACE_SOFTWARE);
	assert_int_equal(d.signal_every, 7);
	/* HW asked where there is none: refused when the run starts. */
	p.rate_type = RDP_RATE_HW;
	assert_int_equal(pace_of(&p, &conn, &d), RDP_PACE_REFUSED);
	/* Pacing for RC QPs from 1 Mb/s to 100 Gb/s: the device, 25 Mb/s
	 * per QP. */
	dev.pacing.qp_rate_limit_min = 1000;
	dev.pacing.qp_rate_limit_max = 100000000;
	dev.pacing.supported_qpts = 1u << IBV_QPT_RC;
	p.rate_type = RDP_RATE_AUTO;
	assert_int_equal(pace_of(&p, &conn, &d), RDP_PACE_DEVICE);
	assert_int_equal(d.pacing_qp_kbps, 25000);
	/* ... but not on UC, nor below its range, nor when SW is asked. */
	conn.qp_type = IBV_QPT_UC;
	assert_int_equal(pace_of(&p, &conn, &d), RDP_PACE_SOFTWARE);
	conn.qp_type = IBV_QPT_RC;
	p.rate_milli = 1; /* 1 Mb/s over 2 QPs: below the minimum */
	assert_int_equal(pace_of(&p, &conn, &d), RDP_PACE_SOFTWARE);
	p.rate_milli = 50;
	p.rate_type = RDP_RATE_SW;
	assert_int_equal(pace_of(&p, &conn, &d), RDP_PACE_SOFTWARE);
	/* No rate: no pacing. */
	p.rate_milli = 0;
	assert_int_equal(pace_of(&p, &conn, &d), RDP_PACE_NONE);
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
		cmocka_unit_test(test_device_limits),
		cmocka_unit_test(test_pacing_decision),
		cmocka_unit_test(test_path_mtu),
		cmocka_unit_test(test_mtu_enum),
		cmocka_unit_test(test_wc_hints),
		cmocka_unit_test(test_cm_priv),
		cmocka_unit_test(test_cm_reject_hints),
		cmocka_unit_test(test_qp_split),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
