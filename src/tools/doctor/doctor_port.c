/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The port checks of `rdmaperf doctor`: state, link, MTU, GIDs and the pair
 * checks against a server. Everything comes through struct rdp_sysfs, so
 * each verdict is tested against recorded device trees.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdmaperf/doctor.h>
#include <rdmaperf/sysfs.h>
#include <rdmaperf/wire.h>

#include "doctor_checks.h"

#define IBDEV "/sys/class/infiniband/%s"
#define PORT  IBDEV "/ports/%d"

void rdp_doctor_say(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

void rdp_doctor_fix(struct rdp_check *c, enum rdp_verdict when, const char *fmt,
		    ...)
{
	va_list ap;

	if (c->verdict != when)
		return;
	va_start(ap, fmt);
	vsnprintf(c->fix, sizeof(c->fix), fmt, ap);
	va_end(ap);
}

const char *rdp_verdict_str(enum rdp_verdict v)
{
	static const char *const names[] = { "PASS", "WARN", "FAIL", "SKIP" };

	return (unsigned int)v < 4 ? names[v] : "?";
}

struct rdp_check *rdp_doctor_add(struct rdp_doctor *doc, const char *id,
				 const char *title, enum rdp_verdict v)
{
	struct rdp_check *c;

	if (doc->n_checks >= RDP_DOCTOR_MAX_CHECKS)
		return NULL;
	c = &doc->checks[doc->n_checks++];
	memset(c, 0, sizeof(*c));
	c->id = id;
	c->title = title;
	c->verdict = v;
	return c;
}

const struct rdp_check *rdp_doctor_find(const struct rdp_doctor *doc,
					const char *id)
{
	size_t i;

	for (i = 0; i < doc->n_checks; i++)
		if (!strcmp(doc->checks[i].id, id))
			return &doc->checks[i];
	return NULL;
}

void rdp_doctor_tally(const struct rdp_doctor *doc, size_t counts[4])
{
	size_t i;

	memset(counts, 0, 4 * sizeof(counts[0]));
	for (i = 0; i < doc->n_checks; i++)
		counts[doc->checks[i].verdict & 3]++;
}

static int port_active(const struct rdp_sysfs *fs, const char *dev, int port)
{
	char st[64];

	return !rdp_sysfs_read(fs, st, sizeof(st), PORT "/state", dev, port) &&
	       strstr(st, "ACTIVE");
}

int rdp_doctor_pick_device(const struct rdp_sysfs *fs, int port, char *name,
			   size_t len)
{
	char names[32][RDP_SYSFS_NAME_MAX];
	size_t n, i;
	int ret;

	ret = rdp_sysfs_list(fs, names, 32, &n, "/sys/class/infiniband");
	if (ret || !n)
		return -ENODEV;
	for (i = 0; i < n; i++) {
		if (port_active(fs, names[i], port)) {
			snprintf(name, len, "%s", names[i]);
			return 0;
		}
	}
	snprintf(name, len, "%s", names[0]);
	return 0;
}

/* "4: ACTIVE" -> 4 and "ACTIVE"; -1 when unreadable. */
static int numbered(const char *text, const char **name)
{
	const char *colon = strchr(text, ':');

	*name = colon ? colon + 1 + strspn(colon + 1, " ") : text;
	return colon ? atoi(text) : -1;
}

/* What each failing state means, in the order an engineer checks. */
static const char *state_fix(int state, int phys, int eth)
{
	if (phys == 2)
		return "the port polls for a peer: check the cable, the "
		       "transceiver and the switch port";
	if (phys == 3)
		return "the port is disabled: enable it (ibportstate ... "
		       "enable, or `ip link set DEV up` on its netdev)";
	if (state == 2 && !eth)
		return "no subnet manager has configured the port: start "
		       "opensm on one host of the fabric, or check the "
		       "switch's SM";
	if (state == 3)
		return "armed: the subnet manager has not activated it yet; "
		       "wait, or check the SM's log";
	return "no link: check the cable, the switch port and `ip link` of "
	       "its netdev";
}

static void check_state(const struct rdp_sysfs *fs, struct rdp_doctor *doc)
{
	char st[64] = "", ph[64] = "";
	const char *sn, *pn;
	struct rdp_check *c;
	int s, p;

	if (rdp_sysfs_read(fs, st, sizeof(st), PORT "/state", doc->dev,
			   doc->port)) {
		c = rdp_doctor_add(doc, "port_state", "Port state", RDP_FAIL);
		if (c) {
			rdp_doctor_say(c->value, sizeof(c->value),
				       "%s has no port %d", doc->dev,
				       doc->port);
			rdp_doctor_say(c->fix, sizeof(c->fix),
				       "pick a port with -i (see ibv_devinfo)");
		}
		return;
	}
	rdp_sysfs_read(fs, ph, sizeof(ph), PORT "/phys_state", doc->dev,
		       doc->port);
	s = numbered(st, &sn);
	p = numbered(ph, &pn);
	c = rdp_doctor_add(doc, "port_state", "Port state",
			   s == 4 ? RDP_PASS : RDP_FAIL);
	if (!c)
		return;
	rdp_doctor_say(c->value, sizeof(c->value), "%s, physical %s", sn,
		       ph[0] ? pn : "unknown");
	if (s != 4)
		rdp_doctor_say(c->fix, sizeof(c->fix), "%s",
			       state_fix(s, p, doc->link_eth));
}

static void check_link_layer(const struct rdp_sysfs *fs, struct rdp_doctor *doc)
{
	char ll[32] = "";
	struct rdp_check *c;

	rdp_sysfs_read(fs, ll, sizeof(ll), PORT "/link_layer", doc->dev,
		       doc->port);
	c = rdp_doctor_add(doc, "link_layer", "Link layer",
			   ll[0] ? RDP_PASS : RDP_SKIP);
	if (!c)
		return;
	if (!ll[0])
		rdp_doctor_say(c->value, sizeof(c->value),
			       "not reported by the driver");
	else
		rdp_doctor_say(c->value, sizeof(c->value), "%s%s", ll,
			       doc->link_eth ? " (RoCE)" : "");
}

/* The IB MTU a RoCE port gets from its netdev: headers come off first. */
uint32_t rdp_doctor_roce_mtu(uint32_t netdev_mtu)
{
	/* GRH/IPv6 40 + UDP 8 + BTH 12 + largest extended headers 32 + ICRC
	 * 4, as the kernel reckons it. */
	uint32_t room = netdev_mtu > 96 ? netdev_mtu - 96 : 0;
	uint32_t m;

	for (m = 4096; m >= 256; m /= 2)
		if (room >= m)
			return m;
	return 0;
}

static void mtu_fix(struct rdp_doctor *doc, struct rdp_check *c,
		    uint32_t netdev_mtu, uint32_t max)
{
	if (doc->link_eth && netdev_mtu &&
	    rdp_doctor_roce_mtu(netdev_mtu) < max)
		rdp_doctor_say(c->fix, sizeof(c->fix),
			       "the netdev %s has MTU %u, which leaves RDMA "
			       "%u B: raise it on both hosts and the switch "
			       "(ip link set dev %s mtu 9000) for %u B",
			       doc->netdev, netdev_mtu,
			       rdp_doctor_roce_mtu(netdev_mtu), doc->netdev,
			       max);
	else if (doc->link_eth)
		rdp_doctor_say(c->fix, sizeof(c->fix),
			       "the active MTU is below what the netdev "
			       "allows: check the netdev MTU of both hosts");
	else
		rdp_doctor_say(c->fix, sizeof(c->fix),
			       "the subnet manager sets the MTU: raise the "
			       "partition's mtu in opensm's partitions.conf "
			       "(mtu=5 is 4096)");
}

static void check_mtu(const struct rdp_sysfs *fs,
		      const struct rdp_doctor_verbs *v, struct rdp_doctor *doc)
{
	uint64_t nmtu = 0;
	struct rdp_check *c;
	char nd[48] = "";

	if (doc->netdev[0] &&
	    !rdp_sysfs_read_u64(fs, &nmtu, "/sys/class/net/%s/mtu",
				doc->netdev) &&
	    nmtu <= UINT32_MAX)
		snprintf(nd, sizeof(nd), ", netdev %s %u", doc->netdev,
			 (uint32_t)nmtu);
	else
		nmtu = 0;
	if (!v || !v->active_mtu_bytes) {
		c = rdp_doctor_add(doc, "mtu", "MTU", RDP_SKIP);
		if (c)
			rdp_doctor_say(c->value, sizeof(c->value),
				       "the port could not be queried%s", nd);
		return;
	}
	c = rdp_doctor_add(doc, "mtu", "MTU",
			   v->active_mtu_bytes < v->max_mtu_bytes ? RDP_WARN
								  : RDP_PASS);
	if (!c)
		return;
	rdp_doctor_say(c->value, sizeof(c->value), "active %u, max %u%s",
		       v->active_mtu_bytes, v->max_mtu_bytes, nd);
	if (c->verdict != RDP_PASS)
		mtu_fix(doc, c, (uint32_t)nmtu, v->max_mtu_bytes);
}

/* Which netdev carries this port: the GID table says it on RoCE. */
static void find_netdev(const struct rdp_sysfs *fs, struct rdp_doctor *doc)
{
	char names[8][RDP_SYSFS_NAME_MAX];
	size_t i, n;

	for (i = 0; i < doc->n_gids; i++) {
		if (doc->gids[i].ndev[0]) {
			snprintf(doc->netdev, sizeof(doc->netdev), "%s",
				 doc->gids[i].ndev);
			return;
		}
	}
	if (!rdp_sysfs_list(fs, names, 8, &n, IBDEV "/device/net", doc->dev) &&
	    n)
		snprintf(doc->netdev, sizeof(doc->netdev), "%.31s", names[0]);
}

void rdp_doctor_local(const struct rdp_sysfs *fs, const char *dev, int port,
		      const struct rdp_doctor_verbs *verbs,
		      const struct in_addr *local_ipv4, struct rdp_doctor *doc)
{
	char ll[32] = "";

	memset(doc, 0, sizeof(*doc));
	snprintf(doc->dev, sizeof(doc->dev), "%s", dev);
	doc->port = port;
	doc->numa_node = -1;
	doc->chosen_gid = -1;
	rdp_sysfs_read(fs, ll, sizeof(ll), PORT "/link_layer", dev, port);
	doc->link_eth = !strcmp(ll, "Ethernet");
	if (rdp_gid_read_table(fs, dev, port, doc->link_eth, doc->gids,
			       RDP_DOCTOR_MAX_GIDS, &doc->n_gids))
		doc->n_gids = 0;
	find_netdev(fs, doc);

	check_state(fs, doc);
	check_link_layer(fs, doc);
	rdp_doctor_check_rate(fs, doc);
	check_mtu(fs, verbs, doc);
	rdp_doctor_check_gids(doc, local_ipv4);
	rdp_doctor_check_pcie(fs, doc);
	rdp_doctor_check_numa(fs, doc);
	rdp_doctor_check_memlock(fs, doc);
	rdp_doctor_check_governor(fs, doc);
	rdp_doctor_check_cstates(fs, doc);
	rdp_doctor_check_rdma_cm(fs, doc);
}

void rdp_doctor_pair(struct rdp_doctor *doc,
		     const struct rdp_doctor_verbs *verbs,
		     const struct rdp_msg_accept *peer)
{
	uint32_t mine = verbs ? verbs->active_mtu_bytes : 0;
	const struct rdp_gid_entry *g =
		doc->chosen_gid >= 0 ? &doc->gids[doc->chosen_gid] : NULL;
	struct rdp_check *c;

	c = rdp_doctor_add(doc, "pair_mtu", "Pair MTU",
			   !mine			    ? RDP_SKIP
			   : mine == peer->active_mtu_bytes ? RDP_PASS
							    : RDP_WARN);
	if (c) {
		rdp_doctor_say(c->value, sizeof(c->value),
			       "here %u, peer %s %u", mine, peer->device,
			       peer->active_mtu_bytes);
		rdp_doctor_fix(c, RDP_WARN,
			       "the path runs at the smaller MTU (%u): "
			       "give both hosts the same netdev/port "
			       "MTU",
			       mine < peer->active_mtu_bytes
				       ? mine
				       : peer->active_mtu_bytes);
	}
	if (!doc->link_eth)
		return;
	c = rdp_doctor_add(doc, "pair_gid_type", "Pair GID type",
			   !g || peer->gid_index < 0   ? RDP_SKIP
			   : g->type == peer->gid_type ? RDP_PASS
						       : RDP_FAIL);
	if (!c)
		return;
	rdp_doctor_say(
		c->value, sizeof(c->value), "here %s, peer %s",
		g ? rdp_gid_type_str(g->type) : "none",
		peer->gid_index < 0
			? "none"
			: rdp_gid_type_str((enum rdp_gid_type)peer->gid_type));
	rdp_doctor_fix(c, RDP_FAIL,
		       "RoCE v1 and v2 do not talk to each other: "
		       "choose GIDs of the same type with -x on both "
		       "sides");
}
