/* SPDX-License-Identifier: BSD-2-Clause */
/* RDMA CM mode: test QPs made and connected by librdmacm, every event
 * awaited with a deadline, every failure named with its likely fix. */
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

#include <rdmaperf/cm.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/log.h>

#include "engine_int.h"

#define STEP_MAX_MS	   5000 /* one resolution step */
#define RETRY_PAUSE_MS	   100
#define DISCONNECT_WAIT_MS 1000
#define REJ_NO_LISTENER	   8 /* IB CM: invalid service ID */
#define REJ_CONSUMER	   28

struct rdp_cm {
	struct rdma_event_channel *ch;
	struct rdma_cm_id *listen;
	struct rdma_cm_id **ids; /* per QP index */
	uint8_t *up;		 /* established */
	uint32_t n;
	struct rdp_cm_opts o;
	char peer[64]; /* "addr:port", for messages */
};

/* What the engine keeps of an event: it is acknowledged at once. */
struct cm_ev {
	enum rdma_cm_event_type type;
	struct rdma_cm_id *id;
	int status;
	uint8_t priv[RDP_CM_PRIV_BYTES];
	size_t priv_len;
	uint8_t initiator_depth;
	uint8_t responder_resources;
};

int64_t rdp_cm_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int rdp_cm_get_event(struct rdma_event_channel *ch, int64_t deadline,
		     struct rdma_cm_event **e)
{
	struct pollfd pfd = { .fd = ch->fd, .events = POLLIN };
	int64_t left;

