/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The shared secret and its handshake: the secret file's checks, the
 * library's HMAC against RFC 4231, both sides of the challenge-response
 * over a socketpair (right and wrong secrets, a replayed, reflected and
 * truncated exchange), the sealed channel that follows (a message changed,
 * one from another session, a plain refusal), and --allow's address
 * ranges.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <cmocka.h>

#include <rdmaperf/auth.h>
#include <rdmaperf/cidr.h>
#include <rdmaperf/log.h>
#include <rdmaperf/oob.h>
#include <rdmaperf/secret.h>

#include "seal_frame.h"

#define IO_MS 5000

static void key_of(struct rdp_secret *s, const char *text)
{
	memset(s, 0, sizeof(*s));
	s->len = strlen(text);
	memcpy(s->key, text, s->len);
}

/* RFC 4231 test case 2: key "Jefe". */
static void test_hmac_rfc4231(void **state)
{
	static const uint8_t want[RDP_HMAC_BYTES] = {
		0x5b, 0xdc, 0xc1, 0x46, 0xbf, 0x60, 0x75, 0x4e,
		0x6a, 0x04, 0x24, 0x26, 0x08, 0x95, 0x75, 0xc7,
		0x5a, 0x00, 0x3f, 0x08, 0x9d, 0x27, 0x39, 0x83,
		0x9d, 0xec, 0x58, 0xb9, 0x64, 0xec, 0x38, 0x43,
	};
	const char *msg = "what do ya want for nothing?";
	struct rdp_bytes split[] = { { msg, 10 }, { msg + 10, 18 } };
	struct rdp_bytes whole[] = { { msg, 28 } };
	uint8_t out[RDP_HMAC_BYTES];
	struct rdp_secret s;

	(void)state;
	key_of(&s, "Jefe");
	assert_int_equal(rdp_hmac_sha256(&s, whole, 1, out), 0);
	assert_memory_equal(out, want, sizeof(want));
	/* The pieces are one message: split anywhere, the same MAC. */
	assert_int_equal(rdp_hmac_sha256(&s, split, 2, out), 0);
	assert_memory_equal(out, want, sizeof(want));
	assert_true(rdp_bytes_equal_ct(out, want, sizeof(want)));
	out[31] ^= 1;
	assert_false(rdp_bytes_equal_ct(out, want, sizeof(want)));
}

static void test_random(void **state)
{
	uint8_t a[32], b[32];

	(void)state;
	assert_int_equal(rdp_random_bytes(a, sizeof(a)), 0);
	assert_int_equal(rdp_random_bytes(b, sizeof(b)), 0);
	assert_memory_not_equal(a, b, sizeof(a));
}

