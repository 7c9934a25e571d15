/* SPDX-License-Identifier: BSD-2-Clause */
/* The real engine behind a session: verbs devices and connections, the
 * test loops of bench/, GPU and staged memory. */
#include "session_int.h"
#include <rdmaperf/devbuf.h>
#include <rdmaperf/stage.h>

static int verbs_dev_open(const char *name, int port, int cm,
			  const struct rdp_mem_opts *mo, struct rdp_dev **out)
{
	struct rdp_dev *dev = NULL;
	int ret;

	if (cm)
		ret = rdp_dev_open_cm(name, port, &dev);
	else
		ret = rdp_dev_open(name, port, &dev);
	/* On failure this closes the device and clears dev. */
	if (!ret)
		ret = rdp_session_use_mem(&dev, mo);
	if (!ret)
		*out = dev;
	return ret;
}

static int verbs_prepare(struct rdp_run *run)
{
	int ret;

	ret = rdp_fill_tx(run->conn, run->params, run->side,
			  run->ops->tail_bytes);
	if (!ret)
		ret = rdp_stage_fill(run);
	if (!ret)
		ret = rdp_bench_prepare(run);
	return ret;
}

static int verbs_loop(struct rdp_run *run, struct rdp_result *res)
{
	if (run->params->threads > 1 && run->ops->kind == RDP_BENCH_BW)
		return rdp_bench_threads(run, res);
	if (run->side == RDP_SIDE_CLIENT)
		return run->ops->client(run, res);
	return run->ops->server(run, res);
}

const struct rdp_engine_ops rdp_engine_verbs = {
	.dev_open = verbs_dev_open,
	.dev_close = rdp_dev_close,
	.dev_refresh = rdp_dev_refresh,
	.conn_create = rdp_session_conn_create,
	.conn_local_info = rdp_conn_local_info,
	.conn_connect = rdp_conn_connect,
	.conn_destroy = rdp_session_conn_destroy,
	.prepare = verbs_prepare,
	.loop = verbs_loop,
	.verify = rdp_devbuf_verify,
};
