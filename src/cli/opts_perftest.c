/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --perftest: perftest's defaults for the test, where rdmaperf's differ,
 * so that `rdmaperf TEST --perftest HOST` meets a plain ib_TEST. They
 * replace rdmaperf's defaults before the command line is read again:
 * what the user gave still wins. And --perform_warm_up, perftest's
 * warm-up of the WRITE, READ and atomic bandwidth tests.
 */
#include <stdint.h>

#include "opts_int.h"
#include <rdmaperf/bench.h>
#include <rdmaperf/params.h>
#include <rdmaperf/run_opts.h>

/* perftest's figures (perftest_parameters.h), by name. */
#define PT_ITERS	    1000
#define PT_ITERS_WRITE_BW   5000 /* its WRITE bandwidth test only */
#define PT_TX_DEPTH	    128
#define PT_RX_DEPTH_SEND    512
#define PT_CQ_MOD	    100
#define PT_CQ_MOD_SIZE	    8192 /* above: every send signalled */
#define PT_INLINE_WRITE_LAT 220
#define PT_INLINE_SEND_LAT  236

uint64_t rdp_cli_perftest_iters(const struct rdp_bench_ops *t)
{
	return t->kind == RDP_BENCH_BW && t->verb == RDP_VERB_WRITE
		       ? PT_ITERS_WRITE_BW
		       : PT_ITERS;
}

/* perftest sends inline in its latency tests only, up to these. */
static uint32_t inline_of(const struct rdp_bench_ops *t)
{
	if (t->kind != RDP_BENCH_LAT)
		return 0;
	if (t->verb == RDP_VERB_WRITE)
		return PT_INLINE_WRITE_LAT;
	return t->verb == RDP_VERB_SEND ? PT_INLINE_SEND_LAT : 0;
}

void rdp_cli_perftest_defaults(const struct rdp_opts *first, struct rdp_opts *o)
{
	const struct rdp_bench_ops *t = first->bench;
	const struct rdp_params *fp = &first->params;
	struct rdp_params *p = &o->params;
	int counted = !fp->duration_s && !(fp->flags & RDP_PARAM_LIVE);
	uint64_t size = first->matrix.n_sizes == 1 ? first->matrix.sizes[0]
						   : t->default_size;

	p->iters = rdp_cli_perftest_iters(t);
	/* Its queues are never deeper than the run is long. */
	p->tx_depth = PT_TX_DEPTH;
	if (counted && fp->iters < p->tx_depth)
		p->tx_depth = (uint32_t)fp->iters;
	if (t->verb == RDP_VERB_SEND) {
		p->rx_depth = PT_RX_DEPTH_SEND;
		if (counted && fp->iters < p->rx_depth)
			p->rx_depth = (uint32_t)fp->iters;
	}
	/* One send signalled in 100, every one above 8 KiB (one size, no
	 * events); one work request per post. */
	p->cq_mod = PT_CQ_MOD;
	if (size > PT_CQ_MOD_SIZE && first->matrix.n_sizes <= 1 &&
	    !(fp->flags & RDP_PARAM_EVENTS))
		p->cq_mod = 1;
	p->post_list = 1;
	p->inline_bytes = inline_of(t);
	/* -D leaves a quarter of the run out at each end (whole seconds). */
	if (fp->duration_s && !(fp->flags & RDP_PARAM_LIVE))
		o->report.margin_s = (double)(fp->duration_s / 4);
}

int rdp_cli_set_warm_up(void *base, const struct rdp_cli_opt *d,
			const char *arg, char *err, size_t len)
{
	struct rdp_opts *o = base;

	(void)d;
	(void)arg;
	(void)err;
	(void)len;
	o->conn.perform_warm_up = 1;
	return 0;
}

uint32_t rdp_cli_warm_up_bw(const struct rdp_opts *o)
{
	const struct rdp_params *p = &o->params;

	/* perftest's: a queue's depth (or a post list) per QP, in its
	 * WRITE, READ and atomic bandwidth tests; with immediate data it
	 * skips it, as does the SEND test */
	if (!o->conn.perform_warm_up || o->bench->kind != RDP_BENCH_BW ||
	    o->bench->verb == RDP_VERB_SEND || (p->flags & RDP_PARAM_WRITE_IMM))
		return 0;
	return p->post_list > 1 ? p->post_list : p->tx_depth;
}
