/* SPDX-License-Identifier: BSD-2-Clause */
/* Host memory: page-aligned anonymous mappings, optionally on a NUMA node. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/mman.h>
#include <sys/resource.h>
#include <infiniband/verbs.h>
#include <numa.h>
#include <numaif.h>

#include <rdmaperf/log.h>
#include <rdmaperf/mem.h>

static int host_open(struct rdp_mem *m, const char *spec, const char *nic,
		     char *err, size_t len)
{
	(void)spec;
	(void)nic;
	(void)err;
	(void)len;
	snprintf(m->desc, sizeof(m->desc), "host");
	return 0;
}

static void host_close(struct rdp_mem *m)
{
	(void)m;
}

#define HUGE_PAGE_BYTES (2ul << 20)

/* What a mapping of bytes takes: whole huge pages with --use_hugepages. */
static size_t mapped_bytes(const struct rdp_mem *m, size_t bytes)
{
	return m->hugepages
		       ? (bytes + HUGE_PAGE_BYTES - 1) & ~(HUGE_PAGE_BYTES - 1)
		       : bytes;
}

static void *map_huge(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_HUGE_2MB,
		       -1, 0);

	if (p == MAP_FAILED)
		rdp_err("--use_hugepages: no %zu MiB of free 2 MiB huge pages "
			"(%s): reserve them first, e.g. sysctl "
			"vm.nr_hugepages=%zu",
			bytes >> 20, strerror(errno),
			bytes / HUGE_PAGE_BYTES + 8);
	return p;
}

static int host_alloc(struct rdp_mem *m, size_t bytes, int numa_node,
		      void **out)
{
	void *p;
	int ret;

	if (!bytes)
		return -EINVAL;
	if (m->hugepages)
		p = map_huge(mapped_bytes(m, bytes));
	else
		p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED && m->hugepages)
		return -ENOMEM;
	if (p == MAP_FAILED) {
		ret = -errno;
		rdp_err("allocate %zu bytes of host memory: %s", bytes,
			strerror(-ret));
		return ret;
	}
	if (numa_node >= 0 && numa_available() >= 0) {
		unsigned long mask = 1ul << numa_node;

		/* Best effort: a failed bind still leaves usable memory. */
		if (numa_node < (int)(8 * sizeof(mask)))
			mbind(p, bytes, MPOL_PREFERRED, &mask, 8 * sizeof(mask),
			      0);
	}
	*out = p;
	return 0;
}

static void host_free(struct rdp_mem *m, void *ptr, size_t bytes)
{
	if (ptr)
		munmap(ptr, mapped_bytes(m, bytes));
}

/* explicit_bzero: a memset the compiler may not drop as a dead store to
 * memory that is about to be unmapped. */
static int host_wipe(struct rdp_mem *m, void *ptr, size_t bytes)
{
	(void)m;
	explicit_bzero(ptr, bytes);
	return 0;
}

static void memlock_hint(char *buf, size_t len)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_MEMLOCK, &rl) || rl.rlim_cur == RLIM_INFINITY)
		snprintf(buf, len, "unlimited");
	else
		snprintf(buf, len, "%llu KiB",
			 (unsigned long long)rl.rlim_cur / 1024);
}

static int host_reg(struct rdp_mem *m, struct ibv_pd *pd, void *ptr,
		    size_t bytes, int access, const char *nic,
		    struct ibv_mr **out, enum rdp_mem_path *path, char *note,
		    size_t note_len)
{
	struct ibv_mr *mr;
	char lim[32];
	int ret;

	(void)m;
	(void)note_len;
	mr = ibv_reg_mr(pd, ptr, bytes, access);
	if (mr) {
		*out = mr;
		*path = RDP_MEM_PATH_HOST;
		note[0] = '\0';
		return 0;
	}
	ret = errno ? -errno : -ENOMEM;
	memlock_hint(lim, sizeof(lim));
	if (ret == -ENOMEM || ret == -EPERM || ret == -EAGAIN)
		rdp_err("register %zu bytes on %s: %s; the locked-memory "
			"limit is %s: raise it (ulimit -l unlimited, "
			"LimitMEMLOCK= for services, IPC_LOCK in containers)",
			bytes, nic, strerror(-ret), lim);
	else
		rdp_err("register %zu bytes on %s: %s", bytes, nic,
			strerror(-ret));
	return ret;
}

/* Host "device" memory is the host buffer itself: copies are memcpy. */
static int host_copy(struct rdp_mem *m, void *dst, const void *src,
		     size_t bytes)
{
	(void)m;
	memcpy(dst, src, bytes);
	return 0;
}

static int host_pin(struct rdp_mem *m, void *ptr, size_t bytes, char *why,
		    size_t len)
{
	(void)m;
	(void)ptr;
	(void)bytes;
	(void)why;
	(void)len;
	return 0; /* nothing to copy by DMA */
}

static void host_unpin(struct rdp_mem *m, void *ptr)
{
	(void)m;
	(void)ptr;
}

const struct rdp_mem_ops rdp_mem_host = {
	.name = "host",
	.kind = RDP_MEM_KIND_HOST,
	.cpu_readable = 1,
	.host_pages = 1,
	.open = host_open,
	.close = host_close,
	.alloc = host_alloc,
	.free = host_free,
	.wipe = host_wipe,
	.reg = host_reg,
	.to_dev = host_copy,
	.to_host = host_copy,
	.host_pin = host_pin,
	.host_unpin = host_unpin,
};
