/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The server's door: a thread owns the listening socket and gives each
 * connection a handshake thread of its own, which checks --allow before
 * reading a byte, keeps to the handshake rate and to one handshake per
 * source address, takes the client's first message (and its proof of the
 * secret) before a deadline, and only then hands the client to the one
 * serving thread, or answers "busy". A client that trickles its bytes
 * holds a handshake thread until its deadline, never the serving thread.
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

#define GATE_MAX_HANDSHAKES 64 /* in progress at once, all sources */

struct rdp_gate {
	const struct rdp_opts *o;
	int lfd;
	int pipe_r, pipe_w; /* struct rdp_handoff pointers */
	pthread_mutex_t lock;
	int busy;	  /* a client is being served */
	char current[80]; /* its address, for the busy message */
	time_t since;
	/* handshakes in progress: their source addresses */
	char active[GATE_MAX_HANDSHAKES][80];
	uint32_t n_active;
	/* --max-handshake-rate: a bucket of one second's handshakes */
	double tokens;
	uint64_t refilled_ns;
};

struct gate_conn {
	struct rdp_gate *g;
	struct rdp_handoff *h;
};

static int64_t left_ms(uint64_t deadline_ns)
{
	uint64_t now = rdp_clock_mono_ns();

	return now >= deadline_ns ? 1
				  : (int64_t)((deadline_ns - now) / 1000000);
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

/* The text (if any) to the client, then close: reading what it sent
 * first, since closing with unread data resets the connection, which
 * could overtake the error. */
static void tell_and_close(struct rdp_oob *oob, int code, const char *text)
{
	if (text)
		rdp_oob_send_error(oob, code, text);
	shutdown(oob->fd, SHUT_WR);
	drain_briefly(oob->fd);
	rdp_oob_close(oob);
}

/* One line in the server's log, then tell_and_close. */
static void refuse(struct rdp_oob *oob, int code, const char *log_why,
		   const char *text)
{
	printf("client %s: refused: %s\n", oob->peer, log_why);
	fflush(stdout);
	tell_and_close(oob, code, text);
}

/* The first bytes, without taking them: enough to tell perftest's
 * version string from rdmaperf's header. */
static int peek_first(struct rdp_oob *oob, uint64_t deadline_ns)
{
	uint8_t first[4];
	int n;

	for (;;) {
		n = rdp_oob_peek(oob, first, sizeof(first),
				 (int)left_ms(deadline_ns));
		if (n < 0)
			return n;
		if ((size_t)n == sizeof(first) || first[0] < '0' ||
		    first[0] > '9')
			return rdp_pt_looks_like_version(first, (size_t)n);
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

	ret = rdp_oob_recv(&h->oob, m, (int)left_ms(deadline_ns));
	if (ret)
		return ret;
	if (s && s->len && m->type == RDP_MSG_AUTH) {
		ret = rdp_auth_server(&h->oob, s, &m->u.auth,
				      (int)left_ms(deadline_ns), why, len);
		if (ret)
			return ret;
		h->authenticated = 1;
		return rdp_oob_recv(&h->oob, m, (int)left_ms(deadline_ns));
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

int rdp_gate_handshake(const struct rdp_opts *o, struct rdp_handoff *h,
		       char *why, size_t len)
{
	uint64_t deadline_ns =
		rdp_clock_mono_ns() +
		(uint64_t)o->conn.handshake_timeout_ms * 1000000ull;
	const struct rdp_secret *s = o->conn.secret;
	int ret;

	why[0] = '\0';
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
	else if (ret && !why[0])
		snprintf(why, len, "handshake: %s", strerror(-ret));
	return ret;
}

/* --max-handshake-rate: a bucket refilled at the rate, one second deep. */
static int take_token(struct rdp_gate *g)
{
	double rate = g->o->conn.max_handshake_rate;
	uint64_t now = rdp_clock_mono_ns();

	g->tokens += rate * (double)(now - g->refilled_ns) / 1e9;
	if (g->tokens > rate)
		g->tokens = rate;
	g->refilled_ns = now;
	if (g->tokens < 1.0)
		return 0;
	g->tokens -= 1.0;
	return 1;
}

/* Under the lock: the reason to turn this source away, or NULL. */
static const char *admit(struct rdp_gate *g, const char *peer)
{
	uint32_t i;

	for (i = 0; i < g->n_active; i++)
		if (!strcmp(g->active[i], peer))
			return "a handshake from this address is in progress";
	if (g->n_active == GATE_MAX_HANDSHAKES)
		return "too many handshakes in progress";
	if (!take_token(g))
		return "over the handshake rate (--max-handshake-rate)";
	snprintf(g->active[g->n_active++], sizeof(g->active[0]), "%s", peer);
	return NULL;
}

static void release(struct rdp_gate *g, const char *peer)
{
	uint32_t i;

	pthread_mutex_lock(&g->lock);
	for (i = 0; i < g->n_active; i++)
		if (!strcmp(g->active[i], peer)) {
			g->active[i][0] = '\0';
			memcpy(g->active[i], g->active[--g->n_active],
			       sizeof(g->active[0]));
			break;
		}
	pthread_mutex_unlock(&g->lock);
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
	tell_and_close(oob, -EBUSY, text);
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

/* --allow, before a byte is read. */
static int allowed(const struct rdp_gate *g, const struct rdp_oob *oob)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	return !getpeername(oob->fd, (struct sockaddr *)&ss, &sl) &&
	       rdp_cidr_match(&g->o->conn.allow, (struct sockaddr *)&ss);
}

static void *handshake_main(void *arg)
{
	struct gate_conn *gc = arg;
	struct rdp_gate *g = gc->g;
	struct rdp_handoff *h = gc->h;
	char peer[sizeof(h->oob.peer)], why[RDP_WIRE_TEXT_MAX];
	const char *no;

	free(gc);
	snprintf(peer, sizeof(peer), "%s", h->oob.peer);
	if (!allowed(g, &h->oob)) {
		refuse(&h->oob, -EACCES, "not in --allow",
		       "this server does not take connections from your "
		       "address (--allow)");
		free(h);
		return NULL;
	}
	pthread_mutex_lock(&g->lock);
	no = admit(g, peer);
	pthread_mutex_unlock(&g->lock);
	if (no) {
		refuse(&h->oob, -EBUSY, no, no);
		free(h);
		return NULL;
	}
	if (rdp_gate_handshake(g->o, h, why, sizeof(why))) {
		refuse(&h->oob, -EACCES, why, NULL);
		free(h);
	} else {
		hand_over(g, h);
	}
	release(g, peer);
	return NULL;
}

/* A handshake thread for each connection. */
static void let_in(struct rdp_gate *g, struct rdp_handoff *h)
{
	struct gate_conn *gc;
	pthread_attr_t attr;
	pthread_t tid;
	int ret;

	gc = malloc(sizeof(*gc));
	if (gc) {
		gc->g = g;
		gc->h = h;
		pthread_attr_init(&attr);
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		pthread_attr_setstacksize(&attr, 256 << 10);
		ret = pthread_create(&tid, &attr, handshake_main, gc);
		pthread_attr_destroy(&attr);
		if (!ret)
			return;
		free(gc);
	}
	refuse(&h->oob, -ENOMEM, "no thread for its handshake", NULL);
	free(h);
}

static void *acceptor_main(void *arg)
{
	struct rdp_gate *g = arg;
	struct rdp_handoff *h;

	for (;;) {
		h = calloc(1, sizeof(*h));
		if (!h || rdp_oob_accept(g->lfd, -1, g->o->conn.oob_timeout_ms,
					 &h->oob)) {
			free(h);
			usleep(100000);
			continue;
		}
		let_in(g, h);
	}
	return NULL;
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
	g->tokens = o->conn.max_handshake_rate;
	g->refilled_ns = rdp_clock_mono_ns();
	ret = rdp_oob_listen(o->conn.bind, o->conn.tcp_port, &g->lfd);
	if (ret)
		goto err_free;
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
err_free:
	free(g);
	return ret;
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
