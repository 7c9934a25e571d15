/* SPDX-License-Identifier: BSD-2-Clause */
/* The link's health as words and verdicts: event lines, the flap verdict
 * of a point, and --soak's intervals judged into a list of bad ranges. */
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <jansson.h>
#include <infiniband/verbs.h>

#include <rdmaperf/health.h>

/* "port 1", "QP 0x1a2", "CQ 3", "device". */
static void obj_name(const struct rdp_event *e, char *buf, size_t len)
{
	switch (e->obj) {
	case RDP_EVENT_OBJ_PORT:
		snprintf(buf, len, "port %u", e->num);
		break;
	case RDP_EVENT_OBJ_QP:
		snprintf(buf, len, "QP 0x%x", e->num);
		break;
	case RDP_EVENT_OBJ_CQ:
		snprintf(buf, len, "CQ %u", e->num);
		break;
	case RDP_EVENT_OBJ_SRQ:
		snprintf(buf, len, "SRQ %u", e->num);
		break;
	case RDP_EVENT_OBJ_WQ:
		snprintf(buf, len, "WQ 0x%x", e->num);
		break;
	default:
		snprintf(buf, len, "device");
	}
}

/* "port 1 went down", "QP 0x1a2: fatal error": what, without when. */
static void what(const struct rdp_event *e, char *buf, size_t len)
{
	char obj[32];

	obj_name(e, obj, sizeof(obj));
	snprintf(buf, len, "%s%s %s", obj,
		 e->obj == RDP_EVENT_OBJ_PORT ? "" : ":",
		 rdp_event_type_phrase(e->type));
}

/* The PORT_ACTIVE of e's port after event i, if any. */
static const struct rdp_event *active_after(const struct rdp_event *ev,
					    size_t n, size_t i)
{
	size_t k;

	for (k = i + 1; k < n; k++) {
		if (ev[k].obj != RDP_EVENT_OBJ_PORT || ev[k].num != ev[i].num)
			continue;
		if (ev[k].type == IBV_EVENT_PORT_ERR)
			return NULL; /* down again first: its own line */
		if (ev[k].type == IBV_EVENT_PORT_ACTIVE)
			return &ev[k];
	}
	return NULL;
}

int rdp_event_line(const struct rdp_event *ev, size_t n, size_t i, char *buf,
		   size_t len)
{
	const struct rdp_event *e = &ev[i], *up;
	char w[96];
	size_t k;

	if (e->type == IBV_EVENT_PORT_ACTIVE && e->obj == RDP_EVENT_OBJ_PORT)
		for (k = 0; k < i; k++)
			if (ev[k].type == IBV_EVENT_PORT_ERR &&
			    ev[k].obj == RDP_EVENT_OBJ_PORT &&
			    active_after(ev, n, k) == e)
				return 0;
	what(e, w, sizeof(w));
	if (e->type != IBV_EVENT_PORT_ERR || e->obj != RDP_EVENT_OBJ_PORT) {
		snprintf(buf, len, "%s %.3f s into the run (IBV_EVENT_%s)", w,
			 e->t_s, rdp_event_type_word(e->type));
		return 1;
	}
	up = active_after(ev, n, i);
	if (up)
		snprintf(buf, len,
			 "%s %.3f s into the run (IBV_EVENT_PORT_ERR); active "
			 "again at %.3f s",
			 w, e->t_s, up->t_s);
	else
		snprintf(buf, len,
			 "%s %.3f s into the run (IBV_EVENT_PORT_ERR); not "
			 "active again by the end of the point",
			 w, e->t_s);
	return 1;
}

void rdp_events_print(FILE *f, const char *prefix, const struct rdp_event *ev,
		      size_t n, uint64_t dropped)
{
	char line[256];
	size_t i;

	for (i = 0; i < n; i++)
		if (rdp_event_line(ev, n, i, line, sizeof(line)))
			fprintf(f, "%s%s\n", prefix, line);
	if (dropped)
		fprintf(f,
			"%s%llu more event(s) came too fast to be kept: the "
			"device's events overflowed their log\n",
			prefix, (unsigned long long)dropped);
}

