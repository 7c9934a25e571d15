/* SPDX-License-Identifier: BSD-2-Clause */
/* A message channel over an RDMA CM connection: one RC QP with its own PD,
 * CQ and buffers, messages by SEND into posted receives, each wait under a
 * deadline on the CQ's and the CM's file descriptors. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <rdma/rdma_cma.h>

#include "engine_int.h"
#include <rdmaperf/cm.h>
#include <rdmaperf/ip.h>
#include <rdmaperf/log.h>

#define SLOTS		4 /* receives kept posted */
#define SLOT_BYTES	RDP_CM_CHAN_MSG_BYTES
#define STEP_MS		2000 /* address and route resolution */
#define RETRY_PAUSE_MS	100
#define REJ_NO_LISTENER 8	 /* IB CM: invalid service ID */
#define FOREVER_MS	86400000 /* "no limit": a day */

struct rdp_cm_chan {
	struct rdma_event_channel *ch;
	struct rdma_cm_id *listen;
	struct rdma_cm_id *id;
	struct ibv_pd *pd;
	struct ibv_comp_channel *comp;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	uint8_t *buf; /* SLOTS receive slots, then the send slot */
	/* received, not yet read: slot and length, oldest first */
	uint32_t ready[SLOTS], ready_len[SLOTS], n_ready;
	int sent;    /* the last SEND completed */
	int up;	     /* established */
	int gone;    /* the peer disconnected */
	int qp_made; /* on id, by rdma_create_qp */
};

static int64_t deadline_of(int timeout_ms)
{
	return rdp_cm_now_ms() + (timeout_ms > 0 ? timeout_ms : FOREVER_MS);
}

static int post_recv(struct rdp_cm_chan *c, uint32_t slot)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)(c->buf + (size_t)slot * SLOT_BYTES),
		.length = SLOT_BYTES,
		.lkey = c->mr->lkey,
	};
	struct ibv_recv_wr wr = { .wr_id = slot,
				  .sg_list = &sge,
				  .num_sge = 1 };
	struct ibv_recv_wr *bad;

	return -ibv_post_recv(c->id->qp, &wr, &bad);
}

/* PD, CQ with its channel, buffers and QP on id, receives posted. */
static int make_qp(struct rdp_cm_chan *c)
{
	struct ibv_qp_init_attr ia = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 2,
			 .max_recv_wr = SLOTS,
			 .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};
	uint32_t i;
	int ret;

	c->pd = ibv_alloc_pd(c->id->verbs);
	c->comp = c->pd ? ibv_create_comp_channel(c->id->verbs) : NULL;
	c->cq = c->comp ? ibv_create_cq(c->id->verbs, SLOTS + 2, NULL, c->comp,
					0)
			: NULL;
	c->buf = calloc(SLOTS + 1, SLOT_BYTES);
	c->mr = c->cq && c->buf
			? ibv_reg_mr(c->pd, c->buf, (SLOTS + 1) * SLOT_BYTES,
				     IBV_ACCESS_LOCAL_WRITE)
			: NULL;
	if (!c->mr)
		goto fail;
	if (fcntl(c->comp->fd, F_SETFL, O_NONBLOCK))
		goto fail;
	ia.send_cq = ia.recv_cq = c->cq;
	if (rdma_create_qp(c->id, c->pd, &ia))
		goto fail;
	c->qp_made = 1;
	for (i = 0; i < SLOTS; i++) {
		ret = post_recv(c, i);
		if (ret)
			return ret;
	}
	return -ibv_req_notify_cq(c->cq, 0);
fail:
	ret = errno ? -errno : -ENOMEM;
	rdp_err("RDMA CM message channel on %s: %s",
		ibv_get_device_name(c->id->verbs->device), strerror(-ret));
	return ret;
}

/* The CM's events: established, or the peer gone. */
static void take_cm_events(struct rdp_cm_chan *c)
{
	struct rdma_cm_event *e;

	while (!rdma_get_cm_event(c->ch, &e)) {
		if (e->id == c->id && e->event == RDMA_CM_EVENT_ESTABLISHED)
			c->up = 1;
		else if (e->id == c->id &&
			 (e->event == RDMA_CM_EVENT_DISCONNECTED ||
			  e->event == RDMA_CM_EVENT_DEVICE_REMOVAL))
			c->gone = 1;
		rdma_ack_cm_event(e);
	}
}

