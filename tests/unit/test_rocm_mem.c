/* SPDX-License-Identifier: BSD-2-Clause */
/* The ROCm memory type over the fake HIP runtime: its options and the
 * refused accelerators; every way --use_rocm can fail says why in one
 * line; allocation, copies, wipes, pinning, registration and staging. */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <jansson.h>

#include <rdmaperf/json_mem.h>
#include <rdmaperf/log.h>
#include <rdmaperf/mem.h>
#include <rdmaperf/opts.h>
#include <rdmaperf/peer.h>

#include "gpu_rt.h"
#include "mem_int.h"
#include "rocm_int.h"
#include "unit.h"

static int setup(void **state)
{
	(void)state;
	setenv("RDP_HIP_LIBRARY", RDP_FAKE_HIP, 1);
	unsetenv("RDP_FAKE_HIP_INIT");
	unsetenv("RDP_FAKE_HIP_DEVICES");
	unsetenv("RDP_FAKE_HIP_BUS_IDS");
	unsetenv("RDP_FAKE_HIP_DMABUF");
	unsetenv("RDP_FAKE_HIP_FAIL");
	rdp_clear_error();
	return 0;
}

static void test_options(void **state)
{
	struct rdp_opts o;
	char err[256] = "";

	(void)state;
	assert_int_equal(CLIENT(&o, err, "write_bw", "--use_rocm=1", "h"),
			 RDP_PARSE_OK);
	assert_ptr_equal(o.mem.type, &rdp_mem_rocm);
	assert_string_equal(o.mem.device, "1");
	assert_int_equal(SERVER(&o, err, "--use_rocm", "auto"), RDP_PARSE_OK);
	assert_ptr_equal(o.mem.type, &rdp_mem_rocm);
	/* the flag alone: GPU 0; before or after --use_rocm: its GPU */
	assert_int_equal(CLIENT(&o, err, "write_bw", "--use_rocm_dmabuf", "h"),
			 RDP_PARSE_OK);
	assert_ptr_equal(o.mem.type, &rdp_mem_rocm_dmabuf);
	assert_string_equal(o.mem.device, "0");
	assert_int_equal(CLIENT(&o, err, "write_bw", "--use_rocm=2",
				"--use_rocm_dmabuf", "h"),
			 RDP_PARSE_OK);
	assert_ptr_equal(o.mem.type, &rdp_mem_rocm_dmabuf);
	assert_string_equal(o.mem.device, "2");
	assert_int_equal(SERVER(&o, err, "--use_rocm_dmabuf", "--use_rocm=3"),
			 RDP_PARSE_OK);
	assert_ptr_equal(o.mem.type, &rdp_mem_rocm_dmabuf);
	assert_string_equal(o.mem.device, "3");
	assert_int_equal(CLIENT(&o, err, "write_bw", "--use_rocm=0", "--bounce",
				"h"),
			 RDP_PARSE_OK);
	assert_int_equal(o.mem.bounce, 1);
	assert_int_equal(CLIENT(&o, err, "write_bw", "--use_rocm=gpu0", "h"),
			 -EINVAL);
	expect_in(err, "--use_rocm gpu0: give a GPU number");
	assert_int_equal(CLIENT(&o, err, "write_bw", "--use_cuda=0",
				"--use_rocm_dmabuf", "h"),
			 -EINVAL);
	expect_in(err, "--use_rocm_dmabuf narrows the option it extends; it "
		       "cannot go with --use_cuda");
	assert_int_equal(CLIENT(&o, err, "write_bw", "--use_rocm=0",
				"--use_hugepages", "h"),
			 -EINVAL);
	expect_in(err, "drop it with --use_rocm (or add --bounce)");
	assert_int_equal(CLIENT(&o, err, "write_bw", "--bounce", "h"), -EINVAL);
	expect_in(err, "--use_rocm=GPU");
}

