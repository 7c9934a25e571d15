/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The server's door: a thread owns the listening socket and admits each
 * connection before any thread exists for it (--allow, the handshake
 * rates over all clients and per address prefix, one handshake per prefix,
 * RDP_ADMIT_SLOTS at once), answering the refused at once. An admitted
 * connection gets a handshake thread, which takes the client's first
 * message (and its proof of the secret) before a hard deadline on the
 * channel, and only then hands the client to the one serving thread, or
 * answers "busy". The accepting thread is also the watchdog: it shuts down
 * any handshake socket still open past its deadline.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>

#include "session_int.h"
#include <rdmaperf/auth.h>
#include <rdmaperf/cidr.h>
#include <rdmaperf/clock.h>
#include <rdmaperf/log.h>
#include <rdmaperf/perftest_wire.h>
#include <rdmaperf/secret.h>

#define GATE_GRACE_NS	   500000000ull	  /* the watchdog's, past a deadline */
#define GATE_TICK_NS	   1000000000ull  /* the longest the acceptor sleeps */
#define GATE_LOG_WINDOW_NS 10000000000ull /* of the refusal lines */

struct rdp_gate {
	const struct rdp_opts *o;
	int lfd;
	int pipe_r, pipe_w; /* struct rdp_handoff pointers */
	pthread_mutex_t lock;
	int busy;	  /* a client is being served */
	char current[80]; /* its address, for the busy message */
	time_t since;
	struct rdp_admit *admit; /* under lock */
	struct rdp_rlog *rlog;	 /* under lock */
};

struct gate_conn {
	struct rdp_gate *g;
	struct rdp_handoff *h;
	unsigned int slot;
	struct rdp_cidr prefix;
};

/* timeout_ms from now on the channel's clock (rdp_oob_now_ms(): the
 * monotonic clock in whole milliseconds). */
static int64_t deadline_ms(int timeout_ms)
{
	return (int64_t)(rdp_clock_mono_ns() / 1000000ull) + timeout_ms;
}

static int left_ms(uint64_t deadline_ns)
{
	return rdp_gate_left_ms(rdp_clock_mono_ns(), deadline_ns);
}

/* Until the peer closes, or half a second. */
static void drain_briefly(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char scratch[512];
	int i;

	for (i = 0; i < 50 && poll(&pfd, 1, 10) >= 0; i++)
		if ((pfd.revents & POLLIN) &&
		    recv(fd, scratch, sizeof(scratch), MSG_DONTWAIT) == 0)
			return;
}

/* What the peer has sent so far, up to 64 KiB, without waiting: a peer
 * that keeps sending gets its reset. */
static void drain_queued(int fd)
{
	char scratch[1024];
	int i;

	for (i = 0; i < 64; i++)
		if (recv(fd, scratch, sizeof(scratch), MSG_DONTWAIT) <= 0)
			return;
}

/* The text (if any) to the client, then close: reading what it sent
 * first, since closing with unread data resets the connection, which
 * could overtake the error; the busy answer waits up to half a second
 * for that, everything else not at all. */
static void tell_and_close(struct rdp_oob *oob, int code, const char *text,
			   int linger)
{
	if (text)
		rdp_oob_send_error(oob, code, text);
	shutdown(oob->fd, SHUT_WR);
	if (linger)
		drain_briefly(oob->fd);
	else
		drain_queued(oob->fd);
	rdp_oob_close(oob);
}

/* One line in the server's log (or a count in it), under the lock. */
static void say_refused(struct rdp_gate *g, const char *peer,
			const struct rdp_cidr *prefix, const char *why)
{
	pthread_mutex_lock(&g->lock);
	rdp_rlog_refused(g->rlog, peer, prefix, why, rdp_clock_mono_ns());
	pthread_mutex_unlock(&g->lock);
}

/* The first bytes, without taking them: enough to tell perftest's
 * version string from rdmaperf's header. */
/* The peer has shut its side down: what it sent so far is all. */
static int peer_done_sending(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLRDHUP };

	return poll(&p, 1, 0) == 1 && (p.revents & (POLLRDHUP | POLLHUP));
}

static int peek_first(struct rdp_oob *oob, uint64_t deadline_ns)
{
	uint8_t first[4];
	int n;

	for (;;) {
		n = rdp_oob_peek(oob, first, sizeof(first),
				 left_ms(deadline_ns));
		if (n < 0)
			return n;
		if ((size_t)n == sizeof(first) || first[0] < '0' ||
		    first[0] > '9')
			return rdp_pt_looks_like_version(first, (size_t)n);
		/* a digit so far, and the peer sends no more: it left */
		if (peer_done_sending(oob->fd))
			return -ECONNRESET;
		if (rdp_clock_mono_ns() >= deadline_ns)
			return -ETIMEDOUT;
		usleep(10000); /* a digit so far: wait for the rest */
	}
}

