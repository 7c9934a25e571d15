/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * GPU memory buffers through the CUDA driver API, loaded at run time
 * (cuda_loader.c). Built with the toolkit's headers only to check that the
 * loader's types match them; without CUDA support in the build, open()
 * fails with -ENOSYS so callers can say so.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <infiniband/verbs.h>

#include <rdmaperf/cuda.h>
#include <rdmaperf/gpu.h>
#include <rdmaperf/log.h>
#include <rdmaperf/mem.h>
#include <rdmaperf/sysfs.h>
#include <rdmaperf/topo.h>

#include "mem_int.h"

/* --use_cuda's argument, checked whether or not CUDA is built in. */
static int cuda_check_spec(const char *spec, char *err, size_t len)
{
	struct rdp_gpu_spec parsed;

	if (!rdp_gpu_spec_parse(spec, &parsed))
		return 0;
	snprintf(err, len,
		 "--use_cuda %s: give a GPU number (0..%d), auto, or a PCI bus "
		 "id like 0000:3b:00.0",
		 spec, RDP_GPU_MAX - 1);
	return -EINVAL;
}

#ifdef HAVE_CUDA
#include <cuda.h>

_Static_assert(sizeof(CUdeviceptr) == sizeof(rdp_cu_ptr), "CUdeviceptr");
_Static_assert(sizeof(CUdevice) == sizeof(rdp_cu_device), "CUdevice");
_Static_assert(sizeof(CUresult) == sizeof(rdp_cu_result), "CUresult");
_Static_assert(CUDA_ERROR_NO_DEVICE == RDP_CU_ERROR_NO_DEVICE, "errors");
_Static_assert(CUDA_ERROR_NOT_SUPPORTED == RDP_CU_ERROR_NOT_SUPPORTED,
	       "errors");
_Static_assert(CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED == RDP_CU_ATTR_DMA_BUF,
	       "attribute");
_Static_assert(CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD ==
		       RDP_CU_RANGE_HANDLE_DMA_BUF,
	       "handle type");
_Static_assert(CU_POINTER_ATTRIBUTE_SYNC_MEMOPS == RDP_CU_POINTER_SYNC_MEMOPS,
	       "pointer attribute");

struct cuda_state {
	struct rdp_cuda *cu;
	rdp_cu_device dev;
	rdp_cu_ctx ctx;
	int index;
};

/* One line from a failed call: "cuInit: CUDA_ERROR_... (text)". */
static int cu_fail(struct cuda_state *st, rdp_cu_result r, const char *call,
		   const char *hint, char *err, size_t len)
{
	char text[160];

	snprintf(err, len, "%s: %s%s", call,
		 rdp_cuda_strerror(st->cu, r, text, sizeof(text)), hint);
	return rdp_cuda_errno(r);
}

static int start_driver(struct cuda_state *st, int *count, char *err,
			size_t len)
{
	rdp_cu_result r = st->cu->init(0);
	char text[160];

	if (r == RDP_CU_ERROR_NO_DEVICE) {
		snprintf(err, len,
			 "no GPU: the CUDA driver (%s) sees no device (%s): "
			 "check nvidia-smi, or drop --use_cuda",
			 st->cu->path,
			 rdp_cuda_strerror(st->cu, r, text, sizeof(text)));
		return -ENODEV;
	}
	if (r)
		return cu_fail(st, r, "start the CUDA driver (cuInit)",
			       ": check nvidia-smi and dmesg", err, len);
	r = st->cu->device_count(count);
	if (r)
		return cu_fail(st, r, "count GPUs", "", err, len);
	if (*count <= 0) {
		snprintf(err, len,
			 "no GPU: the CUDA driver sees none: "
			 "check nvidia-smi, or drop --use_cuda");
		return -ENODEV;
	}
	if (*count > RDP_GPU_MAX)
		*count = RDP_GPU_MAX;
	return 0;
}

static void list_gpus(char (*ids)[RDP_GPU_SPEC_MAX], int n, char *buf,
		      size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%d: %s",
					i ? ", " : "", i, ids[i]);
}

/* --use_cuda=auto: hwloc's view first (switch, host bridge, node). */
static int nearest_by_topology(const char *nic, char (*ids)[RDP_GPU_SPEC_MAX],
			       int n, struct rdp_mem *m)
{
	char bus[RDP_GPU_SPEC_MAX];
	enum rdp_topo_dist dist;
	int i;

	if (rdp_topo_nearest_gpu(NULL, nic, bus, sizeof(bus), &dist) ||
	    dist == RDP_DIST_UNKNOWN)
		return -1;
	for (i = 0; i < n; i++) {
		if (!strcasecmp(ids[i], bus)) {
			snprintf(m->why, sizeof(m->why),
				 "nearest to %s in the hwloc topology (%s)",
				 nic, rdp_topo_dist_str(dist));
			return i;
		}
	}
	return -1;
}

