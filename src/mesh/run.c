/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * One rank of a mesh: a serving thread on its rail's address, the
 * endpoints swapped, then per round a barrier, this rank's transfer as an
 * rdmaperf client session, and the cells gathered at rank 0, which
 * journals them and writes the files at the end. A pair that fails is a
 * failed cell; only a rank that stops answering ends the job.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include <jansson.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/boot.h>
#include <rdmaperf/clock.h>
#include <rdmaperf/log.h>
#include <rdmaperf/mesh_run.h>
#include <rdmaperf/oob.h>
#include <rdmaperf/run_opts.h>
#include <rdmaperf/session.h>

#include "mesh_int.h"

#define ACCEPT_POLL_MS	   200
#define DEFAULT_MAX_MEMORY (4ull << 30)

/* The serving thread: one client at a time, until told to stop. */
struct server {
	struct rdp_opts o;
	const struct rdp_engine_ops *eng;
	int lfd;
	atomic_int stop;
	pthread_t tid;
	/* What each side keeps from round to round (its device, buffer,
	 * clock): the serving thread's, and run_pair's, both the job's */
	struct rdp_session_keep *keep;
	struct rdp_session_keep *client_keep;
};

struct run {
	struct rdp_boot *boot;
	const struct rdp_opts *o;
	const struct rdp_engine_ops *eng;
	const struct rdp_mesh_run_opts *mo;
	struct rdp_mesh_endpoint me, *eps; /* eps: every rank's */
	unsigned int *node_of, *rail_of, nodes, rails;
	const char **names;
	struct rdp_mesh_plan *plan;
	struct rdp_mesh *mesh; /* rank 0 */
	FILE *journal;	       /* rank 0 */
	struct server srv;
	double started; /* of the rounds, for the ETA */
	double bootstrap_s;
	size_t total_rounds; /* the plan's, and the retests' once known */
	struct rdp_mesh_retests rt; /* --retest's, on every rank */
	/* Rank 0's verdict before each round, on every rank: [0] the time
	 * budget stops the rounds, [1 + node] the node was pruned. */
	unsigned char *verdict;
	struct rdp_mesh_prune prune; /* rank 0 */
	size_t from;		     /* the first round: past the journal's */
	size_t plan_done;	     /* rounds of the plan run, before too */
	double t_start;		     /* of this job, for the budget */
	double ran_s;		     /* rank 0: this job's rounds' time */
	size_t ran;
	int stopped; /* by the time budget */
	/* Rank 0: --topology's fabric, the nodes on it, the faults. */
	struct rdp_mesh_run_topo *topo;
};

static double now_s(void)
{
	return (double)rdp_clock_mono_ns() / 1e9;
}

/* RDP_MESH_KEEP=0 keeps nothing between rounds (each session opens and
 * closes everything, as a lone rdmaperf does): the figure to compare. */
static int keep_reuse(void)
{
	const char *v = getenv("RDP_MESH_KEEP");

	return !(v && !strcmp(v, "0"));
}

static void *serve_main(void *arg)
{
	struct server *s = arg;
	struct rdp_oob oob;

	/* The first client finds this side as the later ones do; a failure
	 * is the sessions' to report. */
	rdp_session_keep_warm(s->keep, s->eng, &s->o);
	while (!atomic_load(&s->stop)) {
		if (rdp_oob_accept(s->lfd, ACCEPT_POLL_MS,
				   s->o.conn.oob_timeout_ms, &oob))
			continue;
		rdp_session_serve_kept(&s->o, s->eng, &oob, s->keep);
		rdp_oob_close(&oob);
	}
	return NULL;
}

/* Listen on the rail's address, on a port the kernel picks. */
static int serve_start(struct run *r)
{
	struct server *s = &r->srv;
	int ret;

	s->o = *r->o;
	s->eng = r->eng;
	snprintf(s->o.conn.dev, sizeof(s->o.conn.dev), "%s", r->me.dev);
	snprintf(s->o.conn.bind, sizeof(s->o.conn.bind), "%s", r->me.addr);
	s->o.conn.gid_index = r->me.gid_index;
	if (!s->o.conn.max_memory_bytes)
		s->o.conn.max_memory_bytes = DEFAULT_MAX_MEMORY;
	ret = rdp_session_keep_create(keep_reuse(), &s->keep);
	if (!ret)
		ret = rdp_oob_listen(r->me.addr, 0, &s->lfd);
	if (!ret)
		ret = rdp_oob_local_port(s->lfd, &r->me.port);
	if (ret)
		return ret;
	ret = -pthread_create(&s->tid, NULL, serve_main, s);
	if (ret) {
		rdp_err("mesh: start the serving thread: %s", strerror(-ret));
		close(s->lfd);
		s->lfd = -1;
	}
	return ret;
}

