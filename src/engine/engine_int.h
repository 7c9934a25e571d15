/* SPDX-License-Identifier: BSD-2-Clause */
/* What conn.c and cm.c call in each other and no other folder needs: the
 * RDMA CM path adopts the QPs and GID it was given into a connection. */
#ifndef RDMAPERF_ENGINE_INT_H
#define RDMAPERF_ENGINE_INT_H

#include <stdint.h>

#include <infiniband/verbs.h>

struct rdp_cm;
struct rdp_conn;

/* Disconnect (bounded wait), destroy the QPs and ids; NULL is fine. */
void rdp_cm_close(struct rdp_cm *cm, struct rdp_conn *conn);

/* -R: report the GID RDMA CM chose (its index in the port's table). */
int rdp_conn_adopt_gid(struct rdp_conn *conn, int index);
/* Take QP i created elsewhere (RDMA CM) on this connection's PD and CQ. */
void rdp_conn_adopt_qp(struct rdp_conn *conn, uint32_t i, struct ibv_qp *qp,
		       uint32_t max_inline_bytes);
/* The init attributes of QP i: the common shape on its part's CQ. */
void rdp_conn_qp_shape(const struct rdp_conn *conn, uint32_t i,
		       struct ibv_qp_init_attr *ia);

#endif /* RDMAPERF_ENGINE_INT_H */