static const char *num_key(enum rdp_event_obj obj)
{
	switch (obj) {
	case RDP_EVENT_OBJ_PORT:
		return "port";
	case RDP_EVENT_OBJ_QP:
		return "qp_num";
	case RDP_EVENT_OBJ_CQ:
		return "cq";
	case RDP_EVENT_OBJ_SRQ:
		return "srq";
	case RDP_EVENT_OBJ_WQ:
		return "wq_num";
	default:
		return NULL;
	}
}

json_t *rdp_events_json(const struct rdp_event *ev, size_t n)
{
	json_t *a = json_array(), *o;
	const char *key;
	char w[96];
	size_t i;
	int err = !a;

	for (i = 0; !err && i < n; i++) {
		what(&ev[i], w, sizeof(w));
		o = json_pack("{s:f, s:s, s:s}", "t_s",
			      round(ev[i].t_s * 1e3) / 1e3, "type",
			      rdp_event_type_word(ev[i].type), "what", w);
		key = num_key(ev[i].obj);
		if (o && key)
			err |= json_object_set_new(o, key,
						   json_integer(ev[i].num));
		err |= !o || json_array_append_new(a, o);
	}
	if (err) {
		json_decref(a);
		return NULL;
	}
	return a;
}

/* A port that went down, or a device that failed: what fails a run. */
static int is_flap(const struct rdp_event *e)
{
	return (e->type == IBV_EVENT_PORT_ERR &&
		e->obj == RDP_EVENT_OBJ_PORT) ||
	       e->type == IBV_EVENT_DEVICE_FATAL;
}

/* The rise of a counter that counts the link going down. */
static uint64_t downed(const struct rdp_counters *d, const char **name)
{
	size_t i;

	for (i = 0; d && i < d->n; i++)
		if (d->c[i].value && strstr(d->c[i].name, "link_down") &&
		    rdp_counter_kind(d->c[i].name) == RDP_CTR_LINK) {
			*name = d->c[i].name;
			return d->c[i].value;
		}
	return 0;
}

int rdp_flap_verdict(const struct rdp_event *ev, size_t n,
		     const struct rdp_counters *local,
		     const struct rdp_counters *peer, char *why, size_t len)
{
	const char *name = "";
	uint64_t up;
	size_t i;

	for (i = 0; i < n; i++) {
		if (is_flap(&ev[i])) {
			rdp_event_line(ev, n, i, why, len);
			return 1;
		}
	}
	up = downed(local, &name);
	if (up) {
		snprintf(why, len,
			 "%s +%llu on this side's port: its link "
			 "went down",
			 name, (unsigned long long)up);
		return 1;
	}
	up = downed(peer, &name);
	if (up) {
		snprintf(why, len,
			 "%s +%llu on the peer's port: its link "
			 "went down",
			 name, (unsigned long long)up);
		return 1;
	}
	return 0;
}

