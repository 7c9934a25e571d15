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
