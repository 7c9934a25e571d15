/* SPDX-License-Identifier: BSD-2-Clause */
/* Multicast joined through the RDMA CM (-g -R): an RDMA CM id bound to
 * this side's address joins the group (rdma_join_multicast), the join's
 * event names the group's GID and LID, and the receiving QPs attach to
 * that. The CM holds the group's membership (the netdev's IP one on RoCE,
 * the subnet manager's on InfiniBand) until rdma_leave_multicast. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <rdma/rdma_cma.h>

#include "engine_int.h"
#include <rdmaperf/engine.h>
#include <rdmaperf/ip.h>
#include <rdmaperf/log.h>
#include <rdmaperf/mcast.h>

/* The kernel's "not supported" (ENOTSUPP), which it hands to user space
 * unnamed: its RDMA CM joins no IPv6 group on RoCE v2. */
#define KERNEL_ENOTSUPP 524

struct rdp_mcast_cm {
	struct rdma_event_channel *ch;
	struct rdma_cm_id *id;
	struct sockaddr_storage group;
	int joined; /* rdma_join_multicast accepted: leave at the end */
};

/* What the join's event gave, copied before it is acknowledged. */
struct join_answer {
	int type; /* enum rdma_cm_event_type, -1: none by the deadline */
	int status;
	uint8_t mgid[16];
	uint16_t mlid;
	uint32_t qkey;
};

int rdp_mcast_cm_answer(int type, int status, const char *group,
			const char *dev, int wait_ms)
{
	if (type == RDMA_CM_EVENT_MULTICAST_JOIN && !status)
		return 0;
	if (type < 0) {
		rdp_err("join the multicast group %s through the RDMA CM on "
			"%s: no answer in %d ms (on RoCE, is the netdev up "
			"with multicast on? on InfiniBand, does a subnet "
			"manager run?)",
			group, dev, wait_ms);
		return -ETIMEDOUT;
	}
	if (type == RDMA_CM_EVENT_MULTICAST_JOIN ||
	    type == RDMA_CM_EVENT_MULTICAST_ERROR) {
		rdp_err("join the multicast group %s through the RDMA CM on "
			"%s: refused (%s) (on InfiniBand, see the subnet "
			"manager's log; or drop -R to attach the QPs by MGID)",
			group, dev,
			status < 0 ? strerror(-status) : "no reason given");
		return status < 0 ? status : -EIO;
	}
	rdp_err("join the multicast group %s through the RDMA CM on %s: the "
		"answer was %s, not a join (is the device being removed?)",
		group, dev, rdma_event_str((enum rdma_cm_event_type)type));
	return -EPROTO;
}

int rdp_mcast_cm_refused(int err, const char *group, const char *dev)
{
	if (err == -KERNEL_ENOTSUPP) {
		rdp_err("join the multicast group %s through the RDMA CM on "
			"%s: the kernel's RDMA CM joins RoCE v2 groups over "
			"IPv4 only: drop -R to attach the QPs by MGID, or use "
			"an IPv4 GID",
			group, dev);
		return -EOPNOTSUPP;
	}
	rdp_err("join the multicast group %s through the RDMA CM on %s: %s "
		"(give -M a group of the address's family)",
		group, dev, strerror(-err));
	return err;
}

/* The join's event before the deadline, copied and acknowledged;
 * type -1 when none came. */
static int wait_join(struct rdp_mcast_cm *cm, int wait_ms,
		     struct join_answer *a)
{
	struct rdma_cm_event *e;
	int ret;

	memset(a, 0, sizeof(*a));
	a->type = -1;
	ret = rdp_cm_get_event(cm->ch, rdp_cm_now_ms() + wait_ms, &e);
	if (ret == -ETIMEDOUT)
		return 0; /* no answer: a->type -1 */
	if (ret)
		return ret;
	a->type = e->event;
	a->status = e->status;
	if (e->event == RDMA_CM_EVENT_MULTICAST_JOIN) {
		memcpy(a->mgid, e->param.ud.ah_attr.grh.dgid.raw, 16);
		a->mlid = e->param.ud.ah_attr.dlid;
		a->qkey = e->param.ud.qkey;
	}
	rdma_ack_cm_event(e);
	return 0;
}

/* This side's address for the CM id: the GID's on RoCE (with the netdev's
 * scope for a link-local one), else the out-of-band address (IPoIB). */
static int local_addr(const struct rdp_conn *conn, const struct rdp_ip *oob,
		      struct sockaddr_storage *ss)
{
	const struct rdp_gid_entry *g = &conn->gid.entry;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;
	struct rdp_ip ip;

	memset(ss, 0, sizeof(*ss));
	if (conn->have_gid && g->ndev[0]) {
		memcpy(ip.raw, g->raw, 16);
		rdp_ip_to_sockaddr(&ip, 0, ss);
		if (ss->ss_family == AF_INET6 && g->raw[0] == 0xfe &&
		    (g->raw[1] & 0xc0) == 0x80)
			s6->sin6_scope_id = if_nametoindex(g->ndev);
		return 0;
	}
	if (oob) {
		rdp_ip_to_sockaddr(oob, 0, ss);
		return 0;
	}
	rdp_err("-g -R: %s has no IP address to bind an RDMA CM id to (no "
		"RoCE GID, no out-of-band address): drop -R",
		conn->dev->name);
	return -EADDRNOTAVAIL;
}

