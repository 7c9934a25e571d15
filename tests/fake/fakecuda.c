/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A stand-in for the CUDA driver library, for the tests only: the entry
 * points rdmaperf loads, over host memory. "GPU" buffers are anonymous
 * mappings, so a Soft-RoCE device can register and move them. Knobs:
 *   RDP_FAKE_CUDA_INIT=N      cuInit returns CUresult N (35: driver too old)
 *   RDP_FAKE_CUDA_DEVICES=N   number of GPUs (default 1; 0: no device)
 *   RDP_FAKE_CUDA_BUS_IDS=A,B PCI bus ids of GPU 0, 1, ...
 *   RDP_FAKE_CUDA_DMABUF=0    no DMA-BUF export (attribute 0, 801)
 *   RDP_FAKE_CUDA_ALLOC=oom   cuMemAlloc fails with out of memory
 *   RDP_FAKE_CUDA_CORRUPT=N   device-to-host copies flip their byte N
 *   RDP_FAKE_CUDA_PIN=0       cuMemHostRegister fails (not supported)
 *   RDP_FAKE_CUDA_RECYCLE=1   cuMemAlloc hands back a freed block as it
 *                             was, as a device allocator may
 *   RDP_FAKE_CUDA_STATS=FILE  on unload, write the copies made, the blocks
 *                             freed and those freed holding data to FILE
 * rdp_fake_cuda_dirty_frees() tells a test in the same process how many
 * blocks were freed holding data (not zeroed first).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef void *CUcontext;

#define OK		  0
#define E_INVALID_VALUE	  1
#define E_OUT_OF_MEMORY	  2
#define E_NOT_INITIALIZED 3
#define E_NO_DEVICE	  100
#define E_INVALID_DEVICE  101
#define E_INVALID_CONTEXT 201
#define E_NOT_SUPPORTED	  801
#define MAX_ALLOCS	  64

/* A test double: process-wide state is what the real driver has too. */
static int initialized;
static CUcontext current;
static struct {
	CUdeviceptr ptr;
	size_t bytes;
	int freed; /* RDP_FAKE_CUDA_RECYCLE: kept for the next cuMemAlloc */
} allocs[MAX_ALLOCS];
static char ctx_token[8];
static unsigned long long copies_htod, copies_dtoh, pinned;
static unsigned long long frees, dirty_frees;

static long knob(const char *name, long def)
{
	const char *v = getenv(name);

	return v && *v ? strtol(v, NULL, 0) : def;
}

static int n_devices(void)
{
	return (int)knob("RDP_FAKE_CUDA_DEVICES", 1);
}

/* What the driver answers for a device handle: calls that need cuInit
 * first say so before they look at the handle. */
static CUresult check_dev(CUdevice dev, int needs_init)
{
	if (needs_init && !initialized)
		return E_NOT_INITIALIZED;
	if (dev < 0 || dev >= n_devices())
		return E_INVALID_DEVICE;
	return OK;
}

CUresult cuInit(unsigned int flags);
CUresult cuInit(unsigned int flags)
{
	long r = knob("RDP_FAKE_CUDA_INIT", 0);

	if (flags)
		return E_INVALID_VALUE;
	if (r)
		return (CUresult)r;
	if (n_devices() <= 0)
		return E_NO_DEVICE;
	initialized = 1;
	return OK;
}

CUresult cuDriverGetVersion(int *v);
CUresult cuDriverGetVersion(int *v)
{
	*v = 12040;
	return OK;
}

CUresult cuDeviceGetCount(int *count);
CUresult cuDeviceGetCount(int *count)
{
	if (!initialized)
		return E_NOT_INITIALIZED;
	*count = n_devices();
	return OK;
}

CUresult cuDeviceGet(CUdevice *dev, int ordinal);
CUresult cuDeviceGet(CUdevice *dev, int ordinal)
{
	CUresult r = check_dev(ordinal, 1);

	if (r == OK)
		*dev = ordinal;
	return r;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev);
CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
	snprintf(name, (size_t)len, "Fake GPU %d (host memory)", dev);
	return OK;
}

CUresult cuDeviceGetPCIBusId(char *bus, int len, CUdevice dev);
CUresult cuDeviceGetPCIBusId(char *bus, int len, CUdevice dev)
{
	const char *ids = getenv("RDP_FAKE_CUDA_BUS_IDS");
	int i = 0;

	if (check_dev(dev, 0))
		return E_INVALID_DEVICE;
	/* The driver writes upper-case hex. */
	snprintf(bus, (size_t)len, "0000:%02X:00.0", 0x3b + dev);
	while (ids && *ids) {
		const char *end = strchr(ids, ',');
		size_t n = end ? (size_t)(end - ids) : strlen(ids);

		if (i++ == dev) {
			snprintf(bus, (size_t)len, "%.*s", (int)n, ids);
			break;
		}
		ids = end ? end + 1 : NULL;
	}
	return OK;
}

