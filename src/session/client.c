/* SPDX-License-Identifier: BSD-2-Clause */
/* The client's side of a session: it owns the parameters, drives the
 * handshake, runs the timed loop and hands each point to its report
 * sinks; its points are returned to a caller that asks for them. */
#include <errno.h>
#include <stddef.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <jansson.h>

#include "client_int.h"
#include <rdmaperf/auth.h>
#include <rdmaperf/barrier.h>
#include <rdmaperf/secret.h>
#include <rdmaperf/cpu_usage.h>
#include <rdmaperf/cm.h>
#include <rdmaperf/clock.h>
#include <rdmaperf/counters.h>
#include <rdmaperf/convert.h>
#include <rdmaperf/health.h>
#include <rdmaperf/json.h>
#include <rdmaperf/log.h>
#include <rdmaperf/placement.h>
#include <rdmaperf/report.h>
#include <rdmaperf/sink.h>
#include <rdmaperf/stage.h>
#include <rdmaperf/sweep.h>
#include <rdmaperf/sysfs.h>
#include <rdmaperf/verdict.h>

/* The time since the last lap, into the phase it closes. */
static void lap(struct client *c, double *phase)
{
	uint64_t t = rdp_clock_mono_ns();

	*phase += (double)(t - c->mark_ns) / 1e9;
	c->mark_ns = t;
}

/* A rail of a multi-rail run: its timed loop starts with the others'. */
static int start_together(struct client *c)
{
	int timeout_ms = 2 * c->s.o->conn.connect_timeout_ms + 5000, ret;
	char why[256] = "";

	ret = rdp_barrier_wait(c->barrier_fd, timeout_ms, why, sizeof(why));
	if (ret == -ECANCELED)
		rdp_err("%s", why);
	else if (ret == -ETIMEDOUT)
		rdp_err("start barrier: not released within %d ms", timeout_ms);
	else if (ret)
		rdp_err("start barrier: the multi-rail rdmaperf that started "
			"this rail is gone");
	return ret;
}

/* rdmaperf's dialogue (rdp_proto_rdmaperf), step by step. */

/* The server dialled (unless the caller did), authenticated with the
 * shared secret where there is one. */
static int open_oob(struct rdp_session_base *s)
{
	struct client *c = client_of(s);
	int ret = rdp_session_dial(c->s.o, &c->s.oob);

	if (!ret && c->s.o->conn.secret && c->s.o->conn.secret->len) {
		ret = rdp_auth_client(&c->s.oob, c->s.o->conn.secret);
		c->authenticated = !ret;
	}
	return ret;
}

static int hello(struct rdp_session_base *s)
{
	struct client *c = client_of(s);
	struct rdp_msg msg;
	int ret;

	rdp_hello_fill(&msg);
	rdp_host_from_hello(&msg.u.hello, &c->local_host);
	ret = rdp_oob_send(&c->s.oob, &msg);
	if (!ret)
		ret = rdp_oob_expect(&c->s.oob, RDP_MSG_HELLO, &msg, -1);
	if (!ret)
		rdp_host_from_hello(&msg.u.hello, &c->peer_host);
	return ret;
}

static int send_params(struct rdp_session_base *s)
{
	struct client *c = client_of(s);
	struct rdp_msg msg = { .type = RDP_MSG_PARAMS };
	int ret;

	msg.u.params = c->s.p;
	ret = rdp_oob_send(&c->s.oob, &msg);
	if (!ret)
		ret = rdp_oob_expect(&c->s.oob, RDP_MSG_ACCEPT, &msg,
				     rdp_slow_step_ms(c->s.o, &c->s.p));
	if (ret)
		return ret;
	rdp_peer_from_accept(&msg.u.accept, &c->peer);
	c->cm_port = msg.u.accept.cm_port;
	c->cm_nonce = msg.u.accept.cm_nonce;
	return 0;
}

