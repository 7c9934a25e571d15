/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Layer: session
 * The seam between a session and the engine that moves its data: the
 * device, the connection, and one point's run. Sessions call only these;
 * rdp_engine_verbs is the real one, tests pass a fake and run a whole
 * client-server session in one process without RDMA.
 */
#ifndef RDMAPERF_ENGINE_OPS_H
#define RDMAPERF_ENGINE_OPS_H

#include <stddef.h>
#include <stdint.h>

struct rdp_conn;
struct rdp_conn_cfg;
struct rdp_data_check;
struct rdp_dev;
struct rdp_mem_opts;
struct rdp_qp_info;
struct rdp_path_opts;
struct rdp_result;
struct rdp_run;

struct rdp_engine_ops {
	/*
	 * Open a device by name (NULL/"": the first active one), through
	 * RDMA CM's contexts when cm, with the memory mo asks for. *out is
	 * set on success only; errors are logged.
	 */
	int (*dev_open)(const char *name, int port, int cm,
			const struct rdp_mem_opts *mo, struct rdp_dev **out);
	void (*dev_close)(struct rdp_dev *dev); /* accepts NULL */
	/* A device kept open from an earlier session, checked again (its
	 * port still ACTIVE); NULL: nothing to check. */
	int (*dev_refresh)(struct rdp_dev *dev);
	int (*conn_create)(struct rdp_dev *dev, const struct rdp_conn_cfg *cfg,
			   struct rdp_conn **out);
	/* Describe local QP i for the peer. */
	void (*conn_local_info)(const struct rdp_conn *conn, uint32_t i,
				int expose_tx, struct rdp_qp_info *info);
	/* Bring every QP up to the peer's; a failure is logged. */
	int (*conn_connect)(struct rdp_conn *conn,
			    const struct rdp_qp_info *remote,
			    const struct rdp_path_opts *path);
	void (*conn_destroy)(struct rdp_conn *conn); /* accepts NULL */
	/* Before READY: fill the buffers, post what the loop needs. */
	int (*prepare)(struct rdp_run *run);
	/* Between READY and DONE: this side's timed loop. */
	int (*loop)(struct rdp_run *run, struct rdp_result *res);
	/* After DONE: check what the peer left; count is what was posted. */
	int (*verify)(const struct rdp_run *run, uint64_t count,
		      struct rdp_data_check *chk);
};

/* Verbs devices, the test loops of bench/, and the memory of mem/. */
extern const struct rdp_engine_ops rdp_engine_verbs;

#endif /* RDMAPERF_ENGINE_OPS_H */
