/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Frames for the tests of the MAC on every message: a message encoded and
 * sealed as the channel sends it.
 */
#ifndef RDMAPERF_TESTS_SEAL_FRAME_H
#define RDMAPERF_TESTS_SEAL_FRAME_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <rdmaperf/auth.h>
#include <rdmaperf/wire.h>

/* The largest frame: header and payload. */
#define FRAME_BYTES (RDP_WIRE_HDR_BYTES + RDP_WIRE_MAX_PAYLOAD)

/* m encoded and sealed with seal (its seq_tx counted): the frame's
 * length. */
static inline size_t seal_msg(struct rdp_oob_seal *seal,
			      const struct rdp_msg *m, uint8_t *frame)
{
	size_t len;

	assert_int_equal(rdp_wire_encode(m, frame, FRAME_BYTES, &len), 0);
	assert_int_equal(rdp_seal_frame(seal, frame, FRAME_BYTES, len, &len),
			 0);
	return len;
}

#endif /* RDMAPERF_TESTS_SEAL_FRAME_H */
