/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --run_infinitely: while the bandwidth loop runs and records its progress
 * (struct rdp_live), a thread of its own hands the report sinks a sample
 * every interval;
 * SIGINT or SIGTERM ends the loop, after which the run closes as any other.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "session_int.h"
#include <rdmaperf/clock.h>
#include <rdmaperf/cpu_usage.h>
#include <rdmaperf/log.h>
#include <rdmaperf/report.h>
#include <rdmaperf/sink.h>

/* The live run a signal ends: one per process at a time; the signal
 * that came (--soak's exit status says which); the word every timed loop
 * reads; the handlers the outermost arm replaced. */
static struct rdp_live *signalled;
static int caught;
static uint64_t caught_ns; /* when, CLOCK_MONOTONIC */
static int stop_word;
static int armed;
static struct sigaction old_int, old_term;

/* A signal this soon after the first is its echo, not a second one:
 * timeout(1) and supervisors signal the process and then its group. */
#define SIGNAL_ECHO_NS 200000000ull

/* Async-signal-safe: clock_gettime, atomics and, the second time, _exit. */
static void on_signal(int sig)
{
	struct timespec ts;
	uint64_t now, first;
	int none = 0;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	if (!__atomic_compare_exchange_n(&caught, &none, sig, 0,
					 __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
		first = __atomic_load_n(&caught_ns, __ATOMIC_RELAXED);
		if (first && now - first >= SIGNAL_ECHO_NS)
			_exit(128 + sig);
		return;
	}
	__atomic_store_n(&caught_ns, now, __ATOMIC_RELAXED);
	__atomic_store_n(&stop_word, 1, __ATOMIC_RELAXED);
	if (__atomic_load_n(&signalled, __ATOMIC_RELAXED))
		__atomic_store_n(&signalled->stop, 1, __ATOMIC_RELAXED);
}

int rdp_session_signals_arm(void)
{
	struct sigaction sa;
	int ret;

	if (armed++)
		return 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	__atomic_store_n(&caught, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&caught_ns, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&stop_word, 0, __ATOMIC_RELAXED);
	if (sigaction(SIGINT, &sa, &old_int))
		goto err;
	if (sigaction(SIGTERM, &sa, &old_term)) {
		ret = errno;
		sigaction(SIGINT, &old_int, NULL);
		errno = ret;
		goto err;
	}
	return 0;
err:
	ret = -errno;
	armed--;
	rdp_err("install the SIGINT/SIGTERM handler: %s", strerror(-ret));
	return ret;
}

void rdp_session_signals_disarm(void)
{
	if (!armed || --armed)
		return;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
}

int rdp_session_signal(void)
{
	return __atomic_load_n(&caught, __ATOMIC_RELAXED);
}

const int *rdp_session_stop_word(void)
{
	return &stop_word;
}

/* Sleep until until_s into the run (1) or until the reporter is told to
 * quit (0), in naps short enough that the end of the run is not kept
 * waiting. */
static int nap_until(struct rdp_live_reporter *r, double until_s)
{
	struct timespec nap = { 0, 50 * 1000 * 1000 };

	while (!__atomic_load_n(&r->quit, __ATOMIC_ACQUIRE)) {
		if (rdp_clock_ns(r->clk, rdp_cycles() - r->start_cycles) /
			    1e9 >=
		    until_s)
			return 1;
		nanosleep(&nap, NULL);
	}
	return 0;
}

static void *report_main(void *arg)
{
	struct rdp_live_reporter *r = arg;
	uint64_t prev_done = 0, prev_cycles = r->start_cycles, done, cycles;
	struct rdp_live_point pt;
	double t = 0, span_ns;

	while (nap_until(r, t + r->interval_s)) {
		cycles = __atomic_load_n(&r->live->cycles, __ATOMIC_ACQUIRE);
		done = __atomic_load_n(&r->live->done, __ATOMIC_RELAXED);
		if (!cycles)
			cycles = prev_cycles;
		span_ns = rdp_clock_ns(r->clk, cycles - prev_cycles);
		memset(&pt, 0, sizeof(pt));
		pt.start_s = t;
		pt.end_s = t + r->interval_s;
		pt.msgs = done - prev_done;
		pt.total_msgs = done;
		if (span_ns > 0) {
			pt.bw_gbps = (double)pt.msgs * (double)r->msg_bytes *
				     8 / span_ns;
			pt.msg_rate_mpps = (double)pt.msgs * 1e3 / span_ns;
		}
		rdp_sinks_live(r->sinks, r->info, &pt);
		/* A soak ends at its length: the loop stops, and so do the
		 * reports (an interval after it would hold only the drain). */
		if (r->soak && rdp_soak_tick(r->soak, &pt)) {
			__atomic_store_n(&r->live->stop, 1, __ATOMIC_RELAXED);
			break;
		}
		prev_done = done;
		prev_cycles = cycles;
		t += r->interval_s;
	}
	return NULL;
}

int rdp_live_start(struct rdp_live_reporter *r)
{
	int ret = rdp_session_signals_arm();

	if (ret)
		return ret;
	__atomic_store_n(&signalled, r->live, __ATOMIC_RELAXED);
	/* a signal before the loop began ends it at once */
	if (rdp_session_signal())
		__atomic_store_n(&r->live->stop, 1, __ATOMIC_RELAXED);
	r->armed = 1;
	r->start_cycles = rdp_cycles();
	ret = pthread_create(&r->tid, NULL, report_main, r);
	if (ret) {
		rdp_err("start the live reporter: %s", strerror(ret));
		rdp_live_stop(r);
		return -ret;
	}
	r->running = 1;
	return 0;
}

void rdp_live_stop(struct rdp_live_reporter *r)
{
	__atomic_store_n(&r->quit, 1, __ATOMIC_RELEASE);
	if (r->running)
		pthread_join(r->tid, NULL);
	r->running = 0;
	__atomic_store_n(&signalled, NULL, __ATOMIC_RELAXED);
	r->signo = rdp_session_signal();
	if (r->armed)
		rdp_session_signals_disarm();
	r->armed = 0;
}

int rdp_session_loop(const struct rdp_engine_ops *eng, struct rdp_run *run,
		     struct rdp_result *res,
		     const struct rdp_report_sinks *sinks,
		     const struct rdp_report_info *in, double interval_s)
{
	return rdp_session_loop_soak(eng, run, res, sinks, in, interval_s,
				     NULL);
}

int rdp_session_loop_soak(const struct rdp_engine_ops *eng, struct rdp_run *run,
			  struct rdp_result *res,
			  const struct rdp_report_sinks *sinks,
			  const struct rdp_report_info *in, double interval_s,
			  struct rdp_soak *soak)
{
	struct rdp_live live = { 0 };
	struct rdp_live_reporter rep = {
		.live = &live,
		.info = in,
		.sinks = sinks,
		.clk = run->clk,
		.interval_s = interval_s,
		.msg_bytes = run->params->size_bytes,
		.soak = soak,
	};
	struct rdp_cpu_snap cpu;
	int ret = 0;

	/* Only a sending client's loop records progress. */
	if ((run->params->flags & RDP_PARAM_LIVE) &&
	    run->side == RDP_SIDE_CLIENT) {
		run->live = &live;
		run->interval_cycles = 0; /* the reporter prints them */
		if (soak)
			rdp_soak_arm(soak);
		ret = rdp_live_start(&rep);
	}
	if (!ret) {
		rdp_session_cpu_begin(&cpu);
		ret = eng->loop(run, res);
		rdp_session_cpu_end(&cpu, &res->cpu);
	}
	if (run->live) {
		rdp_live_stop(&rep);
		run->live = NULL;
		if (soak)
			rdp_soak_ended(soak, rep.signo);
	}
	return ret;
}