static void serve_stop(struct server *s)
{
	if (s->lfd >= 0) {
		atomic_store(&s->stop, 1);
		pthread_join(s->tid, NULL);
		close(s->lfd);
		s->lfd = -1;
	}
	rdp_session_keep_free(s->keep);
	rdp_session_keep_free(s->client_keep);
	s->keep = s->client_keep = NULL;
}

/* run_pair's side made ready on this thread, on the device its sessions
 * use: the first round costs what the later ones do. A failure is the
 * sessions' to report. */
static void warm_client(struct run *r)
{
	struct rdp_opts *c = malloc(sizeof(*c));

	if (!c)
		return;
	*c = *r->o;
	snprintf(c->conn.dev, sizeof(c->conn.dev), "%s", r->me.dev);
	rdp_session_keep_warm(r->srv.client_keep, r->eng, c);
	free(c);
}

/* This rank's device, name and address, then its server. */
static int local_setup(struct run *r)
{
	const struct rdp_mesh_run_opts *mo = r->mo;
	char host[64] = "";
	const char *dev = r->o->conn.dev;
	int ret;

	gethostname(host, sizeof(host) - 1);
	snprintf(r->me.host, sizeof(r->me.host), "%s", host);
	ret = rdp_mesh_node_name_of(getenv("RDP_MESH_NODE"), r->boot->rank,
				    host, r->me.node, sizeof(r->me.node));
	if (ret) {
		rdp_err("mesh: RDP_MESH_NODE: empty, or over %zu characters",
			sizeof(r->me.node) - 1);
		return ret;
	}
	if (mo->n_devs) {
		if ((size_t)r->boot->local_rank >= mo->n_devs) {
			rdp_err("mesh: node-local rank %d has no device: -d "
				"lists %zu; start one rank a device "
				"(--map-by ppr:%zu:node)",
				r->boot->local_rank, mo->n_devs, mo->n_devs);
			return -EINVAL;
		}
		dev = mo->devs[r->boot->local_rank];
	}
	/* Named in the others' logs should it fail to open. */
	snprintf(r->me.dev, sizeof(r->me.dev), "%s",
		 dev && *dev ? dev : "the first active device");
	ret = rdp_mesh_endpoint_local(dev, r->o->conn.ib_port, &r->me);
	if (!ret)
		ret = rdp_session_keep_create(keep_reuse(),
					      &r->srv.client_keep);
	if (!ret)
		ret = serve_start(r);
	if (!ret)
		warm_client(r);
	return ret;
}

/* Every rank's endpoint; nodes and rails from them. */
static int swap_endpoints(struct run *r)
{
	int n = r->boot->size, i, ret;

	r->eps = calloc((size_t)n, sizeof(*r->eps));
	r->node_of = calloc((size_t)n, sizeof(*r->node_of));
	r->rail_of = calloc((size_t)n, sizeof(*r->rail_of));
	r->names = calloc((size_t)n, sizeof(*r->names));
	if (!r->eps || !r->node_of || !r->rail_of || !r->names)
		return -ENOMEM;
	ret = r->boot->ops->allgather(r->boot, &r->me, sizeof(r->me), r->eps,
				      r->mo->round_timeout_ms);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		r->eps[i].world_rank = i;
		if (r->eps[i].status && i != r->boot->rank) {
			rdp_err("mesh: rank %d (%s, %s) could not start: see "
				"its log",
				i, r->eps[i].host, r->eps[i].dev);
			/* Every rank ends the way that one does. */
			return r->eps[i].status;
		}
	}
	if (r->me.status)
		return r->me.status;
	return rdp_mesh_group(r->eps, n, r->node_of, r->rail_of, r->names,
			      &r->nodes, &r->rails);
}