/* A secret file with mode and contents; its path in path. */
static void secret_file(char *path, size_t len, mode_t mode, const char *text)
{
	int fd;

	snprintf(path, len, "/tmp/rdp-secret-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	assert_int_equal(fchmod(fd, mode), 0);
	close(fd);
}

/* 32 bytes 00 01 .. 1f, as base64 and as hex. */
#define KEY32_B64 "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
#define KEY32_HEX                                                              \
	"000102030405060708090a0b0c0d0e0f101112131415161718191A1B1C1D1E1F"

static void assert_key32(const struct rdp_secret *s)
{
	size_t i;

	assert_int_equal(s->len, 32);
	for (i = 0; i < 32; i++)
		assert_int_equal(s->key[i], i);
}

/* The accepted forms: the key is the decoded material. */
static void test_secret_load(void **state)
{
	char path[64], err[512];
	struct rdp_secret s;

	(void)state;
	secret_file(path, sizeof(path), 0600, KEY32_B64 "\n");
	assert_int_equal(rdp_secret_load(path, &s, err, sizeof(err)), 0);
	assert_key32(&s);
	rdp_secret_clear(&s);
	assert_int_equal(s.len, 0);
	unlink(path);
	secret_file(path, sizeof(path), 0400, KEY32_HEX "\r\n");
	assert_int_equal(rdp_secret_load(path, &s, err, sizeof(err)), 0);
	assert_key32(&s);
	unlink(path);
	/* No newline at all; 48 bytes of base64 without padding. */
	secret_file(path, sizeof(path), 0600,
		    "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWYwMTIzNDU2Nzg5"
		    "YWJjZGVm");
	assert_int_equal(rdp_secret_load(path, &s, err, sizeof(err)), 0);
	assert_int_equal(s.len, 48);
	assert_memory_equal(s.key, "0123456789abcdef0123456789abcdef", 32);
	unlink(path);
	/* Readable by group or others: refused, with the fix. */
	secret_file(path, sizeof(path), 0640, KEY32_B64 "\n");
	assert_int_equal(rdp_secret_load(path, &s, err, sizeof(err)), -EPERM);
	assert_non_null(strstr(err, "group or others (mode 0640)"));
	assert_non_null(strstr(err, "chmod 600"));
	assert_int_equal(chmod(path, 0604), 0);
	assert_int_equal(rdp_secret_load(path, &s, err, sizeof(err)), -EPERM);
	unlink(path);
	assert_int_equal(rdp_secret_load(path, &s, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, path));
	assert_int_equal(rdp_secret_load("/tmp", &s, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "not a regular file"));
}

/* One refused text: -EINVAL, the file named, the reason, how to make
 * one, and nothing of the key left behind. */
static void refused(const char *text, const char *why)
{
	char path[64], err[512], how[256];
	struct rdp_secret s;
	int ret;

	secret_file(path, sizeof(path), 0600, text);
	memset(&s, 0xa5, sizeof(s));
	ret = rdp_secret_load(path, &s, err, sizeof(err));
	if (ret != -EINVAL)
		fail_msg("'%s': %d, not refused", text, ret);
	assert_non_null(strstr(err, path));
	if (!strstr(err, why))
		fail_msg("'%s': wanted '%s' in: %s", text, why, err);
	snprintf(how, sizeof(how),
		 "make one with 'head -c 32 /dev/urandom | base64 > %s && "
		 "chmod 600 %s'",
		 path, path);
	assert_non_null(strstr(err, how));
	assert_int_equal(s.len, 0);
	assert_int_equal(s.key[0], 0);
	unlink(path);
}

/* Any text is not a secret: passphrases, short keys, two lines. */
static void test_secret_refused(void **state)
{
	char big[2 * RDP_SECRET_MAX_BYTES + 8];

	(void)state;
	refused("", "not one line of hex or base64 (0 characters)");
	refused("\n", "not one line of hex or base64");
	refused("correct horse battery staple\n", "not one line of hex");
	refused("0123456789abcdefXYZ\n", "not one line of hex or base64");
	/* 16 bytes, as base64 and as hex: too short. */
	refused("AAECAwQFBgcICQoLDA0ODw==\n",
		"has 16 bytes of key material, at least 32 needed");
	refused("000102030405060708090a0b0c0d0e0f\n",
		"has 16 bytes of key material, at least 32 needed");
	/* 31 bytes of hex. */
	refused("000102030405060708090a0b0c0d0e0f"
		"101112131415161718191a1b1c1d1e\n",
		"has 31 bytes");
	/* An odd number of hex digits, bad padding, a second line. */
	refused(KEY32_HEX "0\n", "not one line of hex or base64");
	refused("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=A\n",
		"not one line");
	refused("AAECAwQFBgcICQoLDA0O=xAREhMUFRYXGBkaGxwdHh8=\n",
		"not one line");
	refused(KEY32_B64 "\n\n", "not one line");
	refused(KEY32_B64 "\n" KEY32_B64 "\n", "not one line");
	refused(" " KEY32_B64 "\n", "not one line");
	/* Too long: over the largest key, or over the longest text. */
	memset(big, 'a', sizeof(big));
	big[sizeof(big) - 1] = '\0';
	refused(big, "is over 2048 characters");
	memset(big, 'Q', 1400); /* not hex */
	big[1400] = '\0';
	refused(big, "is over 1024 bytes");
}

/* The owner must be this user or root: another's file could be
 * rewritten by them. Needs root to give a file away. */
static void test_secret_owner(void **state)
{
	char path[64], err[512];
	struct rdp_secret s;

	(void)state;
	if (geteuid() != 0)
		skip();
	secret_file(path, sizeof(path), 0600, KEY32_B64 "\n");
	assert_int_equal(chown(path, 4242, 4242), 0);
	assert_int_equal(rdp_secret_load(path, &s, err, sizeof(err)), -EPERM);
	assert_non_null(strstr(err, "owned by uid 4242, not by this user "
				    "(uid 0) or root: chown 0 "));
	assert_int_equal(s.len, 0);
	/* Root's file is anyone's to trust. */
	assert_int_equal(chown(path, 0, 0), 0);
	assert_int_equal(rdp_secret_load(path, &s, err, sizeof(err)), 0);
	assert_key32(&s);
	rdp_secret_clear(&s);
	unlink(path);
}

/* Sets path's access ACL: owner r, user uid r (if uid >= 0), group
 * group_perm, mask mask, other 0; 0 or -errno (no ACLs on this fs). */
static int set_acl(const char *path, long uid, unsigned int group_perm,
		   unsigned int mask)
{
	uint8_t b[4 + 8 * 5], *e = b + 4;
	struct {
		unsigned int tag, perm;
		uint32_t id;
	} ent[] = {
		{ 0x01, 4, UINT32_MAX },	  { 0x02, 4, (uint32_t)uid },
		{ 0x04, group_perm, UINT32_MAX }, { 0x10, mask, UINT32_MAX },
		{ 0x20, 0, UINT32_MAX },
	};
	size_t i;

	memset(b, 0, sizeof(b));
	b[0] = 2; /* POSIX_ACL_XATTR_VERSION, little-endian */
	for (i = 0; i < 5; i++) {
		if (i == 1 && uid < 0)
			continue;
		e[0] = (uint8_t)ent[i].tag;
		e[2] = (uint8_t)ent[i].perm;
		e[4] = (uint8_t)ent[i].id;
		e[5] = (uint8_t)(ent[i].id >> 8);
		e[6] = (uint8_t)(ent[i].id >> 16);
		e[7] = (uint8_t)(ent[i].id >> 24);
		e += 8;
	}
	if (setxattr(path, "system.posix_acl_access", b, (size_t)(e - b), 0))
		return -errno;
	return 0;
}

/* systemd's credential: root's file, 0400, an ACL entry that lets the
 * service's user read it (the group bits show the mask). Accepted for
 * this user; refused when the ACL lets anybody else in. */
static void test_secret_acl(void **state)
{
	char path[64], err[512];
	struct rdp_secret s;
	struct stat st;

	(void)state;
	secret_file(path, sizeof(path), 0400, KEY32_B64 "\n");
	if (set_acl(path, (long)geteuid(), 0, 4)) {
		unlink(path);
		skip();
	}
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0440); /* the mask */
	assert_int_equal(rdp_secret_load(path, &s, err, sizeof(err)), 0);
	assert_key32(&s);
	/* Another user named in the ACL. */
	assert_int_equal(set_acl(path, 4242, 0, 4), 0);
	assert_int_equal(rdp_secret_load(path, &s, err, sizeof(err)), -EPERM);
	assert_non_null(strstr(err, "its ACL lets a group or another user "
				    "read or write it: setfacl -b"));
	/* The owning group, through the mask. */
	assert_int_equal(set_acl(path, -1, 4, 4), 0);
	assert_int_equal(rdp_secret_load(path, &s, err, sizeof(err)), -EPERM);
	/* ... but not where the mask takes it away. */
	assert_int_equal(set_acl(path, 4242, 4, 0), 0);
	assert_int_equal(rdp_secret_load(path, &s, err, sizeof(err)), 0);
	rdp_secret_clear(&s);
	unlink(path);
}

