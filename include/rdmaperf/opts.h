/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Command lines of rdmaperf and rdmaperf-server: one option table each,
 * strict numbers with K/M/G suffixes, usage generated from the table.
 * Layer: cli
 */
#ifndef RDMAPERF_OPTS_H
#define RDMAPERF_OPTS_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <rdmaperf/limits.h>
#include <rdmaperf/params.h>
#include <rdmaperf/placement.h>

struct rdp_bench_ops;

#define RDP_DEFAULT_PORT 18515

struct rdp_conn_opts {
	char dev[64]; /* "" = first device with an active port */
	int ib_port;
	int gid_index;	/* -1 = choose */
	char host[256]; /* client: server to reach; "" = one-shot server */
	char bind[64];	/* server: listen address, "" = any */
	uint16_t tcp_port;
	int oob_timeout_ms;
	int cq_timeout_ms;
	int connect_timeout_ms;	   /* client: retry connecting; RDMA CM steps */
	uint64_t max_memory_bytes; /* server: buffers one client may ask for */
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
	double interval_s;	   /* --interval, 0: none */
	double margin_s;	   /* -f, with -D */
	double limit_bw_gbps;	   /* -w: fail a point below it, 0 none */
	double limit_msgrate_mpps; /* -y */
	int json;		   /* --json: the document on stdout only */
	char json_file[PATH_MAX];  /* --json-file: also write it here */
	int gbits;		   /* --report_gbits */
	int no_freq_check;	   /* -F */
};

/* The points one invocation runs: every size for every QP count. */
#define RDP_MAX_POINTS 64

struct rdp_matrix {
	uint64_t sizes[RDP_MAX_POINTS];
	size_t n_sizes;
	uint64_t qps[RDP_MAX_POINTS];
	size_t n_qps;
};

/* Acceptance runs: thresholds per point, plots, adaptive sweeps. */
struct rdp_accept_opts {
	struct rdp_limits limits; /* --min-bw, --min-msgrate, --max-lat */
	char plot_file[PATH_MAX]; /* --plot: "" none */
	double time_per_point_s;  /* --time-per-point, 0: fixed -n */
	double target_rel_err;	  /* --target-error / 100 */
};

/* Where the benchmark buffers live. */
struct rdp_mem_opts {
	char cuda[32]; /* --use_cuda: "" host memory, "auto", N or a bus id */
	int bounce;    /* --bounce: stage each message through host memory */
};

struct rdp_opts {
	const struct rdp_bench_ops *bench;
	struct rdp_params params; /* the first point; others differ in size
				   * and QP count only */
	struct rdp_matrix matrix;
	struct rdp_conn_opts conn;
	struct rdp_report_opts report;
	struct rdp_accept_opts accept;
	struct rdp_mem_opts mem;
	struct rdp_place_opts place; /* --cpu, --numa, --no-pin: both sides */
};

enum rdp_parse_status {
	RDP_PARSE_OK = 0,
	RDP_PARSE_EXIT = 1, /* --help/--version printed */
};

/* Returns enum rdp_parse_status, or -EINVAL with one line in err. */
int rdp_opts_parse_client(int argc, char **argv, struct rdp_opts *o, char *err,
			  size_t errlen);
int rdp_opts_parse_server(int argc, char **argv, struct rdp_opts *o, char *err,
			  size_t errlen);

void rdp_opts_usage_client(FILE *f);
void rdp_opts_usage_server(FILE *f);

/* "64", "4K", "1M", "2G" (binary multiples); -EINVAL or -ERANGE. */
int rdp_parse_size(const char *s, uint64_t *out);
/* A non-negative decimal number such as 12 or 0.5; -EINVAL otherwise. */
int rdp_parse_double(const char *s, double *out);
/* Decimal only, within [min, max]. */
int rdp_parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/*
 * A list of values: "64,4K,64K", ranges "2:8M:x2" (times 2) or "1:16:+4"
 * (plus 4), mixed freely; sizes enables K/M/G. -EINVAL syntax, -ERANGE a
 * value outside [min, max], -E2BIG more than cap values.
 */
int rdp_parse_list(const char *s, int sizes, uint64_t min, uint64_t max,
		   uint64_t *out, size_t cap, size_t *n_out);

#endif /* RDMAPERF_OPTS_H */
