/* SPDX-License-Identifier: BSD-2-Clause */
/* Whole messages over an OOB socket: framing, the MAC on each once the
 * session is authenticated, deadlines, and the peer's ERROR text surfaced
 * as the cause. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include <rdmaperf/auth.h>
#include <rdmaperf/log.h>
#include <rdmaperf/oob.h>
#include <rdmaperf/perftest_wire.h>
#include "oob_int.h"

/* The wait's deadline: timeout_ms (< 0 the channel's, 0 none), never past
 * the channel's hard deadline. */
static int64_t deadline_of(const struct rdp_oob *oob, int timeout_ms)
{
	int64_t d = -1;

	if (timeout_ms < 0)
		timeout_ms = oob->timeout_ms;
	/* + 1: now is a whole millisecond cut down, and a wait must last
	 * all of timeout_ms, never a fraction of one less */
	if (timeout_ms > 0)
		d = rdp_oob_now_ms() + timeout_ms + 1;
	if (oob->hard_deadline_ms > 0 && (d < 0 || d > oob->hard_deadline_ms))
		d = oob->hard_deadline_ms;
	return d;
}

static int read_full(int fd, uint8_t *buf, size_t len, int64_t deadline)
{
	size_t got = 0;
	ssize_t n;
	int ret;

	while (got < len) {
		ret = rdp_oob_wait(fd, POLLIN, deadline);
		if (ret)
			return ret;
		n = recv(fd, buf + got, len - got, MSG_DONTWAIT);
		if (n == 0)
			return -ECONNRESET;
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			return errno == EPIPE ? -ECONNRESET : -errno;
		}
		got += (size_t)n;
	}
	return 0;
}

static int write_full(int fd, const uint8_t *buf, size_t len, int64_t deadline)
{
	size_t put = 0;
	ssize_t n;
	int ret;

	while (put < len) {
		ret = rdp_oob_wait(fd, POLLOUT, deadline);
		if (ret)
			return ret;
		n = send(fd, buf + put, len - put, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			return errno == EPIPE ? -ECONNRESET : -errno;
		}
		put += (size_t)n;
	}
	return 0;
}

/* msg as it goes on the wire: encoded, and sealed once the session has
 * its keys (oob/auth.h). */
static int frame_of(struct rdp_oob *oob, const struct rdp_msg *msg,
		    uint8_t *buf, size_t cap, size_t *len)
{
	int ret = rdp_wire_encode(msg, buf, cap, len);

	if (!ret && oob->seal.on)
		ret = rdp_seal_frame(&oob->seal, buf, cap, *len, len);
	return ret;
}

int rdp_oob_send(struct rdp_oob *oob, const struct rdp_msg *msg)
{
	uint8_t buf[RDP_WIRE_HDR_BYTES + RDP_WIRE_MAX_PAYLOAD];
	size_t len;
	int ret;

	ret = frame_of(oob, msg, buf, sizeof(buf), &len);
	if (ret)
		return ret;
	return write_full(oob->fd, buf, len, deadline_of(oob, -1));
}

int rdp_oob_send_raw(struct rdp_oob *oob, const void *buf, size_t len)
{
	return write_full(oob->fd, buf, len, deadline_of(oob, -1));
}

int rdp_oob_recv_raw(struct rdp_oob *oob, void *buf, size_t len, int timeout_ms)
{
	return read_full(oob->fd, buf, len, deadline_of(oob, timeout_ms));
}

int rdp_oob_peek(struct rdp_oob *oob, void *buf, size_t len, int timeout_ms)
{
	ssize_t n;
	int ret;

	for (;;) {
		ret = rdp_oob_wait(oob->fd, POLLIN,
				   deadline_of(oob, timeout_ms));
		if (ret)
			return ret;
		n = recv(oob->fd, buf, len, MSG_PEEK | MSG_DONTWAIT);
		if (n > 0)
			return (int)n;
		if (n == 0)
			return -ECONNRESET;
		if (errno != EAGAIN && errno != EINTR)
			return -errno;
	}
}

