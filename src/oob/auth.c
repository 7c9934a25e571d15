/* SPDX-License-Identifier: BSD-2-Clause */
/* The shared-secret challenge-response both ways, and the session's
 * message keys it ends with (see rdmaperf/auth.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rdmaperf/auth.h>
#include <rdmaperf/log.h>
#include <rdmaperf/oob.h>
#include <rdmaperf/secret.h>
#include "oob_int.h"

/* The labels keep a server's proof from passing as a client's. */
static const char label_server[] = "rdmaperf auth v1 server proof";
static const char label_client[] = "rdmaperf auth v1 client proof";

int rdp_auth_proof(const struct rdp_secret *s, enum rdp_auth_role role,
		   const uint8_t nc[RDP_AUTH_NONCE_BYTES],
		   const uint8_t ns[RDP_AUTH_NONCE_BYTES],
		   uint8_t out[RDP_AUTH_MAC_BYTES])
{
	const char *label = role == RDP_AUTH_SERVER ? label_server
						    : label_client;
	const struct rdp_bytes parts[] = {
		{ label, strlen(label) + 1 },
		{ nc, RDP_AUTH_NONCE_BYTES },
		{ ns, RDP_AUTH_NONCE_BYTES },
	};

	return rdp_hmac_sha256(s, parts, 3, out);
}

static int proof_ok(const struct rdp_secret *s, enum rdp_auth_role role,
		    const uint8_t *nc, const uint8_t *ns, const uint8_t *mac)
{
	uint8_t want[RDP_AUTH_MAC_BYTES];
	int ok;

	ok = !rdp_auth_proof(s, role, nc, ns, want) &&
	     rdp_bytes_equal_ct(want, mac, sizeof(want));
	explicit_bzero(want, sizeof(want));
	return ok;
}

/* The server's answer to AUTH 1, or why it has none. */
static int server_answer(struct rdp_oob *oob, struct rdp_msg *msg)
{
	int ret = rdp_oob_recv(oob, msg, -1);

	if (ret == -ETIMEDOUT || ret == -ECONNRESET) {
		rdp_err("server %s did not answer the authentication (%s): "
			"refusing it; is it an rdmaperf-server with the same "
			"--auth-file?",
			oob->peer, ret == -ETIMEDOUT ? "timed out" : "closed");
		return -EACCES;
	}
	if (ret)
		return ret;
	if (msg->type == RDP_MSG_ERROR) {
		rdp_err("server %s did not prove it knows the shared secret "
			"(it says: %s): refusing it",
			oob->peer, msg->u.error.text);
		return -EACCES;
	}
	if (msg->type != RDP_MSG_AUTH ||
	    msg->u.auth.step != RDP_AUTH_SERVER_PROOF) {
		rdp_err("server %s answered the authentication with %s: "
			"refusing it",
			oob->peer, rdp_wire_type_str(msg->type));
		return -EACCES;
	}
	return 0;
}

int rdp_auth_client(struct rdp_oob *oob, const struct rdp_secret *s)
{
	struct rdp_msg msg = { .type = RDP_MSG_AUTH };
	uint8_t nc[RDP_AUTH_NONCE_BYTES], ns[RDP_AUTH_NONCE_BYTES];
	int ret;

	ret = rdp_random_bytes(nc, sizeof(nc));
	if (ret) {
		rdp_err("authentication: no random nonce from %s",
			rdp_crypto_name());
		return ret;
	}
	msg.u.auth.step = RDP_AUTH_CLIENT_NONCE;
	memcpy(msg.u.auth.nonce, nc, sizeof(nc));
	ret = rdp_oob_send(oob, &msg);
	if (!ret)
		ret = server_answer(oob, &msg);
	if (ret)
		return ret;
	memcpy(ns, msg.u.auth.nonce, sizeof(ns));
	if (!proof_ok(s, RDP_AUTH_SERVER, nc, ns, msg.u.auth.mac)) {
		rdp_err("server %s failed to prove it knows the shared secret: "
			"refusing it; it runs with another --auth-file (or is "
			"not the server you meant)",
			oob->peer);
		return -EACCES;
	}
	memset(&msg.u.auth, 0, sizeof(msg.u.auth));
	msg.u.auth.step = RDP_AUTH_CLIENT_PROOF;
	ret = rdp_auth_proof(s, RDP_AUTH_CLIENT, nc, ns, msg.u.auth.mac);
	if (!ret)
		ret = rdp_oob_send(oob, &msg);
	if (ret)
		return ret;
	/* AUTH 3 went out plain; everything after it is sealed. */
	ret = rdp_seal_start(&oob->seal, s, RDP_AUTH_CLIENT, nc, ns);
	if (ret)
		rdp_err("authentication: no session key from %s",
			rdp_crypto_name());
	return ret;
}

static int refuse(struct rdp_oob *oob, char *why, size_t len,
		  const char *reason)
{
	snprintf(why, len, "%s", reason);
	rdp_oob_send_error(oob, -EACCES, "authentication failed");
	return -EACCES;
}

int rdp_auth_server(struct rdp_oob *oob, const struct rdp_secret *s,
		    const struct rdp_msg_auth *first, int timeout_ms, char *why,
		    size_t len)
{
	struct rdp_msg msg = { .type = RDP_MSG_AUTH };
	uint8_t nc[RDP_AUTH_NONCE_BYTES], ns[RDP_AUTH_NONCE_BYTES];
	int ret;

	if (first->step != RDP_AUTH_CLIENT_NONCE)
		return refuse(oob, why, len,
			      "authentication out of order (no client nonce)");
	memcpy(nc, first->nonce, sizeof(nc));
	if (rdp_random_bytes(ns, sizeof(ns)))
		return refuse(oob, why, len, "no random nonce");
	msg.u.auth.step = RDP_AUTH_SERVER_PROOF;
	memcpy(msg.u.auth.nonce, ns, sizeof(ns));
	ret = rdp_auth_proof(s, RDP_AUTH_SERVER, nc, ns, msg.u.auth.mac);
	if (!ret)
		ret = rdp_oob_send(oob, &msg);
	if (!ret)
		ret = rdp_oob_recv(oob, &msg, timeout_ms > 0 ? timeout_ms : 1);
	if (ret) {
		snprintf(why, len, "authentication: %s",
			 ret == -ETIMEDOUT ? "no proof before the deadline"
			 : ret == -ECONNRESET
				 ? "the client closed the connection"
				 : "malformed proof");
		return ret;
	}
	if (msg.type == RDP_MSG_ERROR) {
		snprintf(why, len, "the client gave up: %s", msg.u.error.text);
		return -ECANCELED;
	}
	if (msg.type != RDP_MSG_AUTH ||
	    msg.u.auth.step != RDP_AUTH_CLIENT_PROOF)
		return refuse(oob, why, len,
			      "authentication: no proof where it was due");
	if (!proof_ok(s, RDP_AUTH_CLIENT, nc, ns, msg.u.auth.mac))
		return refuse(oob, why, len,
			      "authentication failed: wrong proof (another "
			      "secret, or a replayed exchange)");
	if (rdp_seal_start(&oob->seal, s, RDP_AUTH_SERVER, nc, ns))
		return refuse(oob, why, len, "no session key");
	return 0;
}
