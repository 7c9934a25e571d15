/* SPDX-License-Identifier: BSD-2-Clause */
/* A connection's QPs meet their peer's: what QP_INFO says of ours, the
 * checks of theirs, and each QP through RTR to RTS by its transport row's
 * builders, with an address handle where the row needs one. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rdmaperf/engine.h>
#include <rdmaperf/log.h>
#include <rdmaperf/mcast.h>

void rdp_conn_local_info(const struct rdp_conn *conn, uint32_t i, int expose_tx,
			 struct rdp_qp_info *info)
{
	memset(info, 0, sizeof(*info));
	info->qpn = conn->qps[i]->qp_num;
	info->psn = conn->psns[i];
	if (conn->have_gid) {
		memcpy(info->gid, conn->gid.entry.raw, 16);
		info->gid_type = (uint8_t)conn->gid.entry.type;
	}
	info->lid = conn->dev->port.lid;
	if (rdp_conn_qp_port(conn, i) != conn->dev->port.num) {
		info->lid = conn->port2_lid;
		if (conn->have_gid)
			memcpy(info->gid, conn->port2_gid, 16);
	}
	info->mtu_bytes = conn->dev->port.active_mtu_bytes;
	info->rd_atomic = conn->max_dest_rd_atomic;
	/* -g: the peer sends to the group, which reaches every QP here */
	if (conn->mcast) {
		info->qpn = RDP_MCAST_QPN;
		info->lid = conn->mcast_lid;
		memcpy(info->gid, conn->mcast_gid, 16);
	}
	/* A buffer the peer may not reach gets no key or address out. */
	if (!(conn->mr_access & RDP_ACCESS_REMOTE))
		return;
	info->rkey = rdp_conn_rkey(conn, i);
	info->addr = (uint64_t)(uintptr_t)(expose_tx ? rdp_conn_tx(conn, i)
						     : rdp_conn_rx(conn, i));
	info->len_bytes = conn->slot_bytes;
}

static int check_peer(const struct rdp_conn *conn, const struct rdp_qp_info *r)
{
	const struct rdp_gid_entry *g = &conn->gid.entry;

	if (!conn->have_gid)
		return 0;
	if (r->gid_type != g->type) {
		rdp_err("GID type mismatch: this side uses %s (index %d), "
			"the peer uses %s: pick GIDs of the same type on "
			"both sides with -x",
			rdp_gid_type_str(g->type), g->index,
			rdp_gid_type_str((enum rdp_gid_type)r->gid_type));
		return -EPROTO;
	}
	/* RoCE v2 rides on IP: an IPv4 GID cannot talk to an IPv6 one. */
	if (g->type == RDP_GID_ROCE_V2 &&
	    rdp_gid_is_ipv4_mapped(g->raw) != rdp_gid_is_ipv4_mapped(r->gid)) {
		rdp_err("GID family mismatch: this side uses an %s GID "
			"(index %d), the peer an %s one: pick GIDs of the "
			"same family on both sides with -x",
			rdp_gid_is_ipv4_mapped(g->raw) ? "IPv4" : "IPv6",
			g->index,
			rdp_gid_is_ipv4_mapped(r->gid) ? "IPv4" : "IPv6");
		return -EPROTO;
	}
	return 0;
}

static void fill_qp_cfg(const struct rdp_conn *conn, uint32_t i,
			const struct rdp_path_opts *path,
			struct rdp_qp_cfg *cfg)
{
	const struct rdp_dev *dev = conn->dev;

	memset(cfg, 0, sizeof(*cfg));
	cfg->qp_type = conn->qp_type;
	cfg->qkey = RDP_UD_QKEY;
	cfg->port = rdp_conn_qp_port(conn, i);
	cfg->link_layer = dev->port.link_layer;
	cfg->use_grh = conn->have_gid;
	cfg->sgid_index = conn->have_gid ? conn->gid.entry.index : 0;
	cfg->psn = conn->psns[i];
	cfg->path_mtu = rdp_mtu_from_bytes(conn->path_mtu_bytes);
	cfg->max_rd_atomic = conn->max_rd_atomic;
	cfg->max_dest_rd_atomic = conn->max_dest_rd_atomic;
	cfg->traffic_class = path->tclass;
	cfg->sl = path->sl;
	cfg->timeout = path->timeout; /* default 14: 67 ms per try */
	cfg->pkey_index = path->pkey_index;
	cfg->flow_label = i < path->n_flow_labels ? path->flow_labels[i]
						  : path->flow_label;
	cfg->hop_limit = path->hop_limit;
	cfg->retry_cnt = path->retry_cnt;
	cfg->rnr_retry = path->rnr_retry; /* 7 = retry forever on RNR NAK */
	cfg->min_rnr_timer = 12;	  /* 0.64 ms */
	cfg->dlid = path->dlid;
}