int rdp_oob_peer_gone(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN | POLLRDHUP };
	uint8_t b;
	ssize_t n;

	if (poll(&pfd, 1, 0) <= 0)
		return 0;
	if (pfd.revents & (POLLHUP | POLLRDHUP | POLLERR | POLLNVAL))
		return 1;
	/* readable: a message waiting, or the end of the stream */
	n = recv(fd, &b, 1, MSG_PEEK | MSG_DONTWAIT);
	return n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR);
}

/* The header, decoded into hdr, and as it came into buf (a sealed
 * message's tag covers it). */
static int recv_hdr(struct rdp_oob *oob, struct rdp_wire_hdr *hdr,
		    uint8_t buf[RDP_WIRE_HDR_BYTES], int64_t deadline)
{
	char text[4 * RDP_WIRE_HDR_BYTES + 1];
	int ret;

	ret = read_full(oob->fd, buf, RDP_WIRE_HDR_BYTES, deadline);
	if (ret)
		return ret;
	ret = rdp_wire_decode_hdr(buf, RDP_WIRE_HDR_BYTES, hdr);
	if (ret == -EBADMSG &&
	    rdp_pt_looks_like_version(buf, RDP_WIRE_HDR_BYTES))
		rdp_err("peer %s is a perftest %s (version %s): this side "
			"speaks rdmaperf's protocol; %s",
			oob->peer, oob->dialed ? "ib_* server" : "client",
			rdp_escape(buf,
				   strnlen((const char *)buf,
					   RDP_WIRE_HDR_BYTES),
				   text, sizeof(text)),
			oob->dialed ? "run rdmaperf-server there (or rdmaperf "
				      "TEST without HOST)"
				    : "run an ib_* server for it, or rdmaperf "
				      "on the client side too");
	else if (ret == -EBADMSG)
		rdp_err("peer %s is not speaking the rdmaperf protocol (magic "
			"0x%08x): is the port right (-p)?",
			oob->peer, hdr->magic);
	else if (ret == -EPROTONOSUPPORT)
		rdp_err("peer %s speaks protocol version %u, this side %u: "
			"run the same rdmaperf release on both sides",
			oob->peer, hdr->version, RDP_WIRE_VERSION);
	else if (ret == -EMSGSIZE)
		rdp_err("peer %s sent an oversized %s message (%u bytes)",
			oob->peer, rdp_wire_type_str(hdr->type),
			hdr->len_bytes);
	return ret ? -EPROTO : 0;
}

static const char *article_of(const char *word)
{
	return strchr("AEIOU", word[0]) ? "an" : "a";
}

/*
 * A sealed session's message that failed its check: one line, the peer
 * told why (sealed), and the session over: nothing in it is decoded.
 * Only an ERROR before any sealed message came may be plain: the peer
 * refused this side's proof, and for it the session never began. Its
 * text is shown as the peer's, marked unauthenticated.
 */
static int seal_broken(struct rdp_oob *oob, const struct rdp_wire_hdr *hdr,
		       const uint8_t *body)
{
	const char *type = rdp_wire_type_str(hdr->type);
	char text[RDP_WIRE_TEXT_MAX];
	struct rdp_msg m;

	if (hdr->type == RDP_MSG_ERROR && oob->seal.seq_rx == 0 &&
	    !rdp_wire_decode_body(RDP_MSG_ERROR, body, hdr->len_bytes, &m)) {
		rdp_err("peer %s reports: %s (unauthenticated: it came "
			"without the session's MAC)",
			oob->peer, m.u.error.text);
		return -EACCES;
	}
	rdp_err("peer %s: %s %s message failed its authentication check "
		"(altered, replayed or out of order on the way): ending the "
		"session",
		oob->peer, article_of(type), type);
	snprintf(text, sizeof(text),
		 "your %s message failed its authentication check (altered, "
		 "replayed or out of order on the way): ending the session",
		 type);
	rdp_oob_send_error(oob, -EBADMSG, text);
	/* Nothing more from this side: a caller's own ERROR would only
	 * hide the cause. */
	shutdown(oob->fd, SHUT_WR);
	return -EBADMSG;
}

