/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Every long option and letter of perftest 6.29 (and the --use_musa names
 * of its master) through the client's parser: none is unknown; each alias
 * parses to what its rdmaperf option does, each refusal is one exact line.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <rdmaperf/opts.h>

#include "unit.h"

enum pt_kind {
	PT_OWN,	    /* a row under its own name */
	PT_ALIAS,   /* the same options as rdmaperf's .to with .value */
	PT_NOTHING, /* accepted, the options as without it */
	PT_REFUSED, /* "--name: " .to, exit 2 */
};

struct pt_name {
	const char *name;
	int letter; /* in perftest's getopt string; 0: long only */
	int arg;    /* takes a value */
	enum pt_kind kind;
	const char *value; /* OWN and ALIAS: a valid value */
	/* ALIAS: rdmaperf's long name (OWN: the row with the letter);
	 * REFUSED: why */
	const char *to;
};

/* Reasons shared by several names. */
#define RAW                                                                    \
	"perftest's raw Ethernet tests only: Soft-RoCE and rdmaperf "          \
	"have no raw packet QPs; run one of rdmaperf's RDMA tests"
#define SIDE                                                                   \
	"rdmaperf is the client with HOST and the server without: "            \
	"drop the option"
#define MUSA                                                                   \
	"MUSA memory is not supported: no way to test it here; use "           \
	"--use_cuda or --use_rocm"
#define NEURON                                                                 \
	"Neuron memory is not supported: no way to test it here; "             \
	"use --use_cuda or --use_rocm"
#define MLU                                                                    \
	"MLU memory is not supported: no way to test it here; "                \
	"use --use_cuda or --use_rocm"
#define OPENCL                                                                 \
	"OpenCL memory is not supported: no way to test it here; "             \
	"use --use_cuda or --use_rocm"
#define AES                                                                    \
	"AES-XTS encryption (mlx5 crypto) is a vendor-only feature, "          \
	"not built in: drop the option"
#define DCI                                                                    \
	"the DCI stream setting of DC (a vendor transport) is a "              \
	"vendor-only feature, not built in: use -c RC"
#define OOO                                                                    \
	"out-of-order receive is a vendor-only feature, not built in: "        \
	"drop the option"
#define TPH                                                                    \
	"TPH (PCIe processing hints) is a vendor-only feature, not "           \
	"built in: place the run with --cpu"

