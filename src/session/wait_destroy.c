/* SPDX-License-Identifier: BSD-2-Clause */
/* --wait_destroy SEC: the client keeps its last point's QPs, CQs, MRs and
 * PD SEC seconds after the run, for counters or a debugger to read them;
 * SIGINT or SIGTERM ends the wait, and the teardown follows as usual. */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include <rdmaperf/clock.h>
#include <rdmaperf/log.h>

#include "session_int.h"

/* The signal that ended the wait; a handler can reach nothing else. */
static volatile sig_atomic_t wait_caught;

static void on_signal(int signo)
{
	wait_caught = signo;
}

/* Short naps, so that a signal taken on another thread ends the wait
 * within one of them. */
#define NAP_NS 20000000l

int rdp_session_wait_destroy(unsigned int sec, const char *dev)
{
	struct timespec nap = { .tv_nsec = NAP_NS };
	struct sigaction sa, old_int, old_term;
	uint64_t end_ns;
	int signo;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	wait_caught = 0;
	if (sigaction(SIGINT, &sa, &old_int))
		return -errno;
	if (sigaction(SIGTERM, &sa, &old_term)) {
		sigaction(SIGINT, &old_int, NULL);
		return -errno;
	}
	rdp_info("%s: keeping the QPs, CQs and MRs %u s before the teardown "
		 "(--wait_destroy; Ctrl-C ends the wait)",
		 dev, sec);
	end_ns = rdp_clock_mono_ns() + (uint64_t)sec * 1000000000ull;
	while (!wait_caught && rdp_clock_mono_ns() < end_ns)
		nanosleep(&nap, NULL);
	signo = wait_caught;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (signo)
		rdp_info("%s: the wait before the teardown ended by %s", dev,
			 signo == SIGINT ? "SIGINT" : "SIGTERM");
	return signo;
}
