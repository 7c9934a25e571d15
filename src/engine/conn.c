/* SPDX-License-Identifier: BSD-2-Clause */
/* Per-session verbs resources: GID choice, PD, buffer and MR, CQs, shared
 * receive queue, QPs up to INIT (connect.c takes them to RTS). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include <rdmaperf/cm.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/log.h>
#include <rdmaperf/mcast.h>
#include <rdmaperf/mem.h>

#include "engine_int.h"

#define RDP_GID_TABLE_MAX 4096
#define RDP_RD_ATOMIC_MAX 16

static int choose_gid(struct rdp_conn *conn, const struct rdp_conn_cfg *cfg)
{
	struct rdp_dev *dev = conn->dev;
	int eth = dev->port.link_layer == IBV_LINK_LAYER_ETHERNET;
	struct rdp_gid_entry *tab;
	size_t n = 0;
	int ret;

	if (!eth && !cfg->use_grh)
		return 0; /* IB, LID routed: no GID involved */
	tab = calloc(RDP_GID_TABLE_MAX, sizeof(*tab));
	if (!tab)
		return -ENOMEM;
	ret = rdp_dev_gid_table(dev, tab, RDP_GID_TABLE_MAX, &n);
	if (ret) {
		rdp_err("read GID table of %s port %u: %s", dev->name,
			dev->port.num, strerror(-ret));
		goto out;
	}
	ret = rdp_gid_select(tab, n, cfg->local_ip, cfg->gid_index, &conn->gid);
	if (ret == -ENOENT && cfg->gid_index >= 0)
		rdp_err("GID index %d of %s port %u is empty: see "
			"/sys/class/infiniband/%s/ports/%u/gids (or show_gids) "
			"and fix -x",
			cfg->gid_index, dev->name, dev->port.num, dev->name,
			dev->port.num);
	else if (ret)
		rdp_err("%s port %u has no valid GID: is an IP address "
			"configured on its netdev?",
			dev->name, dev->port.num);
	else
		conn->have_gid = 1;
out:
	free(tab);
	return ret;
}

int rdp_conn_adopt_gid(struct rdp_conn *conn, int index)
{
	struct rdp_conn_cfg cfg = { .gid_index = index, .use_grh = 1 };
	int ret;

	if (conn->have_gid && conn->gid.entry.index == index) {
		conn->gid.reason = RDP_GID_RDMA_CM;
		return 0;
	}
	conn->have_gid = 0;
	ret = choose_gid(conn, &cfg);
	if (!ret)
		conn->gid.reason = RDP_GID_RDMA_CM;
	return ret;
}

/* --mr_per_qp: each QP's two slots registered apart (host memory). */
static int reg_per_qp(struct rdp_conn *conn, uint32_t n, int access)
{
	uint32_t q;

	conn->qp_mrs = calloc(n, sizeof(*conn->qp_mrs));
	if (!conn->qp_mrs)
		return -ENOMEM;
	for (q = 0; q < n; q++) {
		conn->qp_mrs[q] = ibv_reg_mr(conn->pd, rdp_conn_tx(conn, q),
					     2 * conn->slot_bytes, access);
		if (!conn->qp_mrs[q]) {
			rdp_err("register the slots of QP %u of %u on %s "
				"(--mr_per_qp): %s (the device allows %d "
				"MRs: lower -q)",
				q + 1, n, conn->dev->name, strerror(errno),
				conn->dev->attr.max_mr);
			return errno ? -errno : -ENOMEM;
		}
		conn->n_qp_mrs = q + 1;
	}
	return 0;
}

