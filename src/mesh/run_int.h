/* SPDX-License-Identifier: BSD-2-Clause */
/* What the run's files share: a rank's serving side (run_serve.c) and
 * the sessions of a round run at once (run_multi.c). */
#ifndef RDMAPERF_RUN_INT_H
#define RDMAPERF_RUN_INT_H

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include <rdmaperf/boot.h>
#include <rdmaperf/clock.h>
#include <rdmaperf/mesh.h>
#include <rdmaperf/mesh_run.h>
#include <rdmaperf/run_opts.h>

struct rdp_engine_ops;
struct rdp_session_keep;
struct serve_worker;

/*
 * The serving side of a rank: a thread accepts on the rail's address.
 * With no workers it serves each client itself, one at a time, on its
 * own kept resources; once widened (incast, alltoall) it hands each
 * client to a free worker, each serving on resources of its own, so
 * that as many clients as the plan sends to one node are served at once.
 */
struct rdp_mesh_server {
	struct rdp_opts o;
	const struct rdp_engine_ops *eng;
	int lfd;
	atomic_int stop;
	pthread_t tid;
	struct rdp_session_keep *keep;
	pthread_mutex_t lock; /* the workers' hand-over */
	pthread_cond_t cv;
	struct serve_worker *workers;
	unsigned int n_workers;
};

/* Whether sessions keep their resources (RDP_MESH_KEEP=0: none). */
int rdp_mesh_keep_reuse(void);
/* Listening on addr (a port the kernel picks, into *port) and the
 * accepting thread started; o as the server's (device, bind, GID set).
 * 0 or -errno, logged. */
int rdp_mesh_serve_start(struct rdp_mesh_server *s, const char *addr,
			 uint16_t *port);
/* n clients served at once from now on (n > 1: n workers, started
 * here; before the first round, no client connected). 0 or -errno. */
int rdp_mesh_serve_widen(struct rdp_mesh_server *s, unsigned int n);
/* The thread and workers stopped and joined; accepts a server never
 * started (lfd -1). */
void rdp_mesh_serve_stop(struct rdp_mesh_server *s);

/* One rank of a mesh run (run.c), the sessions of its rounds
 * (run_multi.c). */
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
	struct rdp_mesh_server srv;
	/* What run_pair's side keeps from round to round (device, buffer,
	 * clock), one a session this rank sends at once: the job's. */
	struct rdp_session_keep **client_keep;
	unsigned int n_client_keep;
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
	struct rdp_mesh_congestion cong; /* rank 0, --victim */
};

static inline double now_s(void)
{
	return (double)rdp_clock_mono_ns() / 1e9;
}

/* The rank of node's rail. */
static inline int rank_of(const struct run *r, unsigned int node,
			  unsigned int rail)
{
	int i;

	for (i = 0; i < r->boot->size; i++)
		if (r->node_of[i] == node && r->rail_of[i] == rail)
			return i;
	return -1;
}

static inline json_t *real_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static inline double real_of(json_t *rec, const char *key)
{
	json_t *v = json_object_get(rec, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Round k on this rank (run_multi.c): its sessions, run at once, the
 * victim's alone first; their records as text into *text (a JSON array,
 * NULL when it sends none). 0 or a barrier's -errno. */
int rdp_mesh_round_of(struct run *r, size_t k, char **text);

/* fn on each of the n jobs of `size` bytes at jobs, at once: the first on
 * the calling thread, the others on threads of their own (a job whose
 * thread cannot start runs on the caller's after the first). */
void rdp_mesh_parallel(void *jobs, size_t n, size_t size, void *(*fn)(void *));

#endif /* RDMAPERF_RUN_INT_H */