/* What the CQ holds: receives queued, the send marked. */
static int take_completions(struct rdp_cm_chan *c)
{
	struct ibv_wc wc[SLOTS + 2];
	int n, i;

	while ((n = ibv_poll_cq(c->cq, SLOTS + 2, wc)) > 0) {
		for (i = 0; i < n; i++) {
			if (wc[i].status == IBV_WC_WR_FLUSH_ERR) {
				c->gone = 1;
				continue;
			}
			if (wc[i].status) {
				rdp_err("RDMA CM message channel: %s",
					ibv_wc_status_str(wc[i].status));
				return -EIO;
			}
			if (wc[i].opcode == IBV_WC_SEND) {
				c->sent = 1;
				continue;
			}
			c->ready[c->n_ready] = (uint32_t)wc[i].wr_id;
			c->ready_len[c->n_ready++] = wc[i].byte_len;
		}
	}
	return n < 0 ? -EIO : 0;
}

/* Until what is wanted has come (a send's completion, a message, or the
 * connection), the peer leaves, or the deadline passes. */
enum want {
	WANT_SENT,
	WANT_MSG,
	WANT_UP
};

static int met(const struct rdp_cm_chan *c, enum want w)
{
	return w == WANT_SENT  ? c->sent
	       : w == WANT_MSG ? c->n_ready > 0
			       : c->up;
}

static int wait_for(struct rdp_cm_chan *c, enum want w, int64_t deadline)
{
	struct pollfd pfd[2] = { { .fd = c->ch->fd, .events = POLLIN },
				 { .fd = c->comp ? c->comp->fd : -1,
				   .events = POLLIN } };
	struct ibv_cq *cq;
	void *ctx;
	int64_t left;
	int ret;

	for (;;) {
		ret = c->cq ? take_completions(c) : 0;
		if (ret)
			return ret;
		take_cm_events(c);
		if (met(c, w))
			return 0;
		if (c->gone)
			return -ECONNRESET;
		left = deadline - rdp_cm_now_ms();
		if (left <= 0)
			return -ETIMEDOUT;
		if (poll(pfd, 2, (int)left) < 0 && errno != EINTR)
			return -errno;
		if (c->comp && !ibv_get_cq_event(c->comp, &cq, &ctx)) {
			ibv_ack_cq_events(cq, 1);
			if (ibv_req_notify_cq(c->cq, 0))
				return -EIO;
		}
	}
}

/* After a wait: the CQ's pending events taken and the CQ armed, so that
 * its descriptor turns readable on the next completion alone (the
 * peer's next message, which a receiving loop watches for). */
static int settle(struct rdp_cm_chan *c)
{
	struct ibv_cq *cq;
	void *ctx;

	while (!ibv_get_cq_event(c->comp, &cq, &ctx))
		ibv_ack_cq_events(cq, 1);
	if (ibv_req_notify_cq(c->cq, 0))
		return -EIO;
	return take_completions(c);
}

static struct rdp_cm_chan *chan_new(void)
{
	struct rdp_cm_chan *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->ch = rdma_create_event_channel();
	if (!c->ch || fcntl(c->ch->fd, F_SETFL, O_NONBLOCK)) {
		rdp_err("RDMA CM event channel: %s (load rdma_ucm)",
			strerror(errno ? errno : ENODEV));
		rdp_cm_chan_close(c);
		return NULL;
	}
	return c;
}

/* The next event on the channel for id, within the deadline. */
static int next_event(struct rdp_cm_chan *c, int64_t deadline,
		      enum rdma_cm_event_type *type, int *status,
		      struct rdma_cm_id **id)
{
	struct rdma_cm_event *e;
	int ret = rdp_cm_get_event(c->ch, deadline, &e);

	if (ret)
		return ret;
	*type = e->event;
	*status = e->status;
	*id = e->id;
	rdma_ack_cm_event(e);
	return 0;
}

static int expect(struct rdp_cm_chan *c, int64_t deadline,
		  enum rdma_cm_event_type want, int *status)
{
	enum rdma_cm_event_type type;
	struct rdma_cm_id *id;
	int ret = next_event(c, deadline, &type, status, &id);

