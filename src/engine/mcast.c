/* SPDX-License-Identifier: BSD-2-Clause */
/* Multicast on UD: the group's GID (-M, or the default of the GID's
 * family), the device's answer, and the receiving QPs attached to the
 * group with the netdev's IP membership that lets its packets in. */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "engine_int.h"
#include <rdmaperf/engine.h>
#include <rdmaperf/gid.h>
#include <rdmaperf/log.h>
#include <rdmaperf/mcast.h>

/* The default groups: 239.255.82.80 (organisation-local scope, "RP"),
 * and ff0e::5250 (global scope) for IPv6 GIDs. */
static const uint8_t default_v4[16] = { [10] = 0xff, [11] = 0xff, 239,
					255,	     82,	  80 };
static const uint8_t default_v6[16] = { 0xff, 0x0e, [14] = 0x52, [15] = 0x50 };

/* perftest's form: 16 numbers (decimal or 0x hex) between colons. */
static int parse_bytes(const char *text, uint8_t mgid[16])
{
	uint8_t out[16];
	const char *p = text;
	unsigned long v;
	char *end;
	int i;

	for (i = 0; i < 16; i++) {
		if (*p < '0' || *p > '9')
			return -EINVAL;
		errno = 0;
		v = strtoul(p, &end, 0);
		if (errno || v > 255 || end == p)
			return -EINVAL;
		if (*end != (i == 15 ? '\0' : ':'))
			return -EINVAL;
		out[i] = (uint8_t)v;
		p = end + 1;
	}
	memcpy(mgid, out, 16);
	return 0;
}

int rdp_mgid_parse(const char *text, uint8_t mgid[16])
{
	struct in6_addr a;
	const char *c;
	int colons = 0;

	for (c = text; *c; c++)
		colons += *c == ':';
	if (colons == 15)
		return parse_bytes(text, mgid);
	if (inet_pton(AF_INET6, text, &a) != 1)
		return -EINVAL;
	memcpy(mgid, a.s6_addr, 16);
	return 0;
}

int rdp_mgid_is_multicast(const uint8_t mgid[16])
{
	if (rdp_gid_is_ipv4_mapped(mgid))
		return (mgid[12] & 0xf0) == 0xe0; /* 224.0.0.0/4 */
	return mgid[0] == 0xff;
}

int rdp_mgid_is_set(const uint8_t mgid[16])
{
	int i;

	for (i = 0; i < 16; i++)
		if (mgid[i])
			return 1;
	return 0;
}

void rdp_mgid_str(const uint8_t mgid[16], char *buf, size_t len)
{
	char text[INET6_ADDRSTRLEN];

	if (!inet_ntop(AF_INET6, mgid, text, sizeof(text)))
		text[0] = '\0';
	snprintf(buf, len, "%s", text);
}

int rdp_mcast_group(const struct rdp_gid_entry *g, const uint8_t asked[16],
		    uint8_t mgid[16])
{
	int v4 = g && rdp_gid_is_ipv4_mapped(g->raw);
	char text[RDP_MGID_STR_MAX];

	if (!rdp_mgid_is_set(asked)) {
		memcpy(mgid, v4 ? default_v4 : default_v6, 16);
		return 0;
	}
	if (g && g->type == RDP_GID_ROCE_V2 &&
	    v4 != rdp_gid_is_ipv4_mapped(asked)) {
		rdp_mgid_str(asked, text, sizeof(text));
		rdp_err("-M %s: the GID here (index %d) is an %s one, and a "
			"RoCE v2 group must be of its family: give %s",
			text, g->index, v4 ? "IPv4" : "IPv6",
			v4 ? "an IPv4 group as ::ffff:239.x.y.z"
			   : "an IPv6 group as ff0e::N");
		return -EINVAL;
	}
	memcpy(mgid, asked, 16);
	return 0;
}

