/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * One GPU runtime as the GPU memory type drives it (gpu_mem.c): the
 * runtime's calls and the words its messages use. A GPU memory type is a
 * filled struct rdp_gpu_rt (cuda.c: the CUDA driver API; rocm.c: ROCm's
 * HIP runtime) and its rows; choosing the GPU, allocation, copies, wipes,
 * pinning and registration with the NIC are the same code for all.
 * Layer: mem (folder-private)
 */
#ifndef RDMAPERF_MEM_GPU_RT_H
#define RDMAPERF_MEM_GPU_RT_H

#include <stddef.h>
#include <stdint.h>

#include <rdmaperf/gpu.h>
#include <rdmaperf/mem.h>

struct rdp_gpu_rt;

/* DMA-BUF's half of a diagnosis, in the words of the runtime's export. */
struct rdp_gpu_export_words {
	const char *who;   /* "the GPU driver": cannot export */
	const char *needs; /* what the export needs, with its check */
	const char *call;  /* "" or " (hipMemGetHandleForAddressRange)" */
	const char *check; /* after a failed export: "" or " (check: ...)" */
};

/* The peer memory half: why ibv_reg_mr on the GPU address failed, with
 * the host's facts, one phrase into buf. */
typedef void rdp_gpu_peer_cause_fn(const struct rdp_gpu_reg_log *log,
				   const struct rdp_gpu_facts *f, size_t bytes,
				   char *buf, size_t len);

/* An opened GPU (struct rdp_mem's state). */
struct rdp_gpu {
	const struct rdp_gpu_rt *rt;
	void *lib;	  /* the loaded runtime: struct rdp_cuda, rdp_hip */
	const char *path; /* the library loaded */
	int index;	  /* the GPU's ordinal in the runtime */
	int dmabuf_only;  /* registered through DMA-BUF or not at all */
	int dev;	  /* the runtime's device handle (CUDA) */
	void *ctx;	  /* its context (CUDA), NULL none */
};

/*
 * Every call returns the runtime's result code (0 success), turned into
 * words by strerror and into a negative errno by to_errno, except load
 * and export_dmabuf, which return a negative errno themselves.
 */
struct rdp_gpu_rt {
	/* The words of its messages. */
	const char *option;	  /* "--use_cuda" */
	const char *runtime;	  /* "the CUDA driver" */
	const char *bus_example;  /* "0000:3b:00.0" */
	const char *driver_check; /* "check nvidia-smi" */
	const char *init_call;	  /* "start the CUDA driver (cuInit)" */
	const char *init_hint;	  /* ": check nvidia-smi and dmesg" */
	const char *count_call;	  /* "count GPUs" */
	const char *open_call;	  /* "open GPU" */
	const char *open_hint;	  /* ": check nvidia-smi" */
	const char *current_call; /* "" or " (hipSetDevice)" */
	const char *prepare_what; /* what alloc does after the runtime's
				     * allocation: "prepare", "zero" */
	const char *pin_missing;  /* why no page-locking: the call missing */
	int topology_first;	  /* auto: hwloc's view before sysfs */
	int no_device;		  /* the runtime's "no device" result */
	int (*load)(struct rdp_gpu *g, char *err, size_t len);
	void (*unload)(struct rdp_gpu *g);
	const char *(*strerror)(const struct rdp_gpu *g, int r, char *buf,
				size_t len);
	int (*to_errno)(int r);
	int (*init)(struct rdp_gpu *g);
	int (*count)(struct rdp_gpu *g, int *n);
	int (*bus_id)(struct rdp_gpu *g, int i, char *raw, int len);
	/* g->index chosen: select it, its name, its context */
	int (*open_dev)(struct rdp_gpu *g, char *name, int len);
	void (*close_dev)(struct rdp_gpu *g);
	int (*set_current)(struct rdp_gpu *g);
	int (*alloc)(struct rdp_gpu *g, void **p, size_t bytes);
	/* a new buffer zeroed, and ready for RDMA, before it is used */
	int (*prepare)(struct rdp_gpu *g, void *p, size_t bytes);
	int (*release)(struct rdp_gpu *g, void *p);
	int (*zero)(struct rdp_gpu *g, void *p, size_t bytes);
	int (*copy)(struct rdp_gpu *g, void *dst, const void *src, size_t bytes,
		    int to_dev);
	/* struct rdp_gpu_reg_ops's, ctx the struct rdp_gpu */
	int (*export_dmabuf)(void *ctx, void *ptr, size_t bytes, int *fd,
			     char *text, size_t len);
	int (*can_pin)(const struct rdp_gpu *g);
	int (*host_register)(struct rdp_gpu *g, void *p, size_t bytes);
	void (*host_unregister)(struct rdp_gpu *g, void *p);
	/* both registrations failed: the causes, in its words */
	const struct rdp_gpu_export_words *export_words;
	rdp_gpu_peer_cause_fn *peer_cause;
};

