/* SPDX-License-Identifier: BSD-2-Clause */
/* Device and port: open by name or the first with an active port, and
 * explain what is wrong when neither works. */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include <rdma/rdma_cma.h>

#include <rdmaperf/engine.h>
#include <rdmaperf/log.h>
#include <rdmaperf/mem.h>
#include <rdmaperf/sysfs.h>

#include "engine_int.h"

const char *rdp_link_layer_str(uint8_t link_layer)
{
	switch (link_layer) {
	case IBV_LINK_LAYER_INFINIBAND:
		return "InfiniBand";
	case IBV_LINK_LAYER_ETHERNET:
		return "Ethernet (RoCE)";
	default:
		return "unspecified";
	}
}

const char *rdp_port_state_str(enum ibv_port_state state)
{
	switch (state) {
	case IBV_PORT_DOWN:
		return "DOWN";
	case IBV_PORT_INIT:
		return "INIT";
	case IBV_PORT_ARMED:
		return "ARMED";
	case IBV_PORT_ACTIVE:
		return "ACTIVE";
	case IBV_PORT_ACTIVE_DEFER:
		return "ACTIVE_DEFER";
	default:
		return "NOP";
	}
}

enum ibv_mtu rdp_mtu_from_bytes(uint32_t bytes)
{
	switch (bytes) {
	case 256:
		return IBV_MTU_256;
	case 512:
		return IBV_MTU_512;
	case 1024:
		return IBV_MTU_1024;
	case 2048:
		return IBV_MTU_2048;
	case 4096:
		return IBV_MTU_4096;
	default:
		return 0;
	}
}

uint32_t rdp_mtu_to_bytes(enum ibv_mtu mtu)
{
	if (mtu < IBV_MTU_256 || mtu > IBV_MTU_4096)
		return 0;
	return 128u << mtu;
}

static int query_port(struct ibv_context *ctx, uint8_t num,
		      struct rdp_port_info *pi)
{
	struct ibv_port_attr pa;
	int ret;

	ret = ibv_query_port(ctx, num, &pa);
	if (ret)
		return -ret;
	pi->num = num;
	pi->link_layer = pa.link_layer;
	pi->state = pa.state;
	pi->phys_state = pa.phys_state;
	pi->active_mtu_bytes = rdp_mtu_to_bytes(pa.active_mtu);
	pi->max_mtu_bytes = rdp_mtu_to_bytes(pa.max_mtu);
	pi->lid = pa.lid;
	pi->active_speed = pa.active_speed;
	pi->active_width = pa.active_width;
	pi->gid_tbl_len = pa.gid_tbl_len;
	pi->pkey_tbl_len = pa.pkey_tbl_len;
	return 0;
}

static void list_devices(struct ibv_device **list, int n, char *buf, size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
					i ? ", " : "",
					ibv_get_device_name(list[i]));
}

/* Port state hint: what an engineer checks for each state. */
static const char *port_state_hint(const struct rdp_port_info *pi)
{
	if (pi->link_layer == IBV_LINK_LAYER_INFINIBAND &&
	    pi->state == IBV_PORT_INIT)
		return "no subnet manager has configured it: start opensm or "
		       "check the fabric's SM";
	if (pi->state == IBV_PORT_DOWN)
		return "no link: check the cable, the switch port and "
		       "`ip link` of its netdev";
	return "wait for the link to come up, or pick another port with -i";
}

/* Query what the engine needs of a device context and its port. */
static int fill_dev(struct rdp_dev *dev, int port)
{
	struct ibv_device_attr_ex ax;
	int ret;

	if (ibv_query_device(dev->ctx, &dev->attr)) {
		rdp_err("query device %s failed", dev->name);
		return -EIO;
	}
	/* Capabilities beyond the basic ones: absent is "cannot". */
	memset(&ax, 0, sizeof(ax));
	if (!ibv_query_device_ex(dev->ctx, NULL, &ax)) {
		dev->pacing = ax.packet_pacing_caps;
		dev->odp = ax.odp_caps;
	}
	if (port < 1 || port > dev->attr.phys_port_cnt) {
		rdp_err("device %s has no port %d (ports 1..%u): fix -i",
			dev->name, port, dev->attr.phys_port_cnt);
		return -EINVAL;
	}
	ret = query_port(dev->ctx, (uint8_t)port, &dev->port);
	if (ret)
		rdp_err("query port %d of %s: %s", port, dev->name,
			strerror(-ret));
	dev->numa_node = -1;
	return ret;
}