static int first_message(const struct rdp_opts *o, struct rdp_handoff *h,
			 uint64_t deadline_ns, char *why, size_t len)
{
	const struct rdp_secret *s = o->conn.secret;
	struct rdp_msg *m = &h->first;
	int ret;

	ret = rdp_oob_recv(&h->oob, m, left_ms(deadline_ns));
	if (ret)
		return ret;
	if (s && s->len && m->type == RDP_MSG_AUTH) {
		ret = rdp_auth_server(&h->oob, s, &m->u.auth,
				      left_ms(deadline_ns), why, len);
		if (ret)
			return ret;
		h->authenticated = 1;
		return rdp_oob_recv(&h->oob, m, left_ms(deadline_ns));
	}
	if (s && s->len) {
		snprintf(why, len,
			 "authentication required, the client "
			 "sent none");
		rdp_oob_send_error(&h->oob, -EACCES,
				   "authentication required: this server "
				   "needs the shared secret (--auth-file FILE "
				   "or RDMAPERF_AUTH_FILE)");
		return -EACCES;
	}
	if (m->type == RDP_MSG_AUTH) {
		snprintf(why, len,
			 "the client asked for authentication, "
			 "which this server runs without");
		rdp_oob_send_error(&h->oob, -EACCES,
				   "this server runs without authentication "
				   "(no --auth-file) and cannot prove it "
				   "knows your secret");
		return -EACCES;
	}
	return 0;
}

static int handshake(const struct rdp_opts *o, struct rdp_handoff *h,
		     uint64_t deadline_ns, char *why, size_t len)
{
	const struct rdp_secret *s = o->conn.secret;
	int ret;

	ret = peek_first(&h->oob, deadline_ns);
	if (ret > 0) {
		if (s && s->len) {
			snprintf(why, len,
				 "a perftest client, which "
				 "cannot authenticate");
			return -EACCES;
		}
		h->perftest = 1;
		return 0;
	}
	if (!ret)
		ret = first_message(o, h, deadline_ns, why, len);
	if (ret == -ETIMEDOUT && !why[0])
		snprintf(why, len,
			 "handshake not done within %d ms "
			 "(--handshake-timeout)",
			 o->conn.handshake_timeout_ms);
	else if (ret == -ECONNRESET && !why[0])
		snprintf(why, len, "left during the handshake");
	else if (ret == -EBADMSG && h->oob.seal.on && !why[0])
		snprintf(why, len,
			 "its first message failed the authentication check "
			 "(altered or replayed on the way)");
	else if (ret && !why[0])
		snprintf(why, len, "handshake: %s", strerror(-ret));
	return ret;
}

int rdp_gate_handshake(const struct rdp_opts *o, struct rdp_handoff *h,
		       char *why, size_t len)
{
	int64_t before = h->oob.hard_deadline_ms;
	int ret;

	/* Every wait of the handshake ends by its deadline, whatever
	 * timeout a step asks for. */
	if (!before)
		h->oob.hard_deadline_ms =
			deadline_ms(o->conn.handshake_timeout_ms);
	why[0] = '\0';
	ret = handshake(o, h, (uint64_t)h->oob.hard_deadline_ms * 1000000ull,
			why, len);
	h->oob.hard_deadline_ms = before;
	return ret;
}

static void reject_busy(struct rdp_gate *g, struct rdp_oob *oob)
{
	char text[RDP_WIRE_TEXT_MAX];

	pthread_mutex_lock(&g->lock);
	snprintf(text, sizeof(text),
		 "server busy: a test from %s has run for %ld s; it serves "
		 "one client at a time, retry when it ends",
		 g->current, (long)(time(NULL) - g->since));
	pthread_mutex_unlock(&g->lock);
	tell_and_close(oob, -EBUSY, text, 1);
}