/* The group as a socket address: IPv4 for an IPv4-mapped GID. */
static void group_addr(const uint8_t mgid[16], struct sockaddr_storage *ss)
{
	struct rdp_ip ip;

	memcpy(ip.raw, mgid, 16);
	memset(ss, 0, sizeof(*ss));
	rdp_ip_to_sockaddr(&ip, 0, ss);
}

static void addr_text(const struct sockaddr_storage *ss, char *buf, size_t len)
{
	struct rdp_ip ip;

	if (rdp_ip_from_sockaddr((const struct sockaddr *)ss, &ip))
		snprintf(buf, len, "?");
	else
		rdp_ip_format(&ip, buf, len);
}

static int open_id(struct rdp_mcast_cm *cm, struct rdp_conn *conn,
		   const struct sockaddr_storage *local)
{
	char text[INET6_ADDRSTRLEN + 8];
	const char *bound;
	int flags;

	cm->ch = rdma_create_event_channel();
	if (!cm->ch) {
		rdp_err("-g -R: open an RDMA CM event channel: %s (is "
			"rdma_ucm loaded?)",
			strerror(errno));
		return errno ? -errno : -ENODEV;
	}
	flags = fcntl(cm->ch->fd, F_GETFL);
	if (flags < 0 || fcntl(cm->ch->fd, F_SETFL, flags | O_NONBLOCK) < 0)
		return -errno;
	if (rdma_create_id(cm->ch, &cm->id, NULL, RDMA_PS_UDP)) {
		rdp_err("-g -R: create an RDMA CM id: %s", strerror(errno));
		return errno ? -errno : -ENOMEM;
	}
	addr_text(local, text, sizeof(text));
	if (rdma_bind_addr(cm->id, (struct sockaddr *)local)) {
		rdp_err("-g -R: bind an RDMA CM id to %s: %s (is the address "
			"still on %s's netdev?)",
			text, strerror(errno), conn->dev->name);
		return errno ? -errno : -EADDRNOTAVAIL;
	}
	bound = cm->id->verbs ? ibv_get_device_name(cm->id->verbs->device)
			      : "no device";
	if (strcmp(bound, conn->dev->name)) {
		rdp_err("-g -R: the RDMA CM binds %s to %s, but the QPs are on "
			"%s: give -x a GID of %s, or -d the device of %s",
			text, bound, conn->dev->name, conn->dev->name, text);
		return -EXDEV;
	}
	return 0;
}

int rdp_mcast_cm_join(struct rdp_conn *conn, const struct rdp_ip *oob)
{
	struct sockaddr_storage local;
	struct rdp_mcast_cm *cm;
	struct join_answer a;
	char text[RDP_MGID_STR_MAX];
	int ret;

	ret = local_addr(conn, oob, &local);
	if (ret)
		return ret;
	cm = calloc(1, sizeof(*cm));
	if (!cm)
		return -ENOMEM;
	conn->mcast_cm = cm;
	ret = open_id(cm, conn, &local);
	if (ret)
		return ret;
	rdp_mgid_str(conn->mcast_gid, text, sizeof(text));
	group_addr(conn->mcast_gid, &cm->group);
	if (rdma_join_multicast(cm->id, (struct sockaddr *)&cm->group, NULL))
		return rdp_mcast_cm_refused(errno ? -errno : -EINVAL, text,
					    conn->dev->name);
	cm->joined = 1;
	ret = wait_join(cm, RDP_MCAST_CM_WAIT_MS, &a);
	if (ret)
		return ret;
	ret = rdp_mcast_cm_answer(a.type, a.status, text, conn->dev->name,
				  RDP_MCAST_CM_WAIT_MS);
	if (ret)
		return ret;
	/* the group as the CM joined it: its GID and LID are the sender's */
	memcpy(conn->mcast_gid, a.mgid, 16);
	conn->mcast_lid = a.mlid;
	rdp_mgid_str(conn->mcast_gid, text, sizeof(text));
	rdp_info("multicast group %s: joined through the RDMA CM on %s "
		 "(LID 0x%x, Q_Key 0x%x)",
		 text, conn->dev->name, a.mlid, a.qkey);
	return rdp_mcast_attach(conn);
}

void rdp_mcast_cm_leave(struct rdp_conn *conn)
{
	struct rdp_mcast_cm *cm = conn->mcast_cm;

	if (!cm)
		return;
	if (cm->joined)
		rdma_leave_multicast(cm->id, (struct sockaddr *)&cm->group);
	if (cm->id)
		rdma_destroy_id(cm->id);
	if (cm->ch)
		rdma_destroy_event_channel(cm->ch);
	free(cm);
	conn->mcast_cm = NULL;
}
