/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A rank's endpoint (its rail's address, GID, NUMA node, line rate) and
 * the nodes and rails that every rank's endpoint makes.
 */
#include <errno.h>
#include <ifaddrs.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include <rdmaperf/engine.h>
#include <rdmaperf/gid.h>
#include <rdmaperf/limits.h>
#include <rdmaperf/log.h>
#include <rdmaperf/mesh_run.h>
#include <rdmaperf/sysfs.h>

#define GID_CAP	   256
#define NETDEV_CAP 16

int rdp_mesh_node_name_of(const char *env, int rank, const char *host,
			  char *buf, size_t len)
{
	const char *p;
	size_t at = 0;
	int n;

	if (!env || !*env)
		env = host;
	for (p = env; *p; p++) {
		if (p[0] == '%' && p[1] == 'r') {
			n = snprintf(buf + at, len - at, "%d", rank);
			p++;
		} else {
			n = snprintf(buf + at, len - at, "%c", *p);
		}
		if (n < 0 || (size_t)n >= len - at)
			return -ENAMETOOLONG;
		at += (size_t)n;
	}
	if (!at)
		return -ENAMETOOLONG; /* an empty host name */
	buf[at] = '\0';
	return 0;
}

/* The first IPv4 RoCE v2 GID: its address and index. */
static int roce_addr(const struct rdp_dev *d, struct rdp_mesh_endpoint *ep)
{
	struct rdp_gid_entry tab[GID_CAP];
	size_t i, n = 0;

	if (rdp_dev_gid_table(d, tab, GID_CAP, &n))
		return -ENOENT;
	for (i = 0; i < n; i++) {
		if (tab[i].type != RDP_GID_ROCE_V2 ||
		    !rdp_gid_is_ipv4_mapped(tab[i].raw))
			continue;
		inet_ntop(AF_INET, &tab[i].raw[12], ep->addr, sizeof(ep->addr));
		ep->gid_index = tab[i].index;
		return 0;
	}
	return -ENOENT;
}

/* IPoIB: an IPv4 address of a netdev on the device's PCI function. */
static int netdev_addr(const struct rdp_dev *d, struct rdp_mesh_endpoint *ep)
{
	char names[NETDEV_CAP][RDP_SYSFS_NAME_MAX];
	struct ifaddrs *ifa, *i;
	struct rdp_sysfs fs;
	size_t k, n = 0;
	int ret = -ENOENT;

	rdp_sysfs_init(&fs, NULL);
	if (rdp_sysfs_list(&fs, names, NETDEV_CAP, &n,
			   "/sys/class/infiniband/%s/device/net", d->name) ||
	    getifaddrs(&ifa))
		return -ENOENT;
	for (k = 0; ret && k < n; k++)
		for (i = ifa; ret && i; i = i->ifa_next)
			if (i->ifa_addr && i->ifa_addr->sa_family == AF_INET &&
			    !strcmp(i->ifa_name, names[k])) {
				inet_ntop(AF_INET,
					  &((struct sockaddr_in *)i->ifa_addr)
						   ->sin_addr,
					  ep->addr, sizeof(ep->addr));
				ret = 0;
			}
	freeifaddrs(ifa);
	return ret;
}

int rdp_mesh_endpoint_local(const char *dev, int ib_port,
			    struct rdp_mesh_endpoint *ep)
{
	struct rdp_dev *d;
	int ret;

	ret = rdp_dev_open(dev, ib_port, &d);
	if (ret)
		return ret;
	snprintf(ep->dev, sizeof(ep->dev), "%s", d->name);
	ep->numa_node = d->numa_node;
	ep->line_gbps = rdp_line_rate_gbps(
		d->port.link_layer, d->port.active_speed, d->port.active_width);
	ep->gid_index = -1;
	ret = d->port.link_layer == IBV_LINK_LAYER_ETHERNET ? roce_addr(d, ep)
							    : -ENOENT;
	if (ret)
		ret = netdev_addr(d, ep);
	if (ret)
		rdp_err("mesh: %s has no IPv4 address to serve on: give its "
			"netdev one (RoCE: an IPv4 GID follows; InfiniBand: "
			"its IPoIB interface)",
			d->name);
	rdp_dev_close(d);
	return ret;
}

static int node_index(const struct rdp_mesh_endpoint *eps, int upto,
		      const char *name)
{
	int i;

	for (i = 0; i < upto; i++)
		if (!strcmp(eps[i].node, name))
			return i;
	return upto;
}

int rdp_mesh_group(const struct rdp_mesh_endpoint *eps, int n,
		   unsigned int *node_of, unsigned int *rail_of,
		   const char **names, unsigned int *nodes, unsigned int *rails)
{
	unsigned int count[RDP_MESH_MAX_NODES] = { 0 }, k = 0, i;
	int r, first;

	for (r = 0; r < n; r++) {
		first = node_index(eps, r, eps[r].node);
		if (first == r) {
			if (k == RDP_MESH_MAX_NODES) {
				rdp_err("mesh: more than %u nodes",
					RDP_MESH_MAX_NODES);
				return -EINVAL;
			}
			names[k] = eps[r].node;
			node_of[r] = k++;
		} else {
			node_of[r] = node_of[first];
		}
		rail_of[r] = count[node_of[r]]++;
	}
	for (i = 1; i < k; i++)
		if (count[i] != count[0]) {
			rdp_err("mesh: node %s has %u rank(s), node %s %u: "
				"start the same number of ranks on every node, "
				"one per rail",
				names[i], count[i], names[0], count[0]);
			return -EINVAL;
		}
	if (k < RDP_MESH_MIN_NODES) {
		rdp_err("mesh: all %d rank(s) are on node %s: a mesh needs "
			"two nodes or more (a test on one host: "
			"RDP_MESH_NODE=node%%r makes each rank a node)",
			n, k ? names[0] : "?");
		return -EINVAL;
	}
	if (count[0] > RDP_MESH_MAX_RAILS) {
		rdp_err("mesh: %u ranks a node, at most %d rails", count[0],
			RDP_MESH_MAX_RAILS);
		return -EINVAL;
	}
	*nodes = k;
	*rails = count[0];
	return 0;
}
