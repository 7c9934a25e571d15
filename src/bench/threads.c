/* SPDX-License-Identifier: BSD-2-Clause */
/* --threads: a bandwidth test's QPs split over threads, each running the
 * test's own loop on its part of the connection (its CQ, its QPs and their
 * slots) on a CPU of its own. They start together and meet again only when
 * done; the sum is taken over the window in which all of them ran. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_int.h"
#include "validate_int.h"
#include <rdmaperf/clock.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/log.h>
#include <rdmaperf/measure.h>
#include <rdmaperf/placement.h>

/* Every thread waits here until the last one has come (or the run is
 * called off because a thread could not be started): they start their
 * clocks together. */
struct start_gate {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	uint32_t waiting, need;
	int state; /* 0 wait, 1 go, -1 called off */
};

static int gate_wait(struct start_gate *g)
{
	int state;

	pthread_mutex_lock(&g->mu);
	if (++g->waiting == g->need && g->state == 0) {
		g->state = 1;
		pthread_cond_broadcast(&g->cv);
	}
	while (g->state == 0)
		pthread_cond_wait(&g->cv, &g->mu);
	state = g->state;
	pthread_mutex_unlock(&g->mu);
	return state;
}

static void gate_call_off(struct start_gate *g)
{
	pthread_mutex_lock(&g->mu);
	g->state = -1;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
}

struct worker {
	pthread_t tid;
	uint32_t index;
	uint32_t first_qp; /* its QPs' first, numbered as on the wire */
	int cpu;	   /* -1: not pinned */
	struct start_gate *start;
	struct rdp_params params; /* num_qps: this thread's */
	struct rdp_conn view;
	struct rdp_run run;
	struct rdp_result res;
	struct rdp_bw_series series;
	int ret;
	char error[256]; /* the loop's own message when it failed */
};

int rdp_threads_cpus(uint32_t n, int *cpus, char *why, size_t len)
{
	cpu_set_t set;
	char list[128];
	uint32_t k = 0;
	int cpu;

	if (sched_getaffinity(0, sizeof(set), &set)) {
		snprintf(why, len,
			 "--threads: cannot read this process's CPUs: %s",
			 strerror(errno));
		return -errno;
	}
	for (cpu = 0; cpu < CPU_SETSIZE && k < n; cpu++)
		if (CPU_ISSET(cpu, &set))
			cpus[k++] = cpu;
	if (k < n) {
		rdp_cpulist_format(&set, list, sizeof(list));
		snprintf(why, len,
			 "--threads %u: only %d CPU(s) are allowed here (%s), "
			 "one per thread is needed: lower --threads, or give "
			 "more CPUs (--cpu, --numa, taskset)",
			 n, CPU_COUNT(&set), list);
		return -EINVAL;
	}
	return 0;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	cpu_set_t one;

	if (w->cpu >= 0) {
		CPU_ZERO(&one);
		CPU_SET(w->cpu, &one);
		/* Only narrows the CPUs the process already has. */
		(void)pthread_setaffinity_np(pthread_self(), sizeof(one), &one);
	}
	if (gate_wait(w->start) < 0) {
		w->ret = -ECANCELED;
		return NULL;
	}
	w->ret = w->run.side == RDP_SIDE_CLIENT
			 ? w->run.ops->client(&w->run, &w->res)
			 : w->run.ops->server(&w->run, &w->res);
	if (w->ret)
		snprintf(w->error, sizeof(w->error), "%s", rdp_last_error());
	return NULL;
}

/* RDMAPERF_TEST_QP_ERROR=QP:MS, for the test suite: QP (numbered as on the
 * wire) is moved to the error state MS milliseconds into the run, as a
 * failing link or peer would leave it. */
static void inject_qp_error(const struct rdp_conn *conn)
{
	const char *v = getenv("RDMAPERF_TEST_QP_ERROR");
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_ERR };
	unsigned int qp, ms;
	struct timespec ts;

	if (!v || sscanf(v, "%u:%u", &qp, &ms) != 2 || qp >= conn->num_qps)
		return;
	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (long)(ms % 1000) * 1000000;
	nanosleep(&ts, NULL);
	rdp_warn("moving qp 0x%x to the error state (RDMAPERF_TEST_QP_ERROR)",
		 conn->qps[qp]->qp_num);
	(void)ibv_modify_qp(conn->qps[qp], &a, IBV_QP_STATE);
}

