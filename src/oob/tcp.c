/* SPDX-License-Identifier: BSD-2-Clause */
/* Out-of-band channel over TCP: every connect, read and write has a
 * deadline, and keepalive notices a peer host that vanished silently. */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <rdmaperf/clock.h>
#include <rdmaperf/log.h>
#include <rdmaperf/oob.h>
#include "oob_int.h"

#define RETRY_PAUSE_MS 200

int64_t rdp_oob_now_ms(void)
{
	return (int64_t)(rdp_clock_mono_ns() / 1000000ull);
}

static void set_keepalive(int fd)
{
	int on = 1, idle = 5, intvl = 2, cnt = 3;

	/* A peer host that dies without a FIN is noticed in ~11 s. */
	setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof(on));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof(intvl));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof(cnt));
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on));
}

/* The IPv4 address of one end of a socket, also when IPv4-mapped. */
static int sock_ipv4(int fd, int (*name)(int, struct sockaddr *, socklen_t *),
		     struct in_addr *out)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	struct in6_addr *a6;

	if (name(fd, (struct sockaddr *)&ss, &sl))
		return 0;
	if (ss.ss_family == AF_INET) {
		*out = ((struct sockaddr_in *)&ss)->sin_addr;
		return 1;
	}
	a6 = &((struct sockaddr_in6 *)&ss)->sin6_addr;
	if (ss.ss_family == AF_INET6 && IN6_IS_ADDR_V4MAPPED(a6)) {
		memcpy(out, &a6->s6_addr[12], 4);
		return 1;
	}
	return 0;
}

/* One end of a socket in GID form (IPv4 mapped, or IPv6). */
static int sock_ip(int fd, int (*name)(int, struct sockaddr *, socklen_t *),
		   struct rdp_ip *out)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	return !name(fd, (struct sockaddr *)&ss, &sl) &&
	       !rdp_ip_from_sockaddr((struct sockaddr *)&ss, out);
}

static void fill_addrs(struct rdp_oob *oob)
{
	oob->have_local_ipv4 =
		sock_ipv4(oob->fd, getsockname, &oob->local_ipv4);
	oob->have_peer_ipv4 = sock_ipv4(oob->fd, getpeername, &oob->peer_ipv4);
	oob->have_local_ip = sock_ip(oob->fd, getsockname, &oob->local_ip);
	oob->have_peer_ip = sock_ip(oob->fd, getpeername, &oob->peer_ip);
}

void rdp_oob_from_fd(int fd, int timeout_ms, struct rdp_oob *oob)
{
	memset(oob, 0, sizeof(*oob));
	oob->fd = fd;
	oob->timeout_ms = timeout_ms;
	snprintf(oob->peer, sizeof(oob->peer), "fd %d", fd);
	fill_addrs(oob);
}

int rdp_oob_wait(int fd, short events, int64_t deadline)
{
	struct pollfd pfd = { .fd = fd, .events = events };
	int ret;

	for (;;) {
		int wait = -1;

		/* Past the deadline, one look without waiting: what has
		 * already arrived (data, a refusal) still counts. */
		if (deadline >= 0) {
			int64_t left = deadline - rdp_oob_now_ms();

			wait = left <= 0 ? 0 : left > 60000 ? 60000 : (int)left;
		}
		ret = poll(&pfd, 1, wait);
		if (ret > 0)
			return 0;
		if (ret < 0 && errno != EINTR)
			return -errno;
		if (ret == 0 && wait == 0)
			return -ETIMEDOUT;
	}
}

/* src as a socket address of port 0; 0, or -EINVAL when it is no
 * address. */
static int source_of(const char *src, struct sockaddr_storage *ss,
		     socklen_t *len)
{
	struct sockaddr_in *s4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, src, &s4->sin_addr) == 1) {
		s4->sin_family = AF_INET;
		*len = sizeof(*s4);
		return 0;
	}
	if (inet_pton(AF_INET6, src, &s6->sin6_addr) == 1) {
		s6->sin6_family = AF_INET6;
		*len = sizeof(*s6);
		return 0;
	}
	return -EINVAL;
}

/* src: NULL, or the source address to bind (of ai's family). */
static int connect_once(const struct addrinfo *ai,
			const struct sockaddr_storage *src, socklen_t src_len,
			int64_t deadline, int *fd)
{
	int s, ret, soerr = 0;
	socklen_t sl = sizeof(soerr);

	s = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
		   0);
	if (s < 0)
		return -errno;
	if (src && bind(s, (const struct sockaddr *)src, src_len)) {
		ret = -errno;
		goto err_close;
	}
	if (connect(s, ai->ai_addr, ai->ai_addrlen) && errno != EINPROGRESS) {
		ret = -errno;
		goto err_close;
	}
	ret = rdp_oob_wait(s, POLLOUT, deadline);
	if (ret)
		goto err_close;
	if (getsockopt(s, SOL_SOCKET, SO_ERROR, &soerr, &sl) || soerr) {
		ret = soerr ? -soerr : -errno;
		goto err_close;
	}
	*fd = s;
	return 0;

err_close:
	close(s);
	return ret;
}