/* The rank of node's rail. */
static int rank_of(const struct run *r, unsigned int node, unsigned int rail)
{
	int i;

	for (i = 0; i < r->boot->size; i++)
		if (r->node_of[i] == node && r->rail_of[i] == rail)
			return i;
	return -1;
}

static json_t *real_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static double real_of(json_t *rec, const char *key)
{
	json_t *v = json_object_get(rec, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* What this rank's client side kept and where its session's time went,
 * into the cell's document: "kept" (counts since the job began) and
 * "phases_s". */
static void put_kept(json_t *doc, const struct rdp_session_keep *k)
{
	struct rdp_session_keep_counts n;
	struct rdp_session_phases p;

	rdp_session_keep_counts(k, &n);
	rdp_session_keep_phases(k, &p);
	json_object_set_new(
		doc, "kept",
		json_pack("{s:i, s:i, s:i, s:i, s:i}", "sessions", n.sessions,
			  "device_opens", n.dev_opens, "clock_calibrations",
			  n.clock_calibrations, "conns_built", n.conns_built,
			  "conns_reused", n.conns_reused));
	json_object_set_new(
		doc, "phases_s",
		json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}",
			  "start", p.start_s, "dial", p.dial_s, "hello",
			  p.hello_s, "params", p.params_s, "qps", p.qps_s,
			  "prepare", p.prepare_s, "loop", p.loop_s, "done",
			  p.done_s, "report", p.report_s, "teardown",
			  p.teardown_s));
}

/* One transfer as rdmaperf's client: the record rank 0 will read, with
 * the figures of the results the session handed back. */
static json_t *run_pair(struct run *r, const struct rdp_mesh_xfer *x,
			unsigned int round)
{
	const struct rdp_mesh_endpoint *peer;
	struct rdp_session_results *res = NULL;
	struct rdp_mesh_figures fig = { NAN, NAN, NAN, 0 };
	struct rdp_mesh_err_sink *errs = rdp_mesh_err_sink_create();
	struct rdp_opts *c;
	json_t *rec, *doc = NULL;
	char why[512] = "";
	double t0;
	int rc;

	peer = &r->eps[rank_of(r, x->rx, r->rail_of[r->boot->rank])];
	c = malloc(sizeof(*c));
	if (!c) {
		rdp_mesh_err_sink_free(errs);
		return NULL;
	}
	*c = *r->o;
	snprintf(c->conn.host, sizeof(c->conn.host), "%s", peer->addr);
	c->conn.tcp_port = peer->port;
	snprintf(c->conn.dev, sizeof(c->conn.dev), "%s", r->me.dev);
	c->conn.gid_index = r->me.gid_index;
	/* From this rail's address, which its GID is: the server holds a
	 * client's IP-based GID to the address it connects from. */
	snprintf(c->conn.source_ip, sizeof(c->conn.source_ip), "%s",
		 r->me.addr);
	c->params.flags &= ~(uint32_t)RDP_PARAM_BIDIR;
	if (x->both)
		c->params.flags |= RDP_PARAM_BIDIR;
	c->report.json = 0;
	c->report.json_file[0] = '\0';
	c->limits.plot_file[0] = '\0';
	printf("== round %u: %s -> %s (%s:%u) on %s ==\n", round + 1,
	       r->me.node, peer->node, peer->addr, peer->port, r->me.dev);
	fflush(stdout);
	t0 = now_s();
	rc = rdp_session_client_kept(c, r->eng, NULL, r->srv.client_keep,
				     rdp_mesh_err_sink_base(errs), &res);
	t0 = now_s() - t0;
	free(c);
	if (rc)
		snprintf(why, sizeof(why), "%s (%s %s to %s %s, exit %d)",
			 rdp_last_error()[0] ? rdp_last_error()
					     : "the test failed",
			 r->me.node, r->me.dev, peer->node, peer->dev, rc);
	if (!rc) {
		rdp_mesh_figures_of(res, &fig);
		doc = json_incref(res->doc);
		if (doc)
			put_kept(doc, r->srv.client_keep);
	}
	if (!rc && !doc)
		snprintf(why, sizeof(why), "no results document");
	rdp_session_results_free(res);
	rec = json_pack("{s:i, s:i, s:i, s:i, s:b, s:s, s:f, s:o, s:o, s:o, "
			"s:f, s:o}",
			"tx", x->tx, "rx", x->rx, "rail",
			r->rail_of[r->boot->rank], "round", round, "both",
			x->both, "reason", why, "pair_s", t0, "bw_gbps",
			real_or_null(fig.bw_gbps), "rx_bw_gbps",
			real_or_null(fig.rx_bw_gbps), "lat_us",
			real_or_null(fig.lat_us), "measured_s", fig.measured_s,
			"result", doc ? doc : json_null());
	/* The ports' error counters travel with the figures. */
	if (rec && !rc && rdp_mesh_err_sink_put(errs, rec))
		rdp_warn("mesh: the cell's error counters were not kept");
	rdp_mesh_err_sink_free(errs);
	return rec;
}

