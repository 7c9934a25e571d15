/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A stand-in for ROCm's HIP runtime (libamdhip64), for the tests only: the
 * entry points rdmaperf loads, over host memory. "GPU" buffers are
 * anonymous mappings, so a Soft-RoCE device can register and move them.
 * Knobs:
 *   RDP_FAKE_HIP_INIT=N       hipInit returns hipError_t N (100: no device)
 *   RDP_FAKE_HIP_DEVICES=N    number of GPUs (default 1; 0: none)
 *   RDP_FAKE_HIP_BUS_IDS=A,B  PCI bus ids of GPU 0, 1, ...
 *   RDP_FAKE_HIP_DMABUF=0     no DMA-BUF export (hipErrorNotSupported)
 *   RDP_FAKE_HIP_FAIL=CALL[=N],...  each entry point named fails with N
 *                             (default: hipErrorInvalidValue; hipMalloc:
 *                             out of memory)
 * rdp_fake_hip_dirty_frees() tells a test in the same process how many
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

typedef int hipError_t;

#define OK		  0
#define E_INVALID_VALUE	  1
#define E_OUT_OF_MEMORY	  2
#define E_NOT_INITIALIZED 3
#define E_NO_DEVICE	  100
#define E_INVALID_DEVICE  101
#define E_NOT_SUPPORTED	  801
#define MAX_ALLOCS	  64

/* A test double: process-wide state is what the real runtime has too. */
static int initialized, current = -1;
static struct {
	void *ptr;
	size_t bytes;
} allocs[MAX_ALLOCS];
static unsigned long long pinned, frees, dirty_frees;

static long knob(const char *name, long def)
{
	const char *v = getenv(name);

	return v && *v ? strtol(v, NULL, 0) : def;
}

/* RDP_FAKE_HIP_FAIL names call: its error, else OK. */
static hipError_t told_to_fail(const char *call, hipError_t def)
{
	const char *v = getenv("RDP_FAKE_HIP_FAIL");
	size_t n = strlen(call);

	while (v && *v) {
		if (!strncmp(v, call, n) &&
		    (v[n] == '\0' || v[n] == ',' || v[n] == '='))
			return v[n] == '='
				       ? (hipError_t)strtol(v + n + 1, NULL, 0)
				       : def;
		v = strchr(v, ',');
		v = v ? v + 1 : NULL;
	}
	return OK;
}

#define FAIL_IF_TOLD(call, def)                                                \
	do {                                                                   \
		hipError_t told = told_to_fail(call, def);                     \
		if (told)                                                      \
			return told;                                           \
	} while (0)

static int n_devices(void)
{
	return (int)knob("RDP_FAKE_HIP_DEVICES", 1);
}

static hipError_t check_dev(int dev)
{
	if (!initialized)
		return E_NOT_INITIALIZED;
	return dev < 0 || dev >= n_devices() ? E_INVALID_DEVICE : OK;
}

hipError_t hipInit(unsigned int flags);
hipError_t hipInit(unsigned int flags)
{
	long r = knob("RDP_FAKE_HIP_INIT", 0);

	if (flags)
		return E_INVALID_VALUE;
	if (r)
		return (hipError_t)r;
	initialized = 1;
	return OK;
}

hipError_t hipGetDeviceCount(int *count);
hipError_t hipGetDeviceCount(int *count)
{
	FAIL_IF_TOLD("hipGetDeviceCount", E_INVALID_VALUE);
	if (!initialized)
		return E_NOT_INITIALIZED;
	*count = n_devices();
	return *count > 0 ? OK : E_NO_DEVICE;
}

hipError_t hipSetDevice(int dev);
hipError_t hipSetDevice(int dev)
{
	hipError_t r = check_dev(dev);

	FAIL_IF_TOLD("hipSetDevice", E_INVALID_DEVICE);
	if (r == OK)
		current = dev;
	return r;
}

hipError_t hipDeviceGetName(char *name, int len, int dev);
hipError_t hipDeviceGetName(char *name, int len, int dev)
{
	if (check_dev(dev))
		return E_INVALID_DEVICE;
	snprintf(name, (size_t)len, "Fake AMD GPU %d (host memory)", dev);
	return OK;
}

