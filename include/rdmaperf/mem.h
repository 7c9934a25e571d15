/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Memory types for benchmark buffers (host, CUDA, staged), one const ops
 * table each, implemented whole, and the list of those an option selects
 * (registry.c); the buffers registered with the NIC.
 * Layer: mem
 */
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

/* Where a side's data lives (ACCEPT tells the client the server's). */
enum rdp_mem_kind {
	RDP_MEM_KIND_HOST = 0,
	RDP_MEM_KIND_GPU,	 /* GPU buffers registered with the NIC */
	RDP_MEM_KIND_GPU_STAGED, /* --bounce */
};

/* A memory type opened for this process: for a GPU, the GPU and its
 * context. */
struct rdp_mem {
	const struct rdp_mem_ops *ops;
	/* staged memory: the device type that holds the data (set before
	 * open; NULL: the first device type of rdp_mem_types()) */
	const struct rdp_mem_ops *data_ops;
	void *state;	/* the type's own: driver, device, context */
	char desc[160]; /* "GPU 0 NVIDIA H200 (0000:3b:00.0)" */
	char why[160];	/* how the GPU was chosen */
	char bus_id[32];
	int hugepages; /* host buffers in 2 MiB huge pages (host type) */
	int relaxed;   /* registrations ask for PCIe relaxed ordering */
	/* --mmap-offset: where the file type maps buffers from */
	unsigned long long file_offset_bytes;
};

/* Whether this libibverbs can ask for PCIe relaxed ordering. */
int rdp_mem_relaxed_supported(void);
/* Access flags m adds to a registration: relaxed ordering when asked. */
int rdp_mem_access_extra(const struct rdp_mem *m);

/*
 * Every memory type fills every member. Buffers are zeroed; alloc(),
 * to_dev() and to_host() log their own failures, reg() its diagnosis.
 */
struct rdp_mem_ops {
	const char *name;
	enum rdp_mem_kind kind;
	int cpu_readable; /* the CPU may read buffers (inline sends) */
	/* The option that puts a side's buffers in this memory, as the user
	 * writes it ("--use_cuda"); NULL for host and staged memory, which
	 * no option of its own selects. */
	const char *option;
	/* Host pages back it: --odp and --mr_per_qp can register it. */
	int host_pages;
	/* Check the option's argument before anything is opened, so a typo
	 * is a usage error, not a driver error; err gets one line naming the
	 * option. NULL: any argument. */
	int (*check_spec)(const char *spec, char *err, size_t len);
	/* Pick the memory for the NIC named nic from spec (the option's
	 * argument) and fill m; errors go to err as one line. */
	int (*open)(struct rdp_mem *m, const char *spec, const char *nic,
		    char *err, size_t len);
	void (*close)(struct rdp_mem *m);
	/* numa_node < 0: no preference; device memory ignores it. */
	int (*alloc)(struct rdp_mem *m, size_t bytes, int numa_node,
		     void **out);
	void (*free)(struct rdp_mem *m, void *ptr, size_t bytes);
	/* Zero bytes of a buffer of this memory, in a way no compiler drops:
	 * every buffer is deregistered, then wiped, then freed, so nothing
	 * a test left reaches whoever gets the memory next. */
	int (*wipe)(struct rdp_mem *m, void *ptr, size_t bytes);
	int (*reg)(struct rdp_mem *m, struct ibv_pd *pd, void *ptr,
		   size_t bytes, int access, const char *nic,
		   struct ibv_mr **out, enum rdp_mem_path *path, char *note,
		   size_t note_len);
	/* Copies between a host buffer and one of this memory. */
	int (*to_dev)(struct rdp_mem *m, void *dst, const void *src,
		      size_t bytes);
	int (*to_host)(struct rdp_mem *m, void *dst, const void *src,
		       size_t bytes);
	/* Page-lock a host buffer for copies, so they run at the bus's
	 * speed; why gets the driver's words when it cannot. */
	int (*host_pin)(struct rdp_mem *m, void *ptr, size_t bytes, char *why,
			size_t len);
	void (*host_unpin)(struct rdp_mem *m, void *ptr);
};

