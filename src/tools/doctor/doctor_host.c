/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The host side of `rdmaperf doctor`: link rate against the PCIe slot,
 * PCIe training, NUMA locality, memlock, CPU governor, rdma_cm, and the
 * GID the tests would use.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>

#include <rdmaperf/placement.h>
#include <rdmaperf/sysfs.h>

#include "doctor_checks.h"

#define IBDEV "/sys/class/infiniband/%s"
#define PORT  IBDEV "/ports/%d"

struct pcie {
	char cur_speed[48], max_speed[48];
	uint64_t cur_width, max_width;
};

static int read_pcie(const struct rdp_sysfs *fs, const char *dev,
		     struct pcie *p)
{
	return rdp_sysfs_read(fs, p->cur_speed, sizeof(p->cur_speed),
			      IBDEV "/device/current_link_speed", dev) ||
	       rdp_sysfs_read(fs, p->max_speed, sizeof(p->max_speed),
			      IBDEV "/device/max_link_speed", dev) ||
	       rdp_sysfs_read_u64(fs, &p->cur_width,
				  IBDEV "/device/current_link_width", dev) ||
	       rdp_sysfs_read_u64(fs, &p->max_width,
				  IBDEV "/device/max_link_width", dev);
}

/* Usable Gb/s of a PCIe link: GT/s per lane less the line coding. */
static double pcie_gbps(const char *speed, uint64_t width)
{
	double gt = strtod(speed, NULL);

	if (gt <= 0)
		return 0;
	if (gt < 8)
		return gt * 0.8 * (double)width; /* 8b/10b */
	if (gt < 64)
		return gt * 128 / 130 * (double)width;
	return gt * 242 / 256 * (double)width; /* FLIT mode */
}

void rdp_doctor_check_rate(const struct rdp_sysfs *fs, struct rdp_doctor *doc)
{
	struct rdp_check *c;
	char rate[64];
	struct pcie p;
	double gbps, slot = 0;

	if (rdp_sysfs_read(fs, rate, sizeof(rate), PORT "/rate", doc->dev,
			   doc->port)) {
		c = rdp_doctor_add(doc, "link_rate", "Link rate", RDP_SKIP);
		if (c)
			rdp_doctor_say(c->value, sizeof(c->value),
				       "not reported by the driver");
		return;
	}
	gbps = strtod(rate, NULL);
	if (!read_pcie(fs, doc->dev, &p))
		slot = pcie_gbps(p.cur_speed, p.cur_width);
	c = rdp_doctor_add(doc, "link_rate", "Link rate", RDP_PASS);
	if (!c)
		return;
	/* sysfs has the active rate only; the maximum is the datasheet's.
	 * Its "(1X FDR10)" is how RoCE drivers encode an Ethernet speed in
	 * InfiniBand's codes: an Ethernet port is named in Ethernet terms. */
	if (doc->link_eth && gbps > 0)
		rdp_doctor_say(c->value, sizeof(c->value), "%g Gb/s Ethernet",
			       gbps);
	else
		rdp_doctor_say(c->value, sizeof(c->value), "%s", rate);
	if (slot > 0 && slot < gbps) {
		c->verdict = RDP_WARN;
		rdp_doctor_say(c->fix, sizeof(c->fix),
			       "the PCIe link carries about %.0f Gb/s, less "
			       "than the port's %.0f Gb/s: see the PCIe "
			       "check",
			       slot, gbps);
	} else if (!doc->link_eth && strstr(rate, "(1X ")) {
		c->verdict = RDP_WARN;
		rdp_doctor_say(c->fix, sizeof(c->fix),
			       "one lane of the cable trained: reseat or "
			       "replace the cable, check `ibstat` on the "
			       "switch side");
	}
}

/* "16.0 GT/s PCIe" is shown without the trailing bus name. */
static int speed_len(const char *speed)
{
	const char *bus = strstr(speed, " PCIe");

	return (int)(bus ? (size_t)(bus - speed) : strlen(speed));
}

void rdp_doctor_check_pcie(const struct rdp_sysfs *fs, struct rdp_doctor *doc)
{
	struct rdp_check *c;
	struct pcie p;
	int down;

	if (read_pcie(fs, doc->dev, &p)) {
		c = rdp_doctor_add(doc, "pcie_link", "PCIe link", RDP_SKIP);
		if (c)
			rdp_doctor_say(c->value, sizeof(c->value),
				       "no PCIe link attributes for %s (a "
				       "software device, or not on PCIe)",
				       doc->dev);
		return;
	}
	down = p.cur_width < p.max_width ||
	       strtod(p.cur_speed, NULL) < strtod(p.max_speed, NULL);
	c = rdp_doctor_add(doc, "pcie_link", "PCIe link",
			   down ? RDP_WARN : RDP_PASS);
	if (!c)
		return;
	rdp_doctor_say(c->value, sizeof(c->value),
		       "%.*s x%llu (about %.0f Gb/s), capable of %.*s x%llu "
		       "(about %.0f Gb/s)",
		       speed_len(p.cur_speed), p.cur_speed,
		       (unsigned long long)p.cur_width,
		       pcie_gbps(p.cur_speed, p.cur_width),
		       speed_len(p.max_speed), p.max_speed,
		       (unsigned long long)p.max_width,
		       pcie_gbps(p.max_speed, p.max_width));
	if (down)
		rdp_doctor_say(c->fix, sizeof(c->fix),
			       "the link trained below the card: move it to "
			       "a x%llu slot of its generation, check the "
			       "BIOS slot settings and compare LnkSta with "
			       "LnkCap in `lspci -vv`",
			       (unsigned long long)p.max_width);
}

