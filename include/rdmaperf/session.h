/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * One benchmark session between a client and a server: the OOB handshake,
 * resources, the test loop, the data check and the report.
 * Layer: session
 */
#ifndef RDMAPERF_SESSION_H
#define RDMAPERF_SESSION_H

#include <stddef.h>
#include <stdint.h>

struct rdp_engine_ops;
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
/* --perftest: o's test against a perftest ib_* server at o's HOST, or
 * without HOST served to one perftest client. */
/* rdmaperf-server: a client whose first bytes are perftest's version;
 * served when it brings its parameters (6.28 and later), else refused
 * with the one-shot command to use. oob stays the caller's. */
int rdp_session_perftest_serve(const struct rdp_opts *o,
			       const struct rdp_engine_ops *eng,
			       struct rdp_oob *oob);
int rdp_session_perftest(const struct rdp_opts *o,
			 const struct rdp_engine_ops *eng);

/* Listen and serve clients; once: return after the first. */
int rdp_server_loop(const struct rdp_opts *o, int once);

/*
 * The same on engine eng (rdp_engine_verbs in the programs, a fake in the
 * tests). The client takes oob, already connected, instead of connecting
 * to o->conn.host when oob is not NULL, and closes it when done.
 */
int rdp_session_client_with(const struct rdp_opts *o,
			    const struct rdp_engine_ops *eng,
			    struct rdp_oob *oob);

struct json_t;
struct rdp_result;
/* What a client session measured, the caller's to free. */
struct rdp_session_results {
	struct rdp_result *points; /* n, in the order they ran */
	size_t n;
	uint64_t data_checked;	/* over all points, in check_unit */
	const char *check_unit; /* the test's */
	struct json_t *doc;	/* the document --json-file would hold (one
			       reference) */
};
struct rdp_report_sink;
/*
 * rdp_session_client_with, with extra (NULL: none; stays the caller's)
 * called after the session's own report sinks, and on RDP_EXIT_OK the
 * points it measured in *out (out NULL: not asked for; else *out is
 * untouched on failure). Asked for, the JSON document is built even when
 * no option asks for it.
 */
int rdp_session_client_results(const struct rdp_opts *o,
			       const struct rdp_engine_ops *eng,
			       struct rdp_oob *oob,
			       struct rdp_report_sink *extra,
			       struct rdp_session_results **out);
/* Accepts NULL. */
void rdp_session_results_free(struct rdp_session_results *r);

/* Serve one connected client; returns 0 or -errno (already logged). */
int rdp_session_serve_with(const struct rdp_opts *o,
			   const struct rdp_engine_ops *eng,
			   struct rdp_oob *oob);
int rdp_server_loop_with(const struct rdp_opts *o,
			 const struct rdp_engine_ops *eng, int once);

struct rdp_secret;
/*
 * The shared secret of --auth-file (the client: else $RDMAPERF_AUTH_FILE)
 * into s, and o->conn.secret pointing at it. 0 when there is none to
 * load, or -errno with one line logged.
 */
int rdp_session_load_secret(struct rdp_opts *o, int client,
			    struct rdp_secret *s);

/* Map a negative errno from a session to an exit code. */
int rdp_exit_code(int err);

#endif /* RDMAPERF_SESSION_H */