/*
 * perftest 6.29 gives --use_rocm and --use_cuda a required argument, which
 * its users write either way (--use_rocm=0, --use_rocm 0): the word after
 * the option is its GPU, so a host there is refused as no GPU, in one
 * line, never taken as the peer; --use_rocm_dmabuf alone is GPU 0.
 */
static void test_gpu_argument(void **state)
{
	static const char *const opts[] = { "--use_rocm", "--use_cuda" };
	struct rdp_opts o;
	char err[256] = "", want[64];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		assert_int_equal(CLIENT(&o, err, "write_bw", opts[i], "1", "h"),
				 RDP_PARSE_OK);
		assert_string_equal(o.mem.device, "1");
		assert_string_equal(o.conn.host, "h");
		assert_int_equal(SERVER(&o, err, opts[i], "0"), RDP_PARSE_OK);
		assert_string_equal(o.mem.device, "0");
		assert_int_equal(CLIENT(&o, err, "write_bw", "h", opts[i]),
				 -EINVAL);
		snprintf(want, sizeof(want), "option %s needs a value",
			 opts[i]);
		assert_string_equal(err, want);
		assert_int_equal(CLIENT(&o, err, "write_bw", opts[i],
					"host1.example"),
				 -EINVAL);
		snprintf(want, sizeof(want), "%s host1.example: give a GPU",
			 opts[i]);
		expect_in(err, want);
		assert_null(strchr(err, '\n'));
	}
}

/* perftest's other accelerators: one line each, naming what works. */
static void test_refused_accelerators(void **state)
{
	static const char *const refused[][2] = {
		{ "--use_neuron=0", "Neuron" },
		{ "--use_neuron_dmabuf", "Neuron" },
		{ "--use_hl=0000:b3:00.0", "Gaudi" },
		{ "--use_hl_dmabuf", "Gaudi" },
		{ "--use_mlu=0", "MLU" },
		{ "--use_mlu_dmabuf", "MLU" },
		{ "--use_musa=1", "MUSA" },
		{ "--use_musa_dmabuf", "MUSA" },
		{ "--use_opencl=0", "OpenCL" },
		{ "--use_opencl_dmabuf", "OpenCL" },
	};
	struct rdp_opts o;
	char err[256], want[128];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		err[0] = '\0';
		assert_int_equal(CLIENT(&o, err, "write_bw", refused[i][0],
					"h"),
				 -EINVAL);
		snprintf(want, sizeof(want),
			 "%s memory is not supported: no way to test it here; "
			 "use --use_cuda or --use_rocm",
			 refused[i][1]);
		expect_in(err, want);
		assert_null(strchr(err, '\n'));
	}
}

static void test_registry(void **state)
{
	const struct rdp_mem_ops *const *t;
	int rocm = 0;

	(void)state;
	assert_ptr_equal(rdp_mem_find("--use_rocm"), &rdp_mem_rocm);
	assert_ptr_equal(rdp_mem_find("use_rocm_dmabuf"), &rdp_mem_rocm_dmabuf);
	assert_null(rdp_mem_find("--use_rocm_x"));
	assert_null(rdp_mem_find(NULL));
	for (t = rdp_mem_types(); *t; t++) {
		assert_ptr_not_equal(*t, &rdp_mem_rocm_dmabuf);
		rocm += *t == &rdp_mem_rocm;
	}
	assert_int_equal(rocm, 1);
	assert_int_equal(rdp_mem_rocm.kind, RDP_MEM_KIND_GPU);
	assert_int_equal(rdp_mem_rocm_dmabuf.kind, RDP_MEM_KIND_GPU);
}

static void expect_open_fails(const struct rdp_mem_ops *ops, const char *spec,
			      int want, const char *msg)
{
	struct rdp_mem *m = NULL;

	rdp_clear_error();
	assert_int_equal(rdp_mem_open(ops, spec, "rxe0", &m), want);
	assert_null(m);
	if (!strstr(rdp_last_error(), msg))
		fail_msg("'%s' lacks '%s'", rdp_last_error(), msg);
	assert_null(strchr(rdp_last_error(), '\n'));
}

