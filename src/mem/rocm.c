/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * GPU memory buffers on AMD GPUs through the HIP runtime, loaded at run
 * time (rocm_loader.c), so no ROCm is needed to build. Two rows: --use_rocm
 * registers DMA-BUF first and the peer memory path second;
 * --use_rocm_dmabuf only DMA-BUF.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/verbs.h>

#include <rdmaperf/gpu.h>
#include <rdmaperf/log.h>
#include <rdmaperf/mem.h>
#include <rdmaperf/sysfs.h>

#include "mem_int.h"
#include "rocm_int.h"

static int rocm_check_spec(const char *spec, char *err, size_t len)
{
	struct rdp_gpu_spec parsed;

	if (!rdp_gpu_spec_parse(spec, &parsed))
		return 0;
	snprintf(err, len,
		 "--use_rocm %s: give a GPU number (0..%d), auto, or a PCI bus "
		 "id like 0000:c1:00.0",
		 spec, RDP_GPU_MAX - 1);
	return -EINVAL;
}

/* One line from a failed call: "hipInit: hipError... (text)". */
static int hip_fail(struct rdp_rocm_state *st, rdp_hip_result r,
		    const char *call, const char *hint, char *err, size_t len)
{
	char text[160];

	snprintf(err, len, "%s: %s%s", call,
		 rdp_hip_strerror(st->hip, r, text, sizeof(text)), hint);
	return rdp_hip_errno(r);
}

static int start_runtime(struct rdp_rocm_state *st, int *count, char *err,
			 size_t len)
{
	rdp_hip_result r = st->hip->init(0);
	char text[160];

	if (r == RDP_HIP_ERROR_NO_DEVICE) {
		snprintf(err, len,
			 "no GPU: the HIP runtime (%s) sees no device (%s): "
			 "check that the amdgpu driver is loaded (ls "
			 "/dev/kfd; rocm-smi), or drop --use_rocm",
			 st->hip->path,
			 rdp_hip_strerror(st->hip, r, text, sizeof(text)));
		return -ENODEV;
	}
	if (r)
		return hip_fail(st, r, "start the HIP runtime (hipInit)",
				": check that the amdgpu driver is loaded "
				"(ls /dev/kfd; dmesg | grep amdgpu)",
				err, len);
	r = st->hip->device_count(count);
	if (r == RDP_HIP_ERROR_NO_DEVICE)
		*count = 0;
	else if (r)
		return hip_fail(st, r, "count GPUs (hipGetDeviceCount)", "",
				err, len);
	if (*count <= 0) {
		snprintf(err, len,
			 "no GPU: the HIP runtime sees none: check that the "
			 "amdgpu driver is loaded (ls /dev/kfd; rocm-smi), or "
			 "drop --use_rocm");
		return -ENODEV;
	}
	if (*count > RDP_GPU_MAX)
		*count = RDP_GPU_MAX;
	return 0;
}

static void list_gpus(char (*ids)[RDP_GPU_SPEC_MAX], int n, char *buf,
		      size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%d: %s",
					i ? ", " : "", i, ids[i]);
}

/* The GPU the spec names, among n with these bus ids. */
static int choose(const struct rdp_gpu_spec *spec, const char *nic,
		  char (*ids)[RDP_GPU_SPEC_MAX], int n, struct rdp_mem *m,
		  char *err, size_t len)
{
	char list[256];
	struct rdp_sysfs fs;
	int i;

	if (spec->kind == RDP_GPU_AUTO) {
		rdp_sysfs_init(&fs, NULL);
		return rdp_gpu_nearest(&fs, nic,
				       (const char(*)[RDP_GPU_SPEC_MAX])ids,
				       (size_t)n, m->why, sizeof(m->why));
	}
	if (spec->kind == RDP_GPU_INDEX && spec->index < n) {
		snprintf(m->why, sizeof(m->why), "as asked");
		return spec->index;
	}
	for (i = 0; spec->kind == RDP_GPU_BUS_ID && i < n; i++) {
		if (!strcmp(ids[i], spec->bus_id)) {
			snprintf(m->why, sizeof(m->why), "as asked");
			return i;
		}
	}
	list_gpus(ids, n, list, sizeof(list));
	if (spec->kind == RDP_GPU_INDEX)
		snprintf(err, len, "--use_rocm: no GPU %d; present: %s",
			 spec->index, list);
	else
		snprintf(err, len, "--use_rocm: no GPU at %s; present: %s",
			 spec->bus_id, list);
	return -ENODEV;
}

