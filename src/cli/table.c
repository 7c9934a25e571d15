/* SPDX-License-Identifier: BSD-2-Clause */
/* The option tables of rdmaperf and rdmaperf-server, and the usage text
 * generated from them. */
#include <stdio.h>

#include "opts_int.h"
#include <rdmaperf/bench.h>
#include <rdmaperf/tool.h>

/* Options a test client takes, then the server's. */
/* clang-format off */
const struct opt_def rdp_cli_client_table[] = {
	{ "ib-dev", OPT_DEV, "DEV", "RDMA device (default: first with an active port)" },
	{ "ib-port", OPT_IB_PORT, "PORT", "device port (default 1)" },
	{ "gid-index", OPT_GID, "N", "GID index (default: the RoCE v2 GID of the connection's address)" },
	{ "port", OPT_PORT, "PORT", "TCP port of the server (default 18515)" },
	{ "size", OPT_SIZE, "LIST", "message sizes: 4K, 64,4K,1M or 2:8M:x2 (default: 64K bandwidth, 2 latency, 8 atomics)" },
	{ "all", OPT_ALL_SIZES, NULL, "sizes 2 B to 8 MiB in powers of two" },
	{ "iters", OPT_ITERS, "N", "iterations per QP (default 1000)" },
	{ "duration", OPT_DURATION, "SEC", "run for SEC seconds instead of -n" },
	{ "qp", OPT_QPS, "LIST", "QP counts, e.g. 1,2,4,8, bandwidth tests (default 1)" },
	{ "tx-depth", OPT_TX_DEPTH, "N", "work requests in flight per QP (default 128)" },
	{ "cq-mod", OPT_CQ_MOD, "N", "signal one send in N (default 100)" },
	{ "rx-depth", OPT_RX_DEPTH, "N", "receives kept posted per QP, SEND tests (default 512)" },
	{ "outstanding", OPT_OUTSTANDING, "N", "READ/atomic operations in flight per QP (default: device limit)" },
	{ "atomic_type", OPT_ATOMIC, "TYPE", "FETCH_AND_ADD (default) or CMP_AND_SWAP" },
	{ "mtu", OPT_MTU, "BYTES", "path MTU 256..4096 (default: smaller active MTU)" },
	{ "tclass", OPT_TCLASS, "N", "traffic class of the GRH (RoCE: DSCP << 2 | ECN)" },
	{ "tos", OPT_TOS, "N", "type of service of RoCE v2 packets (same byte as --tclass)" },
	{ "sl", OPT_SL, "N", "service level 0..15 (default 0)" },
	{ "qp-timeout", OPT_QP_TIMEOUT, "N", "ACK timeout 4.096 us * 2^N, 0..31 (default 14)" },
	{ "inline_size", OPT_INLINE, "BYTES", "send messages up to BYTES inline (default 220)" },
	{ "post_list", OPT_POST_LIST, "N", "chain up to N work requests per post, 1..32 (default 32)" },
	{ "warmup", OPT_WARMUP, "N", "latency: round trips run before measuring (default 100)" },
	{ "seed", OPT_SEED, "N", "data pattern seed (default 1)" },
	{ "grh", OPT_GRH, NULL, "InfiniBand: route with a GRH" },
	{ "rdma_cm", OPT_RDMA_CM, NULL, "connect the QPs through RDMA CM (librdmacm)" },
	{ "bidirectional", OPT_BIDIR, NULL, "both sides send at once (write_bw, read_bw); TX and RX reported" },
	{ "report_gbits", OPT_GBITS, NULL, "bandwidth in Gb/s (default MiB/s)" },
	{ "noPeak", OPT_NO_PEAK, NULL, "do not compute peak bandwidth" },
	{ "margin", OPT_MARGIN, "SEC", "with -D: leave SEC seconds out at both ends (default 0)" },
	{ "interval", OPT_INTERVAL, "SEC", "with -D: bandwidth of every SEC seconds, after the run" },
	{ "histogram", OPT_HISTOGRAM, NULL, "latency: print the distribution of the samples" },
	{ "limit_bw", OPT_LIMIT_BW, "GBPS", "fail (exit 1) when a point's average is below GBPS Gb/s" },
	{ "limit_msgrate", OPT_LIMIT_MSGRATE, "MPPS", "fail when a point's message rate is below MPPS" },
	{ "min-bw", OPT_MIN_BW, "GBPS|PCT%", "fail (exit 1) when a point's average is below GBPS Gb/s or PCT% of the line rate" },
	{ "min-msgrate", OPT_MIN_MSGRATE, "MPPS", "fail when a point's message rate is below MPPS" },
	{ "max-lat", OPT_MAX_LAT, "STAT=TIME", "fail when a latency figure is above TIME, e.g. p99=5us or p50=2us,p99.9=20us" },
	{ "plot", OPT_PLOT, "FILE", "also draw the results to FILE (SVG, with gnuplot)" },
	{ "time-per-point", OPT_TIME_PER_POINT, "SEC", "repeat each point in batches until stable, for at most SEC" },
	{ "target-error", OPT_TARGET_ERROR, "PCT", "with --time-per-point: stop a point at this relative error (default 1)" },
	{ "output", OPT_OUTPUT, "WHAT", "print only bandwidth, message_rate or latency, one line per point" },
	{ "json", OPT_JSON, NULL, "print the results as one JSON document instead of the table" },
	{ "json-file", OPT_JSON_FILE, "FILE", "also write the JSON document to FILE" },
	{ "CPU-freq", OPT_FREQ, NULL, "do not warn about CPU frequency scaling" },
	{ "oob-timeout", OPT_OOB_TIMEOUT, "SEC", "message timeout (default 5)" },
	{ "connect-timeout", OPT_CONNECT_TIMEOUT, "SEC", "keep retrying to connect for SEC, TCP and RDMA CM (default 10)" },
	{ "cq-timeout", OPT_CQ_TIMEOUT, "SEC", "give up when no completion arrives for SEC (default 10)" },
	{ "cpu", OPT_CPU, "LIST", "run on these CPUs, e.g. 4 or 0-3,8 (default: CPUs of the NIC's NUMA node)" },
	{ "numa", OPT_NUMA, "NODE", "run on and allocate from this NUMA node (default: the NIC's)" },
	{ "no-pin", OPT_NO_PIN, NULL, "leave CPU and memory placement to the system" },
	{ "use_cuda", OPT_USE_CUDA, "GPU", "buffers in GPU memory: GPU number, auto (nearest the NIC) or PCI bus id" },
	{ "bounce", OPT_BOUNCE, NULL, "with --use_cuda: RDMA on host buffers, each message copied to or from the GPU (staged path)" },
	{ "help", OPT_HELP, NULL, "show this help" },
	{ "version", OPT_VERSION, NULL, "show the version" },
};