int rdp_mcast_check_dev(const struct rdp_dev *dev, uint32_t num_qps, int cm)
{
	if (dev->attr.max_mcast_grp <= 0) {
		rdp_err("-g: %s has no multicast groups (max_mcast_grp 0 from "
			"ibv_query_device): run without -g, or on a device "
			"with multicast",
			dev->name);
		return -ENOSYS;
	}
	if (num_qps > (uint32_t)dev->attr.max_mcast_qp_attach) {
		rdp_err("-g with %u QPs: %s attaches at most %d QPs to a "
			"group (max_mcast_qp_attach): lower -q",
			num_qps, dev->name, dev->attr.max_mcast_qp_attach);
		return -ENOSYS;
	}
	if (!cm && dev->port.link_layer != IBV_LINK_LAYER_ETHERNET) {
		rdp_err("-g: port %u of %s is InfiniBand, where a group is "
			"joined through the subnet manager: add -R to join it "
			"through the RDMA CM, or run -g on RoCE",
			dev->port.num, dev->name);
		return -ENOSYS;
	}
	return 0;
}

/* RoCE: the kernel drops IP multicast for a group no socket joined on the
 * netdev, whatever the QPs attached. The socket holds the membership. */
static int join_ip(struct rdp_conn *conn)
{
	const char *ndev = conn->gid.entry.ndev;
	unsigned int ifindex = ndev[0] ? if_nametoindex(ndev) : 0;
	int v4 = rdp_gid_is_ipv4_mapped(conn->mcast_gid);
	struct ipv6_mreq m6 = { .ipv6mr_interface = ifindex };
	struct ip_mreqn m4 = { .imr_ifindex = (int)ifindex };
	char text[RDP_MGID_STR_MAX];
	int fd, ret;

	if (!conn->have_gid || !ifindex)
		return 0; /* no netdev: nothing to join on */
	fd = socket(v4 ? AF_INET : AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	memcpy(&m4.imr_multiaddr.s_addr, conn->mcast_gid + 12, 4);
	memcpy(m6.ipv6mr_multiaddr.s6_addr, conn->mcast_gid, 16);
	ret = v4 ? setsockopt(fd, IPPROTO_IP, IP_ADD_MEMBERSHIP, &m4,
			      sizeof(m4))
		 : setsockopt(fd, IPPROTO_IPV6, IPV6_JOIN_GROUP, &m6,
			      sizeof(m6));
	if (ret) {
		ret = -errno;
		rdp_mgid_str(conn->mcast_gid, text, sizeof(text));
		rdp_err("join the IP group of %s on %s: %s (is the netdev "
			"up, with multicast on? see `ip link show %s`)",
			text, ndev, strerror(-ret), ndev);
		close(fd);
		return ret;
	}
	conn->mcast_fd = fd;
	return 0;
}

int rdp_mcast_attach(struct rdp_conn *conn)
{
	char text[RDP_MGID_STR_MAX];
	union ibv_gid gid;
	uint32_t i;
	int ret;

	memcpy(gid.raw, conn->mcast_gid, 16);
	rdp_mgid_str(conn->mcast_gid, text, sizeof(text));
	for (i = 0; i < conn->num_qps; i++) {
		ret = ibv_attach_mcast(conn->qps[i], &gid, conn->mcast_lid);
		if (ret) {
			rdp_err("attach qp 0x%x to the multicast group %s: %s "
				"(check -x: a GID with a netdev)",
				conn->qps[i]->qp_num, text, strerror(ret));
			return -ret;
		}
		conn->mcast_qps = i + 1;
	}
	return 0;
}

int rdp_mcast_join(struct rdp_conn *conn, const struct rdp_conn_cfg *cfg)
{
	int ret;

	ret = rdp_mcast_group(conn->have_gid ? &conn->gid.entry : NULL,
			      cfg->mcast_gid, conn->mcast_gid);
	if (ret)
		return ret;
	conn->mcast = 1;
	conn->mcast_qps = 0;
	conn->mcast_fd = -1;
	conn->mcast_lid = 0;
	if (cfg->mcast_cm)
		return rdp_mcast_cm_join(conn, cfg->local_ip);
	ret = rdp_mcast_attach(conn);
	return ret ? ret : join_ip(conn);
}

void rdp_mcast_leave(struct rdp_conn *conn)
{
	union ibv_gid gid;
	uint32_t i;

	if (!conn->mcast)
		return;
	memcpy(gid.raw, conn->mcast_gid, 16);
	for (i = 0; i < conn->mcast_qps; i++)
		ibv_detach_mcast(conn->qps[i], &gid, conn->mcast_lid);
	if (conn->mcast_fd >= 0)
		close(conn->mcast_fd);
	rdp_mcast_cm_leave(conn);
	conn->mcast = 0;
	conn->mcast_qps = 0;
	conn->mcast_fd = -1;
}
