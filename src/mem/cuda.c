/* SPDX-License-Identifier: BSD-2-Clause */
/* GPU memory buffers; without CUDA support in the build, every call fails
 * with -ENOSYS so callers can say so. */
#include <errno.h>

#include <rdmaperf/mem.h>

static int cuda_alloc(size_t bytes, int numa_node, void **out)
{
	(void)bytes;
	(void)numa_node;
	(void)out;
	return -ENOSYS;
}

static void cuda_free(void *ptr, size_t bytes)
{
	(void)ptr;
	(void)bytes;
}

const struct rdp_mem_ops rdp_mem_cuda = {
	.name = "cuda",
	.alloc = cuda_alloc,
	.free = cuda_free,
};
