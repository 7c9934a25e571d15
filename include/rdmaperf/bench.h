/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Test loops. Each is one file exporting one const struct rdp_bench_ops;
 * registry.c holds the only list of them.
 * Layer: bench
 */
#ifndef RDMAPERF_BENCH_H
#define RDMAPERF_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include <rdmaperf/params.h>
#include <rdmaperf/post.h>
#include <rdmaperf/stats.h>

struct rdp_conn;
struct rdp_event;
struct rdp_clock;

/* What a data check found. */
struct rdp_data_check {
	int32_t status;		/* 0 data ok, else -errno */
	uint64_t checked_bytes; /* in the test's check unit (below) */
	uint64_t bad_offset;	/* first mismatch, when status != 0 */
	uint64_t check_ns;	/* --data_validation: time in the checks */
};

/* The largest message any test sends: the client's -s range, the
 * server's check and each test's validate all use it. */
#define RDP_MSG_MAX_BYTES (1ull << 30)

enum rdp_bench_kind {
	RDP_BENCH_BW,
	RDP_BENCH_LAT
};
/* What a latency test's figure measures: the loop halves each round trip
 * for a one-way figure; the reports say which it is. */
enum rdp_lat_kind {
	RDP_LAT_ROUND_TRIP = 0, /* each operation's round trip, as measured */
	RDP_LAT_ONE_WAY,	/* half of each measured round trip */
};
enum rdp_side {
	RDP_SIDE_CLIENT = 0,
	RDP_SIDE_SERVER = 1
};

/* What a test's loop posts. */
enum rdp_verb {
	RDP_VERB_WRITE,
	RDP_VERB_READ,
	RDP_VERB_SEND,
	RDP_VERB_ATOMIC, /* fetch-and-add, or compare-and-swap with -A */
};

enum rdp_bench_flags {
	/* The peer reads our send slot (READ tests): advertise it, not the
	 * receive slot. */
	RDP_BENCH_EXPOSE_TX = 1u << 0,
	/* Receives are posted (SEND tests): the QPs get a receive queue. */
	RDP_BENCH_RECV = 1u << 1,
	/* -b is possible: both sides run the bandwidth loop at once. */
	RDP_BENCH_BIDIR = 1u << 2,
	/* -c UC / -c UD: the test runs on that transport too (RC always). */
	RDP_BENCH_UC = 1u << 7,
	RDP_BENCH_UD = 1u << 8,
	/* Small messages go inline (the report says whether they did). */
	RDP_BENCH_INLINE = 1u << 3,
	/* READ/atomic: in flight per QP bounded by -o and both devices. */
	RDP_BENCH_RD_WINDOW = 1u << 4,
	/* The loop polls its receive slot with the CPU: host memory only. */
	RDP_BENCH_CPU_POLL = 1u << 5,
	/* --bounce: the loop stages each message between GPU and host. */
	RDP_BENCH_BOUNCE = 1u << 6,
	/* A ping-pong: the server posts the verb too, towards the client
	 * (WRITE and SEND latency). */
	RDP_BENCH_PINGPONG = 1u << 9,
	/* -e: the loop has completions to sleep on. */
	RDP_BENCH_EVENTS = 1u << 10,
	/* -b with --bounce: both directions staged (one-sided tests). */
	RDP_BENCH_BOUNCE_BIDIR = 1u << 11,
	/* -b with --perftest: perftest's program of this test runs -b. */
	RDP_BENCH_PT_BIDIR = 1u << 12,
	/* --write_with_imm, --send_with_imm: the verb carries immediate
	 * data. */
	RDP_BENCH_WRITE_IMM = 1u << 13,
	RDP_BENCH_SEND_IMM = 1u << 14,
	/* --reversed: the server can run the client's loop, the client
	 * the server's (RC, one way). */
	RDP_BENCH_REVERSED = 1u << 15,
	/* --data_validation: the receiving side (READ's reader) sees each
	 * message complete and checks it (write_bw with --write_with_imm) */
	RDP_BENCH_VALIDATE = 1u << 16,
	/* -g: its SENDs can go to a multicast group on UD. */
	RDP_BENCH_MCAST = 1u << 17,
	/* runs with --use-null-mr: its data is never read (WRITE and READ
	 * whose receiver does not poll the buffer) */
	RDP_BENCH_NULL_MR = 1u << 23,
};