/* The VmFlags of the mapping at addr, from /proc/self/smaps. */
static int vm_flags(const void *addr, char *flags, size_t len)
{
	char line[512], want[32];
	int in = 0;
	FILE *f;

	snprintf(want, sizeof(want), "%lx-", (unsigned long)addr);
	f = fopen("/proc/self/smaps", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (strchr(line, '-') && strchr(line, ' ') &&
		    strchr(line, '-') < strchr(line, ' '))
			in = !strncmp(line, want, strlen(want));
		if (in && !strncmp(line, "VmFlags:", 8)) {
			snprintf(flags, len, "%s", line + 8);
			fclose(f);
			return 0;
		}
	}
	fclose(f);
	return -1;
}

/* The secret's own pages: zeroed, page aligned, never in a core dump. */
static void test_secret_memory(void **state)
{
	long page = sysconf(_SC_PAGESIZE);
	struct rdp_secret *s = NULL;
	char flags[512], path[64], err[512];
	size_t i;

	(void)state;
	assert_int_equal(rdp_secret_new(&s), 0);
	assert_non_null(s);
	assert_int_equal((uintptr_t)s % (uintptr_t)page, 0);
	assert_int_equal(s->len, 0);
	for (i = 0; i < sizeof(s->key); i++)
		assert_int_equal(s->key[i], 0);
	assert_int_equal(vm_flags(s, flags, sizeof(flags)), 0);
	if (!strstr(flags, " dd"))
		fail_msg("no MADV_DONTDUMP on the secret: VmFlags:%s", flags);
	secret_file(path, sizeof(path), 0600, KEY32_HEX "\n");
	assert_int_equal(rdp_secret_load(path, s, err, sizeof(err)), 0);
	assert_key32(s);
	unlink(path);
	rdp_secret_free(s);
	rdp_secret_free(NULL);
}

/* Each proof covers both nonces under a label of its own side. */
static void test_proofs(void **state)
{
	uint8_t nc[32], ns[32], a[32], b[32];
	struct rdp_secret s, t;

	(void)state;
	key_of(&s, "a secret of sixteen bytes or more");
	key_of(&t, "another secret of sixteen bytes");
	memset(nc, 1, sizeof(nc));
	memset(ns, 2, sizeof(ns));
	assert_int_equal(rdp_auth_proof(&s, RDP_AUTH_SERVER, nc, ns, a), 0);
	assert_int_equal(rdp_auth_proof(&s, RDP_AUTH_CLIENT, nc, ns, b), 0);
	assert_memory_not_equal(a, b, 32);
	assert_int_equal(rdp_auth_proof(&s, RDP_AUTH_SERVER, ns, nc, b), 0);
	assert_memory_not_equal(a, b, 32);
	assert_int_equal(rdp_auth_proof(&t, RDP_AUTH_SERVER, nc, ns, b), 0);
	assert_memory_not_equal(a, b, 32);
	assert_int_equal(rdp_auth_proof(&s, RDP_AUTH_SERVER, nc, ns, b), 0);
	assert_memory_equal(a, b, 32);
}

