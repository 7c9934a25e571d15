/* SPDX-License-Identifier: BSD-2-Clause */
/* The fake engine (fake_engine.h): what a session sees of a device, a
 * connection and a test loop, in memory and without RDMA. */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <infiniband/verbs.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/log.h>

#include "fake_engine.h"

struct fake_engine_cfg fake_engine_cfg;
/* Client and server run in two threads of one test. */
static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;

void fake_engine_reset(void)
{
	pthread_mutex_lock(&count_lock);
	memset(&fake_engine_cfg, 0, sizeof(fake_engine_cfg));
	pthread_mutex_unlock(&count_lock);
}

static void count(int *counter)
{
	pthread_mutex_lock(&count_lock);
	(*counter)++;
	pthread_mutex_unlock(&count_lock);
}

static int fake_dev_open(const char *name, int port, int cm,
			 const struct rdp_mem_opts *mo, struct rdp_dev **out)
{
	struct rdp_dev *dev;

	(void)cm;
	(void)mo;
	if (name && name[0] && strcmp(name, FAKE_DEV_NAME)) {
		rdp_err("no RDMA device %s (the fake has %s)", name,
			FAKE_DEV_NAME);
		return -ENODEV;
	}
	if (fake_engine_cfg.port_down) {
		rdp_err("port 1 of %s is DOWN: the fake's link", FAKE_DEV_NAME);
		return -ENETDOWN;
	}
	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return -ENOMEM;
	snprintf(dev->name, sizeof(dev->name), "%s", FAKE_DEV_NAME);
	dev->port.num = (uint8_t)(port ? port : 1);
	dev->port.link_layer = IBV_LINK_LAYER_ETHERNET;
	dev->port.state = IBV_PORT_ACTIVE;
	dev->port.active_mtu_bytes = 1024;
	dev->port.max_mtu_bytes = 4096;
	dev->numa_node = -1;
	count(&fake_engine_cfg.devs_opened);
	*out = dev;
	return 0;
}

static void fake_conn_free(struct rdp_conn *conn)
{
	if (!conn)
		return;
	count(&fake_engine_cfg.conns_destroyed);
	free(conn->buf);
	free(conn);
}

static void fake_dev_close(struct rdp_dev *dev)
{
	if (!dev)
		return;
	fake_conn_free(dev->kept);
	count(&fake_engine_cfg.devs_closed);
	free(dev);
}

/* As the engine: a port gone DOWN fails, and the kept connection goes. */
static int fake_dev_refresh(struct rdp_dev *dev)
{
	if (!fake_engine_cfg.port_down)
		return 0;
	rdp_err("port 1 of %s is DOWN: the fake's link", FAKE_DEV_NAME);
	fake_conn_free(dev->kept);
	dev->kept = NULL;
	return -ENETDOWN;
}

/* As the engine: a kept connection of the same shape, its QPs anew. */
static struct rdp_conn *take_kept(struct rdp_dev *dev,
				  const struct rdp_conn_cfg *cfg)
{
	struct rdp_conn *conn = dev->kept;

	dev->kept = NULL;
	if (conn && conn->num_qps == cfg->num_qps &&
	    conn->msg_bytes == cfg->msg_bytes &&
	    conn->mr_access == cfg->access) {
		dev->conns_reused++;
		return conn;
	}
	fake_conn_free(conn);
	return NULL;
}

static int fake_conn_create(struct rdp_dev *dev, const struct rdp_conn_cfg *cfg,
			    struct rdp_conn **out)
{
	struct rdp_conn *conn = dev->keep_conns ? take_kept(dev, cfg) : NULL;

	if (conn) {
		*out = conn;
		return 0;
	}
	conn = calloc(1, sizeof(*conn));
	if (!conn)
		return -ENOMEM;
	conn->dev = dev;
	conn->msg_bytes = cfg->msg_bytes;
	conn->num_qps = cfg->num_qps;
	conn->slot_bytes = (size_t)rdp_slot_bytes(cfg->msg_bytes);
	conn->buf_bytes = conn->slot_bytes * 2 * cfg->num_qps;
	conn->buf = calloc(1, conn->buf_bytes ? conn->buf_bytes : 1);
	if (!conn->buf) {
		free(conn);
		return -ENOMEM;
	}
	conn->mr_access = cfg->access;
	/* what the real engine makes of the ask (rdp_qp_make) */
	conn->post_api = fake_engine_cfg.no_qp_ex ? RDP_POST_SEND
						  : cfg->post_api;
	conn->send_ops = cfg->send_ops;
	if (cfg->post_api == RDP_POST_SEND)
		count(&fake_engine_cfg.post_send_asked);
	conn->max_rd_atomic = conn->max_dest_rd_atomic = 16;
	conn->max_inline_bytes = cfg->inline_bytes;
	conn->path_mtu_bytes = dev->port.active_mtu_bytes;
	if (fake_engine_cfg.gid_ipv4) {
		struct in_addr a = { .s_addr =
					     htonl(fake_engine_cfg.gid_ipv4) };
		struct rdp_ip ip;

		rdp_ip_from_ipv4(&a, &ip);
		memcpy(conn->gid.entry.raw, ip.raw, 16);
		conn->gid.entry.type = RDP_GID_ROCE_V2;
		conn->have_gid = 1;
	}
	count(&fake_engine_cfg.conns_created);
	dev->conns_built++;
	*out = conn;
	return 0;
}

static void fake_conn_destroy(struct rdp_conn *conn)
{
	if (conn && conn->dev->keep_conns) {
		fake_conn_free(conn->dev->kept);
		conn->dev->kept = conn;
		return;
	}
	fake_conn_free(conn);
}

