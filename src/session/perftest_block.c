/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perftest's negotiation block (6.28+): the one a --perftest side sends,
 * and the persistent server's reading of a client's: the test it asks
 * for as rdmaperf's options, held to the limits a rdmaperf client is
 * (ranges, --max-memory, --max-session).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/perftest_wire.h>
#include <rdmaperf/run_opts.h>
#include <rdmaperf/session_steps.h>

/* The point of the sweep that costs most (the largest size, which the
 * buffers are made for), within the server's limits. */
static int check_fit(const struct rdp_opts *po, char *why, size_t len)
{
	struct rdp_params p = po->params;
	size_t i;

	for (i = 0; i < po->matrix.n_sizes; i++)
		if (po->matrix.sizes[i] > p.size_bytes)
			p.size_bytes = po->matrix.sizes[i];
	return rdp_session_check_fit(po, po->bench, &p, why, len);
}

static const char *const verb_names[] = { "SEND",      "SEND_IMM", "WRITE",
					  "WRITE_IMM", "READ",	   "ATOMIC" };

int rdp_session_perftest_opts(const struct rdp_pt_neg *n,
			      const struct rdp_opts *server,
			      struct rdp_opts *po, char *why, size_t len)
{
	static const char *const tests[2][6] = {
		[RDP_PT_LAT] = { [RDP_PT_SEND] = "send_lat",
				 [RDP_PT_WRITE] = "write_lat",
				 [RDP_PT_READ] = "read_lat",
				 [RDP_PT_ATOMIC] = "atomic_lat" },
		[RDP_PT_BW] = { [RDP_PT_SEND] = "send_bw",
				[RDP_PT_WRITE] = "write_bw",
				[RDP_PT_READ] = "read_bw",
				[RDP_PT_ATOMIC] = "atomic_bw" },
	};
	const char *test = NULL;
	size_t i;

	if ((n->tst == RDP_PT_LAT || n->tst == RDP_PT_BW) &&
	    (unsigned int)n->verb < 6)
		test = tests[n->tst][n->verb];
	/* perftest's atomic tests have one size */
	if (n->verb == RDP_PT_ATOMIC && n->test_method)
		test = NULL;
	if (!test || n->connection_type || n->test_method > 1 ||
	    n->use_rdma_cm || n->write_with_imm || n->data_validation ||
	    n->aes_xts || !n->num_qps || n->num_qps > 4096 || !n->size_bytes ||
	    n->size_bytes > RDP_MSG_MAX_BYTES) {
		snprintf(why, len,
			 "%s %s on connection type %d%s%s is not served here "
			 "(RC SEND, WRITE, READ and atomics are, one size or "
			 "-a)",
			 (unsigned int)n->verb < 6 ? verb_names[n->verb] : "?",
			 n->tst == RDP_PT_BW ? "bandwidth" : "latency",
			 n->connection_type,
			 n->test_method > 1 ? ", run infinitely" : "",
			 n->use_rdma_cm ? ", RDMA CM" : "");
		return -EPROTONOSUPPORT;
	}
	*po = *server;
	/* The log carries the report; no document. */
	po->report.json = 0;
	po->report.json_file[0] = '\0';
	po->bench = rdp_bench_find(test);
	snprintf(po->params.test, sizeof(po->params.test), "%s", test);
	po->params.size_bytes = n->size_bytes;
	po->params.num_qps = (uint32_t)n->num_qps;
	po->params.iters = n->test_type ? 0 : n->iters;
	po->params.duration_s = n->test_type ? (uint32_t)n->duration_s : 0;
	po->report.gbits = n->report_fmt == 0;
	po->params.flags &= ~(uint32_t)RDP_PARAM_CAS;
	if (n->verb == RDP_PT_ATOMIC && n->atomic_type == 0)
		po->params.flags |= RDP_PARAM_CAS;
	po->matrix.n_qps = 1;
	po->matrix.qps[0] = (uint64_t)n->num_qps;
	po->matrix.n_sizes = n->test_method == 1 ? 23 : 1;
	for (i = 0; i < po->matrix.n_sizes; i++)
		po->matrix.sizes[i] = n->test_method == 1 ? 2ull << i
							  : n->size_bytes;
	if (!po->bench)
		return -EPROTONOSUPPORT;
	if (po->bench->validate && po->bench->validate(&po->params, why, len))
		return -EPROTONOSUPPORT;
	return check_fit(po, why, len);
}

/* perftest's verb for this side's test. */
static int32_t verb_of(const struct rdp_bench_ops *t)
{
	switch (t->verb) {
	case RDP_VERB_SEND:
		return RDP_PT_SEND;
	case RDP_VERB_READ:
		return RDP_PT_READ;
	case RDP_VERB_ATOMIC:
		return RDP_PT_ATOMIC;
	default:
		return RDP_PT_WRITE;
	}
}

#define PT_DEF_DURATION_S 5 /* what perftest's block says without -D */

void rdp_session_perftest_neg(const struct rdp_opts *o,
			      const struct rdp_params *p, int all,
			      uint32_t max_qp_rd_atom, struct rdp_pt_neg *n)
{
	int atomic = verb_of(o->bench) == RDP_PT_ATOMIC;
	int live = !!(p->flags & RDP_PARAM_LIVE);

	memset(n, 0, sizeof(*n));
	/* --run_infinitely: perftest's third method, by time, keeping the
	 * iterations (its default or -n) unless -D set the time, whose
	 * length it sends (else 5 s) */
	n->test_method = live ? 2 : all ? 1 : 0;
	n->verb = verb_of(o->bench);
	n->tst = o->bench->kind == RDP_BENCH_LAT ? RDP_PT_LAT : RDP_PT_BW;
	/* perftest: fetch-and-add unless -A; 0 in other tests */
	n->atomic_type = atomic && !(p->flags & RDP_PARAM_CAS) ? 1 : 0;
	n->test_type = p->duration_s || live ? 1 : 0;
	n->report_fmt = o->report.gbits ? 0 : 1;
	n->size_bytes = p->size_bytes;
	if (live)
		n->iters = o->conn.perftest_iters;
	else
		n->iters = p->duration_s ? 0 : p->iters;
	n->num_qps = (int32_t)p->num_qps;
	n->duration_s = p->duration_s ? (int32_t)p->duration_s
				      : PT_DEF_DURATION_S;
	if (live && o->conn.perftest_iters)
		n->duration_s = PT_DEF_DURATION_S;
	n->max_qp_rd_atom = max_qp_rd_atom;
}
