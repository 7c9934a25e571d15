/* SPDX-License-Identifier: BSD-2-Clause */
/* Latency helpers and the one-sided round-trip engine (READ, atomics):
 * one operation at a time, stamped on its completion. */
#include <byteswap.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_int.h"
#include <rdmaperf/clock.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/log.h>
#include <rdmaperf/measure.h>

/* Duration mode: room for 2 M round trips a second (0.5 us each), at most
 * 256 MiB of stamps. */
#define SAMPLES_PER_S (2u << 20)
#define SAMPLES_MAX   (32u << 20)

/* Stamps a latency run needs: iters + warm-up, or a bound for -D. */
static uint64_t lat_samples(const struct rdp_params *p)
{
	uint64_t n = p->iters + p->warmup_iters;

	if (p->duration_s) {
		n = (uint64_t)p->duration_s * SAMPLES_PER_S;
		if (n > SAMPLES_MAX)
			n = SAMPLES_MAX;
	}
	return n;
}

/*
 * Allocate the stamps, take stamps[0] now: call right before the loop.
 * *total is how many round trips fit, *end the -D deadline (cycles, or
 * UINT64_MAX). NULL on ENOMEM, logged.
 */
static uint64_t *lat_stamps(struct rdp_run *run, uint64_t *total, uint64_t *end)
{
	const struct rdp_params *p = run->params;
	uint64_t *stamps;

	*total = lat_samples(p);
	stamps = malloc((*total + 1) * sizeof(*stamps));
	if (!stamps) {
		rdp_err("no memory for %llu latency samples",
			(unsigned long long)*total);
		return NULL;
	}
	stamps[0] = rdp_cycles();
	*end = p->duration_s
		       ? stamps[0] + rdp_clock_cycles_of_ms(
					     run->clk, p->duration_s * 1000ull)
		       : UINT64_MAX;
	return stamps;
}

int rdp_lat_fail(struct rdp_run *run, uint32_t qpn, uint64_t round_trips,
		 int ret, const char *what)
{
	if (ret == -ECONNRESET) /* the session names the peer that left */
		return ret;
	if (ret == -ETIMEDOUT)
		rdp_err("qp 0x%x: no %s for %.1f s after %llu round trips: "
			"the peer or the link stopped responding",
			qpn, what,
			rdp_clock_ns(run->clk, run->stall_cycles) / 1e9,
			(unsigned long long)round_trips);
	else if (!rdp_last_error()[0])
		rdp_err("qp 0x%x: %s: %s", qpn, what, strerror(-ret));
	return ret;
}

/* Latency statistics from round-trip stamps (stamps[0] = start), warm-up
 * excluded; halved for one-way figures. */
static int lat_result(const struct rdp_run *run, const uint64_t *stamps,
		      uint64_t done, struct rdp_result *res)
{
	const struct rdp_params *p = run->params;
	double div = run->ops->lat_kind == RDP_LAT_ONE_WAY ? 2.0 : 1.0;
	/* -f: only round trips that ended inside the margins count. */
	uint64_t from = stamps[0] + run->margin_cycles;
	uint64_t to =
		stamps[0] +
		rdp_clock_cycles_of_ms(run->clk, p->duration_s * 1000ull) -
		run->margin_cycles;
	uint64_t first, n;
	int ret;

	if (run->params->duration_s && done == lat_samples(run->params))
		rdp_warn("sample buffer full after %llu round trips: the run "
			 "stopped before %u s",
			 (unsigned long long)done, run->params->duration_s);
	n = rdp_measure_lat_window(stamps, done, p->warmup_iters,
				   !!run->margin_cycles, from, to, &first);
	ret = rdp_measure_lat(stamps, first, n, div, run->clk, res);
	if (!ret && run->keep_samples)
		ret = rdp_measure_lat_samples(stamps, first, n, div, run->clk,
					      res);
	return ret;
}

int rdp_lat_client(struct rdp_run *run, struct rdp_result *res,
		   const struct rdp_lat_loop *loop, void *state)
{
	uint64_t total, end, done = 0;
	uint64_t *stamps;
	int ret;

	stamps = lat_stamps(run, &total, &end);
	if (!stamps)
		return -ENOMEM;
	ret = loop->timed(run, state, stamps, total, end, &done);
	ret = loop->close(run, state, done, ret);
	if (!ret)
		ret = lat_result(run, stamps, done, res);
	free(stamps);
	return ret;
}

int rdp_check_one_qp(const struct rdp_params *p, char *why, size_t len)
{
	if (p->num_qps != 1) {
		snprintf(why, len, "%s measures one QP: drop -q", p->test);
		return -EINVAL;
	}
	return rdp_check_size(p, why, len);
}

/* Counters are 64-bit; some NICs keep them big-endian: accept either. */
int rdp_verify_atomic(const struct rdp_run *run, uint64_t count,
		      struct rdp_data_check *r)
{
	uint64_t host = 0, swapped = 0, v;
	uint32_t q;

