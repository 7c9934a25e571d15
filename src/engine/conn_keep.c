/* SPDX-License-Identifier: BSD-2-Clause */
/* A connection kept on its device between sessions: its PD, registered
 * buffer and CQs wait, QPs gone, for the next connection of the same
 * shape (a mesh's rounds), which gets fresh QPs on them. */
#include <stdlib.h>
#include <string.h>

#include <rdmaperf/engine.h>
#include <rdmaperf/mcast.h>

#include "engine_int.h"

void rdp_conn_key_of(const struct rdp_conn_cfg *c, struct rdp_conn_key *k)
{
	memset(k, 0, sizeof(*k)); /* padding too: keys compare by bytes */
	k->num_qps = c->num_qps;
	k->msg_bytes = c->msg_bytes;
	k->tx_depth = c->tx_depth;
	k->rx_depth = c->rx_depth;
	k->inline_bytes = c->inline_bytes;
	k->transport = c->transport;
	k->odp_ops = c->odp_ops;
	k->num_cqs = c->num_cqs;
	k->gid_index = c->gid_index;
	k->use_grh = c->use_grh;
	k->mr_per_qp = c->mr_per_qp;
	k->odp = c->odp;
	k->access = c->access;
	k->comp_vector = c->comp_vector;
	k->pkey_index = c->pkey_index;
	if (c->local_ip) {
		k->have_ip = 1;
		k->ip = *c->local_ip;
	}
}

/* RDMA CM's QPs live on its ids, a shared receive queue keeps what was
 * posted to it and a completion channel its unread events: those
 * connections are never kept. */
int rdp_conn_keepable(const struct rdp_conn_cfg *c)
{
	return !c->defer_qps && !c->use_srq && !c->events && !c->null_mr &&
	       !c->dualport;
}

struct rdp_conn *rdp_conn_take_kept(struct rdp_dev *dev,
				    const struct rdp_conn_cfg *cfg)
{
	struct rdp_conn *conn = dev->kept;
	struct rdp_conn_key k;

	if (!conn)
		return NULL;
	dev->kept = NULL;
	rdp_conn_key_of(cfg, &k);
	if (!rdp_conn_keepable(cfg) || memcmp(&k, &conn->key, sizeof(k))) {
		rdp_conn_destroy(conn); /* not keepable while out */
		return NULL;
	}
	return conn;
}

/* Every completion of the destroyed QPs out of the CQs: 0, or -1 when a
 * CQ cannot be polled. */
static int drain_cqs(struct rdp_conn *conn)
{
	struct ibv_wc wc[16];
	uint32_t i;
	int n;

	for (i = 0; i < conn->num_cqs; i++) {
		do
			n = ibv_poll_cq(conn->cqs[i], 16, wc);
		while (n > 0);
		if (n < 0)
			return -1;
	}
	return 0;
}

/* Whether a QP failed (its peer gone, a transfer in error): its late
 * completions could reach the CQs after the drain. */
static int any_failed(const struct rdp_conn *conn)
{
	struct ibv_qp_init_attr ia;
	struct ibv_qp_attr a;
	uint32_t i;

	for (i = 0; conn->qps && i < conn->num_qps; i++)
		if (!conn->qps[i] ||
		    ibv_query_qp(conn->qps[i], &a, IBV_QP_STATE, &ia) ||
		    a.qp_state == IBV_QPS_ERR || a.qp_state == IBV_QPS_SQE)
			return 1;
	return 0;
}

void rdp_conn_drop_qps(struct rdp_conn *conn)
{
	uint32_t i;

	rdp_mcast_leave(conn); /* a QP still attached cannot go */
	for (i = 0; conn->ahs && i < conn->num_qps; i++)
		if (conn->ahs[i])
			ibv_destroy_ah(conn->ahs[i]);
	for (i = 0; conn->qps && i < conn->num_qps; i++)
		if (conn->qps[i])
			ibv_destroy_qp(conn->qps[i]);
}

int rdp_conn_park(struct rdp_conn *conn)
{
	struct rdp_dev *dev = conn->dev;

	conn->keepable = 0; /* until taken again */
	if (any_failed(conn))
		return 0;
	rdp_conn_drop_qps(conn);
	free(conn->ahs);
	free(conn->qps);
	free(conn->psns);
	free(conn->remote);
	conn->ahs = NULL;
	conn->qps = NULL;
	conn->psns = NULL;
	conn->remote = NULL;
	conn->num_qps = 0;
	conn->max_inline_bytes = 0;
	conn->path_mtu_bytes = 0;
	conn->stage = NULL; /* freed above the engine, made again there */
	if (drain_cqs(conn))
		return 0;
	rdp_dev_drop_kept(dev); /* one at a time: the newest */
	dev->kept = conn;
	return 1;
}

void rdp_dev_drop_kept(struct rdp_dev *dev)
{
	struct rdp_conn *conn = dev->kept;

	dev->kept = NULL;
	rdp_conn_destroy(conn); /* not keepable once parked */
}
