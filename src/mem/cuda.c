/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * GPU memory buffers through the CUDA driver API, loaded at run time
 * (cuda_loader.c): the driver's table for the GPU memory type (gpu_mem.c).
 * Built with the toolkit's headers only to check that the loader's types
 * match them; without CUDA support in the build, opening fails with
 * -ENOSYS so callers can say so.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>

#include <rdmaperf/cuda.h>
#include <rdmaperf/gpu.h>
#include <rdmaperf/mem.h>

#include "gpu_rt.h"

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

static int cu_load(struct rdp_gpu *g, char *err, size_t len)
{
	struct rdp_cuda *cu = NULL;
	int ret = rdp_cuda_load(NULL, &cu, err, len);

	if (ret)
		return ret;
	g->lib = cu;
	g->path = cu->path;
	return 0;
}
#else
static int cu_load(struct rdp_gpu *g, char *err, size_t len)
{
	(void)g;
	snprintf(err, len,
		 "--use_cuda: this rdmaperf was built without GPU support: "
		 "install the CUDA toolkit and rebuild (./configure "
		 "--with-cuda)");
	return -ENOSYS;
}
#endif /* HAVE_CUDA */

static struct rdp_cuda *cu_of(const struct rdp_gpu *g)
{
	return g->lib;
}

static rdp_cu_ptr dptr(const void *p)
{
	return (rdp_cu_ptr)(uintptr_t)p;
}

static void cu_unload(struct rdp_gpu *g)
{
	rdp_cuda_unload(cu_of(g));
}

static const char *cu_strerror(const struct rdp_gpu *g, int r, char *buf,
			       size_t len)
{
	return rdp_cuda_strerror(cu_of(g), r, buf, len);
}

static int cu_init(struct rdp_gpu *g)
{
	return cu_of(g)->init(0);
}

static int cu_count(struct rdp_gpu *g, int *n)
{
	return cu_of(g)->device_count(n);
}

static int cu_bus_id(struct rdp_gpu *g, int i, char *raw, int len)
{
	rdp_cu_result r = cu_of(g)->device_get(&g->dev, i);

	return r ? r : cu_of(g)->device_bus_id(raw, len, g->dev);
}

static int cu_open_dev(struct rdp_gpu *g, char *name, int len)
{
	struct rdp_cuda *cu = cu_of(g);
	rdp_cu_ctx ctx = NULL;
	rdp_cu_result r = cu->device_get(&g->dev, g->index);

	if (!r)
		r = cu->device_name(name, len, g->dev);
	if (!r)
		r = cu->ctx_retain(&ctx, g->dev);
	g->ctx = ctx;
	return r;
}

static void cu_close_dev(struct rdp_gpu *g)
{
	if (g->ctx)
		cu_of(g)->ctx_release(g->dev);
}

static int cu_set_current(struct rdp_gpu *g)
{
	return cu_of(g)->ctx_set_current(g->ctx);
}

static int cu_alloc(struct rdp_gpu *g, void **p, size_t bytes)
{
	rdp_cu_ptr d = 0;
	rdp_cu_result r = cu_of(g)->mem_alloc(&d, bytes);

	*p = (void *)(uintptr_t)d;
	return r;
}

/* Copies must not overtake RDMA on this range (GPUDirect rule). */
static int cu_prepare(struct rdp_gpu *g, void *p, size_t bytes)
{
	int one = 1;
	rdp_cu_result r = cu_of(g)->pointer_set_attr(
		&one, RDP_CU_POINTER_SYNC_MEMOPS, dptr(p));

	return r ? r : cu_of(g)->memset_d8(dptr(p), 0, bytes);
}

static int cu_release(struct rdp_gpu *g, void *p)
{
	return cu_of(g)->mem_free(dptr(p));
}

/* On the default stream, ahead of the cuMemFree that follows. */
static int cu_zero(struct rdp_gpu *g, void *p, size_t bytes)
{
	return cu_of(g)->memset_d8(dptr(p), 0, bytes);
}

