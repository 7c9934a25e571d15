/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A TCP port of this run's own on the loopback address, for a server
 * under test that listens on the port its options name.
 */
#ifndef RDP_TEST_PORT_H
#define RDP_TEST_PORT_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

/*
 * The kernel's pick on the loopback address, left in TIME_WAIT by a
 * connection its accepting end closed first. Until that ends (a minute)
 * the kernel hands the port to no other bind to port 0 and no outgoing
 * connection, while the server's listener (SO_REUSEADDR) may bind it:
 * runs at the same time never meet on a port.
 */
static inline uint16_t unit_reserve_port(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t len = sizeof(sa);
	int lfd, cfd, afd, on = 1;

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	cfd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(lfd >= 0 && cfd >= 0);
	assert_int_equal(
		setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on)), 0);
	assert_int_equal(bind(lfd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(listen(lfd, 1), 0);
	assert_int_equal(getsockname(lfd, (struct sockaddr *)&sa, &len), 0);
	assert_int_equal(connect(cfd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	afd = accept(lfd, NULL, NULL);
	assert_true(afd >= 0);
	close(afd); /* first: the TIME_WAIT is this end's, on the port */
	close(cfd);
	close(lfd);
	return ntohs(sa.sin_port);
}

#endif