struct auth_server {
	struct rdp_oob oob;
	struct rdp_secret s;
	pthread_t tid;
	int ret;
	char why[256];
};

/* The server's side as the gate runs it: AUTH 1, then the rest. */
static void *auth_server_main(void *arg)
{
	struct auth_server *a = arg;
	struct rdp_msg m;

	a->ret = rdp_oob_recv(&a->oob, &m, IO_MS);
	if (!a->ret && m.type != RDP_MSG_AUTH)
		a->ret = -EPROTO;
	if (!a->ret)
		a->ret = rdp_auth_server(&a->oob, &a->s, &m.u.auth, IO_MS,
					 a->why, sizeof(a->why));
	return NULL;
}

static void start_server(struct auth_server *a, struct rdp_oob *cli,
			 const char *key)
{
	memset(a, 0, sizeof(*a));
	key_of(&a->s, key);
	assert_int_equal(rdp_oob_loopback(IO_MS, cli, &a->oob), 0);
	assert_int_equal(pthread_create(&a->tid, NULL, auth_server_main, a), 0);
}

static void finish(struct auth_server *a, struct rdp_oob *cli)
{
	assert_int_equal(pthread_join(a->tid, NULL), 0);
	rdp_oob_close(cli);
	rdp_oob_close(&a->oob);
}

static void test_handshake_both_ways(void **state)
{
	const char *key = "the same secret on both sides";
	struct auth_server a;
	struct rdp_secret s;
	struct rdp_oob cli;

	(void)state;
	/* Right secret: both proofs pass. */
	key_of(&s, key);
	start_server(&a, &cli, key);
	assert_int_equal(rdp_auth_client(&cli, &s), 0);
	finish(&a, &cli);
	assert_int_equal(a.ret, 0);
	/* Wrong secret: the client refuses the server's proof and sends
	 * none; the server sees the client leave without one. */
	key_of(&s, "not the server's secret at all");
	start_server(&a, &cli, key);
	assert_int_equal(rdp_auth_client(&cli, &s), -EACCES);
	rdp_oob_close(&cli);
	assert_int_equal(pthread_join(a.tid, NULL), 0);
	assert_int_equal(a.ret, -ECONNRESET);
	rdp_oob_close(&a.oob);
}

/* A scripted client: AUTH 1 with nonce nc; the server's AUTH 2 back. */
static void script_start(struct auth_server *a, struct rdp_oob *cli,
			 const uint8_t *nc, struct rdp_msg *answer)
{
	struct rdp_msg m = { .type = RDP_MSG_AUTH };

	start_server(a, cli, "the server's secret, 32 bytes..");
	m.u.auth.step = RDP_AUTH_CLIENT_NONCE;
	memcpy(m.u.auth.nonce, nc, 32);
	assert_int_equal(rdp_oob_send(cli, &m), 0);
	assert_int_equal(rdp_oob_recv(cli, answer, IO_MS), 0);
	assert_int_equal(answer->type, RDP_MSG_AUTH);
	assert_int_equal(answer->u.auth.step, RDP_AUTH_SERVER_PROOF);
}

/* What the server answers a client's AUTH 3: its ERROR text. */
static void expect_refused(struct auth_server *a, struct rdp_oob *cli)
{
	struct rdp_msg m;

	assert_int_equal(rdp_oob_recv(cli, &m, IO_MS), 0);
	assert_int_equal(m.type, RDP_MSG_ERROR);
	assert_string_equal(m.u.error.text, "authentication failed");
	finish(a, cli);
	assert_int_equal(a->ret, -EACCES);
}

/* One AUTH exchange with a real server, up to the server's proof: the
 * client's nonce and the server's answer. */
struct script {
	struct auth_server a;
	struct rdp_oob cli;
	struct rdp_msg answer;
	uint8_t nc[32];
};

/* Start the exchange with a client nonce of FILL bytes. */
static void script_begin(struct script *x, int fill)
{
	memset(x->nc, fill, sizeof(x->nc));
	script_start(&x->a, &x->cli, x->nc, &x->answer);
}

