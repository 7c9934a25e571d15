/* SPDX-License-Identifier: BSD-2-Clause */
/* What conn.c and cm.c call in each other and no other folder needs: the
 * RDMA CM path adopts the QPs and GID it was given into a connection. */
#ifndef RDMAPERF_ENGINE_INT_H
#define RDMAPERF_ENGINE_INT_H

#include <stdint.h>

#include <infiniband/verbs.h>

struct rdp_cm;
struct rdp_conn;
struct rdp_conn_cfg;
struct rdp_conn_key;
struct rdp_dev;

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

/* --use-null-mr (null_mr.c): conn's keys become the device's null MR's;
 * -ENOSYS, logged, where the device has none. */
int rdp_conn_null_mr(struct rdp_conn *conn);
/* -O/--dualport (dualport.c): conn's other port, for its QPs from the
 * second half of num_qps on; -ENODEV, logged, where it has none. */
int rdp_conn_dualport(struct rdp_conn *conn, uint32_t num_qps);

/* Kept connections (conn_keep.c, dev->keep_conns). */
/* The key of the connection cfg builds. */
void rdp_conn_key_of(const struct rdp_conn_cfg *cfg, struct rdp_conn_key *k);
/* Whether one built from cfg may be kept at all. */
int rdp_conn_keepable(const struct rdp_conn_cfg *cfg);
/* dev's kept connection when it fits cfg (its QPs to create), else NULL
 * (one that does not fit is freed). */
struct rdp_conn *rdp_conn_take_kept(struct rdp_dev *dev,
				    const struct rdp_conn_cfg *cfg);
/* Destroy conn's QPs and keep the rest on its device: 1, or 0 when it
 * cannot be kept (the caller frees what is left). */
int rdp_conn_park(struct rdp_conn *conn);
/* Destroy the address handles and QPs a connection still holds (the
 * arrays stay: the caller frees or reuses them). */
void rdp_conn_drop_qps(struct rdp_conn *conn);
/* Free dev's kept connection, if any. */
void rdp_dev_drop_kept(struct rdp_dev *dev);

#endif /* RDMAPERF_ENGINE_INT_H */
