/* SPDX-License-Identifier: BSD-2-Clause */
/* The --auth-file secret and the handshake's crypto, from libcrypto or
 * libsodium: no cryptography of our own. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/xattr.h>

#include <rdmaperf/log.h>
#include <rdmaperf/secret.h>
#include <rdmaperf/sysfs.h>

#ifdef HAVE_OPENSSL
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/rand.h>
/* The back end's name and its constant-time compare (0: equal). */
#define CRYPTO_NAME "openssl"
#define CT_MEMCMP   CRYPTO_memcmp
#else
#include <sodium.h>
#define CRYPTO_NAME "libsodium"
#define CT_MEMCMP   sodium_memcmp
#endif

#define HOW_TO_MAKE                                                            \
	"make one with 'head -c 32 /dev/urandom | base64 > %s && chmod 600 "   \
	"%s'"

/* struct posix_acl_xattr_entry's tags (little-endian on the wire). */
#define ACL_TAG_USER	  0x02
#define ACL_TAG_GROUP_OBJ 0x04
#define ACL_TAG_GROUP	  0x08
#define ACL_TAG_MASK	  0x10
#define ACL_TAG_OTHER	  0x20

/*
 * systemd hands a credential to a service as root's file, mode 0400, with
 * an ACL entry that lets the service's user read it; st_mode's group bits
 * then show the ACL's mask. 0: no ACL; 1: an ACL that grants nobody but
 * the owner and this user; -EPERM: one that grants a group or another
 * user (or one this code cannot read).
 */