static void test_no_runtime(void **state)
{
	(void)state;
	setenv("RDP_HIP_LIBRARY", "/nonexistent/libamdhip64.so", 1);
	expect_open_fails(&rdp_mem_rocm, "0", -ENODEV,
			  "no HIP runtime: cannot load "
			  "/nonexistent/libamdhip64.so");
	expect_open_fails(&rdp_mem_rocm, "0", -ENODEV,
			  "install ROCm's libamdhip64 or set LD_LIBRARY_PATH");
	/* a library that is not the HIP runtime */
	setenv("RDP_HIP_LIBRARY", RDP_FAKE_CUDA, 1);
	expect_open_fails(&rdp_mem_rocm, "0", -ENOEXEC, "lacks hipInit");
}

static void test_no_gpu(void **state)
{
	(void)state;
	setenv("RDP_FAKE_HIP_DEVICES", "0", 1);
	expect_open_fails(&rdp_mem_rocm, "0", -ENODEV,
			  "no GPU: the HIP runtime sees none: check that the "
			  "amdgpu driver is loaded");
	setenv("RDP_FAKE_HIP_INIT", "100", 1);
	expect_open_fails(&rdp_mem_rocm, "0", -ENODEV, "hipErrorNoDevice");
	expect_open_fails(&rdp_mem_rocm, "0", -ENODEV, "drop --use_rocm");
	setenv("RDP_FAKE_HIP_INIT", "35", 1);
	expect_open_fails(&rdp_mem_rocm, "0", -EIO,
			  "start the HIP runtime (hipInit): "
			  "hipErrorInsufficientDriver");
	expect_open_fails(&rdp_mem_rocm, "0", -EIO, "ls /dev/kfd");
}

static void test_calls_fail(void **state)
{
	(void)state;
	setenv("RDP_FAKE_HIP_FAIL", "hipGetDeviceCount", 1);
	expect_open_fails(&rdp_mem_rocm, "0", -EINVAL,
			  "count GPUs (hipGetDeviceCount): "
			  "hipErrorInvalidValue");
	setenv("RDP_FAKE_HIP_FAIL", "hipDeviceGetPCIBusId", 1);
	expect_open_fails(&rdp_mem_rocm, "0", -ENODEV,
			  "query GPU: hipErrorInvalidDevice");
	setenv("RDP_FAKE_HIP_FAIL", "hipSetDevice", 1);
	expect_open_fails(&rdp_mem_rocm_dmabuf, "0", -ENODEV,
			  "open GPU (hipSetDevice): hipErrorInvalidDevice");
	expect_open_fails(&rdp_mem_rocm, "x", -EINVAL,
			  "--use_rocm x: give a GPU number");
}

