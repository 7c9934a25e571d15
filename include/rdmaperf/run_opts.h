/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What one invocation asks for: the test, its parameters and the points to
 * run, the connection, the report, thresholds, memory and placement. The
 * command line (cli/) fills it from the option table; the sessions run
 * from it and never see an option.
 * Layer: session
 */
#ifndef RDMAPERF_RUN_OPTS_H
#define RDMAPERF_RUN_OPTS_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include <rdmaperf/cidr.h>
#include <rdmaperf/limits.h>
#include <rdmaperf/params.h>
#include <rdmaperf/placement.h>
#include <rdmaperf/rules.h>

struct rdp_bench_ops;
struct rdp_mem_ops;
struct rdp_secret;

#define RDP_DEFAULT_PORT 18515

struct rdp_conn_opts {
	char dev[64]; /* "" = first device with an active port */
	int ib_port;
	int gid_index;	    /* -1 = choose */
	char host[256];	    /* client: server to reach; "" = one-shot server */
	char bind[64];	    /* server: listen address, "" = any */
	char source_ip[64]; /* client: OOB source address, "" = the route's */
	int perftest; /* --perftest: the peer is a perftest ib_* program */
	uint32_t perftest_block; /* --perftest-block: 312 or 320, 0 = 320 */
	/* --perftest: the iterations perftest's block carries, which a
	 * live run (--run_infinitely) keeps though it runs by time */
	uint64_t perftest_iters;
	/* --perform_warm_up: the bandwidth tests' warm-up (perftest's) */
	int perform_warm_up;
	uint16_t tcp_port;
	int oob_timeout_ms;
	int cq_timeout_ms;
	int connect_timeout_ms;	   /* client: retry connecting; RDMA CM steps */
	uint64_t max_memory_bytes; /* server: buffers one client may ask for */
	/* Who may use the server */
	char auth_file[256]; /* --auth-file: "" none */
	/* its secret, loaded by main() (NULL or empty: none) */
	const struct rdp_secret *secret;
	struct rdp_cidr_list allow;  /* server: --allow, empty = any */
	uint32_t max_handshake_rate; /* server: handshakes a second */
	int handshake_timeout_ms;    /* server: deadline of one */
	/* server: handshakes a second from one address prefix, the prefix
	 * being the first ipv4_prefix_bits of an IPv4 address, the first
	 * ipv6_prefix_bits of an IPv6 one */
	uint32_t max_prefix_rate;
	uint32_t ipv4_prefix_bits;
	uint32_t ipv6_prefix_bits;
	uint32_t max_session_s; /* server: a connection's whole life */
	uint32_t max_points;	/* server: points one connection runs */
	int any_gid; /* server: take a client GID other than its address */
	/* client, InfiniBand: the server's LID, 0: its own (--dlid) */
	uint16_t dlid;
	/* client: keep the resources after the run, 0 none (--wait_destroy) */
	uint32_t wait_destroy_s;
};

enum rdp_output {
	RDP_OUTPUT_REPORT = 0, /* the text report */
	RDP_OUTPUT_BW,	       /* --output=bandwidth: one figure per point */
	RDP_OUTPUT_MSGRATE,    /* --output=message_rate */
	RDP_OUTPUT_LAT,	       /* --output=latency: the median */
};

struct rdp_report_opts {
	enum rdp_output output;
	int no_peak;		   /* -N */
	int histogram;		   /* -H */
	int samples;		   /* -U: every latency sample */
	int cycles;		   /* -C: latency in CPU cycles */
	double interval_s;	   /* --interval, 0: none */
	double margin_s;	   /* -f, with -D */
	double limit_bw_gbps;	   /* -w: fail a point below it, 0 none */
	double limit_msgrate_mpps; /* -y */
	int json;		   /* --json: the document on stdout only */
	char json_file[PATH_MAX];  /* --json-file: also write it here */
	int gbits;		   /* --report_gbits */
	int no_freq_check;	   /* -F */
	int cpu_util;		   /* --cpu_util: CPU lines in the text */
	int per_qp;		   /* --report-per-qp: rows and JSON */
	int per_port;		   /* --report-per-port: rows and JSON (-O) */
	int live;		   /* --run_infinitely, or --soak */
	double soak_s; /* --soak: the run's length, judged every interval;
			* 0 none */
	/* --metrics: also the figures as OpenMetrics text here */
	char metrics_file[PATH_MAX];
};

/* The points one invocation runs: every size for every QP count. */
#define RDP_MAX_POINTS 64

struct rdp_matrix {
	uint64_t sizes[RDP_MAX_POINTS];
	size_t n_sizes;
	uint64_t qps[RDP_MAX_POINTS];
	size_t n_qps;
};

/* Thresholds per point, plots, adaptive sweeps. */
struct rdp_limit_opts {
	struct rdp_limits limits; /* --min-bw, --min-msgrate, --max-lat */
	char plot_file[PATH_MAX]; /* --plot: "" none */
	double time_per_point_s;  /* --time-per-point, 0: fixed -n */
	double target_rel_err;	  /* --target-error / 100 */
};

/* Where the benchmark buffers live. */
struct rdp_mem_opts {
	/* device memory chosen by its option (--use_cuda: a row of
	 * rdp_mem_types()); NULL: host memory */
	const struct rdp_mem_ops *type;
	int bounce;	/* --bounce: stage each message through host memory */
	int hugepages;	/* --use_hugepages: host buffers in 2 MiB pages */
	int no_relaxed; /* --disable_pcie_relaxed */
	/* the option's argument: "auto", N or a bus id; --mmap's file */
	char device[PATH_MAX];
	/* --mmap-offset */
	unsigned long long offset_bytes;
};

/* A side's memory and peer as the rules (rules.h) see them. */
static inline struct rdp_rules_side
rdp_rules_side_of(const struct rdp_mem_opts *mo, int perftest)
{
	struct rdp_rules_side side = {
		.mem = mo->type,
		.bounce = mo->bounce,
		.hugepages = mo->hugepages,
		.mmap_offset = mo->offset_bytes,
		.perftest = perftest,
	};

	return side;
}

/* The server's check of received parameters (rdp_cli_check_params). */
typedef int rdp_params_check_fn(const struct rdp_params *p, char *err,
				size_t len);

struct rdp_opts {
	const struct rdp_bench_ops *bench;
	rdp_params_check_fn *check_params; /* set by the parser */
	struct rdp_params params; /* the first point; others differ in size
				   * and QP count only */
	struct rdp_matrix matrix;
	struct rdp_conn_opts conn;
	struct rdp_report_opts report;
	struct rdp_limit_opts limits;
	struct rdp_mem_opts mem;
	struct rdp_place_opts place; /* --cpu, --numa, --no-pin: both sides */
};

#endif /* RDMAPERF_RUN_OPTS_H */
