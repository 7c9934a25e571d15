/* SPDX-License-Identifier: BSD-2-Clause */
/* The client's state, shared by its driver (client.c) and its report
 * sinks (client_sinks.c). */
#ifndef RDMAPERF_CLIENT_INT_H
#define RDMAPERF_CLIENT_INT_H

#include <stddef.h>

#include "session_int.h"
#include <rdmaperf/placement.h>
#include <rdmaperf/sink.h>
#include <rdmaperf/sweep.h>
#include <rdmaperf/verdict.h>

struct client {
	struct rdp_session_base s; /* options, device, QPs, reports */
	struct rdp_host_info peer_host;
	struct rdp_host_info local_host;
	struct rdp_peer_info peer;
	uint16_t cm_port;	      /* -R: where the server listens, else 0 */
	uint32_t cm_nonce;	      /* -R: echoed in each connect request */
	struct rdp_decisions dec;     /* the loop's, for this point */
	struct rdp_report_sink *json; /* in sinks, NULL when none */
	int want;		      /* the caller asks for the points */
	struct rdp_session_results *out; /* them, once the run succeeded */
	struct rdp_verdict verdict;	 /* thresholds, line rate */
	struct rdp_progress prog;	 /* sweeps, on a terminal */
	struct rdp_adapt_info adapt;	 /* --time-per-point, this point */
	struct rdp_placement place;
	int authenticated;	       /* both sides proved the shared secret */
	int barrier_fd;		       /* a rail's start barrier, -1 none */
	struct rdp_session_keep *keep; /* the caller's, NULL: none */
	struct rdp_session_phases ph;  /* where this session's time went */
	uint64_t mark_ns;	       /* rdp_clock_mono_ns() at the last lap */
	struct rdp_soak *soak;	       /* --soak's record, NULL none */
};

static inline struct client *client_of(struct rdp_session_base *s)
{
	return (struct client *)((char *)s - offsetof(struct client, s));
}

/* The reports, in the order their lines appear: the text, --output's
 * figure, the JSON document, the thresholds, the adaptive line. */
int rdp_client_sinks(struct client *c);

/* client_stop.c: has a signal asked the run to end? */
int rdp_client_stopped(const struct client *c);
/* After the timed loop: a point a signal cut short is marked; a failed
 * loop asks the dialogue why, and a server whose connection closed is
 * named (*ret becomes -ECONNRESET). */
void rdp_client_loop_ended(struct client *c, struct rdp_result *res, int *ret);
/* The summary of a run a signal ended: n of planned points, last the
 * final one handed to the sinks (NULL none). */
void rdp_client_summary_stop(const struct client *c, size_t planned, size_t n,
			     const struct rdp_result *last,
			     struct rdp_report_summary *sum);
/* The exit status: 128 + the signal that ended a run early (as a shell
 * reports it), else rc. */
int rdp_client_exit_code(const struct client *c, int rc);

#endif /* RDMAPERF_CLIENT_INT_H */