/* --rate_limit: who holds the sender to the rate. */
enum rdp_pacing {
	RDP_PACE_NONE = 0,
	RDP_PACE_DEVICE,   /* ibv_modify_qp_rate_limit on each QP */
	RDP_PACE_SOFTWARE, /* the loop posts when the rate allows */
	RDP_PACE_REFUSED,  /* HW asked, the device cannot: the run fails */
};

/*
 * What a loop does with the parameters on these QPs, decided once per
 * point before the run: the loop follows it, the report prints it.
 */
struct rdp_decisions {
	uint32_t window;	   /* work requests in flight per QP */
	uint32_t signal_every;	   /* one signaled work request in this many */
	int inline_used;	   /* messages posted inline */
	uint32_t inline_max_bytes; /* what the QPs take inline */
	enum rdp_pacing pacing;	   /* --rate_limit: who paces */
	uint32_t pacing_qp_kbps;   /* RDP_PACE_DEVICE: each QP's limit */
	/* how the loop posts: what the connection's QPs were made for */
	enum rdp_post_api post_api;
};

/* --run_infinitely: what the loop records after each completion batch,
 * for a reporter elsewhere to read, and the flag that ends the loop. Each
 * field is read and written with atomic loads and stores. */
struct rdp_live {
	uint64_t done;	 /* messages completed, all QPs */
	uint64_t cycles; /* when the last of them completed */
	int stop;	 /* set from outside (a signal): end the run */
};

/* A bandwidth loop's progress, handed over instead of freed when a caller
 * sums several loops (--threads). */
struct rdp_bw_series {
	struct rdp_bw_sample *samples; /* cumulative; the taker frees it */
	size_t n;
	uint64_t start_cycles; /* the loop's start */
};

/*
 * --data_validation (bench/validate.c): each QP's slots hold a ring of
 * messages, message s in place s % ring, each stamped at set-up with its
 * place and a checksum of its payload; the receiving side (the reader for
 * READ) checks every message as it completes. What the check found.
 */
struct rdp_run;
struct rdp_dv {
	uint32_t ring; /* messages a slot holds; 0 or 1: no per-message check */
	uint64_t stride; /* bytes between two messages of a ring */
	/* the check of one message, picked at set-up (quiet or
	 * --data_validation_debug); seq counts QP q's messages from 0 */
	void (*check)(struct rdp_run *run, uint32_t q, uint64_t seq,
		      uint8_t *msg);
	uint64_t msgs, bytes;  /* checked */
	uint64_t check_cycles; /* spent in the checks */
	int bad;	       /* a corrupt message was found: the first */
	uint32_t bad_qp;
	uint64_t bad_seq;
	uint64_t bad_offset; /* in the message */
	uint8_t expected, got;
};

struct rdp_run {
	const struct rdp_params *params;
	const struct rdp_bench_ops *ops;
	struct rdp_conn *conn;
	const struct rdp_clock *clk;
	uint64_t stall_cycles; /* no progress for this long: give up */
	enum rdp_side side;
	int oob_fd;		  /* readable when the peer sent DONE */
	uint64_t posted;	  /* client: operations posted, all QPs */
	uint64_t interval_cycles; /* --interval, 0: none */
	uint64_t margin_cycles;	  /* -f: left out at both ends of -D */
	struct rdp_decisions dec; /* rdp_bench_decide(), before the run */
	int keep_samples;	  /* -U: every latency sample in the result */
	int counted_pingpong;	  /* the ping-pongs run the counted
				   * sequence: -n messages each way, no
				   * stop message, both sides stamp */
	int counted_duplex;	  /* send_bw -b ends as perftest's: -n
				   * messages per QP each way, no end
				   * marks (under -D, none awaited) */
	struct rdp_live *live;	  /* --run_infinitely: the bandwidth loop
				   * runs until live->stop, recording */
	struct rdp_bw_series *series; /* a bandwidth loop leaves its samples
				       * here when set (--threads) */
	int pin_threads;  /* --threads: each on a CPU of its own (not with
			  * --no-pin) */
	struct rdp_dv dv; /* --data_validation, set by rdp_bench_prepare() */
	/* Set from outside (a signal's handler) to end the timed loop
	 * early, as its deadline would; read with relaxed atomic loads.
	 * NULL: nothing ends it but its own end. */
	const int *stop;
	/* Whether the peer's out-of-band connection (oob_fd) has closed:
	 * asked only after a stretch of silence, never per message; NULL
	 * where nobody watches it. */
	int (*peer_gone)(int fd);
};

