/* SPDX-License-Identifier: BSD-2-Clause */
/* Writes the seed corpus for fuzz_wire: one valid message of each type,
 * plain and (sealed_*) sealed as after AUTH; with --perftest,
 * fuzz_perftest's: each of perftest's messages behind its kind byte;
 * with --server-seq, fuzz_server_seq's: whole sessions as a client sends
 * them, and their cuts. Usage: make_seeds [--perftest|--server-seq] DIR */
#include <stdio.h>
#include <stdlib.h>
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
 * one stream of frames, and the stream cut after each message. seq1 to
 * seq5 carry a QP_INFO the fake engine refuses (its QP numbers are not
 * the ones the fake handed out), so they end at the connection; point
 * and points2 carry the fake's own and go on to the run and RESULT. */
static struct rdp_msg seq_msg(const char *name)
{
	size_t k;

	for (k = 0; strcmp(seeds[k].name, name); k++)
		;
	return seeds[k].m;
}

/* The parameters a client sends for `rdmaperf ARGS... host`. */
static int seq_params(int argc, const char *const *args, struct rdp_params *p)
{
	const char *argv[16] = { "rdmaperf" };
	struct rdp_opts o;
	char err[256];
	int i;

	for (i = 0; i < argc && i < 13; i++)
		argv[i + 1] = args[i];
	argv[i + 1] = "--no-pin";
	argv[i + 2] = "host";
	memset(&o, 0, sizeof(o));
	if (rdp_opts_parse_client(i + 3, (char **)argv, &o, err, sizeof(err)) !=
	    RDP_PARSE_OK) {
		fprintf(stderr, "make_seeds: %s\n", err);
		return 1;
	}
	*p = o.params;
	return 0;
}

/* One client's stream of frames, built message by message. */
struct stream {
	uint8_t buf[16 * (RDP_WIRE_HDR_BYTES + RDP_WIRE_MAX_PAYLOAD)];
	size_t at;
	size_t cut[16]; /* where each message ends */
	size_t n;
	int bad;
};

static void add(struct stream *st, const struct rdp_msg *m)
{
	size_t len;

	if (st->n == sizeof(st->cut) / sizeof(st->cut[0]) ||
	    rdp_wire_encode(m, st->buf + st->at, sizeof(st->buf) - st->at,
			    &len)) {
		st->bad = 1;
		return;
	}
	st->at += len;
	st->cut[st->n++] = st->at;
}

static void add_named(struct stream *st, const char *name)
{
	struct rdp_msg m = seq_msg(name);

	add(st, &m);
}

static void add_sync(struct stream *st, uint32_t phase, uint64_t count)
{
	struct rdp_msg m = { .type = RDP_MSG_SYNC };

	m.u.sync.phase = phase;
	m.u.sync.count = count;
	add(st, &m);
}

/* PARAMS for ARGS, then the QP_INFOs the fake engine's connection
 * expects (its QP and packet numbers, in order). */
static void add_point(struct stream *st, int argc, const char *const *args,
		      uint32_t *num_qps)
{
	struct rdp_msg m = { .type = RDP_MSG_PARAMS };
	uint32_t i;

	if (seq_params(argc, args, &m.u.params)) {
		st->bad = 1;
		return;
	}
	*num_qps = m.u.params.num_qps;
	add(st, &m);
	for (i = 0; i < *num_qps; i++) {
		memset(&m, 0, sizeof(m));
		m.type = RDP_MSG_QP_INFO;
		m.u.qp_info.qpn = 0x100 + i;
		m.u.qp_info.psn = 0x1000 + i;
		m.u.qp_info.mtu_bytes = 1024;
		add(st, &m);
	}
}

/* The first n messages of the stream into DIR/NAME. */
static int put_cut(const char *dir, const char *name, const struct stream *st,
		   size_t n)
{
	size_t len = n ? st->cut[n - 1] : 0;
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f)
		return 1;
	if (fwrite(st->buf, 1, len, f) != len) {
		fclose(f);
		return 1;
	}
	return fclose(f) != 0;
}

/* DIR/NAME: the whole stream; DIR/NAME-K: cut after message K, for each
 * K from `from` on. */
