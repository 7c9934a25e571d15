/* SPDX-License-Identifier: BSD-2-Clause */
/* The one option table of rdmaperf, rdmaperf-server and rdmaperf doctor:
 * a row per option, from which parsers, checks and help are made. */
#include <stddef.h>

#include "opts_int.h"
#include <rdmaperf/bench.h>
#include <rdmaperf/params.h>

#define FIELD(m)                                                               \
	.off = offsetof(struct rdp_opts, m),                                   \
	.width = sizeof(((struct rdp_opts *)0)->m)
#define UINT(m, lo, hi, d)                                                     \
	.type = RDP_CLI_UINT, FIELD(m), .min = (lo), .max = (hi), .def = (d)
#define ON(m)	      .type = RDP_CLI_ON, FIELD(m)
#define DECIMAL(m, w) .type = RDP_CLI_DECIMAL, FIELD(m), .say = (w)
#define CHARS(m, w)   .type = RDP_CLI_CHARS, FIELD(m), .say = (w)
#define PARAM_FLAG(b) .type = RDP_CLI_CUSTOM, .bit = (b)
/* Given in seconds, kept in milliseconds. */
#define TIMEOUT_S(m, d) UINT(m, 1, 3600, d), .scale = 1000
/* --tclass and -T: two names of one byte. */
#define TOS_BYTE UINT(params.tclass, 0, 255, 0), .bit = RDP_PARAM_TOS

#define C    RDP_CLI_CLIENT
#define S    RDP_CLI_SERVER
#define PEER (RDP_CLI_CLIENT | RDP_CLI_PEER)
#define DOC  RDP_CLI_DOCTOR

/* perftest's names: one refused, the line says why and what to use. */
#define REFUSED(why) .set = rdp_cli_refuse, .say = why, .help = "refused: " why
/* One that stands for a setter-only row of rdmaperf's, named. */
#define ALIAS(to)                                                              \
	.set = rdp_cli_set_alias, .say = to, .help = "the same as --" to
/* One accepted that changes nothing: why in the help. */
#define NOTHING(why) .set = rdp_cli_set_nothing, .help = "accepted: " why
#define RAW                                                                    \
	"perftest's raw Ethernet tests only: Soft-RoCE and rdmaperf have no "  \
	"raw packet QPs; run one of rdmaperf's RDMA tests"
#define VENDOR(what) what " is a vendor-only feature, not built in: "
#define AES	     VENDOR("AES-XTS encryption (mlx5 crypto)") "drop the option"
#define SIG	     VENDOR("signature offload (mlx5)") "drop the option"
#define DCI                                                                    \
	VENDOR("the DCI stream setting of DC (a vendor transport)") "use -c RC"
#define TPH VENDOR("TPH (PCIe processing hints)") "place the run with --cpu"
#define OOO VENDOR("out-of-order receive") "drop the option"
#define GPU(what)                                                              \
	what " memory is not supported: no way to test it here; use "          \
	     "--use_cuda or --use_rocm"
#define SIDE                                                                   \
	"rdmaperf is the client with HOST and the server without: drop "       \
	"the option"