static void fake_local_info(const struct rdp_conn *conn, uint32_t i,
			    int expose_tx, struct rdp_qp_info *info)
{
	memset(info, 0, sizeof(*info));
	info->qpn = 0x100 + i;
	info->psn = 0x1000 + i;
	info->mtu_bytes = conn->dev->port.active_mtu_bytes;
	info->rd_atomic = conn->max_dest_rd_atomic;
	if (conn->have_gid) {
		memcpy(info->gid, conn->gid.entry.raw, 16);
		info->gid_type = (uint8_t)conn->gid.entry.type;
	}
	if (!(conn->mr_access & RDP_ACCESS_REMOTE))
		return; /* as the engine: nothing the peer may reach */
	info->addr = (uint64_t)(uintptr_t)(expose_tx ? rdp_conn_tx(conn, i)
						     : rdp_conn_rx(conn, i));
	info->len_bytes = conn->slot_bytes;
}

static int fake_conn_connect(struct rdp_conn *conn,
			     const struct rdp_qp_info *remote,
			     const struct rdp_path_opts *path)
{
	uint32_t i;

	(void)path;
	/* The session must hand over what the peer described, in order. */
	for (i = 0; i < conn->num_qps; i++)
		if (remote[i].qpn != 0x100 + i || remote[i].psn != 0x1000 + i)
			return -EPROTO;
	if (fake_engine_cfg.connect_fails_port &&
	    conn->dev->port.num == fake_engine_cfg.connect_fails_port) {
		rdp_err("modify qp 0x100 to RTR: refused by the fake "
			"engine");
		return -EINVAL;
	}
	return 0;
}

static int fake_prepare(struct rdp_run *run)
{
	(void)run;
	return 0;
}

/* --interval: the bytes split evenly over FAKE_INTERVALS intervals. */
static int fake_intervals(const struct rdp_params *p, uint64_t msgs, double ns,
			  struct rdp_result *res)
{
	size_t i;

	res->interval_bytes =
		calloc(FAKE_INTERVALS, sizeof(*res->interval_bytes));
	if (!res->interval_bytes)
		return -ENOMEM;
	for (i = 0; i < FAKE_INTERVALS; i++)
		res->interval_bytes[i] = msgs * p->size_bytes / FAKE_INTERVALS;
	res->n_intervals = FAKE_INTERVALS;
	res->interval_s = ns / FAKE_INTERVALS / 1e9;
	return 0;
}

/* iters per QP (with -D, 1000 a second), each message FAKE_NS_PER_MSG:
 * the figures follow. */
static int fake_loop(struct rdp_run *run, struct rdp_result *res)
{
	const struct rdp_params *p = run->params;
	uint64_t iters = p->duration_s ? p->duration_s * 1000ull : p->iters;
	uint64_t msgs = iters * p->num_qps;
	double ns;

	if (run->side == RDP_SIDE_CLIENT &&
	    ++fake_engine_cfg.client_loops ==
		    fake_engine_cfg.client_signal_at &&
	    fake_engine_cfg.client_signal)
		raise(fake_engine_cfg.client_signal);
	/* stopped early: what it did up to then */
	if (run->stop && __atomic_load_n(run->stop, __ATOMIC_RELAXED))
		msgs /= 2;
	ns = (double)msgs * FAKE_NS_PER_MSG;
	if (run->side == RDP_SIDE_SERVER && fake_engine_cfg.server_loop_fails) {
		rdp_err("qp 0x100: work completion failed: the fake peer "
			"died");
		return -EIO;
	}
	res->msgs = msgs;
	res->elapsed_ns = ns;
	res->bw_avg_gbps = (double)(msgs * p->size_bytes) * 8 / ns;
	res->bw_peak_gbps = res->bw_avg_gbps;
	res->msg_rate_mpps = (double)msgs * 1e3 / ns;
	if (run->ops->kind == RDP_BENCH_LAT) {
		res->lat.n = msgs;
		res->lat.min_ns = res->lat.median_ns = res->lat.avg_ns =
			FAKE_NS_PER_MSG;
		res->lat.max_ns = res->lat.p90_ns = res->lat.p99_ns =
			res->lat.p999_ns = res->lat.p9999_ns = FAKE_NS_PER_MSG;
	}
	if (run->side != RDP_SIDE_CLIENT)
		return 0;
	if ((p->flags & RDP_PARAM_LIVE) &&
	    fake_engine_cfg.client_live_wait_ms) {
		struct pollfd pfd = { .fd = run->oob_fd, .events = POLLIN };

		poll(&pfd, 1, fake_engine_cfg.client_live_wait_ms);
	}
	run->posted = msgs;
	return run->interval_cycles ? fake_intervals(p, msgs, ns, res) : 0;
}

static int fake_verify(const struct rdp_run *run, uint64_t n,
		       struct rdp_data_check *r)
{
	int bad = run->side == RDP_SIDE_SERVER
			  ? fake_engine_cfg.server_data_bad
			  : fake_engine_cfg.client_data_bad;

	r->checked_bytes = n * run->params->size_bytes;
	if (run->side == RDP_SIDE_SERVER)
		r->check_ns = fake_engine_cfg.server_check_ns;
	if (!bad)
		return 0;
	r->status = -EILSEQ;
	r->bad_offset = 42;
	return -EILSEQ;
}

const struct rdp_engine_ops fake_engine = {
	.dev_open = fake_dev_open,
	.dev_close = fake_dev_close,
	.dev_refresh = fake_dev_refresh,
	.conn_create = fake_conn_create,
	.conn_local_info = fake_local_info,
	.conn_connect = fake_conn_connect,
	.conn_destroy = fake_conn_destroy,
	.prepare = fake_prepare,
	.loop = fake_loop,
	.verify = fake_verify,
};