	if (run->side != RDP_SIDE_SERVER &&
	    !(run->params->flags & RDP_PARAM_BIDIR))
		return 0;
	for (q = 0; q < run->conn->num_qps; q++) {
		memcpy(&v, rdp_conn_rx(run->conn, q), sizeof(v));
		host += v;
		swapped += bswap_64(v);
	}
	if (host == count || swapped == count) {
		r->checked_bytes = count;
		return 0;
	}
	rdp_err("data check: the counters of the %u QPs add up to %llu, "
		"not the %llu operations done",
		run->conn->num_qps, (unsigned long long)host,
		(unsigned long long)count);
	r->status = -EILSEQ;
	r->bad_offset = host;
	return r->status;
}

struct rtt {
	struct ibv_send_wr wr;
	struct ibv_sge sge;
	struct ibv_cq *cq;
	rdp_post_fn post; /* the API the QP was made for */
	uint64_t add_base, add_step;
	uint64_t gap_cycles;   /* --latency_gap */
	int armed;	       /* -e: the CQ is armed for its next event */
	const int *stop;       /* ends the loop early (a signal) */
	uint64_t watch_cycles; /* silence before the peer's socket is asked */
};

void rdp_rtt_decide(const struct rdp_bench_ops *ops, const struct rdp_params *p,
		    const struct rdp_conn *conn, struct rdp_decisions *d)
{
	(void)ops;
	(void)p;
	(void)conn;
	d->window = 1;
	d->signal_every = 1;
	d->inline_used = 0;
}

static void rtt_setup(const struct rdp_run *run, struct rtt *t,
		      enum rdp_verb verb)
{
	const struct rdp_conn *conn = run->conn;
	const struct rdp_qp_info *r = &conn->remote[0];
	int cas = !!(run->params->flags & RDP_PARAM_CAS);

	memset(t, 0, sizeof(*t));
	t->cq = conn->cq;
	t->sge.addr = (uint64_t)(uintptr_t)rdp_conn_rx(conn, 0);
	t->sge.length =
		verb == RDP_VERB_ATOMIC ? 8 : (uint32_t)run->params->size_bytes;
	t->sge.lkey = rdp_conn_lkey(conn, 0);
	t->wr.sg_list = &t->sge;
	t->wr.num_sge = 1;
	t->wr.send_flags = IBV_SEND_SIGNALED;
	if (verb == RDP_VERB_ATOMIC) {
		t->wr.opcode = cas ? IBV_WR_ATOMIC_CMP_AND_SWP
				   : IBV_WR_ATOMIC_FETCH_AND_ADD;
		t->wr.wr.atomic.remote_addr = r->addr;
		t->wr.wr.atomic.rkey = r->rkey;
		t->add_base = cas ? 0 : 1;
		t->add_step = cas ? 1 : 0;
	} else {
		t->wr.opcode = IBV_WR_RDMA_READ;
		t->wr.wr.rdma.remote_addr = r->addr;
		t->wr.wr.rdma.rkey = r->rkey;
	}
	t->post = rdp_post_pick(conn, t->wr.opcode, 0);
}

/* Wait for the one outstanding completion, bounded by the stall time;
 * with -e (`ev`, constant per caller) asleep on the completion channel. */
static inline __attribute__((always_inline)) int
rtt_wait(struct rdp_run *run, struct rtt *t, const int ev)
{
	unsigned int spins = 0;
	uint64_t t0 = 0;
	struct ibv_wc wc;
	int n;

	while ((n = ibv_poll_cq(t->cq, 1, &wc)) == 0) {
		if (ev) {
			n = rdp_lat_sleep(run, &t->armed);
			if (n)
				return n;
			continue;
		}
		if (++spins & RDP_SPIN_CHECK_MASK)
			continue;
		if (!t0)
			t0 = rdp_cycles();
		else if (rdp_cycles() - t0 > run->stall_cycles)
			return -ETIMEDOUT;
		else if (rdp_cycles() - t0 > t->watch_cycles &&
			 rdp_bench_peer_gone(run, rdp_cycles() - t0))
			return -ECONNRESET;
	}
	if (n < 0)
		return -EIO;
	if (wc.status != IBV_WC_SUCCESS)
		return rdp_bench_wc_error(&wc);
	return 0;
}

/* `atomic`, `ev` and `gap` are constant per caller: one variant without
 * atomic stores, one without sleeping, one without pauses. With a gap the
 * stamps run on a clock stopped during each pause. */