hipError_t hipDeviceGetPCIBusId(char *bus, int len, int dev);
hipError_t hipDeviceGetPCIBusId(char *bus, int len, int dev)
{
	const char *ids = getenv("RDP_FAKE_HIP_BUS_IDS");
	int i = 0;

	FAIL_IF_TOLD("hipDeviceGetPCIBusId", E_INVALID_DEVICE);
	if (check_dev(dev))
		return E_INVALID_DEVICE;
	snprintf(bus, (size_t)len, "0000:%02x:00.0", 0xc1 + dev);
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

hipError_t hipMalloc(void **ptr, size_t bytes);
hipError_t hipMalloc(void **ptr, size_t bytes)
{
	void *p;
	int i;

	FAIL_IF_TOLD("hipMalloc", E_OUT_OF_MEMORY);
	if (current < 0)
		return E_INVALID_DEVICE;
	if (!bytes)
		return E_INVALID_VALUE;
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
	allocs[i].ptr = p;
	allocs[i].bytes = bytes;
	*ptr = p;
	return OK;
}

static int find(const void *ptr, size_t bytes)
{
	const char *p = ptr;
	int i;

	for (i = 0; i < MAX_ALLOCS; i++)
		if (allocs[i].ptr && p >= (char *)allocs[i].ptr &&
		    p + bytes <= (char *)allocs[i].ptr + allocs[i].bytes)
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

hipError_t hipFree(void *ptr);
hipError_t hipFree(void *ptr)
{
	int i = find(ptr, 0);

	if (i < 0 || allocs[i].ptr != ptr)
		return E_INVALID_VALUE;
	frees++;
	dirty_frees += holds_data(ptr, allocs[i].bytes);
	munmap(ptr, allocs[i].bytes);
	allocs[i].ptr = NULL;
	return OK;
}

/* Not a runtime entry point: the tests' window on what hipFree saw. */
unsigned long long rdp_fake_hip_dirty_frees(void);
unsigned long long rdp_fake_hip_dirty_frees(void)
{
	return dirty_frees;
}

hipError_t hipMemset(void *ptr, int v, size_t n);
hipError_t hipMemset(void *ptr, int v, size_t n)
{
	FAIL_IF_TOLD("hipMemset", E_INVALID_VALUE);
	if (find(ptr, n) < 0)
		return E_INVALID_VALUE;
	memset(ptr, v, n);
	return OK;
}

hipError_t hipDeviceSynchronize(void);
hipError_t hipDeviceSynchronize(void)
{
	FAIL_IF_TOLD("hipDeviceSynchronize", E_INVALID_VALUE);
	return current < 0 ? E_INVALID_DEVICE : OK;
}

/* Kinds: 1 host to device, 2 device to host. */
hipError_t hipMemcpy(void *dst, const void *src, size_t n, int kind);
hipError_t hipMemcpy(void *dst, const void *src, size_t n, int kind)
{
	FAIL_IF_TOLD("hipMemcpy", E_INVALID_VALUE);
	if ((kind == 1 && find(dst, n) < 0) || (kind == 2 && find(src, n) < 0))
		return E_INVALID_VALUE;
	if (kind != 1 && kind != 2)
		return E_INVALID_VALUE;
	memcpy(dst, src, n);
	return OK;
}

/* A memfd stands for the DMA-BUF: an fd the NIC driver will reject, which
 * is what a provider without DMA-BUF support does anyway. */
hipError_t hipMemGetHandleForAddressRange(void *handle, void *ptr, size_t bytes,
					  int type, unsigned long long flags);
hipError_t hipMemGetHandleForAddressRange(void *handle, void *ptr, size_t bytes,
					  int type, unsigned long long flags)
{
	int fd;

	FAIL_IF_TOLD("hipMemGetHandleForAddressRange", E_INVALID_VALUE);
	if (!knob("RDP_FAKE_HIP_DMABUF", 1))
		return E_NOT_SUPPORTED;
	if (type != 1 || flags || find(ptr, bytes) < 0)
		return E_INVALID_VALUE;
	fd = memfd_create("fake-dmabuf", MFD_CLOEXEC);
	if (fd < 0)
		return E_OUT_OF_MEMORY;
	*(int *)handle = fd;
	return OK;
}

hipError_t hipHostRegister(void *p, size_t bytes, unsigned int flags);
hipError_t hipHostRegister(void *p, size_t bytes, unsigned int flags)
{
	FAIL_IF_TOLD("hipHostRegister", E_NOT_SUPPORTED);
	if (!p || !bytes || flags)
		return E_INVALID_VALUE;
	pinned++;
	return OK;
}

hipError_t hipHostUnregister(void *p);
hipError_t hipHostUnregister(void *p)
{
	if (!p || !pinned)
		return E_INVALID_VALUE;
	pinned--;
	return OK;
}

static const struct {
	hipError_t r;
	const char *name, *text;
} errors[] = {
	{ OK, "hipSuccess", "no error" },
	{ E_INVALID_VALUE, "hipErrorInvalidValue", "invalid argument" },
	{ E_OUT_OF_MEMORY, "hipErrorOutOfMemory", "out of memory" },
	{ E_NOT_INITIALIZED, "hipErrorNotInitialized", "initialization error" },
	{ 35, "hipErrorInsufficientDriver",
	  "driver version is insufficient for runtime version" },
	{ E_NO_DEVICE, "hipErrorNoDevice",
	  "no ROCm-capable device is detected" },
	{ E_INVALID_DEVICE, "hipErrorInvalidDevice", "invalid device ordinal" },
	{ E_NOT_SUPPORTED, "hipErrorNotSupported", "operation not supported" },
};

/* Unknown codes, as in the runtime. */
static const char *describe(hipError_t r, int name)
{
	size_t i;

	for (i = 0; i < sizeof(errors) / sizeof(errors[0]); i++)
		if (errors[i].r == r)
			return name ? errors[i].name : errors[i].text;
	return name ? "hipErrorUnknown" : "unknown error";
}

const char *hipGetErrorName(hipError_t r);
const char *hipGetErrorName(hipError_t r)
{
	return describe(r, 1);
}

const char *hipGetErrorString(hipError_t r);
const char *hipGetErrorString(hipError_t r)
{
	return describe(r, 0);
}
