/* SPDX-License-Identifier: BSD-2-Clause */
/* The CUDA memory type over the fake driver: every way --use_cuda can fail
 * says why in one line; allocation and copies move real bytes. */
#include <dlfcn.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../fake/fake_cuda_count.h"

#include <rdmaperf/log.h>
#include <rdmaperf/mem.h>

static int setup(void **state)
{
	(void)state;
	setenv("RDP_CUDA_LIBRARY", RDP_FAKE_CUDA, 1);
	unsetenv("RDP_FAKE_CUDA_INIT");
	unsetenv("RDP_FAKE_CUDA_DEVICES");
	unsetenv("RDP_FAKE_CUDA_BUS_IDS");
	unsetenv("RDP_FAKE_CUDA_ALLOC");
	rdp_clear_error();
	return 0;
}

static void expect_open_fails(const char *spec, int want, const char *msg)
{
	struct rdp_mem *m = NULL;

	rdp_clear_error();
	assert_int_equal(rdp_mem_open(&rdp_mem_cuda, spec, "rxe0", &m), want);
	assert_null(m);
	if (!strstr(rdp_last_error(), msg))
		fail_msg("'%s' lacks '%s'", rdp_last_error(), msg);
}

static void test_no_driver(void **state)
{
	(void)state;
	setenv("RDP_CUDA_LIBRARY", "/nonexistent/libcuda.so.1", 1);
	expect_open_fails("0", -ENODEV, "no CUDA driver: cannot load");
	expect_open_fails("0", -ENODEV, "drop --use_cuda");
}

static void test_no_gpu(void **state)
{
	(void)state;
	setenv("RDP_FAKE_CUDA_DEVICES", "0", 1);
	expect_open_fails("auto", -ENODEV, "no GPU: the CUDA driver");
	expect_open_fails("auto", -ENODEV, "CUDA_ERROR_NO_DEVICE");
}

static void test_old_driver(void **state)
{
	(void)state;
	setenv("RDP_FAKE_CUDA_INIT", "35", 1);
	expect_open_fails("0", -EIO, "CUDA_ERROR_INSUFFICIENT_DRIVER");
}

static void test_which_gpu(void **state)
{
	struct rdp_mem *m = NULL;

	(void)state;
	setenv("RDP_FAKE_CUDA_DEVICES", "2", 1);
	setenv("RDP_FAKE_CUDA_BUS_IDS", "0000:3B:00.0,0000:AF:00.0", 1);
	expect_open_fails("5", -ENODEV,
			  "no GPU 5; present: 0: 0000:3b:00.0, 1: "
			  "0000:af:00.0");
	expect_open_fails("0000:86:00.0", -ENODEV, "no GPU at 0000:86:00.0");
	assert_int_equal(rdp_mem_open(&rdp_mem_cuda, "af:00.0", "rxe0", &m), 0);
	assert_string_equal(m->bus_id, "0000:af:00.0");
	assert_non_null(strstr(m->desc, "GPU 1 "));
	rdp_mem_close(m);
	/* rxe0 has no PCI device: auto falls back to GPU 0, and says so. */
	assert_int_equal(rdp_mem_open(&rdp_mem_cuda, "auto", "rxe0", &m), 0);
	assert_non_null(strstr(m->desc, "GPU 0 "));
	assert_string_equal(m->why, "rxe0 is not a PCI device: GPU 0");
	rdp_mem_close(m);
}