/* -R: RDMA CM connects the QPs to the port the server listens on. */
static int cm_connect(struct client *c)
{
	const struct rdp_params *p = &c->s.p;
	struct rdp_cm_opts cmo;

	if (!c->s.oob.have_peer_ip || !c->cm_port) {
		rdp_err("-R needs the server's IP address and a server that "
			"listens with RDMA CM");
		return -EAFNOSUPPORT;
	}
	rdp_cm_opts_from(c->s.o, p, &cmo);
	return rdp_cm_connect(c->s.conn, p->num_qps, &c->s.oob.peer_ip,
			      c->cm_port, c->cm_nonce, &cmo);
}

static int connect_qps(struct rdp_session_base *s)
{
	struct client *c = client_of(s);
	const struct rdp_params *p = &c->s.p;
	struct rdp_conn_cfg cfg;
	struct rdp_qp_info *remote;
	struct rdp_path_opts path;
	int ret;

	rdp_session_qp_cfg(c->s.o, p, RDP_SIDE_CLIENT, &c->s.oob, &cfg, &path);
	ret = c->s.eng->conn_create(c->s.dev, &cfg, &c->s.conn);
	if (!ret && cfg.defer_qps)
		ret = cm_connect(c);
	if (ret)
		return ret;
	remote = calloc(p->num_qps, sizeof(*remote));
	if (!remote)
		return -ENOMEM;
	ret = rdp_recv_qp_infos(&c->s.oob, p->num_qps, remote);
	if (!ret)
		ret = rdp_send_qp_infos_with(c->s.eng, &c->s.oob, c->s.conn,
					     !!(c->s.o->bench->flags &
						RDP_BENCH_EXPOSE_TX));
	if (!ret)
		ret = c->s.eng->conn_connect(c->s.conn, remote, &path);
	free(remote);
	return ret;
}

/* --reversed: the point's figures are what the server sent. */
static void take_server_tx(const struct rdp_msg_result *srv,
			   struct rdp_result *res)
{
	res->reversed = 1;
	res->msgs = srv->tx_msgs;
	res->elapsed_ns = (double)srv->tx_elapsed_ns;
	if (!srv->tx_elapsed_ns)
		return;
	res->bw_avg_gbps =
		(double)srv->tx_bytes * 8 / (double)srv->tx_elapsed_ns;
	res->bw_peak_gbps = (double)srv->tx_peak_kbps / 1e6;
	res->msg_rate_mpps =
		(double)srv->tx_msgs * 1e3 / (double)srv->tx_elapsed_ns;
}

static int check_data(struct client *c, const struct rdp_run *run,
		      const struct rdp_msg_result *srv, struct rdp_result *res)
{
	const struct rdp_bench_ops *ops = c->s.o->bench;
	struct rdp_data_check mine = { 0 };

	res->check_unit = rdp_bench_check_unit(ops, &c->s.p);
	if (srv->status) {
		rdp_err("data check failed on the server at %llu B x %u QPs "
			"(%s): its memory differs from what this side did "
			"(first bad byte, or the counters' sum: %llu)",
			(unsigned long long)c->s.p.size_bytes, c->s.p.num_qps,
			ops->check_unit, (unsigned long long)srv->bad_offset);
		return -EILSEQ;
	}
	/* What landed in this side's memory: the server's operations
	 * under -b (atomics count them). */
	if (c->s.eng->verify(run,
			     c->s.p.flags & RDP_PARAM_BIDIR ? srv->tx_msgs
							    : run->posted,
			     &mine)) {
		rdp_err("data check failed on this side at %llu B x %u QPs: "
			"byte %llu differs from what the server holds",
			(unsigned long long)c->s.p.size_bytes, c->s.p.num_qps,
			(unsigned long long)mine.bad_offset);
		return -EILSEQ;
	}
	res->data_ok = 1;
	res->data_checked = srv->checked_bytes + mine.checked_bytes;
	/* --data_validation: one side checks, and says what it cost */
	res->check_ns = srv->check_ns + mine.check_ns;
	res->check_on_server = srv->check_ns != 0;
	if (rdp_transport_lossy(c->s.p.transport) &&
	    rdp_bench_receives(ops, &c->s.p) && ops->kind == RDP_BENCH_BW) {
		res->loss_counted = 1;
		res->sent_msgs = run->posted;
		res->received_msgs = srv->rx_msgs;
		if (c->s.p.flags & RDP_PARAM_MCAST)
			res->group_qps = c->s.p.num_qps;
		if (rdp_group_from_result(srv, c->s.p.size_bytes, res))
			return -ENOMEM;
	}
	if (c->s.p.flags & RDP_PARAM_REVERSED)
		take_server_tx(srv, res);
	if (c->s.p.flags & RDP_PARAM_BIDIR && srv->tx_elapsed_ns) {
		res->bidir = 1;
		res->rx_msgs = srv->tx_msgs;
		res->rx_bw_avg_gbps =
			(double)srv->tx_bytes * 8 / (double)srv->tx_elapsed_ns;
		res->rx_bw_peak_gbps = (double)srv->tx_peak_kbps / 1e6;
		res->rx_msg_rate_mpps =
			(double)srv->tx_msgs * 1e3 / (double)srv->tx_elapsed_ns;
	}
	return 0;
}