/* What a side's process and host spent over the timed region. */
struct rdp_cpu_cost {
	int have;	      /* measured (or sent by the peer) */
	double wall_s;	      /* the region */
	double user_s, sys_s; /* the process */
	double host_busy_pct; /* all of the host's CPUs; < 0 unknown */
};

#define RDP_HIST_BUCKETS 20

/* --threads: one thread's part of a bandwidth run. */
struct rdp_thread_result {
	uint32_t first_qp, num_qps; /* its QPs, numbered as on the wire */
	int cpu;		    /* where it ran; -1 not pinned */
	uint64_t msgs;		    /* it completed */
	double start_s, end_s; /* its timed loop, from the earliest start */
	double elapsed_ns;
	double bw_avg_gbps, bw_peak_gbps, msg_rate_mpps;
};

/* One QP's part of a bandwidth point: what it completed in the timed loop
 * (all QPs' msgs make the point's, -f aside) over the point's time. */
struct rdp_qp_result {
	uint32_t index;	     /* the QP's number in the point, from 0 */
	uint32_t qp_num;     /* this side's QP */
	uint32_t flow_label; /* its GRH flow label (--flow_label) */
	uint64_t msgs;
	uint64_t bytes;
	double bw_gbps; /* bytes over the loop's elapsed time */
	uint32_t port;	/* the device port it used (-O: 1 or 2) */
};

struct rdp_result {
	uint64_t size_bytes;
	uint32_t num_qps;
	uint64_t msgs;	       /* completed messages, all QPs */
	uint32_t warmup_iters; /* run but not measured */
	double elapsed_ns;
	double bw_avg_gbps;
	double bw_peak_gbps;
	double msg_rate_mpps;
	struct rdp_lat_stats lat;
	int data_ok;	       /* both sides' checks passed */
	uint64_t data_checked; /* in check_unit */
	/* what data_checked counts (rdp_bench_check_unit; NULL: the test's
	 * check_unit); --data_validation: the checking side's time in its
	 * checks (0: unknown), and whether that side is the server */
	const char *check_unit;
	uint64_t check_ns;
	int check_on_server;
	/* --interval (bandwidth, -D): bytes moved in each interval */
	uint64_t *interval_bytes; /* owned; rdp_result_clear() frees */
	size_t n_intervals;
	double interval_s;
	/* UC/UD SEND tests: what the receiver counted of what was sent */
	int loss_counted;
	uint64_t sent_msgs, received_msgs;
	/* --reversed: the server sent; msgs and the rates are its figures */
	int reversed;
	/* -g: the server's QPs in the group, each of which takes every
	 * message sent (received_msgs counts all their copies); 0: none */
	uint32_t group_qps;
	/* -g: what each QP of the group received (index, the server's
	 * qp_num, msgs, bytes), from the server's RESULT; owned like
	 * interval_bytes */
	struct rdp_qp_result *group;
	uint32_t n_group;
	/* -b: the server's own figures, i.e. what this side received */
	int bidir;
	uint64_t rx_msgs;
	double rx_bw_avg_gbps;
	double rx_bw_peak_gbps;
	double rx_msg_rate_mpps;
	/* latency histogram over [min, p99), one bucket more above */
	uint64_t hist[RDP_HIST_BUCKETS + 1];
	double hist_lo_ns, hist_hi_ns;
	/* -U: every sample, in the order measured; owned like
	 * interval_bytes */
	double *samples_ns;
	uint64_t n_samples;
	/* --threads: each thread's figures (owned like interval_bytes);
	 * then bw_*, msg_rate_mpps and elapsed_ns are their sum over the
	 * window in which every thread ran, msgs their total */
	struct rdp_thread_result *threads;
	uint32_t n_threads;
	double window_start_s, window_end_s; /* from the earliest start */
	double overlap_pct;   /* the window, of the first start to last end */
	uint64_t window_msgs; /* completed inside the window, all threads */
	struct rdp_decisions dec;     /* what the loop did */
	struct rdp_cpu_cost cpu;      /* this side */
	struct rdp_cpu_cost peer_cpu; /* the server's, from its RESULT */
	/* The device's events that fell in this point (events.h), times
	 * from the run's start; owned like interval_bytes */
	struct rdp_event *events;
	size_t n_events;
	uint64_t events_dropped; /* the log no longer held them */
	/* bandwidth tests: each QP's part, by index (--report-per-qp
	 * prints it); owned like interval_bytes */
	struct rdp_qp_result *per_qp;
	uint32_t n_per_qp;
	/* a signal ended the timed loop: the figures are up to it */
	int interrupted;
};