/* The GPU the spec names, among n with these bus ids. */
static int choose(const struct rdp_gpu_spec *spec, const char *nic,
		  char (*ids)[RDP_GPU_SPEC_MAX], int n, struct rdp_mem *m,
		  char *err, size_t len)
{
	char list[256];
	struct rdp_sysfs fs;
	int i;

	list_gpus(ids, n, list, sizeof(list));
	if (spec->kind == RDP_GPU_AUTO) {
		i = nearest_by_topology(nic, ids, n, m);
		if (i >= 0)
			return i;
		rdp_sysfs_init(&fs, NULL);
		return rdp_gpu_nearest(&fs, nic,
				       (const char(*)[RDP_GPU_SPEC_MAX])ids,
				       (size_t)n, m->why, sizeof(m->why));
	}
	if (spec->kind == RDP_GPU_INDEX && spec->index < n) {
		snprintf(m->why, sizeof(m->why), "as asked");
		return spec->index;
	}
	for (i = 0; spec->kind == RDP_GPU_BUS_ID && i < n; i++) {
		if (!strcmp(ids[i], spec->bus_id)) {
			snprintf(m->why, sizeof(m->why), "as asked");
			return i;
		}
	}
	if (spec->kind == RDP_GPU_INDEX)
		snprintf(err, len, "--use_cuda: no GPU %d; present: %s",
			 spec->index, list);
	else
		snprintf(err, len, "--use_cuda: no GPU at %s; present: %s",
			 spec->bus_id, list);
	return -ENODEV;
}

static int open_gpu(struct cuda_state *st, struct rdp_mem *m,
		    const struct rdp_gpu_spec *spec, const char *nic, char *err,
		    size_t len)
{
	char ids[RDP_GPU_MAX][RDP_GPU_SPEC_MAX], raw[RDP_GPU_SPEC_MAX];
	char name[96];
	rdp_cu_result r;
	int i, n, ret;

	ret = start_driver(st, &n, err, len);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		r = st->cu->device_get(&st->dev, i);
		if (!r)
			r = st->cu->device_bus_id(raw, sizeof(raw), st->dev);
		if (r)
			return cu_fail(st, r, "query GPU", "", err, len);
		rdp_gpu_bus_id_norm(raw, ids[i], sizeof(ids[i]));
	}
	st->index = choose(spec, nic, ids, n, m, err, len);
	if (st->index < 0)
		return st->index;
	r = st->cu->device_get(&st->dev, st->index);
	if (!r)
		r = st->cu->device_name(name, sizeof(name), st->dev);
	if (!r)
		r = st->cu->ctx_retain(&st->ctx, st->dev);
	if (r)
		return cu_fail(st, r, "open GPU", ": check nvidia-smi", err,
			       len);
	snprintf(m->bus_id, sizeof(m->bus_id), "%s", ids[st->index]);
	snprintf(m->desc, sizeof(m->desc), "GPU %d %s (%s)", st->index, name,
		 ids[st->index]);
	return 0;
}

static void cuda_close(struct rdp_mem *m)
{
	struct cuda_state *st = m ? m->state : NULL;

	if (!st)
		return;
	if (st->ctx)
		st->cu->ctx_release(st->dev);
	rdp_cuda_unload(st->cu);
	free(st);
	m->state = NULL;
}

static int cuda_open(struct rdp_mem *m, const char *spec_text, const char *nic,
		     char *err, size_t len)
{
	struct rdp_gpu_spec spec;
	struct cuda_state *st;
	int ret;

	if (rdp_gpu_spec_parse(spec_text, &spec)) {
		snprintf(err, len,
			 "--use_cuda %s: give a GPU number, auto or a PCI "
			 "bus id",
			 spec_text);
		return -EINVAL;
	}
	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	m->state = st;
	ret = rdp_cuda_load(NULL, &st->cu, err, len);
	/* No driver is no GPU to this program: unsupported here (exit 77). */
	if (ret == -ENOENT)
		ret = -ENODEV;
	if (!ret)
		ret = open_gpu(st, m, &spec, nic, err, len);
	if (ret)
		cuda_close(m);
	return ret;
}

static int set_ctx(struct cuda_state *st)
{
	/* The context is per thread: the server may serve from another. */
	rdp_cu_result r = st->cu->ctx_set_current(st->ctx);

	if (r)
		rdp_err("make GPU %d current: %s", st->index,
			rdp_cuda_strerror(st->cu, r, (char[160]){ 0 }, 160));
	return rdp_cuda_errno(r);
}

