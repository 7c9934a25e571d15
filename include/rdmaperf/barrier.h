/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A start barrier between processes: the rails of a multi-rail run each
 * hold one end of a socketpair, the parent the other ends. Before each
 * point's timed loop a rail says "ready" and waits; the parent releases
 * all of them at once when every rail is ready, or cancels all of them,
 * naming the rail, when one is late past a bound or has exited.
 *
 *   rail k                 parent
 *     | --- 'R' ------------> |  first 'R' starts the bound
 *     | <-- 'G' ------------- |  all ready: every rail at once
 *     | <-- 'X' reason\0 ---- |  or: late or gone, every other rail
 * Layer: sys
 */
#ifndef RDMAPERF_BARRIER_H
#define RDMAPERF_BARRIER_H

#include <stddef.h>
#include <stdint.h>

/* The variable that hands a rail its end of the socketpair. */
#define RDP_BARRIER_ENV "RDMAPERF_START_BARRIER_FD"

/* This process's end from the environment, or -1 when it has none. */
int rdp_barrier_from_env(void);

/*
 * A rail's side: ready, then wait up to timeout_ms for the release. 0,
 * -ECANCELED (the parent cancelled: its reason in why), -ECONNRESET (the
 * parent is gone) or -ETIMEDOUT.
 */
int rdp_barrier_wait(int fd, int timeout_ms, char *why, size_t len);

/* What one round of the parent's side saw. */
struct rdp_barrier_round {
	int done;	    /* every rail had ended: no round */
	int culprit;	    /* the rail late or gone, -1 none */
	int gone;	    /* the culprit exited rather than being late */
	uint64_t spread_ns; /* first ready to last ready */
};

/*
 * The parent's side of one round over n rails' fds: release them all, or
 * cancel the others with a reason naming names[culprit]. 0 released (or
 * done), -ETIMEDOUT a rail was late past bound_ms after the first was
 * ready, -ECONNRESET a rail ended while others waited.
 */
int rdp_barrier_lead(const int *fds, const char *const *names, int n,
		     int bound_ms, struct rdp_barrier_round *r);

#endif /* RDMAPERF_BARRIER_H */
