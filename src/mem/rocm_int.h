/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The HIP runtime (libamdhip64), loaded at run time so one binary runs on
 * hosts with and without ROCm; own types with the runtime's ABI, as no
 * HIP header is needed to build.
 * Layer: mem (folder-private)
 */
#ifndef RDMAPERF_ROCM_INT_H
#define RDMAPERF_ROCM_INT_H

#include <stddef.h>
#include <stdint.h>

#include <rdmaperf/gpu.h>
#include <rdmaperf/mem.h>

typedef int rdp_hip_result; /* hipError_t */

#define RDP_HIP_SUCCESS		     0
#define RDP_HIP_ERROR_INVALID_VALUE  1
#define RDP_HIP_ERROR_OUT_OF_MEMORY  2 /* hipErrorOutOfMemory */
#define RDP_HIP_ERROR_NO_DEVICE	     100
#define RDP_HIP_ERROR_INVALID_DEVICE 101
#define RDP_HIP_ERROR_NOT_SUPPORTED  801
#define RDP_HIP_COPY_TO_DEVICE	     1 /* hipMemcpyHostToDevice */
#define RDP_HIP_COPY_TO_HOST	     2 /* hipMemcpyDeviceToHost */
#define RDP_HIP_RANGE_HANDLE_DMA_BUF 1 /* hipMemRangeHandleTypeDmaBufFd */

/* ROCm installs the unversioned name with the runtime; RDP_HIP_LIBRARY
 * overrides it (tests). */
#define RDP_HIP_LIBRARY "libamdhip64.so"

/* Entry points, as hip_runtime_api.h declares them. */
struct rdp_hip {
	void *handle; /* dlopen */
	char path[256];
	rdp_hip_result (*init)(unsigned int flags);
	rdp_hip_result (*device_count)(int *count);
	rdp_hip_result (*set_device)(int device);
	rdp_hip_result (*device_name)(char *name, int len, int device);
	rdp_hip_result (*device_bus_id)(char *bus_id, int len, int device);
	rdp_hip_result (*malloc)(void **ptr, size_t bytes);
	rdp_hip_result (*free)(void *ptr);
	rdp_hip_result (*memset)(void *ptr, int value, size_t bytes);
	rdp_hip_result (*synchronize)(void);
	rdp_hip_result (*memcpy)(void *dst, const void *src, size_t bytes,
				 int kind);
	const char *(*error_string)(rdp_hip_result r);
	const char *(*error_name)(rdp_hip_result r);
	/* ROCm 5.6 and later; NULL on older runtimes (no DMA-BUF export). */
	rdp_hip_result (*mem_get_handle)(void *handle, void *ptr, size_t bytes,
					 int type, unsigned long long flags);
	/* Page-lock host memory for copies (--bounce); NULL when missing. */
	rdp_hip_result (*host_register)(void *ptr, size_t bytes,
					unsigned int flags);
	rdp_hip_result (*host_unregister)(void *ptr);
};

/*
 * Load the runtime (path NULL: $RDP_HIP_LIBRARY, else libamdhip64.so and
 * its versioned names) and resolve every entry point. -ENOENT no such
 * library, -ENOEXEC a required symbol missing; err gets one line.
 */
int rdp_hip_load(const char *path, struct rdp_hip **out, char *err, size_t len);
void rdp_hip_unload(struct rdp_hip *hip);

/* "hipErrorNoDevice (no ROCm-capable device is detected)" */
const char *rdp_hip_strerror(const struct rdp_hip *hip, rdp_hip_result r,
			     char *buf, size_t len);
/* A HIP error as a negative errno, for the rest of the program. */
int rdp_hip_errno(rdp_hip_result r);

#endif /* RDMAPERF_ROCM_INT_H */
