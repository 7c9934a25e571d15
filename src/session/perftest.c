/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdmaperf TEST --perftest [HOST]: perftest's out-of-band dialogue
 * (rdp_proto_perftest, perftest_proto.c) around rdmaperf's own verbs.
 * With HOST, client.c's driver runs rdmaperf's loop against a perftest
 * ib_* server started with the same options; without, the driver here
 * serves one perftest client (and the gate's perftest clients). All eight
 * tests, one size (-s, -n or -D) or perftest's -a sweep, any -q on the
 * bandwidth tests, with peers that announce a version from 5.70 on; 6.28
 * and later also get the negotiation block. Where perftest's side is
 * passive (the RDMA bandwidth tests' and READ and atomic latency's
 * server), rdmaperf's is too and prints the figures the client sends, if
 * it sends any. With -R the dialogue runs over a channel of RDMA CM and
 * RDMA CM connects the QPs (perftest_cm.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdmaperf/cm.h>
#include <rdmaperf/cpu_usage.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/log.h>
#include <rdmaperf/session.h>

#include "perftest_int.h"
#include "session_int.h"

/* -a: perftest's sweep, 2 B to 8 MiB in powers of two. */
static int all_sizes(const struct rdp_opts *o)
{
	size_t i;

	if (o->matrix.n_sizes != 23)
		return 0;
	for (i = 0; i < o->matrix.n_sizes; i++)
		if (o->matrix.sizes[i] != 2ull << i)
			return 0;
	return 1;
}

/* What this side can run against a perftest peer, or why not. */
static int supported(const struct rdp_opts *o)
{
	const struct rdp_bench_ops *t = o->bench;

	if ((o->matrix.n_sizes > 1 && !all_sizes(o)) || o->matrix.n_qps > 1) {
		rdp_err("--perftest: one size (-s) or perftest's sweep (-a), "
			"and one QP count, per run: as perftest's own");
		return -EINVAL;
	}
	if (t->verb == RDP_VERB_ATOMIC && o->matrix.n_sizes > 1) {
		rdp_err("--perftest: perftest's atomic tests have one size "
			"(8 B): drop -a");
		return -EINVAL;
	}
	if (t->verb == RDP_VERB_SEND && o->matrix.n_sizes > 1 &&
	    (o->params.flags & RDP_PARAM_BIDIR)) {
		rdp_err("--perftest: send_bw -b runs one size against "
			"perftest (-s): drop -a");
		return -EINVAL;
	}
	if (o->report.output || o->limits.plot_file[0]) {
		rdp_err("--perftest: no --output or --plot with a perftest "
			"peer: the text report, or --json for the figures");
		return -EINVAL;
	}
	return 0;
}

static enum pt_seq seq_of(const struct rdp_bench_ops *t)
{
	if (t->kind == RDP_BENCH_BW)
		return t->verb == RDP_VERB_SEND ? PT_SEND_BW : PT_RDMA_BW;
	return t->verb == RDP_VERB_SEND ? PT_SEND_LAT : PT_RDMA_LAT;
}

/* The server's loop at each size on the same QPs, a row each; *res: the
 * last. The send_bw receiver keeps receives of the largest size posted
 * (its params keep that size), so a larger next size always fits. */
static int sweep(struct pt_peer *c, struct rdp_result *res)
{
	const struct rdp_matrix *m = &c->s->o->matrix;
	size_t n = m->n_sizes ? m->n_sizes : 1, k;
	int receiver = c->seq == PT_SEND_BW && c->server;
	uint64_t size = c->s->p.size_bytes;
	int ret = 0;

	c->s->proto->begin(c->s);
	for (k = 0; !ret && k < n; k++) {
		if (m->n_sizes)
			size = m->sizes[k];
		if (!receiver)
			c->s->p.size_bytes = size;
		c->size_bytes = size;
		rdp_result_clear(res);
		memset(res, 0, sizeof(*res));
		rdp_bench_decide(c->s->o->bench, &c->s->p, c->s->conn,
				 &c->s->run.dec);
		res->dec = c->s->run.dec;
		res->size_bytes = size;
		res->num_qps = c->s->p.num_qps;
		/* RDMA latency: prepared once, before the last barrier; the
		 * receiver's queues, once filled, are kept full by its loop. */
		if (!c->s->run_prepared && !(receiver && k))
			ret = c->s->eng->prepare(&c->s->run);
		if (!ret)
			ret = c->s->proto->ready(c->s, &c->s->run);
		if (!ret) {
			rdp_ctr_begin(&c->s->ctr, c->s->dev->name,
				      c->s->dev->port.num);
			ret = rdp_session_loop(c->s->eng, &c->s->run, res,
					       &c->s->sinks, &c->s->info,
					       c->s->o->report.interval_s);
			rdp_ctr_end(&c->s->ctr);
			if (ret)
				c->s->proto->loop_failed(c->s);
		}
		if (!ret)
			ret = c->s->proto->done(c->s, &c->s->run, res);
		if (!ret)
			ret = rdp_perftest_report_point(c, res);
	}
	if (!ret)
		rdp_perftest_report_end(c);
	return ret;
}

/* A passive server (RDMA bandwidth, READ and atomic latency): the
 * client's figures if it sends them, else a line saying there are none. */
static int serve_passive(struct pt_peer *c)
{
	struct rdp_result res = { 0 };
	struct rdp_pt_report served;
	int ret;

	if (c->s->p.flags & RDP_PARAM_LIVE) {
		ret = rdp_perftest_await_live_end(c);
		if (!ret) {
			rdp_perftest_report_head(
				c, "Figures         : none here: perftest's "
				   "live client is stopped, not finished, "
				   "and reports nothing");
			rdp_perftest_report_end(c);
		}
		return ret;
	}
	if (c->seq != PT_RDMA_BW) {
		ret = rdp_perftest_close_tcp(c, 0);
		if (!ret) {
			rdp_perftest_report_head(
				c, "Figures         : none here: perftest's "
				   "latency client keeps its own");
			rdp_perftest_report_end(c);
		}
		return ret;
	}
	ret = rdp_perftest_serve_run(c, &served);
	if (ret)
		return ret;
	rdp_perftest_result_of(c, &served, &res);
	rdp_perftest_report_head(
		c, c->all ? "Figures         : the client's, as it sent "
			    "them, of its last size"
			  : "Figures         : the client's, as it sent "
			    "them");
	c->s->info.figures_by = "perftest client";
	c->s->info.counters = NULL;
	ret = rdp_perftest_report_point(c, &res);
	rdp_perftest_report_end(c);
	return ret;
}

/* The server's run from the QPs to the report, once the parameters are
 * agreed. */
static int test(struct pt_peer *c)
{
	struct rdp_result res = { 0 };
	int ret;

	ret = c->s->proto->qps(c->s);
	if (ret)
		return ret;
	if (c->server && !c->pingpong && c->seq != PT_SEND_BW && !c->bidir)
		ret = serve_passive(c);
	else
		ret = sweep(c, &res);
	if (!ret)
		ret = c->s->proto->close(c->s, &res);
	/* A passive latency server has no results: an empty list. */
	if (!ret)
		ret = rdp_sinks_close(&c->s->sinks, &c->s->info);
	fflush(c->s->text);
	rdp_result_clear(&res);
	return ret;
}

static int run(struct pt_peer *c)
{
	int ret = c->s->proto->open(c->s);

	if (ret)
		return ret;
	ret = c->s->proto->hello(c->s);
	if (!ret)
		ret = c->s->proto->params(c->s);
	return ret ? ret : test(c);
}

/* This side's parameters from o: the buffers fit the largest size (a
 * sweep starts from the first); a latency run has no warm-up, which the
 * peer would count; a SEND latency side posts at most -n receives, as
 * perftest does. */
static void peer_init(struct pt_peer *c, const struct rdp_opts *o)
{
	const struct rdp_matrix *m = &o->matrix;

	c->s->o = o;
	c->s->proto = &rdp_proto_perftest;
	c->s->p = o->params;
	c->all = all_sizes(o);
	c->seq = seq_of(o->bench);
	c->pingpong = !!(o->bench->flags & RDP_BENCH_PINGPONG);
	c->bidir = !!(o->params.flags & RDP_PARAM_BIDIR);
	c->s->p.size_bytes = m->n_sizes ? m->sizes[m->n_sizes - 1]
					: o->params.size_bytes;
	c->s->p.num_qps = m->n_qps ? (uint32_t)m->qps[0] : o->params.num_qps;
	if (o->bench->kind == RDP_BENCH_LAT)
		c->s->p.warmup_iters = 0;
	if (c->seq == PT_SEND_LAT && !c->s->p.duration_s &&
	    c->s->p.iters < c->s->p.rx_depth)
		c->s->p.rx_depth = (uint32_t)c->s->p.iters;
}

int rdp_session_perftest_serve(const struct rdp_opts *o,
			       const struct rdp_engine_ops *eng,
			       struct rdp_oob *oob)
{
	struct rdp_session_base s = {
		.o = o,
		.eng = eng,
		.proto = &rdp_proto_perftest,
		.oob = *oob,
		.text = stdout,
	};
	struct pt_peer c = { .s = &s, .server = 1, .from_block = 1 };
	uint8_t b[RDP_PT_NEG_MLX5DV_BYTES], answer[RDP_PT_NEG_MLX5DV_BYTES];
	struct rdp_pt_neg theirs;
	struct rdp_opts *po;
	char why[160];
	size_t bytes;
	int ret;

	s.pt = &c;
	po = malloc(sizeof(*po));
	if (!po)
		return -ENOMEM;
	ret = rdp_clock_calibrate(&s.clk);
	if (!ret)
		ret = eng->dev_open(o->conn.dev, o->conn.ib_port, 0, &o->mem,
				    &s.dev);
	if (!ret)
		ret = s.proto->hello(&s);
	/* 6.28 on, or a build that sends its block while it calls itself
	 * older */
	if (!ret)
		ret = rdp_perftest_block_coming(&c);
	if (ret == 1) {
		ret = 0;
	} else if (!ret) {
		rdp_err("perftest %s client from %s brings no test parameters "
			"(perftest sends them from %.2f on): start a one-shot "
			"`rdmaperf TEST --perftest [its options] -p PORT` for "
			"it and point it at that port",
			c.version, oob->peer, RDP_PT_NEG_VERSION);
		ret = -EPROTONOSUPPORT;
	}
	if (!ret)
		ret = rdp_perftest_block_size(&c, b, &bytes);
	if (!ret)
		ret = rdp_pt_neg_answer(b, bytes,
					(uint32_t)s.dev->attr.max_qp_rd_atom,
					&theirs, answer);
	if (!ret) {
		ret = rdp_session_perftest_opts(&theirs, o, po, why,
						sizeof(why));
		if (ret == -EPROTONOSUPPORT) /* a limit's line is logged */
			rdp_err("perftest %s client from %s: %s", c.version,
				oob->peer, why);
	}
	if (!ret)
		ret = rdp_oob_send_raw(&s.oob, answer, bytes);
	if (!ret) {
		peer_init(&c, po);
		ret = rdp_perftest_sinks(&c);
	}
	if (!ret) {
		fprintf(s.text,
			"client %s: perftest %s, %s, %llu B, %u QP(s)\n",
			oob->peer, c.version, po->params.test,
			(unsigned long long)po->params.size_bytes,
			po->params.num_qps);
		fflush(s.text);
		ret = test(&c);
	}
	eng->conn_destroy(s.conn);
	eng->dev_close(s.dev);
	rdp_sinks_free(&s.sinks);
	free(po);
	return ret;
}

int rdp_perftest_start(struct rdp_session_base *s)
{
	struct pt_peer *c = s->pt;
	const struct rdp_opts *o = s->o;
	int ret;

	c->s = s; /* the driver's */
	if (supported(o))
		return RDP_EXIT_USAGE;
	if (rdp_session_clock(&s->clk))
		return RDP_EXIT_FAIL;
	peer_init(c, o);
	/* --json: stdout carries the document alone. */
	if (rdp_session_text_out(o->report.json, &s->text))
		return RDP_EXIT_FAIL;
	ret = rdp_perftest_sinks(c);
	/* the device opens as the client's, through RDMA CM with -R */
	if (!ret)
		ret = rdp_session_dev_open(s->eng, o, &s->dev);
	return rdp_exit_code(ret);
}

/* With HOST, client.c's driver on perftest's dialogue; without, the
 * one-shot server here. */
int rdp_session_perftest(const struct rdp_opts *o,
			 const struct rdp_engine_ops *eng)
{
	struct rdp_session_base s = {
		.o = o,
		.eng = eng,
		.oob = { .fd = -1 },
		.text = stdout,
	};
	struct pt_peer c = { .s = &s, .server = !o->conn.host[0] };
	int rc;

	if (!c.server) {
		rc = rdp_session_client_proto(o, eng, &rdp_proto_perftest, &c);
		/* -R: the channel, once the driver has ended the test QPs */
		rdp_cm_chan_close(c.cm);
		return rc;
	}
	s.pt = &c;
	rc = rdp_perftest_start(&s);
	if (rc == RDP_EXIT_OK)
		rc = rdp_exit_code(run(&c));
	rdp_perftest_cm_end(&c);
	eng->conn_destroy(s.conn);
	rdp_oob_close(&s.oob);
	eng->dev_close(s.dev);
	rdp_sinks_free(&s.sinks);
	if (s.text != stdout)
		fclose(s.text);
	return rc;
}
