/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The host's topology through hwloc: which CPUs and GPUs are near a NIC and
 * the PCIe path from the NIC up to its host bridge. Loaded from this host
 * or from an XML file (hwloc's own format), so the tests use fixtures.
 * Layer: sys
 */
#ifndef RDMAPERF_TOPO_H
#define RDMAPERF_TOPO_H

#include <sched.h>
#include <stddef.h>
#include <stdint.h>

struct rdp_sysfs;
struct rdp_topo;

/*
 * Load the topology with its I/O devices: from xml (a file written by
 * `lstopo --of xml` or hwloc_topology_export_xml) or, with xml NULL, from
 * this host, where only hwloc's OS component runs (CPUs, memory, PCI,
 * network and RDMA devices): no other installed plugin, no GPU names.
 * fs is read for what hwloc does not record (the netdev under a software
 * RDMA device); it must outlive the topology. 0 or -errno.
 */
int rdp_topo_load(const struct rdp_sysfs *fs, const char *xml,
		  struct rdp_topo **out);
/* Accepts NULL. */
void rdp_topo_free(struct rdp_topo *t);

#define RDP_TOPO_BUS_ID_MAX 16 /* "0000:3b:00.0" */
#define RDP_TOPO_PATH_MAX   8

enum rdp_topo_hop_kind {
	RDP_HOP_DEVICE,	     /* the NIC's own PCI function */
	RDP_HOP_SWITCH,	     /* a port of a PCIe switch */
	RDP_HOP_ROOT_PORT,   /* a port of the CPU's root complex */
	RDP_HOP_HOST_BRIDGE, /* where PCI meets the CPU */
};

struct rdp_topo_hop {
	enum rdp_topo_hop_kind kind;
	/* A function "0000:17:00.0"; a host bridge its domain and bus range
	 * "0000:[15-1a]". */
	char bus_id[RDP_TOPO_BUS_ID_MAX];
	double link_gbytes; /* GB/s of the link as trained, 0 unknown */
	uint16_t vendor_id, device_id;
};

struct rdp_topo_nic {
	char name[64];
	/* The netdev a software device (rxe, siw) runs over, "" for a NIC
	 * that hwloc lists itself. */
	char netdev[32];
	int on_pci; /* path[] and bus_id are known */
	char bus_id[RDP_TOPO_BUS_ID_MAX];
	/* From the NIC up to its host bridge: path[0] is the NIC. */
	struct rdp_topo_hop path[RDP_TOPO_PATH_MAX];
	size_t n_path;
	cpu_set_t cpus;	   /* the CPUs near the NIC */
	int node;	   /* the NUMA node of those CPUs; -1 several/unknown */
	int whole_machine; /* those CPUs are all of them: no locality */
};

/*
 * Find an RDMA device by name ("mlx5_0", "rxe0"). A software device has no
 * PCI function of its own: the PCI function of its netdev stands in for it.
 * -ENOENT when neither is in the topology.
 */
int rdp_topo_nic(const struct rdp_topo *t, const char *name,
		 struct rdp_topo_nic *out);

/* How far a GPU is from the NIC, nearest first. */
enum rdp_topo_dist {
	RDP_DIST_SWITCH = 0,  /* below one PCIe switch or root port */
	RDP_DIST_HOST_BRIDGE, /* one host bridge, different root ports */
	RDP_DIST_NODE,	      /* one NUMA node, different host bridges */
	RDP_DIST_OTHER_NODE,  /* across the socket link */
	RDP_DIST_UNKNOWN,     /* the NIC is not on PCI */
};

const char *rdp_topo_dist_str(enum rdp_topo_dist d);

#define RDP_TOPO_GPU_MAX 16

struct rdp_topo_gpu {
	char bus_id[RDP_TOPO_BUS_ID_MAX];
	char name[32];	/* "cuda0" or "nvml0" when hwloc has it, else "" */
	char model[64]; /* the model hwloc reports, "" unknown */
	enum rdp_topo_dist dist;
	int node; /* -1 unknown */
};

/*
 * The GPUs of the host (NVIDIA display and 3D controllers, and any PCI
 * function with a CUDA, NVML, ROCm, oneAPI or OpenCL device in t; a live
 * load has no OpenCL devices, an XML file may), nearest to nic
 * first; with nic NULL or not on PCI every distance is RDP_DIST_UNKNOWN.
 * At most cap; 0 or -errno.
 */
int rdp_topo_gpus(const struct rdp_topo *t, const struct rdp_topo_nic *nic,
		  struct rdp_topo_gpu *gpus, size_t cap, size_t *n_out);

/*
 * The PCI bus id ("0000:19:00.0") of the GPU nearest the RDMA device nic,
 * for --use_cuda=auto. t NULL loads this host's topology for the call,
 * as rdp_topo_load does: CUDA GPUs are found by their PCI class.
 * -ENODEV without a GPU, -ENOENT when nic is not in the topology (as
 * Soft-RoCE over a veth); a NIC off PCI gets the first GPU with
 * RDP_DIST_UNKNOWN. dist may be NULL.
 */
int rdp_topo_nearest_gpu(const struct rdp_topo *t, const char *nic,
			 char *bus_id, size_t len, enum rdp_topo_dist *dist);

/* "0000:18:00.0 31.5 GB/s > switch 0000:17:00.0 ..." of a NIC's path. */
void rdp_topo_path_format(const struct rdp_topo_nic *nic, char *buf,
			  size_t len);

const char *rdp_topo_hop_str(enum rdp_topo_hop_kind k);

/* What the doctor reports of the topology around one NIC. */
struct rdp_topo_report {
	int loaded;   /* hwloc loaded a topology */
	int have_nic; /* nic is filled */
	struct rdp_topo_nic nic;
	struct rdp_topo_gpu gpus[RDP_TOPO_GPU_MAX]; /* nearest first */
	size_t n_gpus;
};

/* Fill r for dev from xml (NULL: this host, loaded as rdp_topo_load does
 * and with the GPU vendors' hwloc plugins, where installed, to name the
 * GPUs); never fails, r says how far it got. */
void rdp_topo_report_read(const struct rdp_sysfs *fs, const char *xml,
			  const char *dev, struct rdp_topo_report *r);

#endif /* RDMAPERF_TOPO_H */
