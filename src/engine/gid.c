/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * GID table from sysfs (text GIDs, their RoCE type and netdev) and the
 * choice of one entry: the RoCE v2 GID of the out-of-band address first.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <stdio.h>
#include <string.h>

#include <rdmaperf/gid.h>
#include <rdmaperf/sysfs.h>

/* The kernel's largest GID table. */
#define GID_TBL_MAX 4096
/* "xxxx:" x 7 + "xxxx" */
#define GID_TEXT_LEN 39
/* Every file read here lives below the port's directory. */
#define PORT_DIR "/sys/class/infiniband/%s/ports/%d/"

/* Exactly 8 groups of 4 hex digits, as sysfs prints them. */
static int parse_gid(const char *s, uint8_t raw[16])
{
	uint8_t tmp[16];
	int i, h, v;

	if (strlen(s) != GID_TEXT_LEN)
		return -EINVAL;
	for (i = 0; i < 32; i++) {
		/* Digit i sits after i / 4 colons. */
		const char *p = s + i + i / 4;

		if (i && i % 4 == 0 && p[-1] != ':')
			return -EINVAL;
		h = rdp_hex_digit((unsigned char)*p);
		if (h < 0)
			return -EINVAL;
		v = i % 2 ? (tmp[i / 2] << 4) | h : h;
		tmp[i / 2] = (uint8_t)v;
	}
	memcpy(raw, tmp, sizeof(tmp));
	return 0;
}

static int gid_is_zero(const uint8_t raw[16])
{
	int i;

	for (i = 0; i < 16; i++)
		if (raw[i])
			return 0;
	return 1;
}

static int read_gid(const struct rdp_sysfs *fs, const char *dev, int port,
		    int idx, uint8_t raw[16])
{
	char text[64];
	int ret;

	ret = rdp_sysfs_read(fs, text, sizeof(text), PORT_DIR "gids/%d", dev,
			     port, idx);
	if (ret)
		return ret;
	return parse_gid(text, raw);
}

/* The type and netdev of a valid GID; both are optional in sysfs. */
static void read_attrs(const struct rdp_sysfs *fs, const char *dev, int port,
		       int link_layer_eth, struct rdp_gid_entry *e)
{
	char text[64];

	e->type = RDP_GID_IB;
	if (link_layer_eth) {
		if (rdp_sysfs_read(fs, text, sizeof(text),
				   PORT_DIR "gid_attrs/types/%d", dev, port,
				   e->index))
			e->type = RDP_GID_UNKNOWN;
		else
			e->type = rdp_gid_type_parse(text);
	}
	if (rdp_sysfs_read(fs, e->ndev, sizeof(e->ndev),
			   PORT_DIR "gid_attrs/ndevs/%d", dev, port, e->index))
		e->ndev[0] = '\0';
}

int rdp_gid_read_table(const struct rdp_sysfs *fs, const char *dev, int port,
		       int link_layer_eth, struct rdp_gid_entry *tab,
		       size_t cap, size_t *n_out)
{
	struct rdp_gid_entry e;
	size_t n = 0;
	int idx, ret;

	for (idx = 0; idx < GID_TBL_MAX && n < cap; idx++) {
		memset(&e, 0, sizeof(e));
		e.index = idx;
		ret = read_gid(fs, dev, port, idx, e.raw);
		if (ret == -ENOENT)
			break;
		if (ret)
			return ret;
		/* The kernel shows empty and reserved slots as zero. */
		if (gid_is_zero(e.raw))
			continue;
		read_attrs(fs, dev, port, link_layer_eth, &e);
		tab[n++] = e;
	}
	*n_out = n;
	return 0;
}

static int is_v2_ipv4(const struct rdp_gid_entry *e)
{
	return e->type == RDP_GID_ROCE_V2 && rdp_gid_is_ipv4_mapped(e->raw);
}

/* A global (not link-local fe80::/10) IPv6 RoCE v2 GID. */
static int is_v2_ipv6(const struct rdp_gid_entry *e)
{
	return e->type == RDP_GID_ROCE_V2 && !rdp_gid_is_ipv4_mapped(e->raw) &&
	       !(e->raw[0] == 0xfe && (e->raw[1] & 0xc0) == 0x80);
}

static int pick(const struct rdp_gid_entry *tab, size_t n,
		const struct rdp_ip *local, enum rdp_gid_reason *reason)
{
	int v6 = local && !rdp_ip_is_ipv4(local);
	size_t i;

	for (i = 0; local && i < n; i++)
		if (tab[i].type == RDP_GID_ROCE_V2 &&
		    !memcmp(tab[i].raw, local->raw, 16)) {
			*reason = RDP_GID_ADDR_MATCH;
			return (int)i;
		}
	for (i = 0; i < n; i++)
		if (v6 ? is_v2_ipv6(&tab[i]) : is_v2_ipv4(&tab[i])) {
			*reason = v6 ? RDP_GID_V2_IPV6 : RDP_GID_V2_IPV4;
			return (int)i;
		}
	for (i = 0; i < n; i++)
		if (tab[i].type == RDP_GID_ROCE_V2) {
			*reason = RDP_GID_V2_ANY;
			return (int)i;
		}
	*reason = RDP_GID_FIRST;
	return n ? 0 : -ENOENT;
}

