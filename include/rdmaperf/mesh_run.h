/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Measuring a mesh: each rank serves on its rail's address, the ranks
 * swap endpoints through the bootstrap, then each round's senders run
 * rdmaperf's own client session against their receivers, and rank 0
 * gathers the cells, journals each round and writes the files.
 * Layer: mesh
 */
#ifndef RDMAPERF_MESH_RUN_H
#define RDMAPERF_MESH_RUN_H

#include <stdint.h>
#include <stdio.h>

#include <rdmaperf/mesh.h>
#include <rdmaperf/mesh_plan.h>

struct rdp_boot;
struct rdp_opts;
struct rdp_engine_ops;
struct rdp_session_results;

#define RDP_MESH_DEVS_MAX 16

/* What one rank offers the others: fixed fields, the same binary on
 * every rank, swapped by the bootstrap and never by the OOB wire. */
struct rdp_mesh_endpoint {
	char node[64]; /* RDP_MESH_NODE, else the host name */
	char host[64];
	char dev[64];
	char addr[16]; /* IPv4 of the rail, dotted */
	uint16_t port; /* the kernel chose it */
	int32_t gid_index;
	int32_t numa_node;  /* -1 unknown */
	double line_gbps;   /* 0 unknown */
	int32_t status;	    /* 0, or this rank's -errno: all stop */
	int32_t world_rank; /* filled by the receiver */
};

struct rdp_mesh_run_opts {
	struct rdp_mesh_plan_opts plan; /* .nodes: found by the run */
	struct rdp_mesh_limits limits;
	char devs[RDP_MESH_DEVS_MAX][64]; /* -d list; the local rank picks */
	size_t n_devs;
	const char *output_dir;
	int round_timeout_ms;	    /* bounds every collective */
	FILE *out;		    /* rank 0: the matrix and outliers */
	int progress;		    /* rank 0: a progress line on stderr */
	int retest;		    /* run flagged and failed pairs again */
	unsigned int retest_wait_s; /* every rank, before those rounds */
	enum rdp_mesh_scale scale;  /* of the heatmaps */
};

/* A cell's figures from the last point a client session measured (NaN:
 * none), and the time all its points measured. */
struct rdp_mesh_figures {
	double bw_gbps;	   /* what the sender sent */
	double rx_bw_gbps; /* -b: what it received */
	double lat_us;	   /* the median */
	double measured_s;
};
void rdp_mesh_figures_of(const struct rdp_session_results *r,
			 struct rdp_mesh_figures *f);

/*
 * The node name of a rank: env (RDP_MESH_NODE's value) with "%r" replaced
 * by the world rank, so that one host can stand for several nodes; NULL or
 * "" the host name. 0 or -ENAMETOOLONG.
 */
int rdp_mesh_node_name_of(const char *env, int rank, const char *host,
			  char *buf, size_t len);

/*
 * The IPv4 address, GID index, NUMA node and line rate of dev's port
 * into ep (node and host untouched): the address of its IPv4 RoCE v2 GID
 * (RoCE), else of the netdev the device sits on (IPoIB). 0 or -errno,
 * logged.
 */
int rdp_mesh_endpoint_local(const char *dev, int ib_port,
			    struct rdp_mesh_endpoint *ep);

/*
 * Nodes and rails from every rank's endpoint (in rank order): a node is
 * the ranks of one name, in order of their first rank; a rank's rail its
 * place among them. node_of[i], rail_of[i] per rank; names[] the nodes'
 * (pointers into eps); *nodes, *rails. -EINVAL (logged) when nodes hold
 * different numbers of ranks or there is a single node.
 */
int rdp_mesh_group(const struct rdp_mesh_endpoint *eps, int n,
		   unsigned int *node_of, unsigned int *rail_of,
		   const char **names, unsigned int *nodes,
		   unsigned int *rails);

/*
 * The whole mesh on this rank, collectives through boot; o: the test and
 * its options as rdmaperf takes them. Returns enum rdp_exit: on rank 0,
 * 1 when a cell is flagged or failed.
 */
int rdp_mesh_run(struct rdp_boot *boot, const struct rdp_opts *o,
		 const struct rdp_engine_ops *eng,
		 const struct rdp_mesh_run_opts *mo);

#endif /* RDMAPERF_MESH_RUN_H */
