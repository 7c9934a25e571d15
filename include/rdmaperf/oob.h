/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Out-of-band channel over TCP, or a socketpair in one process:
 * connect/accept with timeouts, and whole messages sent and received
 * through the wire codec, each with a deadline.
 * Layer: oob
 */
#ifndef RDMAPERF_OOB_H
#define RDMAPERF_OOB_H

#include <errno.h>
#include <stdint.h>
#include <netinet/in.h>

#include <rdmaperf/ip.h>
#include <rdmaperf/wire.h>

/* The session's message keys, one per direction, and the next sequence
 * number each way; on = 0: messages travel unsealed. */
struct rdp_oob_seal {
	int on;
	uint8_t key_tx[32];
	uint8_t key_rx[32];
	uint64_t seq_tx;
	uint64_t seq_rx;
};

struct rdp_oob {
	int fd;
	int timeout_ms;		   /* default for each send/recv */
	char peer[80];		   /* "host:port" for messages */
	struct in_addr local_ipv4; /* our address on this connection */
	int have_local_ipv4;
	struct in_addr peer_ipv4; /* the other end's */
	int have_peer_ipv4;
	/* Both ends in GID form, IPv4 or IPv6: GID choice, RDMA CM */
	struct rdp_ip local_ip;
	int have_local_ip;
	struct rdp_ip peer_ip;
	int have_peer_ip;
	int dialed; /* this side connected: the client */
	/* An absolute deadline (rdp_oob_now_ms()'s clock, 0: none) that caps
	 * every wait on this channel, whatever timeout a call asks for: the
	 * server's handshake, so no path can wait past it. */
	int64_t hard_deadline_ms;
	/* After the shared-secret handshake: every message in both
	 * directions carries a MAC under a key of this session (oob/auth.h) */
	struct rdp_oob_seal seal;
};

/*
 * Connect to host:port from src (NULL or "": the route's source address),
 * retrying refused connections until timeout_ms. Errors are logged;
 * returns 0 or -errno (-EINVAL: src is no address of this host).
 */
int rdp_oob_connect(const char *host, uint16_t port, const char *src,
		    int timeout_ms, struct rdp_oob *oob);

/* Listen on bind_addr ("" or NULL: any) and port; port 0 lets the kernel
 * pick one, which rdp_oob_local_port() tells. */
int rdp_oob_listen(const char *bind_addr, uint16_t port, int *fd_out);

/* The TCP port a socket is bound to; 0 or -errno. */
int rdp_oob_local_port(int fd, uint16_t *port_out);

/*
 * Bytes without rdmaperf's framing (perftest's messages): all of them,
 * within the channel's timeout (recv: timeout_ms, -1 the channel's). 0,
 * -ETIMEDOUT, -ECONNRESET (closed) or -errno; nothing logged.
 */
int rdp_oob_send_raw(struct rdp_oob *oob, const void *buf, size_t len);
int rdp_oob_recv_raw(struct rdp_oob *oob, void *buf, size_t len,
		     int timeout_ms);

/* Has the peer of socket fd closed its end (it exited, died or was
 * stopped)? 1 on a hang-up, an error or the end of the stream, 0 while it
 * is open, what it sent (if anything) left unread. Never waits: a timed
 * loop's watch, asked after a stretch of silence. */
int rdp_oob_peer_gone(int fd);

/* Look at up to len bytes the peer sent without taking them: how many,
 * at least 1, or -errno. */
int rdp_oob_peek(struct rdp_oob *oob, void *buf, size_t len, int timeout_ms);

/* Wait for one client; timeout_ms < 0 waits forever. */
int rdp_oob_accept(int listen_fd, int timeout_ms, int io_timeout_ms,
		   struct rdp_oob *oob);

/* Wrap an already-connected socket (tests use a socketpair). */
void rdp_oob_from_fd(int fd, int timeout_ms, struct rdp_oob *oob);

/*
 * Two connected ends in this process (a socketpair), each with timeout_ms
 * per message and no IPv4 address: the in-process tests' channel.
 */
int rdp_oob_loopback(int timeout_ms, struct rdp_oob *client,
		     struct rdp_oob *server);

int rdp_oob_send(struct rdp_oob *oob, const struct rdp_msg *msg);

/*
 * Receive one message within timeout_ms (< 0: the channel default, 0: no
 * limit, relying on TCP keepalive). -ETIMEDOUT, -ECONNRESET when the peer
 * went away, -EPROTO on a malformed message (logged). Once sealed: the
 * tag is checked before anything is decoded; -EBADMSG when it fails
 * (logged, the peer told with a sealed ERROR, this side's writing shut),
 * -EACCES for a plain ERROR before any sealed message (the peer refused
 * this side's proof: its text logged as unauthenticated).
 */
int rdp_oob_recv(struct rdp_oob *oob, struct rdp_msg *msg, int timeout_ms);

/*
 * The code of an ERROR that refuses the request as such (a usage error,
 * e.g. a flag this server never grants): the side that receives it
 * returns it, and exits 2 (RDP_EXIT_USAGE).
 */
#define RDP_OOB_REFUSED (-EBADRQC)

/*
 * Receive and require a type. An ERROR from the peer is printed as the
 * peer's message and returns -ECANCELED (-ENOSYS and RDP_OOB_REFUSED
 * pass through); other types return -EPROTO.
 */
int rdp_oob_expect(struct rdp_oob *oob, uint16_t type, struct rdp_msg *msg,
		   int timeout_ms);

/* Best effort: tell the peer why we stop. */
void rdp_oob_send_error(struct rdp_oob *oob, int code, const char *text);

void rdp_oob_close(struct rdp_oob *oob);

#endif /* RDMAPERF_OOB_H */