static void test_which_gpu(void **state)
{
	struct rdp_mem *m = NULL;

	(void)state;
	setenv("RDP_FAKE_HIP_DEVICES", "2", 1);
	setenv("RDP_FAKE_HIP_BUS_IDS", "0000:C1:00.0,0000:E1:00.0", 1);
	expect_open_fails(&rdp_mem_rocm, "5", -ENODEV,
			  "--use_rocm: no GPU 5; present: 0: 0000:c1:00.0, "
			  "1: 0000:e1:00.0");
	expect_open_fails(&rdp_mem_rocm, "0000:86:00.0", -ENODEV,
			  "no GPU at 0000:86:00.0");
	assert_int_equal(rdp_mem_open(&rdp_mem_rocm, "e1:00.0", "rxe0", &m), 0);
	assert_string_equal(m->bus_id, "0000:e1:00.0");
	assert_non_null(strstr(m->desc, "GPU 1 Fake AMD GPU 1"));
	assert_string_equal(m->why, "as asked");
	rdp_mem_close(m);
	/* rxe0 has no PCI device: auto falls back to GPU 0, and says so. */
	assert_int_equal(rdp_mem_open(&rdp_mem_rocm, "auto", "rxe0", &m), 0);
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
	assert_int_equal(rdp_mem_open(&rdp_mem_rocm, "0", "rxe0", &m), 0);
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
	/* Out of range: the runtime's error, as an errno, in one line. */
	rdp_clear_error();
	assert_int_equal(m->ops->to_host(m, out, (uint8_t *)p + 4096,
					 sizeof(out)),
			 -EINVAL);
	expect_in(rdp_last_error(), "copy 8192 bytes from GPU 0");
	setenv("RDP_FAKE_HIP_FAIL", "hipMemcpy=1", 1);
	assert_int_equal(m->ops->to_dev(m, p, in, sizeof(in)), -EINVAL);
	expect_in(rdp_last_error(), "copy 8192 bytes to GPU 0");
	expect_in(rdp_last_error(), "hipErrorInvalidValue (invalid argument)");
	m->ops->free(m, p, sizeof(in));
	setenv("RDP_FAKE_HIP_FAIL", "hipMalloc", 1);
	rdp_clear_error();
	assert_int_equal(m->ops->alloc(m, 1 << 20, -1, &p), -ENOMEM);
	expect_in(rdp_last_error(), "allocate 1048576 bytes on GPU 0");
	expect_in(rdp_last_error(), "hipErrorOutOfMemory");
	expect_in(rdp_last_error(), "lower -s or -q");
	setenv("RDP_FAKE_HIP_FAIL", "hipMemset", 1);
	assert_int_equal(m->ops->alloc(m, 1 << 20, -1, &p), -EINVAL);
	expect_in(rdp_last_error(), "zero 1048576 bytes on GPU 0");
	setenv("RDP_FAKE_HIP_FAIL", "hipDeviceSynchronize", 1);
	assert_int_equal(m->ops->alloc(m, 1 << 20, -1, &p), -EINVAL);
	expect_in(rdp_last_error(), "zero 1048576 bytes on GPU 0");
	setenv("RDP_FAKE_HIP_FAIL", "hipSetDevice", 1);
	assert_int_equal(m->ops->alloc(m, 1 << 20, -1, &p), -ENODEV);
	expect_in(rdp_last_error(), "make GPU 0 current (hipSetDevice)");
	rdp_mem_close(m);
	rdp_mem_close(NULL);
}

/* The fake runtime's count of blocks freed holding data, from the copy
 * the loader opened (dlopen of one path gives one handle). */
static unsigned long long dirty_frees(void)
{
	unsigned long long (*fn)(void);
	void *h = dlopen(RDP_FAKE_HIP, RTLD_NOW | RTLD_NOLOAD);
	void *sym = h ? dlsym(h, "rdp_fake_hip_dirty_frees") : NULL;

	assert_non_null(sym);
	memcpy(&fn, &sym, sizeof(fn));
	dlclose(h);
	return fn();
}

/* GPU memory is zeroed through the runtime before it is freed. */
static void test_wipe_before_free(void **state)
{
	uint8_t in[4096], out[4096];
	struct rdp_mem *m = NULL;
	unsigned long long before;
	void *p = NULL;
	size_t i;

	(void)state;
	memset(in, 0x5a, sizeof(in));
	assert_int_equal(rdp_mem_open(&rdp_mem_rocm, "0", "rxe0", &m), 0);
	assert_int_equal(m->ops->alloc(m, sizeof(in), -1, &p), 0);
	assert_int_equal(m->ops->to_dev(m, p, in, sizeof(in)), 0);
	assert_int_equal(m->ops->wipe(m, p, sizeof(in)), 0);
	assert_int_equal(m->ops->to_host(m, out, p, sizeof(out)), 0);
	for (i = 0; i < sizeof(out); i++)
		assert_int_equal(out[i], 0);
	before = dirty_frees();
	m->ops->free(m, p, sizeof(in));
	assert_int_equal(dirty_frees(), before);
	/* left out, the fake sees it: the check can fail */
	assert_int_equal(m->ops->alloc(m, sizeof(in), -1, &p), 0);
	assert_int_equal(m->ops->to_dev(m, p, in, sizeof(in)), 0);
	setenv("RDP_FAKE_HIP_FAIL", "hipMemset", 1);
	assert_int_equal(m->ops->wipe(m, p, sizeof(in)), -EINVAL);
	expect_in(rdp_last_error(), "zero 4096 bytes on GPU 0 Fake AMD GPU 0");
	m->ops->free(m, p, sizeof(in));
	assert_int_equal(dirty_frees(), before + 1);
	rdp_mem_close(m);
}

