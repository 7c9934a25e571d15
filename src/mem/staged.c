/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Staged memory (--bounce): the NIC moves ordinary registered host
 * buffers while the data lives on a GPU; copies go to that GPU. The
 * per-message copies themselves are the test's (bench/stage.c). The
 * device's copies are its row's (m->data_ops), whichever type it is.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <rdmaperf/mem.h>

static struct rdp_mem *gpu_of(struct rdp_mem *m)
{
	return m->state;
}

static int staged_open(struct rdp_mem *m, const char *spec, const char *nic,
		       char *err, size_t len)
{
	struct rdp_mem *gpu;
	int ret;

	gpu = calloc(1, sizeof(*gpu));
	if (!gpu)
		return -ENOMEM;
	/* The data's memory is a row of the table, the first by default. */
	gpu->ops = m->data_ops ? m->data_ops : rdp_mem_types()[0];
	ret = gpu->ops->open(gpu, spec, nic, err, len);
	if (ret) {
		free(gpu);
		return ret;
	}
	m->state = gpu;
	snprintf(m->desc, sizeof(m->desc), "%s", gpu->desc);
	snprintf(m->why, sizeof(m->why), "%s", gpu->why);
	snprintf(m->bus_id, sizeof(m->bus_id), "%s", gpu->bus_id);
	return 0;
}

static void staged_close(struct rdp_mem *m)
{
	struct rdp_mem *gpu = gpu_of(m);

	if (!gpu)
		return;
	gpu->ops->close(gpu);
	free(gpu);
	m->state = NULL;
}

/* The NIC's side of staged memory is host memory. */
static int staged_alloc(struct rdp_mem *m, size_t bytes, int numa_node,
			void **out)
{
	return rdp_mem_host.alloc(m, bytes, numa_node, out);
}

static void staged_free(struct rdp_mem *m, void *ptr, size_t bytes)
{
	rdp_mem_host.free(m, ptr, bytes);
}

static int staged_wipe(struct rdp_mem *m, void *ptr, size_t bytes)
{
	return rdp_mem_host.wipe(m, ptr, bytes);
}

static int staged_reg(struct rdp_mem *m, struct ibv_pd *pd, void *ptr,
		      size_t bytes, int access, const char *nic,
		      struct ibv_mr **out, enum rdp_mem_path *path, char *note,
		      size_t note_len)
{
	return rdp_mem_host.reg(m, pd, ptr, bytes, access, nic, out, path, note,
				note_len);
}

/* Copies and page-locking are the GPU's, where the data lives. */
static int staged_to_dev(struct rdp_mem *m, void *dst, const void *src,
			 size_t bytes)
{
	return gpu_of(m)->ops->to_dev(gpu_of(m), dst, src, bytes);
}

static int staged_to_host(struct rdp_mem *m, void *dst, const void *src,
			  size_t bytes)
{
	return gpu_of(m)->ops->to_host(gpu_of(m), dst, src, bytes);
}

static int staged_host_pin(struct rdp_mem *m, void *ptr, size_t bytes,
			   char *why, size_t len)
{
	return gpu_of(m)->ops->host_pin(gpu_of(m), ptr, bytes, why, len);
}

static void staged_host_unpin(struct rdp_mem *m, void *ptr)
{
	gpu_of(m)->ops->host_unpin(gpu_of(m), ptr);
}

const struct rdp_mem_ops rdp_mem_staged = {
	.name = "staged",
	.kind = RDP_MEM_KIND_GPU_STAGED,
	.cpu_readable = 1,
	.open = staged_open,
	.close = staged_close,
	.alloc = staged_alloc,
	.free = staged_free,
	.wipe = staged_wipe,
	.reg = staged_reg,
	.to_dev = staged_to_dev,
	.to_host = staged_to_host,
	.host_pin = staged_host_pin,
	.host_unpin = staged_host_unpin,
};

struct rdp_mem *rdp_mem_data(struct rdp_mem *m)
{
	return m->ops == &rdp_mem_staged ? gpu_of(m) : m;
}