/* The loop failed: when the server ended the test and said why (its
 * --max-session, say), its words name the cause. */
static void server_said_why(struct rdp_session_base *s)
{
	struct client *c = client_of(s);
	struct rdp_msg msg;

	if (!rdp_oob_recv(&c->s.oob, &msg, 500) && msg.type == RDP_MSG_ERROR)
		rdp_err("peer %s reports: %s", c->s.oob.peer, msg.u.error.text);
}

static int ready(struct rdp_session_base *s, struct rdp_run *run)
{
	struct client *c = client_of(s);

	(void)run;
	return rdp_sync(&c->s.oob, RDP_SYNC_READY, 1,
			rdp_slow_step_ms(c->s.o, &c->s.p), NULL);
}

/* --reversed: how long the server's loop may still run after this side's
 * (with -D its length; with -n the stall timeout per message) */
static int reversed_wait_ms(const struct client *c, int slow)
{
	const struct rdp_params *p = &c->s.p;
	uint64_t ms = p->duration_s
			      ? (uint64_t)p->duration_s * 1000
			      : p->iters * p->num_qps *
					(uint64_t)c->s.o->conn.cq_timeout_ms;

	ms += (uint64_t)slow;
	return ms > INT32_MAX ? INT32_MAX : (int)ms;
}

/* DONE with the operations posted, then the server's RESULT: its
 * counters, its CPU and its data check, then this side's. */
static int done(struct rdp_session_base *s, struct rdp_run *run,
		struct rdp_result *res)
{
	struct client *c = client_of(s);
	int slow = rdp_slow_step_ms(c->s.o, &c->s.p);
	struct rdp_msg msg;
	int ret;

	/* --reversed: the server sent, and says DONE first with its count
	 * once its loop ends; wait as long as the server may take. */
	if (c->s.p.flags & RDP_PARAM_REVERSED)
		ret = rdp_sync(&c->s.oob, RDP_SYNC_DONE, 0,
			       reversed_wait_ms(c, slow), &run->posted);
	else
		ret = rdp_sync(&c->s.oob, RDP_SYNC_DONE, 1, slow, &run->posted);
	if (!ret)
		rdp_ctr_end(&c->s.ctr);
	if (!ret)
		ret = rdp_oob_expect(&c->s.oob, RDP_MSG_RESULT, &msg, slow);
	if (!ret) {
		rdp_ctr_from_result(&c->s.ctr, &msg.u.result);
		rdp_cpu_from_result(&msg.u.result, &res->peer_cpu);
	}
	if (!ret)
		ret = check_data(c, run, &msg.u.result, res);
	return ret;
}

/* Nothing after the last RESULT: the client just closes. */
static int close_oob(struct rdp_session_base *s, const struct rdp_result *last)
{
	(void)s;
	(void)last;
	return 0;
}