/* The client's correct proof of the exchange, in PROOF. */
static void client_proof(struct script *x, struct rdp_msg *proof)
{
	proof->u.auth.step = RDP_AUTH_CLIENT_PROOF;
	assert_int_equal(rdp_auth_proof(&x->a.s, RDP_AUTH_CLIENT, x->nc,
					x->answer.u.auth.nonce,
					proof->u.auth.mac),
			 0);
}

/* A client's proof recorded from a good exchange, sent again in a new
 * one: the server's nonce changed, so it fails. */
static void test_replay(void **state)
{
	struct rdp_msg proof = { .type = RDP_MSG_AUTH };
	struct script x;

	(void)state;
	script_begin(&x, 7);
	client_proof(&x, &proof);
	assert_int_equal(rdp_oob_send(&x.cli, &proof), 0);
	finish(&x.a, &x.cli);
	assert_int_equal(x.a.ret, 0);
	/* The same client nonce and the recorded proof, replayed. */
	script_start(&x.a, &x.cli, x.nc, &x.answer);
	assert_int_equal(rdp_oob_send(&x.cli, &proof), 0);
	expect_refused(&x.a, &x.cli);
}

/* The server's own proof sent back as the client's: the labels differ. */
static void test_reflection(void **state)
{
	struct script x;

	(void)state;
	script_begin(&x, 9);
	x.answer.u.auth.step = RDP_AUTH_CLIENT_PROOF;
	assert_int_equal(rdp_oob_send(&x.cli, &x.answer), 0);
	expect_refused(&x.a, &x.cli);
}

/* A proof cut short: a malformed message, never accepted. */
static void test_truncated(void **state)
{
	struct rdp_msg proof = { .type = RDP_MSG_AUTH };
	uint8_t buf[RDP_WIRE_HDR_BYTES + RDP_WIRE_MAX_PAYLOAD];
	struct script x;
	size_t len;

	(void)state;
	script_begin(&x, 3);
	client_proof(&x, &proof);
	assert_int_equal(rdp_wire_encode(&proof, buf, sizeof(buf), &len), 0);
	buf[11] = 64; /* the header announces one byte less, and so it is */
	assert_int_equal(write(x.cli.fd, buf, len - 1), (ssize_t)(len - 1));
	finish(&x.a, &x.cli);
	assert_int_equal(x.a.ret, -EPROTO);
	/* A wrong step where the proof is due. */
	script_start(&x.a, &x.cli, x.nc, &x.answer);
	proof.u.auth.step = RDP_AUTH_CLIENT_NONCE;
	assert_int_equal(rdp_oob_send(&x.cli, &proof), 0);
	assert_int_equal(rdp_oob_recv(&x.cli, &x.answer, IO_MS), 0);
	assert_int_equal(x.answer.type, RDP_MSG_ERROR);
	finish(&x.a, &x.cli);
	assert_int_equal(x.a.ret, -EACCES);
}

/* A server that is not what it claims: the client refuses it. */
static void test_client_refuses(void **state)
{
	struct rdp_msg m = { .type = RDP_MSG_AUTH };
	struct rdp_oob cli, srv;
	struct rdp_secret s;

	(void)state;
	key_of(&s, "the client's secret, long enough");
	/* A forged proof. */
	assert_int_equal(rdp_oob_loopback(IO_MS, &cli, &srv), 0);
	m.u.auth.step = RDP_AUTH_SERVER_PROOF;
	memset(m.u.auth.mac, 0x42, sizeof(m.u.auth.mac));
	assert_int_equal(rdp_oob_send(&srv, &m), 0);
	assert_int_equal(rdp_auth_client(&cli, &s), -EACCES);
	rdp_oob_close(&cli);
	rdp_oob_close(&srv);
	/* An ERROR instead of a proof (a server without a secret). */
	assert_int_equal(rdp_oob_loopback(IO_MS, &cli, &srv), 0);
	rdp_oob_send_error(&srv, -EACCES, "this server runs without");
	assert_int_equal(rdp_auth_client(&cli, &s), -EACCES);
	rdp_oob_close(&cli);
	rdp_oob_close(&srv);
	/* Silence until the deadline. */
	assert_int_equal(rdp_oob_loopback(100, &cli, &srv), 0);
	assert_int_equal(rdp_auth_client(&cli, &s), -EACCES);
	rdp_oob_close(&cli);
	rdp_oob_close(&srv);
}

/* A handshake that passed: both ends sealed, with mirrored keys. */
static void sealed_pair(struct auth_server *a, struct rdp_oob *cli)
{
	const char *key = "the same secret on both sides";
	struct rdp_secret s;

	key_of(&s, key);
	start_server(a, cli, key);
	assert_int_equal(rdp_auth_client(cli, &s), 0);
	assert_int_equal(pthread_join(a->tid, NULL), 0);
	assert_int_equal(a->ret, 0);
	assert_true(cli->seal.on && a->oob.seal.on);
	assert_memory_equal(cli->seal.key_tx, a->oob.seal.key_rx, 32);
	assert_memory_equal(cli->seal.key_rx, a->oob.seal.key_tx, 32);
	assert_int_equal(cli->seal.seq_tx + a->oob.seal.seq_tx, 0);
}