/* The serving thread takes it, or it hears "busy". */
static void hand_over(struct rdp_gate *g, struct rdp_handoff *h)
{
	int take;

	pthread_mutex_lock(&g->lock);
	take = !g->busy;
	if (take) {
		g->busy = 1;
		snprintf(g->current, sizeof(g->current), "%s", h->oob.peer);
		g->since = time(NULL);
	}
	pthread_mutex_unlock(&g->lock);
	if (take && write(g->pipe_w, &h, sizeof(h)) == sizeof(h))
		return;
	if (take) {
		rdp_oob_close(&h->oob);
		rdp_gate_done(g);
	} else {
		reject_busy(g, &h->oob);
	}
	free(h);
}

static void *handshake_main(void *arg)
{
	struct gate_conn *gc = arg;
	struct rdp_gate *g = gc->g;
	struct rdp_handoff *h = gc->h;
	char why[RDP_WIRE_TEXT_MAX];
	int ret, cut;

	ret = rdp_gate_handshake(g->o, h, why, sizeof(why));
	/* The socket leaves the watchdog before it is closed or handed on:
	 * it could be another connection's by the time the watchdog runs. */
	pthread_mutex_lock(&g->lock);
	cut = rdp_admit_unwatch(g->admit, gc->slot);
	pthread_mutex_unlock(&g->lock);
	h->oob.hard_deadline_ms = 0;
	if (cut && !ret)
		ret = -ETIMEDOUT; /* past its deadline: whatever it sent */
	if (cut)
		snprintf(why, sizeof(why),
			 "handshake not done within %d ms "
			 "(--handshake-timeout)",
			 g->o->conn.handshake_timeout_ms);
	if (ret) {
		say_refused(g, h->oob.peer, &gc->prefix, why);
		tell_and_close(&h->oob, ret, NULL, 0);
		free(h);
	} else {
		hand_over(g, h);
	}
	pthread_mutex_lock(&g->lock);
	rdp_admit_release(g->admit, gc->slot);
	pthread_mutex_unlock(&g->lock);
	free(gc);
	return NULL;
}

static int spawn(struct gate_conn *gc)
{
	pthread_attr_t attr;
	pthread_t tid;
	int ret;

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 256 << 10);
	ret = pthread_create(&tid, &attr, handshake_main, gc);
	pthread_attr_destroy(&attr);
	return -ret;
}

/* A refused connection, answered without waiting on it. */
static void turn_away(struct rdp_gate *g, struct rdp_handoff *h,
		      const struct rdp_cidr *prefix, enum rdp_refusal r,
		      const char *why)
{
	uint8_t buf[RDP_WIRE_HDR_BYTES + RDP_WIRE_MAX_PAYLOAD];
	struct rdp_msg m = { .type = RDP_MSG_ERROR };
	size_t len;

	say_refused(g, h->oob.peer, prefix, why);
	m.u.error.code = r == RDP_REFUSE_ALLOW ? -EACCES : -EBUSY;
	snprintf(m.u.error.text, sizeof(m.u.error.text), "%s",
		 r == RDP_REFUSE_ALLOW ? "this server does not take "
					 "connections from your address "
					 "(--allow)"
				       : why);
	/* A fresh socket's send buffer takes it whole, or it is lost. */
	if (!rdp_wire_encode(&m, buf, sizeof(buf), &len))
		(void)!send(h->oob.fd, buf, len, MSG_DONTWAIT | MSG_NOSIGNAL);
	tell_and_close(&h->oob, 0, NULL, 0);
	free(h);
}

/* Admission, on the accepting thread: a slot and a handshake thread, or
 * the connection is turned away at once. */
static void let_in(struct rdp_gate *g, struct rdp_handoff *h)
{
	int64_t deadline = deadline_ms(g->o->conn.handshake_timeout_ms);
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	struct rdp_cidr prefix = { 0 };
	struct gate_conn *gc;
	char text[RDP_WIRE_TEXT_MAX];
	enum rdp_refusal r;
	unsigned int slot = 0;

	if (getpeername(h->oob.fd, (struct sockaddr *)&ss, &sl)) {
		rdp_oob_close(&h->oob); /* gone already */
		free(h);
		return;
	}
	pthread_mutex_lock(&g->lock);
	r = rdp_admit_try(g->admit, (struct sockaddr *)&ss, h->oob.fd,
			  rdp_clock_mono_ns(), (uint64_t)deadline * 1000000ull,
			  &slot, &prefix);
	pthread_mutex_unlock(&g->lock);
	if (r) {
		turn_away(g, h, &prefix, r,
			  rdp_refusal_str(r, &prefix, text, sizeof(text)));
		return;
	}
	h->oob.hard_deadline_ms = deadline;
	gc = malloc(sizeof(*gc));
	if (gc) {
		*gc = (struct gate_conn){ g, h, slot, prefix };
		if (!spawn(gc))
			return;
		free(gc);
	}
	pthread_mutex_lock(&g->lock);
	rdp_admit_unwatch(g->admit, slot);
	rdp_admit_release(g->admit, slot);
	pthread_mutex_unlock(&g->lock);
	say_refused(g, h->oob.peer, &prefix, "no thread for its handshake");
	tell_and_close(&h->oob, 0, NULL, 0);
	free(h);
}