static int count_nodes(const struct rdp_sysfs *fs)
{
	cpu_set_t nodes;
	char buf[256];

	if (rdp_sysfs_read(fs, buf, sizeof(buf),
			   "/sys/devices/system/node/online") ||
	    rdp_cpulist_parse(buf, &nodes))
		return 1;
	return CPU_COUNT(&nodes);
}

void rdp_doctor_check_numa(const struct rdp_sysfs *fs, struct rdp_doctor *doc)
{
	int nodes = count_nodes(fs);
	struct rdp_check *c;
	char node[32];

	if (rdp_sysfs_read(fs, node, sizeof(node), IBDEV "/device/numa_node",
			   doc->dev)) {
		c = rdp_doctor_add(doc, "numa", "NUMA node", RDP_SKIP);
		if (c)
			rdp_doctor_say(c->value, sizeof(c->value),
				       "%s has no device node in sysfs (a "
				       "software device); %d node(s) here",
				       doc->dev, nodes);
		return;
	}
	doc->numa_node = atoi(node);
	if (rdp_sysfs_read(fs, doc->local_cpus, sizeof(doc->local_cpus),
			   IBDEV "/device/local_cpulist", doc->dev))
		doc->local_cpus[0] = '\0';
	c = rdp_doctor_add(doc, "numa", "NUMA node",
			   doc->numa_node < 0 && nodes > 1 ? RDP_WARN
							   : RDP_PASS);
	if (!c)
		return;
	if (doc->numa_node < 0)
		rdp_doctor_say(c->value, sizeof(c->value),
			       "unknown (the device reports none; %d node(s) "
			       "here)",
			       nodes);
	else
		rdp_doctor_say(
			c->value, sizeof(c->value),
			"node %d of %d, local CPUs %s", doc->numa_node, nodes,
			doc->local_cpus[0] ? doc->local_cpus : "unknown");
	rdp_doctor_fix(c, RDP_WARN,
		       "the firmware gives no NUMA node for this "
		       "slot: find the socket in the board's manual "
		       "and pass --numa NODE");
}

/* CAP_IPC_LOCK (bit 14) lets a process lock memory past the limit. */
static int has_ipc_lock(const struct rdp_sysfs *fs)
{
	char st[4096], *p;

	if (rdp_sysfs_read(fs, st, sizeof(st), "/proc/self/status"))
		return 0;
	p = strstr(st, "CapEff:");
	return p && (strtoull(p + 7, NULL, 16) >> 14) & 1;
}

void rdp_doctor_check_memlock(const struct rdp_sysfs *fs,
			      struct rdp_doctor *doc)
{
	char lim[4096], soft[32] = "", *p;
	unsigned long long bytes;
	struct rdp_check *c;
	int cap = has_ipc_lock(fs);

	if (!rdp_sysfs_read(fs, lim, sizeof(lim), "/proc/self/limits") &&
	    (p = strstr(lim, "Max locked memory")))
		sscanf(p + 17, "%31s", soft);
	if (!soft[0]) {
		c = rdp_doctor_add(doc, "memlock", "Locked memory", RDP_SKIP);
		if (c)
			rdp_doctor_say(c->value, sizeof(c->value),
				       "/proc/self/limits is unreadable");
		return;
	}
	bytes = strcmp(soft, "unlimited") ? strtoull(soft, NULL, 10) : 0;
	c = rdp_doctor_add(doc, "memlock", "Locked memory",
			   !bytes || cap || bytes >= (1ull << 30) ? RDP_PASS
								  : RDP_WARN);
	if (!c)
		return;
	if (!bytes)
		rdp_doctor_say(c->value, sizeof(c->value), "unlimited");
	else
		rdp_doctor_say(c->value, sizeof(c->value), "%llu KiB%s",
			       bytes >> 10,
			       cap ? ", lifted by CAP_IPC_LOCK" : "");
	rdp_doctor_fix(c, RDP_WARN,
		       "registering larger buffers fails: raise it "
		       "(ulimit -l unlimited, memlock in "
		       "/etc/security/limits.conf, or LimitMEMLOCK= "
		       "for a service)");
}

void rdp_doctor_check_governor(const struct rdp_sysfs *fs,
			       struct rdp_doctor *doc)
{
	struct rdp_check *c;
	cpu_set_t set;
	char gov[64];
	int cpu = 0;

