/* SPDX-License-Identifier: BSD-2-Clause */
/* Load the HIP runtime with dlopen and resolve its entry points, so a
 * build with ROCm support still starts where ROCm is not installed. */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocm_int.h"

struct sym {
	size_t offset; /* of the function pointer in struct rdp_hip */
	const char *name;
	int optional;
};

#define SYM(field, name, optional)                                             \
	{                                                                      \
		offsetof(struct rdp_hip, field), name, optional                \
	}

static const struct sym syms[] = {
	SYM(init, "hipInit", 0),
	SYM(device_count, "hipGetDeviceCount", 0),
	SYM(set_device, "hipSetDevice", 0),
	SYM(device_name, "hipDeviceGetName", 0),
	SYM(device_bus_id, "hipDeviceGetPCIBusId", 0),
	SYM(malloc, "hipMalloc", 0),
	SYM(free, "hipFree", 0),
	SYM(memset, "hipMemset", 0),
	SYM(synchronize, "hipDeviceSynchronize", 0),
	SYM(memcpy, "hipMemcpy", 0),
	SYM(error_string, "hipGetErrorString", 0),
	SYM(error_name, "hipGetErrorName", 0),
	SYM(mem_get_handle, "hipMemGetHandleForAddressRange", 1),
	SYM(host_register, "hipHostRegister", 1),
	SYM(host_unregister, "hipHostUnregister", 1),
};

/* The unversioned name comes with ROCm's development files; the runtime
 * package alone has the versioned ones. */
static const char *const fallbacks[] = {
	"libamdhip64.so.6",
	"libamdhip64.so.5",
};

/* Object and function pointers share a representation on every platform
 * dlsym exists on (POSIX requires it); memcpy keeps -Wpedantic quiet. */
static int resolve(struct rdp_hip *hip, const struct sym *s)
{
	void *fn = dlsym(hip->handle, s->name);

	if (!fn)
		return s->optional ? 0 : -ENOEXEC;
	memcpy((char *)hip + s->offset, &fn, sizeof(fn));
	return 0;
}

static void *open_library(const char *path, struct rdp_hip *hip, char *why,
			  size_t len)
{
	const char *env = getenv("RDP_HIP_LIBRARY");
	void *h;
	size_t i;

	if (!path || !*path)
		path = env && *env ? env : RDP_HIP_LIBRARY;
	snprintf(hip->path, sizeof(hip->path), "%s", path);
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (h)
		return h;
	snprintf(why, len, "%s", dlerror());
	if (strcmp(path, RDP_HIP_LIBRARY))
		return NULL;
	for (i = 0; !h && i < sizeof(fallbacks) / sizeof(fallbacks[0]); i++) {
		h = dlopen(fallbacks[i], RTLD_NOW | RTLD_LOCAL);
		if (h)
			snprintf(hip->path, sizeof(hip->path), "%s",
				 fallbacks[i]);
	}
	return h;
}

int rdp_hip_load(const char *path, struct rdp_hip **out, char *err, size_t len)
{
	struct rdp_hip *hip;
	char why[200];
	size_t i;

	hip = calloc(1, sizeof(*hip));
	if (!hip)
		return -ENOMEM;
	hip->handle = open_library(path, hip, why, sizeof(why));
	if (!hip->handle) {
		snprintf(err, len,
			 "no HIP runtime: cannot load %s (%s): install "
			 "ROCm's libamdhip64 or set LD_LIBRARY_PATH (e.g. "
			 "/opt/rocm/lib), or drop --use_rocm",
			 hip->path, why);
		free(hip);
		return -ENOENT;
	}
	for (i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		if (resolve(hip, &syms[i])) {
			snprintf(err, len,
				 "%s lacks %s: not ROCm's HIP runtime, or one "
				 "too old for rdmaperf: install ROCm 5 or "
				 "later",
				 hip->path, syms[i].name);
			rdp_hip_unload(hip);
			return -ENOEXEC;
		}
	}
	*out = hip;
	return 0;
}

void rdp_hip_unload(struct rdp_hip *hip)
{
	if (!hip)
		return;
	if (hip->handle)
		dlclose(hip->handle);
	free(hip);
}

const char *rdp_hip_strerror(const struct rdp_hip *hip, rdp_hip_result r,
			     char *buf, size_t len)
{
	const char *name = hip && hip->error_name ? hip->error_name(r) : NULL;
	const char *text = hip && hip->error_string ? hip->error_string(r)
						    : NULL;

	if (name && text)
		snprintf(buf, len, "%s (%s)", name, text);
	else
		snprintf(buf, len, "HIP error %d", r);
	return buf;
}

int rdp_hip_errno(rdp_hip_result r)
{
	switch (r) {
	case RDP_HIP_SUCCESS:
		return 0;
	case RDP_HIP_ERROR_INVALID_VALUE:
		return -EINVAL;
	case RDP_HIP_ERROR_OUT_OF_MEMORY:
		return -ENOMEM;
	case RDP_HIP_ERROR_NO_DEVICE:
	case RDP_HIP_ERROR_INVALID_DEVICE:
		return -ENODEV;
	case RDP_HIP_ERROR_NOT_SUPPORTED:
		return -EOPNOTSUPP;
	default:
		return -EIO;
	}
}
