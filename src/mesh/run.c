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
#include <rdmaperf/mesh_metrics.h>
#include <rdmaperf/mesh_run.h>
#include <rdmaperf/oob.h>
#include <rdmaperf/run_opts.h>
#include <rdmaperf/session.h>

#include "mesh_int.h"
#include "run_int.h"

#define DEFAULT_MAX_MEMORY (4ull << 30)

/* Listen on the rail's address, on a port the kernel picks. */
static int serve_start(struct run *r)
{
	struct rdp_mesh_server *s = &r->srv;

	s->o = *r->o;
	s->eng = r->eng;
	snprintf(s->o.conn.dev, sizeof(s->o.conn.dev), "%s", r->me.dev);
	snprintf(s->o.conn.bind, sizeof(s->o.conn.bind), "%s", r->me.addr);
	s->o.conn.gid_index = r->me.gid_index;
	if (!s->o.conn.max_memory_bytes)
		s->o.conn.max_memory_bytes = DEFAULT_MAX_MEMORY;
	/* --victim: the victim's test is served too, as rdmaperf-server
	 * serves whatever test its clients ask for. */
	if (r->mo->victim)
		s->o.bench = NULL;
	return rdp_mesh_serve_start(s, r->me.addr, &r->me.port);
}

static void keeps_free(struct run *r)
{
	unsigned int i;

	for (i = 0; i < r->n_client_keep; i++)
		rdp_session_keep_free(r->client_keep[i]);
	free(r->client_keep);
	r->client_keep = NULL;
	r->n_client_keep = 0;
}

/* n keeps for the sessions this rank sends at once (the first made in
 * local_setup). 0 or -ENOMEM. */
static int keeps_widen(struct run *r, unsigned int n)
{
	struct rdp_session_keep **k;
	unsigned int i;

	if (n <= r->n_client_keep)
		return 0;
	k = realloc(r->client_keep, n * sizeof(*k));
	if (!k)
		return -ENOMEM;
	r->client_keep = k;
	for (i = r->n_client_keep; i < n; i++, r->n_client_keep++)
		if (rdp_session_keep_create(rdp_mesh_keep_reuse(), &k[i]))
			return -ENOMEM;
	return 0;
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
	rdp_session_keep_warm(r->client_keep[0], r->eng, c);
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
		ret = keeps_widen(r, 1);
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

/* Rank 0: a victim's record into the congestion figures. */
static int note_victim(struct run *r, json_t *rec, const char *phase)
{
	struct rdp_mesh_victim_fig f = { real_of(rec, "lat_us"),
					 real_of(rec, "lat_p99_us"),
					 real_of(rec, "bw_gbps") };
	struct rdp_mesh_victim_round v = {
		.round = (unsigned int)json_integer_value(
			json_object_get(rec, "round")),
		.tx = (unsigned int)json_integer_value(
			json_object_get(rec, "tx")),
		.rx = (unsigned int)json_integer_value(
			json_object_get(rec, "rx")),
		.rail = (unsigned int)json_integer_value(
			json_object_get(rec, "rail")),
		.senders = rdp_mesh_plan_opts(r->plan)->fan_in,
	};

	return rdp_mesh_congestion_note(&r->cong, &v, !strcmp(phase, "loaded"),
					&f);
}

/* Rank 0: one record of a round into its cell (both of a transfer both
 * ways), the pruning's notes and the round's times t. */
static int collect_one(struct run *r, json_t *rec,
		       struct rdp_mesh_round_time *t)
{
	const char *victim = json_string_value(json_object_get(rec, "victim"));
	double v;
	int ret;

	if (victim)
		ret = note_victim(r, rec, victim);
	else
		ret = add_cell(r, rec, 0);
	if (!ret && !victim && json_is_true(json_object_get(rec, "both")))
		ret = add_cell(r, rec, 1);
	if (!victim)
		rdp_mesh_prune_note_record(&r->prune, rec);
	v = json_number_value(json_object_get(rec, "pair_s"));
	t->pair_s = v > t->pair_s ? v : t->pair_s;
	v = json_number_value(json_object_get(rec, "measured_s"));
	t->measured_s = v > t->measured_s ? v : t->measured_s;
	return ret;
}

/* Rank 0: the records of round k (begun at t0) into cells and its
 * times, then the journal. */
static int collect(struct run *r, size_t k, const char *all, const size_t *lens,
		   double t0)
{
	struct rdp_mesh_round_time t = { 0 };
	size_t off = 0, j;
	json_error_t jerr;
	json_t *recs;
	int i, ret = 0;

	for (i = 0; i < r->boot->size; off += lens[i], i++) {
		if (!lens[i])
			continue;
		recs = json_loadb(all + off, lens[i], 0, &jerr);
		if (!json_is_array(recs)) {
			rdp_err("mesh: rank %d's records of round %zu: %s", i,
				k + 1, recs ? "not a list" : jerr.text);
			json_decref(recs);
			continue;
		}
		for (j = 0; !ret && j < json_array_size(recs); j++)
			ret = collect_one(r, json_array_get(recs, j), &t);
		json_decref(recs);
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
		ret = rdp_mesh_round_of(r, k, &mine);
		if (ret)
			break;
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
	if (r->cong.n)
		rdp_mesh_set_congestion(r->mesh, &r->cong);
	ret = rdp_mesh_write_dir(r->mesh, r->mo->output_dir);
	if (ret && ret != -ENOENT)
		return RDP_EXIT_FAIL;
	if (r->o->report.metrics_file[0] &&
	    rdp_mesh_write_metrics(r->mesh, r->o->bench->name, time(NULL),
				   r->o->report.metrics_file))
		return RDP_EXIT_FAIL;
	rdp_mesh_write_reach(r->mesh, out);
	rdp_mesh_print_matrices(r->mesh, out);
	if (bad)
		rdp_mesh_write_outliers(r->mesh, out);
	rdp_mesh_run_topo_print(r->topo, out);
	rdp_mesh_quick_print(r->rt.quick, r->mesh, out);
	rdp_mesh_congestion_print(&r->cong, r->mesh, out);
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
	/* Incast, alltoall: as many sessions served and sent at once as
	 * the plan puts on one node. */
	if (!r->verdict ||
	    rdp_mesh_serve_widen(&r->srv, rdp_mesh_plan_fan(r->plan, 1)) ||
	    keeps_widen(r, rdp_mesh_plan_fan(r->plan, 0)))
		return -ENOMEM; /* the others time out in their bcast */
	r->cong.kind = po.victim;
	return rdp_mesh_share_start(r->boot, ret, &r->from,
				    rdp_mesh_plan_rounds(r->plan),
				    r->mo->round_timeout_ms);
}

static void cleanup(struct run *r)
{
	rdp_mesh_serve_stop(&r->srv);
	keeps_free(r);
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
	rdp_mesh_congestion_fini(&r->cong);
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
