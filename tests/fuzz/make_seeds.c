/* SPDX-License-Identifier: BSD-2-Clause */
/* Writes the seed corpus for fuzz_wire: one valid message of each type,
 * plain and (sealed_*) sealed as after AUTH; with --perftest,
 * fuzz_perftest's: each of perftest's messages behind its kind byte.
 * Usage: make_seeds [--perftest] DIR */
#include <stdio.h>
#include <string.h>

#include <rdmaperf/auth.h>
#include <rdmaperf/oob.h>
#include <rdmaperf/opts.h>
#include <rdmaperf/perftest_wire.h>
#include <rdmaperf/wire.h>

#include "fuzz_seal.h"

/* Each seed file: its name and the message it holds. */
static const struct seed {
	const char *name;
	struct rdp_msg m;
} seeds[] = {
	{ "hello",
	  { .type = RDP_MSG_HELLO,
	    .u.hello = { .tool_version = "0.1.0",
			 .hostname = "hostA",
			 .kernel = "6.1.0",
			 .cpu_model = "cpu",
			 .cpus = 2 } } },
	{ "params",
	  { .type = RDP_MSG_PARAMS,
	    .u.params = { .test = "write_bw",
			  .size_bytes = 65536,
			  .iters = 1000,
			  .num_qps = 4,
			  .threads = 2,
			  .tx_depth = 128,
			  .cq_mod = 100,
			  .transport = RDP_TRANSPORT_UD } } },
	{ "accept",
	  { .type = RDP_MSG_ACCEPT,
	    .u.accept = { .device = "rxe0",
			  .port = 1,
			  .gid_index = 1,
			  .active_mtu_bytes = 1024 } } },
	{ "qp_info",
	  { .type = RDP_MSG_QP_INFO,
	    .u.qp_info = { .qpn = 0x11,
			   .gid = { [10] = 0xff, [11] = 0xff },
			   .mtu_bytes = 1024 } } },
	{ "sync",
	  { .type = RDP_MSG_SYNC,
	    .u.sync = { .phase = RDP_SYNC_DONE, .count = 1000 } } },
	{ "result",
	  { .type = RDP_MSG_RESULT, .u.result = { .checked_bytes = 65536 } } },
	{ "error",
	  { .type = RDP_MSG_ERROR,
	    .u.error = { .code = -110, .text = "no completion for 10.0 s" } } },
	/* the shared-secret handshake's three steps */
	{ "auth_nonce",
	  { .type = RDP_MSG_AUTH,
	    .u.auth = { .step = RDP_AUTH_CLIENT_NONCE,
			.nonce = { 0x01, 0x02, 0x03, [31] = 0xff } } } },
	{ "auth_server_proof",
	  { .type = RDP_MSG_AUTH,
	    .u.auth = { .step = RDP_AUTH_SERVER_PROOF,
			.nonce = { 0x10, [31] = 0x1f },
			.mac = { 0xa0, [31] = 0xaf } } } },
	{ "auth_client_proof",
	  { .type = RDP_MSG_AUTH,
	    .u.auth = { .step = RDP_AUTH_CLIENT_PROOF,
			.mac = { 0xc0, [31] = 0xcf } } } },
};

/* The seed as it goes on the wire: plain, or (sealed) as the first
 * message after AUTH under fuzz_wire's fixed key. */
static int put(const char *dir, const struct seed *s, int sealed)
{
	uint8_t buf[RDP_WIRE_HDR_BYTES + RDP_WIRE_MAX_PAYLOAD];
	struct rdp_oob_seal seal;
	char path[512];
	size_t len;
	FILE *f;

	fuzz_seal_init(&seal);
	if (rdp_wire_encode(&s->m, buf, sizeof(buf), &len) ||
	    (sealed && rdp_seal_frame(&seal, buf, sizeof(buf), len, &len)))
		return 1;
	snprintf(path, sizeof(path), "%s/%s%s", dir, sealed ? "sealed_" : "",
		 s->name);
	f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, len, f) != len)
		return 1;
	return fclose(f) != 0;
}

static int put_raw(const char *dir, const char *name, uint8_t kind,
		   const void *buf, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fputc(kind, f) == EOF || fwrite(buf, 1, len, f) != len)
		return 1;
	return fclose(f) != 0;
}

/* fuzz_perftest's kinds: version, MTU, key, key with GID, report, block
 * of 312 and of 320 bytes. */
