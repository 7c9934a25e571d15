/* SPDX-License-Identifier: BSD-2-Clause */
/* --allow's address ranges: parsing and matching, IPv4 and IPv6. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <rdmaperf/cidr.h>
#include <rdmaperf/log.h>

static int bad(char *err, size_t errlen, const char *item)
{
	snprintf(err, errlen,
		 "--allow: '%s' is not an address range: give ADDR or "
		 "ADDR/BITS, IPv4 or IPv6, e.g. 10.0.0.0/8,fd00::/8",
		 item);
	return -EINVAL;
}

/* Host bits set under the prefix mean the user meant another range. */
static int host_bits_clear(const struct rdp_cidr *c)
{
	size_t bytes = c->family == AF_INET ? 4 : 16, i;

	for (i = 0; i < bytes; i++) {
		unsigned int keep = c->prefix >= (i + 1) * 8 ? 8
				    : c->prefix > i * 8	     ? c->prefix - i * 8
							     : 0;
		uint8_t mask = (uint8_t)(0xffu >> keep);

		if (c->addr[i] & mask)
			return 0;
	}
	return 1;
}

static int parse_one(const char *item, struct rdp_cidr *c, char *err,
		     size_t errlen)
{
	char addr[INET6_ADDRSTRLEN + 8], *slash, *end;
	unsigned long bits;
	unsigned int max;

	if (!item[0] || strlen(item) >= sizeof(addr))
		return bad(err, errlen, item);
	snprintf(addr, sizeof(addr), "%s", item);
	slash = strchr(addr, '/');
	if (slash)
		*slash++ = '\0';
	memset(c, 0, sizeof(*c));
	if (inet_pton(AF_INET, addr, c->addr) == 1)
		c->family = AF_INET;
	else if (inet_pton(AF_INET6, addr, c->addr) == 1)
		c->family = AF_INET6;
	else
		return bad(err, errlen, item);
	max = c->family == AF_INET ? 32 : 128;
	bits = max;
	if (slash) {
		errno = 0;
		bits = strtoul(slash, &end, 10);
		if (!*slash || *end || errno || bits > max ||
		    (*slash < '0' || *slash > '9'))
			return bad(err, errlen, item);
	}
	c->prefix = (uint8_t)bits;
	if (!host_bits_clear(c)) {
		snprintf(err, errlen,
			 "--allow %s: bits set past the /%u prefix: write "
			 "the range's first address (e.g. 10.0.0.0/8)",
			 item, c->prefix);
		return -EINVAL;
	}
	return 0;
}

int rdp_cidr_parse_list(const char *s, struct rdp_cidr_list *out, char *err,
			size_t errlen)
{
	struct rdp_cidr_list l = { 0 };
	char item[INET6_ADDRSTRLEN + 8];
	const char *p = s, *comma;
	size_t len;
	int ret;

	for (;;) {
		comma = strchr(p, ',');
		len = comma ? (size_t)(comma - p) : strlen(p);
		if (l.n == RDP_CIDR_MAX) {
			snprintf(err, errlen,
				 "--allow: more than %d ranges: use wider "
				 "ones",
				 RDP_CIDR_MAX);
			return -E2BIG;
		}
		if (len >= sizeof(item))
			len = sizeof(item) - 1; /* parse_one names it */
		memcpy(item, p, len);
		item[len] = '\0';
		ret = parse_one(item, &l.e[l.n], err, errlen);
		if (ret)
			return ret;
		l.n++;
		if (!comma)
			break;
		p = comma + 1;
	}
	*out = l;
	return 0;
}

static int inside(const struct rdp_cidr *c, const uint8_t *addr)
{
	unsigned int full = c->prefix / 8, rest = c->prefix % 8;
	uint8_t mask = (uint8_t)(0xff00u >> rest);

	if (memcmp(c->addr, addr, full))
		return 0;
	return !rest || (addr[full] & mask) == c->addr[full];
}

/* sa's address bytes and family, an IPv4-mapped IPv6 address as IPv4;
 * NULL for other families. */
static const uint8_t *addr_of(const struct sockaddr *sa, int *family)
{
	static const uint8_t v4mapped[12] = { [10] = 0xff, [11] = 0xff };
	const uint8_t *addr;

	*family = sa->sa_family;
	if (*family == AF_INET)
		return (const uint8_t *)&(
			       (const struct sockaddr_in *)(const void *)sa)
			->sin_addr;
	if (*family != AF_INET6)
		return NULL;
	addr = ((const struct sockaddr_in6 *)(const void *)sa)
		       ->sin6_addr.s6_addr;
	/* ::ffff:a.b.c.d is an IPv4 peer on a dual-stack socket. */
	if (!memcmp(addr, v4mapped, sizeof(v4mapped))) {
		*family = AF_INET;
		addr += 12;
	}
	return addr;
}

int rdp_cidr_match(const struct rdp_cidr_list *l, const struct sockaddr *sa)
{
	const uint8_t *addr;
	int family;
	uint32_t i;

	if (!l->n)
		return 1;
	addr = addr_of(sa, &family);
	if (!addr)
		return 0;
	for (i = 0; i < l->n; i++)
		if (l->e[i].family == family && inside(&l->e[i], addr))
			return 1;
	return 0;
}

int rdp_cidr_of(const struct sockaddr *sa, unsigned int v4_bits,
		unsigned int v6_bits, struct rdp_cidr *out)
{
	struct rdp_cidr c = { 0 };
	const uint8_t *addr;
	unsigned int bits, i;
	int family;

	addr = addr_of(sa, &family);
	if (!addr)
		return -EAFNOSUPPORT;
	c.family = (uint8_t)family;
	bits = family == AF_INET ? (v4_bits > 32 ? 32 : v4_bits)
				 : (v6_bits > 128 ? 128 : v6_bits);
	c.prefix = (uint8_t)bits;
	for (i = 0; i < bits / 8; i++)
		c.addr[i] = addr[i];
	if (bits % 8)
		c.addr[i] = (uint8_t)(addr[i] & (0xff00u >> (bits % 8)));
	*out = c;
	return 0;
}

int rdp_cidr_equal(const struct rdp_cidr *a, const struct rdp_cidr *b)
{
	return a->family == b->family && a->prefix == b->prefix &&
	       !memcmp(a->addr, b->addr, sizeof(a->addr));
}

void rdp_cidr_list_str(const struct rdp_cidr_list *l, char *buf, size_t len)
{
	char a[INET6_ADDRSTRLEN];
	size_t off = 0;
	uint32_t i;
	int n;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < l->n && off < len; i++) {
		inet_ntop(l->e[i].family, l->e[i].addr, a, sizeof(a));
		n = snprintf(buf + off, len - off, "%s%s/%u", i ? "," : "", a,
			     l->e[i].prefix);
		if (n < 0)
			break;
		off += (size_t)n;
	}
}