/* perftest's long_options[], in its order. */
static const struct pt_name names[] = {
	{ "port", 'p', 1, PT_OWN, "18000" },
	{ "ib-dev", 'd', 1, PT_OWN, "rxe0" },
	{ "ib-port", 'i', 1, PT_OWN, "1" },
	{ "mtu", 'm', 1, PT_OWN, "1024" },
	{ "size", 's', 1, PT_OWN, "4096" },
	{ "iters", 'n', 1, PT_OWN, "10" },
	{ "tx-depth", 't', 1, PT_OWN, "64" },
	{ "qp-timeout", 'u', 1, PT_OWN, "14" },
	{ "sl", 'S', 1, PT_OWN, "1" },
	{ "gid-index", 'x', 1, PT_OWN, "1" },
	{ "all", 'a', 0, PT_OWN },
	{ "CPU-freq", 'F', 0, PT_OWN },
	{ "connection", 'c', 1, PT_OWN, "UC" },
	{ "qp", 'q', 1, PT_OWN, "2" },
	{ "events", 'e', 0, PT_OWN },
	{ "vector", 'X', 1, PT_OWN, "1" },
	{ "inline_size", 'I', 1, PT_OWN, "64" },
	{ "outs", 'o', 1, PT_ALIAS, "4", "outstanding" },
	{ "mcg", 'g', 0, PT_OWN },
	{ "comm_rdma_cm", 'z', 0, PT_REFUSED, NULL,
	  "the out-of-band messages always go over TCP: use -R to "
	  "connect the QPs through RDMA CM" },
	{ "rdma_cm", 'R', 0, PT_OWN },
	{ "tos", 'T', 1, PT_OWN, "8" },
	{ "hop_limit", 'L', 1, PT_OWN, "3" },
	{ "help", 'h', 0, PT_OWN },
	{ "MGID", 'M', 1, PT_OWN, "ff0e::1" },
	{ "rx-depth", 'r', 1, PT_OWN, "64" },
	{ "bidirectional", 'b', 0, PT_OWN },
	{ "cq-mod", 'Q', 1, PT_OWN, "10" },
	{ "noPeak", 'N', 0, PT_OWN },
	{ "version", 'V', 0, PT_OWN },
	{ "report-cycles", 'C', 0, PT_OWN },
	{ "report-histogrm", 'H', 0, PT_OWN, NULL, "histogram" },
	{ "report-unsorted", 'U', 0, PT_OWN },
	{ "atomic_type", 'A', 1, PT_OWN, "CMP_AND_SWAP" },
	{ "dualport", 'O', 0, PT_OWN },
	{ "post_list", 'l', 1, PT_OWN, "4" },
	{ "duration", 'D', 1, PT_OWN, "2" },
	{ "margin", 'f', 1, PT_OWN, "1" },
	{ "source_mac", 'B', 1, PT_REFUSED, NULL, RAW },
	{ "dest_mac", 'E', 1, PT_REFUSED, NULL, RAW },
	{ "dest_ip", 'J', 1, PT_REFUSED, NULL, RAW },
	{ "source_ip", 'j', 1, PT_ALIAS, "10.0.0.1", "bind_source_ip" },
	{ "dest_port", 'K', 1, PT_REFUSED, NULL, RAW },
	{ "source_port", 'k', 1, PT_REFUSED, NULL, RAW },
	{ "ethertype", 0, 1, PT_REFUSED, NULL, RAW },
	{ "limit_bw", 'w', 1, PT_OWN, "1.5" },
	{ "limit_msgrate", 'y', 1, PT_OWN, "2" },
	{ "server", 'Z', 0, PT_REFUSED, NULL, SIDE },
	{ "client", 'P', 0, PT_REFUSED, NULL, SIDE },
	{ "mac_fwd", 'v', 0, PT_REFUSED, NULL, RAW },
	{ "use_rss", 0, 0, PT_REFUSED, NULL, RAW },
	{ "report-counters", 'W', 1, PT_REFUSED, NULL,
	  "counter lists are not built in: the report reads the port "
	  "counters, --max-errors judges them by name" },
	{ "force-link", 0, 1, PT_REFUSED, NULL,
	  "the link layer is the port's (InfiniBand or Ethernet): drop "
	  "the option" },
	{ "remote_mac", 0, 1, PT_REFUSED, NULL, RAW },
	{ "local_mac", 0, 1, PT_REFUSED, NULL, RAW },
	{ "remote_ip", 0, 1, PT_REFUSED, NULL, RAW },
	{ "local_ip", 0, 1, PT_REFUSED, NULL, RAW },
	{ "remote_port", 0, 1, PT_REFUSED, NULL, RAW },
	{ "local_port", 0, 1, PT_REFUSED, NULL, RAW },
	{ "run_infinitely", 0, 0, PT_OWN },
	{ "report_gbits", 0, 0, PT_OWN },
	{ "use-srq", 0, 0, PT_OWN },
	{ "no_lock", 0, 0, PT_REFUSED, NULL,
	  "a thread domain (lock-free verbs) is a vendor-only feature, "
	  "not built in: drop the option" },
	{ "use-null-mr", 0, 0, PT_OWN },
	{ "report-both", 0, 0, PT_NOTHING },
	{ "reversed", 0, 0, PT_OWN },
	{ "pkey_index", 0, 1, PT_OWN, "1" },
	{ "tcp", 0, 0, PT_REFUSED, NULL, RAW },
	{ "burst_size", 0, 1, PT_OWN, "4" },
	{ "typical_pkt_size", 0, 1, PT_OWN, "1024" },
	{ "rate_limit", 0, 1, PT_OWN, "5" },
	{ "rate_limit_type", 0, 1, PT_OWN, "SW" },
	{ "rate_units", 0, 1, PT_OWN, "Mbps" },
	{ "output", 0, 1, PT_OWN, "bandwidth" },
	{ "cpu_util", 0, 0, PT_OWN },
	{ "out_json", 0, 0, PT_OWN },
	{ "out_json_file", 0, 1, PT_OWN, "out.json" },
	{ "latency_gap", 0, 1, PT_OWN, "10" },
	{ "flow_label", 0, 1, PT_OWN, "5" },
	{ "retry_count", 0, 1, PT_OWN, "5" },
	{ "dont_xchg_versions", 0, 0, PT_REFUSED, NULL,
	  "rdmaperf always exchanges versions (its peer's version "
	  "decides the protocol): drop the option" },
	{ "payload_file_path", 0, 1, PT_REFUSED, NULL,
	  "payloads from a file are not built in: the buffers hold a "
	  "pattern (--seed) that the data check reads back" },
	{ "use_cuda", 0, 1, PT_OWN, "0" },
	{ "use_cuda_bus_id", 0, 1, PT_ALIAS, "0000:3b:00.0", "use_cuda" },
	{ "use_cuda_dmabuf", 0, 0, PT_NOTHING },
	{ "use_cuda_pcie_mapping", 0, 0, PT_REFUSED, NULL,
	  "CUDA memory mapped through PCIe BAR1 is not built in: "
	  "--use_cuda registers by DMA-BUF, else through nvidia-peermem" },
	{ "use_data_direct", 0, 0, PT_REFUSED, NULL,
	  "data-direct DMA-BUF (mlx5) is a vendor-only feature, not "
	  "built in: use --use_cuda" },
	{ "cuda_mem_type", 0, 1, PT_REFUSED, NULL,
	  "managed and malloc'd CUDA memory are not built in: "
	  "--use_cuda allocates device memory" },
	/* The four --use_musa names: perftest's master, after 6.29. */
	{ "use_musa", 0, 1, PT_REFUSED, NULL, MUSA },
	{ "use_musa_bus_id", 0, 1, PT_REFUSED, NULL, MUSA },
	{ "use_musa_dmabuf", 0, 0, PT_REFUSED, NULL, MUSA },
	{ "use_musa_pcie_mapping", 0, 0, PT_REFUSED, NULL, MUSA },
	{ "use_rocm", 0, 1, PT_OWN, "0" },
	{ "use_rocm_dmabuf", 0, 0, PT_OWN },
	{ "use_neuron", 0, 1, PT_REFUSED, NULL, NEURON },
	{ "use_neuron_dmabuf", 0, 0, PT_REFUSED, NULL, NEURON },
	{ "use_hl", 0, 1, PT_REFUSED, NULL,
	  "Gaudi memory is not supported: no way to test it here; "
	  "use --use_cuda or --use_rocm" },
	{ "use_mlu", 0, 1, PT_REFUSED, NULL, MLU },
	{ "use_mlu_dmabuf", 0, 0, PT_REFUSED, NULL, MLU },
	{ "use_opencl", 0, 1, PT_REFUSED, NULL, OPENCL },
	{ "opencl_platform_id", 0, 1, PT_REFUSED, NULL, OPENCL },
	{ "use_ib_dm_dmabuf", 0, 1, PT_REFUSED, NULL,
	  "device (ibv_alloc_dm) memory is not supported: no way to test it here; "
	  "use --use_cuda or --use_rocm" },
	{ "gpu_touch", 0, 1, PT_REFUSED, NULL,
	  "touching GPU buffers during a run is not built in: drop the "
	  "option" },
	{ "mmap", 0, 1, PT_OWN, "/dev/shm/rdmaperf-buf" },
	{ "mmap-offset", 0, 1, PT_OWN, "4096" },
	{ "ipv6", 0, 0, PT_NOTHING },
	{ "ipv6-addr", 0, 0, PT_NOTHING },
	{ "raw_ipv6", 0, 0, PT_REFUSED, NULL, RAW },
	{ "report-per-port", 0, 0, PT_OWN },
	{ "odp", 0, 0, PT_OWN },
	{ "use_hugepages", 0, 0, PT_OWN },
	{ "use_old_post_send", 0, 0, PT_OWN },
	{ "promiscuous", 0, 0, PT_REFUSED, NULL, RAW },
	{ "sniffer", 0, 0, PT_REFUSED, NULL, RAW },
	{ "raw_mcast", 0, 0, PT_REFUSED, NULL, RAW },
	{ "mr_per_qp", 0, 0, PT_OWN },
	{ "dlid", 0, 1, PT_OWN, "7" },
	{ "tclass", 0, 1, PT_OWN, "8" },
	{ "wait_destroy", 0, 1, PT_OWN, "1" },
	{ "flows", 0, 1, PT_REFUSED, NULL, RAW },
	{ "flows_burst", 0, 1, PT_REFUSED, NULL, RAW },
	{ "reply_every", 0, 1, PT_REFUSED, NULL, RAW },
	{ "perform_warm_up", 0, 0, PT_OWN },
	{ "vlan_en", 0, 0, PT_REFUSED, NULL, RAW },
	{ "vlan_pcp", 0, 1, PT_REFUSED, NULL, RAW },
	{ "recv_post_list", 0, 1, PT_OWN, "4" },
	{ "aes_xts", 0, 0, PT_REFUSED, NULL, AES },
	{ "encrypt_on_tx", 0, 0, PT_REFUSED, NULL, AES },
	{ "sig_before", 0, 0, PT_REFUSED, NULL, AES },
	{ "aes_block_size", 0, 1, PT_REFUSED, NULL, AES },
	{ "kek_path", 0, 1, PT_REFUSED, NULL, AES },
	{ "credentials_path", 0, 1, PT_REFUSED, NULL, AES },
	{ "data_enc_keys_number", 0, 1, PT_REFUSED, NULL, AES },
	{ "data_enc_key_app_path", 0, 1, PT_REFUSED, NULL, AES },
	{ "log_dci_streams", 0, 1, PT_REFUSED, NULL, DCI },
	{ "log_active_dci_streams", 0, 1, PT_REFUSED, NULL, DCI },
	{ "disable_pcie_relaxed", 0, 0, PT_OWN },
	{ "use_ooo", 0, 0, PT_REFUSED, NULL, OOO },
	{ "congest_type", 0, 1, PT_REFUSED, NULL,
	  "congestion control through hnsdv is a vendor-only feature, "
	  "not built in: set it on the device" },
	{ "bind_source_ip", 0, 1, PT_OWN, "10.0.0.2" },
	{ "write_with_imm", 0, 0, PT_OWN },
	{ "send_with_imm", 0, 0, PT_OWN },
	{ "no_enhanced_reorder", 0, 0, PT_REFUSED, NULL, OOO },
	{ "unsolicited_write", 0, 0, PT_REFUSED, NULL,
	  "unsolicited receive (EFA) is a vendor-only feature, not "
	  "built in: use --write_with_imm" },
	{ "connectionless", 0, 0, PT_REFUSED, NULL,
	  "connectionless multicast servers are not built in: drop the "
	  "option" },
	{ "cqe_poll", 0, 1, PT_REFUSED, NULL,
	  "the completions polled per call are not a setting: drop the "
	  "option" },
	{ "tph_mem", 0, 1, PT_REFUSED, NULL, TPH },
	{ "cpu_id", 0, 1, PT_REFUSED, NULL, TPH },
	{ "ph", 0, 1, PT_REFUSED, NULL, TPH },
	{ "disable_dynamic_polling", 0, 0, PT_REFUSED, NULL,
	  "adaptive polling is not built in: drop the option" },
	{ "sig_offload", 0, 0, PT_REFUSED, NULL,
	  "signature offload (mlx5) is a vendor-only feature, not built "
	  "in: drop the option" },
	{ "data_validation", 0, 0, PT_OWN },
	{ "data_validation_debug", 0, 0, PT_OWN },
	{ "pin_cores", 0, 1, PT_ALIAS, "0", "cpu" },
	{ "numa_node", 0, 1, PT_ALIAS, "0", "numa" },
	{ "disable_numa", 0, 0, PT_ALIAS, NULL, "no-pin" },
};