static uint32_t acl_le(const uint8_t *p, size_t n)
{
	uint32_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

static int acl_private(int fd, uid_t me)
{
	uint8_t buf[4 + 8 * 64];
	unsigned int mask = 07, tag, perm;
	ssize_t n;
	size_t i;

	n = fgetxattr(fd, "system.posix_acl_access", buf, sizeof(buf));
	if (n < 0)
		return errno == ENODATA || errno == ENOTSUP ? 0 : -EPERM;
	if (n < 4 || (n - 4) % 8 || acl_le(buf, 4) != 2)
		return -EPERM;
	for (i = 4; i < (size_t)n; i += 8)
		if (acl_le(buf + i, 2) == ACL_TAG_MASK)
			mask = acl_le(buf + i + 2, 2) & 07;
	for (i = 4; i < (size_t)n; i += 8) {
		tag = acl_le(buf + i, 2);
		perm = acl_le(buf + i + 2, 2) & 07;
		if (tag == ACL_TAG_OTHER && perm)
			return -EPERM;
		if ((tag == ACL_TAG_GROUP_OBJ || tag == ACL_TAG_GROUP) &&
		    (perm & mask))
			return -EPERM;
		if (tag == ACL_TAG_USER && acl_le(buf + i + 4, 4) != me &&
		    (perm & mask))
			return -EPERM;
	}
	return 1;
}

/* The file as the user must fix it: type, owner, mode. */
static int check_file(int fd, const char *path, char *err, size_t errlen)
{
	uid_t me = geteuid();
	struct stat st;
	int ret;

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
	/* Whoever owns the file can rewrite it: this user or root only. */
	if (st.st_uid != me && st.st_uid != 0) {
		snprintf(err, errlen,
			 "--auth-file %s: refused, owned by uid %u, not by "
			 "this user (uid %u) or root: chown %u %s",
			 path, (unsigned int)st.st_uid, (unsigned int)me,
			 (unsigned int)me, path);
		return -EPERM;
	}
	ret = acl_private(fd, me);
	if (ret < 0) {
		snprintf(err, errlen,
			 "--auth-file %s: refused, its ACL lets a group or "
			 "another user read or write it: setfacl -b %s && "
			 "chmod 600 %s",
			 path, path, path);
		return -EPERM;
	}
	/* With an ACL, the group bits are its mask, checked above. */
	if (st.st_mode & (ret ? S_IRWXO : S_IRWXG | S_IRWXO)) {
		snprintf(err, errlen,
			 "--auth-file %s: refused, readable or writable by "
			 "group or others (mode %04o): chmod 600 %s",
			 path, (unsigned int)(st.st_mode & 07777), path);
		return -EPERM;
	}
	return 0;
}

static int b64_val(uint8_t c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

/* Hex digits, an even number of them: the key bytes, or -EINVAL. */
static ssize_t hex_decode(const uint8_t *in, size_t n, uint8_t *out,
			  size_t room)
{
	size_t i;

	if (n % 2)
		return -EINVAL;
	if (n / 2 > room)
		return -E2BIG;
	for (i = 0; i < n; i += 2)
		out[i / 2] = (uint8_t)(rdp_hex_digit(in[i]) << 4 |
				       rdp_hex_digit(in[i + 1]));
	return (ssize_t)(n / 2);
}

/* Standard base64 (RFC 4648, padded, one line): the bytes, or -EINVAL. */
static ssize_t b64_decode(const uint8_t *in, size_t n, uint8_t *out,
			  size_t room)
{
	size_t i, len = 0, pad = 0;
	uint32_t acc = 0;
	int v;

	if (!n || n % 4)
		return -EINVAL;
	if (in[n - 1] == '=')
		pad = in[n - 2] == '=' ? 2 : 1;
	if (n / 4 * 3 - pad > room)
		return -E2BIG;
	for (i = 0; i < n; i++) {
		v = i < n - pad ? b64_val(in[i]) : 0;
		if (v < 0)
			return -EINVAL;
		acc = acc << 6 | (uint32_t)v;
		if (i % 4 < 3)
			continue;
		out[len++] = (uint8_t)(acc >> 16);
		out[len++] = (uint8_t)(acc >> 8);
		out[len++] = (uint8_t)acc;
		acc = 0;
	}
	return (ssize_t)(len - pad);
}

/*
 * The key is the decoded material: a text of hex digits only is hex,
 * anything else must be base64. -EINVAL with the reason in err.
 */
static int decode_key(const uint8_t *text, size_t n, const char *path,
		      struct rdp_secret *s, char *err, size_t errlen)
{
	ssize_t got;
	size_t i;

	for (i = 0; i < n && rdp_hex_digit(text[i]) >= 0; i++)
		;
	if (n && i == n)
		got = hex_decode(text, n, s->key, sizeof(s->key));
	else
		got = b64_decode(text, n, s->key, sizeof(s->key));
	if (got == -E2BIG) {
		snprintf(
			err, errlen,
			"--auth-file %s: the secret is over %d bytes: " HOW_TO_MAKE,
			path, RDP_SECRET_MAX_BYTES, path, path);
		return -EINVAL;
	}
	if (got < 0) {
		snprintf(err, errlen,
			 "--auth-file %s: the secret is not one line of hex "
			 "or base64 (%zu characters): " HOW_TO_MAKE,
			 path, n, path, path);
		return -EINVAL;
	}
	if (got < RDP_SECRET_MIN_BYTES) {
		explicit_bzero(s->key, sizeof(s->key));
		snprintf(err, errlen,
			 "--auth-file %s: the secret has %zd bytes of key "
			 "material, at least %d needed: " HOW_TO_MAKE,
			 path, got, RDP_SECRET_MIN_BYTES, path, path);
		return -EINVAL;
	}
	s->len = (size_t)got;
	return 0;
}

/* Up to sizeof(buf) bytes of the file; its length, or -errno. */
static ssize_t read_text(int fd, uint8_t *buf, size_t room)
{
	size_t len = 0;
	ssize_t n;

	while (len < room) {
		n = read(fd, buf + len, room - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		len += (size_t)n;
	}
	return (ssize_t)len;
}

static int read_key(int fd, const char *path, struct rdp_secret *s, char *err,
		    size_t errlen)
{
	/* The longest form (hex) and a CRLF; one more byte to see "over". */
	uint8_t buf[2 * RDP_SECRET_MAX_BYTES + 3];
	ssize_t got;
	size_t len;
	int ret;

	got = read_text(fd, buf, sizeof(buf));
	if (got < 0) {
		ret = (int)got;
		snprintf(err, errlen, "--auth-file %s: %s", path,
			 strerror(-ret));
		goto out_wipe;
	}
	len = (size_t)got;
	/* One trailing newline (or CRLF) is the editor's, not the key's. */
	if (len && buf[len - 1] == '\n')
		len--;
	if (len && buf[len - 1] == '\r')
		len--;
	if (len > 2 * RDP_SECRET_MAX_BYTES) {
		ret = -EINVAL;
		snprintf(
			err, errlen,
			"--auth-file %s: the secret is over %d characters: " HOW_TO_MAKE,
			path, 2 * RDP_SECRET_MAX_BYTES, path, path);
		goto out_wipe;
	}
	ret = decode_key(buf, len, path, s, err, errlen);
out_wipe:
	explicit_bzero(buf, sizeof(buf));
	return ret;
}

int rdp_secret_load(const char *path, struct rdp_secret *s, char *err,
		    size_t errlen)
{
	int fd, ret;

	explicit_bzero(s, sizeof(*s));
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
	if (ret)
		explicit_bzero(s, sizeof(*s));
	return ret;
}

void rdp_secret_clear(struct rdp_secret *s)
{
	explicit_bzero(s, sizeof(*s));
}

static size_t secret_map_bytes(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	return (sizeof(struct rdp_secret) + page - 1) / page * page;
}

int rdp_secret_new(struct rdp_secret **out)
{
	size_t bytes = secret_map_bytes();
	void *p;

	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	/* Never in a core dump. */
	if (madvise(p, bytes, MADV_DONTDUMP)) {
		int e = errno;

		munmap(p, bytes);
		return -e;
	}
	/* Out of swap where RLIMIT_MEMLOCK allows: best effort. */
	(void)mlock(p, bytes);
	*out = p;
	return 0;
}

void rdp_secret_free(struct rdp_secret *s)
{
	size_t bytes = secret_map_bytes();

	if (!s)
		return;
	explicit_bzero(s, sizeof(*s));
	munlock(s, bytes);
	munmap(s, bytes);
}

#ifdef HAVE_OPENSSL
int rdp_random_bytes(void *buf, size_t len)
{
	return RAND_bytes(buf, (int)len) == 1 ? 0 : -EIO;
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
int rdp_random_bytes(void *buf, size_t len)
{
	if (sodium_init() < 0)
		return -EIO;
	randombytes_buf(buf, len);
	return 0;
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

int rdp_bytes_equal_ct(const void *a, const void *b, size_t len)
{
	return CT_MEMCMP(a, b, len) == 0;
}

const char *rdp_crypto_name(void)
{
	return CRYPTO_NAME;
}

int rdp_hmac_sha256(const struct rdp_secret *s, const struct rdp_bytes *parts,
		    size_t n_parts, uint8_t out[RDP_HMAC_BYTES])
{
	return rdp_hmac_sha256_key(s->key, s->len, parts, n_parts, out);
}
