/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perftest's -R: its dialogue over a channel of RDMA CM (an RC QP of
 * its own on the test's port) instead of TCP, its key messages in
 * binary, and the test QPs connected by RDMA CM on the same port once
 * the channel has carried the version, page size, cache line and MTU:
 *
 *   client                                server
 *     | -- channel: connect to PORT ------> |  (listening on PORT)
 *     | <-> version, page, cache line, MTU  |  (SEND each way, in turn)
 *     | <-> zero key message ------------ > |  server listens on PORT
 *     | -- test QPs: connect to PORT -----> |  one RDMA CM id per QP
 *     | <-> zero key message, then the key messages, barriers,
 *     |     reports of the TCP dialogue, binary (doc/perftest-protocol.md)
 *
 * From 6.28 on the parameter block goes first, one message of 312 or 320
 * bytes; from 6.29 on (data validation) a key message has 8 more bytes
 * after the address, which moves the GID: this side sends the 56 bytes
 * every version reads and takes either.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>

#include <rdmaperf/cm.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/log.h>
#include <rdmaperf/session_steps.h>

#include "perftest_int.h"
#include "session_int.h"

/* Key message offsets (struct pingpong_dest, big-endian fields). */
#define KEY_LID	      0
#define KEY_OUT_READS 4
#define KEY_QPN	      8
#define KEY_PSN	      12
#define KEY_RKEY      16
#define KEY_VADDR     24
#define KEY_GID	      32
#define KEY_SRQN      48
#define KEY_GID_INDEX 52
#define KEY_DV_GID    40 /* 6.29: after the tail markers' address */

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

void rdp_pt_cm_key_encode(const struct rdp_qp_info *qi,
			  uint8_t out[RDP_PT_CM_KEY_BYTES])
{
	memset(out, 0, RDP_PT_CM_KEY_BYTES);
	put32(out + KEY_LID, qi->lid);
	put32(out + KEY_OUT_READS, qi->rd_atomic);
	put32(out + KEY_QPN, qi->qpn);
	put32(out + KEY_PSN, qi->psn);
	put32(out + KEY_RKEY, qi->rkey);
	put32(out + KEY_VADDR, (uint32_t)(qi->addr >> 32));
	put32(out + KEY_VADDR + 4, (uint32_t)qi->addr);
	memcpy(out + KEY_GID, qi->gid, 16);
	/* no SRQ; no GID index chosen by hand: RDMA CM took the path */
	put32(out + KEY_GID_INDEX, UINT32_MAX);
}

int rdp_pt_cm_key_decode(const uint8_t *in, size_t n, struct rdp_qp_info *qi)
{
	uint32_t out_reads;

	if (n != RDP_PT_CM_KEY_BYTES && n != RDP_PT_CM_KEY_DV_BYTES)
		return -EBADMSG;
	memset(qi, 0, sizeof(*qi));
	out_reads = get32(in + KEY_OUT_READS);
	qi->lid = (uint16_t)get32(in + KEY_LID);
	qi->rd_atomic = out_reads > 255 ? 255 : (uint8_t)out_reads;
	qi->qpn = get32(in + KEY_QPN) & 0xffffff;
	qi->psn = get32(in + KEY_PSN) & 0xffffff;
	qi->rkey = get32(in + KEY_RKEY);
	qi->addr = (uint64_t)get32(in + KEY_VADDR) << 32 |
		   get32(in + KEY_VADDR + 4);
	memcpy(qi->gid, in + (n == RDP_PT_CM_KEY_BYTES ? KEY_GID : KEY_DV_GID),
	       16);
	return 0;
}

size_t rdp_perftest_key_make(const struct pt_peer *c,
			     const struct rdp_qp_info *qi, char *out)
{
	if (c->cm) {
		rdp_pt_cm_key_encode(qi, (uint8_t *)out);
		return RDP_PT_CM_KEY_BYTES;
	}
	rdp_pt_key_encode(qi, c->with_gid, out);
	return rdp_pt_key_bytes(c->with_gid);
}

int rdp_perftest_key_read(const struct pt_peer *c, const char *in, size_t n,
			  struct rdp_qp_info *qi)
{
	int ret;

	if (!c->cm)
		return rdp_pt_key_decode(in, n, c->with_gid, qi);
	/* The GID perftest picked by itself plays no part: RDMA CM connected
	 * the QPs between the channel's addresses. */
	(void)n; /* the peer's own length, learned at the first key */
	ret = rdp_pt_cm_key_decode((const uint8_t *)in, c->cm_key_bytes, qi);
	if (!ret)
		memcpy(qi->gid, c->s->oob.peer_ip.raw, sizeof(qi->gid));
	return ret;
}

/* A message of len bytes; where a key message is due, the peer's own
 * length (56 or 64 bytes, which buf holds), kept in c->cm_key_bytes. */
