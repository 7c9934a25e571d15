/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * GPU buffers for the NIC, independent of the GPU vendor library: which GPU
 * (--use_cuda), how its memory is registered (DMA-BUF first, then the peer
 * memory path), and why registration failed. Pure logic over injectable
 * verbs calls and sysfs trees, so the tests drive every branch.
 * Layer: mem
 */
#ifndef RDMAPERF_GPU_H
#define RDMAPERF_GPU_H

#include <stddef.h>
#include <stdint.h>

#include <rdmaperf/mem.h>

struct ibv_pd;
struct ibv_mr;
struct rdp_sysfs;

#define RDP_GPU_SPEC_MAX 32 /* "auto", "3" or "0000:3b:00.0" */
#define RDP_GPU_MAX	 64

enum rdp_gpu_spec_kind {
	RDP_GPU_AUTO,
	RDP_GPU_INDEX,
	RDP_GPU_BUS_ID,
};

struct rdp_gpu_spec {
	enum rdp_gpu_spec_kind kind;
	int index;		       /* RDP_GPU_INDEX */
	char bus_id[RDP_GPU_SPEC_MAX]; /* RDP_GPU_BUS_ID: "0000:3b:00.0" */
};

/* "auto", a GPU index 0..63, or a PCI bus id [DOMAIN:]BUS:DEV.FN (hex,
 * normalised to lower case with a 4-digit domain); -EINVAL otherwise. */
int rdp_gpu_spec_parse(const char *s, struct rdp_gpu_spec *out);

/*
 * Hops between two PCI devices given their canonical sysfs paths
 * (/sys/devices/pci0000:00/0000:00:01.0/0000:3b:00.0): devices under one
 * switch are closer than devices under one root port, which are closer
 * than devices on different root complexes (RDP_PCI_FAR).
 */
#define RDP_PCI_FAR 1000
int rdp_pci_distance(const char *a, const char *b);

/*
 * The GPU nearest to the NIC among bus_ids[0..n): its index, and in why a
 * line saying how it was chosen. A NIC without a PCI device (Soft-RoCE)
 * gets GPU 0, said so in why.
 */
int rdp_gpu_nearest(const struct rdp_sysfs *fs, const char *nic,
		    const char (*bus_ids)[RDP_GPU_SPEC_MAX], size_t n,
		    char *why, size_t len);

/* What the host says about GPUDirect, for the diagnosis. */
struct rdp_gpu_facts {
	int peermem_loaded;  /* nvidia_peermem (or nv_peer_mem) module */
	int iommu_on;	     /* translating IOMMU (not iommu=pt) */
	uint64_t bar1_bytes; /* the GPU's BAR1 window, 0 unknown */
	int nvidia_loaded;   /* the nvidia kernel module */
};

void rdp_gpu_facts_read(const struct rdp_sysfs *fs, const char *bus_id,
			struct rdp_gpu_facts *f);

/* The calls a registration makes; tests substitute their own. */
struct rdp_gpu_reg_ops {
	void *ctx;
	/* Export [ptr, ptr+bytes) as a DMA-BUF fd: 0, -EOPNOTSUPP when the
	 * driver cannot, other -errno; text gets the driver's words. */
	int (*export_dmabuf)(void *ctx, void *ptr, size_t bytes, int *fd,
			     char *text, size_t len);
	struct ibv_mr *(*reg_dmabuf)(struct ibv_pd *pd, uint64_t offset,
				     size_t bytes, uint64_t iova, int fd,
				     int access);
	/* NULL: DMA-BUF only, no peer memory fallback */
	struct ibv_mr *(*reg_mr)(struct ibv_pd *pd, void *addr, size_t bytes,
				 int access);
};

/* What was tried, for the report and the diagnosis. */
struct rdp_gpu_reg_log {
	int export_err;	       /* 0, or -errno of the DMA-BUF export */
	char export_text[128]; /* the GPU driver's error */
	int dmabuf_err; /* ibv_reg_dmabuf_mr: 0 ok, -errno, 1 not tried */
	int peer_err;	/* ibv_reg_mr on the GPU address: same */
};

/*
 * Register GPU memory: DMA-BUF first, then ibv_reg_mr on the GPU address
 * (nvidia-peermem). 0 with *mr and *path, or the last -errno with log
 * saying what each attempt gave.
 */
int rdp_gpu_register(const struct rdp_gpu_reg_ops *ops, struct ibv_pd *pd,
		     void *ptr, size_t bytes, int access, struct ibv_mr **mr,
		     enum rdp_mem_path *path, struct rdp_gpu_reg_log *log);

/* Why DMA-BUF was not used (after a peer-memory success), one phrase. */
void rdp_gpu_dmabuf_note(const struct rdp_gpu_reg_log *log, const char *nic,
			 char *buf, size_t len);

/* Both failures: each path's errno, the likely cause and the command to
 * check it, one line. */
void rdp_gpu_diagnose(const struct rdp_gpu_reg_log *log,
		      const struct rdp_gpu_facts *f, const char *nic,
		      size_t bytes, char *buf, size_t len);

#endif /* RDMAPERF_GPU_H */