static int alloc_buffer(struct rdp_conn *conn, const struct rdp_conn_cfg *cfg)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t slot = (cfg->msg_bytes ? cfg->msg_bytes : 1) + conn->grh_bytes;
	struct rdp_dev *dev = conn->dev;
	int access = cfg->access; /* what the test needs of this side */
	int ret;

	if (cfg->odp)
		access |= IBV_ACCESS_ON_DEMAND;
	if (!dev->mem) {
		rdp_err("%s: no memory type chosen for its buffers", dev->name);
		return -EINVAL;
	}
	access |= rdp_mem_access_extra(dev->mem);
	/* Cache-line aligned slots keep QPs from sharing lines. */
	conn->slot_bytes = (size_t)rdp_slot_bytes(slot);
	conn->buf_bytes = (size_t)cfg->num_qps * 2 * conn->slot_bytes;
	conn->buf_bytes = (conn->buf_bytes + page - 1) & ~(page - 1);
	ret = rdp_mem_buf_create(dev->mem, conn->pd, conn->buf_bytes,
				 dev->numa_node, access, dev->name, &conn->mb);
	if (ret)
		return ret;
	conn->buf = conn->mb->ptr;
	conn->mr = conn->mb->mr;
	conn->mr_access = access;
	if (cfg->null_mr)
		return rdp_conn_null_mr(conn);
	return cfg->mr_per_qp ? reg_per_qp(conn, cfg->num_qps, access) : 0;
}

/* The QP shape every QP of this connection gets, also through RDMA CM. */
static void qp_template(struct rdp_conn *conn, const struct rdp_conn_cfg *cfg)
{
	struct ibv_qp_init_attr *ia = &conn->qp_init;

	memset(ia, 0, sizeof(*ia));
	ia->send_cq = conn->cq; /* rdp_conn_qp_shape() picks each QP's */
	ia->recv_cq = conn->cq;
	ia->srq = conn->srq;
	ia->qp_type = conn->qp_type;
	ia->sq_sig_all = 0;
	ia->cap.max_send_wr = cfg->tx_depth;
	ia->cap.max_recv_wr = conn->srq ? 0 : cfg->rx_depth ? cfg->rx_depth : 1;
	ia->cap.max_send_sge = 1;
	ia->cap.max_recv_sge = 1;
	/* Inline sends read the buffer with the CPU: not GPU memory. */
	ia->cap.max_inline_data =
		conn->dev->mem->ops->cpu_readable ? cfg->inline_bytes : 0;
}

void rdp_qp_split(uint32_t num_qps, uint32_t parts, uint32_t part,
		  uint32_t *first, uint32_t *n)
{
	uint64_t lo, hi;

	if (parts < 1)
		parts = 1;
	lo = (uint64_t)part * num_qps / parts;
	hi = (uint64_t)(part + 1) * num_qps / parts;
	*first = (uint32_t)lo;
	*n = (uint32_t)(hi - lo);
}

uint32_t rdp_qp_part_of(uint32_t num_qps, uint32_t parts, uint32_t i)
{
	uint32_t part, first, n;

	for (part = 0; part + 1 < parts; part++) {
		rdp_qp_split(num_qps, parts, part, &first, &n);
		if (i < first + n)
			break;
	}
	return part;
}

void rdp_conn_qp_shape(const struct rdp_conn *conn, uint32_t i,
		       struct ibv_qp_init_attr *ia)
{
	uint32_t part = rdp_qp_part_of(conn->split_qps, conn->num_cqs, i);

	*ia = conn->qp_init;
	ia->send_cq = conn->cqs[part];
	ia->recv_cq = conn->cqs[part];
}

void rdp_conn_view(const struct rdp_conn *conn, uint32_t part,
		   struct rdp_conn *view)
{
	uint32_t first, n;

	rdp_qp_split(conn->split_qps, conn->num_cqs, part, &first, &n);
	*view = *conn;
	view->cq = conn->cqs[part];
	view->cqs = &conn->cqs[part];
	view->num_cqs = 1;
	view->split_qps = n;
	view->buf = rdp_conn_tx(conn, first);
	view->buf_bytes = (size_t)n * 2 * conn->slot_bytes;
	view->qps = conn->qps + first;
	view->psns = conn->psns + first;
	view->remote = conn->remote + first;
	view->num_qps = n;
	if (conn->qp_mrs) {
		view->qp_mrs = conn->qp_mrs + first;
		view->n_qp_mrs = n;
	}
	if (conn->ahs)
		view->ahs = conn->ahs + first;
	view->cm = NULL;
}