#define N_NAMES (sizeof(names) / sizeof(names[0]))

static const struct rdp_cli_opt *row(const char *name)
{
	size_t i;

	for (i = 0; i < rdp_cli_n_opts; i++)
		if (!strcmp(rdp_cli_opts[i].name, name))
			return &rdp_cli_opts[i];
	return NULL;
}

/* rdmaperf write_bw OPT [VALUE] h, into o; its status. */
static int parse(struct rdp_opts *o, char *err, size_t len, const char *opt,
		 const char *value)
{
	const char *argv[6] = { "rdmaperf", "write_bw", opt };
	int argc = 3;

	if (value)
		argv[argc++] = value;
	argv[argc++] = "h";
	err[0] = '\0';
	return rdp_opts_parse_client(argc, (char **)argv, o, err, len);
}

/* The long name, then the letter where perftest has one. */
static size_t spellings(const struct pt_name *p, char (*s)[48])
{
	size_t n = 0;

	snprintf(s[n++], sizeof(s[0]), "--%s", p->name);
	if (p->letter)
		snprintf(s[n++], sizeof(s[0]), "-%c", p->letter);
	return n;
}

static void test_none_unknown(void **state)
{
	static struct rdp_opts o;
	const struct rdp_cli_opt *d;
	size_t i, k, n;
	char s[2][48], err[256];

	(void)state;
	for (i = 0; i < N_NAMES; i++) {
		const struct pt_name *p = &names[i];

		d = row(p->name);
		if (!d || !(d->sides & RDP_CLI_CLIENT))
			fail_msg("--%s: no client row", p->name);
		/* A letter may belong to the row the name stands for. */
		if (d->letter != p->letter &&
		    !(p->kind != PT_REFUSED && p->to && row(p->to) &&
		      row(p->to)->letter == p->letter))
			fail_msg("--%s: letter '%c', perftest's '%c'", p->name,
				 d->letter ?: ' ', p->letter ?: ' ');
		if (!d->arg != !p->arg)
			fail_msg("--%s: takes a value %s perftest's", p->name,
				 d->arg ? "unlike" : "where");
		if (!strcmp(p->name, "help") || !strcmp(p->name, "version"))
			continue; /* they print and exit */
		n = spellings(p, s);
		for (k = 0; k < n; k++)
			if (parse(&o, err, sizeof(err), s[k],
				  p->arg ? (p->value ?: "1") : NULL) &&
			    strstr(err, "unknown option"))
				fail_msg("%s: %s", s[k], err);
	}
	print_message("# %zu perftest names, none unknown\n", N_NAMES);
}