static void test_host_pin(void **state)
{
	char why[160] = "";
	static char buf[4096];
	struct rdp_mem *m = NULL;

	(void)state;
	assert_int_equal(rdp_mem_open(&rdp_mem_rocm, "0", "rxe0", &m), 0);
	assert_int_equal(
		m->ops->host_pin(m, buf, sizeof(buf), why, sizeof(why)), 0);
	m->ops->host_unpin(m, buf);
	setenv("RDP_FAKE_HIP_FAIL", "hipHostRegister", 1);
	assert_int_equal(m->ops->host_pin(m, buf, sizeof(buf), why,
					  sizeof(why)),
			 -EOPNOTSUPP);
	expect_in(why, "hipErrorNotSupported");
	rdp_mem_close(m);
}

/* Registration with the verbs replaced: what each path gives. */
static int dmabuf_errno, mr_errno, dmabuf_calls, mr_calls;
static struct ibv_mr *the_mr = (struct ibv_mr *)0x1000;

static struct ibv_mr *fake_reg_dmabuf(struct ibv_pd *pd, uint64_t off,
				      size_t bytes, uint64_t iova, int fd,
				      int access)
{
	(void)pd;
	(void)off;
	(void)bytes;
	(void)iova;
	(void)access;
	assert_true(fd >= 0);
	dmabuf_calls++;
	errno = dmabuf_errno;
	return dmabuf_errno ? NULL : the_mr;
}

static struct ibv_mr *fake_reg_mr(struct ibv_pd *pd, void *addr, size_t bytes,
				  int access)
{
	(void)pd;
	(void)addr;
	(void)bytes;
	(void)access;
	mr_calls++;
	errno = mr_errno;
	return mr_errno ? NULL : the_mr;
}

static const struct rdp_gpu_verbs fake_verbs = { fake_reg_dmabuf, fake_reg_mr };

/* The whole line the last registration logged (rdp_last_error keeps its
 * first 255 characters): stderr, read back from a file. */
static char logged[2048];

/* Register 2 MiB of a fresh buffer of type ops; the verbs' answers set. */
static int reg(const struct rdp_mem_ops *ops, int dmabuf_err, int mr_err,
	       enum rdp_mem_path *path, char *note, size_t len)
{
	struct rdp_mem *m = NULL;
	struct ibv_mr *mr = NULL;
	FILE *f = tmpfile();
	void *p = NULL;
	int ret, saved;
	size_t n;

	dmabuf_errno = dmabuf_err;
	mr_errno = mr_err;
	dmabuf_calls = mr_calls = 0;
	note[0] = '\0';
	rdp_clear_error();
	assert_int_equal(rdp_mem_open(ops, "0", "rxe0", &m), 0);
	assert_int_equal(m->ops->alloc(m, 1 << 21, -1, &p), 0);
	fflush(stderr);
	saved = dup(2);
	assert_true(saved >= 0 && f);
	assert_int_equal(dup2(fileno(f), 2), 2);
	ret = rdp_gpu_mem_register(m, &fake_verbs, NULL, p, 1 << 21, 0, "rxe0",
				   &mr, path, note, len);
	fflush(stderr);
	assert_int_equal(dup2(saved, 2), 2);
	close(saved);
	rewind(f);
	n = fread(logged, 1, sizeof(logged) - 1, f);
	logged[n] = '\0';
	fclose(f);
	if (!ret)
		assert_ptr_equal(mr, the_mr);
	m->ops->free(m, p, 1 << 21);
	rdp_mem_close(m);
	return ret;
}

