/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target for the decoders of perftest's messages
 * (perftest_wire.h). Input: one byte choosing the message (version, MTU,
 * key message with and without a GID, report, negotiation block of 312
 * or 320 bytes), then the message as it would arrive. Properties: no
 * crash, no sanitizer report; what decodes encodes to what decodes the
 * same; the report and every field of the block that perftest reads come
 * back byte for byte; a block answered as the server answers it (the
 * client's fields, this device's max_qp_rd_atom) passes perftest's
 * comparison against the client's.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rdmaperf/perftest_wire.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void version(const uint8_t *in)
{
	uint8_t out[RDP_PT_VERSION_BYTES];
	char v[RDP_PT_VERSION_BYTES], w[RDP_PT_VERSION_BYTES];
	double num, num2;

	if (rdp_pt_version_decode(in, v, sizeof(v), &num))
		return;
	rdp_pt_version_encode(v, out);
	if (rdp_pt_version_decode(out, w, sizeof(w), &num2) || strcmp(v, w) ||
	    num != num2)
		abort();
}

static void mtu(const uint8_t *in)
{
	uint8_t out[RDP_PT_MTU_BYTES];
	uint32_t a, b;

	if (rdp_pt_mtu_decode(in, &a))
		return;
	if (rdp_pt_mtu_encode(a, out) || rdp_pt_mtu_decode(out, &b) || a != b)
		abort();
}

static void key(const uint8_t *in, int with_gid)
{
	char out[RDP_PT_KEY_GID_BYTES];
	size_t n = rdp_pt_key_bytes(with_gid);
	struct rdp_qp_info a, b;

	if (rdp_pt_key_decode((const char *)in, n, with_gid, &a))
		return;
	rdp_pt_key_encode(&a, with_gid, out);
	if (rdp_pt_key_decode(out, n, with_gid, &b) ||
	    memcmp(&a, &b, sizeof(a)))
		abort();
}

static void report(const uint8_t *in)
{
	uint8_t out[RDP_PT_REPORT_BYTES];
	struct rdp_pt_report r;

	rdp_pt_report_decode(in, &r);
	rdp_pt_report_encode(&r, out);
	if (memcmp(in, out, sizeof(out)))
		abort();
}

/* The block's bytes perftest reads: its integers, size and iterations,
 * max_qp_rd_atom and (320 bytes) the mlx5dv mask. */
static int same_read_bytes(const uint8_t *a, const uint8_t *b, size_t bytes)
{
	return !memcmp(a, b, 28) && !memcmp(a + 32, b + 32, 48) &&
	       !memcmp(a + 224, b + 224, 4) &&
	       (bytes == RDP_PT_NEG_BYTES || !memcmp(a + 312, b + 312, 8));
}

static void block(const uint8_t *in, size_t bytes)
{
	uint8_t out[RDP_PT_NEG_MLX5DV_BYTES];
	struct rdp_pt_neg client, again, answer;

	if (rdp_pt_neg_decode(in, bytes, &client))
		abort();
	if (rdp_pt_neg_encode(&client, out, bytes) ||
	    !same_read_bytes(in, out, bytes))
		abort();
	if (rdp_pt_neg_decode(out, bytes, &again) ||
	    rdp_pt_neg_mismatch(&client, &again))
		abort();
	if (rdp_pt_neg_answer(in, bytes, 16, &client, out) ||
	    rdp_pt_neg_decode(out, bytes, &answer) ||
	    rdp_pt_neg_mismatch(&client, &answer) ||
	    answer.max_qp_rd_atom != 16 ||
	    answer.mlx5dv_mask != client.mlx5dv_mask)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t need[] = {
		RDP_PT_VERSION_BYTES,	 RDP_PT_MTU_BYTES,    RDP_PT_KEY_BYTES,
		RDP_PT_KEY_GID_BYTES,	 RDP_PT_REPORT_BYTES, RDP_PT_NEG_BYTES,
		RDP_PT_NEG_MLX5DV_BYTES,
	};
	unsigned int kind;

	if (size < 1)
		return 0;
	kind = data[0] % (sizeof(need) / sizeof(need[0]));
	if (size - 1 < need[kind])
		return 0;
	data++;
	switch (kind) {
	case 0:
		version(data);
		break;
	case 1:
		mtu(data);
		break;
	case 2:
	case 3:
		key(data, kind == 3);
		break;
	case 4:
		report(data);
		break;
	default:
		block(data, need[kind]);
	}
	return 0;
}
