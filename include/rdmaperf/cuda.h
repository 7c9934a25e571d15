/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The CUDA driver library, loaded at run time: one binary runs on hosts
 * with and without a GPU driver. Own types with the driver's ABI, so the
 * loader compiles without the toolkit (src/mem/cuda.c checks them against
 * cuda.h when the toolkit is there).
 * Layer: mem
 */
#ifndef RDMAPERF_CUDA_H
#define RDMAPERF_CUDA_H

#include <stddef.h>

typedef int rdp_cu_result;		  /* CUresult */
typedef int rdp_cu_device;		  /* CUdevice */
typedef unsigned long long rdp_cu_ptr;	  /* CUdeviceptr */
typedef struct rdp_cu_ctx_st *rdp_cu_ctx; /* CUcontext */

#define RDP_CU_SUCCESS		    0
#define RDP_CU_ERROR_INVALID_VALUE  1
#define RDP_CU_ERROR_OUT_OF_MEMORY  2
#define RDP_CU_ERROR_NO_DEVICE	    100
#define RDP_CU_ERROR_INVALID_DEVICE 101
#define RDP_CU_ERROR_NOT_SUPPORTED  801
#define RDP_CU_ATTR_GPUDIRECT_RDMA  116 /* ..._GPU_DIRECT_RDMA_SUPPORTED */
#define RDP_CU_ATTR_DMA_BUF	    124 /* ..._DMA_BUF_SUPPORTED */
#define RDP_CU_POINTER_SYNC_MEMOPS  6
#define RDP_CU_RANGE_HANDLE_DMA_BUF 1 /* ..._DMA_BUF_FD */

/* The driver's name on Linux; RDP_CUDA_LIBRARY overrides it (tests). */
#define RDP_CUDA_LIBRARY "libcuda.so.1"

/* Entry points; the _v2 symbols where cuda.h maps the plain name to them. */
struct rdp_cuda {
	void *handle; /* dlopen */
	char path[256];
	rdp_cu_result (*init)(unsigned int flags);
	rdp_cu_result (*driver_version)(int *version);
	rdp_cu_result (*device_count)(int *count);
	rdp_cu_result (*device_get)(rdp_cu_device *dev, int ordinal);
	rdp_cu_result (*device_name)(char *name, int len, rdp_cu_device dev);
	rdp_cu_result (*device_bus_id)(char *bus_id, int len,
				       rdp_cu_device dev);
	rdp_cu_result (*device_attr)(int *value, int attr, rdp_cu_device dev);
	rdp_cu_result (*ctx_retain)(rdp_cu_ctx *ctx, rdp_cu_device dev);
	rdp_cu_result (*ctx_release)(rdp_cu_device dev);
	rdp_cu_result (*ctx_set_current)(rdp_cu_ctx ctx);
	rdp_cu_result (*mem_alloc)(rdp_cu_ptr *ptr, size_t bytes);
	rdp_cu_result (*mem_free)(rdp_cu_ptr ptr);
	rdp_cu_result (*memset_d8)(rdp_cu_ptr ptr, unsigned char v,
				   size_t bytes);
	rdp_cu_result (*copy_htod)(rdp_cu_ptr dst, const void *src,
				   size_t bytes);
	rdp_cu_result (*copy_dtoh)(void *dst, rdp_cu_ptr src, size_t bytes);
	rdp_cu_result (*pointer_set_attr)(const void *value, int attr,
					  rdp_cu_ptr ptr);
	rdp_cu_result (*error_string)(rdp_cu_result r, const char **s);
	rdp_cu_result (*error_name)(rdp_cu_result r, const char **s);
	/* CUDA 11.7 and later; NULL on older drivers (no DMA-BUF export). */
	rdp_cu_result (*mem_get_handle)(void *handle, rdp_cu_ptr ptr,
					size_t bytes, int type,
					unsigned long long flags);
	/* Page-lock host memory for copies (--bounce); NULL when missing. */
	rdp_cu_result (*host_register)(void *ptr, size_t bytes,
				       unsigned int flags);
	rdp_cu_result (*host_unregister)(void *ptr);
};

/*
 * Load the driver library (path NULL: $RDP_CUDA_LIBRARY, else
 * libcuda.so.1) and resolve every entry point. -ENOENT no such library
 * (no driver installed), -ENOEXEC a required symbol missing (driver too
 * old or not a CUDA driver); err gets one line naming the cause.
 */
int rdp_cuda_load(const char *path, struct rdp_cuda **out, char *err,
		  size_t len);
void rdp_cuda_unload(struct rdp_cuda *cu);

/* "CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)" */
const char *rdp_cuda_strerror(const struct rdp_cuda *cu, rdp_cu_result r,
			      char *buf, size_t len);

/* A CUDA error as a negative errno, for the rest of the program. */
int rdp_cuda_errno(rdp_cu_result r);

#endif /* RDMAPERF_CUDA_H */
