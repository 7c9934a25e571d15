/* SPDX-License-Identifier: BSD-2-Clause */
/* Memory types for benchmark buffers, one const ops table each. */
#ifndef RDMAPERF_MEM_H
#define RDMAPERF_MEM_H

#include <stddef.h>

struct rdp_mem_ops {
	const char *name;
	/* Page-aligned, zeroed; numa_node < 0: no preference. */
	int (*alloc)(size_t bytes, int numa_node, void **out);
	void (*free)(void *ptr, size_t bytes);
};

extern const struct rdp_mem_ops rdp_mem_host;
extern const struct rdp_mem_ops rdp_mem_cuda; /* -ENOSYS when not built */

#endif /* RDMAPERF_MEM_H */
