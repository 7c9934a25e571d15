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

/*
 * What a program that runs many sessions on one device (rdmaperf-mesh's
 * rounds) keeps from one to the next, on one side: the calibrated clock,
 * the open device, the thread's placement, and on the device a plain
 * connection's PD, registered buffer and CQs (each session's QPs are
 * its own). Made with reuse 0 it keeps nothing and only counts and
 * times. The caller's; one thread at a time.
 */
struct rdp_session_keep;
int rdp_session_keep_create(int reuse, struct rdp_session_keep **out);
/* Closes the kept device; accepts NULL. */
void rdp_session_keep_free(struct rdp_session_keep *k);
/*
 * Before the first session, on the thread that will run them: the clock
 * calibrated, the device o names opened and this thread placed near it,
 * so that the first session costs what the later ones do. 0, or the
 * device's error (logged); the sessions try again either way.
 */
int rdp_session_keep_warm(struct rdp_session_keep *k,
			  const struct rdp_engine_ops *eng,
			  const struct rdp_opts *o);

/* What the sessions run with a keep did, from its creation. */
struct rdp_session_keep_counts {
	uint32_t sessions;
	uint32_t dev_opens;
	uint32_t clock_calibrations;
	uint32_t conns_built;  /* PD, buffer, MR, CQs and QPs made */
	uint32_t conns_reused; /* QPs made on a kept connection's rest */
};
void rdp_session_keep_counts(const struct rdp_session_keep *k,
			     struct rdp_session_keep_counts *out);

/* Where the last client session run with a keep spent its time, s. */
struct rdp_session_phases {
	double start_s;	   /* clock, device, placement, the reports */
	double dial_s;	   /* TCP connect, the shared secret's proof */
	double hello_s;	   /* HELLO both ways */
	double params_s;   /* PARAMS to ACCEPT: the server's connection */
	double qps_s;	   /* this side's connection, QP_INFO, RTR, RTS */
	double prepare_s;  /* buffers filled, receives posted */
	double loop_s;	   /* READY and the timed loop */
	double done_s;	   /* DONE, the server's RESULT, the data check */
	double report_s;   /* the report sinks' work */
	double teardown_s; /* connection, channel and device let go */
};
void rdp_session_keep_phases(const struct rdp_session_keep *k,
			     struct rdp_session_phases *out);

/* rdp_session_client_results with keep (NULL: nothing kept). */
int rdp_session_client_kept(const struct rdp_opts *o,
			    const struct rdp_engine_ops *eng,
			    struct rdp_oob *oob, struct rdp_session_keep *keep,
			    struct rdp_report_sink *extra,
			    struct rdp_session_results **out);
/* rdp_session_serve_with with keep (NULL: nothing kept). */
int rdp_session_serve_kept(const struct rdp_opts *o,
			   const struct rdp_engine_ops *eng,
			   struct rdp_oob *oob, struct rdp_session_keep *keep);

/* Map a negative errno from a session to an exit code. */
int rdp_exit_code(int err);

#endif /* RDMAPERF_SESSION_H */