static inline __attribute__((always_inline)) int
rtt_loop(struct rdp_run *run, struct rtt *t, uint64_t *stamps, uint64_t total,
	 uint64_t end, uint64_t *done, const int atomic, const int ev,
	 const int gap)
{
	struct ibv_qp *qp = run->conn->qps[0];
	struct ibv_send_wr *bad;
	uint64_t i, now, paused = 0;
	int ret;

	for (i = 0; i < total; i++) {
		if (gap)
			paused += rdp_lat_pause(t->gap_cycles);
		if (atomic) {
			t->wr.wr.atomic.compare_add =
				t->add_base + i * t->add_step;
			t->wr.wr.atomic.swap = i + 1;
		}
		ret = t->post(qp, &t->wr, &bad);
		if (ret) {
			*done = i;
			return -ret;
		}
		ret = rtt_wait(run, t, ev);
		now = rdp_cycles();
		stamps[i + 1] = gap ? now - paused : now;
		if (ret) {
			*done = i + 1;
			return ret;
		}
		/* -D's deadline, or a signal: the same end */
		if (now >= end || __atomic_load_n(t->stop, __ATOMIC_RELAXED)) {
			i++;
			break;
		}
	}
	*done = i;
	return 0;
}

/* One timed loop per variant, its operands and -e compiled in. */
enum rtt_variant {
	RTT_READ,
	RTT_ATOMIC,
	RTT_READ_EVENTS,
	RTT_ATOMIC_EVENTS,
	RTT_VARIANTS
};

#define RTT_TIMED(name, atomic, ev, gap)                                       \
	static int name(struct rdp_run *run, void *t, uint64_t *st,            \
			uint64_t total, uint64_t end, uint64_t *done)          \
	{                                                                      \
		return rtt_loop(run, t, st, total, end, done, atomic, ev,      \
				gap);                                          \
	}

RTT_TIMED(rtt_loop_read, 0, 0, 0)
RTT_TIMED(rtt_loop_atomic, 1, 0, 0)
RTT_TIMED(rtt_loop_read_ev, 0, 1, 0)
RTT_TIMED(rtt_loop_atomic_ev, 1, 1, 0)
RTT_TIMED(rtt_loop_read_gap, 0, 0, 1)
RTT_TIMED(rtt_loop_atomic_gap, 1, 0, 1)
RTT_TIMED(rtt_loop_read_ev_gap, 0, 1, 1)
RTT_TIMED(rtt_loop_atomic_ev_gap, 1, 1, 1)

typedef int (*rtt_fn)(struct rdp_run *run, void *t, uint64_t *st,
		      uint64_t total, uint64_t end, uint64_t *done);

/* Without a gap, and with --latency_gap. */
static const rtt_fn rtt_loops[2][RTT_VARIANTS] = {
	{
		[RTT_READ] = rtt_loop_read,
		[RTT_ATOMIC] = rtt_loop_atomic,
		[RTT_READ_EVENTS] = rtt_loop_read_ev,
		[RTT_ATOMIC_EVENTS] = rtt_loop_atomic_ev,
	},
	{
		[RTT_READ] = rtt_loop_read_gap,
		[RTT_ATOMIC] = rtt_loop_atomic_gap,
		[RTT_READ_EVENTS] = rtt_loop_read_ev_gap,
		[RTT_ATOMIC_EVENTS] = rtt_loop_atomic_ev_gap,
	},
};

/* The loop does not log: its failure is told here, with how far it got. */
static int rtt_close(struct rdp_run *run, void *t, uint64_t done, int ret)
{
	(void)t;
	run->posted = done;
	if (ret)
		rdp_lat_fail(run, run->conn->qps[0]->qp_num, done, ret,
			     ret == -ETIMEDOUT ? "completion" : "post");
	return ret;
}

int rdp_rtt_client(struct rdp_run *run, struct rdp_result *res)
{
	int atomic = run->ops->verb == RDP_VERB_ATOMIC;
	int ev = run->conn->channel != NULL;
	struct rdp_lat_loop loop = { .close = rtt_close };
	struct rtt t;

	loop.timed =
		rtt_loops[run->params->latency_gap_ns != 0]
			 [ev ? (atomic ? RTT_ATOMIC_EVENTS : RTT_READ_EVENTS)
			     : (atomic ? RTT_ATOMIC : RTT_READ)];
	rtt_setup(run, &t, run->ops->verb);
	t.gap_cycles = rdp_lat_gap_cycles(run);
	t.stop = rdp_bench_stop_word(run);
	t.watch_cycles = rdp_bench_watch_cycles(run);
	return rdp_lat_client(run, res, &loop, &t);
}

int rdp_lat_sleep(struct rdp_run *run, int *armed)
{
	int ms = (int)(rdp_clock_ns(run->clk, run->stall_cycles) / 1e6) + 1;
	int fd = run->peer_gone ? run->oob_fd : -1;
	int ret = rdp_conn_cq_sleep(run->conn, armed, fd, ms);

	/* the peer's socket woke the sleep: its close, or a message that
	 * its reader takes after the loop */
	if (ret == 1)
		return run->peer_gone(fd) ? -ECONNRESET : 0;
	return ret > 0 ? 0 : ret;
}