static void test_register(void **state)
{
	enum rdp_mem_path path;
	char note[160];

	(void)state;
	assert_int_equal(reg(&rdp_mem_rocm, 0, 0, &path, note, 160), 0);
	assert_int_equal(path, RDP_MEM_PATH_DMABUF);
	assert_int_equal(mr_calls, 0);
	/* the NIC refuses DMA-BUF: the peer memory path, and a note */
	assert_int_equal(reg(&rdp_mem_rocm, EOPNOTSUPP, 0, &path, note, 160),
			 0);
	assert_int_equal(path, RDP_MEM_PATH_PEERMEM);
	expect_in(note, "rxe0 refused the DMA-BUF region");
	/* both fail: one line, the GPU, each step and its fix */
	assert_int_equal(reg(&rdp_mem_rocm, EOPNOTSUPP, EFAULT, &path, note,
			     160),
			 -EFAULT);
	expect_in(logged, "register 2097152 bytes of GPU 0 Fake AMD "
			  "GPU 0 (host memory) (0000:c1:00.0) "
			  "memory on rxe0");
	expect_in(logged, "DMA-BUF: rxe0 does not take DMA-BUF");
	expect_in(logged, "peer memory: ibv_reg_mr on the GPU "
			  "address failed (Bad address)");
	/* one line, and the tail of it */
	assert_ptr_equal(strchr(logged, '\n'), logged + strlen(logged) - 1);
	expect_in(logged, "ls /sys/kernel/mm/memory_peers");
	/* the runtime cannot export */
	setenv("RDP_FAKE_HIP_DMABUF", "0", 1);
	assert_int_equal(reg(&rdp_mem_rocm, 0, EFAULT, &path, note, 160),
			 -EFAULT);
	assert_int_equal(dmabuf_calls, 0);
	expect_in(logged, "DMA-BUF: ROCm cannot export "
			  "(hipErrorNotSupported");
	expect_in(logged, "ROCm 5.6 or later");
	unsetenv("RDP_FAKE_HIP_DMABUF");
	setenv("RDP_FAKE_HIP_FAIL", "hipMemGetHandleForAddressRange", 1);
	assert_int_equal(reg(&rdp_mem_rocm, 0, EFAULT, &path, note, 160),
			 -EFAULT);
	expect_in(logged, "DMA-BUF: export failed");
	unsetenv("RDP_FAKE_HIP_FAIL");
	/* --use_rocm_dmabuf: DMA-BUF or nothing */
	assert_int_equal(reg(&rdp_mem_rocm_dmabuf, 0, 0, &path, note, 160), 0);
	assert_int_equal(path, RDP_MEM_PATH_DMABUF);
	assert_int_equal(reg(&rdp_mem_rocm_dmabuf, EINVAL, 0, &path, note, 160),
			 -EINVAL);
	assert_int_equal(mr_calls, 0);
	expect_in(logged, "DMA-BUF: ibv_reg_dmabuf_mr on rxe0 "
			  "failed: Invalid argument");
	expect_in(logged, "peer memory: not tried "
			  "(--use_rocm_dmabuf");
}