	if (doc->local_cpus[0] && !rdp_cpulist_parse(doc->local_cpus, &set))
		cpu = rdp_cpulist_first(&set);
	if (rdp_sysfs_read(fs, gov, sizeof(gov),
			   "/sys/devices/system/cpu/cpu%d/cpufreq/"
			   "scaling_governor",
			   cpu)) {
		c = rdp_doctor_add(doc, "governor", "CPU governor", RDP_SKIP);
		if (c)
			rdp_doctor_say(c->value, sizeof(c->value),
				       "no cpufreq for CPU %d (fixed clock, "
				       "or a virtual machine)",
				       cpu);
		return;
	}
	c = rdp_doctor_add(doc, "governor", "CPU governor",
			   strcmp(gov, "performance") ? RDP_WARN : RDP_PASS);
	if (!c)
		return;
	rdp_doctor_say(c->value, sizeof(c->value), "%s on CPU %d", gov, cpu);
	rdp_doctor_fix(c, RDP_WARN,
		       "clocks drop between polls and latency "
		       "varies: cpupower frequency-set -g "
		       "performance");
}

void rdp_doctor_check_rdma_cm(const struct rdp_sysfs *fs,
			      struct rdp_doctor *doc)
{
	int ok = rdp_sysfs_exists(fs, "/sys/class/misc/rdma_cm");
	struct rdp_check *c;

	c = rdp_doctor_add(doc, "rdma_cm", "RDMA CM", ok ? RDP_PASS : RDP_WARN);
	if (!c)
		return;
	rdp_doctor_say(c->value, sizeof(c->value), "%s",
		       ok ? "rdma_ucm loaded (/dev/infiniband/rdma_cm)"
			  : "rdma_ucm is not loaded");
	if (!ok)
		rdp_doctor_say(c->fix, sizeof(c->fix),
			       "modprobe rdma_ucm: connecting through RDMA "
			       "CM needs it");
}

static int is_link_local(const uint8_t raw[16])
{
	return raw[0] == 0xfe && (raw[1] & 0xc0) == 0x80;
}

static void gid_fix(struct rdp_doctor *doc, struct rdp_check *c,
		    const struct rdp_gid_entry *g)
{
	if (!doc->n_gids)
		rdp_doctor_say(c->fix, sizeof(c->fix),
			       doc->link_eth
				       ? "the port has no GID: give its netdev "
					 "%s an IP address"
				       : "the port has no GID: is the port "
					 "configured by a subnet manager?%s",
			       doc->link_eth ? doc->netdev : "");
	else if (g->type == RDP_GID_ROCE_V1)
		rdp_doctor_say(c->fix, sizeof(c->fix),
			       "only RoCE v1 GIDs, which do not cross an IP "
			       "router and which v2 peers cannot reach: "
			       "enable RoCE v2 (cma_roce_mode -d %s -p %d "
			       "-m 2; mlx4: roce_mode=2) and check that %s "
			       "has an IP address",
			       doc->dev, doc->port, doc->netdev);
	else
		rdp_doctor_say(c->fix, sizeof(c->fix),
			       "only a link-local GID: traffic stays within "
			       "one L2 segment; give %s an IPv4 or IPv6 "
			       "address",
			       doc->netdev);
}

void rdp_doctor_check_gids(struct rdp_doctor *doc,
			   const struct in_addr *local_ipv4)
{
	struct rdp_gid_choice ch;
	const struct rdp_gid_entry *g = NULL;
	enum rdp_verdict v = RDP_FAIL;
	struct rdp_check *c;
	struct rdp_ip local;
	char text[64];
	size_t i;

	if (local_ipv4)
		rdp_ip_from_ipv4(local_ipv4, &local);
	if (doc->n_gids &&
	    !rdp_gid_select(doc->gids, doc->n_gids, local_ipv4 ? &local : NULL,
			    -1, &ch)) {
		for (i = 0; i < doc->n_gids; i++)
			if (doc->gids[i].index == ch.entry.index)
				doc->chosen_gid = (int)i;
		g = &doc->gids[doc->chosen_gid];
		v = !doc->link_eth		 ? RDP_PASS
		    : g->type != RDP_GID_ROCE_V2 ? RDP_FAIL
		    : is_link_local(g->raw)	 ? RDP_WARN
						 : RDP_PASS;
	}
	c = rdp_doctor_add(doc, "gid", "GID", v);
	if (!c)
		return;
	if (!g) {
		rdp_doctor_say(c->value, sizeof(c->value), "no valid GID");
	} else {
		rdp_gid_format(g->raw, text, sizeof(text));
		rdp_doctor_say(c->value, sizeof(c->value),
			       "index %d, %s %s (%s), %zu in the table",
			       g->index, rdp_gid_type_str(g->type), text,
			       rdp_gid_reason_str(ch.reason), doc->n_gids);
	}
	if (v != RDP_PASS)
		gid_fix(doc, c, g);
}
