/* SPDX-License-Identifier: BSD-2-Clause */
/* The client's options that its device must allow, checked once the
 * device is open and before the server is asked: -x (a valid GID of the
 * port), --dlid (an InfiniBand port), -O (two ports) and --use-null-mr (a
 * device with a null MR). */
#include <errno.h>
#include <infiniband/verbs.h>

#include <rdmaperf/engine.h>
#include <rdmaperf/log.h>
#include <rdmaperf/params.h>
#include <rdmaperf/run_opts.h>

#include "session_int.h"

int rdp_session_dev_opts(const struct rdp_opts *o, struct rdp_dev *dev)
{
	int ret = rdp_dev_gid_check(dev, o->conn.gid_index);

	if (ret)
		return ret == -ENOENT ? -EINVAL : ret;
	if (o->conn.dlid && dev->port.link_layer == IBV_LINK_LAYER_ETHERNET) {
		rdp_err("--dlid addresses InfiniBand ports: %s port %u is "
			"Ethernet; drop it, the GID (-x) addresses RoCE",
			dev->name, dev->port.num);
		return -EINVAL;
	}
	if (o->params.flags & RDP_PARAM_DUALPORT && rdp_dev_dualport_check(dev))
		return -ENODEV;
	if (o->params.flags & RDP_PARAM_NULL_MR)
		return rdp_dev_null_mr_check(dev);
	return 0;
}