/* clang-format off */
const struct rdp_cli_opt rdp_cli_opts[] = {
	/* Connection */
	{ "ib-dev", 'd', "DEV", C | S | DOC,
	  CHARS(conn.dev, "device name too long"),
	  .help = "RDMA device (default: first with an active port)" },
	{ "ib-port", 'i', "PORT", C | S | DOC, UINT(conn.ib_port, 1, 254, 1),
	  .help = "device port" },
	{ "gid-index", 'x', "N", C | S, UINT(conn.gid_index, 0, 65535, -1),
	  .help = "GID index (default: the RoCE v2 GID of the connection's address)" },
	{ "port", 'p', "PORT", C | S | DOC,
	  UINT(conn.tcp_port, 1, 65535, RDP_DEFAULT_PORT),
	  .help = "TCP port of the server (rdmaperf-server: to listen on)" },
	{ "bind", 0, "ADDR", S, CHARS(conn.bind, "too long"),
	  .set = rdp_cli_set_bind,
	  .help = "listen on this address only (default: all)" },
	{ "max-memory", 0, "SIZE", S, FIELD(conn.max_memory_bytes),
	  .def = 4ll << 30, .set = rdp_cli_set_max_memory,
	  .help = "refuse tests whose buffers and queues need more than SIZE (default 4G)" },
	{ "max-session", 0, "SEC", S,
	  UINT(conn.max_session_s, 1, 7 * 86400, 4 * 3600),
	  .help = "end any connection, live runs included, after SEC seconds; refuse -D from SEC up" },
	{ "max-points", 0, "N", S, UINT(conn.max_points, 1, 1u << 20, 1024),
	  .help = "points (sizes x QP counts) one connection may run" },
	{ "any-gid", 0, NULL, S, ON(conn.any_gid),
	  .help = "RoCE: take a client whose IP-based GID is not its TCP address (control and RDMA networks apart)" },
	/* Who may use the server */
	{ "auth-file", 0, "FILE", C | S | DOC,
	  CHARS(conn.auth_file, "path too long"),
	  .help = "shared secret file (32+ random bytes as hex or base64, mode 600): both sides prove it, then every message carries a MAC; the client also reads RDMAPERF_AUTH_FILE" },
	{ "allow", 0, "CIDRS", S, .set = rdp_cli_set_allow,
	  .help = "take connections only from these ranges, e.g. 10.0.0.0/8,fd00::/8 (default: any)" },
	{ "max-handshake-rate", 0, "N", S,
	  UINT(conn.max_handshake_rate, 1, 100000, 20),
	  .help = "handshakes a second, over all clients" },
	{ "max-prefix-rate", 0, "N", S,
	  UINT(conn.max_prefix_rate, 1, 100000, 5),
	  .help = "handshakes a second from one address prefix (--ipv4-prefix, --ipv6-prefix)" },
	{ "ipv4-prefix", 0, "BITS", S,
	  UINT(conn.ipv4_prefix_bits, 1, 32, 32),
	  .help = "IPv4 address bits that count as one client in the limits" },
	{ "ipv6-prefix", 0, "BITS", S,
	  UINT(conn.ipv6_prefix_bits, 1, 128, 64),
	  .help = "IPv6 address bits that count as one client in the limits" },
	{ "handshake-timeout", 0, "SEC", S,
	  TIMEOUT_S(conn.handshake_timeout_ms, 10),
	  .help = "drop a client whose handshake is not done in SEC" },
	/* What to run */
	{ "size", 's', "LIST", PEER, FIELD(params.size_bytes),
	  .min = 1, .max = RDP_MSG_MAX_BYTES, .def = 65536,
	  .set = rdp_cli_set_sizes,
	  .help = "message sizes: 4K, 64,4K,1M or 2:8M:x2 (default: 64K bandwidth, 2 latency, 8 atomics)" },
	{ "all", 'a', NULL, C, .set = rdp_cli_set_all,
	  .help = "sizes 2 B to 8 MiB in powers of two" },
	{ "iters", 'n', "N", C, UINT(params.iters, 1, 1ull << 40, 1000),
	  .help = "iterations per QP" },
	{ "duration", 'D', "SEC", PEER, UINT(params.duration_s, 1, 86400, 0),
	  .help = "run for SEC seconds instead of -n" },
	{ "qp", 'q', "LIST", PEER, FIELD(params.num_qps), .min = 1,
	  .max = 4096, .def = 1, .set = rdp_cli_set_qps,
	  .help = "QP counts, e.g. 1,2,4,8, bandwidth tests (default 1)" },
	{ "tx-depth", 't', "N", PEER, UINT(params.tx_depth, 1, 65536, 128),
	  .help = "work requests in flight per QP" },
	{ "cq-mod", 'Q', "N", PEER, UINT(params.cq_mod, 1, 65536, 100),
	  .help = "signal one send in N" },
	{ "rx-depth", 'r', "N", PEER, UINT(params.rx_depth, 1, 65536, 512),
	  .help = "receives kept posted per QP, SEND tests" },
	{ "outstanding", 'o', "N", PEER, UINT(params.outstanding, 1, 255, 0),
	  .help = "READ/atomic operations in flight per QP (default: device limit)" },
	{ "atomic_type", 'A', "TYPE", C, .set = rdp_cli_set_atomic,
	  .help = "FETCH_AND_ADD (default) or CMP_AND_SWAP" },
	{ "mtu", 'm', "BYTES", PEER, UINT(params.mtu_bytes, 256, 4096, 0),
	  .set = rdp_cli_set_mtu,
	  .help = "path MTU (default: smaller active MTU)" },
	{ "tclass", 0, "N", PEER, TOS_BYTE,
	  .help = "traffic class of the GRH (RoCE: DSCP << 2 | ECN)" },
	{ "tos", 'T', "N", PEER, TOS_BYTE,
	  .help = "type of service of RoCE v2 packets (same byte as --tclass)" },
	{ "sl", 'S', "N", PEER, UINT(params.sl, 0, 15, 0),
	  .help = "service level" },
	{ "pkey_index", 0, "N", PEER, UINT(params.pkey_index, 0, 65535, 0),
	  .help = "P_Key table entry the QPs use (both sides)" },
	{ "flow_label", 0, "LIST", PEER, FIELD(params.flow_label), .min = 0,
	  .max = 0xfffff, .def = 0, .set = rdp_cli_set_flow_label,
	  .help = "flow label of the GRH, 20 bits (RoCE v2: ECMP hashing): one for all QPs or one per QP, e.g. 1,2,3,4" },
	{ "hop_limit", 'L', "N", PEER, UINT(params.hop_limit, 0, 255, 64),
	  .help = "hop limit (TTL) of the GRH" },
	{ "retry_count", 0, "N", PEER, UINT(params.retry_count, 0, 7, 7),
	  .help = "transport retries before a QP gives up" },
	{ "rnr_retry", 0, "N", PEER, UINT(params.rnr_retry, 0, 7, 7),
	  .help = "retries after a receiver-not-ready NAK, 7: forever" },
	{ "qp-timeout", 'u', "N", PEER, UINT(params.qp_timeout, 0, 31, 14),
	  .help = "ACK timeout 4.096 us * 2^N" },
	{ "inline_size", 'I', "BYTES", PEER, UINT(params.inline_bytes, 0, 4096, 220),
	  .help = "send messages up to BYTES inline" },
	{ "threads", 0, "N", PEER, UINT(params.threads, 1, 64, 1),
	  .help = "bandwidth tests: split the QPs over N threads on each side, a CPU and CQ each" },
	{ "post_list", 'l', "N", PEER, UINT(params.post_list, 1, 32, 32),
	  .help = "chain up to N work requests per post" },
	{ "warmup", 0, "N", PEER, UINT(params.warmup_iters, 0, 1u << 30, 100),
	  .help = "latency: round trips run before measuring" },
	{ "seed", 0, "N", PEER, UINT(params.seed, 0, UINT32_MAX, 1),
	  .help = "data pattern seed" },
	{ "dlid", 0, "LID", C, UINT(conn.dlid, 1, 0xbfff, 0),
	  .help = "InfiniBand: address the server's QPs by this LID, without a GRH, instead of the LID it sends" },
	{ "grh", 0, NULL, C, PARAM_FLAG(RDP_PARAM_GRH),
	  .help = "InfiniBand: route with a GRH" },
	{ "rdma_cm", 'R', NULL, C, PARAM_FLAG(RDP_PARAM_RDMA_CM),
	  .help = "connect the QPs through RDMA CM (librdmacm); with -g: join the multicast group through it instead" },
	{ "events", 'e', NULL, C, PARAM_FLAG(RDP_PARAM_EVENTS),
	  .help = "bandwidth tests: both sides sleep on a completion channel instead of polling" },
	{ "vector", 'X', "N", PEER, UINT(params.comp_vector, 0, 1023, 0),
	  .help = "with -e: the completion vector of both sides' CQs" },
	{ "rate_limit", 0, "RATE", C, .set = rdp_cli_set_rate_limit,
	  .help = "bandwidth tests: pace the sender to RATE (--rate_units, Gb/s by default)" },
	{ "rate_units", 0, "Gbps|Mbps|MiBps|pps", C, .set = rdp_cli_set_rate_units,
	  .help = "what --rate_limit counts (perftest's g, M, p too)" },
	{ "rate_limit_type", 0, "HW|SW|auto", C, .set = rdp_cli_set_rate_type,
	  .help = "who paces: the device, the loop, or the device where it can (default)" },
	{ "odp", 0, NULL, C, PARAM_FLAG(RDP_PARAM_ODP),
	  .help = "register on-demand paging MRs on both sides (checked against the device's odp_caps)" },
	{ "implicit_odp", 0, NULL, C, .set = rdp_cli_refuse,
	  .say = "refused: an implicit on-demand MR covers the whole address "
		 "space, and its key would go to the peer: use --odp "
		 "(on-demand MRs over the test's buffer)",
	  .help = "refused: its key would cover the whole address space; use --odp" },
	{ "dualport", 'O', NULL, C, PARAM_FLAG(RDP_PARAM_DUALPORT),
	  .help = "bandwidth tests: both sides' QPs half on the device's port, half on its other port (-q 2 or more)" },
	{ "use-null-mr", 0, NULL, C, PARAM_FLAG(RDP_PARAM_NULL_MR),
	  .tests = RDP_BENCH_NULL_MR,
	  .help = RDP_CLI_TESTS ": both sides' keys name the device's null MR (writes discarded, reads zeros): the message rate without memory traffic, no data check" },
	{ "use-srq", 0, NULL, C, PARAM_FLAG(RDP_PARAM_SRQ),
	  .tests = RDP_BENCH_RECV,
	  .help = RDP_CLI_TESTS ": every QP's receives on one shared receive queue, on both sides" },
	{ "mr_per_qp", 0, NULL, C, PARAM_FLAG(RDP_PARAM_MR_PER_QP),
	  .help = "register each QP's buffer slots as their own MR, on both sides" },
	{ "write_with_imm", 0, NULL, C, PARAM_FLAG(RDP_PARAM_WRITE_IMM),
	  .tests = RDP_BENCH_WRITE_IMM,
	  .help = RDP_CLI_TESTS ": RDMA WRITE with immediate data, a receive completion per message at the receiver" },
	{ "data_validation", 0, NULL, C, PARAM_FLAG(RDP_PARAM_VALIDATE),
	  .tests = RDP_BENCH_VALIDATE,
	  .help = RDP_CLI_TESTS ": stamp every message with its sequence and a checksum, check each as it completes (plain WRITE needs --write_with_imm)" },
	{ "data_validation_debug", 0, NULL, C,
	  PARAM_FLAG(RDP_PARAM_VALIDATE | RDP_PARAM_VALIDATE_DEBUG),
	  .tests = RDP_BENCH_VALIDATE,
	  .help = RDP_CLI_TESTS ": --data_validation, and a line for every message checked" },
	{ "send_with_imm", 0, NULL, C, PARAM_FLAG(RDP_PARAM_SEND_IMM),
	  .tests = RDP_BENCH_SEND_IMM,
	  .help = RDP_CLI_TESTS ": SEND with immediate data" },
	{ "bidirectional", 'b', NULL, C, PARAM_FLAG(RDP_PARAM_BIDIR),
	  .tests = RDP_BENCH_BIDIR,
	  .help = "both sides send at once (" RDP_CLI_TESTS "); TX and RX reported" },
	{ "reversed", 0, NULL, C, PARAM_FLAG(RDP_PARAM_REVERSED),
	  .tests = RDP_BENCH_REVERSED,
	  .help = RDP_CLI_TESTS ": the server sends and the client receives; the report gives the server's send figures" },
	{ "recv_post_list", 0, "N", PEER,
	  UINT(params.recv_post_list, 1, 65536, 0),
	  .help = "SEND bandwidth tests: post receives in chains of N, one post call each (at most -r)" },
	{ "burst_size", 0, "N", PEER, UINT(params.burst_size, 1, 65536, 0),
	  .help = "with --rate_limit: send N messages back to back, then wait to keep the average rate (device pacing: its burst, N messages)" },
	{ "typical_pkt_size", 0, "BYTES", PEER,
	  UINT(params.typical_pkt_bytes, 1, 65535, 0),
	  .help = "with --rate_limit_type HW: the packet size the device paces for" },
	{ "latency_gap", 0, "TIME", C, .set = rdp_cli_set_latency_gap,
	  .help = "latency tests: pause TIME between round trips, not counted (microseconds like perftest, or 500ns, 20us, 1ms)" },
	/* Report */
	{ "report_gbits", 0, NULL, C, ON(report.gbits),
	  .help = "bandwidth in Gb/s (default MiB/s)" },
	{ "noPeak", 'N', NULL, C, ON(report.no_peak),
	  .help = "do not compute peak bandwidth" },
	{ "margin", 'f', "SEC", C,
	  DECIMAL(report.margin_s, "seconds like 1 or 0.5"),
	  .help = "with -D: leave SEC seconds out at both ends (default 0)" },
	{ "interval", 0, "SEC", C, .set = rdp_cli_set_interval,
	  .help = "with -D: bandwidth of every SEC seconds, after the run" },
	{ "report-per-qp", 0, NULL, C, ON(report.per_qp),
	  .help = "bandwidth tests: under each point a row per QP (its messages, bandwidth, QP number, flow label); per_qp in the JSON" },
	{ "report-per-port", 0, NULL, C, ON(report.per_port),
	  .help = "with -O: under each point a row per port (its QPs' messages and bandwidth); per_port in the JSON" },
	{ "cpu_util", 0, NULL, C, ON(report.cpu_util),
	  .help = "after each point, the CPU each side used in the timed region" },
	{ "histogram", 'H', NULL, C, ON(report.histogram),
	  .help = "latency: print the distribution of the samples" },
	{ "limit_bw", 'w', "GBPS", C,
	  DECIMAL(report.limit_bw_gbps, "Gb/s like 90 or 12.5"),
	  .help = "fail (exit 1) when a point's average is below GBPS Gb/s" },
	{ "limit_msgrate", 'y', "MPPS", C,
	  DECIMAL(report.limit_msgrate_mpps, "Mpps like 10 or 0.5"),
	  .help = "fail when a point's message rate is below MPPS" },
	{ "min-bw", 0, "GBPS|PCT%", C, .set = rdp_cli_set_min_bw,
	  .help = "fail (exit 1) when a point's average is below GBPS Gb/s or PCT% of the line rate" },
	{ "min-msgrate", 0, "MPPS", C, .set = rdp_cli_set_min_msgrate,
	  .help = "fail when a point's message rate is below MPPS" },
	{ "max-lat", 0, "STAT=TIME", C, .set = rdp_cli_set_max_lat,
	  .help = "fail when a latency figure is above TIME, e.g. p99=5us or p50=2us,p99.9=20us" },
	{ "max-errors", 0, "KIND=N", C, .set = rdp_cli_set_max_errors,
	  .help = "fail a point when a side's port counters rise: KIND link, retries, congestion or a counter's name, N a count or any, e.g. retries=100,symbol_error=0 (default link=0)" },
	{ "plot", 0, "FILE", C, .set = rdp_cli_set_plot,
	  .help = "also draw the results to FILE (SVG, with gnuplot)" },
	{ "time-per-point", 0, "SEC", C, .set = rdp_cli_set_time_per_point,
	  .help = "repeat each point in batches until stable, for at most SEC" },
	{ "target-error", 0, "PCT", C, .set = rdp_cli_set_target_error,
	  .help = "with --time-per-point: stop a point at this relative error (default 1)" },
	{ "output", 0, "WHAT", C, .set = rdp_cli_set_output,
	  .help = "print only bandwidth, message_rate or latency, one line per point" },
	{ "json", 0, NULL, C | DOC, ON(report.json),
	  .help = "print the results as one JSON document instead of the table" },
	{ "json-file", 0, "FILE", C, .set = rdp_cli_set_json_file,
	  .help = "also write the JSON document to FILE" },
	{ "metrics", 0, "FILE", C, .set = rdp_cli_set_metrics,
	  .help = "also write the figures to FILE as OpenMetrics text (node_exporter's textfile collector), replaced whole" },
	{ "CPU-freq", 'F', NULL, C, ON(report.no_freq_check),
	  .help = "do not warn about CPU frequency scaling" },
	{ "wait_destroy", 0, "SEC", C, UINT(conn.wait_destroy_s, 1, 86400, 0),
	  .help = "keep the last point's QPs, CQs and MRs SEC seconds after the report, before the teardown (Ctrl-C ends the wait)" },
	/* Timeouts */
	{ "oob-timeout", 0, "SEC", C | S | DOC,
	  TIMEOUT_S(conn.oob_timeout_ms, 5),
	  .help = "message timeout" },
	{ "connect-timeout", 0, "SEC", C | S,
	  TIMEOUT_S(conn.connect_timeout_ms, 10),
	  .help = "keep retrying to connect for SEC, TCP and RDMA CM (server: wait for -R clients)" },
	{ "cq-timeout", 0, "SEC", C | S, TIMEOUT_S(conn.cq_timeout_ms, 10),
	  .help = "give up when no completion arrives for SEC" },
	/* Placement and memory */
	{ "cpu", 0, "LIST", C | S, .set = rdp_cli_set_cpu,
	  .help = "run on these CPUs, e.g. 4 or 0-3,8 (default: CPUs of the NIC's NUMA node)" },
	{ "numa", 0, "NODE", C | S, UINT(place.numa_node, 0, 1023, -1),
	  .set = rdp_cli_set_numa,
	  .help = "run on and allocate from this NUMA node (default: the NIC's)" },
	{ "no-pin", 0, NULL, C | S, ON(place.no_pin), .set = rdp_cli_set_no_pin,
	  .help = "leave CPU and memory placement to the system" },
	{ "use_cuda", 0, "GPU", C | S, .set = rdp_cli_set_mem_type,
	  .help = "buffers in GPU memory: GPU number, auto (nearest the NIC) or PCI bus id" },
	{ "use_rocm", 0, "GPU", C | S, .set = rdp_cli_set_mem_type,
	  .help = "buffers in AMD GPU memory (ROCm's HIP runtime): GPU number, auto or PCI bus id" },
	{ "use_rocm_dmabuf", 0, NULL, C | S, .set = rdp_cli_set_mem_type,
	  .help = "as --use_rocm (GPU 0 unless it names one), registered through DMA-BUF only: no peer memory fallback" },
	{ "bounce", 0, NULL, C | S, ON(mem.bounce),
	  .help = "with --use_cuda or --use_rocm: RDMA on host buffers, each message copied to or from the GPU (staged path)" },
	{ "use_hugepages", 0, NULL, C | S, ON(mem.hugepages),
	  .help = "host buffers in 2 MiB huge pages (from vm.nr_hugepages)" },
	{ "mmap", 0, "FILE", C | S, .set = rdp_cli_set_mem_type,
	  .help = "buffers mapped shared from FILE (tmpfs, DAX, a device's resource file), which must hold them; the run writes its data pattern over it" },
	{ "mmap-offset", 0, "BYTES", C | S, .set = rdp_cli_set_mmap_offset,
	  .help = "with --mmap: map from this offset, a multiple of the page size (default 0)" },
	{ "disable_pcie_relaxed", 0, NULL, C | S, ON(mem.no_relaxed),
	  .help = "do not ask for PCIe relaxed ordering when registering memory" },
	/* perftest's names, so that its wrappers run unchanged */
	{ "perftest", 0, NULL, C, ON(conn.perftest),
	  .help = "HOST is a perftest ib_* server started with the same options" },
	{ "perftest-block", 0, "312|320", C, .set = rdp_cli_set_perftest_block,
	  .help = "--perftest: the size of the negotiation block a 6.28+ server expects (default 320)" },
	{ "out_json", 0, NULL, C, .set = rdp_cli_set_out_json,
	  .help = "perftest's name: write the JSON document to perftest_out.json (or --out_json_file)" },
	{ "out_json_file", 0, "FILE", C, .set = rdp_cli_set_json_file,
	  .help = "perftest's name for --json-file" },
	{ "report-histogrm", 0, NULL, C, ON(report.histogram),
	  .help = "perftest's name for -H" },
	{ "report-unsorted", 'U', NULL, C, ON(report.samples),
	  .help = "latency: also print every sample, in the order measured" },
	{ "report-cycles", 'C', NULL, C, ON(report.cycles),
	  .help = "latency: the table in CPU cycles, not microseconds" },
	{ "connection", 'c', "RC|UC|UD|XRC", C, .set = rdp_cli_set_connection,
	  .help = "transport: RC (default), UC (WRITE, SEND) or UD (SEND)" },
	{ "bind_source_ip", 0, "ADDR", C,
	  CHARS(conn.source_ip, "too long: an IPv4 or IPv6 address"),
	  .help = "the out-of-band connection's source address" },
	{ "perform_warm_up", 0, NULL, C, .set = rdp_cli_set_warm_up,
	  .help = "WRITE, READ and atomic bandwidth tests: a send queue's depth of operations per QP before the clock starts, not counted (latency tests always warm up: --warmup)" },
	{ "dont_xchg_versions", 0, NULL, C | S, .set = rdp_cli_refuse,
	  .say = "rdmaperf always exchanges versions (its peer's version "
		 "decides the protocol): drop the option",
	  .help = "refused, with the reason" },
	{ "run_infinitely", 0, NULL, C | S, .set = rdp_cli_set_live,
	  .help = "bandwidth tests: run until SIGINT or SIGTERM, a report every --interval (or -D) seconds, then the summary" },
	{ "soak", 0, "TIME", C, .set = rdp_cli_set_soak,
	  .help = "bandwidth tests: one run of TIME (600, 30m, 12h) judged every --interval (default 5 s): an interval below --min-bw, with link errors or a port event is bad; the bad ones listed at the end, exit 1 if any" },
	/* perftest's names, each an alias, accepted, or refused (man page:
	 * "perftest's other names") */
	{ "outs", 0, "N", C, UINT(params.outstanding, 1, 255, 0),
	  .help = "the same as -o" },
	{ "numa_node", 0, "NODE", C | S, UINT(place.numa_node, 0, 1023, -1),
	  .set = rdp_cli_set_numa, .help = "the same as --numa" },
	{ "pin_cores", 0, "LIST", C | S, ALIAS("cpu") },
	{ "disable_numa", 0, NULL, C | S, ON(place.no_pin),
	  .set = rdp_cli_set_no_pin, .help = "the same as --no-pin" },
	{ "use_cuda_bus_id", 0, "BUSID", C | S, ALIAS("use_cuda") },
	{ "source_ip", 'j', "ADDR", C,
	  CHARS(conn.source_ip, "too long: an IPv4 or IPv6 address"),
	  .help = "the same as --bind_source_ip" },
	{ "ipv6", 0, NULL, C, NOTHING("the address family is HOST's") },
	{ "ipv6-addr", 0, NULL, C, NOTHING("the address family is HOST's") },
	{ "report-both", 0, NULL, C,
	  NOTHING("-b always reports both directions") },
	{ "use_cuda_dmabuf", 0, NULL, C,
	  NOTHING("--use_cuda registers by DMA-BUF first") },
	{ "aes_xts", 0, NULL, C, REFUSED(AES) },
	{ "encrypt_on_tx", 0, NULL, C, REFUSED(AES) },
	{ "sig_before", 0, NULL, C, REFUSED(AES) },
	{ "aes_block_size", 0, "N", C, REFUSED(AES) },
	{ "kek_path", 0, "FILE", C, REFUSED(AES) },
	{ "credentials_path", 0, "FILE", C, REFUSED(AES) },
	{ "data_enc_keys_number", 0, "N", C, REFUSED(AES) },
	{ "data_enc_key_app_path", 0, "FILE", C, REFUSED(AES) },
	{ "sig_offload", 0, NULL, C, REFUSED(SIG) },
	{ "log_dci_streams", 0, "N", C, REFUSED(DCI) },
	{ "log_active_dci_streams", 0, "N", C, REFUSED(DCI) },
	{ "tph_mem", 0, "MEM", C, REFUSED(TPH) },
	{ "cpu_id", 0, "CPU", C, REFUSED(TPH) },
	{ "ph", 0, "HINT", C, REFUSED(TPH) },
	{ "use_ooo", 0, NULL, C, REFUSED(OOO) },
	{ "no_enhanced_reorder", 0, NULL, C, REFUSED(OOO) },
	{ "use_data_direct", 0, NULL, C,
	  REFUSED(VENDOR("data-direct DMA-BUF (mlx5)") "use --use_cuda") },
	{ "unsolicited_write", 0, NULL, C,
	  REFUSED(VENDOR("unsolicited receive (EFA)") "use --write_with_imm") },
	{ "congest_type", 0, "TYPE", C,
	  REFUSED(VENDOR("congestion control through hnsdv")
		  "set it on the device") },
	{ "no_lock", 0, NULL, C,
	  REFUSED(VENDOR("a thread domain (lock-free verbs)") "drop the option") },
	{ "use_musa", 0, "GPU", C, REFUSED(GPU("MUSA")) },
	{ "use_musa_bus_id", 0, "BUSID", C, REFUSED(GPU("MUSA")) },
	{ "use_musa_dmabuf", 0, NULL, C, REFUSED(GPU("MUSA")) },
	{ "use_musa_pcie_mapping", 0, NULL, C, REFUSED(GPU("MUSA")) },
	{ "use_neuron", 0, "DEV", C, REFUSED(GPU("Neuron")) },
	{ "use_neuron_dmabuf", 0, NULL, C, REFUSED(GPU("Neuron")) },
	{ "use_hl", 0, "DEV", C, REFUSED(GPU("Gaudi")) },
	{ "use_hl_dmabuf", 0, NULL, C, REFUSED(GPU("Gaudi")) },
	{ "use_mlu", 0, "DEV", C, REFUSED(GPU("MLU")) },
	{ "use_mlu_dmabuf", 0, NULL, C, REFUSED(GPU("MLU")) },
	{ "use_opencl", 0, "DEV", C, REFUSED(GPU("OpenCL")) },
	{ "use_opencl_dmabuf", 0, NULL, C, REFUSED(GPU("OpenCL")) },
	{ "opencl_platform_id", 0, "N", C, REFUSED(GPU("OpenCL")) },
	{ "use_ib_dm_dmabuf", 0, "DEV", C, REFUSED(GPU("device (ibv_alloc_dm)")) },
	{ "use_cuda_pcie_mapping", 0, NULL, C,
	  REFUSED("CUDA memory mapped through PCIe BAR1 is not built in: "
		  "--use_cuda registers by DMA-BUF, else through nvidia-peermem") },
	{ "cuda_mem_type", 0, "TYPE", C,
	  REFUSED("managed and malloc'd CUDA memory are not built in: "
		  "--use_cuda allocates device memory") },
	{ "gpu_touch", 0, "MODE", C,
	  REFUSED("touching GPU buffers during a run is not built in: "
		  "drop the option") },
	{ "payload_file_path", 0, "FILE", C,
	  REFUSED("payloads from a file are not built in: the buffers hold "
		  "a pattern (--seed) that the data check reads back") },
	{ "mcg", 'g', NULL, C, PARAM_FLAG(RDP_PARAM_MCAST),
	  .tests = RDP_BENCH_MCAST,
	  .help = RDP_CLI_TESTS " on UD (-c UD): send to a multicast group that each of the server's QPs (-q) joins (attached by MGID, or through the RDMA CM with -R); the loss counts every QP's copy" },
	{ "MGID", 'M', "GID", C, .set = rdp_cli_set_mgid,
	  .help = "with -g: the group's GID, IPv6 text or 16 bytes between colons (default ::ffff:239.255.82.80 on IPv4 GIDs, ff0e::5250 on others)" },
	{ "use_old_post_send", 0, NULL, C,
	  PARAM_FLAG(RDP_PARAM_OLD_POST_SEND),
	  .help = "post with ibv_post_send on plain QPs, on both sides, not "
		  "the ibv_wr_* builders of extended QPs (the default where "
		  "the device offers them)" },
	{ "cqe_poll", 0, "N", C,
	  REFUSED("the completions polled per call are not a setting: drop "
		  "the option") },
	{ "disable_dynamic_polling", 0, NULL, C,
	  REFUSED("adaptive polling is not built in: drop the option") },
	{ "force-link", 0, "TYPE", C,
	  REFUSED("the link layer is the port's (InfiniBand or Ethernet): "
		  "drop the option") },
	{ "report-counters", 'W', "LIST", C,
	  REFUSED("counter lists are not built in: the report reads the "
		  "port counters, --max-errors judges them by name") },
	{ "comm_rdma_cm", 'z', NULL, C,
	  REFUSED("the out-of-band messages always go over TCP: use -R to "
		  "connect the QPs through RDMA CM") },
	{ "connectionless", 0, NULL, C,
	  REFUSED("connectionless multicast servers are not built in: drop "
		  "the option") },
	{ "server", 'Z', NULL, C, REFUSED(SIDE) },
	{ "client", 'P', NULL, C, REFUSED(SIDE) },
	{ "source_mac", 'B', "MAC", C, REFUSED(RAW) },
	{ "dest_mac", 'E', "MAC", C, REFUSED(RAW) },
	{ "dest_ip", 'J', "ADDR", C, REFUSED(RAW) },
	{ "dest_port", 'K', "PORT", C, REFUSED(RAW) },
	{ "source_port", 'k', "PORT", C, REFUSED(RAW) },
	{ "mac_fwd", 'v', NULL, C, REFUSED(RAW) },
	{ "ethertype", 0, "N", C, REFUSED(RAW) },
	{ "use_rss", 0, NULL, C, REFUSED(RAW) },
	{ "remote_mac", 0, "MAC", C, REFUSED(RAW) },
	{ "local_mac", 0, "MAC", C, REFUSED(RAW) },
	{ "remote_ip", 0, "ADDR", C, REFUSED(RAW) },
	{ "local_ip", 0, "ADDR", C, REFUSED(RAW) },
	{ "remote_port", 0, "PORT", C, REFUSED(RAW) },
	{ "local_port", 0, "PORT", C, REFUSED(RAW) },
	{ "tcp", 0, NULL, C, REFUSED(RAW) },
	{ "raw_ipv6", 0, NULL, C, REFUSED(RAW) },
	{ "raw_mcast", 0, NULL, C, REFUSED(RAW) },
	{ "promiscuous", 0, NULL, C, REFUSED(RAW) },
	{ "sniffer", 0, NULL, C, REFUSED(RAW) },
	{ "flows", 0, "N", C, REFUSED(RAW) },
	{ "flows_burst", 0, "N", C, REFUSED(RAW) },
	{ "reply_every", 0, "N", C, REFUSED(RAW) },
	{ "vlan_en", 0, NULL, C, REFUSED(RAW) },
	{ "vlan_pcp", 0, "N", C, REFUSED(RAW) },
	{ "help", 'h', NULL, C | S | DOC, .type = RDP_CLI_HELP,
	  .help = "show this help" },
	{ "version", 'V', NULL, C | S, .type = RDP_CLI_VERSION,
	  .help = "show the version" },
};
/* clang-format on */

