/* SPDX-License-Identifier: BSD-2-Clause */
/* perftest's out-of-band messages: version, MTU, key messages, bandwidth
 * reports and the negotiation block, each to and from its bytes. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdmaperf/perftest_wire.h>
#include <rdmaperf/sysfs.h>

#include "oob_int.h"

/* Where the device attributes start in the negotiation block, and the
 * offset of max_qp_rd_atom inside struct ibv_device_attr (x86-64). */
#define NEG_ATTR_OFF	80
#define NEG_RD_ATOM_OFF (NEG_ATTR_OFF + 144)
#define NEG_MLX5DV_OFF	312

static uint64_t bits_of(double d)
{
	uint64_t v;

	memcpy(&v, &d, sizeof(v));
	return v;
}

static double double_of(uint64_t v)
{
	double d;

	memcpy(&d, &v, sizeof(d));
	return d;
}

void rdp_pt_version_encode(const char *v, uint8_t out[RDP_PT_VERSION_BYTES])
{
	size_t n = strlen(v);

	memset(out, 0, RDP_PT_VERSION_BYTES);
	memcpy(out, v, n < RDP_PT_VERSION_BYTES ? n : RDP_PT_VERSION_BYTES - 1);
}

int rdp_pt_version_decode(const uint8_t in[RDP_PT_VERSION_BYTES], char *v,
			  size_t len, double *num)
{
	size_t n = 0, dots = 0;

	while (n < RDP_PT_VERSION_BYTES && in[n]) {
		if (in[n] == '.')
			dots++;
		else if (in[n] < '0' || in[n] > '9')
			return -EBADMSG;
		n++;
	}
	/* Digits and one dot only: what reaches the log is printable. */
	if (!n || n == RDP_PT_VERSION_BYTES || dots > 1 || in[0] == '.')
		return -EBADMSG;
	snprintf(v, len, "%.*s", (int)n, (const char *)in);
	*num = strtod(v, NULL);
	return 0;
}

int rdp_pt_looks_like_version(const uint8_t *in, size_t n)
{
	size_t i = 0;

	while (i < n && in[i] >= '0' && in[i] <= '9')
		i++;
	return i > 0 && i < n && in[i] == '.';
}

int rdp_pt_mtu_encode(uint32_t mtu_bytes, uint8_t out[RDP_PT_MTU_BYTES])
{
	int e;

	for (e = 1; e <= 5; e++)
		if ((128u << e) == mtu_bytes) {
			out[0] = (uint8_t)('0' + e);
			out[1] = 0;
			return 0;
		}
	return -EINVAL;
}

int rdp_pt_mtu_decode(const uint8_t in[RDP_PT_MTU_BYTES], uint32_t *mtu_bytes)
{
	if (in[0] < '1' || in[0] > '5' || in[1])
		return -EBADMSG;
	*mtu_bytes = 128u << (in[0] - '0');
	return 0;
}

size_t rdp_pt_key_bytes(int with_gid)
{
	return with_gid ? RDP_PT_KEY_GID_BYTES : RDP_PT_KEY_BYTES;
}

void rdp_pt_key_encode(const struct rdp_qp_info *qi, int with_gid, char *out)
{
	int n, i;

	n = sprintf(out,
		    "%04x:%04x:%06x:%06x:%08x:%016llx:", (unsigned int)qi->lid,
		    (unsigned int)qi->rd_atomic,
		    (unsigned int)(qi->qpn & 0xffffff),
		    (unsigned int)(qi->psn & 0xffffff), (unsigned int)qi->rkey,
		    (unsigned long long)qi->addr);
	if (!with_gid) {
		sprintf(out + n, "%08x", 0u); /* no SRQ */
		return;
	}
	for (i = 0; i < 16; i++)
		n += sprintf(out + n, "%02x:", qi->gid[i]);
	sprintf(out + n, "%08x:", 0u);
}