static struct ibv_qp *make_verbs_qp(void *pd, struct ibv_qp_init_attr_ex *x)
{
	return ibv_create_qp_ex(((struct ibv_pd *)pd)->context, x);
}

static struct ibv_qp *create_qp(struct rdp_conn *conn, uint32_t i)
{
	struct ibv_qp_init_attr ia;
	struct ibv_qp *qp;

	rdp_conn_qp_shape(conn, i, &ia);
	qp = rdp_qp_make(conn, &ia, make_verbs_qp, conn->pd);
	if (!qp) {
		/* Some devices have no inline support at all. */
		ia.cap.max_inline_data = 0;
		qp = rdp_qp_make(conn, &ia, make_verbs_qp, conn->pd);
	}
	if (qp)
		conn->max_inline_bytes = ia.cap.max_inline_data;
	return qp;
}

int rdp_conn_rate_limit(struct rdp_conn *conn, uint32_t kbps,
			uint32_t max_burst_bytes, uint16_t typical_pkt_bytes)
{
	struct ibv_qp_rate_limit_attr ra = {
		.rate_limit = kbps,
		.max_burst_sz = max_burst_bytes,
		.typical_pkt_sz = typical_pkt_bytes,
	};
	uint32_t i;
	int ret;

	for (i = 0; i < conn->num_qps; i++) {
		ret = ibv_modify_qp_rate_limit(conn->qps[i], &ra);
		if (ret) {
			rdp_err("set the rate limit of qp 0x%x to %u kbit/s on "
				"%s: %s (use --rate_limit_type SW)",
				conn->qps[i]->qp_num, kbps, conn->dev->name,
				strerror(ret));
			return -ret;
		}
	}
	return 0;
}

void rdp_conn_adopt_qp(struct rdp_conn *conn, uint32_t i, struct ibv_qp *qp,
		       uint32_t max_inline_bytes)
{
	conn->qps[i] = qp;
	if (conn->num_qps < i + 1)
		conn->num_qps = i + 1;
	conn->max_inline_bytes = max_inline_bytes;
}

static int qp_to_init(struct rdp_conn *conn, uint32_t i)
{
	struct ibv_qp *qp = conn->qps[i];
	struct rdp_qp_cfg cfg = { .qp_type = conn->qp_type,
				  .qkey = RDP_UD_QKEY,
				  .port = rdp_conn_qp_port(conn, i),
				  .pkey_index = conn->pkey_index };
	struct ibv_qp_attr attr;
	int mask, ret;

	conn->tp->attr_init(&cfg, conn->mr_access, &attr, &mask);
	ret = ibv_modify_qp(qp, &attr, mask);
	if (ret)
		rdp_err("modify qp 0x%x to INIT: %s", qp->qp_num,
			strerror(ret));
	return -ret;
}