static int recv_exact(struct pt_peer *c, void *buf, size_t len, int timeout_ms)
{
	uint8_t msg[RDP_CM_CHAN_MSG_BYTES];
	int key = len == RDP_PT_CM_KEY_BYTES;
	size_t got = 0;
	int ret = rdp_cm_chan_recv(c->cm, msg, sizeof(msg), &got, timeout_ms);

	if (ret)
		return ret;
	if (key && got == RDP_PT_CM_KEY_DV_BYTES)
		len = got;
	if (got != len)
		return -EPROTO;
	if (key)
		c->cm_key_bytes = len;
	memcpy(buf, msg, len);
	return 0;
}

int rdp_perftest_cm_xchg(struct pt_peer *c, const void *mine, void *theirs,
			 size_t len, int timeout_ms, const char *what)
{
	int ms = timeout_ms < 0 ? c->s->oob.timeout_ms : timeout_ms;
	int ret;

	if (c->server) {
		ret = recv_exact(c, theirs, len, ms);
		if (!ret)
			ret = rdp_cm_chan_send(c->cm, mine, len, ms);
	} else {
		ret = rdp_cm_chan_send(c->cm, mine, len, ms);
		if (!ret)
			ret = recv_exact(c, theirs, len, ms);
	}
	if (ret == -ECONNRESET)
		rdp_err("perftest %s %s left the RDMA CM channel during %s: "
			"see its output (started with -R, the same test and "
			"options?)",
			peer_role(c), c->s->oob.peer, what);
	else if (ret == -EPROTO)
		rdp_err("perftest %s %s sent a message of another length than "
			"%zu bytes during %s over RDMA CM: is it perftest "
			"started with -R?",
			peer_role(c), c->s->oob.peer, len, what);
	else if (ret)
		rdp_err("perftest %s %s: %s over RDMA CM: %s", peer_role(c),
			c->s->oob.peer, what, strerror(-ret));
	return ret;
}

/* The channel's ends as the dialogue's: addresses and the peer's name. */
static void name_ends(struct pt_peer *c, uint16_t port)
{
	struct rdp_oob *oob = &c->s->oob;
	char ip[64];

	rdp_cm_chan_addrs(c->cm, &oob->local_ip, &oob->peer_ip);
	oob->have_local_ip = oob->have_peer_ip = 1;
	rdp_ip_format(&oob->peer_ip, ip, sizeof(ip));
	snprintf(oob->peer, sizeof(oob->peer), "%s:%u", ip, port);
	if (rdp_ip_is_ipv4(&oob->local_ip) && rdp_ip_is_ipv4(&oob->peer_ip)) {
		memcpy(&oob->local_ipv4.s_addr, oob->local_ip.raw + 12, 4);
		memcpy(&oob->peer_ipv4.s_addr, oob->peer_ip.raw + 12, 4);
		oob->have_local_ipv4 = oob->have_peer_ipv4 = 1;
	}
	oob->dialed = !c->server;
	oob->timeout_ms = c->s->o->conn.oob_timeout_ms;
}

/* perftest's -R reaches IPv4 addresses only. */
static int resolve(const char *host, struct rdp_ip *ip)
{
	struct addrinfo hints = { .ai_family = AF_INET,
				  .ai_socktype = SOCK_STREAM };
	struct addrinfo *res;
	int ret = getaddrinfo(host, NULL, &hints, &res);

	if (ret) {
		rdp_err("-R: cannot resolve %s to an IPv4 address (%s): "
			"perftest's RDMA CM reaches IPv4 only",
			host, gai_strerror(ret));
		return -EHOSTUNREACH;
	}
	rdp_ip_from_ipv4(&((struct sockaddr_in *)res->ai_addr)->sin_addr, ip);
	freeaddrinfo(res);
	return 0;
}

int rdp_perftest_cm_open(struct pt_peer *c)
{
	const struct rdp_conn_opts *o = &c->s->o->conn;
	struct rdp_ip ip;
	int ret;

	if (!c->server) {
		ret = resolve(o->host, &ip);
		if (!ret)
			ret = rdp_cm_chan_connect(&ip, o->tcp_port,
						  o->connect_timeout_ms,
						  &c->cm);
	} else {
		/* --bind: that address only, as over TCP */
		ret = o->bind[0] ? resolve(o->bind, &ip) : 0;
		if (!ret)
			ret = rdp_cm_chan_listen(o->bind[0] ? &ip : NULL,
						 o->tcp_port, &c->cm);
		if (ret)
			return ret;
		fprintf(c->s->o->report.json ? stderr : stdout,
			"rdmaperf %s: waiting for one perftest client on "
			"port %u, over RDMA CM (-R)\n",
			c->s->o->bench->name, o->tcp_port);
		fflush(NULL);
		ret = rdp_cm_chan_accept(c->cm, -1);
	}
	if (!ret)
		name_ends(c, o->tcp_port);
	return ret;
}

/* The blocks each way, in turn: the server answers in the client's size;
 * *bytes: this side's size in, the agreed one out. */
