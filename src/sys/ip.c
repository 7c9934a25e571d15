/* SPDX-License-Identifier: BSD-2-Clause */
/* IP addresses in GID form: from and to socket addresses, and as text. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

#include <rdmaperf/ip.h>

int rdp_ip_raw_is_ipv4_mapped(const uint8_t raw[16])
{
	static const uint8_t prefix[12] = {
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff,
	};

	return !memcmp(raw, prefix, sizeof(prefix));
}

int rdp_ip_from_sockaddr(const struct sockaddr *sa, struct rdp_ip *out)
{
	if (sa->sa_family == AF_INET) {
		rdp_ip_from_ipv4(&((const struct sockaddr_in *)sa)->sin_addr,
				 out);
		return 0;
	}
	if (sa->sa_family == AF_INET6) {
		memcpy(out->raw, &((const struct sockaddr_in6 *)sa)->sin6_addr,
		       16);
		return 0;
	}
	return -EAFNOSUPPORT;
}

void rdp_ip_from_ipv4(const struct in_addr *a, struct rdp_ip *out)
{
	memset(out->raw, 0, 10);
	out->raw[10] = 0xff;
	out->raw[11] = 0xff;
	memcpy(&out->raw[12], &a->s_addr, 4);
}

int rdp_ip_is_ipv4(const struct rdp_ip *ip)
{
	return rdp_ip_raw_is_ipv4_mapped(ip->raw);
}

unsigned int rdp_ip_to_sockaddr(const struct rdp_ip *ip, uint16_t port,
				struct sockaddr_storage *ss)
{
	struct sockaddr_in *s4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (rdp_ip_is_ipv4(ip)) {
		s4->sin_family = AF_INET;
		s4->sin_port = htons(port);
		memcpy(&s4->sin_addr, &ip->raw[12], 4);
		return sizeof(*s4);
	}
	s6->sin6_family = AF_INET6;
	s6->sin6_port = htons(port);
	memcpy(&s6->sin6_addr, ip->raw, 16);
	return sizeof(*s6);
}

void rdp_ip_format(const struct rdp_ip *ip, char *buf, size_t len)
{
	if (rdp_ip_is_ipv4(ip))
		inet_ntop(AF_INET, &ip->raw[12], buf, (socklen_t)len);
	else
		inet_ntop(AF_INET6, ip->raw, buf, (socklen_t)len);
}