static int create_qps(struct rdp_conn *conn, const struct rdp_conn_cfg *cfg)
{
	uint32_t i;
	int ret;

	conn->qps = calloc(cfg->num_qps, sizeof(*conn->qps));
	conn->psns = calloc(cfg->num_qps, sizeof(*conn->psns));
	conn->remote = calloc(cfg->num_qps, sizeof(*conn->remote));
	if (!conn->qps || !conn->psns || !conn->remote)
		return -ENOMEM;
	qp_template(conn, cfg);
	conn->post_api = cfg->post_api;
	conn->send_ops = cfg->send_ops;
	if (cfg->post_api == RDP_POST_WR && !cfg->send_ops)
		conn->post_api = RDP_POST_SEND; /* nothing to build */
	if (cfg->defer_qps)
		return 0; /* RDMA CM creates them as it connects */
	for (i = 0; i < cfg->num_qps; i++) {
		conn->qps[i] = create_qp(conn, i);
		if (!conn->qps[i]) {
			ret = errno ? -errno : -ENOMEM;
			rdp_err("create qp %u of %u on %s: %s (device limit "
				"%d QPs of %d WRs: lower -q or -t)",
				i + 1, cfg->num_qps, conn->dev->name,
				strerror(-ret), conn->dev->attr.max_qp,
				conn->dev->attr.max_qp_wr);
			return ret;
		}
		conn->num_qps = i + 1;
		/* A PSN nobody can guess: a blind packet that would have to
		 * hit it is dropped by the QP. */
		if (getrandom(&conn->psns[i], sizeof(conn->psns[i]), 0) !=
		    sizeof(conn->psns[i])) {
			ret = -errno;
			rdp_err("qp %u: no random starting PSN from the "
				"kernel (getrandom: %s)",
				i + 1, strerror(errno));
			return ret ? ret : -EIO;
		}
		conn->psns[i] &= 0xffffff;
		ret = qp_to_init(conn, i);
		if (ret)
			return ret;
	}
	return 0;
}

/* Device limit, at least 1, at most RDP_RD_ATOMIC_MAX. */
static uint8_t rd_atomic_limit(int dev_limit)
{
	if (dev_limit < 1)
		return 1;
	return (uint8_t)(dev_limit < RDP_RD_ATOMIC_MAX ? dev_limit
						       : RDP_RD_ATOMIC_MAX);
}

/* --odp: the device pages on demand for the operations the test needs on
 * this transport's QPs (ibv_query_device_ex). */
static int check_odp(const struct rdp_dev *dev, const struct rdp_conn_cfg *c,
		     const struct rdp_transport *tp)
{
	const struct ibv_odp_caps *oc = &dev->odp;
	uint32_t caps =
		*(const uint32_t *)((const char *)oc + tp->odp_caps_offset);
	const char *tn = tp->verbs_name;

	if (!(oc->general_caps & IBV_ODP_SUPPORT)) {
		rdp_err("--odp: %s reports no on-demand paging (odp_caps."
			"general_caps 0x%llx from ibv_query_device_ex): drop "
			"--odp",
			dev->name, (unsigned long long)oc->general_caps);
		return -1;
	}
	if ((caps & c->odp_ops) != c->odp_ops) {
		rdp_err("--odp: %s pages on demand for %s QPs only the "
			"operations 0x%x (odp_caps.per_transport_caps.%s_odp_"
			"caps), this test needs 0x%x: drop --odp",
			dev->name, tn, caps, tn, c->odp_ops);
		return -1;
	}
	return 0;
}

/* A transport this build or this device cannot run. */
static int check_transport(const struct rdp_dev *dev,
			   const struct rdp_transport *tp)
{
	if (tp->dev_cap_flag &&
	    !(dev->attr.device_cap_flags & tp->dev_cap_flag))
		rdp_err("-c %s: %s reports no %s (%s is not in the "
			"device_cap_flags 0x%x of ibv_query_device): use -c RC",
			tp->name, dev->name, tp->name, tp->dev_cap_name,
			dev->attr.device_cap_flags);
	else if (!tp->runs_tests)
		rdp_err("-c %s: %s offers %s, on which rdmaperf runs no test "
			"yet: use -c RC",
			tp->name, dev->name, tp->name);
	else
		return 0;
	return -ENOSYS; /* not supported here */
}