extern const struct rdp_mem_ops rdp_mem_host;
extern const struct rdp_mem_ops rdp_mem_cuda; /* -ENOSYS when not built */
/* --mmap FILE: host memory mapped shared from a file (file.c). */
extern const struct rdp_mem_ops rdp_mem_file;
/* The file m maps, opened by rdp_mem_file; NULL for another type. */
const char *rdp_mem_file_path(const struct rdp_mem *m);
/* --bounce: host buffers for the NIC, the data on the device memory
 * m->data_ops (a row of rdp_mem_types()) and spec name. */
extern const struct rdp_mem_ops rdp_mem_staged;

/* The device memory types an option selects (each row's .option),
 * NULL-terminated: adding one is its file and a line in registry.c. */
const struct rdp_mem_ops *const *rdp_mem_types(void);
/* The row whose option is name ("--use_cuda" or "use_cuda"), or NULL. */
const struct rdp_mem_ops *rdp_mem_find(const char *name);
/*
 * The row that names a peer's memory, from the kind it reports (enum
 * rdp_mem_kind, as sent): host memory's; for device memory, direct or
 * staged, the first device row of rdp_mem_types(), as staged memory's
 * data defaults to; NULL for a kind this build does not know.
 */
const struct rdp_mem_ops *rdp_mem_of_kind(unsigned int kind);
/*
 * The row that names a peer's memory from its kind and the type it names
 * ("rocm"; "" when it names none, as a peer of the first device type or an
 * older one sends): rdp_mem_of_kind()'s row when type is "", else the
 * device row of that name; NULL for a kind or name this build lacks.
 */
const struct rdp_mem_ops *rdp_mem_of_peer(unsigned int kind, const char *type);
/* The device type that holds m's data (for staged memory, the GPU's
 * behind it); NULL for host memory. */
const struct rdp_mem_ops *rdp_mem_data_type(const struct rdp_mem *m);

/*
 * Open memory of type ops for the NIC nic; spec names the device (the
 * option's argument) for device types. Logs one line on failure: -ENOSYS
 * not built in, -ENODEV no driver or no such device. Close accepts NULL.
 */
int rdp_mem_open(const struct rdp_mem_ops *ops, const char *spec,
		 const char *nic, struct rdp_mem **out);
/* Staged memory whose data lives on device memory of type data. */
int rdp_mem_open_staged(const struct rdp_mem_ops *data, const char *spec,
			const char *nic, struct rdp_mem **out);
void rdp_mem_close(struct rdp_mem *m);
/* The kind of m; a connection made without one (a fake engine's) is on
 * host memory. */
static inline enum rdp_mem_kind rdp_mem_kind_of(const struct rdp_mem *m)
{
	return m ? m->ops->kind : RDP_MEM_KIND_HOST;
}

/* Where the data of m lives: the GPU behind staged memory, else m. */
struct rdp_mem *rdp_mem_data(struct rdp_mem *m);

/* "DMA-BUF", for people; "dmabuf", for JSON. */
const char *rdp_mem_path_str(enum rdp_mem_path path);
const char *rdp_mem_path_id(enum rdp_mem_path path);

/* A buffer registered with the NIC, of any memory type. */
struct rdp_mem_buf {
	struct rdp_mem *mem;
	void *ptr;  /* what the NIC reads and writes */
	void *host; /* what the CPU reads and writes: ptr, or a host
			     * copy of device memory */
	size_t bytes;
	struct ibv_mr *mr;
	int access; /* IBV_ACCESS_* granted */
	enum rdp_mem_path path;
	char note[160]; /* why DMA-BUF was not used, or "" */
};

/* bytes of m near numa_node, registered on pd with access for the NIC
 * nic. Logs one line, with the diagnosis, on failure. */
int rdp_mem_buf_create(struct rdp_mem *m, struct ibv_pd *pd, size_t bytes,
		       int numa_node, int access, const char *nic,
		       struct rdp_mem_buf **out);
/* Deregisters, zeroes (the host copy too) and frees; accepts NULL and a
 * half-built buffer. */
void rdp_mem_buf_destroy(struct rdp_mem_buf *b);
/* b->host from b->ptr, and back; 0 without a copy to make. */
int rdp_mem_buf_pull(const struct rdp_mem_buf *b);
int rdp_mem_buf_push(const struct rdp_mem_buf *b);

#endif /* RDMAPERF_MEM_H */
