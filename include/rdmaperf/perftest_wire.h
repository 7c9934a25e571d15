/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perftest's out-of-band messages (its ib_* programs without -R), so that
 * either side of a test can stay perftest. No framing: each message has a
 * length both sides know, and goes in lock step, the TCP client first.
 *
 *   client                                   server
 *     | --- version, 16 B "6.06" + NULs -----> |
 *     | <-- version -------------------------- |  remote < 5.70: refused
 *     | <-> page size, cache line (4 B each) -> |  both use the larger
 *     | <-> MTU, 2 B: enum ibv_mtu digit + NUL | path MTU: the smaller
 *     | <-> negotiation block, 312 or 320 B -- |  only when the peer's
 *     |                                          |  version is 6.28 or later
 *     | <-> key message per QP (59 B, 108 with |  qpn, psn, rkey, vaddr,
 *     |     the GID), and again as barriers    |  lid, out_reads, gid
 *     | <-> bandwidth report, 5 x 8 B ---------|  big-endian
 *
 * Integers are big-endian; key messages are fixed-width lowercase hex.
 * Layer: oob
 */
#ifndef RDMAPERF_PERFTEST_WIRE_H
#define RDMAPERF_PERFTEST_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include <rdmaperf/qp_info.h>

#define RDP_PT_PORT		18515
#define RDP_PT_VERSION_BYTES	16
#define RDP_PT_MIN_VERSION	5.70 /* perftest refuses older peers */
#define RDP_PT_NEG_VERSION	6.28 /* from here on: the negotiation block */
#define RDP_PT_KEY_BYTES	59   /* key message without a GID */
#define RDP_PT_KEY_GID_BYTES	108  /* with one */
#define RDP_PT_MTU_BYTES	2
#define RDP_PT_REPORT_BYTES	40
#define RDP_PT_NEG_BYTES	312 /* built without mlx5dv */
#define RDP_PT_NEG_MLX5DV_BYTES 320

/* The version rdmaperf announces to perftest peers. */
#define RDP_PT_OWN_VERSION "6.28"

/* 16 bytes: v, NUL padded (truncated past 15 characters). */
void rdp_pt_version_encode(const char *v, uint8_t out[RDP_PT_VERSION_BYTES]);
/*
 * A peer's version: its text (NUL terminated within the 16 bytes, digits
 * and dots) into v, its number into *num. -EBADMSG for anything else.
 */
int rdp_pt_version_decode(const uint8_t in[RDP_PT_VERSION_BYTES], char *v,
			  size_t len, double *num);
/* Whether the first n bytes a client sent can start a perftest version
 * string ("6.0" ...): digits, then a dot. */
int rdp_pt_looks_like_version(const uint8_t *in, size_t n);

/* The MTU as perftest sends it: the enum ibv_mtu digit and a NUL;
 * -EINVAL for a size that is no IB MTU (256..4096). */
int rdp_pt_mtu_encode(uint32_t mtu_bytes, uint8_t out[RDP_PT_MTU_BYTES]);
int rdp_pt_mtu_decode(const uint8_t in[RDP_PT_MTU_BYTES], uint32_t *mtu_bytes);

/*
 * A key message from qi: lid, out_reads (qi->rd_atomic), qpn, psn, rkey,
 * vaddr (qi->addr), with_gid: the 16 GID bytes; SRQ number 0. out holds
 * rdp_pt_key_bytes(with_gid). Decoding is strict: the exact length, every
 * field's width, its colon and the final NUL; -EBADMSG otherwise. Decoded
 * fields it lacks (mtu, len) stay 0.
 */
size_t rdp_pt_key_bytes(int with_gid);
void rdp_pt_key_encode(const struct rdp_qp_info *qi, int with_gid, char *out);
int rdp_pt_key_decode(const char *in, size_t n, int with_gid,
		      struct rdp_qp_info *qi);

/* A bandwidth report as perftest exchanges it, unit as the sender chose
 * (Gb/s with --report_gbits, else MiB/s). */
struct rdp_pt_report {
	uint64_t size_bytes, iters;
	double bw_peak, bw_avg, msg_rate_mpps;
};

void rdp_pt_report_encode(const struct rdp_pt_report *r,
			  uint8_t out[RDP_PT_REPORT_BYTES]);
void rdp_pt_report_decode(const uint8_t in[RDP_PT_REPORT_BYTES],
			  struct rdp_pt_report *r);

/* perftest's numbers for the fields of the negotiation block. */
enum rdp_pt_verb {
	RDP_PT_SEND = 0,
	RDP_PT_SEND_IMM,
	RDP_PT_WRITE,
	RDP_PT_WRITE_IMM,
	RDP_PT_READ,
	RDP_PT_ATOMIC
};
enum rdp_pt_tst {
	RDP_PT_LAT = 0,
	RDP_PT_BW
};

/* The negotiation block (6.28 and later): what both sides compare. */
struct rdp_pt_neg {
	int32_t test_method;	 /* 0 one size, 1 -a, 2 run infinitely */
	int32_t connection_type; /* 0 RC */
	int32_t verb;		 /* enum rdp_pt_verb */
	int32_t tst;		 /* enum rdp_pt_tst */
	int32_t atomic_type;	 /* 0 compare-and-swap, 1 fetch-and-add */
	int32_t test_type;	 /* 0 iterations, 1 duration */
	int32_t report_fmt;	 /* 0 Gb/s, 1 MiB/s */
	uint64_t size_bytes;
	uint64_t iters; /* 0 with -D */
	int32_t aes_xts, num_qps, duration_s, use_rdma_cm;
	int32_t write_with_imm, no_enhanced_reorder, sig_offload;
	int32_t data_validation;
	/* Of the device attributes the block carries (host order), the one
	 * a peer reads. */
	uint32_t max_qp_rd_atom;
	uint64_t mlx5dv_mask; /* only in a 320-byte block */
};

/* Whether the first n (>= 1) bytes a client sent after the MTU start a
 * negotiation block (a binary int, test_method) rather than a key
 * message (hex digits). */
int rdp_pt_starts_block(const uint8_t *in, size_t n);
/* bytes: RDP_PT_NEG_BYTES or RDP_PT_NEG_MLX5DV_BYTES; -EINVAL else. */
int rdp_pt_neg_encode(const struct rdp_pt_neg *n, uint8_t *out, size_t bytes);
int rdp_pt_neg_decode(const uint8_t *in, size_t bytes, struct rdp_pt_neg *n);
/*
 * A server's answer to a client's block of `bytes` (in): the client's
 * fields back, so that its comparison passes, with this device's
 * max_qp_rd_atom (which the client reads to bound its reads in flight).
 * *client: the client's block decoded. -EINVAL for a size that is none of
 * the two.
 */
int rdp_pt_neg_answer(const uint8_t *in, size_t bytes, uint32_t max_qp_rd_atom,
		      struct rdp_pt_neg *client, uint8_t *out);
/*
 * The first field perftest would find different, in its own order and
 * with its name ("verb", "size", ...), or NULL when the blocks agree.
 */
const char *rdp_pt_neg_mismatch(const struct rdp_pt_neg *a,
				const struct rdp_pt_neg *b);

#endif /* RDMAPERF_PERFTEST_WIRE_H */