/* The peer learns the real cause, not just a closed socket; an ERROR
 * from the peer (-ECANCELED) needs no echo. */
static void send_error(struct rdp_session_base *s, int err)
{
	if (err != -ECANCELED && rdp_last_error()[0])
		rdp_oob_send_error(&s->oob, err, rdp_last_error());
}

/* rdmaperf's dialogue: fresh QPs for each point; the client's own
 * start-up and report. */
const struct rdp_session_proto_ops rdp_proto_rdmaperf = {
	.name = "rdmaperf",
	.open = open_oob,
	.hello = hello,
	.params = send_params,
	.qps = connect_qps,
	.ready = ready,
	.loop_failed = server_said_why,
	.done = done,
	.close = close_oob,
	.abort = send_error,
};

/* The driver: the steps of c->s.proto around the timed loop. */
static int run_test(struct client *c, struct rdp_result *res)
{
	const struct rdp_params *p = &c->s.p;
	struct rdp_run run;
	int ret;

	rdp_session_run_init(&run, c->s.o, p, c->s.conn, &c->s.clk,
			     rdp_bench_role(p, RDP_SIDE_CLIENT), c->s.oob.fd);
	run.pin_threads = !c->s.o->place.no_pin;
	memset(res, 0, sizeof(*res));
	run.dec = c->dec;
	res->dec = c->dec;
	res->size_bytes = p->size_bytes;
	res->num_qps = p->num_qps;
	ret = c->s.eng->prepare(&run);
	lap(c, &c->ph.prepare_s);
	if (!ret)
		rdp_ctr_begin(&c->s.ctr, c->s.dev->name, c->s.dev->port.num);
	if (!ret)
		ret = c->s.proto->ready(&c->s, &run);
	if (!ret && c->barrier_fd >= 0)
		ret = start_together(c);
	/* a signal before the clock: no point (the server sees the close) */
	if (!ret && rdp_client_stopped(c))
		return -EINTR;
	if (!ret) {
		ret = rdp_session_loop_soak(c->s.eng, &run, res, &c->s.sinks,
					    &c->s.info,
					    c->s.o->report.interval_s, c->soak);
		rdp_client_loop_ended(c, res, &ret);
	}
	lap(c, &c->ph.loop_s);
	if (!ret)
		ret = c->s.proto->done(&c->s, &run, res);
	lap(c, &c->ph.done_s);
	return ret;
}

/* An adaptive batch; after the first, the point starts over with the
 * new count: parameters, fresh QPs. */
static int batch(void *ctx, uint64_t iters, int again, struct rdp_result *res)
{
	struct client *c = ctx;
	int ret = 0;

	if (again) {
		c->s.eng->conn_destroy(c->s.conn);
		c->s.conn = NULL;
		c->s.p.iters = iters;
		ret = c->s.proto->params(&c->s);
		if (!ret)
			ret = c->s.proto->qps(&c->s);
		if (!ret)
			rdp_bench_decide(c->s.o->bench, &c->s.p, c->s.conn,
					 &c->dec);
		c->s.info.conn = c->s.conn;
	}
	return ret ? ret : run_test(c, res);
}

/* One run of -n, or with --time-per-point batches until the figure is
 * stable (sweep.c). */
static int measure(struct client *c, struct rdp_result *res)
{
	const struct rdp_limit_opts *a = &c->s.o->limits;
	int ret;

	rdp_progress_show(&c->prog, c->s.p.size_bytes, c->s.p.num_qps);
	if (a->time_per_point_s > 0) {
		ret = rdp_sweep_adapt(a->time_per_point_s, a->target_rel_err,
				      c->s.o->bench->kind == RDP_BENCH_LAT,
				      c->s.p.iters, batch, c, res, &c->adapt);
	} else {
		ret = run_test(c, res);
	}
	rdp_progress_clear(&c->prog);
	return ret;
}

