/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The program's own view of a host and of the server side of a test, as
 * the report reads them. The session fills them from the HELLO and ACCEPT
 * messages right after decoding, so a field the report needs only changes
 * the protocol when it must travel.
 *
 * Layer: report
 */
#ifndef RDMAPERF_PEER_H
#define RDMAPERF_PEER_H

#include <stdint.h>

#define RDP_PEER_NAME_MAX     64
#define RDP_PEER_GPU_MAX      128
#define RDP_PEER_MEM_TYPE_MAX 16

/* One host: what HELLO tells of either side. */
struct rdp_host_info {
	char tool_version[RDP_PEER_NAME_MAX];
	char hostname[RDP_PEER_NAME_MAX];
	char kernel[RDP_PEER_NAME_MAX];
	char cpu_model[RDP_PEER_NAME_MAX];
	uint32_t cpus; /* online CPUs */
};

/* Where the server runs this client's test (its sys/placement). */
struct rdp_peer_place {
	uint8_t mode;	/* enum rdp_place_mode; unknown values as such */
	int cross_numa; /* its CPUs are off the NIC's node */
	int node;	/* node of its CPUs and memory, -1 unknown */
	char cpus[RDP_PEER_NAME_MAX]; /* its CPU list, "" unknown */
};

/* Where the server's buffers are; unknown codes print as unknown. */
struct rdp_peer_mem {
	uint8_t kind;  /* enum rdp_mem_kind */
	uint8_t path;  /* enum rdp_mem_path of the registered buffer */
	uint8_t stage; /* enum rdp_stage_role of the server in this test */
	char gpu[RDP_PEER_GPU_MAX];	/* "GPU 0 NVIDIA H200 (...)", "" */
	char bus_id[RDP_PEER_NAME_MAX]; /* "0000:3b:00.0", "" host */
	uint32_t access; /* IBV_ACCESS_* its buffer grants in this test */
	/* the device type of its data ("rocm"), "" when the kind names it */
	char type[RDP_PEER_MEM_TYPE_MAX];
};

/* The server's side of one test point. */
struct rdp_peer_info {
	char device[RDP_PEER_NAME_MAX];
	uint8_t port;
	uint8_t link_layer; /* IBV_LINK_LAYER_* */
	uint8_t gid_type;   /* enum rdp_gid_type */
	int gid_index;	    /* -1 when no GID is used */
	uint32_t active_mtu_bytes;
	int numa_node; /* the NIC's node, -1 unknown */
	int cpu;       /* the CPU serving this client, -1 unknown */
	struct rdp_peer_place place;
	struct rdp_peer_mem mem;
};

#endif /* RDMAPERF_PEER_H */