static void close_pair(struct auth_server *a, struct rdp_oob *cli)
{
	rdp_oob_close(cli);
	rdp_oob_close(&a->oob);
	assert_false(cli->seal.on || a->oob.seal.on); /* keys wiped */
}

static void hello_msg(struct rdp_msg *m)
{
	memset(m, 0, sizeof(*m));
	m->type = RDP_MSG_HELLO;
	strcpy(m->u.hello.hostname, "hostA");
}

static void params_msg(struct rdp_msg *m)
{
	memset(m, 0, sizeof(*m));
	m->type = RDP_MSG_PARAMS;
	strcpy(m->u.params.test, "write_bw");
	m->u.params.size_bytes = 65536;
	m->u.params.num_qps = 1;
}

/* After the handshake, messages both ways carry their tag and arrive;
 * an ERROR is sealed too. */
static void test_sealed_channel(void **state)
{
	struct auth_server a;
	struct rdp_msg m, got;
	struct rdp_oob cli;
	uint8_t hdr[RDP_WIRE_HDR_BYTES];

	(void)state;
	sealed_pair(&a, &cli);
	hello_msg(&m);
	assert_int_equal(rdp_oob_send(&cli, &m), 0);
	assert_int_equal(rdp_oob_recv(&a.oob, &got, IO_MS), 0);
	assert_int_equal(got.type, RDP_MSG_HELLO);
	assert_string_equal(got.u.hello.hostname, "hostA");
	assert_int_equal(rdp_oob_send(&a.oob, &got), 0);
	assert_int_equal(rdp_oob_recv(&cli, &got, IO_MS), 0);
	params_msg(&m);
	assert_int_equal(rdp_oob_send(&cli, &m), 0);
	assert_int_equal(rdp_oob_recv(&a.oob, &got, IO_MS), 0);
	assert_int_equal(got.u.params.size_bytes, 65536);
	rdp_oob_send_error(&a.oob, -ENOMEM, "no memory for it");
	assert_int_equal(recv(cli.fd, hdr, sizeof(hdr), MSG_PEEK),
			 (ssize_t)sizeof(hdr));
	/* code, a 2-byte length and 16 characters, then the tag */
	assert_int_equal(hdr[11], 4 + 2 + 16 + 32);
	assert_int_equal(rdp_oob_recv(&cli, &got, IO_MS), 0);
	assert_int_equal(got.type, RDP_MSG_ERROR);
	assert_string_equal(got.u.error.text, "no memory for it");
	assert_int_equal(cli.seal.seq_tx, 2);
	assert_int_equal(cli.seal.seq_rx, 2);
	assert_int_equal(a.oob.seal.seq_tx, 2);
	assert_int_equal(a.oob.seal.seq_rx, 2);
	close_pair(&a, &cli);
}

/* A PARAMS changed on the way: refused undecoded with one line, the
 * sender told why (sealed), and the session over. */
static void test_sealed_tampered(void **state)
{
	uint8_t frame[FRAME_BYTES];
	struct auth_server a;
	struct rdp_oob cli;
	struct rdp_msg m;
	size_t len;

	(void)state;
	sealed_pair(&a, &cli);
	params_msg(&m);
	len = seal_msg(&cli.seal, &m, frame);
	frame[RDP_WIRE_HDR_BYTES + 20] ^= 0x04;
	assert_int_equal(write(cli.fd, frame, len), (ssize_t)len);
	assert_int_equal(rdp_oob_recv(&a.oob, &m, IO_MS), -EBADMSG);
	assert_non_null(strstr(rdp_last_error(),
			       ": a PARAMS message failed its authentication "
			       "check (altered, replayed or out of order on "
			       "the way): ending the session"));
	assert_int_equal(a.oob.seal.seq_rx, 0);
	assert_int_equal(rdp_oob_recv(&cli, &m, IO_MS), 0);
	assert_int_equal(m.type, RDP_MSG_ERROR);
	assert_int_equal(m.u.error.code, -EBADMSG);
	assert_string_equal(m.u.error.text,
			    "your PARAMS message failed its authentication "
			    "check (altered, replayed or out of order on the "
			    "way): ending the session");
	/* and nothing after it from that side */
	assert_int_equal(rdp_oob_recv(&cli, &m, IO_MS), -ECONNRESET);
	close_pair(&a, &cli);
}

/* Messages recorded in one session, sent in another: a HELLO at the
 * same place (sequence 0), a PARAMS after a fresh HELLO (sequence 1). */