static int open_one(struct ibv_device *ibdev, int port, struct rdp_dev **out)
{
	struct rdp_dev *dev;
	int ret;

	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return -ENOMEM;
	snprintf(dev->name, sizeof(dev->name), "%s",
		 ibv_get_device_name(ibdev));
	dev->ctx = ibv_open_device(ibdev);
	if (!dev->ctx) {
		ret = errno ? -errno : -EIO;
		rdp_err("open device %s: %s (check permissions on "
			"/dev/infiniband)",
			dev->name, strerror(-ret));
		free(dev);
		return ret;
	}
	ret = fill_dev(dev, port);
	if (ret) {
		rdp_dev_close(dev);
		return ret;
	}
	*out = dev;
	return 0;
}

static void read_numa_node(struct rdp_dev *dev)
{
	struct rdp_sysfs fs;
	char buf[32];

	rdp_sysfs_init(&fs, NULL);
	if (!rdp_sysfs_read(&fs, buf, sizeof(buf),
			    "/sys/class/infiniband/%s/device/numa_node",
			    dev->name))
		dev->numa_node = atoi(buf);
}

static int port_is_active(struct ibv_device *ibdev, int port)
{
	struct ibv_context *ctx = ibv_open_device(ibdev);
	struct ibv_port_attr pa;
	int active;

	if (!ctx)
		return 0;
	active = !ibv_query_port(ctx, (uint8_t)port, &pa) &&
		 pa.state == IBV_PORT_ACTIVE;
	ibv_close_device(ctx);
	return active;
}

static struct ibv_device *pick_device(struct ibv_device **list, int n,
				      const char *name, int port)
{
	int i;

	for (i = 0; i < n; i++) {
		if (name && *name) {
			if (!strcmp(ibv_get_device_name(list[i]), name))
				return list[i];
		} else if (port_is_active(list[i], port)) {
			return list[i];
		}
	}
	return NULL;
}

/* The port must be ACTIVE; on success the device is ready for use. */
static int check_active(struct rdp_dev *dev)
{
	if (dev->port.state != IBV_PORT_ACTIVE) {
		rdp_err("port %u of %s is %s: %s", dev->port.num, dev->name,
			rdp_port_state_str(dev->port.state),
			port_state_hint(&dev->port));
		rdp_dev_close(dev);
		return -ENETDOWN;
	}
	read_numa_node(dev);
	return 0;
}

int rdp_dev_refresh(struct rdp_dev *dev)
{
	int ret = query_port(dev->ctx, dev->port.num, &dev->port);

	if (ret) {
		rdp_err("query port %u of %s: %s", dev->port.num, dev->name,
			strerror(-ret));
	} else if (dev->port.state != IBV_PORT_ACTIVE) {
		rdp_err("port %u of %s is %s: %s", dev->port.num, dev->name,
			rdp_port_state_str(dev->port.state),
			port_state_hint(&dev->port));
		ret = -ENETDOWN;
	}
	/* What the port had (its GIDs) may be gone: build anew after. */
	if (ret)
		rdp_dev_drop_kept(dev);
	return ret;
}

int rdp_dev_open(const char *name, int port, struct rdp_dev **out)
{
	struct ibv_device **list;
	struct ibv_device *ibdev;
	struct rdp_dev *dev;
	char names[256];
	int n, ret;

	list = ibv_get_device_list(&n);
	if (!list || n == 0) {
		rdp_err("no RDMA devices found: load the NIC's driver (or "
			"create a Soft-RoCE device: rdma link add rxe0 type "
			"rxe netdev IF) and check `ibv_devices`");
		ret = -ENODEV;
		goto out_free;
	}
	list_devices(list, n, names, sizeof(names));
	ibdev = pick_device(list, n, name, port);
	if (!ibdev) {
		if (name && *name)
			rdp_err("device '%s' not found; devices present: %s "
				"(choose one with -d)",
				name, names);
		else
			rdp_err("no device has port %d ACTIVE (devices: %s): "
				"check the links with `ibv_devinfo`",
				port, names);
		ret = name && *name ? -ENXIO : -ENETDOWN;
		goto out_free;
	}
	ret = open_one(ibdev, port, &dev);
	if (!ret)
		ret = check_active(dev);
	if (!ret)
		*out = dev;
out_free:
	if (list)
		ibv_free_device_list(list);
	return ret;
}

/* librdmacm's contexts: QPs made on RDMA CM ids must share their PD. */
static struct ibv_context *pick_cm_context(struct ibv_context **list,
					   const char *name, int port)
{
	struct ibv_port_attr pa;
	int i;

	for (i = 0; list[i]; i++) {
		if (name && *name) {
			if (!strcmp(ibv_get_device_name(list[i]->device), name))
				return list[i];
		} else if (!ibv_query_port(list[i], (uint8_t)port, &pa) &&
			   pa.state == IBV_PORT_ACTIVE) {
			return list[i];
		}
	}
	return NULL;
}

