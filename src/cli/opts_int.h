/* SPDX-License-Identifier: BSD-2-Clause */
/* The setters the option table names, and the checks run once every
 * option is in. */
#ifndef RDMAPERF_CLI_OPTS_INT_H
#define RDMAPERF_CLI_OPTS_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <rdmaperf/log.h>
#include <rdmaperf/opts.h>

/* Rows of one table at most (getopt's arrays are sized by it). */
#define RDP_CLI_MAX_OPTS 256

/* Connection, sizes and report (opts.c). */
rdp_cli_set_fn rdp_cli_set_max_memory;
rdp_cli_set_fn rdp_cli_set_allow;
rdp_cli_set_fn rdp_cli_set_bind;
rdp_cli_set_fn rdp_cli_set_sizes;
rdp_cli_set_fn rdp_cli_set_all;
rdp_cli_set_fn rdp_cli_set_qps;
rdp_cli_set_fn rdp_cli_set_flow_label;
rdp_cli_set_fn rdp_cli_set_mtu;
rdp_cli_set_fn rdp_cli_set_atomic;
rdp_cli_set_fn rdp_cli_set_interval;
rdp_cli_set_fn rdp_cli_set_output;
rdp_cli_set_fn rdp_cli_set_json_file;
/* --metrics (opts_metrics.c) */
rdp_cli_set_fn rdp_cli_set_metrics;
/* perftest's names (perftest_names.c) */
rdp_cli_set_fn rdp_cli_set_out_json;
rdp_cli_set_fn rdp_cli_set_connection;
rdp_cli_set_fn rdp_cli_set_perftest_block;
rdp_cli_set_fn rdp_cli_set_nothing;
rdp_cli_set_fn rdp_cli_refuse;
/* A second name of the setter-only row named by the row's .say. */
rdp_cli_set_fn rdp_cli_set_alias;
/* -M, the group of -g (opts_mcast.c). */
rdp_cli_set_fn rdp_cli_set_mgid;
/* -g: the group's counts asked of the server (RDP_PARAM_MCAST_COUNTS);
 * -g -R: the group joined through the RDMA CM (RDP_PARAM_MCAST_CM in
 * place of RDP_PARAM_RDMA_CM). Before the checks of -R. */
void rdp_cli_mcast_flags(struct rdp_opts *o);
/* Thresholds, plots, adaptive sweeps (opts_limits.c). */
rdp_cli_set_fn rdp_cli_set_min_bw;
rdp_cli_set_fn rdp_cli_set_min_msgrate;
rdp_cli_set_fn rdp_cli_set_max_lat;
rdp_cli_set_fn rdp_cli_set_max_errors;
rdp_cli_set_fn rdp_cli_set_plot;
rdp_cli_set_fn rdp_cli_set_time_per_point;
rdp_cli_set_fn rdp_cli_set_target_error;
/* --cpu, --numa, --no-pin (opts_place.c). */
rdp_cli_set_fn rdp_cli_set_cpu;
rdp_cli_set_fn rdp_cli_set_numa;
rdp_cli_set_fn rdp_cli_set_no_pin;
/* A memory type's option, --use_cuda (opts_mem.c). */
rdp_cli_set_fn rdp_cli_set_mem_type;
rdp_cli_set_fn rdp_cli_set_mmap_offset;
/* --perftest (opts_perftest.c): perftest's iterations for test t, and
 * its defaults for the test of first (the command line's first reading)
 * in place of rdmaperf's in o. */
struct rdp_bench_ops;
uint64_t rdp_cli_perftest_iters(const struct rdp_bench_ops *t);
void rdp_cli_perftest_defaults(const struct rdp_opts *first,
			       struct rdp_opts *o);
/* --perform_warm_up, and the warm-up it gives a bandwidth test: the
 * operations per QP (0: none). */
rdp_cli_set_fn rdp_cli_set_warm_up;
uint32_t rdp_cli_warm_up_bw(const struct rdp_opts *o);
/* --run_infinitely (opts_rate.c). */
rdp_cli_set_fn rdp_cli_set_live;
int rdp_cli_check_live(struct rdp_opts *o, char *err, size_t len);
/* --soak (opts_soak.c): its length; then the options it combines with,
 * making the run a live one. */
rdp_cli_set_fn rdp_cli_set_soak;
int rdp_cli_check_soak(struct rdp_opts *o, char *err, size_t len);
/* --rate_limit, --rate_units, --rate_limit_type (opts_rate.c). */
rdp_cli_set_fn rdp_cli_set_rate_limit;
rdp_cli_set_fn rdp_cli_set_rate_units;
rdp_cli_set_fn rdp_cli_set_rate_type;
/* --latency_gap (opts_loops.c). */
rdp_cli_set_fn rdp_cli_set_latency_gap;

/* A file name into dst; an empty or too long one fails with the line what. */
int rdp_cli_file_name(char *dst, size_t size, const char *arg, const char *what,
		      char *err, size_t len);

/* Rules across options, once all are parsed. */
int rdp_cli_check_limits(struct rdp_opts *o, char *err, size_t len);

#endif /* RDMAPERF_CLI_OPTS_INT_H */