static void test_sealed_replay(void **state)
{
	uint8_t hello[FRAME_BYTES], params[FRAME_BYTES];
	size_t hello_len, params_len;
	struct auth_server a;
	struct rdp_oob cli;
	struct rdp_msg m;

	(void)state;
	sealed_pair(&a, &cli);
	hello_msg(&m);
	hello_len = seal_msg(&cli.seal, &m, hello);
	params_msg(&m);
	params_len = seal_msg(&cli.seal, &m, params);
	assert_int_equal(write(cli.fd, hello, hello_len), (ssize_t)hello_len);
	assert_int_equal(write(cli.fd, params, params_len),
			 (ssize_t)params_len);
	assert_int_equal(rdp_oob_recv(&a.oob, &m, IO_MS), 0);
	assert_int_equal(rdp_oob_recv(&a.oob, &m, IO_MS), 0);
	assert_int_equal(m.type, RDP_MSG_PARAMS);
	close_pair(&a, &cli);

	sealed_pair(&a, &cli);
	assert_int_equal(write(cli.fd, hello, hello_len), (ssize_t)hello_len);
	assert_int_equal(rdp_oob_recv(&a.oob, &m, IO_MS), -EBADMSG);
	assert_non_null(strstr(rdp_last_error(), "a HELLO message failed"));
	close_pair(&a, &cli);

	sealed_pair(&a, &cli);
	hello_msg(&m);
	assert_int_equal(rdp_oob_send(&cli, &m), 0);
	assert_int_equal(rdp_oob_recv(&a.oob, &m, IO_MS), 0);
	assert_int_equal(write(cli.fd, params, params_len),
			 (ssize_t)params_len);
	assert_int_equal(rdp_oob_recv(&a.oob, &m, IO_MS), -EBADMSG);
	assert_non_null(strstr(rdp_last_error(), "a PARAMS message failed"));
	assert_int_equal(a.oob.seal.seq_rx, 1);
	close_pair(&a, &cli);
}

/* A server that checks the client's proof and refuses it anyway, as it
 * does a wrong one: a plain ERROR, its seal never on. */
static void *refusing_server_main(void *arg)
{
	struct auth_server *a = arg;
	struct rdp_msg m;
	uint8_t nc[32];

	a->ret = rdp_oob_recv(&a->oob, &m, IO_MS);
	memcpy(nc, m.u.auth.nonce, sizeof(nc));
	m.u.auth.step = RDP_AUTH_SERVER_PROOF;
	memset(m.u.auth.nonce, 0x77, sizeof(m.u.auth.nonce));
	if (!a->ret)
		a->ret = rdp_auth_proof(&a->s, RDP_AUTH_SERVER, nc,
					m.u.auth.nonce, m.u.auth.mac);
	if (!a->ret)
		a->ret = rdp_oob_send(&a->oob, &m);
	if (!a->ret)
		a->ret = rdp_oob_recv(&a->oob, &m, IO_MS);
	rdp_oob_send_error(&a->oob, -EACCES, "authentication failed");
	return NULL;
}

/*
 * The client sealed its side after AUTH 3, the server refused the proof
 * before its seal: the client still shows the server's text, marked
 * unauthenticated, and ends. The mirror on the server: a plain ERROR
 * before any sealed message is shown the same way; after one, it is a
 * message that failed its check.
 */
static void test_plain_refusal(void **state)
{
	const char *key = "the same secret on both sides";
	uint8_t frame[FRAME_BYTES];
	struct auth_server a;
	struct rdp_secret s;
	struct rdp_oob cli;
	struct rdp_msg m;
	size_t len;

	(void)state;
	memset(&a, 0, sizeof(a));
	key_of(&a.s, key);
	key_of(&s, key);
	assert_int_equal(rdp_oob_loopback(IO_MS, &cli, &a.oob), 0);
	assert_int_equal(pthread_create(&a.tid, NULL, refusing_server_main, &a),
			 0);
	assert_int_equal(rdp_auth_client(&cli, &s), 0);
	assert_true(cli.seal.on);
	assert_int_equal(rdp_oob_recv(&cli, &m, IO_MS), -EACCES);
	assert_non_null(strstr(rdp_last_error(),
			       "reports: authentication failed "
			       "(unauthenticated: it came without the "
			       "session's MAC)"));
	finish(&a, &cli);
	assert_int_equal(a.ret, 0);

	sealed_pair(&a, &cli);
	m.type = RDP_MSG_ERROR;
	m.u.error.code = -ENOSYS;
	strcpy(m.u.error.text, "plain words");
	assert_int_equal(rdp_wire_encode(&m, frame, sizeof(frame), &len), 0);
	assert_int_equal(write(cli.fd, frame, len), (ssize_t)len);
	assert_int_equal(rdp_oob_recv(&a.oob, &m, IO_MS), -EACCES);
	assert_non_null(strstr(rdp_last_error(), "reports: plain words (un"));
	hello_msg(&m);
	assert_int_equal(rdp_oob_send(&cli, &m), 0);
	assert_int_equal(rdp_oob_recv(&a.oob, &m, IO_MS), 0);
	assert_int_equal(write(cli.fd, frame, len), (ssize_t)len);
	assert_int_equal(rdp_oob_recv(&a.oob, &m, IO_MS), -EBADMSG);
	assert_non_null(strstr(rdp_last_error(), "an ERROR message failed"));
	close_pair(&a, &cli);
}

