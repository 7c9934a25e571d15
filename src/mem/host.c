/* SPDX-License-Identifier: BSD-2-Clause */
/* Host memory: page-aligned anonymous mappings, optionally on a NUMA node. */
#include <errno.h>
#include <stdint.h>
#include <sys/mman.h>
#include <numa.h>
#include <numaif.h>

#include <rdmaperf/mem.h>

static int host_alloc(size_t bytes, int numa_node, void **out)
{
	void *p;

	if (!bytes)
		return -EINVAL;
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
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

static void host_free(void *ptr, size_t bytes)
{
	if (ptr)
		munmap(ptr, bytes);
}

const struct rdp_mem_ops rdp_mem_host = {
	.name = "host",
	.alloc = host_alloc,
	.free = host_free,
};