/* --bounce: host buffers for the NIC, the data on the AMD GPU. */
static void test_staged(void **state)
{
	uint8_t in[4096], out[4096];
	struct rdp_mem *m = NULL, *gpu;
	void *p = NULL;

	(void)state;
	memset(in, 0x3c, sizeof(in));
	assert_int_equal(rdp_mem_open_staged(&rdp_mem_rocm, "0", "rxe0", &m),
			 0);
	assert_int_equal(rdp_mem_kind_of(m), RDP_MEM_KIND_GPU_STAGED);
	assert_non_null(strstr(m->desc, "Fake AMD GPU 0"));
	gpu = rdp_mem_data(m);
	assert_ptr_equal(gpu->ops, &rdp_mem_rocm);
	assert_int_equal(gpu->ops->alloc(gpu, sizeof(in), -1, &p), 0);
	assert_int_equal(gpu->ops->to_dev(gpu, p, in, sizeof(in)), 0);
	assert_int_equal(gpu->ops->to_host(gpu, out, p, sizeof(out)), 0);
	assert_memory_equal(in, out, sizeof(in));
	gpu->ops->free(gpu, p, sizeof(in));
	rdp_mem_close(m);
	setenv("RDP_FAKE_HIP_DEVICES", "0", 1);
	rdp_clear_error();
	assert_int_equal(rdp_mem_open_staged(&rdp_mem_rocm, "0", "rxe0", &m),
			 -ENODEV);
	expect_in(rdp_last_error(), "no GPU: the HIP runtime sees none");
}

/* A ROCm server's memory is named rocm in the client's JSON, staged or
 * not; one of CUDA memory, or an older server, names none and reads as
 * the kind's first device type; a name this build lacks as unknown. */
static void test_peer_type(void **state)
{
	struct rdp_peer_info peer = { .mem = { .kind = RDP_MEM_KIND_GPU } };
	struct rdp_mem *m = NULL;
	json_t *pm;

	(void)state;
	assert_int_equal(rdp_mem_open_staged(&rdp_mem_rocm, "0", "rxe0", &m),
			 0);
	assert_ptr_equal(rdp_mem_data_type(m), &rdp_mem_rocm);
	rdp_mem_close(m);
	assert_int_equal(rdp_mem_open(&rdp_mem_rocm_dmabuf, "0", "rxe0", &m),
			 0);
	assert_ptr_equal(rdp_mem_data_type(m), &rdp_mem_rocm_dmabuf);
	rdp_mem_close(m);
	assert_null(rdp_mem_data_type(NULL));
	assert_ptr_equal(rdp_mem_of_peer(RDP_MEM_KIND_GPU, ""), &rdp_mem_cuda);
	assert_ptr_equal(rdp_mem_of_peer(RDP_MEM_KIND_GPU_STAGED, "rocm"),
			 &rdp_mem_rocm);
	assert_ptr_equal(rdp_mem_of_peer(RDP_MEM_KIND_HOST, "rocm"),
			 &rdp_mem_host);
	assert_null(rdp_mem_of_peer(RDP_MEM_KIND_GPU, "tpu"));
	snprintf(peer.mem.type, sizeof(peer.mem.type), "rocm");
	pm = rdp_json_peer_memory(&peer);
	assert_string_equal(json_string_value(json_object_get(pm, "type")),
			    "rocm");
	json_decref(pm);
	peer.mem.type[0] = '\0';
	pm = rdp_json_peer_memory(&peer);
	assert_string_equal(json_string_value(json_object_get(pm, "type")),
			    "cuda");
	json_decref(pm);
	snprintf(peer.mem.type, sizeof(peer.mem.type), "tpu");
	pm = rdp_json_peer_memory(&peer);
	assert_string_equal(json_string_value(json_object_get(pm, "type")),
			    "unknown");
	json_decref(pm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_options, setup),
		cmocka_unit_test_setup(test_gpu_argument, setup),
		cmocka_unit_test_setup(test_refused_accelerators, setup),
		cmocka_unit_test_setup(test_registry, setup),
		cmocka_unit_test_setup(test_no_runtime, setup),
		cmocka_unit_test_setup(test_no_gpu, setup),
		cmocka_unit_test_setup(test_calls_fail, setup),
		cmocka_unit_test_setup(test_which_gpu, setup),
		cmocka_unit_test_setup(test_alloc_copy, setup),
		cmocka_unit_test_setup(test_wipe_before_free, setup),
		cmocka_unit_test_setup(test_host_pin, setup),
		cmocka_unit_test_setup(test_register, setup),
		cmocka_unit_test_setup(test_staged, setup),
		cmocka_unit_test_setup(test_peer_type, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
