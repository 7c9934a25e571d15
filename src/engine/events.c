/* SPDX-License-Identifier: BSD-2-Clause */
/* The device's asynchronous events: their names, the bounded log that
 * keeps them, and the thread that reads them while the device is open. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/verbs.h>

#include <rdmaperf/clock.h>
#include <rdmaperf/events.h>
#include <rdmaperf/log.h>

static const struct {
	int type;
	const char *word;
	const char *phrase;
} names[] = {
	{ IBV_EVENT_CQ_ERR, "CQ_ERR", "overrun or error" },
	{ IBV_EVENT_QP_FATAL, "QP_FATAL", "fatal error" },
	{ IBV_EVENT_QP_REQ_ERR, "QP_REQ_ERR", "invalid request" },
	{ IBV_EVENT_QP_ACCESS_ERR, "QP_ACCESS_ERR", "access error" },
	{ IBV_EVENT_COMM_EST, "COMM_EST", "communication established" },
	{ IBV_EVENT_SQ_DRAINED, "SQ_DRAINED", "send queue drained" },
	{ IBV_EVENT_PATH_MIG, "PATH_MIG", "moved to its alternate path" },
	{ IBV_EVENT_PATH_MIG_ERR, "PATH_MIG_ERR", "path migration failed" },
	{ IBV_EVENT_DEVICE_FATAL, "DEVICE_FATAL", "fatal error" },
	{ IBV_EVENT_PORT_ACTIVE, "PORT_ACTIVE", "became active" },
	{ IBV_EVENT_PORT_ERR, "PORT_ERR", "went down" },
	{ IBV_EVENT_LID_CHANGE, "LID_CHANGE", "LID changed" },
	{ IBV_EVENT_PKEY_CHANGE, "PKEY_CHANGE", "P_Key table changed" },
	{ IBV_EVENT_SM_CHANGE, "SM_CHANGE", "subnet manager changed" },
	{ IBV_EVENT_SRQ_ERR, "SRQ_ERR", "error" },
	{ IBV_EVENT_SRQ_LIMIT_REACHED, "SRQ_LIMIT_REACHED", "limit reached" },
	{ IBV_EVENT_QP_LAST_WQE_REACHED, "QP_LAST_WQE_REACHED",
	  "last WQE reached" },
	{ IBV_EVENT_CLIENT_REREGISTER, "CLIENT_REREGISTER",
	  "asked to register with the SM again" },
	{ IBV_EVENT_GID_CHANGE, "GID_CHANGE", "GID table changed" },
	{ IBV_EVENT_WQ_FATAL, "WQ_FATAL", "fatal error" },
};

#define N_NAMES (sizeof(names) / sizeof(names[0]))

const char *rdp_event_type_word(int type)
{
	size_t i;

	for (i = 0; i < N_NAMES; i++)
		if (names[i].type == type)
			return names[i].word;
	return "UNKNOWN";
}

const char *rdp_event_type_phrase(int type)
{
	size_t i;

	for (i = 0; i < N_NAMES; i++)
		if (names[i].type == type)
			return names[i].phrase;
	return "unknown event";
}

int rdp_event_type_of(const char *word)
{
	size_t i;

	for (i = 0; i < N_NAMES; i++)
		if (!strcmp(names[i].word, word))
			return names[i].type;
	return -1;
}

int rdp_event_is_port(int type)
{
	switch (type) {
	case IBV_EVENT_PORT_ACTIVE:
	case IBV_EVENT_PORT_ERR:
	case IBV_EVENT_LID_CHANGE:
	case IBV_EVENT_PKEY_CHANGE:
	case IBV_EVENT_SM_CHANGE:
	case IBV_EVENT_CLIENT_REREGISTER:
	case IBV_EVENT_GID_CHANGE:
		return 1;
	default:
		return 0;
	}
}

struct rdp_event_log {
	pthread_mutex_t mu;
	uint64_t next; /* sequence number of the next event */
	struct rdp_event ring[RDP_EVENT_LOG_MAX];
};

int rdp_event_log_create(struct rdp_event_log **out)
{
	struct rdp_event_log *l = calloc(1, sizeof(*l));

	if (!l)
		return -ENOMEM;
	pthread_mutex_init(&l->mu, NULL);
	*out = l;
	return 0;
}

void rdp_event_log_destroy(struct rdp_event_log *l)
{
	if (!l)
		return;
	pthread_mutex_destroy(&l->mu);
	free(l);
}

void rdp_event_log_add(struct rdp_event_log *l, const struct rdp_event *e)
{
	pthread_mutex_lock(&l->mu);
	l->ring[l->next % RDP_EVENT_LOG_MAX] = *e;
	l->next++;
	pthread_mutex_unlock(&l->mu);
}

uint64_t rdp_event_log_seq(struct rdp_event_log *l)
{
	uint64_t n;

	if (!l)
		return 0;
	pthread_mutex_lock(&l->mu);
	n = l->next;
	pthread_mutex_unlock(&l->mu);
	return n;
}