static int check_cfg(const struct rdp_dev *dev, const struct rdp_conn_cfg *c)
{
	const struct rdp_transport *tp = rdp_transport_get(c->transport);
	char names[64];

	if (!tp) {
		rdp_transport_list(NULL, " or ", names, sizeof(names));
		rdp_err("transport %u unknown: give -c %s", c->transport,
			names);
		return -EINVAL;
	}
	if (check_transport(dev, tp))
		return -ENOSYS;
	if (c->tx_depth > (uint32_t)dev->attr.max_qp_wr ||
	    c->rx_depth > (uint32_t)dev->attr.max_qp_wr) {
		rdp_err("queue depth %u (-t) or %u (-r) exceeds the %d work "
			"requests %s allows per QP: lower it",
			c->tx_depth, c->rx_depth, dev->attr.max_qp_wr,
			dev->name);
		return -EINVAL;
	}
	if (c->num_qps > (uint32_t)dev->attr.max_qp) {
		rdp_err("%u QPs exceed the %d %s allows: lower -q", c->num_qps,
			dev->attr.max_qp, dev->name);
		return -EINVAL;
	}
	if (c->pkey_index >= dev->port.pkey_tbl_len) {
		rdp_err("--pkey_index %u: port %u of %s has %d P_Key table "
			"entr%s (pkey_tbl_len): use 0..%d",
			c->pkey_index, dev->port.num, dev->name,
			dev->port.pkey_tbl_len,
			dev->port.pkey_tbl_len == 1 ? "y" : "ies",
			dev->port.pkey_tbl_len - 1);
		return -ENOSYS; /* not supported here */
	}
	if (c->odp && check_odp(dev, c, tp))
		return -ENOSYS; /* not supported here */
	if ((c->access & IBV_ACCESS_REMOTE_ATOMIC) &&
	    dev->attr.atomic_cap == IBV_ATOMIC_NONE) {
		rdp_err("%s offers no atomics (atomic_cap IBV_ATOMIC_NONE from "
			"ibv_query_device), which this test's peer performs "
			"here: run another test, or use another device",
			dev->name);
		return -ENOSYS; /* not supported here */
	}
	if (c->use_srq && dev->attr.max_srq <= 0) {
		rdp_err("--use-srq: %s has no shared receive queues (max_srq "
			"%d from ibv_query_device): drop --use-srq",
			dev->name, dev->attr.max_srq);
		return -ENOSYS; /* not supported here */
	}
	if (c->mcast_gid && rdp_mcast_check_dev(dev, c->num_qps, c->mcast_cm))
		return -ENOSYS; /* not supported here */
	if (c->events && (c->comp_vector < 0 ||
			  c->comp_vector >= dev->ctx->num_comp_vectors)) {
		rdp_err("-X %d: %s has %d completion vector%s "
			"(num_comp_vectors): use 0..%d",
			c->comp_vector, dev->name, dev->ctx->num_comp_vectors,
			dev->ctx->num_comp_vectors == 1 ? "" : "s",
			dev->ctx->num_comp_vectors - 1);
		return -ENOSYS; /* not supported here */
	}
	return 0;
}

/* -e: a completion channel the CQ reports to, on -X's vector. */
static int create_channel(struct rdp_conn *conn, const struct rdp_conn_cfg *c)
{
	struct rdp_dev *dev = conn->dev;
	int flags;

	conn->comp_vector = c->comp_vector;
	conn->channel = ibv_create_comp_channel(dev->ctx);
	if (!conn->channel) {
		rdp_err("create a completion channel on %s (-e): %s", dev->name,
			strerror(errno));
		return errno ? -errno : -ENOMEM;
	}
	/* Never block in ibv_get_cq_event: poll() waits, with a deadline. */
	flags = fcntl(conn->channel->fd, F_GETFL);
	if (flags < 0 ||
	    fcntl(conn->channel->fd, F_SETFL, flags | O_NONBLOCK) < 0) {
		rdp_err("completion channel of %s: %s", dev->name,
			strerror(errno));
		return -errno;
	}
	return 0;
}