/* The address handle of QP i's peer where each send names it (UD), on the
 * path RTR would take. */
static int create_ah(struct rdp_conn *conn, uint32_t i,
		     const struct rdp_qp_cfg *cfg)
{
	struct ibv_ah_attr ah;

	if (!conn->ahs) {
		conn->ahs = calloc(conn->num_qps, sizeof(*conn->ahs));
		if (!conn->ahs)
			return -ENOMEM;
	}
	rdp_qp_attr_ah(cfg, &conn->remote[i], &ah);
	conn->ahs[i] = ibv_create_ah(conn->pd, &ah);
	if (!conn->ahs[i]) {
		rdp_err("create the address handle of qp 0x%x towards the "
			"peer: %s (check the GID index -x on both sides)",
			conn->qps[i]->qp_num, strerror(errno));
		return errno ? -errno : -ENOMEM;
	}
	return 0;
}

static int qp_to_rts(struct rdp_conn *conn, uint32_t i,
		     const struct rdp_path_opts *path)
{
	struct ibv_qp *qp = conn->qps[i];
	struct ibv_qp_attr attr;
	struct rdp_qp_cfg cfg;
	int mask, ret;

	fill_qp_cfg(conn, i, path, &cfg);
	conn->tp->attr_rtr(&cfg, &conn->remote[i], &attr, &mask);
	ret = ibv_modify_qp(qp, &attr, mask);
	if (ret) {
		rdp_err("modify qp 0x%x to RTR: %s (check the GID index "
			"-x and the MTU on both sides)",
			qp->qp_num, strerror(ret));
		return -ret;
	}
	conn->tp->attr_rts(&cfg, &attr, &mask);
	ret = ibv_modify_qp(qp, &attr, mask);
	if (ret) {
		rdp_err("modify qp 0x%x to RTS: %s", qp->qp_num, strerror(ret));
		return -ret;
	}
	return conn->tp->needs_ah ? create_ah(conn, i, &cfg) : 0;
}

void rdp_conn_send_dest(const struct rdp_conn *conn, uint32_t qp,
			struct ibv_send_wr *wr)
{
	if (!conn->ahs)
		return; /* connected: the QP knows its peer */
	wr->wr.ud.ah = conn->ahs[qp];
	wr->wr.ud.remote_qpn = conn->remote[qp].qpn;
	wr->wr.ud.remote_qkey = RDP_UD_QKEY;
}

/* UD: a message is one packet, so it must fit the path MTU. */
static int check_packet_size(const struct rdp_conn *conn, uint32_t mtu)
{
	if (!conn->tp->one_packet || conn->msg_bytes <= mtu)
		return 0;
	rdp_err("-s %u: a %s message travels as one packet and must fit the "
		"path MTU of %u bytes: use -s %u or less (or raise the MTU "
		"of both ports)",
		conn->msg_bytes, conn->tp->name, mtu, mtu);
	return -EMSGSIZE;
}

int rdp_conn_connect(struct rdp_conn *conn, const struct rdp_qp_info *remote,
		     const struct rdp_path_opts *path)
{
	uint32_t i, mtu;
	int ret;

	for (i = 0; i < conn->num_qps; i++) {
		ret = check_peer(conn, &remote[i]);
		if (ret)
			return ret;
	}
	ret = rdp_path_mtu(conn->dev->port.active_mtu_bytes,
			   remote[0].mtu_bytes, path->mtu_bytes, &mtu);
	if (ret) {
		rdp_err("MTU %u not possible: active MTU is %u here and "
			"%u on the peer (-m must be a power of two from "
			"256 to the smaller one)",
			path->mtu_bytes, conn->dev->port.active_mtu_bytes,
			remote[0].mtu_bytes);
		return ret;
	}
	/* Never keep more READ/atomic in flight than the peer accepts. */
	if (remote[0].rd_atomic && remote[0].rd_atomic < conn->max_rd_atomic)
		conn->max_rd_atomic = remote[0].rd_atomic;
	memcpy(conn->remote, remote, conn->num_qps * sizeof(*remote));
	if (conn->cm)
		return 0; /* RDMA CM has connected them, path MTU and all */
	conn->path_mtu_bytes = mtu;
	ret = check_packet_size(conn, mtu);
	if (ret)
		return ret;
	for (i = 0; i < conn->num_qps; i++) {
		ret = qp_to_rts(conn, i, path);
		if (ret)
			return ret;
	}
	return 0;
}
