/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The session's message keys and sealed frames, without a socket: known
 * answers from a second implementation, any bit changed, replayed,
 * reordered and dropped messages, the other direction's key, another
 * session's, and the size limits.
 */
#include <errno.h>
#include <string.h>

#include "seal_frame.h"
#include "unit.h"
#include <rdmaperf/auth.h>
#include <rdmaperf/oob.h>
#include <rdmaperf/secret.h>

static void key_of(struct rdp_secret *s, const char *text)
{
	memset(s, 0, sizeof(*s));
	s->len = strlen(text);
	memcpy(s->key, text, s->len);
}

/* Keys of the session whose nonces are all 1s and all 2s under "a secret
 * of sixteen bytes or more", and the tags of SYNC DONE count 0x10203
 * sealed client to server as message 0 and 1: from a second, independent
 * implementation (Python's hmac), so the format is pinned. */
static const uint8_t kat_c2s[32] = {
	0x4a, 0x42, 0x9b, 0xa9, 0xa7, 0xb7, 0xdd, 0x94, 0x57, 0x9d, 0xb7,
	0xea, 0x50, 0x90, 0x49, 0xd0, 0x3e, 0xf8, 0x9d, 0xcd, 0xf9, 0xd4,
	0xf2, 0xe9, 0x21, 0x3c, 0xf7, 0x28, 0xa8, 0xd7, 0x12, 0x74,
};
static const uint8_t kat_s2c[32] = {
	0xe3, 0x4e, 0x68, 0x8d, 0xea, 0x88, 0x9b, 0x68, 0xb8, 0x8b, 0xda,
	0x92, 0x93, 0xa8, 0x3a, 0x97, 0xd3, 0xe0, 0x2b, 0x75, 0xab, 0xc0,
	0x90, 0x67, 0x8e, 0x2a, 0x45, 0xee, 0x69, 0xb7, 0xdd, 0x6e,
};
static const uint8_t kat_tag[2][32] = {
	{ 0x59, 0x3b, 0xe6, 0x83, 0x7e, 0x73, 0x43, 0xd6, 0x6f, 0xe0, 0x90,
	  0xe9, 0xb6, 0xec, 0xbb, 0xfc, 0x8d, 0x5a, 0x89, 0xbd, 0x53, 0x8b,
	  0x77, 0x90, 0x0f, 0x24, 0x5e, 0x7a, 0x54, 0xf6, 0x33, 0xb2 },
	{ 0x5d, 0xe2, 0xc6, 0x39, 0x04, 0x59, 0xe0, 0xd1, 0x99, 0xc9, 0xca,
	  0xad, 0x8c, 0xba, 0x56, 0xd8, 0xa5, 0x75, 0xf4, 0x20, 0x44, 0x8f,
	  0x8c, 0xbd, 0xbe, 0xe0, 0xb4, 0xbd, 0x59, 0xf2, 0x09, 0x4d },
};

/* Both ends of the known-answer session: the client's and the server's. */
static void kat_seals(struct rdp_oob_seal *c, struct rdp_oob_seal *s)
{
	uint8_t nc[32], ns[32];
	struct rdp_secret k;

	key_of(&k, "a secret of sixteen bytes or more");
	memset(nc, 1, sizeof(nc));
	memset(ns, 2, sizeof(ns));
	assert_int_equal(rdp_seal_start(c, &k, RDP_AUTH_CLIENT, nc, ns), 0);
	assert_int_equal(rdp_seal_start(s, &k, RDP_AUTH_SERVER, nc, ns), 0);
}

/* Open a frame as rdp_oob_recv does: 0 or -EBADMSG. */
static int open_frame(struct rdp_oob_seal *seal, const uint8_t *frame,
		      size_t len)
{
	size_t n;

	return rdp_seal_open(seal, frame, frame + RDP_WIRE_HDR_BYTES,
			     len - RDP_WIRE_HDR_BYTES, &n);
}

static void sync_done(struct rdp_msg *m)
{
	memset(m, 0, sizeof(*m));
	m->type = RDP_MSG_SYNC;
	m->u.sync.phase = RDP_SYNC_DONE;
	m->u.sync.count = 0x10203;
}

/* The keys and the tags, byte for byte; each side's keys mirror the
 * other's. */
static void test_seal_known_answer(void **state)
{
	struct rdp_oob_seal c, s;
	uint8_t frame[FRAME_BYTES];
	struct rdp_msg m;
	size_t len, n;
	int i;

	(void)state;
	kat_seals(&c, &s);
	assert_true(c.on && s.on);
	assert_memory_equal(c.key_tx, kat_c2s, 32);
	assert_memory_equal(c.key_rx, kat_s2c, 32);
	assert_memory_equal(s.key_tx, kat_s2c, 32);
	assert_memory_equal(s.key_rx, kat_c2s, 32);
	sync_done(&m);
	for (i = 0; i < 2; i++) {
		len = seal_msg(&c, &m, frame);
		/* 12 + 12 bytes of SYNC + 32 of tag; the header counts it */
		assert_int_equal(len, 56);
		assert_int_equal(frame[11], 12 + 32);
		assert_memory_equal(frame + 24, kat_tag[i], 32);
		assert_int_equal(rdp_seal_open(&s, frame, frame + 12, 44, &n),
				 0);
		assert_int_equal(n, 12);
	}
	assert_int_equal(c.seq_tx, 2);
	assert_int_equal(s.seq_rx, 2);
}