static int cuda_alloc(struct rdp_mem *m, size_t bytes, int numa_node,
		      void **out)
{
	struct cuda_state *st = m->state;
	char text[160];
	rdp_cu_ptr p = 0;
	rdp_cu_result r;
	int one = 1, ret = set_ctx(st);

	(void)numa_node; /* the GPU's memory is where the GPU is */
	if (ret)
		return ret;
	r = st->cu->mem_alloc(&p, bytes);
	if (r) {
		rdp_err("allocate %zu bytes on %s: %s: lower -s or -q", bytes,
			m->desc, rdp_cuda_strerror(st->cu, r, text, 160));
		return rdp_cuda_errno(r);
	}
	/* Copies must not overtake RDMA on this range (GPUDirect rule). */
	r = st->cu->pointer_set_attr(&one, RDP_CU_POINTER_SYNC_MEMOPS, p);
	if (!r)
		r = st->cu->memset_d8(p, 0, bytes);
	if (r) {
		rdp_err("prepare %zu bytes on %s: %s", bytes, m->desc,
			rdp_cuda_strerror(st->cu, r, text, 160));
		st->cu->mem_free(p);
		return rdp_cuda_errno(r);
	}
	*out = (void *)(uintptr_t)p;
	return 0;
}

static void cuda_free(struct rdp_mem *m, void *ptr, size_t bytes)
{
	struct cuda_state *st = m->state;

	(void)bytes;
	if (ptr && !set_ctx(st))
		st->cu->mem_free((rdp_cu_ptr)(uintptr_t)ptr);
}

/* The CPU cannot reach GPU memory: the driver's memset zeroes it, on the
 * default stream, ahead of the cuMemFree that follows and waits for it. */
static int cuda_wipe(struct rdp_mem *m, void *ptr, size_t bytes)
{
	struct cuda_state *st = m->state;
	rdp_cu_result r;
	int ret = set_ctx(st);

	if (ret)
		return ret;
	r = st->cu->memset_d8((rdp_cu_ptr)(uintptr_t)ptr, 0, bytes);
	if (r)
		rdp_err("zero %zu bytes on %s before freeing them: %s", bytes,
			m->desc,
			rdp_cuda_strerror(st->cu, r, (char[160]){ 0 }, 160));
	return rdp_cuda_errno(r);
}

static int export_dmabuf(void *ctx, void *ptr, size_t bytes, int *fd,
			 char *text, size_t len)
{
	struct cuda_state *st = ctx;
	rdp_cu_result r;

	if (!st->cu->mem_get_handle) {
		snprintf(text, len,
			 "cuMemGetHandleForAddressRange missing: "
			 "driver older than CUDA 11.7");
		return -EOPNOTSUPP;
	}
	r = st->cu->mem_get_handle(fd, (rdp_cu_ptr)(uintptr_t)ptr, bytes,
				   RDP_CU_RANGE_HANDLE_DMA_BUF, 0);
	if (r)
		rdp_cuda_strerror(st->cu, r, text, len);
	return rdp_cuda_errno(r);
}

static int cuda_reg(struct rdp_mem *m, struct ibv_pd *pd, void *ptr,
		    size_t bytes, int access, const char *nic,
		    struct ibv_mr **out, enum rdp_mem_path *path, char *note,
		    size_t note_len)
{
	const struct rdp_gpu_reg_ops ops = {
		.ctx = m->state,
		.export_dmabuf = export_dmabuf,
		.reg_dmabuf = ibv_reg_dmabuf_mr,
		.reg_mr = ibv_reg_mr,
	};
	struct rdp_gpu_reg_log log;
	struct rdp_gpu_facts facts;
	struct rdp_sysfs fs;
	char why[700];
	int ret;

	ret = rdp_gpu_register(&ops, pd, ptr, bytes, access, out, path, &log);
	if (!ret) {
		if (*path == RDP_MEM_PATH_PEERMEM)
			rdp_gpu_dmabuf_note(&log, nic, note, note_len);
		return 0;
	}
	rdp_sysfs_init(&fs, NULL);
	rdp_gpu_facts_read(&fs, m->bus_id, &facts);
	rdp_gpu_diagnose(&log, &facts, nic, bytes, why, sizeof(why));
	rdp_err("register %zu bytes of %s memory on %s: %s", bytes, m->desc,
		nic, why);
	return ret;
}

/* Both directions of a staging copy: the same context, check and message. */
static int copy(struct rdp_mem *m, void *dst, const void *src, size_t bytes,
		int to_dev)
{
	struct cuda_state *st = m->state;
	rdp_cu_result r;
	int ret = set_ctx(st);

	if (ret)
		return ret;
	if (to_dev)
		r = st->cu->copy_htod((rdp_cu_ptr)(uintptr_t)dst, src, bytes);
	else
		r = st->cu->copy_dtoh(dst, (rdp_cu_ptr)(uintptr_t)src, bytes);
	if (r)
		rdp_err("copy %zu bytes %s %s: %s", bytes,
			to_dev ? "to" : "from", m->desc,
			rdp_cuda_strerror(st->cu, r, (char[160]){ 0 }, 160));
	return rdp_cuda_errno(r);
}