/* The server is this host (one address at both ends) on this very port. */
static int same_port(const struct client *c)
{
	return c->s.oob.have_local_ipv4 && c->s.oob.have_peer_ipv4 &&
	       c->s.oob.local_ipv4.s_addr == c->s.oob.peer_ipv4.s_addr &&
	       !strcmp(c->peer.device, c->s.dev->name) &&
	       c->peer.port == c->s.dev->port.num;
}

/* One point of the matrix: parameters, fresh QPs, the run, its row. */
static int run_point(struct client *c, int first, int group, int last,
		     struct rdp_result *res)
{
	const struct rdp_opts *o = c->s.o;
	int ret;

	lap(c, &c->ph.report_s);
	ret = c->s.proto->params(&c->s);
	lap(c, &c->ph.params_s);
	if (!ret)
		ret = c->s.proto->qps(&c->s);
	lap(c, &c->ph.qps_s);
	if (ret)
		return ret;
	rdp_bench_decide(o->bench, &c->s.p, c->s.conn, &c->dec);
	c->s.info = (struct rdp_report_info){
		.ops = o->bench,
		.params = &c->s.p,
		.conn = c->s.conn,
		.dec = &c->dec,
		.peer = &c->peer,
		.peer_host = &c->peer_host,
		.local_host = &c->local_host,
		.clk = &c->s.clk,
		.peer_addr = c->s.oob.peer,
		.cpu = sched_getcpu(),
		.n_sizes = o->matrix.n_sizes,
		.n_qps = o->matrix.n_qps,
		.gbits = o->report.gbits,
		.cycles = o->report.cycles,
		.placement = &c->place,
		.counters = &c->s.ctr,
		.authenticated = c->authenticated,
	};
	if (first)
		ret = rdp_sinks_begin(&c->s.sinks, &c->s.info);
	rdp_sinks_start(&c->s.sinks, &c->s.info, group);
	lap(c, &c->ph.report_s);
	if (!ret)
		ret = measure(c, res);
	rdp_session_point_events(&c->s, res, ret);
	if (!ret && o->report.no_peak)
		res->bw_peak_gbps = res->rx_bw_peak_gbps = 0;
	c->s.ctr.same_port = same_port(c);
	/* A data error is a point too (its row; data_check.ok false in the
	 * JSON); the run still fails. */
	if (!ret || ret == -EILSEQ) {
		int r = rdp_sinks_point(&c->s.sinks, &c->s.info, res);

		ret = ret ? ret : r;
	}
	lap(c, &c->ph.report_s);
	/* --wait_destroy: the last point's resources outlive the session,
	 * until the wait in drive() is over. */
	if (last && o->conn.wait_destroy_s)
		return ret;
	c->s.eng->conn_destroy(c->s.conn);
	c->s.conn = NULL;
	lap(c, &c->ph.teardown_s);
	return ret;
}

/* The points, the JSON document too, to the caller that asked. */
static int hand_over(struct client *c, struct rdp_result *res, size_t n,
		     uint64_t total)
{
	struct rdp_session_results *r = calloc(1, sizeof(*r));
	struct rdp_json *doc = rdp_json_sink_doc(c->json);

	if (!r)
		return -ENOMEM;
	r->points = res;
	r->n = n;
	r->data_checked = total;
	r->check_unit = rdp_bench_check_unit(c->s.o->bench, &c->s.p);
	r->doc = doc ? json_incref(rdp_json_root(doc)) : NULL;
	c->out = r;
	return 0;
}

/* The run's summary to the sinks, then their documents out. A dialogue
 * without a data check ends its report without a summary; a run on the
 * null MR (nothing kept to check) without the data-check line. After a
 * data error (failed) nothing is handed over. */
