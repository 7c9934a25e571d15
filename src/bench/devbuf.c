/* SPDX-License-Identifier: BSD-2-Clause */
/* A test's data on device (GPU) buffers: filled and checked by the CPU
 * through the buffer's host copy, outside any timed region. */
#include <errno.h>
#include <stdio.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/devbuf.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/mem.h>
#include <rdmaperf/stage.h>

void rdp_devbuf_view(const struct rdp_conn *conn, struct rdp_conn *view)
{
	*view = *conn;
	if (conn->mb)
		view->buf = conn->mb->host;
}

/* A connection without a memory buffer (a fake engine's) is host memory. */
int rdp_devbuf_push(const struct rdp_conn *conn)
{
	return conn->mb ? rdp_mem_buf_push(conn->mb) : 0;
}

int rdp_devbuf_pull(const struct rdp_conn *conn, struct rdp_conn *view)
{
	int ret = conn->mb ? rdp_mem_buf_pull(conn->mb) : 0;

	rdp_devbuf_view(conn, view);
	return ret;
}

int rdp_devbuf_verify(const struct rdp_run *run, uint64_t count,
		      struct rdp_data_check *r)
{
	struct rdp_run host_run = *run;
	struct rdp_conn view;
	int ret;

	/* The null MR kept nothing to check. */
	if (!run->ops->verify || run->conn->null_mr)
		return 0;
	if (run->conn->stage)
		return rdp_stage_verify(run, count, r);
	ret = rdp_devbuf_pull(run->conn, &view);
	if (ret) {
		r->status = ret;
		return ret;
	}
	host_run.conn = &view;
	return run->ops->verify(&host_run, count, r);
}