/* The transfers of round k into xs (the plan's width): the plan's, or
 * past them the retests'. */
static size_t round_xfers(const struct run *r, size_t k,
			  struct rdp_mesh_xfer *xs)
{
	size_t first = rdp_mesh_plan_rounds(r->plan), i, n = 0;

	if (k < first)
		return rdp_mesh_plan_round(r->plan, k, xs);
	for (i = 0; i < r->rt.n; i++)
		if (r->rt.round[i] == k - first)
			xs[n++] = r->rt.re[i];
	return n;
}

/* This rank's transfer of round k, if it sends in it: its record. */
static char *my_round(struct run *r, size_t k)
{
	size_t i, n, w = rdp_mesh_plan_width(r->plan);
	struct rdp_mesh_xfer *xs = calloc(w, sizeof(*xs));
	unsigned int me = r->node_of[r->boot->rank];
	json_t *rec = NULL;
	char *text = NULL;

	if (!xs)
		return NULL;
	n = round_xfers(r, k, xs);
	for (i = 0; i < n; i++)
		if (xs[i].tx == me && !r->verdict[1 + xs[i].tx] &&
		    !r->verdict[1 + xs[i].rx])
			rec = run_pair(r, &xs[i], (unsigned int)k);
	free(xs);
	/* The document's figures as rdmaperf's own --json-file has them. */
	if (rec)
		text = json_dumps(rec, JSON_COMPACT | JSON_REAL_PRECISION(15));
	json_decref(rec);
	return text;
}

static int add_cell(struct run *r, json_t *rec, int reverse)
{
	struct rdp_mesh_errors_buf eb;
	json_t *doc = json_object_get(rec, "result");
	struct rdp_mesh_cell c = {
		.tx = (unsigned int)json_integer_value(
			json_object_get(rec, reverse ? "rx" : "tx")),
		.rx = (unsigned int)json_integer_value(
			json_object_get(rec, reverse ? "tx" : "rx")),
		.rail = (unsigned int)json_integer_value(
			json_object_get(rec, "rail")),
		.round = (unsigned int)json_integer_value(
			json_object_get(rec, "round")),
		.status = json_is_object(doc) ? RDP_MESH_OK : RDP_MESH_FAILED,
		.reason = json_string_value(json_object_get(rec, "reason")),
		.bw_gbps = NAN,
		.lat_us = NAN,
		.result = json_is_object(doc) ? json_incref(doc) : NULL,
		.errors = rdp_mesh_errors_of_record(rec, reverse, &eb),
	};
	int rank = rank_of(r, c.tx, c.rail);

	if (c.status == RDP_MESH_OK && r->o->bench->kind == RDP_BENCH_BW)
		c.bw_gbps = real_of(rec, reverse ? "rx_bw_gbps" : "bw_gbps");
	else if (c.status == RDP_MESH_OK)
		c.lat_us = real_of(rec, "lat_us");
	if (c.status == RDP_MESH_OK)
		c.reason = NULL;
	c.line_gbps = rank >= 0 ? r->eps[rank].line_gbps : 0;
	if (c.round < rdp_mesh_plan_rounds(r->plan))
		return rdp_mesh_add(r->mesh, &c);
	return rdp_mesh_retests_add(&r->rt, r->mesh, &c);
}

/* Rank 0: the progress line, on a terminal. */
static void progress(const struct run *r, size_t k)
{
	size_t done = k + 1;

	if (!r->mo->progress)
		return;
	fprintf(stderr, "\rround %zu of %zu, %zu cells, ETA %.0f s   ", done,
		r->total_rounds, rdp_mesh_n_cells(r->mesh),
		(now_s() - r->started) / (double)done *
			(double)(r->total_rounds - done));
	if (done == r->total_rounds)
		fputc('\n', stderr);
}

