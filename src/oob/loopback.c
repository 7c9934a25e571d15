/* SPDX-License-Identifier: BSD-2-Clause */
/* Both ends of an OOB channel in one process, over a socketpair: the same
 * framing and deadlines as TCP, for running a client and a server side by
 * side without a network. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include <rdmaperf/log.h>
#include <rdmaperf/oob.h>

int rdp_oob_loopback(int timeout_ms, struct rdp_oob *client,
		     struct rdp_oob *server)
{
	int fds[2], ret;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds)) {
		ret = -errno;
		rdp_err("loopback channel: socketpair: %s", strerror(-ret));
		return ret;
	}
	rdp_oob_from_fd(fds[0], timeout_ms, client);
	rdp_oob_from_fd(fds[1], timeout_ms, server);
	snprintf(client->peer, sizeof(client->peer), "loopback server");
	snprintf(server->peer, sizeof(server->peer), "loopback client");
	return 0;
}
