/* SPDX-License-Identifier: BSD-2-Clause */
/* Session internals shared by the client and server sides. */
#ifndef RDMAPERF_SESSION_INT_H
#define RDMAPERF_SESSION_INT_H

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/cidr.h>
#include <rdmaperf/clock.h>
#include <rdmaperf/counters.h>
#include <rdmaperf/devbuf.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/engine_ops.h>
#include <rdmaperf/oob.h>
#include <rdmaperf/placement.h>
#include <rdmaperf/report.h>
#include <rdmaperf/run_opts.h>
#include <rdmaperf/session.h>
#include <rdmaperf/session_steps.h>
#include <rdmaperf/sink.h>

/*
 * Deadline for a step whose work grows with the buffers (allocate, register,
 * fill, check): the message timeout plus 2 s per 256 MiB.
 */
int rdp_slow_step_ms(const struct rdp_opts *o, const struct rdp_params *p);
struct rdp_cm_opts;

/*
 * The set-up both peers of a run share, whatever the out-of-band dialogue
 * (rdmaperf's messages in client.c, perftest's exchange in perftest.c).
 */
struct rdp_clock;
/* The cycle counter, calibrated; its one line when it does not advance. */
int rdp_session_clock(struct rdp_clock *clk);
/* The device o names, opened for RDMA CM when the parameters ask it. */
int rdp_session_dev_open(const struct rdp_engine_ops *eng,
			 const struct rdp_opts *o, struct rdp_dev **out);
/* A side's kept state (keep.c, rdp_session_keep_create()). */
struct rdp_session_keep {
	int reuse;			  /* keep; else only count and time */
	const struct rdp_engine_ops *eng; /* dev's */
	struct rdp_dev *dev;		  /* kept open, NULL none */
	char name[64];			  /* what dev was opened for */
	int port, cm;
	struct rdp_clock clk;
	int have_clk;
	struct rdp_placement place; /* on dev, this thread's */
	int placed;
	struct rdp_session_keep_counts n; /* conns: of devices closed */
	struct rdp_session_phases last;
};
/* Each accepts k NULL (nothing kept) and then does what a lone session
 * does. The clock: k's, else calibrated (kept when k reuses). */
int rdp_session_keep_clock(struct rdp_session_keep *k, struct rdp_clock *clk);
/* The device name/port/cm: k's when opened for the same, else opened
 * (and kept, its connections too, when k reuses). */
int rdp_session_keep_dev(struct rdp_session_keep *k,
			 const struct rdp_engine_ops *eng, const char *name,
			 int port, int cm, const struct rdp_mem_opts *mo,
			 struct rdp_dev **out);
/* A session is done with dev: closed unless k keeps it. */
void rdp_session_keep_release(struct rdp_session_keep *k,
			      const struct rdp_engine_ops *eng,
			      struct rdp_dev *dev);
struct rdp_place_opts;
struct rdp_placement;
/* This thread placed near dev: once per kept device. */
int rdp_session_keep_place(struct rdp_session_keep *k,
			   const struct rdp_place_opts *po,
			   const struct rdp_dev *dev,
			   struct rdp_placement *out);
/* A session ended: counted, its phases (NULL: none) the last. */
void rdp_session_keep_done(struct rdp_session_keep *k,
			   const struct rdp_session_phases *ph);

/* o->conn's server dialled unless oob is open; the message timeout set. */
int rdp_session_dial(const struct rdp_opts *o, struct rdp_oob *oob);
/* The text report's stream: stdout, or /dev/null when quiet (stdout
 * carries a document alone); its one line when that cannot open. */
int rdp_session_text_out(int quiet, FILE **out);
/* This side's QPs as p asks: the connection's settings and the path. */
void rdp_session_qp_cfg(const struct rdp_opts *o, const struct rdp_params *p,
			enum rdp_side side, const struct rdp_oob *oob,
			struct rdp_conn_cfg *cfg, struct rdp_path_opts *path);
/* The client's warning when the CPU frequency governor is not
 * 'performance' (unless -F). */