static int finish(struct client *c, struct rdp_result *res, size_t n,
		  int failed)
{
	struct rdp_report_summary sum = { 0 };
	const struct rdp_matrix *m = &c->s.o->matrix;
	size_t i;
	int ret;

	rdp_client_summary_stop(
		c, (m->n_sizes ? m->n_sizes : 1) * (m->n_qps ? m->n_qps : 1), n,
		n ? &res[n - 1] : NULL, &sum);
	if (!(c->s.proto->flags & RDP_PROTO_NO_DATA_CHECK)) {
		sum.points = res;
		sum.n = n;
		if (!(c->s.p.flags & RDP_PARAM_NULL_MR))
			sum.check_unit =
				rdp_bench_check_unit(c->s.o->bench, &c->s.p);
		for (i = 0; i < n; i++)
			sum.data_checked += res[i].data_checked;
	}
	ret = rdp_sinks_end(&c->s.sinks, &c->s.info, &sum);
	if (!ret)
		ret = c->s.proto->close(&c->s, n ? &res[n - 1] : NULL);
	if (!ret)
		ret = rdp_sinks_close(&c->s.sinks, &c->s.info);
	if (!ret && sum.n_failed)
		ret = -ERANGE;
	if (!ret && !failed && c->want)
		ret = hand_over(c, res, n, sum.data_checked);
	return ret;
}

/* Every size for every QP count, each point on fresh QPs; *n: the
 * points done. */
static int each_point(struct client *c, struct rdp_result *res, size_t *n)
{
	const struct rdp_matrix *m = &c->s.o->matrix;
	size_t i, k;
	int ret = 0;

	rdp_progress_init(&c->prog, stderr, m->n_sizes * m->n_qps);
	for (k = 0; !ret && k < m->n_qps; k++) {
		for (i = 0; !ret && !rdp_client_stopped(c) && i < m->n_sizes;
		     i++) {
			c->s.p.size_bytes = m->sizes[i];
			c->s.p.num_qps = (uint32_t)m->qps[k];
			c->s.p.iters = rdp_sweep_first(
				c->s.o->limits.time_per_point_s,
				c->s.o->params.iters, m->sizes[i], m->qps[k]);
			ret = run_point(c, *n == 0, i == 0,
					k + 1 == m->n_qps &&
						i + 1 == m->n_sizes,
					&res[*n]);
			*n += !ret || ret == -EILSEQ;
		}
	}
	return ret == -EINTR ? 0 : ret; /* a signal: the points so far */
}

/* One size on the QPs every size shares (the dialogue's run, prepared by
 * its qps or here), its row out at once. */
static int run_size(struct client *c, uint64_t size, struct rdp_result *res)
{
	struct rdp_session_base *s = &c->s;
	int ret = 0;

	s->p.size_bytes = size;
	rdp_bench_decide(s->o->bench, &s->p, s->conn, &s->run.dec);
	res->dec = s->run.dec;
	res->size_bytes = size;
	res->num_qps = s->p.num_qps;
	if (!s->run_prepared)
		ret = s->eng->prepare(&s->run);
	if (!ret)
		ret = s->proto->ready(s, &s->run);
	if (!ret) {
		rdp_ctr_begin(&s->ctr, s->dev->name, s->dev->port.num);
		ret = rdp_session_loop(s->eng, &s->run, res, &s->sinks,
				       &s->info, s->o->report.interval_s);
		rdp_ctr_end(&s->ctr);
		rdp_client_loop_ended(c, res, &ret);
	}
	if (!ret)
		ret = s->proto->done(s, &s->run, res);
	rdp_session_point_events(s, res, ret);
	if (!ret)
		ret = rdp_sinks_point(&s->sinks, &s->info, res);
	fflush(s->text);
	return ret;
}

/* RDP_PROTO_SAME_QPS: the parameters and QPs once, then every size (one
 * without a matrix: the parameters') on them; *n: the sizes done. */