/* Rank 0: the records of round k (begun at t0) into cells and its
 * times, then the journal. */
static int collect(struct run *r, size_t k, const char *all, const size_t *lens,
		   double t0)
{
	struct rdp_mesh_round_time t = { 0 };
	size_t off = 0;
	json_error_t jerr;
	json_t *rec;
	double v;
	int i, ret = 0;

	for (i = 0; i < r->boot->size; off += lens[i], i++) {
		if (!lens[i])
			continue;
		rec = json_loadb(all + off, lens[i], 0, &jerr);
		if (!rec) {
			rdp_err("mesh: rank %d's record of round %zu: %s", i,
				k + 1, jerr.text);
			continue;
		}
		ret = add_cell(r, rec, 0);
		if (!ret && json_is_true(json_object_get(rec, "both")))
			ret = add_cell(r, rec, 1);
		rdp_mesh_prune_note_record(&r->prune, rec);
		v = json_number_value(json_object_get(rec, "pair_s"));
		t.pair_s = v > t.pair_s ? v : t.pair_s;
		v = json_number_value(json_object_get(rec, "measured_s"));
		t.measured_s = v > t.measured_s ? v : t.measured_s;
		json_decref(rec);
		if (ret)
			return ret;
	}
	t.wall_s = now_s() - t0;
	r->ran_s += t.wall_s;
	r->ran++;
	if (rdp_mesh_set_round_time(r->mesh, k, &t))
		return -ENOMEM;
	if (!r->mo->no_prune && rdp_mesh_prune_decide(&r->prune, k))
		rdp_mesh_prune_say(&r->prune, k, r->names, stdout);
	if (r->journal && rdp_mesh_journal_round(r->mesh, k, r->journal))
		rdp_warn("mesh: journal: round %zu not written", k + 1);
	progress(r, k);
	return 0;
}

/*
 * Before a round, rank 0's verdict on every rank: whether the time
 * budget leaves room for it, which nodes are pruned. Sets r->stopped.
 */
static int share_verdict(struct run *r)
{
	struct rdp_boot *b = r->boot;
	unsigned int i;
	int ret;

	if (!b->rank) {
		r->verdict[0] = (unsigned char)!rdp_mesh_budget_allows(
			r->mo->time_budget_s, now_s() - r->t_start, r->ran_s,
			r->ran);
		for (i = 0; i < r->nodes; i++)
			r->verdict[1 + i] = r->prune.after[i] >= 0;
	}
	ret = b->ops->bcast(b, r->verdict, (size_t)r->nodes + 1,
			    r->mo->round_timeout_ms);
	if (!ret)
		r->stopped = r->verdict[0];
	return ret;
}

/* Rounds from..to-1: a barrier, this rank's transfer, the gather. */
static int rounds(struct run *r, size_t from, size_t to)
{
	struct rdp_boot *b = r->boot;
	size_t k, *lens = NULL;
	char *mine, *all = NULL;
	double t0;
	int ret = 0;

	lens = calloc((size_t)b->size, sizeof(*lens));
	if (!lens)
		return -ENOMEM;
	for (k = from; !ret && k < to; k++) {
		t0 = now_s();
		ret = b->ops->barrier(b, r->mo->round_timeout_ms);
		if (!ret)
			ret = share_verdict(r);
		if (ret || r->stopped)
			break;
		mine = my_round(r, k);
		ret = b->ops->gather(b, mine, mine ? strlen(mine) : 0, &all,
				     lens, r->mo->round_timeout_ms);
		free(mine);
		if (!ret && !b->rank)
			ret = collect(r, k, all, lens, t0);
		free(all);
		all = NULL;
		if (!ret && k < rdp_mesh_plan_rounds(r->plan))
			r->plan_done = k + 1;
	}
	free(lens);
	return ret;
}

/* Retest rounds from..to-1 past the plan's (retest_run.c's call): 1
 * when the time budget stopped them. */
static int retest_rounds(void *arg, unsigned int from, unsigned int to)
{
	struct run *r = arg;
	size_t first = rdp_mesh_plan_rounds(r->plan);
	int ret;

	r->total_rounds = first + r->rt.rounds;
	ret = rounds(r, first + from, first + to);
	return ret ? ret : r->stopped;
}

