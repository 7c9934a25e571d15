/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * GPU memory buffers on AMD GPUs through the HIP runtime, loaded at run
 * time (rocm_loader.c), so no ROCm is needed to build: the runtime's
 * table for the GPU memory type (gpu_mem.c), and the causes of a failed
 * registration on a ROCm host. Two rows: --use_rocm registers DMA-BUF
 * first and the peer memory path second; --use_rocm_dmabuf only DMA-BUF.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rdmaperf/gpu.h>
#include <rdmaperf/mem.h>

#include "gpu_rt.h"
#include "mem_int.h"
#include "rocm_int.h"

static struct rdp_hip *hip_of(const struct rdp_gpu *g)
{
	return g->lib;
}

static int hip_load(struct rdp_gpu *g, char *err, size_t len)
{
	struct rdp_hip *hip = NULL;
	int ret = rdp_hip_load(NULL, &hip, err, len);

	if (ret)
		return ret;
	g->lib = hip;
	g->path = hip->path;
	return 0;
}

static void hip_unload(struct rdp_gpu *g)
{
	rdp_hip_unload(hip_of(g));
}

static const char *hip_strerror(const struct rdp_gpu *g, int r, char *buf,
				size_t len)
{
	return rdp_hip_strerror(hip_of(g), r, buf, len);
}

static int hip_init(struct rdp_gpu *g)
{
	return hip_of(g)->init(0);
}

static int hip_count(struct rdp_gpu *g, int *n)
{
	return hip_of(g)->device_count(n);
}

static int hip_bus_id(struct rdp_gpu *g, int i, char *raw, int len)
{
	return hip_of(g)->device_bus_id(raw, len, i);
}

static int hip_open_dev(struct rdp_gpu *g, char *name, int len)
{
	rdp_hip_result r = hip_of(g)->set_device(g->index);

	return r ? r : hip_of(g)->device_name(name, len, g->index);
}

static void hip_close_dev(struct rdp_gpu *g)
{
	(void)g; /* no context of its own */
}

static int hip_set_current(struct rdp_gpu *g)
{
	return hip_of(g)->set_device(g->index);
}

static int hip_alloc(struct rdp_gpu *g, void **p, size_t bytes)
{
	return hip_of(g)->malloc(p, bytes);
}

/* hipMemset may return before the GPU has run it: wait, so no transfer
 * into the buffer is overwritten by it. */
static int hip_prepare(struct rdp_gpu *g, void *p, size_t bytes)
{
	rdp_hip_result r = hip_of(g)->memset(p, 0, bytes);

	return r ? r : hip_of(g)->synchronize();
}

static int hip_release(struct rdp_gpu *g, void *p)
{
	return hip_of(g)->free(p);
}

/* Ahead of the hipFree that follows and waits for it. */
static int hip_zero(struct rdp_gpu *g, void *p, size_t bytes)
{
	return hip_of(g)->memset(p, 0, bytes);
}

static int hip_copy(struct rdp_gpu *g, void *dst, const void *src, size_t bytes,
		    int to_dev)
{
	return hip_of(g)->memcpy(dst, src, bytes,
				 to_dev ? RDP_HIP_COPY_TO_DEVICE
					: RDP_HIP_COPY_TO_HOST);
}

static int hip_export_dmabuf(void *ctx, void *ptr, size_t bytes, int *fd,
			     char *text, size_t len)
{
	struct rdp_hip *hip = hip_of(ctx);
	rdp_hip_result r;

	if (!hip->mem_get_handle) {
		snprintf(text, len,
			 "hipMemGetHandleForAddressRange missing: HIP "
			 "runtime older than ROCm 5.6");
		return -EOPNOTSUPP;
	}
	r = hip->mem_get_handle(fd, ptr, bytes, RDP_HIP_RANGE_HANDLE_DMA_BUF,
				0);
	if (r)
		rdp_hip_strerror(hip, r, text, len);
	return rdp_hip_errno(r);
}

static int hip_can_pin(const struct rdp_gpu *g)
{
	return hip_of(g)->host_register && hip_of(g)->host_unregister;
}

static int hip_host_register(struct rdp_gpu *g, void *p, size_t bytes)
{
	return hip_of(g)->host_register(p, bytes, 0);
}

static void hip_host_unregister(struct rdp_gpu *g, void *p)
{
	hip_of(g)->host_unregister(p);
}