	while (rdma_get_cm_event(ch, e)) {
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return -errno;
		left = deadline - rdp_cm_now_ms();
		if (left <= 0)
			return -ETIMEDOUT;
		if (poll(&pfd, 1, (int)left) < 0 && errno != EINTR)
			return -errno;
	}
	return 0;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

void rdp_cm_priv_encode(uint32_t nonce, uint32_t qp_index,
			uint8_t out[RDP_CM_PRIV_BYTES])
{
	put_be32(out, RDP_CM_PRIV_MAGIC);
	put_be32(out + 4, nonce);
	put_be32(out + 8, qp_index);
}

int rdp_cm_priv_decode(const void *data, size_t len, uint32_t *nonce,
		       uint32_t *qp_index)
{
	const uint8_t *p = data;

	if (!p || len < RDP_CM_PRIV_BYTES || get_be32(p) != RDP_CM_PRIV_MAGIC)
		return -EBADMSG;
	*nonce = get_be32(p + 4);
	*qp_index = get_be32(p + 8);
	return 0;
}

const char *rdp_cm_reject_hint(int status)
{
	switch (status) {
	case REJ_NO_LISTENER:
		return "nothing listens on that RDMA CM port: is the server "
		       "still running?";
	case REJ_CONSUMER:
		return "the server refused this connection: it expects "
		       "another client or another test";
	default:
		return "see the server's log; check the GID type and routing";
	}
}

/* The next event before the deadline, copied and acknowledged. */
static int next_event(struct rdp_cm *cm, int64_t deadline, struct cm_ev *ev)
{
	struct rdma_cm_event *e;
	int ret = rdp_cm_get_event(cm->ch, deadline, &e);

	if (ret)
		return ret;
	memset(ev, 0, sizeof(*ev));
	ev->type = e->event;
	ev->id = e->id;
	ev->status = e->status;
	if (e->event == RDMA_CM_EVENT_CONNECT_REQUEST ||
	    e->event == RDMA_CM_EVENT_ESTABLISHED) {
		ev->priv_len = e->param.conn.private_data_len;
		if (ev->priv_len > sizeof(ev->priv))
			ev->priv_len = sizeof(ev->priv);
		if (e->param.conn.private_data)
			memcpy(ev->priv, e->param.conn.private_data,
			       ev->priv_len);
		ev->initiator_depth = e->param.conn.initiator_depth;
		ev->responder_resources = e->param.conn.responder_resources;
	}
	rdma_ack_cm_event(e);
	return 0;
}

static int cm_ok(const struct rdp_transport *t)
{
	return t->cm_ok;
}

/* The transports RDMA CM connects here, in the client's words for -R. */
static int check_transport(const struct rdp_conn *conn)
{
	char names[64];

	if (conn->tp->cm_ok)
		return 0;
	rdp_transport_list(cm_ok, " and ", names, sizeof(names));
	rdp_err("-R connects %s QPs: drop -R to run -c %s (QPs exchanged "
		"over TCP)",
		names, conn->tp->name);
	return -ENOSYS; /* not supported here */
}

static int cm_new(struct rdp_conn *conn, uint32_t n,
		  const struct rdp_cm_opts *o, struct rdp_cm **out)
{
	struct rdp_cm *cm;
	int ret;

	ret = check_transport(conn);
	if (ret)
		return ret;
	cm = calloc(1, sizeof(*cm));
	if (!cm)
		return -ENOMEM;
	conn->cm = cm; /* from here the connection tears it down */
	cm->o = *o;
	cm->n = n;
	cm->ids = calloc(n ? n : 1, sizeof(*cm->ids));
	cm->up = calloc(n ? n : 1, 1);
	if (!cm->ids || !cm->up)
		return -ENOMEM;
	cm->ch = rdma_create_event_channel();
	if (!cm->ch) {
		ret = errno ? -errno : -ENODEV;
		rdp_err("RDMA CM event channel: %s (load rdma_ucm, or run "
			"without -R)",
			strerror(-ret));
		return ret;
	}
	if (fcntl(cm->ch->fd, F_SETFL, O_NONBLOCK))
		return -errno;
	*out = cm;
	return 0;
}

/* -T and -u where this kernel offers them; a warning where not. A value
 * below 0 keeps the kernel's default. */
static void set_u8_option(struct rdma_cm_id *id, int name, int value,
			  const char *what, char flag)
{
	uint8_t v = (uint8_t)value;

	if (value < 0)
		return;
	if (rdma_set_option(id, RDMA_OPTION_ID, name, &v, sizeof(v)))
		rdp_warn("RDMA CM does not take %s (%s): -%c %d is not applied",
			 what, strerror(errno), flag, value);
}

static void set_tos(struct rdp_cm *cm, struct rdma_cm_id *id)
{
	set_u8_option(id, RDMA_OPTION_ID_TOS, cm->o.tos,
		      "the type of service here", 'T');
}

static void set_ack_timeout(struct rdp_cm *cm, struct rdma_cm_id *id)
{
	set_u8_option(id, RDMA_OPTION_ID_ACK_TIMEOUT, cm->o.ack_timeout,
		      "an ACK timeout on this kernel", 'u');
}

static int same_device(const struct rdp_conn *conn, const struct rdma_cm_id *id,
		       const char *what)
{
	if (id->verbs == conn->dev->ctx)
		return 0;
	rdp_err("RDMA CM reaches %s through %s, but this side uses %s "
		"(-d): give the device of that address's netdev",
		what, id->verbs ? ibv_get_device_name(id->verbs->device) : "?",
		conn->dev->name);
	return -EXDEV;
}

static struct ibv_qp *make_cm_qp(void *id, struct ibv_qp_init_attr_ex *x)
{
	struct rdma_cm_id *cm_id = id;

