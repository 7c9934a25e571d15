/* SPDX-License-Identifier: BSD-2-Clause */
/* Option ids and tables shared by the parser and the option groups. */
#ifndef RDMAPERF_CLI_OPTS_INT_H
#define RDMAPERF_CLI_OPTS_INT_H

#include <stddef.h>
#include <stdio.h>

#include <rdmaperf/log.h>
#include <rdmaperf/opts.h>

/* A single letter is its own id; long-only options count from 256. */
enum opt_id {
	OPT_DEV = 'd',
	OPT_IB_PORT = 'i',
	OPT_GID = 'x',
	OPT_PORT = 'p',
	OPT_SIZE = 's',
	OPT_ALL_SIZES = 'a',
	OPT_ITERS = 'n',
	OPT_DURATION = 'D',
	OPT_QPS = 'q',
	OPT_TX_DEPTH = 't',
	OPT_CQ_MOD = 'Q',
	OPT_MTU = 'm',
	OPT_RX_DEPTH = 'r',
	OPT_OUTSTANDING = 'o',
	OPT_ATOMIC = 'A',
	OPT_INLINE = 'I',
	OPT_POST_LIST = 'l',
	OPT_QP_TIMEOUT = 'u',
	OPT_SL = 'S',
	OPT_TOS = 'T',
	OPT_NO_PEAK = 'N',
	OPT_LIMIT_BW = 'w',
	OPT_LIMIT_MSGRATE = 'y',
	OPT_HISTOGRAM = 'H',
	OPT_BIDIR = 'b',
	OPT_MARGIN = 'f',
	OPT_FREQ = 'F',
	OPT_HELP = 'h',
	OPT_VERSION = 'V',
	OPT_RDMA_CM = 'R',
	OPT_GBITS = 256,
	OPT_WARMUP,
	OPT_TCLASS,
	OPT_SEED,
	OPT_GRH,
	OPT_OOB_TIMEOUT,
	OPT_CQ_TIMEOUT,
	OPT_BIND,
	OPT_JSON,
	OPT_JSON_FILE,
	OPT_OUTPUT,
	OPT_INTERVAL,
	OPT_CONNECT_TIMEOUT,
	OPT_MAX_MEMORY,
	/* placement (sys/placement) */
	OPT_PLACE_FIRST = 320,
	OPT_CPU = OPT_PLACE_FIRST,
	OPT_NUMA,
	OPT_NO_PIN,
	/* thresholds, sweeps, plots (report) */
	OPT_ACCEPT_FIRST = 352,
	OPT_MIN_BW = OPT_ACCEPT_FIRST,
	OPT_MIN_MSGRATE,
	OPT_MAX_LAT,
	OPT_PLOT,
	OPT_TIME_PER_POINT,
	OPT_TARGET_ERROR,
	/* memory types (mem) */
	OPT_MEM_FIRST = 384,
	OPT_USE_CUDA = OPT_MEM_FIRST,
	OPT_BOUNCE = 395, /* 395..415: staging (opts_bounce.c) */
	OPT_ID_END = 416, /* getopt ids stay below 512 */
};

struct opt_def {
	const char *name;
	int id;
	const char *arg; /* NULL: a flag */
	const char *help;
};

extern const struct opt_def rdp_cli_client_table[];
extern const size_t rdp_cli_n_client;
extern const struct opt_def rdp_cli_server_table[];
extern const size_t rdp_cli_n_server;

#define RDP_CLI_MAX_OPTS 96

/* Write one line to err; returns -EINVAL. */
int rdp_cli_bad(char *err, size_t len, const char *fmt, ...) RDP_PRINTF(3, 4);
/* A whole number in [min, max], the option named on failure. */
int rdp_cli_num(const char *opt, const char *arg, uint64_t min, uint64_t max,
		uint64_t *v, char *err, size_t len);

/*
 * An option group: 0 when the option was taken, 1 when it belongs to
 * another group, -EINVAL with one line in err when its value is bad.
 */
typedef int rdp_cli_apply_fn(struct rdp_opts *o, int id, const char *arg,
			     char *err, size_t len);

/* Thresholds, plots, adaptive sweeps (opts_accept.c); the check runs
 * once every option is in. */
rdp_cli_apply_fn rdp_cli_apply_accept;
/* Memory types (opts_mem.c); the check refuses tests GPU memory cannot
 * serve. */
rdp_cli_apply_fn rdp_cli_apply_mem;
/* --cpu, --numa, --no-pin (opts_place.c). */
rdp_cli_apply_fn rdp_cli_apply_place;
int rdp_cli_check_mem(const struct rdp_opts *o, char *err, size_t len);
/* --bounce (opts_bounce.c); the check wants --use_cuda and, on the
 * client, a test with messages to stage. */
rdp_cli_apply_fn rdp_cli_apply_bounce;
int rdp_cli_check_bounce(const struct rdp_opts *o, char *err, size_t len);
int rdp_cli_check_accept(struct rdp_opts *o, char *err, size_t len);

#endif /* RDMAPERF_CLI_OPTS_INT_H */