const struct opt_def rdp_cli_server_table[] = {
	{ "ib-dev", OPT_DEV, "DEV", "RDMA device (default: first with an active port)" },
	{ "ib-port", OPT_IB_PORT, "PORT", "device port (default 1)" },
	{ "gid-index", OPT_GID, "N", "GID index (default: the RoCE v2 GID of the connection's address)" },
	{ "port", OPT_PORT, "PORT", "TCP port to listen on (default 18515)" },
	{ "bind", OPT_BIND, "ADDR", "listen on this address only (default: all)" },
	{ "max-memory", OPT_MAX_MEMORY, "SIZE", "refuse tests whose buffers need more than SIZE (default 4G)" },
	{ "oob-timeout", OPT_OOB_TIMEOUT, "SEC", "message timeout (default 5)" },
	{ "cq-timeout", OPT_CQ_TIMEOUT, "SEC", "give up when no completion arrives for SEC (default 10)" },
	{ "connect-timeout", OPT_CONNECT_TIMEOUT, "SEC", "-R clients: wait SEC for their RDMA CM connections (default 10)" },
	{ "cpu", OPT_CPU, "LIST", "run on these CPUs, e.g. 4 or 0-3,8 (default: CPUs of the NIC's NUMA node)" },
	{ "numa", OPT_NUMA, "NODE", "run on and allocate from this NUMA node (default: the NIC's)" },
	{ "no-pin", OPT_NO_PIN, NULL, "leave CPU and memory placement to the system" },
	{ "use_cuda", OPT_USE_CUDA, "GPU", "buffers in GPU memory: GPU number, auto (nearest the NIC) or PCI bus id" },
	{ "bounce", OPT_BOUNCE, NULL, "with --use_cuda: RDMA on host buffers, each message copied to or from the GPU (staged path)" },
	{ "help", OPT_HELP, NULL, "show this help" },
	{ "version", OPT_VERSION, NULL, "show the version" },
};
/* clang-format on */

const size_t rdp_cli_n_client =
	sizeof(rdp_cli_client_table) / sizeof(rdp_cli_client_table[0]);
const size_t rdp_cli_n_server =
	sizeof(rdp_cli_server_table) / sizeof(rdp_cli_server_table[0]);
_Static_assert(sizeof(rdp_cli_client_table) / sizeof(struct opt_def) <=
		       RDP_CLI_MAX_OPTS,
	       "raise RDP_CLI_MAX_OPTS: getopt tables are sized by it");

static void usage(FILE *f, const char *synopsis, const struct opt_def *t,
		  size_t n)
{
	char left[48];
	size_t i;

	fprintf(f, "%s\n\nOptions:\n", synopsis);
	for (i = 0; i < n; i++) {
		if (t[i].id < 256)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", t[i].id,
				 t[i].name, t[i].arg ? "=" : "",
				 t[i].arg ? t[i].arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", t[i].name,
				 t[i].arg ? "=" : "", t[i].arg ? t[i].arg : "");
		fprintf(f, "  %-26s %s\n", left, t[i].help);
	}
}

void rdp_opts_usage_client(FILE *f)
{
	const struct rdp_bench_ops *const *b;
	const struct rdp_tool *const *t;

	usage(f,
	      "Usage: rdmaperf TEST [options] [HOST]\n"
	      "  With HOST, run TEST against an rdmaperf server there;\n"
	      "  without, serve one client and exit.",
	      rdp_cli_client_table, rdp_cli_n_client);
	fprintf(f, "\nTests:");
	for (b = rdp_bench_all(); *b; b++)
		fprintf(f, " %s", (*b)->name);
	fprintf(f, "\n");
	if (*rdp_tool_all())
		fprintf(f, "\nOther commands (rdmaperf COMMAND --help):\n");
	for (t = rdp_tool_all(); *t; t++)
		fprintf(f, "  %-10s %s\n", (*t)->name, (*t)->summary);
}

void rdp_opts_usage_server(FILE *f)
{
	usage(f,
	      "Usage: rdmaperf-server [options]\n"
	      "  Serve rdmaperf clients one after another; each brings "
	      "its test parameters.",
	      rdp_cli_server_table, rdp_cli_n_server);
}
