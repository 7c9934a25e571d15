/* SPDX-License-Identifier: BSD-2-Clause */
/* How a client run ends early: a signal (SIGINT, SIGTERM) stops the
 * sweep, its current point measured up to it and marked; a server that
 * left mid-test is named as soon as its connection closes. */
#include <errno.h>
#include <signal.h>

#include "client_int.h"
#include <rdmaperf/engine_ops.h>
#include <rdmaperf/log.h>
#include <rdmaperf/oob.h>

int rdp_client_stopped(const struct client *c)
{
	(void)c;
	return rdp_session_signal() != 0;
}

/* A live run (--run_infinitely, --soak) ends by a signal as it should:
 * that is no interruption. */
static int signal_ends_it(const struct client *c)
{
	return !(c->s.p.flags & RDP_PARAM_LIVE);
}

void rdp_client_loop_ended(struct client *c, struct rdp_result *res, int *ret)
{
	if (!*ret) {
		if (rdp_client_stopped(c) && signal_ends_it(c))
			res->interrupted = 1;
		return;
	}
	c->s.proto->loop_failed(&c->s);
	if (*ret != -ECONNRESET && !rdp_oob_peer_gone(c->s.oob.fd))
		return;
	rdp_err("the server at %s closed the connection mid-test (it died or "
		"was stopped)",
		c->s.oob.peer);
	*ret = -ECONNRESET;
}

void rdp_client_summary_stop(const struct client *c, size_t planned, size_t n,
			     const struct rdp_result *last,
			     struct rdp_report_summary *sum)
{
	if (!rdp_client_stopped(c) || !signal_ends_it(c))
		return;
	sum->signo = rdp_session_signal();
	sum->planned = planned;
	sum->reported = n;
	sum->partial = last && last->interrupted;
}

int rdp_client_exit_code(const struct client *c, int rc)
{
	if (rdp_client_stopped(c) && signal_ends_it(c) && rc <= RDP_EXIT_FAIL)
		return 128 + rdp_session_signal();
	return rc;
}

/* The command line's client: SIGINT and SIGTERM end it with what it
 * measured so far (a second one at once). */
int rdp_session_client(const struct rdp_opts *o)
{
	int rc;

	if (rdp_session_signals_arm())
		return RDP_EXIT_FAIL;
	if (o->conn.perftest)
		rc = rdp_session_perftest(o, &rdp_engine_verbs);
	else
		rc = rdp_session_client_with(o, &rdp_engine_verbs, NULL);
	rdp_session_signals_disarm();
	return rc;
}