void rdp_result_clear(struct rdp_result *res);

/* loss_counted: what the receiver should have seen, a copy per QP of the
 * group with -g. */
static inline uint64_t rdp_result_expected(const struct rdp_result *r)
{
	return r->sent_msgs * (r->group_qps ? r->group_qps : 1);
}

/* loss_counted: the messages (-g: copies) the receiver never saw. */
static inline uint64_t rdp_result_lost(const struct rdp_result *r)
{
	uint64_t want = rdp_result_expected(r);

	return want > r->received_msgs ? want - r->received_msgs : 0;
}

struct rdp_bench_ops {
	const char *name;  /* command-line name */
	const char *title; /* header line */
	enum rdp_bench_kind kind;
	enum rdp_verb verb;	/* what the loop posts */
	const char *lat_note;	/* what a latency figure measures */
	unsigned int flags;	/* enum rdp_bench_flags */
	uint64_t default_size;	/* -s when not given */
	uint32_t tail_bytes;	/* trailing bytes used as flags, not data */
	const char *check_unit; /* what verify() counts, for the report */
	/* What a latency figure measures (lat_note's fact): the loop halves
	 * one-way figures, the reports name it. */
	enum rdp_lat_kind lat_kind;
	/* Window, signalling, inline on conn; NULL: tx depth, -Q, none. */
	void (*decide)(const struct rdp_bench_ops *ops,
		       const struct rdp_params *p, const struct rdp_conn *conn,
		       struct rdp_decisions *d);
	/* Reject parameters this test cannot run; why gets one line that
	 * names the test by p->test. */
	int (*validate)(const struct rdp_params *p, char *why, size_t len);
	/* Both sides, before READY (post receives); may be NULL. */
	int (*prepare)(struct rdp_run *run);
	int (*client)(struct rdp_run *run, struct rdp_result *res);
	int (*server)(struct rdp_run *run, struct rdp_result *res);
	/*
	 * Both sides, after DONE, outside any timed region: check what the
	 * peer left in our memory; r->checked_bytes counts check_unit.
	 * count is what the client posted. 0, or -EILSEQ with r filled.
	 */
	int (*verify)(const struct rdp_run *run, uint64_t count,
		      struct rdp_data_check *r);
};

const struct rdp_bench_ops *rdp_bench_find(const char *name);
/* Does the receiving side of ops post receives with p: SEND tests, and
 * WRITE with immediate data (a completion per message)? */
static inline int rdp_bench_receives(const struct rdp_bench_ops *ops,
				     const struct rdp_params *p)
{
	return (ops->flags & RDP_BENCH_RECV) ||
	       (p->flags & RDP_PARAM_WRITE_IMM);
}

/* Can ops run p: its transport (-c), threads, rate, then ops->validate.
 * why gets one line naming the test and the fix. */
int rdp_bench_validate(const struct rdp_bench_ops *ops,
		       const struct rdp_params *p, char *why, size_t len);
/*
 * The IBV_ACCESS_* flags side's buffer (and its QPs) must allow for ops
 * with p, and no more: remote access only where the peer's one-sided
 * operations land, IBV_ACCESS_LOCAL_WRITE only where the device writes
 * into it (receives, READ responses, atomic results) or where verbs demand
 * it (remote write and remote atomic). How the buffer is registered (on
 * demand, one MR per QP, GPU or staged memory) changes none of it.
 */
int rdp_bench_access(const struct rdp_bench_ops *ops,
		     const struct rdp_params *p, enum rdp_side side);
/* The part side plays in the test's loop: its own, or with --reversed the
 * other's (the server runs the client's loop and the client the
 * server's). */