	if (ret)
		return ret;
	if (type == want)
		return 0;
	/* REJECTED for nothing listening: the caller retries */
	if (type == RDMA_CM_EVENT_REJECTED && *status == REJ_NO_LISTENER)
		return 1;
	rdp_err("RDMA CM message channel: %s (status %d) where %s was due",
		rdma_event_str(type), *status, rdma_event_str(want));
	return -ECONNREFUSED;
}

/* One attempt: 0 connected, 1 nothing listens yet, or -errno. */
static int try_connect(struct rdp_cm_chan *c, struct sockaddr *dst,
		       int64_t deadline)
{
	struct rdma_conn_param param = { .retry_count = 7,
					 .rnr_retry_count = 7 };
	int ret, status = 0;

	if (rdma_create_id(c->ch, &c->id, NULL, RDMA_PS_TCP))
		return -errno;
	ret = rdma_resolve_addr(c->id, NULL, dst, STEP_MS)
		      ? -errno
		      : expect(c, deadline, RDMA_CM_EVENT_ADDR_RESOLVED,
			       &status);
	if (!ret)
		ret = rdma_resolve_route(c->id, STEP_MS)
			      ? -errno
			      : expect(c, deadline,
				       RDMA_CM_EVENT_ROUTE_RESOLVED, &status);
	if (!ret)
		ret = make_qp(c);
	if (!ret)
		ret = rdma_connect(c->id, &param) ? -errno : 0;
	if (!ret)
		ret = expect(c, deadline, RDMA_CM_EVENT_ESTABLISHED, &status);
	c->up = !ret;
	return ret;
}

/* Back to a channel with no id: for the next attempt, or the end. */
static void drop_qp(struct rdp_cm_chan *c)
{
	if (c->id && c->qp_made)
		rdma_destroy_qp(c->id);
	c->qp_made = 0;
	if (c->mr)
		ibv_dereg_mr(c->mr);
	if (c->cq)
		ibv_destroy_cq(c->cq);
	if (c->comp)
		ibv_destroy_comp_channel(c->comp);
	if (c->pd)
		ibv_dealloc_pd(c->pd);
	if (c->id)
		rdma_destroy_id(c->id);
	free(c->buf);
	c->mr = NULL, c->cq = NULL, c->comp = NULL, c->pd = NULL;
	c->id = NULL, c->buf = NULL;
	c->n_ready = 0, c->sent = 0, c->up = 0, c->gone = 0;
}

int rdp_cm_chan_connect(const struct rdp_ip *server, uint16_t port,
			int timeout_ms, struct rdp_cm_chan **out)
{
	int64_t deadline = deadline_of(timeout_ms);
	struct sockaddr_storage dst;
	char ip[64];
	struct rdp_cm_chan *c = chan_new();
	int ret;

	if (!c)
		return -ENOMEM;
	rdp_ip_to_sockaddr(server, port, &dst);
	while ((ret = try_connect(c, (struct sockaddr *)&dst, deadline)) == 1) {
		drop_qp(c);
		if (rdp_cm_now_ms() + RETRY_PAUSE_MS >= deadline) {
			ret = -ECONNREFUSED;
			break;
		}
		usleep(RETRY_PAUSE_MS * 1000);
	}
	if (ret) {
		rdp_ip_format(server, ip, sizeof(ip));
		rdp_err("RDMA CM: no connection to %s port %u: %s (is the "
			"server running with -R, on that port?)",
			ip, port, strerror(-ret));
		rdp_cm_chan_close(c);
		return ret;
	}
	*out = c;
	return 0;
}

int rdp_cm_chan_listen(const struct rdp_ip *bind, uint16_t port,
		       struct rdp_cm_chan **out)
{
	struct sockaddr_storage sa;
	struct sockaddr_in any = { .sin_family = AF_INET,
				   .sin_port = htons(port) };
	struct rdp_cm_chan *c = chan_new();
	int ret;

	if (!c)
		return -ENOMEM;
	if (bind)
		rdp_ip_to_sockaddr(bind, port, &sa);
	else
		memcpy(&sa, &any, sizeof(any));
	if (rdma_create_id(c->ch, &c->listen, NULL, RDMA_PS_TCP) ||
	    rdma_bind_addr(c->listen, (struct sockaddr *)&sa) ||
	    rdma_listen(c->listen, 1)) {
		ret = -errno;
		rdp_err("RDMA CM cannot listen on port %u: %s (another "
			"program on it? another -p)",
			port, strerror(-ret));
		rdp_cm_chan_close(c);
		return ret;
	}
	*out = c;
	return 0;
}