int rdp_gid_select(const struct rdp_gid_entry *tab, size_t n,
		   const struct rdp_ip *local, int forced_index,
		   struct rdp_gid_choice *out)
{
	enum rdp_gid_reason reason;
	size_t i;
	int pos;

	if (forced_index >= 0) {
		for (i = 0; i < n; i++)
			if (tab[i].index == forced_index)
				break;
		if (i == n)
			return -ENOENT;
		out->entry = tab[i];
		out->reason = RDP_GID_FORCED;
		return 0;
	}

	pos = pick(tab, n, local, &reason);
	if (pos < 0)
		return pos;
	out->entry = tab[pos];
	out->reason = reason;
	return 0;
}

/* "0-3, 8" for the indexes of tab: runs of consecutive ones as a-b. */
static void valid_list(const struct rdp_gid_entry *tab, size_t n, char *buf,
		       size_t len)
{
	size_t i, j, off = 0;

	buf[0] = '\0';
	for (i = 0; i < n && off < len; i = j + 1) {
		for (j = i; j + 1 < n && tab[j + 1].index == tab[j].index + 1;)
			j++;
		if (j == i)
			off += (size_t)snprintf(buf + off, len - off, "%s%d",
						i ? ", " : "", tab[i].index);
		else
			off += (size_t)snprintf(buf + off, len - off, "%s%d-%d",
						i ? ", " : "", tab[i].index,
						tab[j].index);
	}
}

int rdp_gid_index_check(const struct rdp_gid_entry *tab, size_t n, int tbl_len,
			int index, const char *dev, int port, char *why,
			size_t len)
{
	char valid[128];
	size_t i;

	for (i = 0; i < n; i++)
		if (tab[i].index == index)
			return 0;
	valid_list(tab, n, valid, sizeof(valid));
	if (!n)
		snprintf(why, len,
			 "GID index %d of %s port %d: the port has no valid "
			 "GID (is an IP address configured on its netdev?)",
			 index, dev, port);
	else if (tbl_len > 0 && index >= tbl_len)
		snprintf(why, len,
			 "GID index %d of %s port %d is past its table of %d: "
			 "valid indexes %s, fix -x (rdmaperf doctor lists "
			 "them)",
			 index, dev, port, tbl_len, valid);
	else
		snprintf(why, len,
			 "GID index %d of %s port %d is empty: valid indexes "
			 "%s, fix -x (rdmaperf doctor lists them)",
			 index, dev, port, valid);
	return -ENOENT;
}

const char *rdp_gid_type_str(enum rdp_gid_type type)
{
	switch (type) {
	case RDP_GID_IB:
		return "IB";
	case RDP_GID_ROCE_V1:
		return "RoCE v1";
	case RDP_GID_ROCE_V2:
		return "RoCE v2";
	case RDP_GID_UNKNOWN:
		break;
	}
	return "unknown";
}

const char *rdp_gid_reason_str(enum rdp_gid_reason reason)
{
	switch (reason) {
	case RDP_GID_FORCED:
		return "set with -x";
	case RDP_GID_ADDR_MATCH:
		return "matches the out-of-band address";
	case RDP_GID_V2_IPV4:
		return "first IPv4 RoCE v2 GID";
	case RDP_GID_V2_IPV6:
		return "first global IPv6 RoCE v2 GID";
	case RDP_GID_V2_ANY:
		return "first RoCE v2 GID";
	case RDP_GID_FIRST:
		return "first valid GID";
	case RDP_GID_RDMA_CM:
		return "chosen by RDMA CM for the route";
	}
	return "unknown";
}

/* sysfs says "RoCE v2" or "IB/RoCE v1"; the caller knows the link layer. */
enum rdp_gid_type rdp_gid_type_parse(const char *sysfs_text)
{
	if (strstr(sysfs_text, "v2"))
		return RDP_GID_ROCE_V2;
	if (strstr(sysfs_text, "v1"))
		return RDP_GID_ROCE_V1;
	return RDP_GID_UNKNOWN;
}

void rdp_gid_format(const uint8_t raw[16], char *buf, size_t len)
{
	socklen_t n = INET6_ADDRSTRLEN;

	if (!len)
		return;
	if (len < INET6_ADDRSTRLEN)
		n = (socklen_t)len;
	if (!inet_ntop(AF_INET6, raw, buf, n))
		buf[0] = '\0';
}

int rdp_gid_is_ipv4_mapped(const uint8_t raw[16])
{
	return rdp_ip_raw_is_ipv4_mapped(raw);
}
