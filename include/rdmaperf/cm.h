/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * RDMA CM mode (-R): the test QPs are created and connected by librdmacm
 * (address and route resolution, connect/accept, disconnect) instead of by
 * hand. The TCP channel still carries parameters, buffers and results.
 * Every wait has a deadline; a rejected or unanswered connect says why.
 * Layer: engine
 */
#ifndef RDMAPERF_CM_H
#define RDMAPERF_CM_H

#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>

struct rdp_conn;
struct rdp_cm;
struct rdp_ip;

struct rdp_cm_opts {
	int timeout_ms;	 /* the whole connect (or accept) phase */
	int tos;	 /* -T: type of service, -1 the kernel's default */
	int ack_timeout; /* -u: 4.096 us * 2^n, -1 the kernel's default */
	uint8_t retry_cnt;
	uint8_t rnr_retry;
	uint16_t port; /* rdp_cm_listen's: 0 the kernel's choice */
	/* rdp_cm_accept takes requests with no private data of rdmaperf's,
	 * in the order they come (perftest's -R clients) */
	int any_peer;
};

/*
 * Server: listen on addr with a port of the kernel's choice, for the
 * QPs of conn (created with defer_qps). conn owns the result.
 */
int rdp_cm_listen(struct rdp_conn *conn, const struct rdp_ip *addr,
		  const struct rdp_cm_opts *o, uint16_t *port_out);

/*
 * Server: accept conn->num_qps connect requests that carry nonce, create
 * each QP on conn's PD and CQ, and wait until all are established.
 */
int rdp_cm_accept(struct rdp_conn *conn, uint32_t num_qps, uint32_t nonce);

/* Client: connect num_qps QPs to server:port, one RDMA CM id each. */
int rdp_cm_connect(struct rdp_conn *conn, uint32_t num_qps,
		   const struct rdp_ip *server, uint16_t port, uint32_t nonce,
		   const struct rdp_cm_opts *o);

/*
 * Wait up to timeout_ms (0: no limit) for the peer to disconnect one of
 * conn's QPs, as a peer that ends without a word does: 0, -ETIMEDOUT.
 */
int rdp_cm_await_disconnect(struct rdp_conn *conn, int timeout_ms);

/*
 * A message channel over RDMA CM: one RC QP of its own (PD, CQ, buffers)
 * that carries messages of up to RDP_CM_CHAN_MSG_BYTES by SEND, in the
 * order sent. Each wait has a deadline; the peer's disconnect ends a
 * wait with -ECONNRESET. perftest's -R talks over one.
 */
#define RDP_CM_CHAN_MSG_BYTES 512
struct rdp_cm_chan;

/* Client: connect to server:port, retrying while nothing listens there
 * until timeout_ms. */
int rdp_cm_chan_connect(const struct rdp_ip *server, uint16_t port,
			int timeout_ms, struct rdp_cm_chan **out);
/* Server: listen on port (bind NULL: every address), for one peer. */
int rdp_cm_chan_listen(const struct rdp_ip *bind, uint16_t port,
		       struct rdp_cm_chan **out);
/* Server: take one connect request (timeout_ms < 0: no limit) and stop
 * listening, which leaves the port free. */
int rdp_cm_chan_accept(struct rdp_cm_chan *ch, int timeout_ms);
/* One message of len bytes; 0 or -errno. */
int rdp_cm_chan_send(struct rdp_cm_chan *ch, const void *buf, size_t len,
		     int timeout_ms);
/* The next message into buf (cap bytes), its length in *len; timeout_ms
 * 0: no limit. -ETIMEDOUT, -ECONNRESET (the peer left), -EMSGSIZE. */
int rdp_cm_chan_recv(struct rdp_cm_chan *ch, void *buf, size_t cap, size_t *len,
		     int timeout_ms);
/* A descriptor that turns readable when the peer's next message comes
 * (after a send or receive on the channel), for a loop to poll. */
int rdp_cm_chan_fd(const struct rdp_cm_chan *ch);
/* This end's and the peer's addresses, once connected. */
void rdp_cm_chan_addrs(const struct rdp_cm_chan *ch, struct rdp_ip *local,
		       struct rdp_ip *peer);
/* Disconnect, free; NULL is fine. */
void rdp_cm_chan_close(struct rdp_cm_chan *ch);

/* A connect request's private data: magic, nonce, QP index. */
#define RDP_CM_PRIV_MAGIC 0x52445043u /* "RDPC" */
#define RDP_CM_PRIV_BYTES 12
void rdp_cm_priv_encode(uint32_t nonce, uint32_t qp_index,
			uint8_t out[RDP_CM_PRIV_BYTES]);
/* 0, or -EBADMSG when short or not ours. */
int rdp_cm_priv_decode(const void *data, size_t len, uint32_t *nonce,
		       uint32_t *qp_index);

/* What an RDMA CM reject status means, with the usual fix. */
const char *rdp_cm_reject_hint(int status);

#endif /* RDMAPERF_CM_H */
