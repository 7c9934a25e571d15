/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The device's asynchronous events (a port going down or coming back, a
 * GID or LID change, a QP or CQ in error), watched on a thread of their
 * own for as long as the device is open and kept in a bounded log that
 * any number of readers walk with their own cursors.
 * Layer: engine
 */
#ifndef RDMAPERF_EVENTS_H
#define RDMAPERF_EVENTS_H

#include <stddef.h>
#include <stdint.h>

struct ibv_context;

/* What an event is about. */
enum rdp_event_obj {
	RDP_EVENT_OBJ_DEVICE = 0,
	RDP_EVENT_OBJ_PORT,
	RDP_EVENT_OBJ_QP,
	RDP_EVENT_OBJ_CQ,
	RDP_EVENT_OBJ_SRQ,
	RDP_EVENT_OBJ_WQ,
};

struct rdp_event {
	uint64_t mono_ns; /* when it was read: rdp_clock_mono_ns() */
	double t_s;	  /* since the run began; set by its reader */
	int type;	  /* enum ibv_event_type */
	enum rdp_event_obj obj;
	uint32_t num; /* the port, QP number, CQ/SRQ handle or WQ number */
};

/* "PORT_ERR" for IBV_EVENT_PORT_ERR; "UNKNOWN" for what verbs does not
 * name. */
const char *rdp_event_type_word(int type);
/* What happened to the event's object, in words: "went down" (a
 * port), "fatal error" (a QP). */
const char *rdp_event_type_phrase(int type);
/* The event type of a word (rdp_event_type_word's), -1 unknown. */
int rdp_event_type_of(const char *word);
/* A port event (the port's state, GID, LID, P_Key, SM). */
int rdp_event_is_port(int type);

/*
 * The bounded log: the newest RDP_EVENT_LOG_MAX events; older ones are
 * counted as dropped by a reader that had not reached them. Mutex-held:
 * one writer (the watcher), readers on any thread.
 */
#define RDP_EVENT_LOG_MAX 256
struct rdp_event_log;
int rdp_event_log_create(struct rdp_event_log **out);
void rdp_event_log_destroy(struct rdp_event_log *l); /* accepts NULL */
void rdp_event_log_add(struct rdp_event_log *l, const struct rdp_event *e);
/* Where a new reader starts: after every event logged so far (0 for l
 * NULL). */
uint64_t rdp_event_log_seq(struct rdp_event_log *l);
/*
 * The events from *cursor on, up to cap, into out, their t_s counted from
 * t0_ns; *cursor moves past them. Returns how many; *dropped (may be
 * NULL) gets those the log no longer held. l NULL: none.
 */
size_t rdp_event_log_take(struct rdp_event_log *l, uint64_t *cursor,
			  uint64_t t0_ns, struct rdp_event *out, size_t cap,
			  uint64_t *dropped);
/* As take, into a fresh array (*out NULL when none; the caller frees). */
int rdp_event_log_take_all(struct rdp_event_log *l, uint64_t *cursor,
			   uint64_t t0_ns, struct rdp_event **out, size_t *n,
			   uint64_t *dropped);

/*
 * The watcher: a thread that reads ctx's async events into a log until
 * stopped (within a few milliseconds: it sleeps in poll() on the event
 * descriptor and a wake-up pipe). Each event is acknowledged at once, so
 * destroying a QP never waits on it.
 */
struct rdp_events;
int rdp_events_start(struct ibv_context *ctx, struct rdp_events **out);
void rdp_events_stop(struct rdp_events *w); /* accepts NULL */
/* Its log (NULL for w NULL), alive until rdp_events_stop(). */
struct rdp_event_log *rdp_events_log(struct rdp_events *w);

#endif /* RDMAPERF_EVENTS_H */
