/* SPDX-License-Identifier: BSD-2-Clause */
/* Helpers shared by the test loops: work completion errors, the access a
 * side grants, the loop's decisions, results and the parameter checks
 * tests apply. Nothing here runs inside a timed region. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/verbs.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/clock.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/log.h>
#include <rdmaperf/rules.h>

#include "bench_int.h"

int rdp_bench_wc_error(const void *wcp)
{
	const struct ibv_wc *wc = wcp;

	rdp_err("qp 0x%x: work completion failed: %s (vendor error 0x%x): "
		"%s",
		wc->qp_num, ibv_wc_status_str(wc->status), wc->vendor_err,
		rdp_wc_status_hint(wc->status));
	return -EIO;
}

/* Does side post ops->verb towards its peer? The client always; the
 * server under -b and in a ping-pong. */
static int initiates(const struct rdp_bench_ops *ops,
		     const struct rdp_params *p, enum rdp_side side)
{
	return side == RDP_SIDE_CLIENT || (p->flags & RDP_PARAM_BIDIR) ||
	       (ops->flags & RDP_BENCH_PINGPONG);
}

int rdp_bench_access(const struct rdp_bench_ops *ops,
		     const struct rdp_params *p, enum rdp_side side)
{
	enum rdp_side role = rdp_bench_role(p, side);
	enum rdp_side peer = role == RDP_SIDE_CLIENT ? RDP_SIDE_SERVER
						     : RDP_SIDE_CLIENT;
	int mine = initiates(ops, p, role), theirs = initiates(ops, p, peer);
	int access = 0;

	switch (ops->verb) {
	case RDP_VERB_WRITE:
		/* the peer's writes land here (a remote write needs local
		 * write too) */
		if (theirs)
			access |= IBV_ACCESS_REMOTE_WRITE |
				  IBV_ACCESS_LOCAL_WRITE;
		break;
	case RDP_VERB_READ:
		if (theirs)
			access |= IBV_ACCESS_REMOTE_READ;
		if (mine) /* the responses land here */
			access |= IBV_ACCESS_LOCAL_WRITE;
		break;
	case RDP_VERB_ATOMIC:
		if (theirs)
			access |= IBV_ACCESS_REMOTE_ATOMIC |
				  IBV_ACCESS_LOCAL_WRITE;
		if (mine) /* the fetched values land here */
			access |= IBV_ACCESS_LOCAL_WRITE;
		break;
	case RDP_VERB_SEND:
		break;
	}
	/* Receives: SEND's receiver, WRITE with immediate data's target. */
	if (theirs && rdp_bench_receives(ops, p))
		access |= IBV_ACCESS_LOCAL_WRITE;
	return access;
}

const struct rdp_access_name *rdp_access_names(size_t *n_out)
{
	static const struct rdp_access_name names[] = {
		{ IBV_ACCESS_LOCAL_WRITE, "local_write" },
		{ IBV_ACCESS_REMOTE_WRITE, "remote_write" },
		{ IBV_ACCESS_REMOTE_READ, "remote_read" },
		{ IBV_ACCESS_REMOTE_ATOMIC, "remote_atomic" },
	};

	*n_out = sizeof(names) / sizeof(names[0]);
	return names;
}

const char *rdp_access_str(int access, char *buf, size_t len)
{
	size_t n, i, off = 0;
	const struct rdp_access_name *t = rdp_access_names(&n);

	buf[0] = '\0';
	for (i = 0; i < n && off < len; i++)
		if (access & t[i].flag)
			off += (size_t)snprintf(buf + off, len - off, "%s%s",
						off ? ", " : "", t[i].name);
	return buf;
}

uint64_t rdp_bench_send_ops(const struct rdp_bench_ops *ops)
{
	static const uint64_t ops_of[] = {
		[RDP_VERB_WRITE] = IBV_QP_EX_WITH_RDMA_WRITE |
				   IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM,
		[RDP_VERB_READ] = IBV_QP_EX_WITH_RDMA_READ,
		[RDP_VERB_SEND] = IBV_QP_EX_WITH_SEND |
				  IBV_QP_EX_WITH_SEND_WITH_IMM,
		[RDP_VERB_ATOMIC] = IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP |
				    IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD,
	};

	return ops_of[ops->verb];
}

void rdp_bench_decide(const struct rdp_bench_ops *ops,
		      const struct rdp_params *p, const struct rdp_conn *conn,
		      struct rdp_decisions *d)
{
	memset(d, 0, sizeof(*d));
	d->inline_max_bytes = conn->max_inline_bytes;
	d->post_api = conn->post_api;
	if (ops->decide) {
		ops->decide(ops, p, conn, d);
		return;
	}
	d->window = p->tx_depth;
	d->signal_every = p->cq_mod;
}