/* The watchdog's pass and the refusal log's window; how long the acceptor
 * may sleep until the next is due (ms). */
static int tick(struct rdp_gate *g)
{
	uint64_t now = rdp_clock_mono_ns(), next;

	pthread_mutex_lock(&g->lock);
	next = rdp_admit_watchdog(g->admit, now, GATE_GRACE_NS);
	rdp_rlog_tick(g->rlog, now);
	pthread_mutex_unlock(&g->lock);
	if (next > now + GATE_TICK_NS)
		next = now + GATE_TICK_NS;
	return (int)((next - now + 999999) / 1000000);
}

static void *acceptor_main(void *arg)
{
	struct rdp_gate *g = arg;
	struct pollfd pfd = { .fd = g->lfd, .events = POLLIN };
	struct rdp_handoff *h;
	int ret;

	for (;;) {
		if (poll(&pfd, 1, tick(g)) <= 0)
			continue;
		h = calloc(1, sizeof(*h));
		ret = h ? rdp_oob_accept(g->lfd, 0, g->o->conn.oob_timeout_ms,
					 &h->oob)
			: -ENOMEM;
		if (ret) {
			free(h);
			if (ret != -ETIMEDOUT && ret != -EAGAIN &&
			    ret != -ECONNABORTED)
				usleep(100000); /* out of fds or memory */
			continue;
		}
		let_in(g, h);
	}
	return NULL;
}

static int gate_admit_create(struct rdp_gate *g)
{
	const struct rdp_conn_opts *c = &g->o->conn;
	struct rdp_admit_cfg cfg = {
		.allow = &c->allow,
		.rate = c->max_handshake_rate,
		.prefix_rate = c->max_prefix_rate,
		.v4_bits = c->ipv4_prefix_bits,
		.v6_bits = c->ipv6_prefix_bits,
	};
	int ret;

	ret = rdp_admit_create(&cfg, rdp_clock_mono_ns(), &g->admit);
	if (ret)
		return ret;
	ret = rdp_rlog_create(stdout, GATE_LOG_WINDOW_NS, &g->rlog);
	if (ret)
		rdp_admit_destroy(g->admit);
	return ret;
}

int rdp_gate_start(const struct rdp_opts *o, struct rdp_gate **out)
{
	struct rdp_gate *g;
	int fds[2], ret;
	pthread_t tid;

	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	g->o = o;
	ret = gate_admit_create(g);
	if (ret)
		goto err_free;
	ret = rdp_oob_listen(o->conn.bind, o->conn.tcp_port, &g->lfd);
	if (ret)
		goto err_admit;
	if (pipe2(fds, O_CLOEXEC)) {
		ret = -errno;
		goto err_close;
	}
	g->pipe_r = fds[0];
	g->pipe_w = fds[1];
	pthread_mutex_init(&g->lock, NULL);
	ret = pthread_create(&tid, NULL, acceptor_main, g);
	if (ret) {
		rdp_err("start the accepting thread: %s", strerror(ret));
		ret = -ret;
		goto err_pipe;
	}
	pthread_detach(tid);
	*out = g; /* as long as the process: its thread never ends */
	return 0;

err_pipe:
	close(fds[0]);
	close(fds[1]);
err_close:
	close(g->lfd);
err_admit:
	rdp_rlog_destroy(g->rlog);
	rdp_admit_destroy(g->admit);
err_free:
	free(g);
	return ret;
}

int rdp_gate_port(const struct rdp_gate *g, uint16_t *port)
{
	return rdp_oob_local_port(g->lfd, port);
}

int rdp_gate_next(struct rdp_gate *g, struct rdp_handoff **out)
{
	if (read(g->pipe_r, out, sizeof(*out)) != sizeof(*out)) {
		rdp_err("accepting thread: %s", strerror(errno));
		return -EIO;
	}
	return 0;
}

void rdp_gate_done(struct rdp_gate *g)
{
	pthread_mutex_lock(&g->lock);
	g->busy = 0;
	pthread_mutex_unlock(&g->lock);
}