static inline enum rdp_side rdp_bench_role(const struct rdp_params *p,
					   enum rdp_side side)
{
	if (!(p->flags & RDP_PARAM_REVERSED))
		return side;
	return side == RDP_SIDE_CLIENT ? RDP_SIDE_SERVER : RDP_SIDE_CLIENT;
}

/* The IBV_QP_EX_WITH_* operations ops's loops post, on either side (with
 * the immediate-data twin, both atomics), for an extended QP. */
uint64_t rdp_bench_send_ops(const struct rdp_bench_ops *ops);
/* The access flags rdp_bench_access() grants, each with its name
 * ("local_write", "remote_write", "remote_read", "remote_atomic"), in
 * that order; n_out gets the count. */
struct rdp_access_name {
	int flag; /* IBV_ACCESS_* */
	const char *name;
};
const struct rdp_access_name *rdp_access_names(size_t *n_out);
/* Those of access by name, ", "-separated ("local_write, remote_write"),
 * "" for none, into buf. */
const char *rdp_access_str(int access, char *buf, size_t len);

/* Does a thread of the server side of ops with p have work: receives to
 * take (SEND, WRITE with immediate) or its own operations (-b)? A server
 * that only lends its memory runs no threads. */
static inline int rdp_bench_server_works(const struct rdp_bench_ops *ops,
					 const struct rdp_params *p)
{
	return rdp_bench_receives(ops, p) || (p->flags & RDP_PARAM_BIDIR);
}

/*
 * --threads N (run->params->threads > 1) on a bandwidth test: the loop of
 * run->side on N threads, thread i on part i of run->conn's split (its CQ,
 * QPs and slots) and, with run->pin_threads, on the i-th CPU this process
 * may use. res gets every thread's figures and their sum (bench.h); a
 * thread that fails is named with its QPs and CPU.
 */
int rdp_bench_threads(struct rdp_run *run, struct rdp_result *res);
/* The test's ops->prepare (receives posted), part by part with --threads,
 * so that each thread's completions name its own QPs. */
int rdp_bench_prepare(struct rdp_run *run);
/* The first n CPUs this process may use into cpus; -EINVAL with one line
 * in why when it may use fewer. */
int rdp_threads_cpus(uint32_t n, int *cpus, char *why, size_t len);

/* NULL-terminated list, in registry order. */
const struct rdp_bench_ops *const *rdp_bench_all(void);

/* The test's decisions for one point on conn (ops->decide). */
void rdp_bench_decide(const struct rdp_bench_ops *ops,
		      const struct rdp_params *p, const struct rdp_conn *conn,
		      struct rdp_decisions *d);

/* Shared helpers for the loops (bench/common.c). */
void rdp_pattern_fill(uint8_t *buf, size_t len, uint32_t seed, uint32_t qp,
		      enum rdp_side side);
/* Returns the first mismatching offset, or -1 when all match. */
long long rdp_pattern_check(const uint8_t *buf, size_t len, uint32_t seed,
			    uint32_t qp, enum rdp_side side);
/* Poll failures: logged with the status, its hint, and the QP. */
int rdp_bench_wc_error(const void *wc);

/* --data_validation: how many messages each QP's slot holds (1 without
 * it), and the bytes the engine's slot must hold for them. */
uint32_t rdp_dv_ring(const struct rdp_bench_ops *ops,
		     const struct rdp_params *p);
uint64_t rdp_dv_slot_msg_bytes(const struct rdp_bench_ops *ops,
			       const struct rdp_params *p);
/* What a data check of ops with p counts, for the report: with
 * --data_validation the messages checked as they completed, else the
 * test's own check_unit. */
#define RDP_DV_CHECK_UNIT                                                      \
	"messages checked as they completed: sequence and checksum"
const char *rdp_bench_check_unit(const struct rdp_bench_ops *ops,
				 const struct rdp_params *p);

/* verify() building blocks: the peer's pattern in our receive slots, on
 * the client only, or both. */
int rdp_verify_client_rx(const struct rdp_run *run, uint64_t count,
			 struct rdp_data_check *r);
int rdp_verify_both_rx(const struct rdp_run *run, uint64_t count,
		       struct rdp_data_check *r);

#endif /* RDMAPERF_BENCH_H */
