/* SPDX-License-Identifier: BSD-2-Clause */
/* Memory types for benchmark buffers, one const ops table each. */
#ifndef RDMAPERF_MEM_H
#define RDMAPERF_MEM_H

#include <stddef.h>

struct ibv_pd;
struct ibv_mr;

/* How a buffer was registered with the NIC, for the report. */
enum rdp_mem_path {
	RDP_MEM_PATH_HOST = 0, /* ibv_reg_mr on host memory */
	RDP_MEM_PATH_DMABUF,   /* ibv_reg_dmabuf_mr on an exported buffer */
	RDP_MEM_PATH_PEERMEM,  /* ibv_reg_mr on a GPU address (peer memory) */
};

/* A device memory type opened for this process: a GPU and its context. */
struct rdp_mem {
	const struct rdp_mem_ops *ops;
	void *state;	/* the type's own: driver, device, context */
	char desc[160]; /* "GPU 0 NVIDIA H200 (0000:3b:00.0)" */
	char why[160];	/* how the GPU was chosen */
	char bus_id[32];
};

struct rdp_mem_ops {
	const char *name;
	/* Host memory: page-aligned, zeroed; numa_node < 0: no preference. */
	int (*alloc)(size_t bytes, int numa_node, void **out);
	void (*free)(void *ptr, size_t bytes);
	/*
	 * Device memory (NULL for host memory). open() picks the device for
	 * the NIC named nic from spec (--use_cuda) and fills m; errors go to
	 * err as one line. Buffers are zeroed; reg() logs its own diagnosis.
	 */
	int (*open)(struct rdp_mem *m, const char *spec, const char *nic,
		    char *err, size_t len);
	void (*close)(struct rdp_mem *m);
	int (*dev_alloc)(struct rdp_mem *m, size_t bytes, void **out);
	void (*dev_free)(struct rdp_mem *m, void *ptr, size_t bytes);
	int (*reg)(struct rdp_mem *m, struct ibv_pd *pd, void *ptr,
		   size_t bytes, int access, const char *nic,
		   struct ibv_mr **out, enum rdp_mem_path *path, char *note,
		   size_t note_len);
	int (*to_dev)(struct rdp_mem *m, void *dst, const void *src,
		      size_t bytes);
	int (*to_host)(struct rdp_mem *m, void *dst, const void *src,
		       size_t bytes);
	/* --bounce: page-lock a host buffer for copies, so they run at the
	 * bus's speed; why gets the driver's words when it cannot. */
	int (*host_pin)(struct rdp_mem *m, void *ptr, size_t bytes, char *why,
			size_t len);
	void (*host_unpin)(struct rdp_mem *m, void *ptr);
};

extern const struct rdp_mem_ops rdp_mem_host;
extern const struct rdp_mem_ops rdp_mem_cuda; /* -ENOSYS when not built */

/*
 * Open the device memory spec names (--use_cuda) for the NIC nic; logs one
 * line on failure: -ENOSYS not built in, -ENODEV no driver or no such
 * GPU. Close accepts NULL.
 */
int rdp_mem_open(const char *spec, const char *nic, struct rdp_mem **out);
void rdp_mem_close(struct rdp_mem *m);
/* "DMA-BUF", for people; "dmabuf", for JSON. */
const char *rdp_mem_path_str(enum rdp_mem_path path);
const char *rdp_mem_path_id(enum rdp_mem_path path);

#endif /* RDMAPERF_MEM_H */