CUresult cuDeviceGetAttribute(int *v, int attr, CUdevice dev);
CUresult cuDeviceGetAttribute(int *v, int attr, CUdevice dev)
{
	if (check_dev(dev, 0))
		return E_INVALID_DEVICE;
	if (attr == 124)
		*v = (int)knob("RDP_FAKE_CUDA_DMABUF", 1);
	else if (attr == 116)
		*v = 1;
	else
		*v = 0;
	return OK;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice dev);
CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice dev)
{
	CUresult r = check_dev(dev, 1);

	if (r != OK)
		return r;
	*ctx = &ctx_token[dev & 7];
	return OK;
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev);
CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
	(void)dev;
	current = NULL;
	return OK;
}

CUresult cuCtxSetCurrent(CUcontext ctx);
CUresult cuCtxSetCurrent(CUcontext ctx)
{
	current = ctx;
	return OK;
}

CUresult cuMemAlloc_v2(CUdeviceptr *ptr, size_t bytes);
CUresult cuMemAlloc_v2(CUdeviceptr *ptr, size_t bytes)
{
	const char *mode = getenv("RDP_FAKE_CUDA_ALLOC");
	void *p;
	int i;

	if (!current)
		return E_INVALID_CONTEXT;
	if (!bytes)
		return E_INVALID_VALUE;
	if (mode && !strcmp(mode, "oom"))
		return E_OUT_OF_MEMORY;
	/* A freed block of the same size comes back with what it held. */
	for (i = 0; i < MAX_ALLOCS; i++) {
		if (allocs[i].ptr && allocs[i].freed &&
		    allocs[i].bytes == bytes) {
			allocs[i].freed = 0;
			*ptr = allocs[i].ptr;
			return OK;
		}
	}
	for (i = 0; i < MAX_ALLOCS && allocs[i].ptr; i++)
		;
	if (i == MAX_ALLOCS)
		return E_OUT_OF_MEMORY;
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return E_OUT_OF_MEMORY;
	/* Fresh device memory is not zeroed: make a missing memset show. */
	memset(p, 0xa5, bytes);
	allocs[i].ptr = (CUdeviceptr)(uintptr_t)p;
	allocs[i].bytes = bytes;
	*ptr = allocs[i].ptr;
	return OK;
}

static int find(CUdeviceptr ptr, size_t bytes)
{
	int i;

	for (i = 0; i < MAX_ALLOCS; i++)
		if (allocs[i].ptr && !allocs[i].freed && ptr >= allocs[i].ptr &&
		    ptr + bytes <= allocs[i].ptr + allocs[i].bytes)
			return i;
	return -1;
}

static int holds_data(const unsigned char *p, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (p[k])
			return 1;
	return 0;
}

CUresult cuMemFree_v2(CUdeviceptr ptr);
CUresult cuMemFree_v2(CUdeviceptr ptr)
{
	int i = find(ptr, 0);

	if (i < 0 || allocs[i].ptr != ptr)
		return E_INVALID_VALUE;
	frees++;
	dirty_frees += holds_data((const unsigned char *)(uintptr_t)ptr,
				  allocs[i].bytes);
	if (knob("RDP_FAKE_CUDA_RECYCLE", 0)) {
		allocs[i].freed = 1;
		return OK;
	}
	munmap((void *)(uintptr_t)ptr, allocs[i].bytes);
	allocs[i].ptr = 0;
	return OK;
}

/* Not a driver entry point: the tests' window on what cuMemFree saw. */
unsigned long long rdp_fake_cuda_dirty_frees(void);
unsigned long long rdp_fake_cuda_dirty_frees(void)
{
	return dirty_frees;
}

CUresult cuMemsetD8_v2(CUdeviceptr ptr, unsigned char v, size_t n);
CUresult cuMemsetD8_v2(CUdeviceptr ptr, unsigned char v, size_t n)
{
	if (find(ptr, n) < 0)
		return E_INVALID_VALUE;
	memset((void *)(uintptr_t)ptr, v, n);
	return OK;
}

CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n);
CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n)
{
	if (find(dst, n) < 0)
		return E_INVALID_VALUE;
	memcpy((void *)(uintptr_t)dst, src, n);
	copies_htod++;
	return OK;
}

CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n);
CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n)
{
	long at;

	if (find(src, n) < 0)
		return E_INVALID_VALUE;
	memcpy(dst, (const void *)(uintptr_t)src, n);
	copies_dtoh++;
	at = knob("RDP_FAKE_CUDA_CORRUPT", -1);
	if (at >= 0 && (size_t)at < n)
		((unsigned char *)dst)[at] ^= 0xff;
	return OK;
}

CUresult cuPointerSetAttribute(const void *v, int attr, CUdeviceptr ptr);
CUresult cuPointerSetAttribute(const void *v, int attr, CUdeviceptr ptr)
{
	(void)v;
	if (attr != 6 || find(ptr, 0) < 0)
		return E_INVALID_VALUE;
	return OK;
}

/* A memfd stands for the DMA-BUF: an fd the NIC driver will reject, which
 * is what a provider without DMA-BUF support does anyway. */
CUresult cuMemGetHandleForAddressRange(void *handle, CUdeviceptr ptr,
				       size_t bytes, int type,
				       unsigned long long flags);
CUresult cuMemGetHandleForAddressRange(void *handle, CUdeviceptr ptr,
				       size_t bytes, int type,
				       unsigned long long flags)
{
	long page = sysconf(_SC_PAGESIZE);
	int fd;

	if (!knob("RDP_FAKE_CUDA_DMABUF", 1))
		return E_NOT_SUPPORTED;
	if (type != 1 || flags || find(ptr, bytes) < 0 ||
	    (ptr | bytes) % (unsigned long)page)
		return E_INVALID_VALUE;
	fd = memfd_create("fake-dmabuf", MFD_CLOEXEC);
	if (fd < 0)
		return E_OUT_OF_MEMORY;
	*(int *)handle = fd;
	return OK;
}

CUresult cuMemHostRegister_v2(void *p, size_t bytes, unsigned int flags);
CUresult cuMemHostRegister_v2(void *p, size_t bytes, unsigned int flags)
{
	if (!current)
		return E_INVALID_CONTEXT;
	if (!p || !bytes || flags)
		return E_INVALID_VALUE;
	if (!knob("RDP_FAKE_CUDA_PIN", 1))
		return E_NOT_SUPPORTED;
	pinned++;
	return OK;
}

CUresult cuMemHostUnregister(void *p);
CUresult cuMemHostUnregister(void *p)
{
	if (!p || !pinned)
		return E_INVALID_VALUE;
	pinned--;
	return OK;
}

/* What the tests count: one copy per staged message. */
__attribute__((destructor)) static void write_stats(void)
{
	const char *path = getenv("RDP_FAKE_CUDA_STATS");
	FILE *f;

	if (!path || !*path)
		return;
	f = fopen(path, "a");
	if (!f)
		return;
	fprintf(f,
		"pid %d htod %llu dtoh %llu pinned %llu freed %llu dirty %llu\n",
		(int)getpid(), copies_htod, copies_dtoh, pinned, frees,
		dirty_frees);
	fclose(f);
}

static const struct {
	CUresult r;
	const char *name, *text;
} errors[] = {
	{ OK, "CUDA_SUCCESS", "no error" },
	{ E_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument" },
	{ E_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory" },
	{ E_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED",
	  "initialization error" },
	{ 35, "CUDA_ERROR_INSUFFICIENT_DRIVER",
	  "CUDA driver version is insufficient for CUDA runtime version" },
	{ E_NO_DEVICE, "CUDA_ERROR_NO_DEVICE",
	  "no CUDA-capable device is detected" },
	{ E_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE",
	  "invalid device ordinal" },
	{ E_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT",
	  "invalid device context" },
	{ E_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED",
	  "operation not supported" },
};

/* R's name (CUDA_ERROR_...) or its text into *s; unknown codes are an
 * invalid value, as in the driver. */
static CUresult describe(CUresult r, int name, const char **s)
{
	size_t i;

	for (i = 0; i < sizeof(errors) / sizeof(errors[0]); i++)
		if (errors[i].r == r) {
			*s = name ? errors[i].name : errors[i].text;
			return OK;
		}
	return E_INVALID_VALUE;
}

CUresult cuGetErrorName(CUresult r, const char **s);
CUresult cuGetErrorName(CUresult r, const char **s)
{
	return describe(r, 1, s);
}

CUresult cuGetErrorString(CUresult r, const char **s);
CUresult cuGetErrorString(CUresult r, const char **s)
{
	return describe(r, 0, s);
}