/* width hex digits at *p, then sep (0: none); *p moves past both. */
static int hex_field(const char **p, const char *end, int width, char sep,
		     uint64_t *v)
{
	const char *s = *p;
	int i, d;

	if (end - s < width + (sep ? 1 : 0))
		return -EBADMSG;
	for (*v = 0, i = 0; i < width; i++) {
		d = rdp_hex_digit((unsigned char)s[i]);
		if (d < 0)
			return -EBADMSG;
		*v = *v << 4 | (uint64_t)d;
	}
	if (sep && s[width] != sep)
		return -EBADMSG;
	*p = s + width + (sep ? 1 : 0);
	return 0;
}

int rdp_pt_key_decode(const char *in, size_t n, int with_gid,
		      struct rdp_qp_info *qi)
{
	static const int widths[] = { 4, 4, 6, 6, 8, 16 };
	const char *p = in, *end = in + n;
	uint64_t v[6], b;
	int i;

	if (n != rdp_pt_key_bytes(with_gid) || in[n - 1])
		return -EBADMSG;
	end = in + n - 1; /* the NUL */
	memset(qi, 0, sizeof(*qi));
	for (i = 0; i < 6; i++)
		if (hex_field(&p, end, widths[i], ':', &v[i]))
			return -EBADMSG;
	for (i = 0; with_gid && i < 16; i++) {
		if (hex_field(&p, end, 2, ':', &b))
			return -EBADMSG;
		qi->gid[i] = (uint8_t)b;
	}
	if (hex_field(&p, end, 8, with_gid ? ':' : 0, &b) || p != end)
		return -EBADMSG;
	qi->lid = (uint16_t)v[0];
	qi->rd_atomic = (uint8_t)(v[1] > 255 ? 255 : v[1]);
	qi->qpn = (uint32_t)v[2];
	qi->psn = (uint32_t)v[3];
	qi->rkey = (uint32_t)v[4];
	qi->addr = v[5];
	return 0;
}

void rdp_pt_report_encode(const struct rdp_pt_report *r,
			  uint8_t out[RDP_PT_REPORT_BYTES])
{
	rdp_oob_put_be(out, r->size_bytes, 8);
	rdp_oob_put_be(out + 8, r->iters, 8);
	rdp_oob_put_be(out + 16, bits_of(r->bw_peak), 8);
	rdp_oob_put_be(out + 24, bits_of(r->bw_avg), 8);
	rdp_oob_put_be(out + 32, bits_of(r->msg_rate_mpps), 8);
}

void rdp_pt_report_decode(const uint8_t in[RDP_PT_REPORT_BYTES],
			  struct rdp_pt_report *r)
{
	r->size_bytes = rdp_oob_get_be(in, 8);
	r->iters = rdp_oob_get_be(in + 8, 8);
	r->bw_peak = double_of(rdp_oob_get_be(in + 16, 8));
	r->bw_avg = double_of(rdp_oob_get_be(in + 24, 8));
	r->msg_rate_mpps = double_of(rdp_oob_get_be(in + 32, 8));
}

/* The 32-bit fields of the block in wire order, with perftest's names. */
static const struct {
	const char *name;
	size_t field, off;
} neg_ints[] = {
	{ "test_method", offsetof(struct rdp_pt_neg, test_method), 0 },
	{ "connection_type", offsetof(struct rdp_pt_neg, connection_type), 4 },
	{ "verb", offsetof(struct rdp_pt_neg, verb), 8 },
	{ "tst", offsetof(struct rdp_pt_neg, tst), 12 },
	{ "atomicType", offsetof(struct rdp_pt_neg, atomic_type), 16 },
	{ "test_type", offsetof(struct rdp_pt_neg, test_type), 20 },
	{ "report_fmt", offsetof(struct rdp_pt_neg, report_fmt), 24 },
	{ "aes_xts", offsetof(struct rdp_pt_neg, aes_xts), 48 },
	{ "num_of_qps", offsetof(struct rdp_pt_neg, num_qps), 52 },
	{ "duration", offsetof(struct rdp_pt_neg, duration_s), 56 },
	{ "use_rdma_cm", offsetof(struct rdp_pt_neg, use_rdma_cm), 60 },
	{ "use_write_with_imm", offsetof(struct rdp_pt_neg, write_with_imm),
	  64 },
	{ "no_enhanced_reorder",
	  offsetof(struct rdp_pt_neg, no_enhanced_reorder), 68 },
	{ "sig_offload", offsetof(struct rdp_pt_neg, sig_offload), 72 },
	{ "data_validation", offsetof(struct rdp_pt_neg, data_validation), 76 },
};
#define N_NEG_INTS (sizeof(neg_ints) / sizeof(neg_ints[0]))

