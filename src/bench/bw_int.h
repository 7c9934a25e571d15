/* SPDX-License-Identifier: BSD-2-Clause */
/* The bandwidth engine's state, shared by its setup (bw_setup.c) and its
 * timed loops (bw.c). Private to src/bench. */
#ifndef RDMAPERF_BW_INT_H
#define RDMAPERF_BW_INT_H

#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>

#include "bench_int.h"
#include <rdmaperf/post.h>

#define BW_POST_BATCH	   32
#define BW_POLL_BATCH	   32
#define BW_WRID_QP_SHIFT   40
#define BW_WRID_COUNT_MASK ((1ull << BW_WRID_QP_SHIFT) - 1)
#define BW_SAMPLE_GRID_MAX 65536

/* Loop variants, picked once at setup. The loop body and everything it
 * calls per work request are always inlined into one function per
 * variant, where the variant is a constant: each is compiled without the
 * others' work (tests/check-hotloop.sh reads the object code to keep it
 * so). */
enum bw_variant {
	BW_PLAIN,
	BW_ATOMIC,	  /* operands per work request */
	BW_STAGE_OUT,	  /* --bounce: GPU -> host copy before each post */
	BW_STAGE_IN,	  /* --bounce: host -> GPU copy after each completion */
	BW_EVENTS,	  /* -e: sleep on the completion channel when idle */
	BW_ATOMIC_EVENTS, /* both */
	BW_PACED,	  /* --rate_limit in software: post when allowed */
	BW_ATOMIC_PACED,  /* both */
	BW_LIVE,	  /* --run_infinitely: record, stop on a flag */
	BW_ATOMIC_LIVE,	  /* both */
	BW_DUPLEX,	  /* send_bw -b: also take the peer's SENDs */
	BW_RING,	  /* --data_validation: each message its place */
	BW_RING_READ,	  /* ... and each READ checked as it completes */
};

struct bw_qp {
	struct ibv_qp *qp;
	struct ibv_send_wr wr[BW_POST_BATCH];
	struct ibv_sge sge;
	uint64_t posted;
	uint64_t completed; /* up to the last signaled completion */
	uint64_t last_signaled;
	uint64_t limit;	  /* messages to post; UINT64_MAX: until time */
	uint64_t id;	  /* QP index, pre-shifted into wr_id */
	uint64_t tapered; /* -D: completed when limit was last set */
	/* --data_validation: each request's own place in the ring, from
	 * these bases (validate.c) */
	struct ibv_sge ring_sge[BW_POST_BATCH];
	uint64_t laddr, raddr;
};

struct bw_state {
	struct bw_qp *qps;
	uint32_t num_qps;
	uint32_t window;	 /* work requests in flight per QP */
	uint32_t batch;		 /* work requests chained per post (-l) */
	unsigned int base_flags; /* IBV_SEND_INLINE when it fits */
	rdp_post_fn post;	 /* the API the QPs were made for */
	uint32_t cq_mod;
	uint64_t msg_bytes;
	uint64_t target_msgs; /* -D: the QPs' limits once all are set */
	uint64_t end_cycles;  /* UINT64_MAX in iteration mode */
	/* -D: the loop stops posting here (the deadline, then UINT64_MAX);
	 * before it, the sample points set each QP's limit so that its last
	 * message, signaled, completes by end_cycles (the taper) */
	uint64_t close_cycles;
	int tapers;
	uint64_t sample_step; /* cycles between samples; 0: every poll */
	uint64_t add_base;    /* atomics: compare_add = base + (n-1)*step */
	uint64_t add_step;
	/* software pacing: one message (all QPs) per pace_cycles / 1024,
	 * released pace_burst at a time (--burst_size, else 1) */
	uint64_t pace_cycles;
	uint64_t pace_burst;
	uint64_t pace_start;
	uint64_t posted_all;
	uint32_t next_qp; /* whose turn the next message is */
	/* send_bw -b: each QP's receive, what came, the peer's end marks */
	struct ibv_recv_wr *rwrs;
	struct ibv_sge *rsges;
	uint64_t rx_got;
	uint32_t marks_in;
	struct rdp_bw_sample *samples;
	size_t nsamples, cap;
	uint64_t done;
	uint64_t last_cycles; /* time of the last completion */
	enum bw_variant variant;
	const struct rdp_stage *stage; /* --bounce, else NULL */
	const int *stop; /* ends the timed loop (a signal, a live run's end) */
	uint64_t watch_cycles; /* silence before the peer's socket is asked */
	uint32_t ring;	       /* --data_validation: places per QP */
	uint64_t stride;       /* bytes from one place to the next */
};

/* Work requests, sampling and receives for run's loop: 0 or -ENOMEM;
 * rdp_bw_state_free() undoes it, also half done. */
int rdp_bw_setup(const struct rdp_run *run, struct bw_state *st,
		 enum rdp_verb verb);
void rdp_bw_state_free(struct bw_state *st);
/* --rate_limit as decided: the device's limit on every QP, or the
 * software loop's spacing of messages (all QPs together). */
int rdp_bw_setup_pacing(struct rdp_run *run, struct bw_state *st);
/* Each QP's completions as the timed loop left them, into res->per_qp
 * (after the loop, before the drain): 0 or -ENOMEM. */
int rdp_bw_per_qp_take(const struct rdp_run *run, const struct bw_state *st,
		       struct rdp_result *res);
/* Each QP's bandwidth over res->elapsed_ns, once it is known. */
void rdp_bw_per_qp_rates(struct rdp_result *res);
/* --perform_warm_up: run->params->warmup_iters operations per QP, a
 * window at a time, all completed before the clock starts; nothing of
 * them is counted. */
int rdp_bw_warm_up(struct rdp_run *run, struct bw_state *st,
		   enum rdp_verb verb);
/* The loop variant run needs. */
enum bw_variant rdp_bw_variant_of(const struct rdp_run *run,
				  enum rdp_verb verb);

#endif /* RDMAPERF_BW_INT_H */