size_t rdp_event_log_take(struct rdp_event_log *l, uint64_t *cursor,
			  uint64_t t0_ns, struct rdp_event *out, size_t cap,
			  uint64_t *dropped)
{
	uint64_t oldest, s;
	size_t n = 0;

	if (dropped)
		*dropped = 0;
	if (!l)
		return 0;
	pthread_mutex_lock(&l->mu);
	oldest = l->next > RDP_EVENT_LOG_MAX ? l->next - RDP_EVENT_LOG_MAX : 0;
	if (*cursor < oldest) {
		if (dropped)
			*dropped = oldest - *cursor;
		*cursor = oldest;
	}
	for (s = *cursor; s < l->next && n < cap; s++, n++) {
		out[n] = l->ring[s % RDP_EVENT_LOG_MAX];
		out[n].t_s = (double)(int64_t)(out[n].mono_ns - t0_ns) / 1e9;
	}
	*cursor = s;
	pthread_mutex_unlock(&l->mu);
	return n;
}

int rdp_event_log_take_all(struct rdp_event_log *l, uint64_t *cursor,
			   uint64_t t0_ns, struct rdp_event **out, size_t *n,
			   uint64_t *dropped)
{
	struct rdp_event *v;
	size_t got;

	*out = NULL;
	*n = 0;
	if (dropped)
		*dropped = 0;
	if (!l || rdp_event_log_seq(l) <= *cursor)
		return 0;
	v = calloc(RDP_EVENT_LOG_MAX, sizeof(*v));
	if (!v)
		return -ENOMEM;
	got = rdp_event_log_take(l, cursor, t0_ns, v, RDP_EVENT_LOG_MAX,
				 dropped);
	if (!got) {
		free(v);
		return 0;
	}
	*out = v;
	*n = got;
	return 0;
}

struct rdp_events {
	struct ibv_context *ctx;
	struct rdp_event_log *log;
	int wake[2]; /* written to stop the thread */
	int stop;    /* also set: a lost wake-up costs one timeout */
	pthread_t tid;
};

/* The event's object and its number, read before it is acknowledged
 * (until then its QP or CQ cannot be destroyed). */
static void describe(const struct ibv_async_event *ev, struct rdp_event *e)
{
	switch (ev->event_type) {
	case IBV_EVENT_CQ_ERR:
		e->obj = RDP_EVENT_OBJ_CQ;
		e->num = ev->element.cq->handle;
		break;
	case IBV_EVENT_SRQ_ERR:
	case IBV_EVENT_SRQ_LIMIT_REACHED:
		e->obj = RDP_EVENT_OBJ_SRQ;
		e->num = ev->element.srq->handle;
		break;
	case IBV_EVENT_WQ_FATAL:
		e->obj = RDP_EVENT_OBJ_WQ;
		e->num = ev->element.wq->wq_num;
		break;
	case IBV_EVENT_DEVICE_FATAL:
		e->obj = RDP_EVENT_OBJ_DEVICE;
		e->num = 0;
		break;
	default:
		if (rdp_event_is_port(ev->event_type)) {
			e->obj = RDP_EVENT_OBJ_PORT;
			e->num = (uint32_t)ev->element.port_num;
		} else {
			e->obj = RDP_EVENT_OBJ_QP;
			e->num = ev->element.qp->qp_num;
		}
	}
}

static void *watch_main(void *arg)
{
	struct rdp_events *w = arg;
	struct pollfd pfd[2] = {
		{ .fd = w->ctx->async_fd, .events = POLLIN },
		{ .fd = w->wake[0], .events = POLLIN },
	};
	struct ibv_async_event ev;
	struct rdp_event e;

	while (!__atomic_load_n(&w->stop, __ATOMIC_ACQUIRE)) {
		/* The pipe wakes it; the timeout only bounds a lost wake. */
		if (poll(pfd, 2, 500) < 0 && errno != EINTR)
			break;
		if (pfd[1].revents)
			break;
		if (!(pfd[0].revents & POLLIN))
			continue;
		if (ibv_get_async_event(w->ctx, &ev))
			continue;
		memset(&e, 0, sizeof(e));
		e.mono_ns = rdp_clock_mono_ns();
		e.type = ev.event_type;
		describe(&ev, &e);
		ibv_ack_async_event(&ev);
		rdp_event_log_add(w->log, &e);
	}
	return NULL;
}

int rdp_events_start(struct ibv_context *ctx, struct rdp_events **out)
{
	struct rdp_events *w = calloc(1, sizeof(*w));
	int ret;

	if (!w)
		return -ENOMEM;
	w->ctx = ctx;
	w->wake[0] = w->wake[1] = -1;
	ret = rdp_event_log_create(&w->log);
	if (ret)
		goto err_free;
	if (pipe2(w->wake, O_CLOEXEC)) {
		ret = -errno;
		goto err_log;
	}
	ret = -pthread_create(&w->tid, NULL, watch_main, w);
	if (ret)
		goto err_pipe;
	*out = w;
	return 0;

err_pipe:
	close(w->wake[0]);
	close(w->wake[1]);
err_log:
	rdp_event_log_destroy(w->log);
err_free:
	free(w);
	rdp_warn("port events of %s are not watched: %s",
		 ibv_get_device_name(ctx->device), strerror(-ret));
	return ret;
}

void rdp_events_stop(struct rdp_events *w)
{
	char c = 1;

	if (!w)
		return;
	__atomic_store_n(&w->stop, 1, __ATOMIC_RELEASE);
	if (write(w->wake[1], &c, 1) != 1)
		rdp_warn("stop the port event watcher: %s", strerror(errno));
	pthread_join(w->tid, NULL);
	close(w->wake[0]);
	close(w->wake[1]);
	rdp_event_log_destroy(w->log);
	free(w);
}

struct rdp_event_log *rdp_events_log(struct rdp_events *w)
{
	return w ? w->log : NULL;
}