/* The peer memory half: amdgpu's peer-direct client, the IOMMU. */
static void peer_cause(const struct rdp_gpu_reg_log *log,
		       const struct rdp_gpu_facts *f, size_t bytes, char *buf,
		       size_t len)
{
	const char *err = strerror(-log->peer_err);

	(void)bytes;
	if (log->peer_err == 1)
		snprintf(buf, len,
			 "peer memory: not tried (--use_rocm_dmabuf; drop "
			 "it to fall back to ibv_reg_mr)");
	else if (f->iommu_on)
		snprintf(buf, len,
			 "peer memory: ibv_reg_mr on the GPU address failed "
			 "(%s) with a translating IOMMU, which blocks "
			 "peer-to-peer DMA on many platforms: boot with "
			 "iommu=pt (check: cat /proc/cmdline)",
			 err);
	else
		snprintf(buf, len,
			 "peer memory: ibv_reg_mr on the GPU address failed "
			 "(%s): no peer memory client for amdgpu: it needs "
			 "the amdgpu-dkms driver with peer-direct and a NIC "
			 "stack that loads it (check: ls "
			 "/sys/kernel/mm/memory_peers)",
			 err);
}

/* DMA-BUF export on a ROCm host. */
static const struct rdp_gpu_export_words hip_export = {
	.who = "ROCm",
	.needs = "the amdgpu driver of ROCm 5.6 or later and Linux 5.12 or "
		 "later (check: modinfo amdgpu | grep ^version; uname -r)",
	.call = " (hipMemGetHandleForAddressRange)",
	.check = " (check: dmesg | grep amdgpu)",
};

static const struct rdp_gpu_rt hip_rt = {
	.option = "--use_rocm",
	.runtime = "the HIP runtime",
	.bus_example = "0000:c1:00.0",
	.driver_check = "check that the amdgpu driver is loaded (ls "
			"/dev/kfd; rocm-smi)",
	.init_call = "start the HIP runtime (hipInit)",
	.init_hint = ": check that the amdgpu driver is loaded (ls /dev/kfd; "
		     "dmesg | grep amdgpu)",
	.count_call = "count GPUs (hipGetDeviceCount)",
	.open_call = "open GPU (hipSetDevice)",
	.open_hint = ": check rocm-smi",
	.current_call = " (hipSetDevice)",
	.prepare_what = "zero",
	.pin_missing = "the HIP runtime lacks hipHostRegister",
	.no_device = RDP_HIP_ERROR_NO_DEVICE,
	.load = hip_load,
	.unload = hip_unload,
	.strerror = hip_strerror,
	.to_errno = rdp_hip_errno,
	.init = hip_init,
	.count = hip_count,
	.bus_id = hip_bus_id,
	.open_dev = hip_open_dev,
	.close_dev = hip_close_dev,
	.set_current = hip_set_current,
	.alloc = hip_alloc,
	.prepare = hip_prepare,
	.release = hip_release,
	.zero = hip_zero,
	.copy = hip_copy,
	.export_dmabuf = hip_export_dmabuf,
	.can_pin = hip_can_pin,
	.host_register = hip_host_register,
	.host_unregister = hip_host_unregister,
	.export_words = &hip_export,
	.peer_cause = peer_cause,
};

static int rocm_check_spec(const char *spec, char *err, size_t len)
{
	return rdp_gpu_mem_check_spec(&hip_rt, spec, err, len);
}

static int rocm_open(struct rdp_mem *m, const char *spec, const char *nic,
		     char *err, size_t len)
{
	return rdp_gpu_mem_open(&hip_rt, m, spec, nic,
				m->ops == &rdp_mem_rocm_dmabuf, err, len);
}

const struct rdp_mem_ops rdp_mem_rocm = {
	.name = "rocm",
	.option = "--use_rocm",
	.check_spec = rocm_check_spec,
	.open = rocm_open,
	RDP_GPU_MEM_OPS,
};

/* The same memory, registered through DMA-BUF or not at all. */
const struct rdp_mem_ops rdp_mem_rocm_dmabuf = {
	.name = "rocm",
	.option = "--use_rocm_dmabuf",
	.check_spec = rocm_check_spec,
	.open = rocm_open,
	RDP_GPU_MEM_OPS,
};
