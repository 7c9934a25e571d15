/* SPDX-License-Identifier: BSD-2-Clause */
/* Registering AMD GPU memory with the NIC: DMA-BUF, then (unless
 * --use_rocm_dmabuf) the peer memory path, and when both fail one line
 * that names the GPU, each step and the likely fix on a ROCm host. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rdmaperf/gpu.h>
#include <rdmaperf/log.h>
#include <rdmaperf/sysfs.h>

#include "rocm_int.h"

static int export_dmabuf(void *ctx, void *ptr, size_t bytes, int *fd,
			 char *text, size_t len)
{
	struct rdp_rocm_state *st = ctx;
	rdp_hip_result r;

	if (!st->hip->mem_get_handle) {
		snprintf(text, len,
			 "hipMemGetHandleForAddressRange missing: HIP "
			 "runtime older than ROCm 5.6");
		return -EOPNOTSUPP;
	}
	r = st->hip->mem_get_handle(fd, ptr, bytes,
				    RDP_HIP_RANGE_HANDLE_DMA_BUF, 0);
	if (r)
		rdp_hip_strerror(st->hip, r, text, len);
	return rdp_hip_errno(r);
}

/* The DMA-BUF half: the runtime's export, then the NIC's driver. */
static void dmabuf_cause(const struct rdp_gpu_reg_log *log, const char *nic,
			 char *buf, size_t len)
{
	int e = log->export_err ? log->export_err : log->dmabuf_err;

	if (log->export_err == -EOPNOTSUPP)
		snprintf(buf, len,
			 "DMA-BUF: ROCm cannot export (%s): it needs the "
			 "amdgpu driver of ROCm 5.6 or later and Linux 5.12 "
			 "or later (check: modinfo amdgpu | grep ^version; "
			 "uname -r)",
			 log->export_text);
	else if (log->export_err)
		snprintf(buf, len,
			 "DMA-BUF: export failed (hipMemGetHandleForAddress"
			 "Range): %s (check: dmesg | grep amdgpu)",
			 log->export_text[0] ? log->export_text : strerror(-e));
	else if (e == -EOPNOTSUPP || e == -ENOSYS || e == -EPROTONOSUPPORT)
		snprintf(buf, len,
			 "DMA-BUF: %s does not take DMA-BUF memory regions "
			 "(%s): its kernel driver lacks the support (check: "
			 "uname -r; ibv_devinfo -d %s)",
			 nic, strerror(-e), nic);
	else
		snprintf(buf, len,
			 "DMA-BUF: ibv_reg_dmabuf_mr on %s failed: %s (check: "
			 "dmesg | tail)",
			 nic, strerror(-e));
}

/* The peer memory half: amdgpu's peer-direct client, the IOMMU. */
static void peer_cause(const struct rdp_gpu_reg_log *log, int iommu_on,
		       char *buf, size_t len)
{
	const char *err = strerror(-log->peer_err);

	if (log->peer_err == 1)
		snprintf(buf, len,
			 "peer memory: not tried (--use_rocm_dmabuf; drop "
			 "it to fall back to ibv_reg_mr)");
	else if (iommu_on)
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

int rdp_rocm_register(struct rdp_mem *m, const struct rdp_rocm_verbs *verbs,
		      struct ibv_pd *pd, void *ptr, size_t bytes, int access,
		      const char *nic, struct ibv_mr **out,
		      enum rdp_mem_path *path, char *note, size_t note_len)
{
	struct rdp_rocm_state *st = m->state;
	const struct rdp_gpu_reg_ops ops = {
		.ctx = st,
		.export_dmabuf = export_dmabuf,
		.reg_dmabuf = verbs->reg_dmabuf,
		.reg_mr = st->dmabuf_only ? NULL : verbs->reg_mr,
	};
	char dmabuf[320], peer[320];
	struct rdp_gpu_reg_log log;
	struct rdp_gpu_facts facts;
	struct rdp_sysfs fs;
	int ret;

	ret = rdp_gpu_register(&ops, pd, ptr, bytes, access, out, path, &log);
	if (!ret) {
		if (*path == RDP_MEM_PATH_PEERMEM)
			rdp_gpu_dmabuf_note(&log, nic, note, note_len);
		return 0;
	}
	rdp_sysfs_init(&fs, NULL);
	rdp_gpu_facts_read(&fs, m->bus_id, &facts);
	dmabuf_cause(&log, nic, dmabuf, sizeof(dmabuf));
	peer_cause(&log, facts.iommu_on, peer, sizeof(peer));
	rdp_err("register %zu bytes of %s memory on %s: %s; %s", bytes, m->desc,
		nic, dmabuf, peer);
	return ret;
}
