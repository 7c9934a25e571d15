/* SPDX-License-Identifier: BSD-2-Clause */
/* What every memory type shares: opening one through its ops table, and
 * buffers registered with the NIC, with a host copy for device memory. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <infiniband/verbs.h>

#include <rdmaperf/log.h>
#include <rdmaperf/mem.h>

int rdp_mem_relaxed_supported(void)
{
#if HAVE_DECL_IBV_ACCESS_RELAXED_ORDERING
	return 1;
#else
	return 0;
#endif
}

int rdp_mem_access_extra(const struct rdp_mem *m)
{
#if HAVE_DECL_IBV_ACCESS_RELAXED_ORDERING
	return m->relaxed ? IBV_ACCESS_RELAXED_ORDERING : 0;
#else
	(void)m;
	return 0;
#endif
}

const char *rdp_mem_path_str(enum rdp_mem_path path)
{
	switch (path) {
	case RDP_MEM_PATH_DMABUF:
		return "DMA-BUF";
	case RDP_MEM_PATH_PEERMEM:
		return "peer memory";
	case RDP_MEM_PATH_HOST:
	default:
		return "host";
	}
}

const char *rdp_mem_path_id(enum rdp_mem_path path)
{
	switch (path) {
	case RDP_MEM_PATH_DMABUF:
		return "dmabuf";
	case RDP_MEM_PATH_PEERMEM:
		return "peermem";
	case RDP_MEM_PATH_HOST:
	default:
		return "host";
	}
}

static int mem_open(const struct rdp_mem_ops *ops,
		    const struct rdp_mem_ops *data, const char *spec,
		    const char *nic, struct rdp_mem **out)
{
	char err[512];
	struct rdp_mem *m;
	int ret;

	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->ops = ops;
	m->data_ops = data;
	ret = m->ops->open(m, spec, nic, err, sizeof(err));
	if (ret) {
		rdp_err("%s", err);
		free(m);
		return ret;
	}
	*out = m;
	return 0;
}

int rdp_mem_open(const struct rdp_mem_ops *ops, const char *spec,
		 const char *nic, struct rdp_mem **out)
{
	return mem_open(ops, NULL, spec, nic, out);
}

int rdp_mem_open_staged(const struct rdp_mem_ops *data, const char *spec,
			const char *nic, struct rdp_mem **out)
{
	return mem_open(&rdp_mem_staged, data, spec, nic, out);
}

void rdp_mem_close(struct rdp_mem *m)
{
	if (!m)
		return;
	m->ops->close(m);
	free(m);
}

/* The CPU fills and checks device memory through a host copy. */
static int map_host_copy(struct rdp_mem_buf *b)
{
	void *p;
	int ret;

	if (b->mem->ops->cpu_readable) {
		b->host = b->ptr;
		return 0;
	}
	p = mmap(NULL, b->bytes, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		ret = -errno;
		rdp_err("allocate a %zu-byte host copy of the GPU buffer: %s",
			b->bytes, strerror(-ret));
		return ret;
	}
	b->host = p;
	return 0;
}

int rdp_mem_buf_create(struct rdp_mem *m, struct ibv_pd *pd, size_t bytes,
		       int numa_node, int access, const char *nic,
		       struct rdp_mem_buf **out)
{
	struct rdp_mem_buf *b;
	int ret;

	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	b->mem = m;
	b->bytes = bytes;
	ret = m->ops->alloc(m, bytes, numa_node, &b->ptr);
	if (ret)
		goto err_destroy;
	ret = map_host_copy(b);
	if (ret)
		goto err_destroy;
	ret = m->ops->reg(m, pd, b->ptr, bytes, access, nic, &b->mr, &b->path,
			  b->note, sizeof(b->note));
	if (ret)
		goto err_destroy;
	b->access = access;
	*out = b;
	return 0;

err_destroy:
	rdp_mem_buf_destroy(b);
	return ret;
}

/* Deregistered first, so the NIC can no longer write what was zeroed;
 * zeroed before the memory goes back to the system, the driver or the
 * next test. A failed wipe (logged) still frees. */
void rdp_mem_buf_destroy(struct rdp_mem_buf *b)
{
	if (!b)
		return;
	if (b->mr)
		ibv_dereg_mr(b->mr);
	if (b->host && b->host != b->ptr) {
		explicit_bzero(b->host, b->bytes);
		munmap(b->host, b->bytes);
	}
	if (b->ptr) {
		b->mem->ops->wipe(b->mem, b->ptr, b->bytes);
		b->mem->ops->free(b->mem, b->ptr, b->bytes);
	}
	free(b);
}

int rdp_mem_buf_pull(const struct rdp_mem_buf *b)
{
	if (b->host == b->ptr)
		return 0;
	return b->mem->ops->to_host(b->mem, b->host, b->ptr, b->bytes);
}

int rdp_mem_buf_push(const struct rdp_mem_buf *b)
{
	if (b->host == b->ptr)
		return 0;
	return b->mem->ops->to_dev(b->mem, b->ptr, b->host, b->bytes);
}