static int open_gpu(struct rdp_rocm_state *st, struct rdp_mem *m,
		    const struct rdp_gpu_spec *spec, const char *nic, char *err,
		    size_t len)
{
	char ids[RDP_GPU_MAX][RDP_GPU_SPEC_MAX], raw[RDP_GPU_SPEC_MAX];
	char name[96];
	rdp_hip_result r;
	int i, n, ret;

	ret = start_runtime(st, &n, err, len);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		r = st->hip->device_bus_id(raw, sizeof(raw), i);
		if (r)
			return hip_fail(st, r, "query GPU", "", err, len);
		rdp_gpu_bus_id_norm(raw, ids[i], sizeof(ids[i]));
	}
	st->index = choose(spec, nic, ids, n, m, err, len);
	if (st->index < 0)
		return st->index;
	r = st->hip->set_device(st->index);
	if (!r)
		r = st->hip->device_name(name, sizeof(name), st->index);
	if (r)
		return hip_fail(st, r, "open GPU (hipSetDevice)",
				": check rocm-smi", err, len);
	snprintf(m->bus_id, sizeof(m->bus_id), "%s", ids[st->index]);
	snprintf(m->desc, sizeof(m->desc), "GPU %d %s (%s)", st->index, name,
		 ids[st->index]);
	return 0;
}

static void rocm_close(struct rdp_mem *m)
{
	struct rdp_rocm_state *st = m ? m->state : NULL;

	if (!st)
		return;
	rdp_hip_unload(st->hip);
	free(st);
	m->state = NULL;
}

static int rocm_open(struct rdp_mem *m, const char *spec_text, const char *nic,
		     char *err, size_t len)
{
	struct rdp_gpu_spec spec;
	struct rdp_rocm_state *st;
	int ret;

	if (rdp_gpu_spec_parse(spec_text, &spec)) {
		snprintf(err, len,
			 "--use_rocm %s: give a GPU number, auto or a PCI "
			 "bus id",
			 spec_text);
		return -EINVAL;
	}
	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->dmabuf_only = m->ops == &rdp_mem_rocm_dmabuf;
	m->state = st;
	ret = rdp_hip_load(NULL, &st->hip, err, len);
	/* No runtime is no GPU to this program: unsupported here (exit 77). */
	if (ret == -ENOENT)
		ret = -ENODEV;
	if (!ret)
		ret = open_gpu(st, m, &spec, nic, err, len);
	if (ret)
		rocm_close(m);
	return ret;
}

/* The current device is per thread: the server may serve from another. */
static int set_dev(struct rdp_rocm_state *st)
{
	rdp_hip_result r = st->hip->set_device(st->index);

	if (r)
		rdp_err("make GPU %d current (hipSetDevice): %s", st->index,
			rdp_hip_strerror(st->hip, r, (char[160]){ 0 }, 160));
	return rdp_hip_errno(r);
}

static int rocm_alloc(struct rdp_mem *m, size_t bytes, int numa_node,
		      void **out)
{
	struct rdp_rocm_state *st = m->state;
	char text[160];
	rdp_hip_result r;
	void *p = NULL;
	int ret = set_dev(st);

	(void)numa_node; /* the GPU's memory is where the GPU is */
	if (ret)
		return ret;
	r = st->hip->malloc(&p, bytes);
	if (r) {
		rdp_err("allocate %zu bytes on %s: %s: lower -s or -q", bytes,
			m->desc, rdp_hip_strerror(st->hip, r, text, 160));
		return rdp_hip_errno(r);
	}
	/* hipMemset may return before the GPU has run it: wait, so no
	 * transfer into the buffer is overwritten by it. */
	r = st->hip->memset(p, 0, bytes);
	if (!r)
		r = st->hip->synchronize();
	if (r) {
		rdp_err("zero %zu bytes on %s: %s", bytes, m->desc,
			rdp_hip_strerror(st->hip, r, text, 160));
		st->hip->free(p);
		return rdp_hip_errno(r);
	}
	*out = p;
	return 0;
}

static void rocm_free(struct rdp_mem *m, void *ptr, size_t bytes)
{
	struct rdp_rocm_state *st = m->state;

	(void)bytes;
	if (ptr && !set_dev(st))
		st->hip->free(ptr);
}

