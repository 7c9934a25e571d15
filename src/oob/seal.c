/* SPDX-License-Identifier: BSD-2-Clause */
/* The session's message keys and the tag on every message after the
 * handshake (see rdmaperf/auth.h): bytes in, bytes out, no socket. */
#include <errno.h>
#include <string.h>

#include <rdmaperf/auth.h>
#include <rdmaperf/oob.h>
#include <rdmaperf/secret.h>

#include "oob_int.h"

/* One label per direction: a message never passes for one sent the
 * other way, and these keys never equal a proof of the handshake. */
static const char label_c2s[] = "rdmaperf session v1 client to server";
static const char label_s2c[] = "rdmaperf session v1 server to client";

static int derive(const struct rdp_secret *s, const char *label,
		  const uint8_t *nc, const uint8_t *ns,
		  uint8_t out[RDP_HMAC_BYTES])
{
	const struct rdp_bytes parts[] = {
		{ label, strlen(label) + 1 },
		{ nc, RDP_AUTH_NONCE_BYTES },
		{ ns, RDP_AUTH_NONCE_BYTES },
	};

	return rdp_hmac_sha256(s, parts, 3, out);
}

int rdp_seal_start(struct rdp_oob_seal *seal, const struct rdp_secret *s,
		   enum rdp_auth_role self,
		   const uint8_t nc[RDP_AUTH_NONCE_BYTES],
		   const uint8_t ns[RDP_AUTH_NONCE_BYTES])
{
	struct rdp_oob_seal k = { .on = 1 };
	int client = self == RDP_AUTH_CLIENT;
	int ret;

	_Static_assert(sizeof(k.key_tx) == RDP_HMAC_BYTES &&
			       sizeof(k.key_rx) == RDP_HMAC_BYTES,
		       "a message key is one HMAC-SHA256 output");
	ret = derive(s, label_c2s, nc, ns, client ? k.key_tx : k.key_rx);
	if (!ret)
		ret = derive(s, label_s2c, nc, ns,
			     client ? k.key_rx : k.key_tx);
	if (!ret)
		*seal = k;
	explicit_bzero(&k, sizeof(k));
	return ret;
}

/* HMAC(key, seq | header | payload) */
static int tag_of(const uint8_t *key, uint64_t seq, const uint8_t *hdr,
		  const uint8_t *payload, size_t len,
		  uint8_t out[RDP_SEAL_TAG_BYTES])
{
	uint8_t seq_be[8];
	const struct rdp_bytes parts[] = {
		{ seq_be, sizeof(seq_be) },
		{ hdr, RDP_WIRE_HDR_BYTES },
		{ payload, len },
	};

	rdp_oob_put_be(seq_be, seq, sizeof(seq_be));
	return rdp_hmac_sha256_key(key, RDP_HMAC_BYTES, parts, 3, out);
}

int rdp_seal_frame(struct rdp_oob_seal *seal, uint8_t *frame, size_t cap,
		   size_t len, size_t *len_out)
{
	size_t payload;
	int ret;

	if (len < RDP_WIRE_HDR_BYTES)
		return -EINVAL;
	payload = len - RDP_WIRE_HDR_BYTES;
	if (payload + RDP_SEAL_TAG_BYTES > RDP_WIRE_MAX_PAYLOAD ||
	    len + RDP_SEAL_TAG_BYTES > cap)
		return -EMSGSIZE;
	/* The length the peer reads counts the tag, and is under it. */
	rdp_oob_put_be(frame + 8, payload + RDP_SEAL_TAG_BYTES, 4);
	ret = tag_of(seal->key_tx, seal->seq_tx, frame,
		     frame + RDP_WIRE_HDR_BYTES, payload, frame + len);
	if (ret)
		return ret;
	seal->seq_tx++;
	*len_out = len + RDP_SEAL_TAG_BYTES;
	return 0;
}

int rdp_seal_open(struct rdp_oob_seal *seal,
		  const uint8_t hdr[RDP_WIRE_HDR_BYTES], const uint8_t *body,
		  size_t body_len, size_t *payload_len)
{
	uint8_t want[RDP_SEAL_TAG_BYTES];
	size_t n;
	int ok;

	if (body_len < RDP_SEAL_TAG_BYTES ||
	    rdp_oob_get_be(hdr + 8, 4) != body_len)
		return -EBADMSG;
	n = body_len - RDP_SEAL_TAG_BYTES;
	ok = !tag_of(seal->key_rx, seal->seq_rx, hdr, body, n, want) &&
	     rdp_bytes_equal_ct(want, body + n, sizeof(want));
	explicit_bzero(want, sizeof(want));
	if (!ok)
		return -EBADMSG;
	seal->seq_rx++;
	*payload_len = n;
	return 0;
}
