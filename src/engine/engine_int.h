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

/* Makes one QP from x (ibv_create_qp_ex, or through RDMA CM): the QP, or
 * NULL with errno set. */
typedef struct ibv_qp *(*rdp_qp_maker)(void *arg,
				       struct ibv_qp_init_attr_ex *x);
/* QP of shape ia on conn's PD for conn->post_api: an extended QP with
 * conn->send_ops, or, where the device refuses one but makes the plain
 * one, that (conn->post_api becomes RDP_POST_SEND; said once per device).
 * ia->cap is updated to what was granted. NULL with errno on failure. */
struct ibv_qp *rdp_qp_make(struct rdp_conn *conn, struct ibv_qp_init_attr *ia,
			   rdp_qp_maker make, void *arg);
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

/* Multicast (mcast.c): the receiving side's group, its QPs attached. */
struct rdp_gid_entry;
struct rdp_conn_cfg;
struct rdp_ip;

/*
 * The group a side with GID g joins: asked, or (asked all zero) the
 * default of g's family: ::ffff:239.255.82.80 for an IPv4-mapped GID,
 * ff0e::5250 otherwise. A group of the other family than an IPv4-mapped
 * or IPv6 RoCE v2 GID (g NULL: no GID, no check) is refused with a line.
 */
int rdp_mcast_group(const struct rdp_gid_entry *g, const uint8_t asked[16],
		    uint8_t mgid[16]);
/*
 * Whether dev can attach num_qps QPs to a group: multicast groups at all
 * (max_mcast_grp), enough QPs per group (max_mcast_qp_attach), and a
 * RoCE port unless cm (an InfiniBand group is joined through the subnet
 * manager, which the RDMA CM asks). Logs one line; -ENOSYS when not.
 */
int rdp_mcast_check_dev(const struct rdp_dev *dev, uint32_t num_qps, int cm);
/*
 * The group of cfg->mcast_gid (asked as for rdp_mcast_group), joined:
 * with cfg->mcast_cm through the RDMA CM (mcast_cm.c), else every QP
 * attached to its MGID and the group's IP address joined on the GID's
 * netdev so that the kernel takes its packets in; conn's QP_INFO then
 * names the group. Logs.
 */
int rdp_mcast_join(struct rdp_conn *conn, const struct rdp_conn_cfg *cfg);
/* Attach the first conn->mcast_qps.. QPs to conn->mcast_gid and
 * conn->mcast_lid, counting them in mcast_qps. Logs. */
int rdp_mcast_attach(struct rdp_conn *conn);
/* Detach what rdp_mcast_join attached, drop the membership (and the RDMA
 * CM's join); no-op when conn never joined. */
void rdp_mcast_leave(struct rdp_conn *conn);

/* Multicast through the RDMA CM (mcast_cm.c). How long the join's event
 * is awaited. */
#define RDP_MCAST_CM_WAIT_MS 5000
/*
 * Bind an RDMA CM id to this side's address (the RoCE GID's, else oob),
 * join conn->mcast_gid with rdma_join_multicast, take the group's GID
 * and LID from the join's event (awaited RDP_MCAST_CM_WAIT_MS at most)
 * and attach the QPs to it. Logs one line on failure.
 */
int rdp_mcast_cm_join(struct rdp_conn *conn, const struct rdp_ip *oob);
/* Leave and free what rdp_mcast_cm_join made; no-op without. */
void rdp_mcast_cm_leave(struct rdp_conn *conn);
/*
 * The join's answer: 0 for RDMA_CM_EVENT_MULTICAST_JOIN with status 0;
 * else one line naming group and dev and the likely fix, and a negative
 * errno. type -1: no event in wait_ms (-ETIMEDOUT).
 */
int rdp_mcast_cm_answer(int type, int status, const char *group,
			const char *dev, int wait_ms);
/* rdma_join_multicast failed with err (negative): one line naming group
 * and dev and the likely fix; the error to return. */
int rdp_mcast_cm_refused(int err, const char *group, const char *dev);

/* The RDMA CM parts' clock: CLOCK_MONOTONIC in ms. */
int64_t rdp_cm_now_ms(void);
struct rdma_event_channel;
struct rdma_cm_event;
/* The next event on ch before deadline (rdp_cm_now_ms()'s), for the caller
 * to acknowledge: 0, -ETIMEDOUT, or a negative errno. ch is non-blocking. */
int rdp_cm_get_event(struct rdma_event_channel *ch, int64_t deadline,
		     struct rdma_cm_event **e);

#endif /* RDMAPERF_ENGINE_INT_H */
