/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The statistics of a RoCE port's netdev (`ethtool -S`): pause frames per
 * priority, FCS and symbol errors, link-down events. Read from the driver
 * by the SIOCETHTOOL ioctl, or from the text ethtool prints (captures);
 * only the names that count link errors, retries or congestion are kept.
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>

#include <rdmaperf/counters.h>

/* More strings than any driver publishes: a broken answer, not read. */
#define MAX_STATS 65536
/* The first line of `ethtool -S IFNAME`. */
#define HEADER "NIC statistics:"

/* One statistic into out when its kind says something about the port. */
static void keep(struct rdp_counters *out, const char *name, size_t len,
		 uint64_t value)
{
	char buf[RDP_COUNTER_NAME_MAX];
	struct rdp_counter *c;

	if (!len || len >= sizeof(buf) || out->n >= RDP_COUNTERS_MAX)
		return;
	memcpy(buf, name, len);
	buf[len] = '\0';
	if (rdp_counter_kind(buf) == RDP_CTR_OTHER)
		return;
	c = &out->c[out->n++];
	memcpy(c->name, buf, len + 1);
	c->hw = RDP_CTR_SRC_ETHTOOL;
	c->value = value;
}

/* "     rx_prio3_pause: 17": the name is all before the last ": ". */
static int parse_line(const char *line, size_t len, struct rdp_counters *out)
{
	const char *sep = NULL, *p, *name = line;
	unsigned long long v;
	char num[24], *end;
	size_t nlen;

	for (p = line; p + 1 < line + len; p++)
		if (p[0] == ':' && p[1] == ' ')
			sep = p;
	if (!sep)
		return 0;
	while (name < sep && (*name == ' ' || *name == '\t'))
		name++;
	nlen = (size_t)(line + len - (sep + 2));
	if (name == sep || !nlen || nlen >= sizeof(num))
		return 0;
	memcpy(num, sep + 2, nlen);
	num[nlen] = '\0';
	if (num[0] < '0' || num[0] > '9')
		return 0;
	errno = 0;
	v = strtoull(num, &end, 10);
	if (errno || *end)
		return 0;
	keep(out, name, (size_t)(sep - name), v);
	return 1;
}

int rdp_ethtool_parse(const char *text, struct rdp_counters *out)
{
	const char *line = text, *nl;
	int header = 0, n = 0;
	size_t len;

	for (; *line; line = nl ? nl + 1 : line + len) {
		nl = strchr(line, '\n');
		len = nl ? (size_t)(nl - line) : strlen(line);
		if (!header) {
			/* "NIC statistics:", after blank lines at most */
			header = len == strlen(HEADER) &&
				 !strncmp(line, HEADER, len);
			if (!header && len)
				return -EINVAL;
			continue;
		}
		n += parse_line(line, len, out);
	}
	return header ? n : -EINVAL;
}

static int ethtool_ioctl(int fd, const char *ifname, void *cmd)
{
	struct ifreq ifr;
	size_t len = strlen(ifname);

	if (!len || len >= sizeof(ifr.ifr_name))
		return -EINVAL;
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, ifname, len);
	ifr.ifr_data = cmd;
	return ioctl(fd, SIOCETHTOOL, &ifr) ? -errno : 0;
}

/* How many statistics the driver has: the string set's size, or, from
 * drivers older than ETHTOOL_GSSET_INFO, the driver info's count. */
static int stats_count(int fd, const char *ifname, uint32_t *n)
{
	union {
		struct ethtool_sset_info info;
		uint8_t raw[sizeof(struct ethtool_sset_info) + sizeof(uint32_t)];
	} s;
	struct ethtool_drvinfo drv;
	uint32_t v;

	memset(&s, 0, sizeof(s));
	s.info.cmd = ETHTOOL_GSSET_INFO;
	s.info.sset_mask = 1ULL << ETH_SS_STATS;
	if (!ethtool_ioctl(fd, ifname, &s) &&
	    (s.info.sset_mask & (1ULL << ETH_SS_STATS))) {
		memcpy(&v, s.raw + sizeof(struct ethtool_sset_info), sizeof(v));
		*n = v;
		return 0;
	}
	memset(&drv, 0, sizeof(drv));
	drv.cmd = ETHTOOL_GDRVINFO;
	if (ethtool_ioctl(fd, ifname, &drv))
		return -EOPNOTSUPP;
	*n = drv.n_stats;
	return 0;
}