int rdp_oob_connect(const char *host, uint16_t port, const char *src,
		    int timeout_ms, struct rdp_oob *oob)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM };
	struct addrinfo *res, *ai;
	int64_t deadline = rdp_oob_now_ms() + timeout_ms;
	struct sockaddr_storage ss;
	socklen_t ss_len = 0;
	char svc[8];
	int ret, fd = -1, refused, round;

	if (src && *src) {
		if (source_of(src, &ss, &ss_len)) {
			rdp_err("--bind_source_ip needs an IPv4 or IPv6 "
				"address of this host, not '%s'",
				src);
			return -EINVAL;
		}
		hints.ai_family = ss.ss_family;
	}
	snprintf(svc, sizeof(svc), "%u", port);
	ret = getaddrinfo(host, svc, &hints, &res);
	if (ret) {
		rdp_err("resolve server '%s': %s", host, gai_strerror(ret));
		return -EHOSTUNREACH;
	}
	/* A server that is still starting refuses: retry until the
	 * deadline, the habit of scripts that start both ends at once. A
	 * round where some address refused counts as refused, and so does
	 * the deadline cutting an attempt short after refusals: the server
	 * was not there, whichever attempt the deadline fell in. */
	refused = 0;
	for (;;) {
		round = 0;
		for (ai = res; ai; ai = ai->ai_next) {
			ret = connect_once(ai, ss_len ? &ss : NULL, ss_len,
					   deadline, &fd);
			if (ret == -EADDRNOTAVAIL) {
				rdp_err("--bind_source_ip %s: not an address "
					"of this host",
					src);
				freeaddrinfo(res);
				return -EINVAL;
			}
			if (!ret)
				break;
			if (ret == -ECONNREFUSED)
				round = refused = 1;
		}
		if ((ret && round) || (ret == -ETIMEDOUT && refused))
			ret = -ECONNREFUSED;
		if (!ret || ret != -ECONNREFUSED ||
		    rdp_oob_now_ms() + RETRY_PAUSE_MS >= deadline)
			break;
		usleep(RETRY_PAUSE_MS * 1000);
	}
	freeaddrinfo(res);
	if (ret) {
		rdp_err("connect to %s port %u: %s%s", host, port,
			strerror(-ret),
			ret == -ECONNREFUSED
				? " (is rdmaperf-server running there, on this "
				  "port -p?)"
				: " (check the address and firewalls)");
		return ret;
	}
	rdp_oob_from_fd(fd, timeout_ms, oob);
	oob->dialed = 1;
	snprintf(oob->peer, sizeof(oob->peer), "%s:%u", host, port);
	set_keepalive(fd);
	return 0;
}

static const char *listen_hint(int err)
{
	switch (err) {
	case -EADDRINUSE:
		return " (another server runs there: pick -p)";
	case -EADDRNOTAVAIL:
		return " (not an address of this host: see `ip addr`, fix "
		       "--bind)";
	case -EACCES:
		return " (ports below 1024 need privileges: pick -p)";
	default:
		return "";
	}
}

int rdp_oob_listen(const char *bind_addr, uint16_t port, int *fd_out)
{
	struct sockaddr_in6 sa6 = { .sin6_family = AF_INET6 };
	struct sockaddr_in sa4 = { .sin_family = AF_INET };
	struct sockaddr *sa = (struct sockaddr *)&sa6;
	socklen_t sl = sizeof(sa6);
	int fd, on = 1, off = 0, family = AF_INET6;

	sa6.sin6_port = htons(port);
	sa6.sin6_addr = in6addr_any;
	if (bind_addr && *bind_addr) {
		if (inet_pton(AF_INET, bind_addr, &sa4.sin_addr) == 1) {
			sa4.sin_port = htons(port);
			sa = (struct sockaddr *)&sa4;
			sl = sizeof(sa4);
			family = AF_INET;
		} else if (inet_pton(AF_INET6, bind_addr, &sa6.sin6_addr) !=
			   1) {
			rdp_err("bind address '%s' is not an IPv4 or IPv6 "
				"address",
				bind_addr);
			return -EINVAL;
		}
	}
	fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
	if (family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof(off));
	if (bind(fd, sa, sl) || listen(fd, 8)) {
		int ret = -errno;

		rdp_err("listen on %s port %u: %s%s",
			bind_addr && *bind_addr ? bind_addr : "all addresses",
			port, strerror(-ret), listen_hint(ret));
		close(fd);
		return ret;
	}
	*fd_out = fd;
	return 0;
}

int rdp_oob_local_port(int fd, uint16_t *port_out)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &sl))
		return -errno;
	if (ss.ss_family == AF_INET)
		*port_out = ntohs(((struct sockaddr_in *)&ss)->sin_port);
	else if (ss.ss_family == AF_INET6)
		*port_out = ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
	else
		return -EAFNOSUPPORT;
	return 0;
}

int rdp_oob_accept(int listen_fd, int timeout_ms, int io_timeout_ms,
		   struct rdp_oob *oob)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char addr[INET6_ADDRSTRLEN];
	int fd, ret;

	ret = rdp_oob_wait(listen_fd, POLLIN,
			   timeout_ms < 0 ? -1 : rdp_oob_now_ms() + timeout_ms);
	if (ret)
		return ret;
	fd = accept4(listen_fd, (struct sockaddr *)&ss, &sl, SOCK_CLOEXEC);
	if (fd < 0)
		return -errno;
	rdp_oob_from_fd(fd, io_timeout_ms, oob);
	set_keepalive(fd);
	if (ss.ss_family == AF_INET6) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;

		inet_ntop(AF_INET6, &s6->sin6_addr, addr, sizeof(addr));
		snprintf(oob->peer, sizeof(oob->peer), "%s",
			 strncmp(addr, "::ffff:", 7) ? addr : addr + 7);
	} else if (ss.ss_family == AF_INET) {
		struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;

		inet_ntop(AF_INET, &s4->sin_addr, addr, sizeof(addr));
		snprintf(oob->peer, sizeof(oob->peer), "%s", addr);
	}
	return 0;
}

void rdp_oob_close(struct rdp_oob *oob)
{
	if (!oob)
		return;
	if (oob->fd >= 0) {
		close(oob->fd);
		oob->fd = -1;
	}
	explicit_bzero(&oob->seal, sizeof(oob->seal));
}