static int match4(const struct rdp_cidr_list *l, const char *a)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };

	assert_int_equal(inet_pton(AF_INET, a, &sin.sin_addr), 1);
	return rdp_cidr_match(l, (struct sockaddr *)&sin);
}

static int match6(const struct rdp_cidr_list *l, const char *a)
{
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6 };

	assert_int_equal(inet_pton(AF_INET6, a, &sin6.sin6_addr), 1);
	return rdp_cidr_match(l, (struct sockaddr *)&sin6);
}

static void test_cidr(void **state)
{
	struct rdp_cidr_list l;
	char err[256], text[256];

	(void)state;
	memset(&l, 0, sizeof(l));
	assert_true(match4(&l, "192.0.2.1")); /* empty: any */
	assert_int_equal(rdp_cidr_parse_list("10.0.0.0/8,192.0.2.7,"
					     "fd00::/8,2001:db8::1/128,"
					     "172.16.0.0/12",
					     &l, err, sizeof(err)),
			 0);
	assert_int_equal(l.n, 5);
	assert_true(match4(&l, "10.255.1.2"));
	assert_true(match4(&l, "192.0.2.7"));
	assert_false(match4(&l, "192.0.2.8"));
	assert_true(match4(&l, "172.31.255.255"));
	assert_false(match4(&l, "172.32.0.0"));
	assert_false(match4(&l, "11.0.0.1"));
	assert_true(match6(&l, "fdab::1"));
	assert_false(match6(&l, "fe80::1"));
	assert_true(match6(&l, "2001:db8::1"));
	assert_false(match6(&l, "2001:db8::2"));
	/* An IPv4 client on a dual-stack socket. */
	assert_true(match6(&l, "::ffff:10.1.2.3"));
	assert_false(match6(&l, "::ffff:11.1.2.3"));
	rdp_cidr_list_str(&l, text, sizeof(text));
	assert_string_equal(text, "10.0.0.0/8,192.0.2.7/32,fd00::/8,"
				  "2001:db8::1/128,172.16.0.0/12");
	assert_int_equal(rdp_cidr_parse_list("0.0.0.0/0", &l, err, sizeof(err)),
			 0);
	assert_true(match4(&l, "203.0.113.9"));
	assert_false(match6(&l, "2001:db8::2"));
}

static void test_cidr_bad(void **state)
{
	static const char *const bad[] = {
		"",
		"10.0.0.0/33",
		"10.0.0.0/",
		"10.0.0/8",
		"x",
		"10.0.0.0/8,",
		",10.0.0.1",
		"fd00::/129",
		"10.0.0.1/-1",
		"10.0.0.0/8x",
		"10.0.0.0/ 8",
	};
	struct rdp_cidr_list l = { 0 };
	char err[256], many[1024] = "";
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(rdp_cidr_parse_list(bad[i], &l, err,
						     sizeof(err)),
				 -EINVAL);
		assert_non_null(strstr(err, "--allow"));
	}
	assert_int_equal(l.n, 0); /* untouched on failure */
	/* Host bits past the prefix: the user meant another range. */
	assert_int_equal(rdp_cidr_parse_list("10.1.0.0/8", &l, err,
					     sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "past the /8 prefix"));
	for (i = 0; i <= RDP_CIDR_MAX; i++)
		snprintf(many + strlen(many), sizeof(many) - strlen(many),
			 "%s10.0.0.%zu", i ? "," : "", i);
	assert_int_equal(rdp_cidr_parse_list(many, &l, err, sizeof(err)),
			 -E2BIG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hmac_rfc4231),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_secret_load),
		cmocka_unit_test(test_secret_refused),
		cmocka_unit_test(test_secret_owner),
		cmocka_unit_test(test_secret_acl),
		cmocka_unit_test(test_secret_memory),
		cmocka_unit_test(test_proofs),
		cmocka_unit_test(test_handshake_both_ways),
		cmocka_unit_test(test_replay),
		cmocka_unit_test(test_reflection),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_client_refuses),
		cmocka_unit_test(test_sealed_channel),
		cmocka_unit_test(test_sealed_tampered),
		cmocka_unit_test(test_sealed_replay),
		cmocka_unit_test(test_plain_refusal),
		cmocka_unit_test(test_cidr),
		cmocka_unit_test(test_cidr_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