static int put_stream(const char *dir, const char *name,
		      const struct stream *st, size_t from)
{
	char cut[128];
	size_t k;
	int bad = st->bad;

	if (bad) {
		fprintf(stderr, "make_seeds: cannot build %s\n", name);
		return 1;
	}
	bad |= put_cut(dir, name, st, st->n);
	for (k = from; k < st->n; k++) {
		snprintf(cut, sizeof(cut), "%s-%zu", name, k);
		bad |= put_cut(dir, cut, st, k);
	}
	return bad;
}

/* seq1 to seq5: HELLO, PARAMS, a refused QP_INFO, SYNC READY, SYNC DONE,
 * cut after each. */
static int refused_seeds(const char *dir)
{
	static const char *const args[] = { "write_bw", "-s", "4K", "-n",
					    "100" };
	struct stream *st = calloc(1, sizeof(*st));
	struct rdp_msg m = { .type = RDP_MSG_PARAMS };
	char name[16];
	size_t k;
	int bad = !st;

	if (bad)
		return 1;
	add_named(st, "hello");
	st->bad |= seq_params(5, args, &m.u.params);
	add(st, &m);
	add_named(st, "qp_info");
	add_sync(st, RDP_SYNC_READY, 1000); /* as the seeds' "sync" */
	add_sync(st, RDP_SYNC_DONE, 1000);
	for (k = 1; !st->bad && k <= st->n; k++) {
		snprintf(name, sizeof(name), "seq%zu", k);
		bad |= put_cut(dir, name, st, k);
	}
	bad |= st->bad;
	free(st);
	return bad;
}

/*
 * Sessions the server runs to the end on the fake engine:
 *   point      HELLO, PARAMS (write_bw -s 4K -n 100), QP_INFO, READY,
 *              DONE: one whole point; point-3, point-4 its cuts
 *   points2    that point, then PARAMS (send_bw -b -q 2 -s 64K -n 50),
 *              2 QP_INFO, READY, DONE; points2-6 to points2-9 its cuts
 *   point-early-done    DONE where READY is due
 *   point-error-in-run  the client's ERROR where DONE is due
 *   point-then-result   a RESULT where the next PARAMS is due
 */
static int point_seeds(const char *dir)
{
	static const char *const a1[] = { "write_bw", "-s", "4K", "-n", "100" };
	static const char *const a2[] = { "send_bw", "-b",  "-q", "2",
					  "-s",	     "64K", "-n", "50" };
	struct stream *st = calloc(1, sizeof(*st));
	uint32_t q1 = 0, q2 = 0;
	size_t run;
	int bad = !st;

	if (bad)
		return 1;
	add_named(st, "hello");
	add_point(st, 5, a1, &q1);
	run = st->n; /* READY is due */
	add_sync(st, RDP_SYNC_READY, 0);
	add_sync(st, RDP_SYNC_DONE, 100ull * q1);
	bad |= put_stream(dir, "point", st, 3); /* 1, 2: seq1, seq2 */
	add_named(st, "result");
	bad |= put_cut(dir, "point-then-result", st, st->n);
	st->n = run;
	st->at = st->cut[run - 1];
	add_sync(st, RDP_SYNC_DONE, 100ull * q1);
	bad |= put_cut(dir, "point-early-done", st, st->n);
	st->n = run;
	st->at = st->cut[run - 1];
	add_sync(st, RDP_SYNC_READY, 0);
	add_named(st, "error");
	bad |= put_cut(dir, "point-error-in-run", st, st->n);
	st->n = run + 1;
	st->at = st->cut[run];
	add_sync(st, RDP_SYNC_DONE, 100ull * q1);
	run = st->n;
	add_point(st, 8, a2, &q2);
	add_sync(st, RDP_SYNC_READY, 0);
	add_sync(st, RDP_SYNC_DONE, 50ull * q2);
	bad |= put_stream(dir, "points2", st, run + 1);
	bad |= st->bad;
	free(st);
	return bad;
}

static int server_seq_seeds(const char *dir)
{
	return refused_seeds(dir) | point_seeds(dir);
}
