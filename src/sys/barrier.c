/* SPDX-License-Identifier: BSD-2-Clause */
/* The start barrier of a multi-rail run, over socketpairs (barrier.h). */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>

#include <rdmaperf/barrier.h>
#include <rdmaperf/clock.h>

#define BARRIER_MAX 64

int rdp_barrier_from_env(void)
{
	const char *v = getenv(RDP_BARRIER_ENV);
	char *end;
	long fd;

	if (!v || !*v)
		return -1;
	fd = strtol(v, &end, 10);
	return *end || fd < 0 || fd > 65535 ? -1 : (int)fd;
}

static int64_t ms_left(uint64_t deadline_ns)
{
	uint64_t now = rdp_clock_mono_ns();

	return now >= deadline_ns ? 0
				  : (int64_t)((deadline_ns - now) / 1000000);
}

int rdp_barrier_wait(int fd, int timeout_ms, char *why, size_t len)
{
	uint64_t deadline =
		rdp_clock_mono_ns() + (uint64_t)timeout_ms * 1000000;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char buf[256];
	ssize_t n;

	if (send(fd, "R", 1, MSG_NOSIGNAL) != 1)
		return -ECONNRESET;
	for (;;) {
		n = poll(&pfd, 1, (int)ms_left(deadline));
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0)
			return -ETIMEDOUT;
		n = recv(fd, buf, sizeof(buf) - 1, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -ECONNRESET;
		if (buf[0] == 'G')
			return 0;
		buf[n] = '\0';
		snprintf(why, len, "%s", buf[0] == 'X' ? buf + 1 : "cancelled");
		return -ECANCELED;
	}
}

/* Tell every rail but skip (-1: all) why the round is off. */
static void cancel(const int *fds, int n, int skip, const char *reason)
{
	char msg[256];
	int k, len;

	len = snprintf(msg, sizeof(msg), "X%s", reason) + 1;
	if (len > (int)sizeof(msg))
		len = (int)sizeof(msg);
	for (k = 0; k < n; k++)
		if (k != skip)
			(void)send(fds[k], msg, (size_t)len, MSG_NOSIGNAL);
}

int rdp_barrier_lead(const int *fds, const char *const *names, int n,
		     int bound_ms, struct rdp_barrier_round *r)
{
	struct pollfd pfd[BARRIER_MAX];
	uint64_t first = 0, last = 0, deadline = UINT64_MAX;
	int ready[BARRIER_MAX] = { 0 }, n_ready = 0, n_gone = 0, k, rc;
	char reason[200], c;

	memset(r, 0, sizeof(*r));
	r->culprit = -1;
	if (n > BARRIER_MAX)
		return -E2BIG;
	for (k = 0; k < n; k++)
		pfd[k] = (struct pollfd){ .fd = fds[k], .events = POLLIN };
	while (n_ready + n_gone < n) {
		rc = poll(pfd, (nfds_t)n,
			  deadline == UINT64_MAX ? -1 : (int)ms_left(deadline));
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc == 0)
			break; /* past the bound */
		for (k = 0; k < n; k++) {
			if (!pfd[k].revents || pfd[k].fd < 0)
				continue;
			if (recv(fds[k], &c, 1, 0) == 1 && c == 'R') {
				ready[k] = 1;
				n_ready++;
				last = rdp_clock_mono_ns();
				if (!first) {
					first = last;
					deadline = first +
						   (uint64_t)bound_ms * 1000000;
				}
			} else {
				n_gone++; /* ended: EOF, or not a rail */
				if (r->culprit < 0)
					r->culprit = k;
				r->gone = 1;
			}
			pfd[k].fd = -1; /* one message a round */
		}
	}
	if (n_gone == n) {
		r->done = 1;
		r->culprit = -1;
		r->gone = 0;
		return 0;
	}
	if (n_ready == n) {
		r->spread_ns = last - first;
		for (k = 0; k < n; k++)
			(void)send(fds[k], "G", 1, MSG_NOSIGNAL);
		return 0;
	}
	if (!n_gone) {
		for (k = 0; k < n && ready[k]; k++)
			;
		r->culprit = k;
		snprintf(reason, sizeof(reason),
			 "rail %d (%s) was not ready within %d ms of the first "
			 "rail: start barrier cancelled",
			 k, names[k], bound_ms);
		cancel(fds, n, -1, reason);
		return -ETIMEDOUT;
	}
	snprintf(reason, sizeof(reason),
		 "rail %d (%s) ended before the start barrier: start barrier "
		 "cancelled",
		 r->culprit, names[r->culprit]);
	cancel(fds, n, r->culprit, reason);
	return -ECONNRESET;
}