void rdp_result_clear(struct rdp_result *res)
{
	free(res->interval_bytes);
	res->interval_bytes = NULL;
	res->n_intervals = 0;
	free(res->samples_ns);
	res->samples_ns = NULL;
	res->n_samples = 0;
	free(res->threads);
	res->threads = NULL;
	res->n_threads = 0;
	free(res->events);
	res->events = NULL;
	res->n_events = 0;
	res->events_dropped = 0;
	free(res->per_qp);
	res->per_qp = NULL;
	res->n_per_qp = 0;
	free(res->group);
	res->group = NULL;
	res->n_group = 0;
}

static const char *verb_name(enum rdp_verb verb)
{
	switch (verb) {
	case RDP_VERB_WRITE:
		return "RDMA WRITE";
	case RDP_VERB_READ:
		return "RDMA READ";
	case RDP_VERB_SEND:
		return "SEND";
	case RDP_VERB_ATOMIC:
		return "an atomic";
	}
	return "?";
}

/* The row bit a test needs to run on transport id: RC is every test's;
 * on XRC the device decides. */
static unsigned int transport_bit(uint32_t id)
{
	switch (id) {
	case RDP_TRANSPORT_UC:
		return RDP_BENCH_UC;
	case RDP_TRANSPORT_UD:
		return RDP_BENCH_UD;
	default:
		return 0;
	}
}

/* Can ops run on row t: a row that runs tests, carries the test's verb
 * and whose bit the test's row has. */
static int runs_on(const struct rdp_bench_ops *ops,
		   const struct rdp_transport *t)
{
	unsigned int bit = t ? transport_bit(t->id) : 0;

	return t && t->runs_tests && rdp_transport_carries(t, ops->verb) &&
	       (ops->flags & bit) == bit;
}

/* "-c UC or -c RC": the transports ops runs on, the rows nearest the one
 * asked for first (the table goes from RC's guarantees down, so UD's
 * nearest is UC). */
static const char *alternatives(const struct rdp_bench_ops *ops, uint32_t asked,
				char *buf, size_t len)
{
	const struct rdp_transport *t, *hit[RDP_TRANSPORT_COUNT];
	uint32_t d, i, n = 0;
	size_t off = 0;

	for (d = 1; d < RDP_TRANSPORT_COUNT; d++) {
		t = asked >= d ? rdp_transport_get(asked - d) : NULL;
		if (runs_on(ops, t))
			hit[n++] = t;
		t = rdp_transport_get(asked + d);
		if (runs_on(ops, t))
			hit[n++] = t;
	}
	if (len)
		buf[0] = '\0';
	for (i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s-c %s",
					!i	     ? ""
					: i + 1 == n ? " or "
						     : ", ",
					hit[i]->name);
	return buf;
}

/* A connected verb on a datagram transport: where it runs instead, and
 * which tests run on this one. */
static void no_datagrams(const struct rdp_bench_ops *ops,
			 const struct rdp_params *p, char *why, size_t len)
{
	const char *name = rdp_transport_name(p->transport);
	char other[64], tests[256], also[320] = "";

	if (*rdp_rules_tests(-1, transport_bit(p->transport), 0, "", ", ",
			     tests, sizeof(tests)))
		snprintf(also, sizeof(also), " (or %s on %s)", tests, name);
	snprintf(why, len,
		 "%s: %s needs a connected QP and %s only sends datagrams: "
		 "use %s%s",
		 p->test, verb_name(ops->verb), name,
		 alternatives(ops, p->transport, other, sizeof(other)), also);
}

static int check_transport(const struct rdp_bench_ops *ops,
			   const struct rdp_params *p, char *why, size_t len)
{
	const struct rdp_transport *t = rdp_transport_get(p->transport);
	char list[64];

	/* XRC: the device decides (the engine answers with its capability) */
	if (p->transport == RDP_TRANSPORT_XRC)
		return 0;
	if (!t) {
		rdp_transport_list(NULL, " or ", list, sizeof(list));
		snprintf(why, len, "transport %u unknown: give -c %s",
			 p->transport, list);
		return -EINVAL;
	}
	if (runs_on(ops, t))
		return 0;
	alternatives(ops, p->transport, list, sizeof(list));
	if (ops->verb == RDP_VERB_READ || ops->verb == RDP_VERB_ATOMIC)
		snprintf(why, len,
			 "%s: %s needs a reliable connection, which %s is "
			 "not: use %s",
			 p->test, verb_name(ops->verb), t->name, list);
	else if (!t->connected)
		no_datagrams(ops, p, why, len);
	else
		snprintf(why, len, "%s does not run on %s: use %s", p->test,
			 t->name, list);
	return -EINVAL;
}

