/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target for the OOB message decoder. Input: a header and a
 * payload as they would arrive on the socket. Properties: no crash, no
 * sanitizer report, and anything that decodes re-encodes to the very same
 * bytes (the encoding is canonical). The same input goes through the
 * sealed path too, as after AUTH: opened under a fixed key at sequence 0
 * (the seeds sealed_* pass), then decoded; what opens and decodes seals
 * again to the very same frame. And whatever header and payload it holds,
 * sealed here, opens once and not twice, and not with one bit changed.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rdmaperf/auth.h>
#include <rdmaperf/oob.h>
#include <rdmaperf/wire.h>

#include "fuzz_seal.h"

#define FRAME_BYTES (RDP_WIRE_HDR_BYTES + RDP_WIRE_MAX_PAYLOAD)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void plain(const uint8_t *data, const struct rdp_wire_hdr *hdr)
{
	uint8_t out[FRAME_BYTES];
	struct rdp_msg msg;
	size_t len;

	memset(&msg, 0, sizeof(msg));
	if (rdp_wire_decode_body(hdr->type, data + RDP_WIRE_HDR_BYTES,
				 hdr->len_bytes, &msg))
		return;
	if (rdp_wire_encode(&msg, out, sizeof(out), &len))
		abort();
	if (len != RDP_WIRE_HDR_BYTES + hdr->len_bytes ||
	    memcmp(out, data, len))
		abort();
}

/* The receiver's path: the tag, then the decoder. */
static void opened(const uint8_t *data, const struct rdp_wire_hdr *hdr)
{
	uint8_t out[FRAME_BYTES];
	struct rdp_oob_seal seal;
	struct rdp_msg msg;
	size_t n, len;

	fuzz_seal_init(&seal);
	if (rdp_seal_open(&seal, data, data + RDP_WIRE_HDR_BYTES,
			  hdr->len_bytes, &n))
		return;
	if (seal.seq_rx != 1 || n + RDP_SEAL_TAG_BYTES != hdr->len_bytes)
		abort();
	memset(&msg, 0, sizeof(msg));
	if (rdp_wire_decode_body(hdr->type, data + RDP_WIRE_HDR_BYTES, n, &msg))
		return;
	if (rdp_wire_encode(&msg, out, sizeof(out), &len) ||
	    rdp_seal_frame(&seal, out, sizeof(out), len, &len))
		abort();
	if (len != RDP_WIRE_HDR_BYTES + hdr->len_bytes ||
	    memcmp(out, data, len))
		abort();
}

/* The input's header and payload sealed: the receiver opens it once. */
static void sealed(const uint8_t *data, const struct rdp_wire_hdr *hdr)
{
	uint8_t f[FRAME_BYTES];
	size_t in = RDP_WIRE_HDR_BYTES + hdr->len_bytes, len, n, bit;
	struct rdp_oob_seal tx, rx;

	fuzz_seal_init(&tx);
	fuzz_seal_init(&rx);
	memcpy(f, data, in);
	if (rdp_seal_frame(&tx, f, sizeof(f), in, &len))
		return; /* no room for the tag */
	/* one bit, anywhere in the frame, chosen by the input */
	bit = ((size_t)data[in - 1] * 131 + in) % (len * 8);
	f[bit / 8] ^= (uint8_t)(1u << (bit % 8));
	if (!rdp_seal_open(&rx, f, f + RDP_WIRE_HDR_BYTES,
			   len - RDP_WIRE_HDR_BYTES, &n))
		abort();
	f[bit / 8] ^= (uint8_t)(1u << (bit % 8));
	if (rdp_seal_open(&rx, f, f + RDP_WIRE_HDR_BYTES,
			  len - RDP_WIRE_HDR_BYTES, &n) ||
	    n != hdr->len_bytes ||
	    memcmp(f + RDP_WIRE_HDR_BYTES, data + RDP_WIRE_HDR_BYTES, n))
		abort();
	if (!rdp_seal_open(&rx, f, f + RDP_WIRE_HDR_BYTES,
			   len - RDP_WIRE_HDR_BYTES, &n))
		abort(); /* replayed */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rdp_wire_hdr hdr;

	if (rdp_wire_decode_hdr(data, size, &hdr))
		return 0;
	if (size - RDP_WIRE_HDR_BYTES < hdr.len_bytes)
		return 0;
	plain(data, &hdr);
	opened(data, &hdr);
	sealed(data, &hdr);
	return 0;
}
