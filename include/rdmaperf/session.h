/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * One benchmark session between a client and a server: the OOB handshake,
 * resources, the test loop, the data check and the report.
 * Layer: session
 */
#ifndef RDMAPERF_SESSION_H
#define RDMAPERF_SESSION_H

struct rdp_opts;
struct rdp_oob;

/* Exit codes (STYLE.md): only main() exits, with one of these. */
enum rdp_exit {
	RDP_EXIT_OK = 0,
	RDP_EXIT_FAIL = 1,
	RDP_EXIT_USAGE = 2,
	RDP_EXIT_UNSUPPORTED = 77,
};

/* Run the client's test against o->conn.host; returns enum rdp_exit. */
int rdp_session_client(const struct rdp_opts *o);

/* Serve one connected client; returns 0 or -errno (already logged). */
int rdp_session_serve(const struct rdp_opts *o, struct rdp_oob *oob);

/* Listen and serve clients; once: return after the first. */
int rdp_server_loop(const struct rdp_opts *o, int once);

/* Map a negative errno from a session to an exit code. */
int rdp_exit_code(int err);

/* At the wire's edge: the session's own state in messages and back. */
struct rdp_counters;
struct rdp_ctr_pair;
struct rdp_placement;
struct rdp_msg_result;
struct rdp_msg_accept;

/* Deltas into a RESULT, non-zero ones first when they do not all fit. */
void rdp_ctr_to_result(const struct rdp_counters *d, struct rdp_msg_result *r);
/* The peer's deltas from its RESULT. */
void rdp_ctr_from_result(struct rdp_ctr_pair *p,
			 const struct rdp_msg_result *r);
/* The placement fields of a server's ACCEPT. */
void rdp_place_to_accept(const struct rdp_placement *pl,
			 struct rdp_msg_accept *a);

#endif /* RDMAPERF_SESSION_H */
