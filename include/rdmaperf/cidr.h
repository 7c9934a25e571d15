/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Address ranges for the server's --allow: "10.0.0.0/8,fd00::/8,192.0.2.7",
 * IPv4 and IPv6, matched against a peer's socket address (an IPv4 peer
 * seen through an IPv6 socket matches its IPv4 ranges); and the prefix
 * of a peer's address that the server's limits count as one client.
 * Layer: sys
 */
#ifndef RDMAPERF_CIDR_H
#define RDMAPERF_CIDR_H

#include <stddef.h>
#include <stdint.h>

struct sockaddr;

#define RDP_CIDR_MAX 32

struct rdp_cidr {
	uint8_t family; /* AF_INET or AF_INET6 */
	uint8_t prefix; /* bits that must match */
	uint8_t addr[16];
};

struct rdp_cidr_list {
	uint32_t n; /* 0: every address */
	struct rdp_cidr e[RDP_CIDR_MAX];
};

/* Parse a comma-separated list; 0, or -EINVAL/-E2BIG with one line in err
 * naming the entry that is wrong. */
int rdp_cidr_parse_list(const char *s, struct rdp_cidr_list *out, char *err,
			size_t errlen);

/* 1 when sa (AF_INET or AF_INET6) is inside one of the ranges. */
int rdp_cidr_match(const struct rdp_cidr_list *l, const struct sockaddr *sa);

/* The range of sa's first v4_bits (IPv4, an IPv4-mapped IPv6 address
 * included) or v6_bits (IPv6), host bits cleared: the key that counts one
 * client in the server's limits. 0, or -EAFNOSUPPORT. */
int rdp_cidr_of(const struct sockaddr *sa, unsigned int v4_bits,
		unsigned int v6_bits, struct rdp_cidr *out);

/* 1 when a and b are the same range. */
int rdp_cidr_equal(const struct rdp_cidr *a, const struct rdp_cidr *b);

/* The list as the user would write it, for the server's banner. */
void rdp_cidr_list_str(const struct rdp_cidr_list *l, char *buf, size_t len);

#endif /* RDMAPERF_CIDR_H */
