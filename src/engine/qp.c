/* SPDX-License-Identifier: BSD-2-Clause */
/* QP attributes for each state transition of RC, UC and UD QPs, every
 * field set on purpose (the transport rows' builders), and the hints that
 * explain a failed work completion. */
#include <errno.h>
#include <string.h>

#include "qp_int.h"
#include <rdmaperf/engine.h>
#include <rdmaperf/transport.h>

/* INIT: the port and P_Key every QP takes. */
static void init_common(const struct rdp_qp_cfg *cfg, struct ibv_qp_attr *attr,
			int *mask)
{
	memset(attr, 0, sizeof(*attr));
	attr->qp_state = IBV_QPS_INIT;
	attr->pkey_index = cfg->pkey_index;
	attr->port_num = cfg->port;
	*mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT;
}

void rdp_qp_rc_init(const struct rdp_qp_cfg *cfg, int access,
		    struct ibv_qp_attr *attr, int *mask)
{
	init_common(cfg, attr, mask);
	/* What the peer may do through the QP: the remote flags of the
	 * buffer's access, none of how it is registered. */
	attr->qp_access_flags = access & RDP_ACCESS_REMOTE;
	*mask |= IBV_QP_ACCESS_FLAGS;
}

void rdp_qp_uc_init(const struct rdp_qp_cfg *cfg, int access,
		    struct ibv_qp_attr *attr, int *mask)
{
	init_common(cfg, attr, mask);
	/* No READ or atomics without a reliable connection. */
	attr->qp_access_flags = access & IBV_ACCESS_REMOTE_WRITE;
	*mask |= IBV_QP_ACCESS_FLAGS;
}

void rdp_qp_ud_init(const struct rdp_qp_cfg *cfg, int access,
		    struct ibv_qp_attr *attr, int *mask)
{
	(void)access; /* nothing reaches a UD buffer but a SEND */
	init_common(cfg, attr, mask);
	attr->qkey = cfg->qkey;
	*mask |= IBV_QP_QKEY;
}

void rdp_qp_attr_ah(const struct rdp_qp_cfg *cfg,
		    const struct rdp_qp_info *remote, struct ibv_ah_attr *ah)
{
	memset(ah, 0, sizeof(*ah));
	ah->port_num = cfg->port;
	ah->sl = cfg->sl;
	ah->src_path_bits = 0;
	if (cfg->use_grh) {
		/* RoCE always routes by GID; IB only when asked to. */
		ah->is_global = 1;
		memcpy(ah->grh.dgid.raw, remote->gid, 16);
		ah->grh.sgid_index = (uint8_t)cfg->sgid_index;
		ah->grh.hop_limit = cfg->hop_limit;
		ah->grh.traffic_class = cfg->traffic_class;
		ah->grh.flow_label = cfg->flow_label;
	}
	if (cfg->link_layer != IBV_LINK_LAYER_ETHERNET)
		ah->dlid = cfg->dlid ? cfg->dlid : remote->lid;
}

/* RTR of a connected QP: the path to its one peer QP. */
void rdp_qp_uc_rtr(const struct rdp_qp_cfg *cfg,
		   const struct rdp_qp_info *remote, struct ibv_qp_attr *attr,
		   int *mask)
{
	memset(attr, 0, sizeof(*attr));
	attr->qp_state = IBV_QPS_RTR;
	attr->path_mtu = cfg->path_mtu;
	attr->dest_qp_num = remote->qpn;
	attr->rq_psn = remote->psn;
	rdp_qp_attr_ah(cfg, remote, &attr->ah_attr);
	*mask = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
		IBV_QP_RQ_PSN;
}

/* ... and on RC, what it answers as responder. */
void rdp_qp_rc_rtr(const struct rdp_qp_cfg *cfg,
		   const struct rdp_qp_info *remote, struct ibv_qp_attr *attr,
		   int *mask)
{
	rdp_qp_uc_rtr(cfg, remote, attr, mask);
	attr->max_dest_rd_atomic = cfg->max_dest_rd_atomic;
	attr->min_rnr_timer = cfg->min_rnr_timer;
	*mask |= IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
}