static void setup_worker(struct worker *w, const struct rdp_run *run,
			 uint32_t i, int cpu)
{
	uint32_t first, n;

	memset(w, 0, sizeof(*w));
	w->index = i;
	w->cpu = cpu;
	rdp_conn_view(run->conn, i, &w->view);
	rdp_qp_split(run->conn->split_qps, run->conn->num_cqs, i, &first, &n);
	w->first_qp = first;
	w->params = *run->params;
	w->params.num_qps = n;
	w->run = *run;
	w->run.params = &w->params;
	w->run.conn = &w->view;
	w->run.posted = 0;
	w->run.interval_cycles = 0; /* intervals come from the sum */
	w->run.series = &w->series;
	w->res.size_bytes = run->params->size_bytes;
	w->res.num_qps = n;
	w->res.dec = run->dec;
}

/* The thread's own figures, its window from the earliest start t0. */
static void thread_row(const struct worker *w, uint64_t t0,
		       const struct rdp_clock *clk, struct rdp_thread_result *t)
{
	const struct rdp_bw_series *s = &w->series;

	t->first_qp = w->first_qp;
	t->num_qps = w->params.num_qps;
	t->cpu = w->cpu;
	t->msgs = w->res.msgs;
	t->elapsed_ns = w->res.elapsed_ns;
	t->bw_avg_gbps = w->res.bw_avg_gbps;
	t->bw_peak_gbps = w->res.bw_peak_gbps;
	t->msg_rate_mpps = w->res.msg_rate_mpps;
	if (s->n) {
		t->start_s = rdp_clock_ns(clk, s->start_cycles - t0) / 1e9;
		t->end_s = rdp_clock_ns(clk, s->samples[s->n - 1].cycles - t0) /
			   1e9;
	}
}

/* The sum over [latest start, earliest end]: -ERANGE when the threads
 * never all ran at once. */
static int sum_window(struct rdp_run *run, struct worker *w, uint32_t n,
		      struct rdp_result *res)
{
	struct rdp_bw_series *ser = calloc(n, sizeof(*ser));
	uint64_t t0 = UINT64_MAX, from = 0, to = UINT64_MAX, last = 0, e;
	struct rdp_bw_sample *sum = NULL;
	size_t m = 0;
	uint32_t i;
	int ret;

	if (!ser)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		ser[i] = w[i].series;
		e = ser[i].samples[ser[i].n - 1].cycles;
		t0 = ser[i].start_cycles < t0 ? ser[i].start_cycles : t0;
		from = ser[i].start_cycles > from ? ser[i].start_cycles : from;
		to = e < to ? e : to;
		last = e > last ? e : last;
	}
	ret = rdp_measure_sum_bw(ser, n, from, to, &sum, &m);
	free(ser);
	if (ret == -EINVAL) {
		rdp_err("--threads: the threads' timed loops never all ran at "
			"once (one ended before another started), so no sum "
			"can be made: raise -n or use -D");
		return -ERANGE;
	}
	if (ret)
		return ret;
	res->window_msgs = sum[m - 1].bytes / run->params->size_bytes;
	res->msgs = res->window_msgs; /* the rate is the window's */
	rdp_result_bw(res, sum, m, from, run->clk);
	ret = rdp_result_intervals(res, sum, m, from, run->interval_cycles,
				   run->clk);
	free(sum);
	res->window_start_s = rdp_clock_ns(run->clk, from - t0) / 1e9;
	res->window_end_s = rdp_clock_ns(run->clk, to - t0) / 1e9;
	res->overlap_pct = 100.0 * (double)(to - from) / (double)(last - t0);
	for (i = 0; i < n; i++)
		thread_row(&w[i], t0, run->clk, &res->threads[i]);
	return ret;
}

/* Loops that keep no samples (a receiving or passive server): the counts
 * add up, the time is the longest thread's. */
static void sum_counts(const struct rdp_run *run, struct worker *w, uint32_t n,
		       struct rdp_result *res)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (w[i].res.elapsed_ns > res->elapsed_ns)
			res->elapsed_ns = w[i].res.elapsed_ns;
		thread_row(&w[i], 0, run->clk, &res->threads[i]);
	}
}