#define N_OPTS (sizeof(rdp_cli_opts) / sizeof(rdp_cli_opts[0]))
const size_t rdp_cli_n_opts = N_OPTS;
_Static_assert(N_OPTS <= RDP_CLI_MAX_OPTS,
	       "raise RDP_CLI_MAX_OPTS: getopt tables are sized by it");

static const struct rdp_cli_pair excludes[] = {
	{ "iters", "duration", "-n and -D exclude each other" },
	{ "tos", "tclass", "-T and --tclass set the same byte: give one" },
	{ "size", "all", "-a and -s exclude each other" },
	{ "iters", "run_infinitely",
	  "-n and --run_infinitely exclude each other: a live run has no "
	  "count" },
	{ "soak", "duration",
	  "--soak gives the run's length; -D does not apply (--interval "
	  "sets the reports)" },
	{ "soak", "iters", "-n and --soak exclude each other" },
	{ "soak", "run_infinitely",
	  "--soak and --run_infinitely exclude each other: a soak ends at "
	  "its length" },
	{ "soak", "perftest",
	  "--soak and --perftest exclude each other: a soak runs against "
	  "rdmaperf's server" },
	{ "dlid", "grh",
	  "--dlid addresses by LID without a GRH; --grh routes by GID: give "
	  "one" },
	{ "dlid", "gid-index",
	  "--dlid addresses by LID without a GRH; -x picks a GID for one: "
	  "give one" },
	{ "dlid", "rdma_cm",
	  "--dlid does not apply with -R: RDMA CM resolves the path to HOST" },
	{ "auth-file", "perftest",
	  "--auth-file and --perftest exclude each other: perftest's programs "
	  "cannot authenticate" },
	/* perftest's names of rdmaperf's options: one of the two */
	{ "outstanding", "outs", "-o and --outs are one option: give one" },
	{ "numa", "numa_node",
	  "--numa and --numa_node are one option: give one" },
	{ "cpu", "pin_cores",
	  "--cpu and --pin_cores are one option: give one" },
	{ "no-pin", "disable_numa",
	  "--no-pin and --disable_numa are one option: give one" },
	{ "use_cuda", "use_cuda_bus_id",
	  "--use_cuda and --use_cuda_bus_id are one option: give one" },
	{ "bind_source_ip", "source_ip",
	  "--bind_source_ip and -j (--source_ip) are one option: give one" },
};

const struct rdp_cli_table rdp_cli_client = {
	.opts = rdp_cli_opts,
	.n = N_OPTS,
	.side = RDP_CLI_CLIENT,
	.synopsis = "Usage: rdmaperf TEST [options] [HOST]\n"
		    "  With HOST, run TEST against an rdmaperf server there;\n"
		    "  without, serve one client and exit.",
	.more_help = rdp_cli_client_help,
	.excludes = excludes,
	.n_excludes = sizeof(excludes) / sizeof(excludes[0]),
};

const struct rdp_cli_table rdp_cli_server = {
	.opts = rdp_cli_opts,
	.n = N_OPTS,
	.side = RDP_CLI_SERVER,
	.synopsis = "Usage: rdmaperf-server [options]\n"
		    "  Serve rdmaperf clients one after another; each brings "
		    "its test parameters.",
};

const struct rdp_cli_table rdp_cli_doctor = {
	.opts = rdp_cli_opts,
	.n = N_OPTS,
	.side = RDP_CLI_DOCTOR,
	.synopsis =
		"Usage: rdmaperf doctor [options] [HOST]\n"
		"  Check one device port for what makes RDMA slow or fail;\n"
		"  with HOST (a running rdmaperf-server), check the pair too.",
};