int rdp_cm_chan_accept(struct rdp_cm_chan *c, int timeout_ms)
{
	struct rdma_conn_param param = { .retry_count = 7,
					 .rnr_retry_count = 7 };
	int64_t deadline = deadline_of(timeout_ms < 0 ? 0 : timeout_ms);
	enum rdma_cm_event_type type;
	struct rdma_cm_id *id;
	int ret, status;

	do {
		ret = next_event(c, deadline, &type, &status, &id);
		if (ret)
			return ret;
	} while (type != RDMA_CM_EVENT_CONNECT_REQUEST);
	c->id = id;
	ret = make_qp(c);
	if (!ret && rdma_accept(c->id, &param))
		ret = -errno;
	if (ret) {
		rdp_err("RDMA CM: accepting the peer's channel: %s",
			strerror(-ret));
		return ret;
	}
	ret = wait_for(c, WANT_UP, deadline_of(STEP_MS * 5));
	if (ret) {
		rdp_err("RDMA CM: the peer's channel was not established: %s",
			strerror(-ret));
		return ret;
	}
	rdma_destroy_id(c->listen);
	c->listen = NULL;
	return 0;
}

int rdp_cm_chan_send(struct rdp_cm_chan *c, const void *buf, size_t len,
		     int timeout_ms)
{
	uint8_t *slot = c->buf + (size_t)SLOTS * SLOT_BYTES;
	struct ibv_sge sge = { .addr = (uintptr_t)slot,
			       .length = (uint32_t)len,
			       .lkey = c->mr->lkey };
	struct ibv_send_wr wr = { .wr_id = SLOTS,
				  .sg_list = &sge,
				  .num_sge = 1,
				  .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED };
	struct ibv_send_wr *bad;
	int ret;

	if (len > SLOT_BYTES)
		return -EMSGSIZE;
	if (c->gone)
		return -ECONNRESET;
	memcpy(slot, buf, len);
	c->sent = 0;
	ret = ibv_post_send(c->id->qp, &wr, &bad);
	if (ret)
		return -ret;
	ret = wait_for(c, WANT_SENT, deadline_of(timeout_ms));
	return ret ? ret : settle(c);
}

int rdp_cm_chan_recv(struct rdp_cm_chan *c, void *buf, size_t cap, size_t *len,
		     int timeout_ms)
{
	uint32_t slot;
	int ret = wait_for(c, WANT_MSG, deadline_of(timeout_ms));

	if (!ret)
		ret = settle(c);
	if (ret)
		return ret;
	slot = c->ready[0];
	*len = c->ready_len[0];
	c->n_ready--;
	memmove(c->ready, c->ready + 1, c->n_ready * sizeof(c->ready[0]));
	memmove(c->ready_len, c->ready_len + 1,
		c->n_ready * sizeof(c->ready_len[0]));
	if (*len > cap)
		ret = -EMSGSIZE;
	else
		memcpy(buf, c->buf + (size_t)slot * SLOT_BYTES, *len);
	return post_recv(c, slot) ? -EIO : ret;
}

int rdp_cm_chan_fd(const struct rdp_cm_chan *c)
{
	return c->comp ? c->comp->fd : -1;
}

void rdp_cm_chan_addrs(const struct rdp_cm_chan *c, struct rdp_ip *local,
		       struct rdp_ip *peer)
{
	memset(local, 0, sizeof(*local));
	memset(peer, 0, sizeof(*peer));
	if (!c->id)
		return;
	rdp_ip_from_sockaddr(rdma_get_local_addr(c->id), local);
	rdp_ip_from_sockaddr(rdma_get_peer_addr(c->id), peer);
}

void rdp_cm_chan_close(struct rdp_cm_chan *c)
{
	if (!c)
		return;
	if (c->id && c->up && !c->gone)
		rdma_disconnect(c->id);
	drop_qp(c);
	if (c->listen)
		rdma_destroy_id(c->listen);
	if (c->ch)
		rdma_destroy_event_channel(c->ch);
	free(c);
}
