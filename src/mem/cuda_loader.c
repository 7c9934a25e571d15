/* SPDX-License-Identifier: BSD-2-Clause */
/* Load the CUDA driver library with dlopen and resolve its entry points,
 * so a build with GPU support still starts where no driver is installed. */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdmaperf/cuda.h>
#include <rdmaperf/log.h>

struct sym {
	size_t offset; /* of the function pointer in struct rdp_cuda */
	const char *name;
	const char *fallback; /* older name of the same call, or NULL */
	int optional;
};

#define SYM(field, name, fallback, optional)                                   \
	{                                                                      \
		offsetof(struct rdp_cuda, field), name, fallback, optional     \
	}

/* cuda.h maps these plain names to the _v2 symbols; dlsym needs the
 * exported name. */
static const struct sym syms[] = {
	SYM(init, "cuInit", NULL, 0),
	SYM(driver_version, "cuDriverGetVersion", NULL, 0),
	SYM(device_count, "cuDeviceGetCount", NULL, 0),
	SYM(device_get, "cuDeviceGet", NULL, 0),
	SYM(device_name, "cuDeviceGetName", NULL, 0),
	SYM(device_bus_id, "cuDeviceGetPCIBusId", NULL, 0),
	SYM(device_attr, "cuDeviceGetAttribute", NULL, 0),
	SYM(ctx_retain, "cuDevicePrimaryCtxRetain", NULL, 0),
	SYM(ctx_release, "cuDevicePrimaryCtxRelease_v2",
	    "cuDevicePrimaryCtxRelease", 0),
	SYM(ctx_set_current, "cuCtxSetCurrent", NULL, 0),
	SYM(mem_alloc, "cuMemAlloc_v2", NULL, 0),
	SYM(mem_free, "cuMemFree_v2", NULL, 0),
	SYM(memset_d8, "cuMemsetD8_v2", NULL, 0),
	SYM(copy_htod, "cuMemcpyHtoD_v2", NULL, 0),
	SYM(copy_dtoh, "cuMemcpyDtoH_v2", NULL, 0),
	SYM(pointer_set_attr, "cuPointerSetAttribute", NULL, 0),
	SYM(error_string, "cuGetErrorString", NULL, 0),
	SYM(error_name, "cuGetErrorName", NULL, 0),
	SYM(mem_get_handle, "cuMemGetHandleForAddressRange", NULL, 1),
	SYM(host_register, "cuMemHostRegister_v2", "cuMemHostRegister", 1),
	SYM(host_unregister, "cuMemHostUnregister", NULL, 1),
};

/* Object and function pointers share a representation on every platform
 * dlsym exists on (POSIX requires it); memcpy keeps -Wpedantic quiet. */
static int resolve(struct rdp_cuda *cu, const struct sym *s)
{
	void *fn = dlsym(cu->handle, s->name);

	if (!fn && s->fallback)
		fn = dlsym(cu->handle, s->fallback);
	if (!fn)
		return s->optional ? 0 : -ENOEXEC;
	memcpy((char *)cu + s->offset, &fn, sizeof(fn));
	return 0;
}

static const char *library_name(const char *path)
{
	const char *env;

	if (path && *path)
		return path;
	env = getenv("RDP_CUDA_LIBRARY");
	return env && *env ? env : RDP_CUDA_LIBRARY;
}

int rdp_cuda_load(const char *path, struct rdp_cuda **out, char *err,
		  size_t len)
{
	const char *name = library_name(path);
	struct rdp_cuda *cu;
	size_t i;

	cu = calloc(1, sizeof(*cu));
	if (!cu)
		return -ENOMEM;
	snprintf(cu->path, sizeof(cu->path), "%s", name);
	cu->handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (!cu->handle) {
		snprintf(err, len,
			 "no CUDA driver: cannot load %s (%s): install the "
			 "NVIDIA driver (nvidia-smi shows it) or drop "
			 "--use_cuda",
			 name, dlerror());
		free(cu);
		return -ENOENT;
	}
	for (i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		if (resolve(cu, &syms[i])) {
			snprintf(err, len,
				 "%s lacks %s: not a CUDA driver library, "
				 "or one too old for rdmaperf (needs CUDA "
				 "11 or later)",
				 name, syms[i].name);
			rdp_cuda_unload(cu);
			return -ENOEXEC;
		}
	}
	*out = cu;
	return 0;
}

void rdp_cuda_unload(struct rdp_cuda *cu)
{
	if (!cu)
		return;
	if (cu->handle)
		dlclose(cu->handle);
	free(cu);
}

const char *rdp_cuda_strerror(const struct rdp_cuda *cu, rdp_cu_result r,
			      char *buf, size_t len)
{
	const char *name = NULL, *text = NULL;

	if (cu && cu->error_name)
		cu->error_name(r, &name);
	if (cu && cu->error_string)
		cu->error_string(r, &text);
	if (name && text)
		snprintf(buf, len, "%s (%s)", name, text);
	else
		snprintf(buf, len, "CUDA error %d", r);
	return buf;
}

int rdp_cuda_errno(rdp_cu_result r)
{
	switch (r) {
	case RDP_CU_SUCCESS:
		return 0;
	case RDP_CU_ERROR_INVALID_VALUE:
		return -EINVAL;
	case RDP_CU_ERROR_OUT_OF_MEMORY:
		return -ENOMEM;
	case RDP_CU_ERROR_NO_DEVICE:
	case RDP_CU_ERROR_INVALID_DEVICE:
		return -ENODEV;
	case RDP_CU_ERROR_NOT_SUPPORTED:
		return -EOPNOTSUPP;
	default:
		return -EIO;
	}
}
