/* SPDX-License-Identifier: BSD-2-Clause */
/* The QP attribute builders of each transport row (transport.c), in
 * qp.c: what ibv_modify_qp(3) takes at each transition, per QP type. */
#ifndef RDMAPERF_ENGINE_QP_INT_H
#define RDMAPERF_ENGINE_QP_INT_H

#include <infiniband/verbs.h>

struct rdp_qp_cfg;
struct rdp_qp_info;

/* INIT: port and P_Key, and RC's remote access, UC's WRITE only, UD's
 * Q_Key. */
void rdp_qp_rc_init(const struct rdp_qp_cfg *cfg, int access,
		    struct ibv_qp_attr *attr, int *mask);
void rdp_qp_uc_init(const struct rdp_qp_cfg *cfg, int access,
		    struct ibv_qp_attr *attr, int *mask);
void rdp_qp_ud_init(const struct rdp_qp_cfg *cfg, int access,
		    struct ibv_qp_attr *attr, int *mask);
/* RTR: the path to the peer QP (UC), its responder depth too (RC),
 * nothing but the state (UD). */
void rdp_qp_rc_rtr(const struct rdp_qp_cfg *cfg,
		   const struct rdp_qp_info *remote, struct ibv_qp_attr *attr,
		   int *mask);
void rdp_qp_uc_rtr(const struct rdp_qp_cfg *cfg,
		   const struct rdp_qp_info *remote, struct ibv_qp_attr *attr,
		   int *mask);
void rdp_qp_ud_rtr(const struct rdp_qp_cfg *cfg,
		   const struct rdp_qp_info *remote, struct ibv_qp_attr *attr,
		   int *mask);
/* RTS: the send PSN, and on RC the ACK timeout, retries and READ/atomic
 * depth. */
void rdp_qp_rc_rts(const struct rdp_qp_cfg *cfg, struct ibv_qp_attr *attr,
		   int *mask);
void rdp_qp_unacked_rts(const struct rdp_qp_cfg *cfg, struct ibv_qp_attr *attr,
			int *mask);

#endif /* RDMAPERF_ENGINE_QP_INT_H */