/* The plan's rounds, then the retests' when asked for. */
static int all_rounds(struct run *r)
{
	size_t first = rdp_mesh_plan_rounds(r->plan);
	struct rdp_mesh_retest_ctx rc = { r->boot,	  r->mesh,  r->mo,
					  r->verdict + 1, r->nodes, first,
					  retest_rounds,  r };
	int ret;

	r->started = now_s();
	r->total_rounds = first;
	r->plan_done = r->from;
	ret = rounds(r, r->from, first);
	if (!ret && r->mo->retest && !r->stopped)
		ret = rdp_mesh_retest_run(&rc, &r->rt);
	return ret;
}

/* Rank 0: where the time went. */
static void times_text(const struct run *r, FILE *out)
{
	struct rdp_mesh_round_time t;
	size_t n = rdp_mesh_time_total(r->mesh, &t);

	if (!n || t.wall_s <= 0)
		return;
	fprintf(out,
		"time: %zu rounds in %.1f s, %.1f s measured (%.0f%% "
		"overhead: %.1f s sessions' setup and teardown, %.1f s "
		"barriers and gathers); bootstrap %.1f s\n",
		n, t.wall_s, t.measured_s, 100 * (1 - t.measured_s / t.wall_s),
		t.pair_s - t.measured_s, t.wall_s - t.pair_s, r->bootstrap_s);
}

/* Rank 0: what the run reached onto the store, flags, files, the
 * matrices and the outliers. */
static int finish(struct run *r)
{
	FILE *out = r->mo->out ? r->mo->out : stderr;
	struct rdp_mesh_reach f = {
		.mesh = r->mesh,
		.plan = r->plan,
		.nodes = r->nodes,
		.rails = r->rails,
		.prune = r->mo->no_prune ? NULL : &r->prune,
		.cov = { .rounds_run = r->plan_done,
			 .rounds_planned = rdp_mesh_plan_rounds(r->plan),
			 .stopped = r->stopped,
			 .budget_s = r->mo->time_budget_s },
	};
	size_t skipped = 0;
	int bad, ret;

	if (rdp_mesh_reach_store(&f, &skipped))
		return RDP_EXIT_FAIL;
	bad = rdp_mesh_analyze(r->mesh, &r->mo->limits);
	if (bad < 0) {
		rdp_err("mesh: analysis: %s", strerror(-bad));
		return RDP_EXIT_FAIL;
	}
	rdp_mesh_run_topo_locate(r->topo, r->mesh);
	ret = rdp_mesh_write_dir(r->mesh, r->mo->output_dir);
	if (ret && ret != -ENOENT)
		return RDP_EXIT_FAIL;
	rdp_mesh_write_reach(r->mesh, out);
	rdp_mesh_print_matrices(r->mesh, out);
	if (bad)
		rdp_mesh_write_outliers(r->mesh, out);
	rdp_mesh_run_topo_print(r->topo, out);
	rdp_mesh_quick_print(r->rt.quick, r->mesh, out);
	times_text(r, out);
	fprintf(out, "%zu cells, %d flagged or failed",
		rdp_mesh_n_cells(r->mesh) - skipped, bad);
	if (skipped)
		fprintf(out, ", %zu skipped", skipped);
	fprintf(out, "; files in %s\n", r->mo->output_dir);
	fflush(out);
	return bad ? RDP_EXIT_FAIL : RDP_EXIT_OK;
}

/* Rank 0: the store over the plan, and a fresh journal and record, or
 * (--resume) those of the run it continues, checked and loaded. */
static int open_store(struct run *r, const struct rdp_mesh_plan_opts *po)
{
	struct rdp_mesh_resume rs = {
		.dir = r->mo->output_dir,
		.plan = r->plan,
		.po = po,
		.names = r->names,
		.nodes = r->nodes,
		.rails = r->rails,
		.test_args = r->mo->test_args,
		.prune = r->mo->no_prune ? NULL : &r->prune,
		.topology = r->mo->topology,
	};
	int ret = rdp_mesh_create(r->plan, r->rails, r->names, &r->mesh);

	if (!ret)
		ret = rdp_mesh_prune_init(&r->prune, r->nodes);
	if (ret)
		return ret;
	rdp_mesh_set_scale(r->mesh, r->mo->scale);
	rs.mesh = r->mesh;
	return rdp_mesh_journal_open(&rs, r->mo->resume, &r->journal, &r->from);
}

