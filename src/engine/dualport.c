/* SPDX-License-Identifier: BSD-2-Clause */
/* -O/--dualport: a connection's QPs spread over both ports of its device,
 * the first half on the port it was opened on, the rest on the other; each
 * QP's INIT, path and QP_INFO (LID, GID) name its own port. */
#include <errno.h>
#include <string.h>
#include <infiniband/verbs.h>

#include <rdmaperf/engine.h>
#include <rdmaperf/log.h>

#include "engine_int.h"

uint8_t rdp_qp_port_of(uint32_t num_qps, uint8_t port, uint8_t port2,
		       uint32_t i)
{
	uint32_t first, n;

	if (!port2)
		return port;
	rdp_qp_split(num_qps, 2, 1, &first, &n);
	return i >= first ? port2 : port;
}

int rdp_dev_dualport_check(const struct rdp_dev *dev)
{
	if (dev->attr.phys_port_cnt >= 2)
		return 0;
	rdp_err("-O/--dualport spreads the QPs over two ports: %s has %u "
		"port%s; run a test per port (-i), or a device pair per port "
		"(-d DEV0,DEV1 HOST0,HOST1)",
		dev->name, (unsigned int)dev->attr.phys_port_cnt,
		dev->attr.phys_port_cnt == 1 ? "" : "s");
	return -ENODEV;
}

/* The other port: active, of the same link layer, its LID and the GID at
 * the index the first port's QPs use. */
int rdp_conn_dualport(struct rdp_conn *conn, uint32_t num_qps)
{
	const struct rdp_dev *dev = conn->dev;
	struct ibv_port_attr pa;
	union ibv_gid gid;
	uint8_t port2 = dev->port.num == 1 ? 2 : 1;
	int ret = rdp_dev_dualport_check(dev);

	if (ret)
		return ret;
	ret = ibv_query_port(dev->ctx, port2, &pa);
	if (ret) {
		rdp_err("-O/--dualport: query port %u of %s: %s", port2,
			dev->name, strerror(ret));
		return -ret;
	}
	if (pa.state != IBV_PORT_ACTIVE ||
	    pa.link_layer != dev->port.link_layer) {
		rdp_err("-O/--dualport: port %u of %s is %s%s: both ports must "
			"be active, of one link layer",
			port2, dev->name, ibv_port_state_str(pa.state),
			pa.link_layer != dev->port.link_layer
				? ", of another link layer"
				: "");
		return -ENODEV;
	}
	if (conn->have_gid &&
	    ibv_query_gid(dev->ctx, port2, conn->gid.entry.index, &gid)) {
		rdp_err("-O/--dualport: port %u of %s has no GID %d (-x): give "
			"an index both ports have",
			port2, dev->name, conn->gid.entry.index);
		return -ENODEV;
	}
	conn->port2 = port2;
	conn->port2_lid = pa.lid;
	if (conn->have_gid)
		memcpy(conn->port2_gid, gid.raw, 16);
	conn->port2_qps = num_qps;
	return 0;
}