static int cuda_to_dev(struct rdp_mem *m, void *dst, const void *src,
		       size_t bytes)
{
	return copy(m, dst, src, bytes, 1);
}

static int cuda_to_host(struct rdp_mem *m, void *dst, const void *src,
			size_t bytes)
{
	return copy(m, dst, src, bytes, 0);
}

/* A staging buffer the driver knows is page-locked is copied by DMA;
 * otherwise each copy goes through the driver's own bounce buffer. */
static int cuda_host_pin(struct rdp_mem *m, void *ptr, size_t bytes, char *why,
			 size_t len)
{
	struct cuda_state *st = m->state;
	rdp_cu_result r;
	int ret = set_ctx(st);

	if (ret)
		return ret;
	if (!st->cu->host_register || !st->cu->host_unregister) {
		snprintf(why, len, "the driver lacks cuMemHostRegister");
		return -EOPNOTSUPP;
	}
	r = st->cu->host_register(ptr, bytes, 0);
	if (r)
		rdp_cuda_strerror(st->cu, r, why, len);
	return rdp_cuda_errno(r);
}

static void cuda_host_unpin(struct rdp_mem *m, void *ptr)
{
	struct cuda_state *st = m->state;

	if (ptr && !set_ctx(st))
		st->cu->host_unregister(ptr);
}

#else /* !HAVE_CUDA */

static int cuda_open(struct rdp_mem *m, const char *spec, const char *nic,
		     char *err, size_t len)
{
	(void)m;
	(void)spec;
	(void)nic;
	snprintf(err, len,
		 "--use_cuda: this rdmaperf was built without GPU support: "
		 "install the CUDA toolkit and rebuild (./configure "
		 "--with-cuda)");
	return -ENOSYS;
}

static void cuda_close(struct rdp_mem *m)
{
	(void)m;
}

/* Never called: open() fails, so no buffer of this type exists. */
static int cuda_alloc(struct rdp_mem *m, size_t bytes, int numa_node,
		      void **out)
{
	(void)m;
	(void)bytes;
	(void)numa_node;
	(void)out;
	return -ENOSYS;
}

static void cuda_free(struct rdp_mem *m, void *ptr, size_t bytes)
{
	(void)m;
	(void)ptr;
	(void)bytes;
}

static int cuda_wipe(struct rdp_mem *m, void *ptr, size_t bytes)
{
	(void)m;
	(void)ptr;
	(void)bytes;
	return -ENOSYS;
}

static int cuda_reg(struct rdp_mem *m, struct ibv_pd *pd, void *ptr,
		    size_t bytes, int access, const char *nic,
		    struct ibv_mr **out, enum rdp_mem_path *path, char *note,
		    size_t note_len)
{
	(void)m;
	(void)pd;
	(void)ptr;
	(void)bytes;
	(void)access;
	(void)nic;
	(void)out;
	(void)path;
	(void)note;
	(void)note_len;
	return -ENOSYS;
}

static int cuda_to_dev(struct rdp_mem *m, void *dst, const void *src,
		       size_t bytes)
{
	(void)m;
	(void)dst;
	(void)src;
	(void)bytes;
	return -ENOSYS;
}

static int cuda_to_host(struct rdp_mem *m, void *dst, const void *src,
			size_t bytes)
{
	return cuda_to_dev(m, dst, src, bytes);
}

static int cuda_host_pin(struct rdp_mem *m, void *ptr, size_t bytes, char *why,
			 size_t len)
{
	(void)m;
	(void)ptr;
	(void)bytes;
	snprintf(why, len, "built without GPU support");
	return -ENOSYS;
}

static void cuda_host_unpin(struct rdp_mem *m, void *ptr)
{
	(void)m;
	(void)ptr;
}

#endif /* HAVE_CUDA */

/* The row, with or without the driver behind it. */
const struct rdp_mem_ops rdp_mem_cuda = {
	.name = "cuda",
	.kind = RDP_MEM_KIND_GPU,
	.option = "--use_cuda",
	.check_spec = cuda_check_spec,
	.open = cuda_open,
	.close = cuda_close,
	.alloc = cuda_alloc,
	.free = cuda_free,
	.wipe = cuda_wipe,
	.reg = cuda_reg,
	.to_dev = cuda_to_dev,
	.to_host = cuda_to_host,
	.host_pin = cuda_host_pin,
	.host_unpin = cuda_host_unpin,
};