int rdp_dev_open_cm(const char *name, int port, struct rdp_dev **out)
{
	struct ibv_context **list;
	struct rdp_dev *dev;
	int n = 0, ret;

	list = rdma_get_devices(&n);
	if (!list || !n) {
		ret = errno && list == NULL ? -errno : -ENODEV;
		rdp_err("RDMA CM is not available (%s): load rdma_ucm "
			"(modprobe rdma_ucm) or run without -R",
			list ? "no devices" : strerror(-ret));
		if (list)
			rdma_free_devices(list);
		return -ENODEV;
	}
	dev = calloc(1, sizeof(*dev));
	if (!dev) {
		rdma_free_devices(list);
		return -ENOMEM;
	}
	dev->cm_list = list;
	dev->ctx = pick_cm_context(list, name, port);
	if (!dev->ctx) {
		rdp_err("RDMA CM knows no %s%s (see `rdma link`): fix -d",
			name && *name ? "device "
				      : "device with an active port",
			name && *name ? name : "");
		rdp_dev_close(dev);
		return name && *name ? -ENXIO : -ENETDOWN;
	}
	snprintf(dev->name, sizeof(dev->name), "%s",
		 ibv_get_device_name(dev->ctx->device));
	ret = fill_dev(dev, port);
	if (!ret)
		ret = check_active(dev);
	else
		rdp_dev_close(dev);
	if (!ret)
		*out = dev;
	return ret;
}

void rdp_dev_close(struct rdp_dev *dev)
{
	if (!dev)
		return;
	rdp_dev_drop_kept(dev);
	rdp_mem_close(dev->mem); /* GPU buffers are gone with their conns */
	if (dev->cm_list)
		rdma_free_devices(dev->cm_list); /* the context is its */
	else if (dev->ctx)
		ibv_close_device(dev->ctx);
	free(dev);
}

static int by_index(const void *a, const void *b)
{
	const struct rdp_gid_entry *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

static enum rdp_gid_type gid_type_of(uint32_t t, int eth)
{
	if (!eth)
		return RDP_GID_IB;
	return t == IBV_GID_TYPE_ROCE_V2 ? RDP_GID_ROCE_V2 : RDP_GID_ROCE_V1;
}

int rdp_dev_gid_table(const struct rdp_dev *dev, struct rdp_gid_entry *tab,
		      size_t cap, size_t *n_out)
{
	int eth = dev->port.link_layer == IBV_LINK_LAYER_ETHERNET;
	size_t max = (size_t)dev->attr.phys_port_cnt *
		     (size_t)(dev->port.gid_tbl_len > 0 ? dev->port.gid_tbl_len
							: 1),
	       n = 0;
	struct ibv_gid_entry *all;
	struct rdp_sysfs fs;
	ssize_t got, i;
	char ndev[IF_NAMESIZE];

	all = calloc(max ? max : 1, sizeof(*all));
	got = all ? ibv_query_gid_table(dev->ctx, all, max, 0) : -ENOMEM;
	if (got < 0) {
		free(all);
		rdp_sysfs_init(&fs, NULL);
		return rdp_gid_read_table(&fs, dev->name, dev->port.num, eth,
					  tab, cap, n_out);
	}
	for (i = 0; i < got && n < cap; i++) {
		if (all[i].port_num != dev->port.num)
			continue;
		memset(&tab[n], 0, sizeof(tab[n]));
		tab[n].index = (int)all[i].gid_index;
		memcpy(tab[n].raw, all[i].gid.raw, 16);
		tab[n].type = gid_type_of(all[i].gid_type, eth);
		if (eth && all[i].ndev_ifindex &&
		    if_indextoname(all[i].ndev_ifindex, ndev))
			snprintf(tab[n].ndev, sizeof(tab[n].ndev), "%s", ndev);
		n++;
	}
	free(all);
	qsort(tab, n, sizeof(*tab), by_index);
	*n_out = n;
	return 0;
}

int rdp_dev_gid_check(const struct rdp_dev *dev, int index)
{
	size_t cap = dev->port.gid_tbl_len > 0 ? (size_t)dev->port.gid_tbl_len
					       : 1,
	       n = 0;
	struct rdp_gid_entry *tab;
	char why[320];
	int ret;

	if (index < 0 || !dev->ctx)
		return 0;
	tab = calloc(cap, sizeof(*tab));
	if (!tab)
		return -ENOMEM;
	ret = rdp_dev_gid_table(dev, tab, cap, &n);
	if (ret) {
		rdp_err("read GID table of %s port %u: %s", dev->name,
			dev->port.num, strerror(-ret));
	} else {
		ret = rdp_gid_index_check(tab, n, dev->port.gid_tbl_len, index,
					  dev->name, dev->port.num, why,
					  sizeof(why));
		if (ret)
			rdp_err("%s", why);
	}
	free(tab);
	return ret;
}
