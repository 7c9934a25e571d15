/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The steps a session is made of, for commands that run part of one
 * (doctor's pair check): HELLO, QP_INFO both ways, SYNC, the path and the
 * buffers of one point.
 * Layer: session
 */
#ifndef RDMAPERF_SESSION_STEPS_H
#define RDMAPERF_SESSION_STEPS_H

#include <stdint.h>

#include <rdmaperf/bench.h>

struct rdp_conn;
struct rdp_dev;
struct rdp_engine_ops;
struct rdp_mem_opts;
struct rdp_msg;
struct rdp_oob;
struct rdp_params;
struct rdp_path_opts;
struct rdp_conn_cfg;
struct rdp_ip;
struct rdp_qp_info;

/* This host's HELLO: tool version, host name, kernel, CPU. */
void rdp_hello_fill(struct rdp_msg *msg);
/* The path choices (MTU, class, SL, timeout) of the parameters. */
void rdp_path_from_params(const struct rdp_params *p,
			  struct rdp_path_opts *path);
/* The connection the parameters ask for on side: QPs, depths, transport,
 * -e, the access the test needs of that side's buffer; the GID from
 * gid_index (-1: the one of local_ip, which may be NULL). */
void rdp_conn_cfg_from_params(const struct rdp_params *p,
			      const struct rdp_bench_ops *ops,
			      enum rdp_side side, int gid_index,
			      const struct rdp_ip *local_ip,
			      struct rdp_conn_cfg *cfg);

/* QP_INFO for each local QP, as the engine describes them. */
int rdp_send_qp_infos_with(const struct rdp_engine_ops *eng,
			   struct rdp_oob *oob, const struct rdp_conn *conn,
			   int expose_tx);
/* The same through the verbs engine. */
int rdp_send_qp_infos(struct rdp_oob *oob, const struct rdp_conn *conn,
		      int expose_tx);
int rdp_recv_qp_infos(struct rdp_oob *oob, uint32_t n, struct rdp_qp_info *out);
/* Exchange SYNC(phase): the sender first, the other side answers. */
int rdp_sync(struct rdp_oob *oob, uint32_t phase, int send_first,
	     int timeout_ms, uint64_t *count);

/* The pattern this side sends, in every QP's send slot. */
int rdp_fill_tx(const struct rdp_conn *conn, const struct rdp_params *p,
		enum rdp_side side, uint32_t tail);

/*
 * The memory of *dev's buffers from mo: host, the GPU --use_cuda names, or
 * that GPU staged through host buffers (--bounce). On failure, logged,
 * *dev is closed and NULL.
 */
int rdp_session_use_mem(struct rdp_dev **dev, const struct rdp_mem_opts *mo);

#endif /* RDMAPERF_SESSION_STEPS_H */