static int swap_blocks(struct pt_peer *c, const struct rdp_pt_neg *mine,
		       uint8_t *theirs, size_t *bytes)
{
	uint8_t a[RDP_PT_NEG_MLX5DV_BYTES], b[RDP_CM_CHAN_MSG_BYTES];
	int ms = c->s->oob.timeout_ms, ret = 0;
	size_t got = 0;

	if (!c->server) {
		rdp_pt_neg_encode(mine, a, *bytes);
		ret = rdp_cm_chan_send(c->cm, a, *bytes, ms);
	}
	if (!ret)
		ret = rdp_cm_chan_recv(c->cm, b, sizeof(b), &got, ms);
	if (!ret && (c->server ? got != RDP_PT_NEG_BYTES &&
					 got != RDP_PT_NEG_MLX5DV_BYTES
			       : got != *bytes))
		ret = -EPROTO;
	if (ret)
		return ret;
	*bytes = got;
	memcpy(theirs, b, got);
	if (!c->server)
		return 0;
	rdp_pt_neg_encode(mine, a, got);
	return rdp_cm_chan_send(c->cm, a, got, ms);
}

int rdp_perftest_cm_negotiate(struct pt_peer *c)
{
	const struct rdp_opts *o = c->s->o;
	size_t bytes = o->conn.perftest_block ? o->conn.perftest_block
					      : RDP_PT_NEG_MLX5DV_BYTES;
	uint8_t theirs[RDP_PT_NEG_MLX5DV_BYTES];
	struct rdp_pt_neg mine, peer;
	const char *diff;
	int ret;

	if (c->version_num < RDP_PT_NEG_VERSION && !o->conn.perftest_block)
		return 0;
	rdp_session_perftest_neg(o, &c->s->p, c->all,
				 (uint32_t)c->s->dev->attr.max_qp_rd_atom,
				 &mine);
	mine.use_rdma_cm = 1;
	ret = swap_blocks(c, &mine, theirs, &bytes);
	if (ret && !c->server && bytes == RDP_PT_NEG_MLX5DV_BYTES &&
	    !o->conn.perftest_block) {
		rdp_err("perftest %s server at %s did not take a %d-byte "
			"parameter block over RDMA CM (%s): a build without "
			"mlx5dv reads %d; run with --perftest-block %d",
			c->version, c->s->oob.peer, RDP_PT_NEG_MLX5DV_BYTES,
			strerror(-ret), RDP_PT_NEG_BYTES, RDP_PT_NEG_BYTES);
		return ret;
	}
	if (ret) {
		rdp_err("perftest %s %s at %s: the parameter negotiation over "
			"RDMA CM: %s",
			c->version, peer_role(c), c->s->oob.peer,
			ret == -EPROTO ? "a block of another size"
				       : strerror(-ret));
		return ret;
	}
	rdp_pt_neg_decode(theirs, bytes, &peer);
	diff = rdp_pt_neg_mismatch(&mine, &peer);
	if (diff) {
		rdp_err("perftest %s %s at %s runs with another %s than this "
			"side: start it with the same test and options",
			c->version, peer_role(c), c->s->oob.peer, diff);
		return -EINVAL;
	}
	return 0;
}

/* Between perftest's two handshakes the client connects every test QP
 * to the channel's port; the server listens before the first. */
int rdp_perftest_cm_qps(struct pt_peer *c)
{
	uint8_t zero[RDP_PT_CM_KEY_BYTES] = { 0 },
		theirs[RDP_PT_CM_KEY_DV_BYTES];
	struct rdp_session_base *s = c->s;
	struct rdp_cm_opts cmo;
	int ret = 0;

	/* the send_bw receiver under -D stops at the client's next message */
	s->run.oob_fd = rdp_cm_chan_fd(c->cm);
	rdp_cm_opts_from(s->o, &s->p, &cmo);
	cmo.port = s->o->conn.tcp_port;
	cmo.any_peer = 1;
	if (c->server)
		ret = rdp_cm_listen(s->conn, &s->oob.local_ip, &cmo, &cmo.port);
	if (!ret)
		ret = rdp_perftest_cm_xchg(c, zero, theirs, sizeof(zero), -1,
					   "the handshake before RDMA CM");
	if (!ret && c->server)
		ret = rdp_cm_accept(s->conn, s->p.num_qps, 0);
	else if (!ret)
		ret = rdp_cm_connect(s->conn, s->p.num_qps, &s->oob.peer_ip,
				     cmo.port, 0, &cmo);
	if (!ret)
		ret = rdp_perftest_cm_xchg(c, zero, theirs, sizeof(zero), -1,
					   "the handshake after RDMA CM");
	return ret;
}

int rdp_perftest_cm_await_exit(struct pt_peer *c)
{
	int ms = c->s->o->conn.oob_timeout_ms + (int)c->s->p.duration_s * 1000;
	int ret = rdp_cm_await_disconnect(c->s->conn, ms);

	if (ret)
		rdp_err("perftest %s %s did not disconnect after the run: %s",
			peer_role(c), c->s->oob.peer, strerror(-ret));
	return ret;
}

void rdp_perftest_cm_end(struct pt_peer *c)
{
	if (!c->cm)
		return;
	/* the test QPs first, as perftest ends them */
	c->s->eng->conn_destroy(c->s->conn);
	c->s->conn = NULL;
	rdp_cm_chan_close(c->cm);
	c->cm = NULL;
}