void rdp_qp_ud_rtr(const struct rdp_qp_cfg *cfg,
		   const struct rdp_qp_info *remote, struct ibv_qp_attr *attr,
		   int *mask)
{
	(void)cfg;
	(void)remote; /* each send names its destination */
	memset(attr, 0, sizeof(*attr));
	attr->qp_state = IBV_QPS_RTR;
	*mask = IBV_QP_STATE;
}

/* RTS where nothing acknowledges, so nothing is retried (UC, UD). */
void rdp_qp_unacked_rts(const struct rdp_qp_cfg *cfg, struct ibv_qp_attr *attr,
			int *mask)
{
	memset(attr, 0, sizeof(*attr));
	attr->qp_state = IBV_QPS_RTS;
	attr->sq_psn = cfg->psn;
	*mask = IBV_QP_STATE | IBV_QP_SQ_PSN;
}

void rdp_qp_rc_rts(const struct rdp_qp_cfg *cfg, struct ibv_qp_attr *attr,
		   int *mask)
{
	rdp_qp_unacked_rts(cfg, attr, mask);
	attr->timeout = cfg->timeout;
	attr->retry_cnt = cfg->retry_cnt;
	attr->rnr_retry = cfg->rnr_retry;
	attr->max_rd_atomic = cfg->max_rd_atomic;
	*mask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
		 IBV_QP_MAX_QP_RD_ATOMIC;
}

/* The row that builds cfg's QPs: RC for a type left 0 or not built. */
static const struct rdp_transport *row_of(const struct rdp_qp_cfg *cfg)
{
	const struct rdp_transport *t = rdp_transport_by_qp_type(cfg->qp_type);

	return t && t->attr_init ? t : rdp_transport_get(RDP_TRANSPORT_RC);
}

void rdp_qp_attr_init(const struct rdp_qp_cfg *cfg, int access,
		      struct ibv_qp_attr *attr, int *mask)
{
	row_of(cfg)->attr_init(cfg, access, attr, mask);
}

void rdp_qp_attr_rtr(const struct rdp_qp_cfg *cfg,
		     const struct rdp_qp_info *remote, struct ibv_qp_attr *attr,
		     int *mask)
{
	row_of(cfg)->attr_rtr(cfg, remote, attr, mask);
}

void rdp_qp_attr_rts(const struct rdp_qp_cfg *cfg, struct ibv_qp_attr *attr,
		     int *mask)
{
	row_of(cfg)->attr_rts(cfg, attr, mask);
}

int rdp_path_mtu(uint32_t local_bytes, uint32_t remote_bytes,
		 uint32_t requested_bytes, uint32_t *mtu_out)
{
	uint32_t mtu = local_bytes < remote_bytes ? local_bytes : remote_bytes;

	if (!rdp_mtu_from_bytes(local_bytes) ||
	    !rdp_mtu_from_bytes(remote_bytes))
		return -EINVAL;
	if (requested_bytes) {
		if (!rdp_mtu_from_bytes(requested_bytes))
			return -EINVAL;
		if (requested_bytes > mtu)
			return -ERANGE;
		mtu = requested_bytes;
	}
	*mtu_out = mtu;
	return 0;
}

const char *rdp_wc_status_hint(enum ibv_wc_status status)
{
	switch (status) {
	case IBV_WC_RETRY_EXC_ERR:
		return "no ACK from the peer: check the GID index and type on "
		       "both sides (-x), the MTU, routing between the two "
		       "addresses, and that the peer is still running";
	case IBV_WC_RNR_RETRY_EXC_ERR:
		return "the peer's receive queue was empty: it did not post "
		       "receives in time";
	case IBV_WC_REM_ACCESS_ERR:
		return "the peer refused access: wrong rkey, address out of "
		       "its buffer, or missing remote access rights";
	case IBV_WC_REM_INV_REQ_ERR:
		return "the peer rejected the request: message larger than "
		       "its buffer or an operation it does not support";
	case IBV_WC_LOC_PROT_ERR:
	case IBV_WC_LOC_ACCESS_ERR:
		return "local memory registration does not cover the buffer";
	case IBV_WC_WR_FLUSH_ERR:
		return "the QP had already failed; an earlier completion "
		       "holds the cause";
	case IBV_WC_LOC_LEN_ERR:
		return "message longer than the receive buffer";
	default:
		return "see ibv_wc_status_str(3) for this status";
	}
}