/* The names and values of n statistics, kept into out. */
static int read_stats(int fd, const char *ifname, uint32_t n,
		      struct rdp_counters *out)
{
	struct ethtool_gstrings *names;
	struct ethtool_stats *vals;
	uint32_t i, have;
	int ret = -ENOMEM;

	names = calloc(1, sizeof(*names) + (size_t)n * ETH_GSTRING_LEN);
	vals = calloc(1, sizeof(*vals) + (size_t)n * sizeof(uint64_t));
	if (!names || !vals)
		goto out;
	names->cmd = ETHTOOL_GSTRINGS;
	names->string_set = ETH_SS_STATS;
	names->len = n;
	vals->cmd = ETHTOOL_GSTATS;
	vals->n_stats = n;
	ret = ethtool_ioctl(fd, ifname, names);
	if (!ret)
		ret = ethtool_ioctl(fd, ifname, vals);
	if (ret)
		goto out;
	have = names->len < vals->n_stats ? names->len : vals->n_stats;
	for (i = 0; i < have && i < n; i++)
		keep(out,
		     (const char *)names->data + (size_t)i * ETH_GSTRING_LEN,
		     strnlen((const char *)names->data +
				     (size_t)i * ETH_GSTRING_LEN,
			     ETH_GSTRING_LEN),
		     vals->data[i]);
out:
	free(names);
	free(vals);
	return ret;
}

int rdp_ethtool_read(const char *ifname, struct rdp_counters *out)
{
	uint32_t n = 0;
	int fd, ret;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	ret = stats_count(fd, ifname, &n);
	if (!ret && n > MAX_STATS)
		ret = -E2BIG;
	if (!ret && n)
		ret = read_stats(fd, ifname, n, out);
	close(fd);
	return ret;
}

#define PORT_DIR "/sys/class/infiniband/%s/ports/%d"

/* ret and name from rdp_sysfs_read: a netdev's name was read. */
static int is_ifname(int ret, const char *name)
{
	return !ret && name[0] && strlen(name) < IFNAMSIZ && !strchr(name, '/');
}

int rdp_ethtool_netdev(const struct rdp_sysfs *fs, const char *dev, int port,
		       char *name, size_t len)
{
	char names[4][RDP_SYSFS_NAME_MAX];
	size_t n = 0;
	int ret;

	if (!len)
		return -EINVAL;
	name[0] = '\0';
	ret = rdp_sysfs_read(fs, name, len, PORT_DIR "/gid_attrs/ndevs/0", dev,
			     port);
	if (is_ifname(ret, name))
		return 0;
	name[0] = '\0';
	ret = rdp_sysfs_read(fs, name, len, "/sys/class/infiniband/%s/parent",
			     dev);
	if (is_ifname(ret, name))
		return 0;
	name[0] = '\0';
	if (rdp_sysfs_list(fs, names, 4, &n,
			   "/sys/class/infiniband/%s/device/net", dev) ||
	    !n || strlen(names[0]) >= len || strlen(names[0]) >= IFNAMSIZ)
		return -ENOENT;
	memcpy(name, names[0], strlen(names[0]) + 1);
	return 0;
}

void rdp_ethtool_snapshot(const struct rdp_sysfs *fs, const char *dev, int port,
			  struct rdp_counters *out)
{
	char ifname[64];

	/* A fixture tree has no driver behind its netdev. */
	if (!fs->root[0] &&
	    !rdp_ethtool_netdev(fs, dev, port, ifname, sizeof(ifname)))
		(void)rdp_ethtool_read(ifname, out);
}
