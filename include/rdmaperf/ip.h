/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * An IP address in the form a RoCE v2 GID carries it, for both the
 * out-of-band channel (its ends) and the engine (GID choice, RDMA CM).
 * Layer: sys
 */
#ifndef RDMAPERF_IP_H
#define RDMAPERF_IP_H

#include <stddef.h>
#include <stdint.h>

struct in_addr;
struct sockaddr;
struct sockaddr_storage;

/* IPv6 as is, IPv4 mapped (::ffff:a.b.c.d). */
struct rdp_ip {
	uint8_t raw[16];
};

/* From a socket address (AF_INET or AF_INET6); -EAFNOSUPPORT else. */
int rdp_ip_from_sockaddr(const struct sockaddr *sa, struct rdp_ip *out);
void rdp_ip_from_ipv4(const struct in_addr *a, struct rdp_ip *out);
int rdp_ip_is_ipv4(const struct rdp_ip *ip);
/* Whether 16 address bytes (an IP's, a GID's) are ::ffff:a.b.c.d. */
int rdp_ip_raw_is_ipv4_mapped(const uint8_t raw[16]);
/* A socket address of ip and port (AF_INET for IPv4); its length. */
unsigned int rdp_ip_to_sockaddr(const struct rdp_ip *ip, uint16_t port,
				struct sockaddr_storage *ss);
/* "10.0.0.1" or "fd00::1". */
void rdp_ip_format(const struct rdp_ip *ip, char *buf, size_t len);

#endif /* RDMAPERF_IP_H */