/* --rate_limit: a bandwidth test, units and type this side knows. */
static int check_rate(const struct rdp_bench_ops *ops,
		      const struct rdp_params *p, char *why, size_t len)
{
	if (!p->rate_milli)
		return 0;
	if (p->rate_units >= RDP_RATE_UNITS_COUNT ||
	    p->rate_type >= RDP_RATE_TYPE_COUNT) {
		snprintf(why, len,
			 "%s: rate units %u or pacing type %u unknown here",
			 p->test, p->rate_units, p->rate_type);
		return -EINVAL;
	}
	if (ops->kind != RDP_BENCH_BW) {
		snprintf(why, len,
			 "%s: --rate_limit paces the bandwidth tests only",
			 p->test);
		return -EINVAL;
	}
	return 0;
}

/* send_bw -b runs its own loop: RC (each side waits for the other's end
 * marks, which nothing may lose), one receive queue per QP, polling, at
 * full speed. */
static int check_duplex(const struct rdp_bench_ops *ops,
			const struct rdp_params *p, char *why, size_t len)
{
	if (!(p->flags & RDP_PARAM_BIDIR) || ops->verb != RDP_VERB_SEND)
		return 0;
	if (p->transport != RDP_TRANSPORT_RC ||
	    (p->flags &
	     (RDP_PARAM_SRQ | RDP_PARAM_EVENTS | RDP_PARAM_SEND_IMM)) ||
	    p->rate_milli) {
		snprintf(why, len,
			 "%s -b runs on RC, polling, at full speed: drop -c, "
			 "--use-srq, -e, --send_with_imm and --rate_limit",
			 p->test);
		return -EINVAL;
	}
	return 0;
}

/* --threads: bandwidth loops, a QP or more each, each on its own CQ with
 * nothing shared between them. */
static int check_threads(const struct rdp_bench_ops *ops,
			 const struct rdp_params *p, char *why, size_t len)
{
	static const struct {
		uint32_t flag;
		const char *what;
	} shared[] = {
		{ RDP_PARAM_EVENTS, "-e (one completion channel)" },
		{ RDP_PARAM_LIVE,
		  "--run_infinitely (one loop's live reports)" },
		{ RDP_PARAM_SRQ, "--use-srq (one shared receive queue)" },
	};
	size_t i;

	if (p->threads <= 1)
		return 0;
	if (ops->kind != RDP_BENCH_BW) {
		snprintf(why, len,
			 "--threads: %s is a latency test, one message in "
			 "flight on one QP; threads are for the bandwidth "
			 "tests: drop --threads",
			 p->test);
		return -EINVAL;
	}
	if (p->num_qps < p->threads) {
		snprintf(why, len,
			 "--threads %u needs a QP for each thread and -q gives "
			 "%u: raise -q to %u or more, or lower --threads",
			 p->threads, p->num_qps, p->threads);
		return -EINVAL;
	}
	for (i = 0; i < sizeof(shared) / sizeof(shared[0]); i++) {
		if (!(p->flags & shared[i].flag))
			continue;
		snprintf(why, len,
			 "--threads with %s: the threads would share it; drop "
			 "one of the two",
			 shared[i].what);
		return -EINVAL;
	}
	if (p->rate_milli) {
		snprintf(why, len,
			 "--threads with --rate_limit: one loop paces the "
			 "rate; drop one of the two");
		return -EINVAL;
	}
	return 0;
}

int rdp_bench_validate(const struct rdp_bench_ops *ops,
		       const struct rdp_params *p, char *why, size_t len)
{
	int ret = check_transport(ops, p, why, len);

	if (!ret)
		ret = check_threads(ops, p, why, len);
	if (!ret)
		ret = check_duplex(ops, p, why, len);
	if (!ret)
		ret = check_rate(ops, p, why, len);
	if (!ret && ops->validate)
		ret = ops->validate(p, why, len);
	return ret;
}

int rdp_check_size(const struct rdp_params *p, char *why, size_t len)
{
	if (p->size_bytes == 0 || p->size_bytes > RDP_MSG_MAX_BYTES) {
		snprintf(why, len,
			 "%s needs a message size of 1 byte to 1 GiB (-s)",
			 p->test);
		return -EINVAL;
	}
	return 0;
}

int rdp_check_atomic(const struct rdp_params *p, char *why, size_t len)
{
	if (p->size_bytes != 8) {
		snprintf(why, len, "atomics move 8 bytes: drop -s or use -s 8");
		return -EINVAL;
	}
	return 0;
}

const int *rdp_bench_stop_word(const struct rdp_run *run)
{
	static const int never;

	return run->stop ? run->stop : &never;
}

uint64_t rdp_bench_watch_cycles(const struct rdp_run *run)
{
	uint64_t w = rdp_clock_cycles_of_ms(run->clk, RDP_PEER_WATCH_MS);

	return w < run->stall_cycles ? w : run->stall_cycles;
}

int rdp_bench_peer_gone(const struct rdp_run *run, uint64_t quiet_cycles)
{
	if (!run->peer_gone || run->oob_fd < 0 ||
	    quiet_cycles < rdp_bench_watch_cycles(run))
		return 0;
	return run->peer_gone(run->oob_fd);
}