/* Appends "; " and the formatted reason to why (off: its length). */
static size_t reason(char *why, size_t len, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static size_t reason(char *why, size_t len, size_t off, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (off + 1 >= len)
		return off;
	if (off)
		off += (size_t)snprintf(why + off, len - off, "; ");
	if (off + 1 >= len)
		return len - 1;
	va_start(ap, fmt);
	k = vsnprintf(why + off, len - off, fmt, ap);
	va_end(ap);
	off += k > 0 ? (size_t)k : 0;
	return off < len ? off : len - 1;
}

int rdp_soak_judge(const struct rdp_soak_rules *r,
		   const struct rdp_soak_interval *iv, char *why, size_t len)
{
	char over[200], w[96];
	size_t i, off = 0;

	why[0] = '\0';
	if (r->min_bw_gbps > 0 && iv->bw_gbps < r->min_bw_gbps)
		off = reason(why, len, off, "%.2f Gb/s below %s %.2f Gb/s",
			     iv->bw_gbps, r->bw_opt ? r->bw_opt : "--min-bw",
			     r->min_bw_gbps);
	if (iv->delta &&
	    rdp_max_errors_check(&r->max_errors, iv->delta, over, sizeof(over)))
		off = reason(why, len, off, "%s", over);
	for (i = 0; i < iv->n_events; i++) {
		const struct rdp_event *e = &iv->events[i];

		if (e->obj != RDP_EVENT_OBJ_PORT &&
		    e->type != IBV_EVENT_DEVICE_FATAL)
			continue;
		what(e, w, sizeof(w));
		off = reason(why, len, off, "%s (IBV_EVENT_%s)", w,
			     rdp_event_type_word(e->type));
	}
	if (iv->dropped)
		off = reason(why, len, off, "%llu device events lost",
			     (unsigned long long)iv->dropped);
	return off > 0;
}

/* Ends meet within a millisecond: the reporter's clock steps. */
static int adjacent(double a_end, double b_start)
{
	return fabs(a_end - b_start) < 1e-3;
}

int rdp_soak_log_add(struct rdp_soak_log *l, double from_s, double to_s,
		     const char *why)
{
	struct rdp_soak_bad *last = l->n_bad ? &l->bad[l->n_bad - 1] : NULL;

	l->intervals++;
	l->ended_s = to_s;
	if (!why)
		return 0;
	l->bad_intervals++;
	if (last && !l->bad_more && adjacent(last->to_s, from_s) &&
	    !strcmp(last->why, why)) {
		last->to_s = to_s;
		return 0;
	}
	if (l->n_bad == RDP_SOAK_BAD_MAX) {
		l->bad_more++;
		return 1;
	}
	last = &l->bad[l->n_bad++];
	last->from_s = from_s;
	last->to_s = to_s;
	snprintf(last->why, sizeof(last->why), "%s", why);
	return 1;
}

const char *rdp_report_signame(int signo)
{
	return signo == SIGINT	  ? "SIGINT"
	       : signo == SIGTERM ? "SIGTERM"
				  : "a signal";
}

void rdp_soak_print(FILE *f, const struct rdp_soak_log *l)
{
	size_t i;

	fprintf(f,
		" Soak            : %s, %llu of %llu interval(s) bad over "
		"%.2f s",
		l->bad_intervals ? "FAIL" : "pass",
		(unsigned long long)l->bad_intervals,
		(unsigned long long)l->intervals, l->ended_s);
	if (l->signo)
		fprintf(f, " (ended early by %s; asked for %.0f s)",
			rdp_report_signame(l->signo), l->soak_s);
	fputc('\n', f);
	for (i = 0; i < l->n_bad; i++)
		fprintf(f, "   bad [%7.2f-%7.2f s] %s\n", l->bad[i].from_s,
			l->bad[i].to_s, l->bad[i].why);
	if (l->bad_more)
		fprintf(f, "   and %llu more bad range(s)\n",
			(unsigned long long)l->bad_more);
}

json_t *rdp_soak_json(const struct rdp_soak_log *l)
{
	json_t *o, *a = json_array(), *b;
	size_t i;
	int err = !a;

	for (i = 0; !err && i < l->n_bad; i++) {
		b = json_pack("{s:f, s:f, s:s}", "from_s", l->bad[i].from_s,
			      "to_s", l->bad[i].to_s, "why", l->bad[i].why);
		err |= !b || json_array_append_new(a, b);
	}
	if (err) {
		json_decref(a);
		return NULL;
	}
	o = json_pack("{s:f, s:f, s:I, s:I, s:I, s:s, s:o}", "seconds",
		      l->soak_s, "ran_s", l->ended_s, "intervals",
		      (json_int_t)l->intervals, "bad_intervals",
		      (json_int_t)l->bad_intervals, "bad_ranges_not_listed",
		      (json_int_t)l->bad_more, "ended_by",
		      l->signo ? rdp_report_signame(l->signo) : "time", "bad",
		      a);
	return o;
}
