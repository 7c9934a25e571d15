/* SPDX-License-Identifier: BSD-2-Clause */
/* GPU buffers without a GPU: --use_cuda values, the nearest GPU, the
 * driver loader (over the fake library), registration fallback and the
 * diagnosis of each failure. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/cuda.h>
#include <rdmaperf/gpu.h>
#include <rdmaperf/mem.h>
#include <rdmaperf/opts.h>
#include <rdmaperf/sysfs.h>

#include "unit.h"

static void test_spec(void **state)
{
	struct rdp_gpu_spec s;

	(void)state;
	assert_int_equal(rdp_gpu_spec_parse("auto", &s), 0);
	assert_int_equal(s.kind, RDP_GPU_AUTO);
	assert_int_equal(rdp_gpu_spec_parse("0", &s), 0);
	assert_int_equal(s.kind, RDP_GPU_INDEX);
	assert_int_equal(rdp_gpu_spec_parse("63", &s), 0);
	assert_int_equal(s.index, 63);
	assert_int_equal(rdp_gpu_spec_parse("3B:00.0", &s), 0);
	assert_int_equal(s.kind, RDP_GPU_BUS_ID);
	assert_string_equal(s.bus_id, "0000:3b:00.0");
	assert_int_equal(rdp_gpu_spec_parse("0001:C1:1f.7", &s), 0);
	assert_string_equal(s.bus_id, "0001:c1:1f.7");
	assert_int_equal(rdp_gpu_spec_parse("", &s), -EINVAL);
	assert_int_equal(rdp_gpu_spec_parse("64", &s), -EINVAL);
	assert_int_equal(rdp_gpu_spec_parse("-1", &s), -EINVAL);
	assert_int_equal(rdp_gpu_spec_parse("gpu0", &s), -EINVAL);
	assert_int_equal(rdp_gpu_spec_parse("0x1", &s), -EINVAL);
	assert_int_equal(rdp_gpu_spec_parse("3b:00", &s), -EINVAL);
	assert_int_equal(rdp_gpu_spec_parse("3b:00.8", &s), -EINVAL);
	assert_int_equal(rdp_gpu_spec_parse("12345:00:00.0", &s), -EINVAL);
	assert_int_equal(rdp_gpu_spec_parse("3g:00.0", &s), -EINVAL);
}

static void test_options(void **state)
{
	struct rdp_opts o;
	char err[256] = "";

	(void)state;
	assert_int_equal(CLIENT(&o, err, "write_bw", "--use_cuda=auto", "h"),
			 0);
	assert_string_equal(o.mem.device, "auto");
	assert_ptr_equal(o.mem.type, &rdp_mem_cuda);
	assert_int_equal(CLIENT(&o, err, "read_lat", "--use_cuda", "0", "h"),
			 0);
	assert_int_equal(CLIENT(&o, err, "write_bw", "--use_cuda=gpu", "h"),
			 -EINVAL);
	assert_non_null(strstr(err, "--use_cuda gpu: give a GPU number"));
	/* write_lat watches its buffer with the CPU. */
	assert_int_equal(CLIENT(&o, err, "write_lat", "--use_cuda=0", "h"),
			 -EINVAL);
	assert_non_null(strstr(err, "write_lat polls its receive buffer"));
	assert_int_equal(CLIENT(&o, err, "write_lat", "h"), 0);
	assert_null(o.mem.type);
}

static void test_pci_distance(void **state)
{
	const char *nic = "/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/"
			  "0000:02:01.0/0000:03:00.0";
	const char *same_switch = "/sys/devices/pci0000:00/0000:00:01.0/"
				  "0000:01:00.0/0000:02:02.0/0000:04:00.0";
	const char *same_root = "/sys/devices/pci0000:00/0000:00:02.0/"
				"0000:05:00.0";
	const char *other_root = "/sys/devices/pci0000:80/0000:80:01.0/"
				 "0000:81:00.0";

	(void)state;
	assert_int_equal(rdp_pci_distance(nic, same_switch), 4);
	assert_true(rdp_pci_distance(nic, same_switch) <
		    rdp_pci_distance(nic, same_root));
	assert_int_equal(rdp_pci_distance(nic, other_root), RDP_PCI_FAR);
	assert_int_equal(rdp_pci_distance(nic, nic), 0);
}