static int perftest_seeds(const char *dir)
{
	struct rdp_qp_info qi = {
		.lid = 0,
		.rd_atomic = 16,
		.qpn = 0x11,
		.psn = 0x123456,
		.rkey = 0x1234,
		.addr = 0x7f0000001000ull,
		.gid = { [10] = 0xff, [11] = 0xff, [12] = 10, [15] = 1 }
	};
	struct rdp_pt_report r = { 65536, 5000, 97.5, 96.25, 0.0015 };
	struct rdp_pt_neg n = { .verb = RDP_PT_WRITE,
				.tst = RDP_PT_BW,
				.report_fmt = 1,
				.size_bytes = 65536,
				.iters = 5000,
				.num_qps = 2,
				.duration_s = 5,
				.max_qp_rd_atom = 16 };
	uint8_t b[RDP_PT_NEG_MLX5DV_BYTES];
	char key[RDP_PT_KEY_GID_BYTES];
	int bad = 0;

	rdp_pt_version_encode("6.06", b);
	bad |= put_raw(dir, "version-6.06", 0, b, RDP_PT_VERSION_BYTES);
	rdp_pt_version_encode("6.28", b);
	bad |= put_raw(dir, "version-6.28", 0, b, RDP_PT_VERSION_BYTES);
	bad |= rdp_pt_mtu_encode(1024, b) != 0;
	bad |= put_raw(dir, "mtu", 1, b, RDP_PT_MTU_BYTES);
	rdp_pt_key_encode(&qi, 0, key);
	bad |= put_raw(dir, "key", 2, key, RDP_PT_KEY_BYTES);
	rdp_pt_key_encode(&qi, 1, key);
	bad |= put_raw(dir, "key-gid", 3, key, RDP_PT_KEY_GID_BYTES);
	rdp_pt_report_encode(&r, b);
	bad |= put_raw(dir, "report", 4, b, RDP_PT_REPORT_BYTES);
	bad |= rdp_pt_neg_encode(&n, b, RDP_PT_NEG_BYTES) != 0;
	bad |= put_raw(dir, "block-312", 5, b, RDP_PT_NEG_BYTES);
	n.mlx5dv_mask = 1u << 16;
	bad |= rdp_pt_neg_encode(&n, b, RDP_PT_NEG_MLX5DV_BYTES) != 0;
	bad |= put_raw(dir, "block-320", 6, b, RDP_PT_NEG_MLX5DV_BYTES);
	return bad;
}

static int server_seq_seeds(const char *dir);

int main(int argc, char **argv)
{
	size_t i;
	int bad = 0;

	if (argc == 3 && !strcmp(argv[1], "--perftest"))
		return perftest_seeds(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "--server-seq"))
		return server_seq_seeds(argv[2]);
	if (argc != 2)
		return 2;
	for (i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		bad |= put(argv[1], &seeds[i], 0);
		if (seeds[i].m.type != RDP_MSG_AUTH) /* AUTH is never sealed */
			bad |= put(argv[1], &seeds[i], 1);
	}
	return bad;
}

/* fuzz_server_seq's seeds: what a client sends over a whole session, as
 * one stream of frames, and the stream cut after each message. The
 * messages are HELLO, QP_INFO and SYNC of the seeds above, and PARAMS as
 * a client sends them for write_bw: HELLO, PARAMS, QP_INFO, SYNC READY,
 * SYNC DONE. */
static struct rdp_msg seq_msg(const char *name)
{
	size_t k;

	for (k = 0; strcmp(seeds[k].name, name); k++)
		;
	return seeds[k].m;
}

/* The parameters a client sends for `write_bw -s 4K -n 100`. */
static int seq_params(struct rdp_params *p)
{
	const char *argv[] = { "rdmaperf", "write_bw", "-s",	   "4K",
			       "-n",	   "100",      "--no-pin", "host" };
	struct rdp_opts o;
	char err[256];

	memset(&o, 0, sizeof(o));
	if (rdp_opts_parse_client(8, (char **)argv, &o, err, sizeof(err)) !=
	    RDP_PARSE_OK)
		return 1;
	*p = o.params;
	return 0;
}

static int server_seq_seeds(const char *dir)
{
	static const char *const names[] = { "hello", "params", "qp_info",
					     "sync", "sync" };
	uint8_t buf[8 * (RDP_WIRE_HDR_BYTES + RDP_WIRE_MAX_PAYLOAD)];
	struct rdp_msg m;
	size_t at = 0, len, i;
	char path[512];
	int bad = 0;
	FILE *f;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		m = seq_msg(names[i]);
		if (m.type == RDP_MSG_PARAMS && seq_params(&m.u.params))
			return 1;
		if (m.type == RDP_MSG_SYNC)
			m.u.sync.phase = i == 3 ? RDP_SYNC_READY
						: RDP_SYNC_DONE;
		if (rdp_wire_encode(&m, buf + at, sizeof(buf) - at, &len))
			return 1;
		at += len;
		snprintf(path, sizeof(path), "%s/seq%zu", dir, i + 1);
		f = fopen(path, "wb");
		if (!f || fwrite(buf, 1, at, f) != at) {
			bad = 1;
			if (f)
				fclose(f);
			continue;
		}
		bad |= fclose(f) != 0;
	}
	return bad;
}