static int each_size(struct client *c, struct rdp_result *res, size_t *n)
{
	struct rdp_session_base *s = &c->s;
	const struct rdp_matrix *m = &s->o->matrix;
	size_t k, sizes = m->n_sizes ? m->n_sizes : 1;
	uint64_t size = s->p.size_bytes;
	int ret = s->proto->params(s);

	if (!ret)
		ret = s->proto->qps(s);
	if (ret)
		return ret;
	s->proto->begin(s);
	for (k = 0; !ret && !rdp_client_stopped(c) && k < sizes; k++) {
		if (m->n_sizes)
			size = m->sizes[k];
		ret = run_size(c, size, &res[k]);
		*n += !ret;
	}
	return ret;
}

/* The dialogue opened, its points (each_point or each_size), the
 * summary. */
static int session(struct client *c)
{
	const struct rdp_matrix *m = &c->s.o->matrix;
	size_t i, n = 0,
		  slots = (m->n_sizes ? m->n_sizes : 1) *
			  (m->n_qps ? m->n_qps : 1);
	struct rdp_result *res;
	int ret = c->s.proto->open(&c->s);

	lap(c, &c->ph.dial_s);
	if (!ret)
		ret = c->s.proto->hello(&c->s);
	lap(c, &c->ph.hello_s);
	if (ret)
		return ret;
	res = calloc(slots, sizeof(*res));
	if (!res)
		return -ENOMEM;
	if (c->s.proto->flags & RDP_PROTO_SAME_QPS)
		ret = each_size(c, res, &n);
	else
		ret = each_point(c, res, &n);
	/* after a data error the reports still close, the JSON written */
	if (!ret || ret == -EILSEQ) {
		int r = finish(c, res, n, ret);

		ret = ret ? ret : r;
	}
	lap(c, &c->ph.report_s);
	if (!ret && c->out)
		return 0; /* res is the caller's now */
	for (i = 0; i < slots; i++)
		rdp_result_clear(&res[i]);
	free(res);
	return ret;
}

/* Clock, device, placement and thresholds: an exit code. */
static int start(struct client *c)
{
	const struct rdp_opts *o = c->s.o;
	struct rdp_limits lim;
	int ret;

	if (rdp_session_keep_clock(c->keep, &c->s.clk))
		return RDP_EXIT_FAIL;
	ret = rdp_session_keep_dev(c->keep, c->s.eng, o->conn.dev,
				   o->conn.ib_port,
				   !!(o->params.flags & RDP_PARAM_RDMA_CM),
				   &o->mem, &c->s.dev);
	if (ret) /* -d naming no device here is a wrong command line */
		return ret == -ENXIO ? RDP_EXIT_USAGE : rdp_exit_code(ret);
	ret = rdp_session_dev_opts(o, c->s.dev);
	if (ret)
		return ret == -EINVAL ? RDP_EXIT_USAGE : rdp_exit_code(ret);
	rdp_session_governor_check(o);
	rdp_session_limits(o, &lim);
	if (rdp_session_keep_place(c->keep, &o->place, c->s.dev, &c->place) ||
	    rdp_session_threads_fit(o) ||
	    rdp_verdict_init(&c->verdict, &lim, o->bench->kind == RDP_BENCH_BW,
			     c->s.dev))
		return RDP_EXIT_USAGE;
	/* On InfiniBand a GID (-x) only makes sense with a GRH, and then on
	 * both sides: say so in the parameters. */
	c->s.p = o->params;
	if (c->s.dev->port.link_layer != IBV_LINK_LAYER_ETHERNET &&
	    o->conn.gid_index >= 0)
		c->s.p.flags |= RDP_PARAM_GRH;
	/* --json and --output: stdout carries that alone. */
	if (rdp_session_text_out(o->report.json || o->report.output,
				 &c->s.text))
		return RDP_EXIT_FAIL;
	return rdp_client_sinks(c) ? RDP_EXIT_FAIL : RDP_EXIT_OK;
}

/* The client on proto's dialogue (pt: perftest's state), with oob
 * already open where given, extra among the reports; its points to *out
 * when asked for. */