/* A sysfs tree with one NIC and GPUs behind chosen PCI paths. */
static void mkpath(const char *root, const char *rel)
{
	char p[PATH_MAX], *s;

	snprintf(p, sizeof(p), "%s%s", root, rel);
	for (s = p + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	mkdir(p, 0755);
}

static void link_to(const char *root, const char *target, const char *rel)
{
	char t[PATH_MAX], l[PATH_MAX], dir[PATH_MAX];

	snprintf(t, sizeof(t), "%s%s", root, target);
	snprintf(l, sizeof(l), "%s%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", rel);
	*strrchr(dir, '/') = '\0';
	mkpath(root, dir);
	assert_int_equal(symlink(t, l), 0);
}

static void write_file(const char *root, const char *rel, const char *text)
{
	char p[PATH_MAX], dir[PATH_MAX];
	FILE *f;

	snprintf(dir, sizeof(dir), "%s", rel);
	*strrchr(dir, '/') = '\0';
	mkpath(root, dir);
	snprintf(p, sizeof(p), "%s%s", root, rel);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

#define ROOT0 "/sys/devices/pci0000:00/0000:00:01.0"
#define ROOT8 "/sys/devices/pci0000:80/0000:80:01.0"

static void test_nearest(void **state)
{
	char root[] = "/tmp/rdp-gpu-XXXXXX", why[160];
	const char ids[3][RDP_GPU_SPEC_MAX] = { "0000:81:00.0", "0000:04:00.0",
						"0000:05:00.0" };
	struct rdp_sysfs fs;

	(void)state;
	assert_non_null(mkdtemp(root));
	mkpath(root, ROOT0 "/0000:01:00.0/0000:02:01.0/0000:03:00.0");
	mkpath(root, ROOT0 "/0000:01:00.0/0000:02:02.0/0000:04:00.0");
	mkpath(root, "/sys/devices/pci0000:00/0000:00:02.0/0000:05:00.0");
	mkpath(root, ROOT8 "/0000:81:00.0");
	link_to(root, ROOT0 "/0000:01:00.0/0000:02:01.0/0000:03:00.0",
		"/sys/class/infiniband/mlx5_0/device");
	link_to(root, ROOT8 "/0000:81:00.0",
		"/sys/bus/pci/devices/0000:81:00.0");
	link_to(root, ROOT0 "/0000:01:00.0/0000:02:02.0/0000:04:00.0",
		"/sys/bus/pci/devices/0000:04:00.0");
	link_to(root, "/sys/devices/pci0000:00/0000:00:02.0/0000:05:00.0",
		"/sys/bus/pci/devices/0000:05:00.0");
	rdp_sysfs_init(&fs, root);
	/* GPU 1 shares the NIC's switch. */
	assert_int_equal(
		rdp_gpu_nearest(&fs, "mlx5_0", ids, 3, why, sizeof(why)), 1);
	assert_string_equal(why, "nearest to mlx5_0, 4 PCI hops");
	/* Only the far GPU: chosen, and said to be far. */
	assert_int_equal(
		rdp_gpu_nearest(&fs, "mlx5_0", ids, 1, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "no GPU shares a PCI root with mlx5_0"));
	/* Soft-RoCE has no PCI device. */
	assert_int_equal(rdp_gpu_nearest(&fs, "rxe0", ids, 3, why, sizeof(why)),
			 0);
	assert_string_equal(why, "rxe0 is not a PCI device: GPU 0");
}

static void test_facts(void **state)
{
	char root[] = "/tmp/rdp-gpu-XXXXXX";
	struct rdp_gpu_facts f;
	struct rdp_sysfs fs;

	(void)state;
	assert_non_null(mkdtemp(root));
	rdp_sysfs_init(&fs, root);
	rdp_gpu_facts_read(&fs, "0000:3b:00.0", &f);
	assert_int_equal(f.peermem_loaded, 0);
	assert_int_equal(f.iommu_on, 0);
	assert_int_equal(f.bar1_bytes, 0);
	mkpath(root, "/sys/module/nvidia_peermem");
	mkpath(root, "/sys/class/iommu/dmar0");
	write_file(root, "/proc/cmdline", "BOOT_IMAGE=/vmlinuz ro quiet\n");
	write_file(
		root, "/sys/bus/pci/devices/0000:3b:00.0/resource",
		"0x00000000a0000000 0x00000000a0ffffff 0x0000000000040200\n"
		"0x0000038000000000 0x000003800fffffff 0x000000000014220c\n");
	rdp_gpu_facts_read(&fs, "0000:3b:00.0", &f);
	assert_int_equal(f.peermem_loaded, 1);
	assert_int_equal(f.iommu_on, 1);
	assert_int_equal(f.bar1_bytes, 256ull << 20);
	write_file(root, "/proc/cmdline", "ro intel_iommu=on iommu=pt\n");
	rdp_gpu_facts_read(&fs, "0000:3b:00.0", &f);
	assert_int_equal(f.iommu_on, 0);
}

/* Registration calls that fail as a test says. */
struct fake_reg {
	int export_ret, dmabuf_errno, mr_errno;
	int fd_seen, reg_dmabuf_calls, reg_mr_calls;
	uint64_t iova;
};

static struct ibv_mr *const GOOD_MR = (struct ibv_mr *)0x1000;

static int fake_export(void *ctx, void *ptr, size_t bytes, int *fd, char *text,
		       size_t len)
{
	struct fake_reg *f = ctx;

	(void)ptr;
	(void)bytes;
	if (f->export_ret) {
		snprintf(text, len, "CUDA_ERROR_NOT_SUPPORTED");
		return f->export_ret;
	}
	*fd = open("/dev/null", O_RDONLY);
	f->fd_seen = *fd;
	return 0;
}

static struct fake_reg *current;

static struct ibv_mr *fake_reg_dmabuf(struct ibv_pd *pd, uint64_t off,
				      size_t bytes, uint64_t iova, int fd,
				      int access)
{
	(void)pd;
	(void)off;
	(void)bytes;
	(void)access;
	assert_int_equal(fd, current->fd_seen);
	current->iova = iova;
	current->reg_dmabuf_calls++;
	errno = current->dmabuf_errno;
	return current->dmabuf_errno ? NULL : GOOD_MR;
}

static struct ibv_mr *fake_reg_mr(struct ibv_pd *pd, void *addr, size_t bytes,
				  int access)
{
	(void)pd;
	(void)addr;
	(void)bytes;
	(void)access;
	current->reg_mr_calls++;
	errno = current->mr_errno;
	return current->mr_errno ? NULL : GOOD_MR;
}

static int reg(struct fake_reg *f, enum rdp_mem_path *path,
	       struct rdp_gpu_reg_log *log)
{
	struct rdp_gpu_reg_ops ops = { f, fake_export, fake_reg_dmabuf,
				       fake_reg_mr };
	struct ibv_mr *mr = NULL;
	int ret;

	current = f;
	ret = rdp_gpu_register(&ops, NULL, (void *)0x7f0000200000, 1 << 21, 0,
			       &mr, path, log);
	assert_true(ret ? mr == NULL : mr == GOOD_MR);
	return ret;
}

static void test_register_paths(void **state)
{
	struct fake_reg dmabuf_ok = { 0 };
	struct fake_reg no_export = { .export_ret = -EOPNOTSUPP };
	struct fake_reg nic_refuses = { .dmabuf_errno = EOPNOTSUPP };
	struct rdp_gpu_reg_log log;
	enum rdp_mem_path path;
	char note[160];

	(void)state;
	assert_int_equal(reg(&dmabuf_ok, &path, &log), 0);
	assert_int_equal(path, RDP_MEM_PATH_DMABUF);
	assert_int_equal(dmabuf_ok.reg_mr_calls, 0);
	/* The GPU address is the MR's address, as the peer is told. */
	assert_int_equal(dmabuf_ok.iova, 0x7f0000200000ull);
	/* The exported fd is closed once the MR holds it. */
	assert_int_equal(fcntl(dmabuf_ok.fd_seen, F_GETFD), -1);

	assert_int_equal(reg(&no_export, &path, &log), 0);
	assert_int_equal(path, RDP_MEM_PATH_PEERMEM);
	assert_int_equal(no_export.reg_dmabuf_calls, 0);
	rdp_gpu_dmabuf_note(&log, "mlx5_0", note, sizeof(note));
	assert_string_equal(note, "the GPU driver did not export DMA-BUF: "
				  "CUDA_ERROR_NOT_SUPPORTED");

	assert_int_equal(reg(&nic_refuses, &path, &log), 0);
	assert_int_equal(path, RDP_MEM_PATH_PEERMEM);
	assert_int_equal(nic_refuses.reg_mr_calls, 1);
	rdp_gpu_dmabuf_note(&log, "rxe0", note, sizeof(note));
	assert_non_null(strstr(note, "rxe0 refused the DMA-BUF region: "));
}

static void test_diagnosis(void **state)
{
	struct fake_reg both = { .dmabuf_errno = EOPNOTSUPP,
				 .mr_errno = EFAULT };
	struct rdp_gpu_facts f = { 0 };
	struct rdp_gpu_reg_log log;
	enum rdp_mem_path path;
	char why[700];

	(void)state;
	assert_int_equal(reg(&both, &path, &log), -EFAULT);
	assert_int_equal(log.dmabuf_err, -EOPNOTSUPP);
	assert_int_equal(log.peer_err, -EFAULT);
	rdp_gpu_diagnose(&log, &f, "mlx5_0", 1 << 21, why, sizeof(why));
	assert_non_null(strstr(why, "DMA-BUF: mlx5_0 does not take DMA-BUF"));
	assert_non_null(strstr(why, "ibv_devinfo -d mlx5_0"));
	assert_non_null(strstr(why, "Bad address"));
	assert_non_null(strstr(why, "modprobe nvidia-peermem"));
	assert_null(strchr(why, '\n'));
	/* The module is there: a BAR1 window too small is next. */
	f.peermem_loaded = 1;
	f.bar1_bytes = 2ull << 20;
	rdp_gpu_diagnose(&log, &f, "mlx5_0", 2 << 20, why, sizeof(why));
	assert_non_null(strstr(why, "BAR1 window"));
	assert_null(strstr(why, "modprobe"));
	/* ...then the IOMMU. */
	f.bar1_bytes = 256ull << 30;
	f.iommu_on = 1;
	rdp_gpu_diagnose(&log, &f, "mlx5_0", 2 << 20, why, sizeof(why));
	assert_non_null(strstr(why, "iommu=pt"));
	/* The driver cannot export at all. */
	log.export_err = -EOPNOTSUPP;
	snprintf(log.export_text, sizeof(log.export_text), "CUDA_ERROR_X");
	rdp_gpu_diagnose(&log, &f, "mlx5_0", 2 << 20, why, sizeof(why));
	assert_non_null(strstr(why, "the GPU driver cannot export "
				    "(CUDA_ERROR_X)"));
	assert_non_null(strstr(why, "/proc/driver/nvidia/version"));
}

static void test_loader(void **state)
{
	struct rdp_cuda *cu = NULL;
	char err[512] = "", text[160];
	int n = -1;

	(void)state;
	assert_int_equal(rdp_cuda_load(RDP_FAKE_CUDA, &cu, err, sizeof(err)),
			 0);
	assert_non_null(cu->mem_get_handle);
	assert_int_equal(cu->init(0), 0);
	assert_int_equal(cu->device_count(&n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(rdp_cuda_strerror(cu, RDP_CU_ERROR_NO_DEVICE, text,
					      sizeof(text)),
			    "CUDA_ERROR_NO_DEVICE (no CUDA-capable device is "
			    "detected)");
	assert_string_equal(rdp_cuda_strerror(cu, 99999, text, sizeof(text)),
			    "CUDA error 99999");
	rdp_cuda_unload(cu);
	/* No driver installed. */
	cu = NULL;
	assert_int_equal(rdp_cuda_load("/nonexistent/libcuda.so.1", &cu, err,
				       sizeof(err)),
			 -ENOENT);
	assert_null(cu);
	assert_non_null(strstr(err, "no CUDA driver: cannot load "
				    "/nonexistent/libcuda.so.1"));
	/* A library that is not the driver. */
	assert_int_equal(rdp_cuda_load("libm.so.6", &cu, err, sizeof(err)),
			 -ENOEXEC);
	assert_non_null(strstr(err, "libm.so.6 lacks cuInit"));
	/* The test hook names the library when the caller does not. */
	setenv("RDP_CUDA_LIBRARY", RDP_FAKE_CUDA, 1);
	assert_int_equal(rdp_cuda_load(NULL, &cu, err, sizeof(err)), 0);
	assert_string_equal(cu->path, RDP_FAKE_CUDA);
	rdp_cuda_unload(cu);
	unsetenv("RDP_CUDA_LIBRARY");
}

static void test_errno(void **state)
{
	(void)state;
	assert_int_equal(rdp_cuda_errno(RDP_CU_SUCCESS), 0);
	assert_int_equal(rdp_cuda_errno(RDP_CU_ERROR_NO_DEVICE), -ENODEV);
	assert_int_equal(rdp_cuda_errno(RDP_CU_ERROR_OUT_OF_MEMORY), -ENOMEM);
	assert_int_equal(rdp_cuda_errno(RDP_CU_ERROR_NOT_SUPPORTED),
			 -EOPNOTSUPP);
	assert_int_equal(rdp_cuda_errno(999), -EIO);
}

/* Every memory type fills its whole table: callers never test for NULL. */
static void test_mem_tables_whole(void **state)
{
	const struct rdp_mem_ops *const types[] = { &rdp_mem_host,
						    &rdp_mem_cuda,
						    &rdp_mem_staged };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		const struct rdp_mem_ops *t = types[i];

		assert_non_null(t->name);
		assert_non_null(t->open);
		assert_non_null(t->close);
		assert_non_null(t->alloc);
		assert_non_null(t->free);
		assert_non_null(t->wipe);
		assert_non_null(t->reg);
		assert_non_null(t->to_dev);
		assert_non_null(t->to_host);
		assert_non_null(t->host_pin);
		assert_non_null(t->host_unpin);
	}
	assert_int_equal(rdp_mem_host.kind, RDP_MEM_KIND_HOST);
	assert_int_equal(rdp_mem_cuda.kind, RDP_MEM_KIND_GPU);
	assert_int_equal(rdp_mem_staged.kind, RDP_MEM_KIND_GPU_STAGED);
	assert_false(rdp_mem_cuda.cpu_readable);
	assert_true(rdp_mem_staged.cpu_readable);
}

/* Host memory through the table: zeroed, copies are plain, no pinning. */
static void test_mem_host(void **state)
{
	uint8_t in[64], out[64];
	struct rdp_mem *m = NULL;
	char why[64] = "";
	uint8_t *p = NULL;
	size_t i;

	(void)state;
	assert_int_equal(rdp_mem_open(&rdp_mem_host, "", "rxe0", &m), 0);
	assert_ptr_equal(rdp_mem_data(m), m);
	assert_string_equal(m->desc, "host");
	assert_int_equal(m->ops->alloc(m, 4096, -1, (void **)&p), 0);
	for (i = 0; i < 4096; i++)
		assert_int_equal(p[i], 0);
	memset(in, 0x5a, sizeof(in));
	assert_int_equal(m->ops->to_dev(m, p, in, sizeof(in)), 0);
	assert_int_equal(m->ops->to_host(m, out, p, sizeof(out)), 0);
	assert_memory_equal(in, out, sizeof(in));
	assert_int_equal(m->ops->host_pin(m, p, 4096, why, sizeof(why)), 0);
	m->ops->host_unpin(m, p);
	assert_int_equal(m->ops->alloc(m, 0, -1, (void **)&p), -EINVAL);
	m->ops->free(m, p, 4096);
	rdp_mem_close(m);
	rdp_mem_close(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spec),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_pci_distance),
		cmocka_unit_test(test_nearest),
		cmocka_unit_test(test_facts),
		cmocka_unit_test(test_register_paths),
		cmocka_unit_test(test_diagnosis),
		cmocka_unit_test(test_loader),
		cmocka_unit_test(test_errno),
		cmocka_unit_test(test_mem_tables_whole),
		cmocka_unit_test(test_mem_host),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
