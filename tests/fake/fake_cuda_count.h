/* SPDX-License-Identifier: BSD-2-Clause */
/* Read back the fake CUDA library's count of blocks freed while still
 * holding data, from the copy the loader opened (dlopen of one path gives
 * one handle). For the unit tests that check GPU memory is wiped. */
#ifndef RDMAPERF_FAKE_CUDA_COUNT_H
#define RDMAPERF_FAKE_CUDA_COUNT_H

#include <dlfcn.h>
#include <limits.h>
#include <string.h>

/* ULLONG_MAX when the library is not loaded or lacks the counter. */
static inline unsigned long long fake_cuda_dirty_frees(const char *path)
{
	unsigned long long (*fn)(void);
	void *h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
	void *sym = h ? dlsym(h, "rdp_fake_cuda_dirty_frees") : NULL;

	if (!sym) {
		if (h)
			dlclose(h);
		return ULLONG_MAX;
	}
	memcpy(&fn, &sym, sizeof(fn));
	dlclose(h);
	return fn();
}

#endif /* RDMAPERF_FAKE_CUDA_COUNT_H */
