/* SPDX-License-Identifier: BSD-2-Clause */
/* The --auth-file secret and the handshake's crypto, from libcrypto or
 * libsodium: no cryptography of our own. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <rdmaperf/log.h>
#include <rdmaperf/secret.h>

#ifdef HAVE_OPENSSL
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#else
#include <sodium.h>
#endif

/* The file as the user must fix it: mode, type, owner. */
static int check_file(int fd, const char *path, char *err, size_t errlen)
{
	struct stat st;

	if (fstat(fd, &st)) {
		int e = errno;

		snprintf(err, errlen, "--auth-file %s: %s", path, strerror(e));
		return -e;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen,
			 "--auth-file %s: not a regular file: give the file "
			 "that holds the shared secret",
			 path);
		return -EINVAL;
	}
	if (st.st_mode & (S_IRWXG | S_IRWXO)) {
		snprintf(err, errlen,
			 "--auth-file %s: refused, readable or writable by "
			 "group or others (mode %04o): chmod 600 %s",
			 path, (unsigned int)(st.st_mode & 07777), path);
		return -EPERM;
	}
	return 0;
}

static int read_key(int fd, const char *path, struct rdp_secret *s, char *err,
		    size_t errlen)
{
	uint8_t buf[RDP_SECRET_MAX_BYTES + 2];
	size_t len = 0;
	ssize_t n;

	while (len < sizeof(buf)) {
		n = read(fd, buf + len, sizeof(buf) - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			snprintf(err, errlen, "--auth-file %s: %s", path,
				 strerror(e));
			return -e;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	/* One trailing newline (or CRLF) is the editor's, not the key's. */
	if (len && buf[len - 1] == '\n')
		len--;
	if (len && buf[len - 1] == '\r')
		len--;
	if (len < RDP_SECRET_MIN_BYTES || len > RDP_SECRET_MAX_BYTES) {
		explicit_bzero(buf, sizeof(buf));
		snprintf(err, errlen,
			 "--auth-file %s: the secret must be %d to %d bytes "
			 "(%s%zu): make one with 'head -c 32 /dev/urandom | "
			 "base64 > %s'",
			 path, RDP_SECRET_MIN_BYTES, RDP_SECRET_MAX_BYTES,
			 len > RDP_SECRET_MAX_BYTES ? "over " : "it has ",
			 len > RDP_SECRET_MAX_BYTES ? RDP_SECRET_MAX_BYTES
						    : len,
			 path);
		return -EINVAL;
	}
	memcpy(s->key, buf, len);
	s->len = len;
	explicit_bzero(buf, sizeof(buf));
	return 0;
}

int rdp_secret_load(const char *path, struct rdp_secret *s, char *err,
		    size_t errlen)
{
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "--auth-file %s: %s%s", path,
			 strerror(errno),
			 errno == EACCES ? ": run as the file's owner" : "");
		return ret;
	}
	ret = check_file(fd, path, err, errlen);
	if (!ret)
		ret = read_key(fd, path, s, err, errlen);
	close(fd);
	return ret;
}

void rdp_secret_clear(struct rdp_secret *s)
{
	explicit_bzero(s, sizeof(*s));
}

#ifdef HAVE_OPENSSL
int rdp_hmac_sha256(const struct rdp_secret *s, const struct rdp_bytes *parts,
		    size_t n_parts, uint8_t out[RDP_HMAC_BYTES])
{
	char digest[] = "SHA256";
	OSSL_PARAM params[] = {
		OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest,
						 0),
		OSSL_PARAM_construct_end(),
	};
	EVP_MAC_CTX *ctx = NULL;
	size_t len = 0, i;
	EVP_MAC *mac;
	int ok;

	mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
	if (mac)
		ctx = EVP_MAC_CTX_new(mac);
	ok = ctx && EVP_MAC_init(ctx, s->key, s->len, params);
	for (i = 0; ok && i < n_parts; i++)
		ok = EVP_MAC_update(ctx, parts[i].ptr, parts[i].len);
	if (ok)
		ok = EVP_MAC_final(ctx, out, &len, RDP_HMAC_BYTES) &&
		     len == RDP_HMAC_BYTES;
	EVP_MAC_CTX_free(ctx);
	EVP_MAC_free(mac);
	return ok ? 0 : -EIO;
}

int rdp_random_bytes(void *buf, size_t len)
{
	return RAND_bytes(buf, (int)len) == 1 ? 0 : -EIO;
}

int rdp_bytes_equal_ct(const void *a, const void *b, size_t len)
{
	return CRYPTO_memcmp(a, b, len) == 0;
}

const char *rdp_crypto_name(void)
{
	return "openssl";
}

int rdp_hmac_sha256_key(const uint8_t *key, size_t key_len,
			const struct rdp_bytes *parts, size_t n_parts,
			uint8_t out[RDP_HMAC_BYTES])
{
	char digest[] = "SHA256";
	OSSL_PARAM params[] = {
		OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest,
						 0),
		OSSL_PARAM_construct_end(),
	};
	EVP_MAC_CTX *ctx = NULL;
	size_t len = 0, i;
	EVP_MAC *mac;
	int ok;

	mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
	if (mac)
		ctx = EVP_MAC_CTX_new(mac);
	ok = ctx && EVP_MAC_init(ctx, key, key_len, params);
	for (i = 0; ok && i < n_parts; i++)
		ok = EVP_MAC_update(ctx, parts[i].ptr, parts[i].len);
	if (ok)
		ok = EVP_MAC_final(ctx, out, &len, RDP_HMAC_BYTES) &&
		     len == RDP_HMAC_BYTES;
	EVP_MAC_CTX_free(ctx);
	EVP_MAC_free(mac);
	return ok ? 0 : -EIO;
}
#else
int rdp_hmac_sha256(const struct rdp_secret *s, const struct rdp_bytes *parts,
		    size_t n_parts, uint8_t out[RDP_HMAC_BYTES])
{
	crypto_auth_hmacsha256_state st;
	size_t i;

	if (sodium_init() < 0)
		return -EIO;
	crypto_auth_hmacsha256_init(&st, s->key, s->len);
	for (i = 0; i < n_parts; i++)
		crypto_auth_hmacsha256_update(&st, parts[i].ptr, parts[i].len);
	crypto_auth_hmacsha256_final(&st, out);
	sodium_memzero(&st, sizeof(st));
	return 0;
}

int rdp_random_bytes(void *buf, size_t len)
{
	if (sodium_init() < 0)
		return -EIO;
	randombytes_buf(buf, len);
	return 0;
}

int rdp_bytes_equal_ct(const void *a, const void *b, size_t len)
{
	return sodium_memcmp(a, b, len) == 0;
}

const char *rdp_crypto_name(void)
{
	return "libsodium";
}

int rdp_hmac_sha256_key(const uint8_t *key, size_t key_len,
			const struct rdp_bytes *parts, size_t n_parts,
			uint8_t out[RDP_HMAC_BYTES])
{
	crypto_auth_hmacsha256_state st;
	size_t i;

	if (sodium_init() < 0)
		return -EIO;
	crypto_auth_hmacsha256_init(&st, key, key_len);
	for (i = 0; i < n_parts; i++)
		crypto_auth_hmacsha256_update(&st, parts[i].ptr, parts[i].len);
	crypto_auth_hmacsha256_final(&st, out);
	sodium_memzero(&st, sizeof(st));
	return 0;
}
#endif