int rdp_oob_recv(struct rdp_oob *oob, struct rdp_msg *msg, int timeout_ms)
{
	uint8_t raw[RDP_WIRE_HDR_BYTES], buf[RDP_WIRE_MAX_PAYLOAD];
	int64_t deadline = deadline_of(oob, timeout_ms);
	struct rdp_wire_hdr hdr = { 0 };
	size_t len;
	int ret;

	ret = recv_hdr(oob, &hdr, raw, deadline);
	if (ret)
		return ret;
	ret = read_full(oob->fd, buf, hdr.len_bytes, deadline);
	if (ret)
		return ret;
	len = hdr.len_bytes;
	/* The tag first: an altered message is never decoded. */
	if (oob->seal.on &&
	    rdp_seal_open(&oob->seal, raw, buf, hdr.len_bytes, &len))
		return seal_broken(oob, &hdr, buf);
	ret = rdp_wire_decode_body(hdr.type, buf, len, msg);
	if (ret) {
		rdp_err("peer %s sent a malformed %s message (%zu bytes)",
			oob->peer, rdp_wire_type_str(hdr.type), len);
		return -EPROTO;
	}
	return 0;
}

/* The line rdp_oob_expect logs when a message of type did not come: err
 * -ETIMEDOUT or -ECONNRESET (others log nothing). */
static void say_missing(const struct rdp_oob *oob, int err, uint16_t type)
{
	if (err == -ETIMEDOUT)
		rdp_err("peer %s sent no %s within the timeout: is it "
			"stuck or is the network dropping packets?",
			oob->peer, rdp_wire_type_str(type));
	else if (err == -ECONNRESET)
		rdp_err("peer %s closed the connection while this side "
			"waited for %s (did it exit? see its output)",
			oob->peer, rdp_wire_type_str(type));
}

int rdp_oob_expect(struct rdp_oob *oob, uint16_t type, struct rdp_msg *msg,
		   int timeout_ms)
{
	int ret = rdp_oob_recv(oob, msg, timeout_ms);

	say_missing(oob, ret, type);
	if (ret)
		return ret;
	if (msg->type == RDP_MSG_ERROR) {
		rdp_err("peer %s reports: %s", oob->peer, msg->u.error.text);
		/* What the peer's device cannot do is "not supported here"
		 * on this side too (exit 77); what it refuses to grant is a
		 * usage error here (exit 2). */
		if (msg->u.error.code == -ENOSYS ||
		    msg->u.error.code == RDP_OOB_REFUSED)
			return msg->u.error.code;
		return -ECANCELED;
	}
	if (msg->type != type) {
		rdp_err("peer %s sent %s where %s was expected", oob->peer,
			rdp_wire_type_str(msg->type), rdp_wire_type_str(type));
		return -EPROTO;
	}
	return 0;
}

void rdp_oob_send_error(struct rdp_oob *oob, int code, const char *text)
{
	uint8_t buf[RDP_WIRE_HDR_BYTES + RDP_WIRE_MAX_PAYLOAD];
	struct rdp_msg msg = { .type = RDP_MSG_ERROR };
	size_t len;

	if (!oob || oob->fd < 0)
		return;
	msg.u.error.code = code;
	snprintf(msg.u.error.text, sizeof(msg.u.error.text), "%s", text);
	/* Best effort with a short deadline: the peer may be gone. */
	if (!frame_of(oob, &msg, buf, sizeof(buf), &len))
		write_full(oob->fd, buf, len, deadline_of(oob, 1000));
}
