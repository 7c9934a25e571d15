/* SPDX-License-Identifier: BSD-2-Clause */
/* Which GPU: --use_cuda values, the GPU nearest the NIC in the PCI tree,
 * and what sysfs says about GPUDirect (modules, IOMMU, BAR1). */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdmaperf/gpu.h>
#include <rdmaperf/sysfs.h>

#include "mem_int.h"

void rdp_gpu_bus_id_norm(const char *in, char *out, size_t len)
{
	unsigned int dom = 0, bus, dev, fn;
	char end;

	if (sscanf(in, "%x:%x:%x.%x%c", &dom, &bus, &dev, &fn, &end) == 4 ||
	    (dom = 0, sscanf(in, "%x:%x.%x%c", &bus, &dev, &fn, &end) == 3))
		snprintf(out, len, "%04x:%02x:%02x.%x", dom, bus, dev, fn);
	else
		snprintf(out, len, "%s", in);
}

static int hex_field(const char *s, size_t n)
{
	size_t i;

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

/* [DOMAIN:]BUS:DEV.FN: 1-4, 1-2, 1-2 hex digits and one octal digit. */
static int is_bus_id(const char *s)
{
	const char *c1 = strchr(s, ':'), *c2, *dot;

	if (!c1)
		return 0;
	c2 = strchr(c1 + 1, ':');
	if (!c2) {
		c2 = c1;
		c1 = NULL;
	}
	dot = strchr(c2 + 1, '.');
	if (!dot || strchr(c2 + 1, ':') || dot - c2 - 1 > 2 ||
	    strlen(dot + 1) != 1 || dot[1] < '0' || dot[1] > '7')
		return 0;
	if (c1 &&
	    (c1 - s > 4 || !hex_field(s, (size_t)(c1 - s)) || c2 - c1 - 1 > 2 ||
	     !hex_field(c1 + 1, (size_t)(c2 - c1 - 1))))
		return 0;
	if (!c1 && (c2 - s > 2 || !hex_field(s, (size_t)(c2 - s))))
		return 0;
	return hex_field(c2 + 1, (size_t)(dot - c2 - 1));
}

int rdp_gpu_spec_parse(const char *s, struct rdp_gpu_spec *out)
{
	char *end;
	long v;

	memset(out, 0, sizeof(*out));
	if (!s || !*s)
		return -EINVAL;
	if (!strcmp(s, "auto")) {
		out->kind = RDP_GPU_AUTO;
		return 0;
	}
	if (strlen(s) < RDP_GPU_SPEC_MAX - 4 && is_bus_id(s)) {
		out->kind = RDP_GPU_BUS_ID;
		rdp_gpu_bus_id_norm(s, out->bus_id, sizeof(out->bus_id));
		return 0;
	}
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < 0 || v >= RDP_GPU_MAX)
		return -EINVAL;
	out->kind = RDP_GPU_INDEX;
	out->index = (int)v;
	return 0;
}

/* Components of a path, for comparing two of them. */
static size_t split(const char *path, char (*parts)[64], size_t cap)
{
	size_t n = 0;
	const char *p = path;

	while (*p && n < cap) {
		size_t k;

		while (*p == '/')
			p++;
		k = strcspn(p, "/");
		if (!k)
			break;
		snprintf(parts[n++], sizeof(parts[0]), "%.*s", (int)k, p);
		p += k;
	}
	return n;
}

int rdp_pci_distance(const char *a, const char *b)
{
	char pa[32][64], pb[32][64];
	size_t na = split(a, pa, 32), nb = split(b, pb, 32), i = 0;
	int root = -1;

	while (i < na && i < nb && !strcmp(pa[i], pb[i])) {
		if (!strncmp(pa[i], "pci", 3))
			root = (int)i;
		i++;
	}
	/* No shared host bridge: the traffic crosses the CPU interconnect. */
	if (root < 0)
		return RDP_PCI_FAR;
	return (int)(na - i) + (int)(nb - i);
}

