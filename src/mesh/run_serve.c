/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A mesh rank's serving side: the accepting thread on its rail's
 * address, serving its clients one at a time, or handing each to one of
 * a pool of workers when a round sends several to one node (incast,
 * alltoall). Also the helper that runs a round's sessions at once.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rdmaperf/log.h>
#include <rdmaperf/oob.h>
#include <rdmaperf/session.h>

#include "run_int.h"

#define ACCEPT_POLL_MS 200

/* One worker: a client at a time, handed over by the accepting thread. */
struct serve_worker {
	struct rdp_mesh_server *s;
	struct rdp_session_keep *keep;
	struct rdp_oob oob;
	int has; /* oob holds a client to serve; under s->lock */
	pthread_t tid;
	int started;
};

int rdp_mesh_keep_reuse(void)
{
	const char *v = getenv("RDP_MESH_KEEP");

	return !(v && !strcmp(v, "0"));
}

static void *worker_main(void *arg)
{
	struct serve_worker *w = arg;
	struct rdp_mesh_server *s = w->s;

	rdp_session_keep_warm(w->keep, s->eng, &s->o);
	pthread_mutex_lock(&s->lock);
	for (;;) {
		while (!w->has && !atomic_load(&s->stop))
			pthread_cond_wait(&s->cv, &s->lock);
		if (!w->has)
			break;
		pthread_mutex_unlock(&s->lock);
		rdp_session_serve_kept(&s->o, s->eng, &w->oob, w->keep);
		rdp_oob_close(&w->oob);
		pthread_mutex_lock(&s->lock);
		w->has = 0;
		pthread_cond_broadcast(&s->cv);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

/* A free worker takes oob; while none is free, wait (a client beyond the
 * plan's fan-in waits for one). Closed when the server stops first. */
static void hand_over(struct rdp_mesh_server *s, struct rdp_oob *oob)
{
	unsigned int i;

	pthread_mutex_lock(&s->lock);
	while (!atomic_load(&s->stop)) {
		for (i = 0; i < s->n_workers && s->workers[i].has; i++)
			;
		if (i < s->n_workers) {
			s->workers[i].oob = *oob;
			s->workers[i].has = 1;
			pthread_cond_broadcast(&s->cv);
			pthread_mutex_unlock(&s->lock);
			return;
		}
		pthread_cond_wait(&s->cv, &s->lock);
	}
	pthread_mutex_unlock(&s->lock);
	rdp_oob_close(oob);
}

static void *serve_main(void *arg)
{
	struct rdp_mesh_server *s = arg;
	struct rdp_oob oob;
	unsigned int n;

	/* The first client finds this side as the later ones do; a failure
	 * is the sessions' to report. */
	rdp_session_keep_warm(s->keep, s->eng, &s->o);
	while (!atomic_load(&s->stop)) {
		if (rdp_oob_accept(s->lfd, ACCEPT_POLL_MS,
				   s->o.conn.oob_timeout_ms, &oob))
			continue;
		pthread_mutex_lock(&s->lock);
		n = s->n_workers;
		pthread_mutex_unlock(&s->lock);
		if (n) {
			hand_over(s, &oob);
			continue;
		}
		rdp_session_serve_kept(&s->o, s->eng, &oob, s->keep);
		rdp_oob_close(&oob);
	}
	return NULL;
}

int rdp_mesh_serve_start(struct rdp_mesh_server *s, const char *addr,
			 uint16_t *port)
{
	int ret;

	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cv, NULL);
	ret = rdp_session_keep_create(rdp_mesh_keep_reuse(), &s->keep);
	if (!ret)
		ret = rdp_oob_listen(addr, 0, &s->lfd);
	if (!ret)
		ret = rdp_oob_local_port(s->lfd, port);
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

int rdp_mesh_serve_widen(struct rdp_mesh_server *s, unsigned int n)
{
	struct serve_worker *w;
	unsigned int i;
	int ret = 0;

	if (n < 2 || s->workers)
		return 0;
	w = calloc(n, sizeof(*w));
	if (!w)
		return -ENOMEM;
	for (i = 0; !ret && i < n; i++) {
		w[i].s = s;
		ret = rdp_session_keep_create(rdp_mesh_keep_reuse(),
					      &w[i].keep);
		if (!ret)
			ret = -pthread_create(&w[i].tid, NULL, worker_main,
					      &w[i]);
		w[i].started = !ret;
	}
	if (ret)
		rdp_err("mesh: start %u serving workers: %s", n,
			strerror(-ret));
	for (i = 0; i < n; i++)
		if (!w[i].started) {
			rdp_session_keep_free(w[i].keep);
			w[i].keep = NULL;
		}
	pthread_mutex_lock(&s->lock);
	s->workers = w;
	/* The workers started serve; a failure leaves the others. */
	for (s->n_workers = 0; s->n_workers < n && w[s->n_workers].started;)
		s->n_workers++;
	pthread_mutex_unlock(&s->lock);
	return ret;
}

void rdp_mesh_serve_stop(struct rdp_mesh_server *s)
{
	unsigned int i;

	if (s->lfd >= 0) {
		atomic_store(&s->stop, 1);
		pthread_mutex_lock(&s->lock);
		pthread_cond_broadcast(&s->cv);
		pthread_mutex_unlock(&s->lock);
		pthread_join(s->tid, NULL);
		close(s->lfd);
		s->lfd = -1;
	}
	for (i = 0; s->workers && i < s->n_workers; i++)
		pthread_join(s->workers[i].tid, NULL);
	for (i = 0; s->workers && i < s->n_workers; i++)
		rdp_session_keep_free(s->workers[i].keep);
	free(s->workers);
	s->workers = NULL;
	s->n_workers = 0;
	rdp_session_keep_free(s->keep);
	s->keep = NULL;
}

struct job_thread {
	pthread_t tid;
	int started;
};

void rdp_mesh_parallel(void *jobs, size_t n, size_t size, void *(*fn)(void *))
{
	struct job_thread *t = calloc(n ? n : 1, sizeof(*t));
	char *at = jobs;
	size_t i;

	for (i = 1; t && i < n; i++)
		t[i].started =
			!pthread_create(&t[i].tid, NULL, fn, at + i * size);
	if (n)
		fn(at);
	for (i = 1; i < n; i++) {
		if (t && t[i].started)
			pthread_join(t[i].tid, NULL);
		else
			fn(at + i * size);
	}
	free(t);
}