/* The option's argument, checked before anything is opened. */
int rdp_gpu_mem_check_spec(const struct rdp_gpu_rt *rt, const char *spec,
			   char *err, size_t len);
/* Open the GPU spec names for the NIC nic on runtime rt into m. */
int rdp_gpu_mem_open(const struct rdp_gpu_rt *rt, struct rdp_mem *m,
		     const char *spec, const char *nic, int dmabuf_only,
		     char *err, size_t len);

/* The registration verbs: ibv_reg_dmabuf_mr and ibv_reg_mr, or a test's. */
struct rdp_gpu_verbs {
	struct ibv_mr *(*reg_dmabuf)(struct ibv_pd *pd, uint64_t offset,
				     size_t bytes, uint64_t iova, int fd,
				     int access);
	struct ibv_mr *(*reg_mr)(struct ibv_pd *pd, void *addr, size_t bytes,
				 int access);
};

/*
 * Register [ptr, ptr+bytes) of the GPU memory m: DMA-BUF first, then the
 * peer memory path unless m is DMA-BUF only. On failure logs one line
 * naming the GPU, each step and the likely fix.
 */
int rdp_gpu_mem_register(struct rdp_mem *m, const struct rdp_gpu_verbs *verbs,
			 struct ibv_pd *pd, void *ptr, size_t bytes, int access,
			 const char *nic, struct ibv_mr **out,
			 enum rdp_mem_path *path, char *note, size_t note_len);

/* The members of a GPU memory type's row that are the same for all. */
void rdp_gpu_mem_close(struct rdp_mem *m);
int rdp_gpu_mem_alloc(struct rdp_mem *m, size_t bytes, int numa_node,
		      void **out);
void rdp_gpu_mem_free(struct rdp_mem *m, void *ptr, size_t bytes);
int rdp_gpu_mem_wipe(struct rdp_mem *m, void *ptr, size_t bytes);
int rdp_gpu_mem_reg(struct rdp_mem *m, struct ibv_pd *pd, void *ptr,
		    size_t bytes, int access, const char *nic,
		    struct ibv_mr **out, enum rdp_mem_path *path, char *note,
		    size_t note_len);
int rdp_gpu_mem_to_dev(struct rdp_mem *m, void *dst, const void *src,
		       size_t bytes);
int rdp_gpu_mem_to_host(struct rdp_mem *m, void *dst, const void *src,
			size_t bytes);
int rdp_gpu_mem_host_pin(struct rdp_mem *m, void *ptr, size_t bytes, char *why,
			 size_t len);
void rdp_gpu_mem_host_unpin(struct rdp_mem *m, void *ptr);

#define RDP_GPU_MEM_OPS                                                        \
	.kind = RDP_MEM_KIND_GPU, .close = rdp_gpu_mem_close,                  \
	.alloc = rdp_gpu_mem_alloc, .free = rdp_gpu_mem_free,                  \
	.wipe = rdp_gpu_mem_wipe, .reg = rdp_gpu_mem_reg,                      \
	.to_dev = rdp_gpu_mem_to_dev, .to_host = rdp_gpu_mem_to_host,          \
	.host_pin = rdp_gpu_mem_host_pin, .host_unpin = rdp_gpu_mem_host_unpin

/* Both halves of a failed registration's diagnosis, one line. */
void rdp_gpu_dmabuf_cause(const struct rdp_gpu_reg_log *log,
			  const struct rdp_gpu_export_words *w, const char *nic,
			  char *buf, size_t len);
void rdp_gpu_causes(const struct rdp_gpu_reg_log *log,
		    const struct rdp_gpu_export_words *w,
		    rdp_gpu_peer_cause_fn *peer_cause,
		    const struct rdp_gpu_facts *f, const char *nic,
		    size_t bytes, char *buf, size_t len);
/* NVIDIA's words (rdp_gpu_diagnose's, gpu_reg.c). */
extern const struct rdp_gpu_export_words rdp_gpu_nvidia_export;
rdp_gpu_peer_cause_fn rdp_gpu_nvidia_peer_cause;

#endif /* RDMAPERF_MEM_GPU_RT_H */
