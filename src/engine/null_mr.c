/* SPDX-License-Identifier: BSD-2-Clause */
/* --use-null-mr: the keys of a connection name the device's null MR,
 * which discards what is written to it and reads as zeros, so that a
 * message-rate test moves no memory (ibv_alloc_null_mr(3)). */
#include <errno.h>
#include <string.h>
#include <infiniband/verbs.h>

#include <rdmaperf/engine.h>
#include <rdmaperf/log.h>

#include "engine_int.h"

static void refused(const struct rdp_dev *dev, int err)
{
	rdp_err("--use-null-mr: %s has no null MR (ibv_alloc_null_mr: %s): "
		"run without the option, on host memory",
		dev->name, strerror(err));
}

int rdp_dev_null_mr_check(struct rdp_dev *dev)
{
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	int err;

	if (!dev->ctx)
		return 0; /* no verbs device to ask */
	pd = ibv_alloc_pd(dev->ctx);
	if (!pd) {
		err = errno ? errno : ENOMEM;
		rdp_err("%s: allocate a protection domain: %s", dev->name,
			strerror(err));
		return -err;
	}
	mr = ibv_alloc_null_mr(pd);
	err = mr ? 0 : errno ? errno : EOPNOTSUPP;
	if (mr)
		ibv_dereg_mr(mr);
	ibv_dealloc_pd(pd);
	if (!err)
		return 0;
	refused(dev, err);
	return -ENOSYS;
}

int rdp_conn_null_mr(struct rdp_conn *conn)
{
	int err;

	conn->null_mr = ibv_alloc_null_mr(conn->pd);
	if (!conn->null_mr) {
		err = errno ? errno : EOPNOTSUPP;
		refused(conn->dev, err);
		return -ENOSYS;
	}
	/* One key for both ends, as the null MR has: the peer's WRITEs and
	 * READs name it too. */
	conn->null_mr->rkey = conn->null_mr->lkey;
	conn->mr = conn->null_mr;
	return 0;
}