static void test_aliases(void **state)
{
	static struct rdp_opts want, got;
	char s[2][48], to[48], err[256];
	size_t i, k, n;

	(void)state;
	for (i = 0; i < N_NAMES; i++) {
		const struct pt_name *p = &names[i];

		if (p->kind == PT_ALIAS) {
			snprintf(to, sizeof(to), "--%s", p->to);
			if (parse(&want, err, sizeof(err), to, p->value))
				fail_msg("%s: %s", to, err);
		} else if (p->kind == PT_NOTHING) {
			if (parse(&want, err, sizeof(err), "-n", "1000"))
				fail_msg("baseline: %s", err);
		} else {
			continue;
		}
		n = spellings(p, s);
		for (k = 0; k < n; k++) {
			if (parse(&got, err, sizeof(err), s[k], p->value))
				fail_msg("%s: %s", s[k], err);
			if (memcmp(&want, &got, sizeof(got)))
				fail_msg("%s: options differ from %s", s[k],
					 p->kind == PT_ALIAS ? to : "none");
		}
	}
}

/* rdmaperf-server OPT VALUE, into o; its status. */
static int parse_server(struct rdp_opts *o, char *err, size_t len,
			const char *opt, const char *value)
{
	const char *argv[4] = { "rdmaperf-server", opt, value };

	err[0] = '\0';
	return rdp_opts_parse_server(value ? 3 : 2, (char **)argv, o, err, len);
}

