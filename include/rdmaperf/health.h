/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The link's health over a run: the device's events said in words, the
 * verdict on a point whose port went down (a flap fails a run even when
 * it recovered and completed), and --soak's intervals judged one by one
 * into the list of bad ones. Pure functions of recorded events and
 * counters, and the report sink that prints and files them.
 * Layer: report
 */
#ifndef RDMAPERF_HEALTH_H
#define RDMAPERF_HEALTH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <rdmaperf/counters.h>
#include <rdmaperf/events.h>

struct json_t;
struct rdp_report_sink;

/*
 * The line of event i of ev (n in all) into buf: "port 1 went down 3.214
 * s into the run (IBV_EVENT_PORT_ERR); active again at 5.301 s", a later
 * PORT_ACTIVE of the same port said on its PORT_ERR's line. Returns 0
 * when event i was said on an earlier line (that ACTIVE), else 1.
 */
int rdp_event_line(const struct rdp_event *ev, size_t n, size_t i, char *buf,
		   size_t len);
/* Every line of ev to f, each after prefix; then how many the log had
 * dropped, if any. */
void rdp_events_print(FILE *f, const char *prefix, const struct rdp_event *ev,
		      size_t n, uint64_t dropped);
/* The events as a JSON array: {"t_s", "type", "what", and "port",
 * "qp_num", "cq", "srq" or "wq_num"}; NULL when out of memory. */
struct json_t *rdp_events_json(const struct rdp_event *ev, size_t n);

/*
 * A point's flap verdict: 1 when a port went down (or the device failed)
 * among ev, or a link_downed counter rose in local or peer (each may be
 * NULL), with the first reason in why; else 0.
 */
int rdp_flap_verdict(const struct rdp_event *ev, size_t n,
		     const struct rdp_counters *local,
		     const struct rdp_counters *peer, char *why, size_t len);

/* --soak: what makes an interval bad. */
struct rdp_soak_rules {
	double min_bw_gbps; /* 0: none */
	const char *bw_opt; /* the option that set it, for the reason */
	struct rdp_max_errors max_errors;
};

/* One interval as the sampling side saw it. */
struct rdp_soak_interval {
	double from_s, to_s; /* since the timed run began */
	double bw_gbps;
	const struct rdp_counters *delta; /* the local port's; NULL unknown */
	const struct rdp_event *events;
	size_t n_events;
	uint64_t dropped; /* events the log no longer held */
};

/* 1 when iv is bad (below the bandwidth, over --max-errors, a port or
 * device event), its reasons in why joined by "; "; else 0. */
int rdp_soak_judge(const struct rdp_soak_rules *r,
		   const struct rdp_soak_interval *iv, char *why, size_t len);

#define RDP_SOAK_BAD_MAX 64
#define RDP_SOAK_WHY_MAX 240

struct rdp_soak_bad {
	double from_s, to_s;
	char why[RDP_SOAK_WHY_MAX];
};

/* The soak's record: counts, and the bad intervals as ranges. */
struct rdp_soak_log {
	double soak_s;		/* asked for */
	uint64_t intervals;	/* judged */
	uint64_t bad_intervals; /* of them, bad */
	size_t n_bad;		/* ranges in bad[] */
	uint64_t bad_more;	/* ranges beyond RDP_SOAK_BAD_MAX */
	int signo;		/* ended early by this signal; 0: ran out */
	double ended_s;		/* where the last interval ended */
	struct rdp_soak_bad bad[RDP_SOAK_BAD_MAX];
};

/*
 * One judged interval into l (why NULL: good). A bad one right after a
 * bad range for the same reason extends that range; otherwise it starts
 * a new one. Returns 1 when it started a range, else 0.
 */
int rdp_soak_log_add(struct rdp_soak_log *l, double from_s, double to_s,
		     const char *why);
/* The verdict: " Soak            : pass, N intervals of S s" or FAIL
 * with each bad range on a line of its own. */
void rdp_soak_print(FILE *f, const struct rdp_soak_log *l);
/* "SIGINT", "SIGTERM" or "a signal": how the reports name one. */
const char *rdp_report_signame(int signo);
/* {"seconds", "intervals", "bad_intervals", "ended_by", "bad": [{"from_s",
 * "to_s", "why"}]}; NULL when out of memory. */
struct json_t *rdp_soak_json(const struct rdp_soak_log *l);

/*
 * The sink: under each point its events and, when it flapped, the FAIL
 * line (counted as a failed point); the JSON entry's "events" and
 * "flap"; at the end the soak's verdict (soak NULL: none), its "soak"
 * object and, when anything failed, the document's verdict turned to
 * fail. Add it after the verdict's sink.
 */
struct rdp_health_sink_cfg {
	FILE *text;
	const struct rdp_report_sink *json; /* NULL: none */
	const struct rdp_soak_log *soak;
};
int rdp_health_sink_create(const struct rdp_health_sink_cfg *cfg,
			   struct rdp_report_sink **out);

#endif /* RDMAPERF_HEALTH_H */
