/* SPDX-License-Identifier: BSD-2-Clause */
/* Registering GPU memory with the NIC: DMA-BUF first, the peer memory path
 * second, and a diagnosis that names the likely cause when both fail. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/verbs.h>

#include <rdmaperf/gpu.h>

#include "gpu_rt.h"

static int mr_errno(void)
{
	return errno ? -errno : -EINVAL;
}

static int try_dmabuf(const struct rdp_gpu_reg_ops *ops, struct ibv_pd *pd,
		      void *ptr, size_t bytes, int access, struct ibv_mr **mr,
		      struct rdp_gpu_reg_log *log)
{
	int fd = -1;

	log->export_err = ops->export_dmabuf(ops->ctx, ptr, bytes, &fd,
					     log->export_text,
					     sizeof(log->export_text));
	if (log->export_err)
		return log->export_err;
	errno = 0;
	/* iova = the GPU address, so the peer's remote addresses match what
	 * QP_INFO advertises. */
	*mr = ops->reg_dmabuf(pd, 0, bytes, (uint64_t)(uintptr_t)ptr, fd,
			      access);
	log->dmabuf_err = *mr ? 0 : mr_errno();
	/* The MR holds its own reference on the DMA-BUF. */
	close(fd);
	return log->dmabuf_err;
}

int rdp_gpu_register(const struct rdp_gpu_reg_ops *ops, struct ibv_pd *pd,
		     void *ptr, size_t bytes, int access, struct ibv_mr **mr,
		     enum rdp_mem_path *path, struct rdp_gpu_reg_log *log)
{
	struct ibv_mr *m = NULL;

	memset(log, 0, sizeof(*log));
	log->dmabuf_err = 1;
	log->peer_err = 1;
	if (!try_dmabuf(ops, pd, ptr, bytes, access, &m, log)) {
		*mr = m;
		*path = RDP_MEM_PATH_DMABUF;
		return 0;
	}
	/* DMA-BUF only: no fallback; peer_err stays "not tried". */
	if (!ops->reg_mr)
		return log->export_err ? log->export_err : log->dmabuf_err;
	errno = 0;
	m = ops->reg_mr(pd, ptr, bytes, access);
	log->peer_err = m ? 0 : mr_errno();
	if (!m)
		return log->peer_err;
	*mr = m;
	*path = RDP_MEM_PATH_PEERMEM;
	return 0;
}

void rdp_gpu_dmabuf_note(const struct rdp_gpu_reg_log *log, const char *nic,
			 char *buf, size_t len)
{
	if (log->export_err)
		snprintf(buf, len, "the GPU driver did not export DMA-BUF: %s",
			 log->export_text[0] ? log->export_text
					     : strerror(-log->export_err));
	else if (log->dmabuf_err < 0)
		snprintf(buf, len, "%s refused the DMA-BUF region: %s", nic,
			 strerror(-log->dmabuf_err));
	else
		snprintf(buf, len, "not tried");
}

/* The DMA-BUF half: what failed and how to check it, the export in the
 * words of the GPU's runtime. */
void rdp_gpu_dmabuf_cause(const struct rdp_gpu_reg_log *log,
			  const struct rdp_gpu_export_words *w, const char *nic,
			  char *buf, size_t len)
{
	int e = log->export_err ? log->export_err : log->dmabuf_err;

	if (log->export_err == -EOPNOTSUPP)
		snprintf(buf, len,
			 "DMA-BUF: %s cannot export (%s): it needs %s", w->who,
			 log->export_text, w->needs);
	else if (log->export_err)
		snprintf(buf, len, "DMA-BUF: export failed%s: %s%s", w->call,
			 log->export_text[0] ? log->export_text : strerror(-e),
			 w->check);
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

/* The peer memory half: the module, the BAR1 window, the IOMMU. */
void rdp_gpu_nvidia_peer_cause(const struct rdp_gpu_reg_log *log,
			       const struct rdp_gpu_facts *f, size_t bytes,
			       char *buf, size_t len)
{
	const char *err = strerror(-log->peer_err);

	if (!f->peermem_loaded)
		snprintf(buf, len,
			 "peer memory: ibv_reg_mr on the GPU address failed "
			 "(%s) and nvidia-peermem is not loaded: modprobe "
			 "nvidia-peermem (check: lsmod | grep nvidia_peermem)",
			 err);
	else if (f->bar1_bytes && bytes > f->bar1_bytes / 2)
		snprintf(buf, len,
			 "peer memory: ibv_reg_mr failed (%s): %zu MiB is "
			 "over half the GPU's %llu MiB BAR1 window, which the "
			 "driver also uses: lower -s or -q (check: nvidia-smi "
			 "-q -d MEMORY | grep -A3 BAR1)",
			 err, bytes >> 20,
			 (unsigned long long)(f->bar1_bytes >> 20));
	else if (f->iommu_on)
		snprintf(buf, len,
			 "peer memory: ibv_reg_mr failed (%s) with a "
			 "translating IOMMU, which blocks peer-to-peer DMA on "
			 "many platforms: boot with iommu=pt (check: cat "
			 "/proc/cmdline; ls /sys/class/iommu)",
			 err);
	else
		snprintf(buf, len,
			 "peer memory: ibv_reg_mr on the GPU address failed "
			 "(%s) with nvidia-peermem loaded (check: dmesg | "
			 "grep -i -e peermem -e nvidia)",
			 err);
}

const struct rdp_gpu_export_words rdp_gpu_nvidia_export = {
	.who = "the GPU driver",
	.needs = "the NVIDIA open kernel modules and Linux 5.12 or later "
		 "(check: cat /proc/driver/nvidia/version; uname -r)",
	.call = "",
	.check = "",
};

void rdp_gpu_causes(const struct rdp_gpu_reg_log *log,
		    const struct rdp_gpu_export_words *w,
		    rdp_gpu_peer_cause_fn *peer_cause,
		    const struct rdp_gpu_facts *f, const char *nic,
		    size_t bytes, char *buf, size_t len)
{
	char dmabuf[320], peer[320];

	rdp_gpu_dmabuf_cause(log, w, nic, dmabuf, sizeof(dmabuf));
	peer_cause(log, f, bytes, peer, sizeof(peer));
	snprintf(buf, len, "%s; %s", dmabuf, peer);
}

void rdp_gpu_diagnose(const struct rdp_gpu_reg_log *log,
		      const struct rdp_gpu_facts *f, const char *nic,
		      size_t bytes, char *buf, size_t len)
{
	rdp_gpu_causes(log, &rdp_gpu_nvidia_export, rdp_gpu_nvidia_peer_cause,
		       f, nic, bytes, buf, len);
}