void rdp_session_governor_check(const struct rdp_opts *o);
struct rdp_limits;
/* The run's thresholds, -w and -y folded in. */
void rdp_session_limits(const struct rdp_opts *o, struct rdp_limits *lim);
/* --threads: a CPU each, or its one line: 0 or -errno. */
int rdp_session_threads_fit(const struct rdp_opts *o);
/* A run's constants from the options: its reporting and stall clocks. */
void rdp_session_run_init(struct rdp_run *run, const struct rdp_opts *o,
			  const struct rdp_params *p, struct rdp_conn *conn,
			  const struct rdp_clock *clk, enum rdp_side side,
			  int oob_fd);
/*
 * The state every driver of a dialogue shares, whatever the dialogue:
 * embedded in the client's (struct client, client.c), pointed to from
 * perftest's peer (struct pt_peer, perftest_int.h).
 */
struct rdp_session_proto_ops;
struct pt_peer;
struct rdp_session_base {
	const struct rdp_opts *o;
	const struct rdp_engine_ops *eng;
	const struct rdp_session_proto_ops *proto; /* the dialogue */
	struct pt_peer *pt; /* perftest's own state; NULL in rdmaperf's */
	struct rdp_oob oob;
	struct rdp_dev *dev;
	struct rdp_conn *conn; /* this side's QPs, NULL between points */
	struct rdp_clock clk;
	struct rdp_params p; /* as agreed: the options plus what the
			      * device implies */
	struct rdp_run run;  /* a same-QPs dialogue's, made by its qps */
	int run_prepared;    /* qps prepared run for every size */
	FILE *text;	     /* the text report: stdout, or /dev/null */
	struct rdp_report_sinks sinks;
	struct rdp_report_info info;
	struct rdp_ctr_pair ctr; /* port counters of the current point */
	uint64_t ev_t0_ns; /* the run's start: event times count from it */
	uint64_t ev_seq;   /* the next of dev's events a point takes */
};

/*
 * The link's health (health.c). A session's events count from t0_ns and
 * start with the next its device logs.
 */
void rdp_session_events_begin(struct rdp_session_base *s, uint64_t t0_ns);
/* The device's events since the last point into res (failed: the point
 * is not reported, so they are printed on stderr instead). */
void rdp_session_point_events(struct rdp_session_base *s,
			      struct rdp_result *res, int failed);
/* The server's: dev's events since *cursor, a line each on stdout. */
void rdp_session_server_events(struct rdp_dev *dev, uint64_t *cursor,
			       uint64_t t0_ns, const char *peer);
/* --soak: its rules from o and the verdict v (--min-bw, the line rate),
 * dev's port counters and events, bad intervals said on text. */
struct rdp_soak;
struct rdp_soak_log;
struct rdp_verdict;
struct rdp_live_point;
int rdp_soak_create(const struct rdp_opts *o, const struct rdp_verdict *v,
		    const struct rdp_dev *dev, FILE *text,
		    struct rdp_soak **out);
void rdp_soak_free(struct rdp_soak *s); /* accepts NULL */
const struct rdp_soak_log *rdp_soak_record(const struct rdp_soak *s);
/* The timed run starts: the first interval's counters and events. */
void rdp_soak_arm(struct rdp_soak *s);
/* An interval ended (the reporter's thread): judged, recorded, said when
 * bad; 1 when the soak has run its length. */
int rdp_soak_tick(struct rdp_soak *s, const struct rdp_live_point *pt);
/* The run ended, by signo (0: it ran its length). */
void rdp_soak_ended(struct rdp_soak *s, int signo);

/*
 * A client's out-of-band dialogue, step by step, behind one interface:
 * rdmaperf's own messages (rdp_proto_rdmaperf, client.c) and perftest's
 * exchange (rdp_proto_perftest, perftest_proto.c). client.c's driver
 * calls the steps in this order:
 *
 *   start - open - hello -+- params - qps -+- ready - loop - done -+- close
 *                         |         begin  |   (loop_failed when   |
 *                         |                |    the loop fails)    |
 *                         |                +-- each size ----------+ perftest
 *                         +-- each point, fresh QPs ---------------+ rdmaperf
 *
 * (perftest.c drives the same steps for perftest's server role.) Each
 * step returns 0 or -errno, its failure logged once, unless said.
 */