/* One bit changed anywhere (header, payload, tag): refused, and nothing
 * counted, so the untouched frame still opens after. */
static void test_seal_any_bit(void **state)
{
	struct rdp_oob_seal c, s;
	uint8_t frame[FRAME_BYTES];
	struct rdp_msg m;
	size_t len, bit, n;

	(void)state;
	kat_seals(&c, &s);
	memset(&m, 0, sizeof(m));
	m.type = RDP_MSG_PARAMS;
	strcpy(m.u.params.test, "write_bw");
	m.u.params.size_bytes = 65536;
	len = seal_msg(&c, &m, frame);
	for (bit = 0; bit < len * 8; bit++) {
		frame[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		assert_int_equal(open_frame(&s, frame, len), -EBADMSG);
		frame[bit / 8] ^= (uint8_t)(1u << (bit % 8));
	}
	assert_int_equal(s.seq_rx, 0);
	/* Cut short, or shorter than a tag: the length is under the tag
	 * too. */
	assert_int_equal(rdp_seal_open(&s, frame, frame + 12, len - 13, &n),
			 -EBADMSG);
	assert_int_equal(rdp_seal_open(&s, frame, frame + 12, 31, &n),
			 -EBADMSG);
	assert_int_equal(open_frame(&s, frame, len), 0);
}

/* Replayed, reordered, dropped: each fails the sequence number. */
static void test_seal_sequence(void **state)
{
	uint8_t f[3][FRAME_BYTES];
	struct rdp_oob_seal c, s;
	struct rdp_msg m;
	size_t len[3];
	int i;

	(void)state;
	kat_seals(&c, &s);
	sync_done(&m);
	for (i = 0; i < 3; i++)
		len[i] = seal_msg(&c, &m, f[i]); /* the same message thrice */
	assert_int_equal(open_frame(&s, f[1], len[1]), -EBADMSG); /* early */
	assert_int_equal(open_frame(&s, f[0], len[0]), 0);
	assert_int_equal(open_frame(&s, f[0], len[0]), -EBADMSG); /* again */
	assert_int_equal(open_frame(&s, f[2], len[2]), -EBADMSG); /* skip */
	assert_int_equal(open_frame(&s, f[1], len[1]), 0);
	assert_int_equal(open_frame(&s, f[2], len[2]), 0);
	assert_int_equal(s.seq_rx, 3);
}

/* Sent back the other way, or into another session: refused. */
static void test_seal_keys(void **state)
{
	struct rdp_oob_seal c, s, c2, s2;
	uint8_t frame[FRAME_BYTES], nc[32], ns[32];
	struct rdp_secret k;
	struct rdp_msg m;
	size_t len;

	(void)state;
	kat_seals(&c, &s);
	assert_memory_not_equal(c.key_tx, c.key_rx, 32);
	sync_done(&m);
	len = seal_msg(&c, &m, frame);
	/* reflected: the client's own message, as if the server sent it */
	assert_int_equal(open_frame(&c, frame, len), -EBADMSG);
	/* another session: the server's nonce differs */
	key_of(&k, "a secret of sixteen bytes or more");
	memset(nc, 1, sizeof(nc));
	memset(ns, 3, sizeof(ns));
	assert_int_equal(rdp_seal_start(&s2, &k, RDP_AUTH_SERVER, nc, ns), 0);
	assert_int_equal(open_frame(&s2, frame, len), -EBADMSG);
	/* another secret, the same nonces */
	key_of(&k, "another secret, sixteen or more");
	memset(ns, 2, sizeof(ns));
	assert_int_equal(rdp_seal_start(&c2, &k, RDP_AUTH_CLIENT, nc, ns), 0);
	len = seal_msg(&c2, &m, frame);
	assert_int_equal(open_frame(&s, frame, len), -EBADMSG);
	assert_int_equal(s.seq_rx, 0);
}

/* A payload whose tag would pass the limit, and too little room. */
static void test_seal_limits(void **state)
{
	uint8_t frame[FRAME_BYTES + 64];
	struct rdp_oob_seal c, s;
	size_t len = 0;

	(void)state;
	kat_seals(&c, &s);
	memset(frame, 0, sizeof(frame));
	assert_int_equal(
		rdp_seal_frame(&c, frame, sizeof(frame),
			       RDP_WIRE_HDR_BYTES + RDP_WIRE_MAX_PAYLOAD - 31,
			       &len),
		-EMSGSIZE);
	assert_int_equal(rdp_seal_frame(&c, frame, 40, 20, &len), -EMSGSIZE);
	assert_int_equal(rdp_seal_frame(&c, frame, sizeof(frame), 11, &len),
			 -EINVAL);
	assert_int_equal(len, 0);
	assert_int_equal(c.seq_tx, 0);
	assert_int_equal(
		rdp_seal_frame(&c, frame, sizeof(frame),
			       RDP_WIRE_HDR_BYTES + RDP_WIRE_MAX_PAYLOAD - 32,
			       &len),
		0);
	assert_int_equal(len, RDP_WIRE_HDR_BYTES + RDP_WIRE_MAX_PAYLOAD);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seal_known_answer),
		cmocka_unit_test(test_seal_any_bit),
		cmocka_unit_test(test_seal_sequence),
		cmocka_unit_test(test_seal_keys),
		cmocka_unit_test(test_seal_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