static int cu_copy(struct rdp_gpu *g, void *dst, const void *src, size_t bytes,
		   int to_dev)
{
	return to_dev ? cu_of(g)->copy_htod(dptr(dst), src, bytes)
		      : cu_of(g)->copy_dtoh(dst, dptr(src), bytes);
}

static int cu_export_dmabuf(void *ctx, void *ptr, size_t bytes, int *fd,
			    char *text, size_t len)
{
	struct rdp_cuda *cu = cu_of(ctx);
	rdp_cu_result r;

	if (!cu->mem_get_handle) {
		snprintf(text, len,
			 "cuMemGetHandleForAddressRange missing: "
			 "driver older than CUDA 11.7");
		return -EOPNOTSUPP;
	}
	r = cu->mem_get_handle(fd, dptr(ptr), bytes,
			       RDP_CU_RANGE_HANDLE_DMA_BUF, 0);
	if (r)
		rdp_cuda_strerror(cu, r, text, len);
	return rdp_cuda_errno(r);
}

static int cu_can_pin(const struct rdp_gpu *g)
{
	return cu_of(g)->host_register && cu_of(g)->host_unregister;
}

static int cu_host_register(struct rdp_gpu *g, void *p, size_t bytes)
{
	return cu_of(g)->host_register(p, bytes, 0);
}

static void cu_host_unregister(struct rdp_gpu *g, void *p)
{
	cu_of(g)->host_unregister(p);
}

static const struct rdp_gpu_rt cuda_rt = {
	.option = "--use_cuda",
	.runtime = "the CUDA driver",
	.bus_example = "0000:3b:00.0",
	.driver_check = "check nvidia-smi",
	.init_call = "start the CUDA driver (cuInit)",
	.init_hint = ": check nvidia-smi and dmesg",
	.count_call = "count GPUs",
	.open_call = "open GPU",
	.open_hint = ": check nvidia-smi",
	.current_call = "",
	.prepare_what = "prepare",
	.pin_missing = "the driver lacks cuMemHostRegister",
	.topology_first = 1,
	.no_device = RDP_CU_ERROR_NO_DEVICE,
	.load = cu_load,
	.unload = cu_unload,
	.strerror = cu_strerror,
	.to_errno = rdp_cuda_errno,
	.init = cu_init,
	.count = cu_count,
	.bus_id = cu_bus_id,
	.open_dev = cu_open_dev,
	.close_dev = cu_close_dev,
	.set_current = cu_set_current,
	.alloc = cu_alloc,
	.prepare = cu_prepare,
	.release = cu_release,
	.zero = cu_zero,
	.copy = cu_copy,
	.export_dmabuf = cu_export_dmabuf,
	.can_pin = cu_can_pin,
	.host_register = cu_host_register,
	.host_unregister = cu_host_unregister,
	/* nvidia-peermem, the BAR1 window, the IOMMU (gpu_reg.c) */
	.export_words = &rdp_gpu_nvidia_export,
	.peer_cause = rdp_gpu_nvidia_peer_cause,
};

/* --use_cuda's argument, checked whether or not CUDA is built in. */
static int cuda_check_spec(const char *spec, char *err, size_t len)
{
	return rdp_gpu_mem_check_spec(&cuda_rt, spec, err, len);
}

static int cuda_open(struct rdp_mem *m, const char *spec, const char *nic,
		     char *err, size_t len)
{
	return rdp_gpu_mem_open(&cuda_rt, m, spec, nic, 0, err, len);
}

/* The row, with or without the driver behind it. */
const struct rdp_mem_ops rdp_mem_cuda = {
	.name = "cuda",
	.option = "--use_cuda",
	.check_spec = cuda_check_spec,
	.open = cuda_open,
	RDP_GPU_MEM_OPS,
};