static int32_t *int_at(struct rdp_pt_neg *n, size_t i)
{
	return (int32_t *)((char *)n + neg_ints[i].field);
}

static int32_t int_of(const struct rdp_pt_neg *n, size_t i)
{
	return *(const int32_t *)((const char *)n + neg_ints[i].field);
}

int rdp_pt_starts_block(const uint8_t *in, size_t n)
{
	/* test_method is 0, 1 or 2, big-endian: a NUL first, where a key
	 * message has its LID's first hex digit */
	return n > 0 && rdp_hex_digit(in[0]) < 0;
}

int rdp_pt_neg_encode(const struct rdp_pt_neg *n, uint8_t *out, size_t bytes)
{
	size_t i;

	if (bytes != RDP_PT_NEG_BYTES && bytes != RDP_PT_NEG_MLX5DV_BYTES)
		return -EINVAL;
	memset(out, 0, bytes);
	for (i = 0; i < N_NEG_INTS; i++)
		rdp_oob_put_be(out + neg_ints[i].off, (uint32_t)int_of(n, i),
			       4);
	rdp_oob_put_be(out + 32, n->size_bytes, 8);
	rdp_oob_put_be(out + 40, n->iters, 8);
	/* The device attributes travel in host order: x86-64 here. */
	memcpy(out + NEG_RD_ATOM_OFF, &n->max_qp_rd_atom, 4);
	if (bytes == RDP_PT_NEG_MLX5DV_BYTES)
		rdp_oob_put_be(out + NEG_MLX5DV_OFF, n->mlx5dv_mask, 8);
	return 0;
}

int rdp_pt_neg_decode(const uint8_t *in, size_t bytes, struct rdp_pt_neg *n)
{
	size_t i;

	if (bytes != RDP_PT_NEG_BYTES && bytes != RDP_PT_NEG_MLX5DV_BYTES)
		return -EINVAL;
	memset(n, 0, sizeof(*n));
	for (i = 0; i < N_NEG_INTS; i++)
		*int_at(n, i) = (int32_t)(uint32_t)rdp_oob_get_be(
			in + neg_ints[i].off, 4);
	n->size_bytes = rdp_oob_get_be(in + 32, 8);
	n->iters = rdp_oob_get_be(in + 40, 8);
	memcpy(&n->max_qp_rd_atom, in + NEG_RD_ATOM_OFF, 4);
	if (bytes == RDP_PT_NEG_MLX5DV_BYTES)
		n->mlx5dv_mask = rdp_oob_get_be(in + NEG_MLX5DV_OFF, 8);
	return 0;
}

int rdp_pt_neg_answer(const uint8_t *in, size_t bytes, uint32_t max_qp_rd_atom,
		      struct rdp_pt_neg *client, uint8_t *out)
{
	struct rdp_pt_neg mine;
	int ret = rdp_pt_neg_decode(in, bytes, client);

	if (ret)
		return ret;
	mine = *client;
	mine.max_qp_rd_atom = max_qp_rd_atom;
	return rdp_pt_neg_encode(&mine, out, bytes);
}

const char *rdp_pt_neg_mismatch(const struct rdp_pt_neg *a,
				const struct rdp_pt_neg *b)
{
	size_t i;

	/* perftest's order: the seven enums, size, iters, then the rest. */
	for (i = 0; i < 7; i++)
		if (int_of(a, i) != int_of(b, i))
			return neg_ints[i].name;
	if (a->size_bytes != b->size_bytes)
		return "size";
	if (a->iters != b->iters)
		return "iters";
	for (i = 7; i < N_NEG_INTS; i++)
		if (int_of(a, i) != int_of(b, i))
			return neg_ints[i].name;
	return NULL;
}