/* The CPU cannot reach GPU memory: the runtime's memset zeroes it, ahead
 * of the hipFree that follows and waits for it. */
static int rocm_wipe(struct rdp_mem *m, void *ptr, size_t bytes)
{
	struct rdp_rocm_state *st = m->state;
	rdp_hip_result r;
	int ret = set_dev(st);

	if (ret)
		return ret;
	r = st->hip->memset(ptr, 0, bytes);
	if (r)
		rdp_err("zero %zu bytes on %s before freeing them: %s", bytes,
			m->desc,
			rdp_hip_strerror(st->hip, r, (char[160]){ 0 }, 160));
	return rdp_hip_errno(r);
}

static int rocm_reg(struct rdp_mem *m, struct ibv_pd *pd, void *ptr,
		    size_t bytes, int access, const char *nic,
		    struct ibv_mr **out, enum rdp_mem_path *path, char *note,
		    size_t note_len)
{
	static const struct rdp_rocm_verbs verbs = {
		.reg_dmabuf = ibv_reg_dmabuf_mr,
		.reg_mr = ibv_reg_mr,
	};

	return rdp_rocm_register(m, &verbs, pd, ptr, bytes, access, nic, out,
				 path, note, note_len);
}

/* Both directions of a staging copy: the same device, check and message. */
static int copy(struct rdp_mem *m, void *dst, const void *src, size_t bytes,
		int to_dev)
{
	struct rdp_rocm_state *st = m->state;
	rdp_hip_result r;
	int ret = set_dev(st);

	if (ret)
		return ret;
	r = st->hip->memcpy(dst, src, bytes,
			    to_dev ? RDP_HIP_COPY_TO_DEVICE
				   : RDP_HIP_COPY_TO_HOST);
	if (r)
		rdp_err("copy %zu bytes %s %s: %s", bytes,
			to_dev ? "to" : "from", m->desc,
			rdp_hip_strerror(st->hip, r, (char[160]){ 0 }, 160));
	return rdp_hip_errno(r);
}

static int rocm_to_dev(struct rdp_mem *m, void *dst, const void *src,
		       size_t bytes)
{
	return copy(m, dst, src, bytes, 1);
}

static int rocm_to_host(struct rdp_mem *m, void *dst, const void *src,
			size_t bytes)
{
	return copy(m, dst, src, bytes, 0);
}

/* A staging buffer the runtime knows is page-locked is copied by DMA;
 * otherwise each copy goes through the runtime's own bounce buffer. */
static int rocm_host_pin(struct rdp_mem *m, void *ptr, size_t bytes, char *why,
			 size_t len)
{
	struct rdp_rocm_state *st = m->state;
	rdp_hip_result r;
	int ret = set_dev(st);

	if (ret)
		return ret;
	if (!st->hip->host_register || !st->hip->host_unregister) {
		snprintf(why, len, "the HIP runtime lacks hipHostRegister");
		return -EOPNOTSUPP;
	}
	r = st->hip->host_register(ptr, bytes, 0);
	if (r)
		rdp_hip_strerror(st->hip, r, why, len);
	return rdp_hip_errno(r);
}

static void rocm_host_unpin(struct rdp_mem *m, void *ptr)
{
	struct rdp_rocm_state *st = m->state;

	if (ptr && !set_dev(st))
		st->hip->host_unregister(ptr);
}

#define ROCM_OPS                                                               \
	.kind = RDP_MEM_KIND_GPU, .check_spec = rocm_check_spec,               \
	.open = rocm_open, .close = rocm_close, .alloc = rocm_alloc,           \
	.free = rocm_free, .wipe = rocm_wipe, .reg = rocm_reg,                 \
	.to_dev = rocm_to_dev, .to_host = rocm_to_host,                        \
	.host_pin = rocm_host_pin, .host_unpin = rocm_host_unpin

const struct rdp_mem_ops rdp_mem_rocm = {
	.name = "rocm",
	.option = "--use_rocm",
	ROCM_OPS,
};

/* The same memory, registered through DMA-BUF or not at all. */
const struct rdp_mem_ops rdp_mem_rocm_dmabuf = {
	.name = "rocm",
	.option = "--use_rocm_dmabuf",
	ROCM_OPS,
};
