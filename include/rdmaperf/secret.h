/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The shared secret of --auth-file, and the crypto the handshake needs:
 * HMAC-SHA256, fresh nonces and a constant-time comparison, all from the
 * crypto library chosen at configure time (libcrypto or libsodium).
 * Layer: sys
 */
#ifndef RDMAPERF_SECRET_H
#define RDMAPERF_SECRET_H

#include <stddef.h>
#include <stdint.h>

#define RDP_SECRET_MIN_BYTES 32 /* of key material, once decoded */
#define RDP_SECRET_MAX_BYTES 1024
#define RDP_HMAC_BYTES	     32

struct rdp_secret {
	uint8_t key[RDP_SECRET_MAX_BYTES]; /* the decoded key material */
	size_t len; /* 0: no secret, authentication off */
};

/*
 * Read the secret from path: a regular file owned by the effective user
 * or root, with no group or other permission bits, holding one line of
 * key material: hex (a text of hex digits only) or padded base64, that
 * decodes to RDP_SECRET_MIN_BYTES to RDP_SECRET_MAX_BYTES; one trailing
 * newline (or CRLF) allowed. The key is the decoded bytes. 0, or -errno
 * with one line naming the file, the problem and how to make one in err;
 * the file's text is wiped from memory on every path, and s is left
 * zeroed on failure.
 */
int rdp_secret_load(const char *path, struct rdp_secret *s, char *err,
		    size_t errlen);

/* Forget the key: zeroed so that no copy stays in this process. */
void rdp_secret_clear(struct rdp_secret *s);

/*
 * A zeroed secret in pages of its own, kept out of core dumps
 * (MADV_DONTDUMP) and locked out of swap where RLIMIT_MEMLOCK allows.
 * 0 or -errno. rdp_secret_free() wipes and unmaps it; NULL is ignored.
 */
int rdp_secret_new(struct rdp_secret **out);
void rdp_secret_free(struct rdp_secret *s);

/* One piece of the message an HMAC covers. */
struct rdp_bytes {
	const void *ptr;
	size_t len;
};

/* HMAC-SHA256 of the pieces, in order, under the secret. 0 or -EIO. */
int rdp_hmac_sha256(const struct rdp_secret *s, const struct rdp_bytes *parts,
		    size_t n_parts, uint8_t out[RDP_HMAC_BYTES]);

/* The same under a raw key of key_len bytes (a session's message key,
 * oob/auth.h). 0 or -EIO. */
int rdp_hmac_sha256_key(const uint8_t *key, size_t key_len,
			const struct rdp_bytes *parts, size_t n_parts,
			uint8_t out[RDP_HMAC_BYTES]);

/* Bytes from the library's random generator; 0 or -EIO. */
int rdp_random_bytes(void *buf, size_t len);

/* 1 when equal; the time taken does not depend on where they differ. */
int rdp_bytes_equal_ct(const void *a, const void *b, size_t len);

/* "openssl" or "libsodium": what this build uses. */
const char *rdp_crypto_name(void);

#endif /* RDMAPERF_SECRET_H */