struct rdp_run;
struct rdp_result;

/* Row flags. */
enum {
	/* params and qps once, then every size on those QPs (perftest's
	 * -a); the row's qps makes s->run, and begin prints the head */
	RDP_PROTO_SAME_QPS = 1 << 0,
	/* no data check: the report ends without its summary, verdict or
	 * data check line */
	RDP_PROTO_NO_DATA_CHECK = 1 << 1,
};

struct rdp_session_proto_ops {
	const char *name;
	unsigned int flags; /* RDP_PROTO_* */
	/* The dialogue's own start-up (its checks, the parameters, the
	 * reports, the device): an enum rdp_exit. NULL: the client's. */
	int (*start)(struct rdp_session_base *s);
	/* The connection to the peer, authenticated where asked. */
	int (*open)(struct rdp_session_base *s);
	/* Who each side is (tool, host; perftest: version, page, MTU). */
	int (*hello)(struct rdp_session_base *s);
	/* The parameters of what runs next, agreed with the peer. */
	int (*params)(struct rdp_session_base *s);
	/* This side's QPs, made and connected to the peer's. */
	int (*qps)(struct rdp_session_base *s);
	/* RDP_PROTO_SAME_QPS: the report's head, once the QPs are up. */
	void (*begin)(struct rdp_session_base *s);
	/* Both sides start the loop of run. */
	int (*ready)(struct rdp_session_base *s, struct rdp_run *run);
	/* The loop failed: the peer's word on why, when it sent one. */
	void (*loop_failed)(struct rdp_session_base *s);
	/* The loop ended on both sides: the peer's figures, the data check
	 * and the port counters into res. */
	int (*done)(struct rdp_session_base *s, struct rdp_run *run,
		    struct rdp_result *res);
	/* The last point reported (last: its result, NULL when none): the
	 * dialogue's end. */
	int (*close)(struct rdp_session_base *s, const struct rdp_result *last);
	/* The run failed with err: the peer told why, where the dialogue
	 * has a word for it. NULL: it has none. */
	void (*abort)(struct rdp_session_base *s, int err);
};

extern const struct rdp_session_proto_ops rdp_proto_rdmaperf;
extern const struct rdp_session_proto_ops rdp_proto_perftest;

/* client.c's driver on proto's dialogue (pt: perftest's state, else
 * NULL): an enum rdp_exit. */
int rdp_session_client_proto(const struct rdp_opts *o,
			     const struct rdp_engine_ops *eng,
			     const struct rdp_session_proto_ops *proto,
			     struct pt_peer *pt);

/* RDMA CM settings from the test parameters, alike on both sides. */
void rdp_cm_opts_from(const struct rdp_opts *o, const struct rdp_params *p,
		      struct rdp_cm_opts *cmo);

/* A connection on dev->mem, with its staging twin on staged memory. */
int rdp_session_conn_create(struct rdp_dev *dev, const struct rdp_conn_cfg *cfg,
			    struct rdp_conn **out);
/* Accepts NULL and a half-built connection. */
void rdp_session_conn_destroy(struct rdp_conn *conn);
/* --wait_destroy: sleep sec seconds before the teardown of dev's
 * resources, or until SIGINT or SIGTERM; the signal that ended it, else
 * 0. */
int rdp_session_wait_destroy(unsigned int sec, const char *dev);
/* The client's options its own device must allow (dev_opts.c): one line
 * and -EINVAL for a usage error (--dlid on Ethernet), -ENOSYS where the
 * device lacks the feature. */
