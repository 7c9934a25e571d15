/* SPDX-License-Identifier: BSD-2-Clause */
/* The real engine behind a session: verbs devices and connections, the
 * test loops of bench/, GPU and staged memory. */
#include <stdlib.h>
#include <string.h>

#include "session_int.h"
#include <rdmaperf/devbuf.h>
#include <rdmaperf/events.h>
#include <rdmaperf/stage.h>

/* RDMAPERF_NO_WATCH=1 leaves the device's events unwatched (to measure
 * what watching costs). */
static int watching(void)
{
	const char *v = getenv("RDMAPERF_NO_WATCH");

	return !v || !*v || !strcmp(v, "0");
}

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
	if (ret)
		return ret;
	/* Not watched is only a warning: the run's figures still hold. */
	if (watching())
		rdp_events_start(dev->ctx, &dev->events);
	*out = dev;
	return 0;
}

static void verbs_dev_close(struct rdp_dev *dev)
{
	if (dev)
		rdp_events_stop(dev->events);
	rdp_dev_close(dev);
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
	.dev_close = verbs_dev_close,
	.dev_refresh = rdp_dev_refresh,
	.conn_create = rdp_session_conn_create,
	.conn_local_info = rdp_conn_local_info,
	.conn_connect = rdp_conn_connect,
	.conn_destroy = rdp_session_conn_destroy,
	.prepare = verbs_prepare,
	.loop = verbs_loop,
	.verify = rdp_devbuf_verify,
};
