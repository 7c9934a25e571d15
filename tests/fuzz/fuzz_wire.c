/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target for the OOB message decoder. Input: a header and a
 * payload as they would arrive on the socket. Properties: no crash, no
 * sanitizer report, and anything that decodes re-encodes to the very same
 * bytes (the encoding is canonical).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rdmaperf/wire.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t out[RDP_WIRE_HDR_BYTES + RDP_WIRE_MAX_PAYLOAD];
	struct rdp_wire_hdr hdr;
	struct rdp_msg msg;
	size_t len;

	if (rdp_wire_decode_hdr(data, size, &hdr))
		return 0;
	if (size - RDP_WIRE_HDR_BYTES < hdr.len_bytes)
		return 0;
	memset(&msg, 0, sizeof(msg));
	if (rdp_wire_decode_body(hdr.type, data + RDP_WIRE_HDR_BYTES,
				 hdr.len_bytes, &msg))
		return 0;
	if (rdp_wire_encode(&msg, out, sizeof(out), &len))
		abort();
	if (len != RDP_WIRE_HDR_BYTES + hdr.len_bytes || memcmp(out, data, len))
		abort();
	return 0;
}
