/* SPDX-License-Identifier: BSD-2-Clause */
/* Session internals shared by the client and server sides. */
#ifndef RDMAPERF_SESSION_INT_H
#define RDMAPERF_SESSION_INT_H

#include <rdmaperf/bench.h>
#include <rdmaperf/devbuf.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/engine_ops.h>
#include <rdmaperf/oob.h>
#include <rdmaperf/opts.h>
#include <rdmaperf/session.h>

void rdp_hello_fill(struct rdp_msg *msg);
void rdp_path_from_params(const struct rdp_params *p,
			  struct rdp_path_opts *path);
/*
 * Deadline for a step whose work grows with the buffers (allocate, register,
 * fill, check): the message timeout plus 2 s per 256 MiB.
 */
int rdp_slow_step_ms(const struct rdp_opts *o, const struct rdp_params *p);
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
struct rdp_cm_opts;
/* RDMA CM settings from the test parameters, alike on both sides. */
void rdp_cm_opts_from(const struct rdp_opts *o, const struct rdp_params *p,
		      struct rdp_cm_opts *cmo);
int rdp_fill_tx(const struct rdp_conn *conn, const struct rdp_params *p,
		enum rdp_side side, uint32_t tail);

/*
 * The memory of *dev's buffers from mo: host, the GPU --use_cuda names, or
 * that GPU staged through host buffers (--bounce). On failure, logged,
 * *dev is closed and NULL.
 */
int rdp_session_use_mem(struct rdp_dev **dev, const struct rdp_mem_opts *mo);
/* The server checks its GPU once at start, as it will use it: 0, or the
 * -errno (logged). */
int rdp_session_gpu_probe(const struct rdp_mem_opts *mo, const char *dev,
			  int port);
/* A connection on dev->mem, with its staging twin on staged memory. */
int rdp_session_conn_create(struct rdp_dev *dev, const struct rdp_conn_cfg *cfg,
			    struct rdp_conn **out);
/* Accepts NULL and a half-built connection. */
void rdp_session_conn_destroy(struct rdp_conn *conn);
/* The server's memory, for the client's report. */
void rdp_session_mem_to_accept(const struct rdp_conn *conn,
			       const struct rdp_bench_ops *ops,
			       const struct rdp_params *p,
			       struct rdp_msg_accept *a);

#endif /* RDMAPERF_SESSION_INT_H */