int rdp_session_dev_opts(const struct rdp_opts *o, struct rdp_dev *dev);
struct rdp_cpu_snap;
struct rdp_msg_result;
/* A snapshot of the live system's CPU counters, before a region. */
void rdp_session_cpu_begin(struct rdp_cpu_snap *s);
/* The CPU spent since before (a snapshot), into cost. */
void rdp_session_cpu_end(const struct rdp_cpu_snap *before,
			 struct rdp_cpu_cost *cost);
/* A side's cost into its RESULT, and back. */
void rdp_cpu_to_result(const struct rdp_cpu_cost *c, struct rdp_msg_result *r);
void rdp_cpu_from_result(const struct rdp_msg_result *r,
			 struct rdp_cpu_cost *c);

struct rdp_report_info;
struct rdp_report_sinks;

/*
 * The server's door (gate.c): a client that passed --allow, the handshake
 * limits and (with a secret) authentication, with its first message read.
 */
struct rdp_handoff {
	struct rdp_oob oob;
	int perftest;	      /* a perftest client: nothing read yet */
	int authenticated;    /* it proved it knows the shared secret */
	struct rdp_msg first; /* otherwise its HELLO */
};
struct rdp_gate;
/* Listen and let clients in; the gate lives as long as the process. */
int rdp_gate_start(const struct rdp_opts *o, struct rdp_gate **out);
/* The TCP port the gate listens on: 0 or -errno. */
int rdp_gate_port(const struct rdp_gate *g, uint16_t *port);
/* The next client for the serving thread (blocks); the caller frees it. */
int rdp_gate_next(struct rdp_gate *g, struct rdp_handoff **out);
/* The serving thread is free again. */
void rdp_gate_done(struct rdp_gate *g);
/* The handshake on h->oob within --handshake-timeout, or by the hard
 * deadline already set on h->oob: 0, or -errno with the reason in why
 * (the client was told what it needs to know). h->oob's hard deadline is
 * as it was on return. */
int rdp_gate_handshake(const struct rdp_opts *o, struct rdp_handoff *h,
		       char *why, size_t len);
/* Milliseconds for a channel wait from now_ns to deadline_ns, rounded
 * up: under 1 ms left (or past) is 1, never 0, which means no deadline. */
int rdp_gate_left_ms(uint64_t now_ns, uint64_t deadline_ns);

/*
 * Admission (admit.c), on the accepting thread before any other exists,
 * with the time passed in (rdp_clock_mono_ns()'s clock).
 */
#define RDP_ADMIT_SLOTS 64 /* handshakes (and their threads) at once */

struct rdp_admit_cfg {
	const struct rdp_cidr_list *allow; /* NULL or empty: any address */
	double rate;		       /* handshakes a second, all clients */
	double prefix_rate;	       /* handshakes a second from one prefix */
	unsigned int v4_bits, v6_bits; /* a prefix: IPv4, IPv6 */
};

enum rdp_refusal {
	RDP_ADMITTED = 0,
	RDP_REFUSE_ALLOW,	/* not in --allow */
	RDP_REFUSE_PREFIX_BUSY, /* a handshake from its prefix runs */
	RDP_REFUSE_SLOTS,	/* RDP_ADMIT_SLOTS handshakes run */
	RDP_REFUSE_PREFIX_RATE, /* its prefix is over --max-prefix-rate */
	RDP_REFUSE_RATE,	/* all are over --max-handshake-rate */
};
/* The reason, for the log and the client (in buf when composed). */
const char *rdp_refusal_str(enum rdp_refusal r, const struct rdp_cidr *prefix,
			    char *buf, size_t len);

struct rdp_admit;
int rdp_admit_create(const struct rdp_admit_cfg *cfg, uint64_t now_ns,
		     struct rdp_admit **out);
void rdp_admit_destroy(struct rdp_admit *a);
/* sa's connection (socket fd, its handshake's deadline_ns): RDP_ADMITTED
 * with a slot, or the reason it is refused; *prefix is its address
 * prefix either way (unless it is no IPv4 or IPv6 address). */
enum rdp_refusal rdp_admit_try(struct rdp_admit *a, const struct sockaddr *sa,
			       int fd, uint64_t now_ns, uint64_t deadline_ns,
			       unsigned int *slot, struct rdp_cidr *prefix);