	return rdma_create_qp_ex(cm_id, x) ? NULL : cm_id->qp;
}

/* Create QP index i on id with the connection's shape, PD and CQ. */
static int make_qp(struct rdp_conn *conn, struct rdma_cm_id *id, uint32_t i)
{
	struct ibv_qp_init_attr ia;
	int ret;

	rdp_conn_qp_shape(conn, i, &ia);
	if (!rdp_qp_make(conn, &ia, make_cm_qp, id)) {
		/* some devices have no inline at all */
		rdp_conn_qp_shape(conn, i, &ia);
		ia.cap.max_inline_data = 0;
		if (!rdp_qp_make(conn, &ia, make_cm_qp, id)) {
			ret = errno ? -errno : -ENOMEM;
			rdp_err("create qp %u on %s through RDMA CM: %s "
				"(lower -q or -t)",
				i + 1, conn->dev->name, strerror(-ret));
			return ret;
		}
	}
	rdp_conn_adopt_qp(conn, i, id->qp, ia.cap.max_inline_data);
	return 0;
}

static void drop_id(struct rdp_cm *cm, struct rdp_conn *conn, uint32_t i)
{
	struct rdma_cm_id *id = cm->ids[i];

	if (!id)
		return;
	if (id->qp) {
		rdma_destroy_qp(id);
		conn->qps[i] = NULL;
	}
	rdma_destroy_id(id);
	cm->ids[i] = NULL;
	cm->up[i] = 0;
}

/* Once connected, allow what the buffer allows and nothing else: RDMA CM
 * moved the QP through INIT with its own flags (remote write, and READ
 * and atomics where it granted responder resources). */
static void grant_access(struct rdp_conn *conn, struct ibv_qp *qp)
{
	struct ibv_qp_attr attr = {
		.qp_access_flags = conn->mr_access & RDP_ACCESS_REMOTE,
	};
	int ret = ibv_modify_qp(qp, &attr, IBV_QP_ACCESS_FLAGS);

	if (ret)
		rdp_warn("qp 0x%x: cannot set the test's remote access after "
			 "RDMA CM connected it (%s): READ or atomics may be "
			 "refused; the buffer's registration still bounds what "
			 "the peer may do",
			 qp->qp_num, strerror(ret));
}

/* Learn what RDMA CM negotiated: path MTU, GID, READ/atomic depths. */
static int learn_path(struct rdp_conn *conn)
{
	struct ibv_qp_init_attr ia;
	struct ibv_qp_attr a;
	int ret;

	ret = ibv_query_qp(conn->qps[0], &a,
			   IBV_QP_PATH_MTU | IBV_QP_AV |
				   IBV_QP_MAX_QP_RD_ATOMIC |
				   IBV_QP_MAX_DEST_RD_ATOMIC,
			   &ia);
	if (ret) {
		rdp_err("query qp 0x%x after RDMA CM connected it: %s",
			conn->qps[0]->qp_num, strerror(ret));
		return -ret;
	}
	conn->path_mtu_bytes = rdp_mtu_to_bytes(a.path_mtu);
	if (a.max_rd_atomic && a.max_rd_atomic < conn->max_rd_atomic)
		conn->max_rd_atomic = a.max_rd_atomic;
	if (a.max_dest_rd_atomic &&
	    a.max_dest_rd_atomic < conn->max_dest_rd_atomic)
		conn->max_dest_rd_atomic = a.max_dest_rd_atomic;
	if (a.ah_attr.is_global)
		return rdp_conn_adopt_gid(conn, a.ah_attr.grh.sgid_index);
	return 0;
}

static int connected(struct rdp_conn *conn, struct rdp_cm *cm)
{
	uint32_t i;

	for (i = 0; i < cm->n; i++)
		grant_access(conn, conn->qps[i]);
	return learn_path(conn);
}

int rdp_cm_listen(struct rdp_conn *conn, const struct rdp_ip *addr,
		  const struct rdp_cm_opts *o, uint16_t *port_out)
{
	struct sockaddr_storage sa;
	char ip[INET6_ADDRSTRLEN];
	struct rdp_cm *cm;
	int ret;

	ret = cm_new(conn, 0, o, &cm);
	if (ret)
		return ret;
	rdp_ip_to_sockaddr(addr, o->port, &sa);
	rdp_ip_format(addr, ip, sizeof(ip));
	if (rdma_create_id(cm->ch, &cm->listen, NULL, RDMA_PS_TCP)) {
		ret = -errno;
		rdp_err("RDMA CM id: %s (load rdma_ucm, or run without -R)",
			strerror(-ret));
		return ret;
	}
	set_tos(cm, cm->listen);
	if (rdma_bind_addr(cm->listen, (struct sockaddr *)&sa)) {
		ret = -errno;
		rdp_err("RDMA CM cannot bind %s port %u: %s (is it the address "
			"of an RDMA netdev? see `rdma link`; a port in use: "
			"another -p)",
			ip, o->port, strerror(-ret));
		return ret;
	}
	ret = same_device(conn, cm->listen, ip);
	if (ret)
		return ret;
	if (rdma_listen(cm->listen, 64)) {
		ret = -errno;
		rdp_err("RDMA CM listen on %s: %s", ip, strerror(-ret));
		return ret;
	}
	*port_out = ntohs(rdma_get_src_port(cm->listen));
	snprintf(cm->peer, sizeof(cm->peer),
		 rdp_ip_is_ipv4(addr) ? "%s:%u" : "[%s]:%u", ip, *port_out);
	return 0;
}

/* A connect request: ours (nonce, free index) gets a QP and an accept. */
static int take_request(struct rdp_conn *conn, struct rdp_cm *cm,
			const struct cm_ev *ev, uint32_t nonce)
{
	struct rdma_conn_param param = { .rnr_retry_count = cm->o.rnr_retry,
					 .retry_count = cm->o.retry_cnt };
	uint32_t got = 0, i = 0;
	int ret;

	/* perftest's clients send no private data: the next free index */
	if (cm->o.any_peer) {
		got = nonce;
		while (i < cm->n && cm->ids[i])
			i++;
	} else if (rdp_cm_priv_decode(ev->priv, ev->priv_len, &got, &i)) {
		got = ~nonce;
	}
	if (got != nonce || i >= cm->n || cm->ids[i]) {
		/* i is the peer's claim, a number only: nothing to escape */
		rdp_warn("RDMA CM: refused a connect request that is not "
			 "this test's (it names QP index %u)",
			 i);
		rdma_reject(ev->id, NULL, 0);
		rdma_destroy_id(ev->id);
		return 0;
	}
	cm->ids[i] = ev->id;
	ret = make_qp(conn, ev->id, i);
	if (ret)
		return ret;
	param.responder_resources = ev->initiator_depth <
						    conn->max_dest_rd_atomic
					    ? ev->initiator_depth
					    : conn->max_dest_rd_atomic;
	param.initiator_depth = ev->responder_resources < conn->max_rd_atomic
					? ev->responder_resources
					: conn->max_rd_atomic;
	if (rdma_accept(ev->id, &param)) {
		ret = -errno;
		rdp_err("RDMA CM accept of QP %u: %s", i + 1, strerror(-ret));
		return ret;
	}
	return 0;
}

static int index_of(const struct rdp_cm *cm, const struct rdma_cm_id *id)
{
	uint32_t i;

	for (i = 0; i < cm->n; i++)
		if (cm->ids[i] == id)
			return (int)i;
	return -1;
}

int rdp_cm_accept(struct rdp_conn *conn, uint32_t num_qps, uint32_t nonce)
{
	struct rdp_cm *cm = conn->cm;
	int64_t deadline = rdp_cm_now_ms() + cm->o.timeout_ms;
	uint32_t up = 0;
	struct cm_ev ev;
	int ret, i;

	cm->n = num_qps;
	free(cm->ids);
	free(cm->up);
	cm->ids = calloc(num_qps, sizeof(*cm->ids));
	cm->up = calloc(num_qps, 1);
	if (!cm->ids || !cm->up)
		return -ENOMEM;
	while (up < num_qps) {
		ret = next_event(cm, deadline, &ev);
		if (ret == -ETIMEDOUT) {
			rdp_err("RDMA CM: %u of %u QPs connected to %s "
				"within %d s: the client cannot reach it "
				"(check `rdma link` and routing on both "
				"sides)",
				up, num_qps, cm->peer, cm->o.timeout_ms / 1000);
			return ret;
		}
		if (ret)
			return ret;
		i = index_of(cm, ev.id);
		if (ev.type == RDMA_CM_EVENT_CONNECT_REQUEST)
			ret = take_request(conn, cm, &ev, nonce);
		else if (ev.type == RDMA_CM_EVENT_ESTABLISHED && i >= 0 &&
			 !cm->up[i])
			cm->up[i] = 1, up++;
		else if (i >= 0) {
			rdp_err("RDMA CM: QP %d of the client: %s (status "
				"%d) before it was established",
				i + 1, rdma_event_str(ev.type), ev.status);
			return -ECONNABORTED;
		}
		if (ret)
			return ret;
	}
	return connected(conn, cm);
}

/* Wait for one event on id; others are unexpected while connecting. */
static int expect(struct rdp_cm *cm, struct rdma_cm_id *id, int64_t deadline,
		  enum rdma_cm_event_type want, struct cm_ev *ev)
{
	int ret = next_event(cm, deadline, ev);