/* The placement and GPU names work on the server too, as the options
 * they stand for do. */
static void test_server_aliases(void **state)
{
	static const char *const pairs[][3] = {
		{ "--numa_node", "--numa", "0" },
		{ "--pin_cores", "--cpu", "0" },
		{ "--disable_numa", "--no-pin", NULL },
		{ "--use_cuda_bus_id", "--use_cuda", "0000:3b:00.0" },
	};
	static struct rdp_opts want, got;
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		if (parse_server(&want, err, sizeof(err), pairs[i][1],
				 pairs[i][2]))
			fail_msg("%s: %s", pairs[i][1], err);
		if (parse_server(&got, err, sizeof(err), pairs[i][0],
				 pairs[i][2]))
			fail_msg("%s: %s", pairs[i][0], err);
		if (memcmp(&want, &got, sizeof(got)))
			fail_msg("%s: options differ from %s", pairs[i][0],
				 pairs[i][1]);
	}
}

static void test_refusals(void **state)
{
	static struct rdp_opts o;
	char s[2][48], want[512], err[512];
	size_t i, k, n, refused = 0;

	(void)state;
	for (i = 0; i < N_NAMES; i++) {
		const struct pt_name *p = &names[i];

		if (p->kind != PT_REFUSED)
			continue;
		refused++;
		snprintf(want, sizeof(want), "--%s: %s", p->name, p->to);
		n = spellings(p, s);
		for (k = 0; k < n; k++) {
			assert_int_equal(parse(&o, err, sizeof(err), s[k],
					       p->arg ? "1" : NULL),
					 -EINVAL);
			assert_string_equal(err, want);
		}
	}
	print_message("# %zu perftest names refused\n", refused);
}

/* An alias and its option together are one option given twice. */
static void test_alias_twice(void **state)
{
	static struct rdp_opts o;
	char err[256];

	(void)state;
	assert_int_equal(CLIENT(&o, err, "write_bw", "-o", "4", "--outs", "8",
				"h"),
			 -EINVAL);
	assert_string_equal(err, "-o and --outs are one option: give one");
	assert_int_equal(CLIENT(&o, err, "write_bw", "--use_cuda_bus_id",
				"0000:3b:00.0", "--use_cuda", "0", "h"),
			 -EINVAL);
	assert_string_equal(
		err,
		"--use_cuda and --use_cuda_bus_id are one option: give one");
	assert_int_equal(CLIENT(&o, err, "write_bw", "-j", "10.0.0.1",
				"--bind_source_ip", "10.0.0.1", "h"),
			 -EINVAL);
	assert_string_equal(err, "--bind_source_ip and -j (--source_ip) are "
				 "one option: give one");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_none_unknown),
		cmocka_unit_test(test_aliases),
		cmocka_unit_test(test_server_aliases),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_alias_twice),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