/* A CQ for each part of the QPs, deep enough for the largest part. */
static int create_cqs(struct rdp_conn *conn, const struct rdp_conn_cfg *cfg)
{
	struct rdp_dev *dev = conn->dev;
	uint32_t parts = cfg->num_cqs > 1 ? cfg->num_cqs : 1, first, n, i;
	uint64_t depth;

	rdp_qp_split(cfg->num_qps, parts, parts - 1, &first, &n);
	depth = (uint64_t)n * (cfg->tx_depth + cfg->rx_depth + 1);
	if (depth > (uint64_t)dev->attr.max_cqe)
		depth = (uint64_t)dev->attr.max_cqe;
	conn->cq_depth = (int)depth;
	conn->cqs = calloc(parts, sizeof(*conn->cqs));
	if (!conn->cqs)
		return -ENOMEM;
	conn->split_qps = cfg->num_qps;
	for (i = 0; i < parts; i++) {
		conn->cqs[i] = ibv_create_cq(dev->ctx, conn->cq_depth, NULL,
					     conn->channel, conn->comp_vector);
		if (!conn->cqs[i]) {
			rdp_err("create CQ %u of %u (%d entries) on %s: %s",
				i + 1, parts, conn->cq_depth, dev->name,
				strerror(errno));
			return errno ? -errno : -ENOMEM;
		}
		conn->num_cqs = i + 1;
	}
	conn->cq = conn->cqs[0];
	return 0;
}

/* --use-srq: one shared receive queue deep enough for every QP's -r. */
static int create_srq(struct rdp_conn *conn, const struct rdp_conn_cfg *c)
{
	struct rdp_dev *dev = conn->dev;
	uint64_t depth = (uint64_t)c->num_qps * (c->rx_depth ? c->rx_depth : 1);
	struct ibv_srq_init_attr sa = { .attr = { .max_sge = 1 } };

	if (depth > (uint64_t)dev->attr.max_srq_wr) {
		rdp_err("--use-srq: %u QPs x %u receives exceed the %d a shared "
			"receive queue of %s holds (max_srq_wr): lower -r or -q",
			c->num_qps, c->rx_depth, dev->attr.max_srq_wr,
			dev->name);
		return -ENOSYS; /* not supported here */
	}
	sa.attr.max_wr = (uint32_t)depth;
	conn->srq = ibv_create_srq(conn->pd, &sa);
	if (!conn->srq) {
		rdp_err("create a shared receive queue of %llu on %s: %s",
			(unsigned long long)depth, dev->name, strerror(errno));
		return errno ? -errno : -ENOMEM;
	}
	return 0;
}

int rdp_conn_cq_sleep(struct rdp_conn *conn, int *armed, int fd, int timeout_ms)
{
	struct pollfd pfd[2] = { { .fd = conn->channel->fd, .events = POLLIN },
				 { .fd = fd, .events = POLLIN } };
	struct ibv_cq *cq;
	void *ctx;
	int ret;

	if (!*armed) {
		ret = ibv_req_notify_cq(conn->cq, 0);
		if (ret) {
			rdp_err("arm the CQ of %s for events: %s",
				conn->dev->name, strerror(ret));
			return -ret;
		}
		*armed = 1;
		return 0;
	}
	ret = poll(pfd, fd >= 0 ? 2 : 1, timeout_ms);
	if (ret < 0)
		return errno == EINTR ? 0 : -errno;
	if (ret == 0)
		return -ETIMEDOUT;
	if (pfd[0].revents & POLLIN) {
		if (ibv_get_cq_event(conn->channel, &cq, &ctx))
			return errno == EAGAIN ? 0 : -EIO;
		ibv_ack_cq_events(cq, 1);
		*armed = 0;
		return 0;
	}
	return 1;
}

int rdp_conn_create(struct rdp_dev *dev, const struct rdp_conn_cfg *cfg,
		    struct rdp_conn **out)
{
	struct rdp_conn *conn;
	int ret;