static int drive(const struct rdp_opts *o, const struct rdp_engine_ops *eng,
		 const struct rdp_session_proto_ops *proto, struct pt_peer *pt,
		 struct rdp_oob *oob, struct rdp_session_keep *keep,
		 struct rdp_report_sink *extra,
		 struct rdp_session_results **out)
{
	struct client c = {
		.s = {
			.o = o,
			.eng = eng,
			.proto = proto,
			.pt = pt,
			.oob = { .fd = -1 },
			.text = stdout,
		},
		.barrier_fd = rdp_barrier_from_env(),
		.want = !!out,
		.keep = keep,
		.mark_ns = rdp_clock_mono_ns(),
	};
	uint64_t t0_ns = c.mark_ns;
	int rc, ret;

	if (oob)
		c.s.oob = *oob; /* ours now: closed below */
	rc = proto->start ? proto->start(&c.s) : start(&c);
	lap(&c, &c.ph.start_s);
	/* start leaves room: its sinks are fewer than the list holds. */
	if (rc == RDP_EXIT_OK && extra && c.s.sinks.n < RDP_REPORT_SINKS_MAX)
		rdp_sinks_add(&c.s.sinks, extra);
	if (rc == RDP_EXIT_OK) {
		rdp_session_events_begin(&c.s, t0_ns);
		rdp_clear_error();
		ret = session(&c);
		if (ret && proto->abort)
			proto->abort(&c.s, ret);
		rc = rdp_exit_code(ret);
	}
	/* A soak a signal ended says so in its status, as a shell would;
	 * so does any other run a signal cut short. */
	if (c.soak && rdp_soak_record(c.soak)->signo && rc <= RDP_EXIT_FAIL)
		rc = 128 + rdp_soak_record(c.soak)->signo;
	rc = rdp_client_exit_code(&c, rc);
	if (c.s.conn && o->conn.wait_destroy_s)
		rdp_session_wait_destroy(o->conn.wait_destroy_s, c.s.dev->name);
	eng->conn_destroy(c.s.conn);
	rdp_oob_close(&c.s.oob);
	rdp_session_keep_release(keep, eng, c.s.dev);
	lap(&c, &c.ph.teardown_s);
	rdp_session_keep_done(keep, &c.ph);
	if (extra && c.s.sinks.n && c.s.sinks.v[c.s.sinks.n - 1] == extra)
		c.s.sinks.n--; /* the caller's */
	rdp_sinks_free(&c.s.sinks);
	rdp_soak_free(c.soak);
	if (c.s.text != stdout)
		fclose(c.s.text);
	if (rc == RDP_EXIT_OK && out)
		*out = c.out;
	else
		rdp_session_results_free(c.out);
	return rc;
}

int rdp_session_client_results(const struct rdp_opts *o,
			       const struct rdp_engine_ops *eng,
			       struct rdp_oob *oob,
			       struct rdp_report_sink *extra,
			       struct rdp_session_results **out)
{
	return drive(o, eng, &rdp_proto_rdmaperf, NULL, oob, NULL, extra, out);
}

int rdp_session_client_kept(const struct rdp_opts *o,
			    const struct rdp_engine_ops *eng,
			    struct rdp_oob *oob, struct rdp_session_keep *keep,
			    struct rdp_report_sink *extra,
			    struct rdp_session_results **out)
{
	return drive(o, eng, &rdp_proto_rdmaperf, NULL, oob, keep, extra, out);
}

int rdp_session_client_proto(const struct rdp_opts *o,
			     const struct rdp_engine_ops *eng,
			     const struct rdp_session_proto_ops *proto,
			     struct pt_peer *pt)
{
	return drive(o, eng, proto, pt, NULL, NULL, NULL, NULL);
}

int rdp_session_client_with(const struct rdp_opts *o,
			    const struct rdp_engine_ops *eng,
			    struct rdp_oob *oob)
{
	return rdp_session_client_results(o, eng, oob, NULL, NULL);
}

void rdp_session_results_free(struct rdp_session_results *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->n; i++)
		rdp_result_clear(&r->points[i]);
	free(r->points);
	json_decref(r->doc);
	free(r);
}