/* This rank's text output (reports, server lines) into its log. */
static int to_log(const struct run *r)
{
	char path[4096];

	if (mkdir(r->mo->output_dir, 0777) && errno != EEXIST) {
		rdp_err("mesh: create %s: %s", r->mo->output_dir,
			strerror(errno));
		return -errno;
	}
	snprintf(path, sizeof(path), "%s/rank-%d.log", r->mo->output_dir,
		 r->boot->rank);
	/* --resume keeps the log of the job that died. */
	if (!freopen(path, r->mo->resume ? "a" : "w", stdout)) {
		rdp_err("mesh: open %s: %s", path, strerror(errno));
		return -EIO;
	}
	return 0;
}

static int prepare(struct run *r)
{
	struct rdp_mesh_plan_opts po = r->mo->plan;
	int ret;

	ret = to_log(r);
	if (!ret)
		ret = local_setup(r);
	r->me.status = ret;
	ret = swap_endpoints(r);
	if (ret)
		return ret;
	po.nodes = r->nodes;
	ret = rdp_mesh_run_plan(r->boot, r->mo, &po, r->names, r->rails,
				&r->topo, &r->plan);
	if (ret)
		return ret;
	if (!r->boot->rank) {
		printf("mesh: %u nodes x %u rail(s), %zu rounds\n", r->nodes,
		       r->rails, rdp_mesh_plan_rounds(r->plan));
		if (!r->topo) /* cover loaded it already */
			ret = rdp_mesh_run_topo_load(r->mo->topology, r->names,
						     r->nodes, r->rails,
						     &r->topo);
		if (!ret)
			ret = open_store(r, &po);
	}
	r->verdict = calloc((size_t)r->nodes + 1, 1);
	if (!r->verdict)
		return -ENOMEM; /* the others time out in their bcast */
	return rdp_mesh_share_start(r->boot, ret, &r->from,
				    rdp_mesh_plan_rounds(r->plan),
				    r->mo->round_timeout_ms);
}

static void cleanup(struct run *r)
{
	serve_stop(&r->srv);
	if (r->journal)
		fclose(r->journal);
	rdp_mesh_free(r->mesh);
	rdp_mesh_plan_free(r->plan);
	free(r->eps);
	free(r->node_of);
	free(r->rail_of);
	free(r->names);
	rdp_mesh_retests_free(&r->rt);
	free(r->verdict);
	rdp_mesh_prune_fini(&r->prune);
	rdp_mesh_run_topo_free(r->topo);
}

int rdp_mesh_run(struct rdp_boot *boot, const struct rdp_opts *o,
		 const struct rdp_engine_ops *eng,
		 const struct rdp_mesh_run_opts *mo)
{
	struct run r = { .boot = boot, .o = o, .eng = eng, .mo = mo };
	double t0 = now_s();
	int ret, rc = RDP_EXIT_FAIL;

	r.t_start = t0;
	r.srv.lfd = -1;
	signal(SIGPIPE, SIG_IGN); /* a peer that vanishes mid-write */
	ret = prepare(&r);
	r.bootstrap_s = now_s() - t0;
	if (!ret && r.mesh)
		rdp_mesh_set_bootstrap_time(r.mesh, r.bootstrap_s);
	if (!ret)
		ret = all_rounds(&r);
	/* Nobody stops serving while another still measures. */
	if (!ret)
		ret = boot->ops->barrier(boot, mo->round_timeout_ms);
	if (ret == -ETIMEDOUT || ret == -EIO) {
		/* The collective may still be pending: only an abort ends
		 * it, on every rank. */
		rdp_err("mesh: a collective failed: ending the job");
		boot->ops->abort(boot, RDP_EXIT_FAIL);
	}
	if (!ret)
		rc = boot->rank ? RDP_EXIT_OK : finish(&r);
	else if (ret == -EINVAL)
		rc = RDP_EXIT_USAGE;
	else
		rc = rdp_exit_code(ret); /* as rdmaperf's own */
	cleanup(&r);
	return rc;
}