	ret = check_cfg(dev, cfg);
	if (ret)
		return ret;
	conn = dev->keep_conns ? rdp_conn_take_kept(dev, cfg) : NULL;
	if (conn) {
		/* as new: the last peer may have lowered them */
		conn->max_rd_atomic =
			rd_atomic_limit(dev->attr.max_qp_init_rd_atom);
		conn->max_dest_rd_atomic =
			rd_atomic_limit(dev->attr.max_qp_rd_atom);
		ret = create_qps(conn, cfg);
		if (!ret && cfg->mcast_gid)
			ret = rdp_mcast_join(conn, cfg);
		if (ret)
			goto err_destroy;
		dev->conns_reused++;
		conn->keepable = 1;
		*out = conn;
		return 0;
	}
	conn = calloc(1, sizeof(*conn));
	if (!conn)
		return -ENOMEM;
	conn->dev = dev;
	conn->pkey_index = cfg->pkey_index;
	conn->tp = rdp_transport_get(cfg->transport);
	conn->qp_type = conn->tp->qp_type;
	conn->msg_bytes = cfg->msg_bytes;
	conn->grh_bytes = conn->tp->grh_bytes;
	/* Initiator depth is bounded by our initiator limit, responder
	 * resources by our responder limit. */
	conn->max_rd_atomic = rd_atomic_limit(dev->attr.max_qp_init_rd_atom);
	conn->max_dest_rd_atomic = rd_atomic_limit(dev->attr.max_qp_rd_atom);
	ret = choose_gid(conn, cfg);
	if (!ret && cfg->dualport)
		ret = rdp_conn_dualport(conn, cfg->num_qps);
	if (ret)
		goto err_destroy;
	conn->pd = ibv_alloc_pd(dev->ctx);
	if (!conn->pd) {
		ret = errno ? -errno : -ENOMEM;
		rdp_err("allocate PD on %s: %s", dev->name, strerror(-ret));
		goto err_destroy;
	}
	ret = alloc_buffer(conn, cfg);
	if (ret)
		goto err_destroy;
	ret = cfg->events ? create_channel(conn, cfg) : 0;
	if (!ret)
		ret = create_cqs(conn, cfg);
	if (ret)
		goto err_destroy;
	ret = cfg->use_srq ? create_srq(conn, cfg) : 0;
	if (!ret)
		ret = create_qps(conn, cfg);
	if (!ret && cfg->mcast_gid)
		ret = rdp_mcast_join(conn, cfg);
	if (ret)
		goto err_destroy;
	rdp_conn_key_of(cfg, &conn->key);
	conn->keepable = rdp_conn_keepable(cfg);
	dev->conns_built++;
	*out = conn;
	return 0;

err_destroy:
	rdp_conn_destroy(conn);
	return ret;
}

void rdp_conn_destroy(struct rdp_conn *conn)
{
	uint32_t i;

	if (!conn)
		return;
	if (conn->keepable && conn->dev->keep_conns && rdp_conn_park(conn))
		return;
	rdp_cm_close(conn->cm, conn); /* its QPs go with its ids */
	rdp_conn_drop_qps(conn);
	if (conn->srq)
		ibv_destroy_srq(conn->srq);
	for (i = 0; i < conn->num_cqs; i++)
		ibv_destroy_cq(conn->cqs[i]);
	free(conn->cqs);
	if (conn->channel)
		ibv_destroy_comp_channel(conn->channel);
	for (i = 0; i < conn->n_qp_mrs; i++)
		ibv_dereg_mr(conn->qp_mrs[i]);
	free(conn->qp_mrs);
	if (conn->null_mr)
		ibv_dereg_mr(conn->null_mr);
	rdp_mem_buf_destroy(conn->mb);
	if (conn->pd)
		ibv_dealloc_pd(conn->pd);
	free(conn->ahs);
	free(conn->qps);
	free(conn->psns);
	free(conn->remote);
	free(conn);
}