/* The canonical sysfs path of a device, relative to the sysfs root. */
static int canon(const struct rdp_sysfs *fs, const char *path, char *out,
		 size_t len)
{
	char full[PATH_MAX], real[PATH_MAX];
	size_t rl = strlen(fs->root);

	snprintf(full, sizeof(full), "%s%s", fs->root, path);
	if (!realpath(full, real))
		return -errno;
	/* Strip the fixture root so both paths compare alike. */
	if (rl && !strncmp(real, fs->root, rl))
		snprintf(out, len, "%s", real + rl);
	else
		snprintf(out, len, "%s", real);
	return 0;
}

int rdp_gpu_nearest(const struct rdp_sysfs *fs, const char *nic,
		    const char (*bus_ids)[RDP_GPU_SPEC_MAX], size_t n,
		    char *why, size_t len)
{
	char nic_path[PATH_MAX], gpu_path[PATH_MAX], link[PATH_MAX];
	int best = 0, best_d = INT_MAX, d;
	size_t i;

	snprintf(link, sizeof(link), "/sys/class/infiniband/%s/device", nic);
	if (canon(fs, link, nic_path, sizeof(nic_path))) {
		snprintf(why, len, "%s is not a PCI device: GPU 0", nic);
		return 0;
	}
	for (i = 0; i < n; i++) {
		snprintf(link, sizeof(link), "/sys/bus/pci/devices/%s",
			 bus_ids[i]);
		if (canon(fs, link, gpu_path, sizeof(gpu_path)))
			continue;
		d = rdp_pci_distance(nic_path, gpu_path);
		if (d < best_d) {
			best_d = d;
			best = (int)i;
		}
	}
	if (best_d == INT_MAX)
		snprintf(why, len, "no GPU found in sysfs: GPU 0");
	else if (best_d >= RDP_PCI_FAR)
		snprintf(why, len,
			 "no GPU shares a PCI root with %s: GPU %d, across "
			 "the CPU interconnect",
			 nic, best);
	else
		snprintf(why, len, "nearest to %s, %d PCI hops", nic, best_d);
	return best;
}

/* Resource line 1 is BAR1 on NVIDIA GPUs: "start end flags" in hex. */
static uint64_t bar1_bytes(const struct rdp_sysfs *fs, const char *bus_id)
{
	char buf[1024], *line;
	unsigned long long start, end;

	if (rdp_sysfs_read(fs, buf, sizeof(buf),
			   "/sys/bus/pci/devices/%s/resource", bus_id))
		return 0;
	line = strchr(buf, '\n');
	if (!line || sscanf(line + 1, "%llx %llx", &start, &end) != 2 ||
	    end <= start)
		return 0;
	return end - start + 1;
}

static int iommu_translating(const struct rdp_sysfs *fs)
{
	char names[4][RDP_SYSFS_NAME_MAX], cmdline[4096];
	size_t n = 0;

	if (rdp_sysfs_list(fs, names, 4, &n, "/sys/class/iommu") || !n)
		return 0;
	/* Passthrough leaves host DMA untranslated. */
	if (!rdp_sysfs_read(fs, cmdline, sizeof(cmdline), "/proc/cmdline") &&
	    strstr(cmdline, "iommu=pt"))
		return 0;
	return 1;
}

void rdp_gpu_facts_read(const struct rdp_sysfs *fs, const char *bus_id,
			struct rdp_gpu_facts *f)
{
	memset(f, 0, sizeof(*f));
	f->peermem_loaded =
		rdp_sysfs_exists(fs, "/sys/module/nvidia_peermem") ||
		rdp_sysfs_exists(fs, "/sys/module/nv_peer_mem");
	f->nvidia_loaded = rdp_sysfs_exists(fs, "/sys/module/nvidia");
	f->iommu_on = iommu_translating(fs);
	if (bus_id && *bus_id)
		f->bar1_bytes = bar1_bytes(fs, bus_id);
}