/* The threads' QPs, numbered across the point as on the wire. */
static int gather_per_qp(const struct rdp_run *run, const struct worker *w,
			 uint32_t n, struct rdp_result *res)
{
	struct rdp_qp_result *q;
	uint32_t i, k, total = 0;

	for (i = 0; i < n; i++)
		total += w[i].res.n_per_qp;
	if (!total)
		return 0;
	q = calloc(total, sizeof(*q));
	if (!q)
		return -ENOMEM;
	res->per_qp = q;
	res->n_per_qp = total;
	for (i = 0; i < n; i++) {
		for (k = 0; k < w[i].res.n_per_qp; k++, q++) {
			*q = w[i].res.per_qp[k];
			q->index = w[i].first_qp + k;
			q->flow_label =
				rdp_params_flow_label(run->params, q->index);
			q->port = rdp_conn_qp_port(run->conn, q->index);
		}
	}
	return 0;
}

static int gather(struct rdp_run *run, struct worker *w, uint32_t n,
		  struct rdp_result *res)
{
	uint64_t total = 0;
	uint32_t i;
	int series = 1, ret;

	res->threads = calloc(n, sizeof(*res->threads));
	if (!res->threads)
		return -ENOMEM;
	res->n_threads = n;
	for (i = 0; i < n; i++) {
		total += w[i].res.msgs;
		run->posted += w[i].run.posted;
		series &= w[i].series.n > 0;
	}
	if (series) {
		ret = sum_window(run, w, n, res);
		if (ret)
			return ret;
	} else {
		sum_counts(run, w, n, res);
	}
	res->msgs = total;
	return gather_per_qp(run, w, n, res);
}

/* Name each thread that failed (its loop said why, above); the first
 * one's error is the run's. */
static int failures(const struct worker *w, uint32_t n)
{
	char cpu[32];
	uint32_t i;
	int ret = 0;

	for (i = 0; i < n; i++) {
		if (!w[i].ret || w[i].ret == -ECANCELED)
			continue;
		if (!ret)
			ret = w[i].ret;
		if (w[i].cpu >= 0)
			snprintf(cpu, sizeof(cpu), " on CPU %d", w[i].cpu);
		else
			cpu[0] = '\0';
		rdp_err("thread %u of %u (QPs %u-%u%s) failed: %s", i, n,
			w[i].first_qp, w[i].first_qp + w[i].params.num_qps - 1,
			cpu, w[i].error[0] ? w[i].error : strerror(-w[i].ret));
	}
	for (i = 0; !ret && i < n; i++)
		ret = w[i].ret;
	return ret;
}

int rdp_bench_prepare(struct rdp_run *run)
{
	struct worker w;
	uint32_t i;
	int ret = 0;

	ret = rdp_dv_prepare(run); /* --threads refuses it */
	if (ret || !run->ops->prepare)
		return ret;
	if (run->params->threads <= 1 || run->ops->kind != RDP_BENCH_BW)
		return run->ops->prepare(run);
	for (i = 0; !ret && i < run->conn->num_cqs; i++) {
		setup_worker(&w, run, i, -1);
		ret = run->ops->prepare(&w.run);
	}
	return ret;
}

int rdp_bench_threads(struct rdp_run *run, struct rdp_result *res)
{
	uint32_t n = run->params->threads, i, started = 0;
	struct start_gate start = { .mu = PTHREAD_MUTEX_INITIALIZER,
				    .cv = PTHREAD_COND_INITIALIZER };
	struct worker *w;
	int cpus[64], ret;
	char why[256];

	if (run->side == RDP_SIDE_SERVER &&
	    !rdp_bench_server_works(run->ops, run->params))
		return run->ops->server(run, res);
	ret = rdp_threads_cpus(n, cpus, why, sizeof(why));
	if (ret) {
		rdp_err("%s", why);
		return ret;
	}
	w = calloc(n, sizeof(*w));
	if (!w)
		return -ENOMEM;
	start.need = n;
	for (i = 0; i < n; i++) {
		setup_worker(&w[i], run, i, run->pin_threads ? cpus[i] : -1);
		w[i].start = &start;
	}
	for (i = 0; i < n; i++) {
		ret = pthread_create(&w[i].tid, NULL, work, &w[i]);
		if (ret)
			break;
		started++;
	}
	if (started < n) {
		/* Those started would wait for it forever: call them off. */
		rdp_err("start thread %u of %u: %s", started + 1, n,
			strerror(ret));
		gate_call_off(&start);
		ret = -ret;
	} else {
		inject_qp_error(run->conn);
	}
	for (i = 0; i < started; i++)
		pthread_join(w[i].tid, NULL);
	if (!ret)
		ret = failures(w, n);
	if (!ret)
		ret = gather(run, w, n, res);
	for (i = 0; i < n; i++) {
		free(w[i].series.samples);
		rdp_result_clear(&w[i].res);
	}
	free(w);
	return ret;
}