/* The slot's socket is no longer the watchdog's (call before closing it or
 * handing it on): 1 when the watchdog had shut it down. */
int rdp_admit_unwatch(struct rdp_admit *a, unsigned int slot);
/* The slot's handshake thread has ended. */
void rdp_admit_release(struct rdp_admit *a, unsigned int slot);
unsigned int rdp_admit_active(const struct rdp_admit *a);
/* shutdown(SHUT_RDWR) on every watched socket past its deadline plus
 * grace_ns; the time of the next one due (UINT64_MAX: none). */
uint64_t rdp_admit_watchdog(struct rdp_admit *a, uint64_t now_ns,
			    uint64_t grace_ns);

/* Refusal lines (refusal_log.c): the first of a reason and a prefix in a
 * window in full, the rest counted and said when the window ends. */
struct rdp_rlog;
int rdp_rlog_create(FILE *out, uint64_t window_ns, struct rdp_rlog **l_out);
void rdp_rlog_destroy(struct rdp_rlog *l);
void rdp_rlog_refused(struct rdp_rlog *l, const char *peer,
		      const struct rdp_cidr *prefix, const char *why,
		      uint64_t now_ns);
/* The counts of a window that has ended, if any. */
void rdp_rlog_tick(struct rdp_rlog *l, uint64_t now_ns);

/* --run_infinitely (live.c): a report every interval_s while the loop
 * records into live; SIGINT and SIGTERM set live->stop. */
struct rdp_live_reporter {
	struct rdp_live *live;
	const struct rdp_report_info *info;
	const struct rdp_report_sinks *sinks; /* each sample to each */
	const struct rdp_clock *clk;
	double interval_s;
	uint64_t msg_bytes;
	struct rdp_soak *soak; /* --soak: each interval to it; NULL none */
	/* the reporter's own */
	uint64_t start_cycles;
	pthread_t tid;
	int running, quit;
	int armed; /* it armed the signal handler (rdp_session_signals_arm) */
	int signo; /* the signal that ended the run, 0 none */
};
/*
 * SIGINT and SIGTERM over a run (live.c): the handler only notes the
 * signal and sets the stop word (and a live run's live->stop); a second
 * one, 200 ms or more after the first (sooner it is the first's echo to
 * the process group), exits at once with 128 + its number. Arming nests: the outermost
 * installs the handler, clears what an earlier run caught, and its
 * disarm puts the previous handlers back. 0 or -errno (logged).
 */
int rdp_session_signals_arm(void);
void rdp_session_signals_disarm(void);
/* The signal caught since the outermost arm, 0 none. */
int rdp_session_signal(void);
/* What the timed loops read (run->stop): 1 once a signal came. */
const int *rdp_session_stop_word(void);

int rdp_live_start(struct rdp_live_reporter *r);
void rdp_live_stop(struct rdp_live_reporter *r);
/* The timed loop through eng, its CPU cost in res->cpu; a client's
 * --run_infinitely run with its reporter, a sample every interval_s to
 * the sinks. */
int rdp_session_loop(const struct rdp_engine_ops *eng, struct rdp_run *run,
		     struct rdp_result *res,
		     const struct rdp_report_sinks *sinks,
		     const struct rdp_report_info *in, double interval_s);
/* The same, a --soak run (soak NULL: none) judged interval by interval
 * and ended at its length. */
int rdp_session_loop_soak(const struct rdp_engine_ops *eng, struct rdp_run *run,
			  struct rdp_result *res,
			  const struct rdp_report_sinks *sinks,
			  const struct rdp_report_info *in, double interval_s,
			  struct rdp_soak *soak);

/* The server's memory, for the client's report. */
void rdp_session_mem_to_accept(const struct rdp_conn *conn,
			       const struct rdp_bench_ops *ops,
			       const struct rdp_params *p,
			       struct rdp_msg_accept *a);

#endif /* RDMAPERF_SESSION_INT_H */