	if (ret)
		return ret;
	if (ev->id != id)
		return -EPROTO;
	return ev->type == want ? 0 : -ECONNREFUSED;
}

static int step_ms(int64_t deadline)
{
	int64_t left = deadline - rdp_cm_now_ms();

	return left > STEP_MAX_MS ? STEP_MAX_MS : left < 1 ? 1 : (int)left;
}

static int resolve(struct rdp_conn *conn, struct rdp_cm *cm,
		   struct rdma_cm_id *id, struct sockaddr_storage *dst,
		   int64_t deadline)
{
	const uint8_t *g = conn->gid.entry.raw;
	struct sockaddr_storage src;
	struct rdp_ip own;
	struct cm_ev ev;
	int ret, bind_src;

	/* From the address of this side's GID, of the server's family (not
	 * a link-local one, which needs a scope): with several devices on
	 * one subnet, the kernel's route alone may pick another device. */
	bind_src = conn->have_gid &&
		   rdp_gid_is_ipv4_mapped(g) == (dst->ss_family == AF_INET) &&
		   !(g[0] == 0xfe && (g[1] & 0xc0) == 0x80);
	memcpy(own.raw, g, 16);
	if (bind_src)
		rdp_ip_to_sockaddr(&own, 0, &src);
	set_tos(cm, id);
	ret = rdma_resolve_addr(id, bind_src ? (struct sockaddr *)&src : NULL,
				(struct sockaddr *)dst, step_ms(deadline))
		      ? -errno
		      : expect(cm, id, deadline, RDMA_CM_EVENT_ADDR_RESOLVED,
			       &ev);
	if (ret) {
		rdp_err("RDMA CM cannot resolve %s to a local RDMA device "
			"(%s): is it reachable through an RDMA netdev? check "
			"`rdma link` and `ip route get`",
			cm->peer,
			ret == -ECONNREFUSED ? rdma_event_str(ev.type)
					     : strerror(-ret));
		return ret;
	}
	ret = same_device(conn, id, cm->peer);
	if (ret)
		return ret;
	set_ack_timeout(cm, id);
	ret = rdma_resolve_route(id, step_ms(deadline))
		      ? -errno
		      : expect(cm, id, deadline, RDMA_CM_EVENT_ROUTE_RESOLVED,
			       &ev);
	if (ret)
		rdp_err("RDMA CM cannot resolve a route to %s (%s): check "
			"the GID table (show_gids) and routing",
			cm->peer,
			ret == -ECONNREFUSED ? rdma_event_str(ev.type)
					     : strerror(-ret));
	return ret;
}

/* One attempt: 0 connected, 1 no listener yet (retry), or -errno. */
static int try_connect(struct rdp_conn *conn, struct rdp_cm *cm, uint32_t i,
		       struct sockaddr_storage *dst, uint32_t nonce,
		       int64_t deadline)
{
	uint8_t priv[RDP_CM_PRIV_BYTES];
	struct rdma_conn_param param = {
		.private_data = priv,
		.private_data_len = sizeof(priv),
		.initiator_depth = conn->max_rd_atomic,
		.responder_resources = conn->max_dest_rd_atomic,
		.retry_count = cm->o.retry_cnt,
		.rnr_retry_count = cm->o.rnr_retry,
	};
	struct cm_ev ev;
	int ret;

	if (rdma_create_id(cm->ch, &cm->ids[i], NULL, RDMA_PS_TCP)) {
		ret = -errno;
		rdp_err("RDMA CM id: %s (load rdma_ucm, or run without -R)",
			strerror(-ret));
		return ret;
	}
	ret = resolve(conn, cm, cm->ids[i], dst, deadline);
	if (!ret)
		ret = make_qp(conn, cm->ids[i], i);
	if (ret)
		return ret;
	rdp_cm_priv_encode(nonce, i, priv);
	if (rdma_connect(cm->ids[i], &param))
		return -errno;
	ret = expect(cm, cm->ids[i], deadline, RDMA_CM_EVENT_ESTABLISHED, &ev);
	if (!ret) {
		cm->up[i] = 1;
		return 0;
	}
	if (ret == -ECONNREFUSED && ev.type == RDMA_CM_EVENT_REJECTED &&
	    ev.status == REJ_NO_LISTENER)
		return 1;
	if (ret == -ETIMEDOUT)
		rdp_err("RDMA CM: no answer from %s for QP %u within the "
			"deadline: the server is gone or unreachable over "
			"RDMA (check PFC, routing, `rdma link`)",
			cm->peer, i + 1);
	else if (ev.type == RDMA_CM_EVENT_REJECTED)
		rdp_err("RDMA CM: %s rejected QP %u (status %d): %s", cm->peer,
			i + 1, ev.status, rdp_cm_reject_hint(ev.status));
	else
		rdp_err("RDMA CM: connecting QP %u to %s: %s (status %d)",
			i + 1, cm->peer, rdma_event_str(ev.type), ev.status);
	return ret == -ECONNREFUSED ? -ECONNREFUSED : ret;
}

int rdp_cm_connect(struct rdp_conn *conn, uint32_t num_qps,
		   const struct rdp_ip *server, uint16_t port, uint32_t nonce,
		   const struct rdp_cm_opts *o)
{
	struct sockaddr_storage dst;
	int64_t deadline = rdp_cm_now_ms() + o->timeout_ms;
	char ip[INET6_ADDRSTRLEN];
	struct rdp_cm *cm;
	uint32_t i;
	int ret;

	ret = cm_new(conn, num_qps, o, &cm);
	if (ret)
		return ret;
	rdp_ip_to_sockaddr(server, port, &dst);
	rdp_ip_format(server, ip, sizeof(ip));
	snprintf(cm->peer, sizeof(cm->peer),
		 rdp_ip_is_ipv4(server) ? "%s:%u" : "[%s]:%u", ip, port);
	for (i = 0; i < num_qps; i++) {
		/* A listener that is not there yet: retry to the deadline. */
		while ((ret = try_connect(conn, cm, i, &dst, nonce,
					  deadline)) == 1) {
			drop_id(cm, conn, i);
			if (rdp_cm_now_ms() + RETRY_PAUSE_MS >= deadline) {
				rdp_err("RDMA CM: nothing listens at %s "
					"(retried for %d s): is the server "
					"running with RDMA CM support?",
					cm->peer, o->timeout_ms / 1000);
				return -ECONNREFUSED;
			}
			usleep(RETRY_PAUSE_MS * 1000);
		}
		if (ret)
			return ret;
	}
	return connected(conn, cm);
}

int rdp_cm_await_disconnect(struct rdp_conn *conn, int timeout_ms)
{
	struct rdp_cm *cm = conn->cm;
	/* no limit: a day, which no test reaches */
	int64_t deadline =
		rdp_cm_now_ms() + (timeout_ms > 0 ? timeout_ms : 86400000);
	struct cm_ev ev;
	int ret, k;

	if (!cm)
		return -EINVAL;
	while (!(ret = next_event(cm, deadline, &ev))) {
		k = index_of(cm, ev.id);
		if (k >= 0 && (ev.type == RDMA_CM_EVENT_DISCONNECTED ||
			       ev.type == RDMA_CM_EVENT_TIMEWAIT_EXIT)) {
			cm->up[k] = 0;
			return 0;
		}
	}
	return ret;
}

/* Disconnect what is up, give the peer a moment to answer, then free. */
void rdp_cm_close(struct rdp_cm *cm, struct rdp_conn *conn)
{
	int64_t deadline = rdp_cm_now_ms() + DISCONNECT_WAIT_MS;
	uint32_t i, pending = 0;
	struct cm_ev ev;
	int k;

	if (!cm)
		return;
	for (i = 0; i < cm->n; i++)
		if (cm->up[i] && !rdma_disconnect(cm->ids[i]))
			pending++;
	while (pending && !next_event(cm, deadline, &ev)) {
		k = index_of(cm, ev.id);
		if (ev.type == RDMA_CM_EVENT_DISCONNECTED && k >= 0 &&
		    cm->up[k]) {
			cm->up[k] = 0;
			pending--;
		}
	}
	for (i = 0; i < cm->n; i++)
		drop_id(cm, conn, i);
	if (cm->listen)
		rdma_destroy_id(cm->listen);
	if (cm->ch)
		rdma_destroy_event_channel(cm->ch);
	free(cm->ids);
	free(cm->up);
	free(cm);
	conn->cm = NULL;
}
