/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The shared-secret handshake (--auth-file), before HELLO:
 *
 *   client                                   server
 *     | --- AUTH 1: Nc ----------------------> |  fresh nonce Nc
 *     | <-- AUTH 2: Ns, HMAC(K, "server"|Nc|Ns) |  fresh nonce Ns
 *     |  checks the server's proof               |
 *     | --- AUTH 3: HMAC(K, "client"|Nc|Ns) -> |  checks the client's
 *
 * Each side's proof covers the nonce it did not choose, so a recorded
 * exchange is worthless against a new nonce (replay), and the two proofs
 * carry different labels, so one side's proof never serves as the other's
 * (reflection). Proofs are compared in constant time.
 *
 * Once both proofs passed, each side derives the session's two message
 * keys, one per direction:
 *
 *   K_c2s = HMAC(K, "rdmaperf session v1 client to server" | Nc | Ns)
 *   K_s2c = HMAC(K, "rdmaperf session v1 server to client" | Nc | Ns)
 *
 * and every later message, both ways, is sealed: its header's length
 * counts a 32-byte tag after the payload,
 *
 *   tag = HMAC(K_dir, seq (8 bytes, big-endian) | header (12) | payload)
 *
 * with seq counting that direction's messages from 0. A message altered,
 * dropped, replayed (from this session or another) or sent back the
 * other way fails its check, and the session ends before anything in it
 * is acted on. Messages are authenticated, not encrypted.
 * Layer: oob
 */
#ifndef RDMAPERF_AUTH_H
#define RDMAPERF_AUTH_H

#include <stddef.h>
#include <stdint.h>

#include <rdmaperf/wire.h>

struct rdp_oob;
struct rdp_oob_seal;
struct rdp_secret;

#define RDP_SEAL_TAG_BYTES 32 /* HMAC-SHA256 after each sealed payload */

enum rdp_auth_role {
	RDP_AUTH_SERVER = 0,
	RDP_AUTH_CLIENT = 1,
};

/* role's proof over the two nonces; 0 or -EIO. */
int rdp_auth_proof(const struct rdp_secret *s, enum rdp_auth_role role,
		   const uint8_t nc[RDP_AUTH_NONCE_BYTES],
		   const uint8_t ns[RDP_AUTH_NONCE_BYTES],
		   uint8_t out[RDP_AUTH_MAC_BYTES]);

/*
 * The client's side: the server proves it knows the secret, then this
 * side does. 0 with oob's messages sealed from now on, or -EACCES (the
 * server could not prove it: one line logged), or the channel's -errno
 * (logged).
 */
int rdp_auth_client(struct rdp_oob *oob, const struct rdp_secret *s);

/*
 * The server's side, once the client's first message (AUTH 1) was read:
 * 0 when the client proved the secret within timeout_ms, with oob's
 * messages sealed from now on; otherwise
 * -EACCES (an ERROR "authentication failed" was sent), -EPROTO or the
 * channel's -errno, with the reason in why. Nothing is logged.
 */
int rdp_auth_server(struct rdp_oob *oob, const struct rdp_secret *s,
		    const struct rdp_msg_auth *first, int timeout_ms, char *why,
		    size_t len);

/*
 * The session's keys for side self (RDP_AUTH_CLIENT sends under K_c2s)
 * from the secret and both nonces: seal on, sequence 0 both ways. 0 or
 * -EIO (seal untouched).
 */
int rdp_seal_start(struct rdp_oob_seal *seal, const struct rdp_secret *s,
		   enum rdp_auth_role self,
		   const uint8_t nc[RDP_AUTH_NONCE_BYTES],
		   const uint8_t ns[RDP_AUTH_NONCE_BYTES]);

/*
 * Seal one encoded message (header and payload, len bytes, in a buffer
 * of cap): the header's length grows by the tag, the tag under key_tx
 * and seq_tx follows the payload, seq_tx counts it. *len_out: the whole
 * frame. -EMSGSIZE when payload and tag exceed RDP_WIRE_MAX_PAYLOAD or
 * cap, -EINVAL when len is shorter than a header, -EIO.
 */
int rdp_seal_frame(struct rdp_oob_seal *seal, uint8_t *frame, size_t cap,
		   size_t len, size_t *len_out);

/*
 * Check a received frame: hdr, its 12 bytes as they came, and body, the
 * body_len bytes after them (payload and tag). 0 when the tag is right
 * under key_rx for seq_rx: seq_rx counts it and *payload_len is what
 * precedes the tag, for the decoder. -EBADMSG otherwise, nothing
 * counted. The tag is compared in constant time.
 */
int rdp_seal_open(struct rdp_oob_seal *seal,
		  const uint8_t hdr[RDP_WIRE_HDR_BYTES], const uint8_t *body,
		  size_t body_len, size_t *payload_len);

#endif /* RDMAPERF_AUTH_H */
