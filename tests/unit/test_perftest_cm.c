/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perftest's -R: the key message its dialogue carries over RDMA CM, in
 * binary (lid, out_reads, QP number, PSN, rkey, padding, address, GID,
 * SRQ number, GID index; integers big-endian; 6.29's with 8 bytes more
 * before the GID), against bytes laid out here by hand.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <rdmaperf/qp_info.h>

#include "perftest_int.h"

/* The message perftest 4.5 sends for lid 0x12, out_reads 16, QP 0x1a2b3c,
 * PSN 0xabcdef, rkey 0xdeadbeef, address 0x00007f0012345678 and GID
 * ::ffff:10.77.0.1, no SRQ, GID index 3. */
static const uint8_t sample[RDP_PT_CM_KEY_BYTES] = {
	0x00, 0x00, 0x00, 0x12, /* lid */
	0x00, 0x00, 0x00, 0x10, /* out_reads */
	0x00, 0x1a, 0x2b, 0x3c, /* qpn */
	0x00, 0xab, 0xcd, 0xef, /* psn */
	0xde, 0xad, 0xbe, 0xef, /* rkey */
	0x55, 0x55, 0x55, 0x55, /* padding: whatever the stack held */
	0x00, 0x00, 0x7f, 0x00, 0x12, 0x34, 0x56, 0x78, /* vaddr */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* gid */
	0x00, 0x00, 0xff, 0xff, 0x0a, 0x4d, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x00, /* srqn */
	0x00, 0x00, 0x00, 0x03, /* gid_index */
};

static void test_decode_by_hand(void **state)
{
	struct rdp_qp_info qi;

	(void)state;
	assert_int_equal(rdp_pt_cm_key_decode(sample, sizeof(sample), &qi), 0);
	assert_int_equal(qi.lid, 0x12);
	assert_int_equal(qi.rd_atomic, 16);
	assert_int_equal(qi.qpn, 0x1a2b3c);
	assert_int_equal(qi.psn, 0xabcdef);
	assert_int_equal(qi.rkey, 0xdeadbeef);
	assert_true(qi.addr == 0x00007f0012345678ull);
	assert_memory_equal(qi.gid, sample + 32, 16);
}

/* This side's message: the same fields at the same places, zero padding,
 * GID index -1 (RDMA CM chose the path). */
static void test_encode_layout(void **state)
{
	struct rdp_qp_info qi = { .lid = 0x12,
				  .rd_atomic = 16,
				  .qpn = 0x1a2b3c,
				  .psn = 0xabcdef,
				  .rkey = 0xdeadbeef,
				  .addr = 0x00007f0012345678ull };
	uint8_t want[RDP_PT_CM_KEY_BYTES], got[RDP_PT_CM_KEY_BYTES];

	(void)state;
	memcpy(qi.gid, sample + 32, 16);
	memcpy(want, sample, sizeof(want));
	memset(want + 20, 0, 4);
	memset(want + 52, 0xff, 4);
	rdp_pt_cm_key_encode(&qi, got);
	assert_memory_equal(got, want, sizeof(want));
}

/* perftest 6.29's message: 8 bytes of the tail markers' address after
 * the address, the GID and what follows 8 bytes later. */
static void test_decode_629(void **state)
{
	uint8_t b[RDP_PT_CM_KEY_DV_BYTES];
	struct rdp_qp_info qi;

	(void)state;
	memcpy(b, sample, 32);
	memset(b + 32, 0x77, 8); /* tail markers: not ours to read */
	memcpy(b + 40, sample + 32, 24);
	assert_int_equal(rdp_pt_cm_key_decode(b, sizeof(b), &qi), 0);
	assert_int_equal(qi.qpn, 0x1a2b3c);
	assert_int_equal(qi.rkey, 0xdeadbeef);
	assert_true(qi.addr == 0x00007f0012345678ull);
	assert_memory_equal(qi.gid, sample + 32, 16);
}

/* A message of another length (a text key, a short one) is refused;
 * out_reads above a byte's range is capped. */
static void test_decode_refuses(void **state)
{
	uint8_t b[64] = { 0 };
	struct rdp_qp_info qi;

	(void)state;
	assert_int_equal(rdp_pt_cm_key_decode(b, 63, &qi), -EBADMSG);
	assert_int_equal(rdp_pt_cm_key_decode(b, 59, &qi), -EBADMSG);
	assert_int_equal(rdp_pt_cm_key_decode(b, 55, &qi), -EBADMSG);
	b[6] = 0x01; /* out_reads 256 */
	b[8] = 0xff; /* a QP number's top byte: not a QP number's */
	assert_int_equal(rdp_pt_cm_key_decode(b, RDP_PT_CM_KEY_BYTES, &qi), 0);
	assert_int_equal(qi.rd_atomic, 255);
	assert_int_equal(qi.qpn, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode_by_hand),
		cmocka_unit_test(test_encode_layout),
		cmocka_unit_test(test_decode_629),
		cmocka_unit_test(test_decode_refuses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
