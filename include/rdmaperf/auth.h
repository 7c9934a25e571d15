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
 * (reflection). Proofs are compared in constant time. The handshake proves
 * knowledge of the secret; it does not encrypt or sign what follows.
 * Layer: oob
 */
#ifndef RDMAPERF_AUTH_H
#define RDMAPERF_AUTH_H

#include <stddef.h>
#include <stdint.h>

#include <rdmaperf/wire.h>

struct rdp_oob;
struct rdp_secret;

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
 * side does. 0, or -EACCES (the server could not prove it: one line
 * logged), or the channel's -errno (logged).
 */
int rdp_auth_client(struct rdp_oob *oob, const struct rdp_secret *s);

/*
 * The server's side, once the client's first message (AUTH 1) was read:
 * 0 when the client proved the secret within timeout_ms; otherwise
 * -EACCES (an ERROR "authentication failed" was sent), -EPROTO or the
 * channel's -errno, with the reason in why. Nothing is logged.
 */
int rdp_auth_server(struct rdp_oob *oob, const struct rdp_secret *s,
		    const struct rdp_msg_auth *first, int timeout_ms, char *why,
		    size_t len);

#endif /* RDMAPERF_AUTH_H */
