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

/* Bytes a side spends on a QP's send and receive work requests and on a
 * CQ entry, on the large side of what providers allocate (mlx5: 64-byte
 * basic blocks, a send WQE with an address vector and inline data up to
 * a few of them): what --max-memory counts for queues. */
#define RDP_SEND_WQE_BYTES 512u
#define RDP_RECV_WQE_BYTES 64u
#define RDP_CQE_BYTES	   64u

/* What one point costs a side: its buffers, and its queues (send and
 * receive WQEs of every QP, and the CQ entries the engine sizes for
 * them), estimated at the sizes above. */
struct rdp_mem_need {
	uint64_t buf_bytes;
	uint64_t queue_bytes;
};
void rdp_session_mem_need(const struct rdp_params *p,
			  const struct rdp_bench_ops *ops,
			  struct rdp_mem_need *need);

struct rdp_opts;
/*
 * The server's limits on one point of parameters p for test ops: the
 * option table's ranges (o->check_params), buffers and queues within
 * --max-memory, -D within --max-session. 0, or -E2BIG with the one line
 * (logged) in why.
 */
int rdp_session_check_fit(const struct rdp_opts *o,
			  const struct rdp_bench_ops *ops,
			  const struct rdp_params *p, char *why, size_t len);

/*
 * Whether a peer's GID (its QP_INFO's gid and gid_type) fits the address
 * its TCP connection comes from: 1 when the GID is not IP-based (IB,
 * RoCE v1 that is not IPv4-mapped) or is that address, 0 when it is the
 * address of another host, to which RDMA would be sent.
 */
int rdp_session_gid_fits_peer(const uint8_t gid[16], uint8_t gid_type,
			      const struct rdp_ip *peer);

struct rdp_pt_neg;
/*
 * The persistent server: the test a perftest 6.28+ client's block asks
 * for, as rdmaperf's options (po, a copy of the server's own), within the
 * server's limits (rdp_session_check_fit), or why not: -EPROTONOSUPPORT
 * (a test not served here) or -E2BIG (over a limit; logged).
 */
int rdp_session_perftest_opts(const struct rdp_pt_neg *n,
			      const struct rdp_opts *server,
			      struct rdp_opts *po, char *why, size_t len);
/*
 * The block a --perftest side sends for its run of o at p (this point's
 * size and QPs; all: perftest's -a sweep), filled as perftest fills its
 * own for the same command line, --run_infinitely included;
 * max_qp_rd_atom: this device's.
 */
void rdp_session_perftest_neg(const struct rdp_opts *o,
			      const struct rdp_params *p, int all,
			      uint32_t max_qp_rd_atom, struct rdp_pt_neg *n);

#endif /* RDMAPERF_SESSION_STEPS_H */