static void test_alloc_copy(void **state)
{
	uint8_t in[8192], out[8192];
	struct rdp_mem *m = NULL;
	void *p = NULL;
	size_t i;

	(void)state;
	assert_int_equal(rdp_mem_open(&rdp_mem_cuda, "0", "rxe0", &m), 0);
	assert_int_equal(m->ops->alloc(m, sizeof(in), -1, &p), 0);
	/* Zeroed, though fresh fake memory is not. */
	assert_int_equal(m->ops->to_host(m, out, p, sizeof(out)), 0);
	for (i = 0; i < sizeof(out); i++)
		assert_int_equal(out[i], 0);
	for (i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i * 7);
	assert_int_equal(m->ops->to_dev(m, p, in, sizeof(in)), 0);
	assert_int_equal(m->ops->to_host(m, out, p, sizeof(out)), 0);
	assert_memory_equal(in, out, sizeof(in));
	/* Out of range: the driver's error, as an errno. */
	assert_int_equal(m->ops->to_host(m, out, (uint8_t *)p + 4096,
					 sizeof(out)),
			 -EINVAL);
	m->ops->free(m, p, sizeof(in));
	setenv("RDP_FAKE_CUDA_ALLOC", "oom", 1);
	rdp_clear_error();
	assert_int_equal(m->ops->alloc(m, 1 << 20, -1, &p), -ENOMEM);
	assert_non_null(strstr(rdp_last_error(), "CUDA_ERROR_OUT_OF_MEMORY"));
	assert_non_null(strstr(rdp_last_error(), "lower -s or -q"));
	rdp_mem_close(m);
	rdp_mem_close(NULL);
}

/* The fake driver's count of blocks freed holding data. */
static unsigned long long dirty_frees(void)
{
	unsigned long long n = fake_cuda_dirty_frees(RDP_FAKE_CUDA);

	assert_true(n != ULLONG_MAX);
	return n;
}

/* GPU memory is zeroed through the driver before it is freed: the fake
 * sees no block freed holding data, and sees it when the wipe is left
 * out, so the check can fail. */
static void test_wipe_before_free(void **state)
{
	uint8_t in[4096], out[4096];
	struct rdp_mem *m = NULL;
	unsigned long long before;
	void *p = NULL;
	size_t i;

	(void)state;
	memset(in, 0x5a, sizeof(in));
	assert_int_equal(rdp_mem_open(&rdp_mem_cuda, "0", "rxe0", &m), 0);
	assert_int_equal(m->ops->alloc(m, sizeof(in), -1, &p), 0);
	assert_int_equal(m->ops->to_dev(m, p, in, sizeof(in)), 0);
	assert_int_equal(m->ops->wipe(m, p, sizeof(in)), 0);
	assert_int_equal(m->ops->to_host(m, out, p, sizeof(out)), 0);
	for (i = 0; i < sizeof(out); i++)
		assert_int_equal(out[i], 0);
	before = dirty_frees();
	m->ops->free(m, p, sizeof(in));
	assert_int_equal(dirty_frees(), before);
	assert_int_equal(m->ops->alloc(m, sizeof(in), -1, &p), 0);
	assert_int_equal(m->ops->to_dev(m, p, in, sizeof(in)), 0);
	m->ops->free(m, p, sizeof(in));
	assert_int_equal(dirty_frees(), before + 1);
	/* a block the driver hands back is zeroed again at allocation */
	setenv("RDP_FAKE_CUDA_RECYCLE", "1", 1);
	assert_int_equal(m->ops->alloc(m, sizeof(in), -1, &p), 0);
	assert_int_equal(m->ops->to_dev(m, p, in, sizeof(in)), 0);
	m->ops->free(m, p, sizeof(in));
	assert_int_equal(m->ops->alloc(m, sizeof(in), -1, &p), 0);
	assert_int_equal(m->ops->to_host(m, out, p, sizeof(out)), 0);
	for (i = 0; i < sizeof(out); i++)
		assert_int_equal(out[i], 0);
	assert_int_equal(m->ops->wipe(m, p, sizeof(in)), 0);
	m->ops->free(m, p, sizeof(in));
	unsetenv("RDP_FAKE_CUDA_RECYCLE");
	rdp_mem_close(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_no_driver, setup),
		cmocka_unit_test_setup(test_no_gpu, setup),
		cmocka_unit_test_setup(test_old_driver, setup),
		cmocka_unit_test_setup(test_which_gpu, setup),
		cmocka_unit_test_setup(test_alloc_copy, setup),
		cmocka_unit_test_setup(test_wipe_before_free, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
