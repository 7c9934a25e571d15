/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The server's refusal lines, gathered: the first refusals of a reason and
 * an address prefix in a window each get their line, "client ADDR:
 * refused: REASON"; the rest are counted and said once when the window
 * ends, so a flood of refused connections writes a few lines, not one each.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session_int.h"

#define RLOG_LINES   8	 /* lines of one reason in a window */
#define RLOG_REASONS 16	 /* reasons told apart in a window */
#define RLOG_PAIRS   256 /* (reason, prefix) pairs remembered in one */
#define RLOG_TEXT    160 /* of a reason's text kept to tell them apart */

struct rlog_reason {
	char text[RLOG_TEXT];
	uint32_t lines;	   /* logged in full */
	uint32_t more;	   /* counted */
	uint32_t prefixes; /* the counted ones came from */
	int prefixes_over; /* more prefixes than could be remembered */
};

struct rlog_pair {
	uint32_t reason;
	int counted; /* among the reason's prefixes */
	struct rdp_cidr prefix;
};

struct rdp_rlog {
	FILE *out;
	uint64_t window_ns;
	uint64_t start_ns; /* of the window: its first refusal */
	int open;
	uint32_t n_reasons, n_pairs;
	struct rlog_reason reason[RLOG_REASONS + 1]; /* the last: others */
	struct rlog_pair pair[RLOG_PAIRS];
};

int rdp_rlog_create(FILE *out, uint64_t window_ns, struct rdp_rlog **l_out)
{
	struct rdp_rlog *l = calloc(1, sizeof(*l));

	if (!l)
		return -ENOMEM;
	l->out = out;
	l->window_ns = window_ns;
	snprintf(l->reason[RLOG_REASONS].text, RLOG_TEXT, "other reasons");
	*l_out = l;
	return 0;
}

void rdp_rlog_destroy(struct rdp_rlog *l)
{
	free(l);
}

static void say_more(struct rdp_rlog *l, const struct rlog_reason *r,
		     uint64_t now_ns)
{
	unsigned int s = (unsigned int)((now_ns - l->start_ns) / 1000000000u);

	fprintf(l->out,
		"refused %u more connection%s in the last %u s: %s (%s%u "
		"prefix%s)\n",
		r->more, r->more == 1 ? "" : "s", s ? s : 1, r->text,
		r->prefixes_over ? "at least " : "", r->prefixes,
		r->prefixes == 1 ? "" : "es");
}

void rdp_rlog_tick(struct rdp_rlog *l, uint64_t now_ns)
{
	struct rlog_reason *r;
	uint32_t i;

	if (!l->open || now_ns - l->start_ns < l->window_ns)
		return;
	for (i = 0; i <= RLOG_REASONS; i++)
		if (l->reason[i].more)
			say_more(l, &l->reason[i], now_ns);
	fflush(l->out);
	for (i = 0; i <= RLOG_REASONS; i++) {
		r = &l->reason[i];
		r->lines = r->more = r->prefixes = 0;
		r->prefixes_over = 0;
	}
	l->n_reasons = 0;
	l->n_pairs = 0;
	l->open = 0;
}

static uint32_t reason_of(struct rdp_rlog *l, const char *why)
{
	uint32_t i;

	for (i = 0; i < l->n_reasons; i++)
		if (!strncmp(l->reason[i].text, why, RLOG_TEXT - 1))
			return i;
	if (l->n_reasons == RLOG_REASONS)
		return RLOG_REASONS;
	snprintf(l->reason[i].text, RLOG_TEXT, "%s", why);
	return l->n_reasons++;
}

static struct rlog_pair *pair_of(struct rdp_rlog *l, uint32_t reason,
				 const struct rdp_cidr *prefix)
{
	uint32_t i;

	for (i = 0; i < l->n_pairs; i++)
		if (l->pair[i].reason == reason &&
		    rdp_cidr_equal(&l->pair[i].prefix, prefix))
			return &l->pair[i];
	return NULL;
}

static struct rlog_pair *pair_add(struct rdp_rlog *l, uint32_t reason,
				  const struct rdp_cidr *prefix)
{
	struct rlog_pair *p;

	if (l->n_pairs == RLOG_PAIRS)
		return NULL;
	p = &l->pair[l->n_pairs++];
	p->reason = reason;
	p->counted = 0;
	p->prefix = *prefix;
	return p;
}

void rdp_rlog_refused(struct rdp_rlog *l, const char *peer,
		      const struct rdp_cidr *prefix, const char *why,
		      uint64_t now_ns)
{
	struct rlog_reason *r;
	struct rlog_pair *p;
	uint32_t ri;

	rdp_rlog_tick(l, now_ns);
	if (!l->open) {
		l->open = 1;
		l->start_ns = now_ns;
	}
	ri = reason_of(l, why);
	r = &l->reason[ri];
	p = pair_of(l, ri, prefix);
	if (!p && ri < RLOG_REASONS && r->lines < RLOG_LINES) {
		pair_add(l, ri, prefix);
		r->lines++;
		fprintf(l->out, "client %s: refused: %s\n", peer, why);
		fflush(l->out);
		return;
	}
	r->more++;
	if (!p)
		p = pair_add(l, ri, prefix);
	if (!p) {
		r->prefixes_over = 1;
	} else if (!p->counted) {
		p->counted = 1;
		r->prefixes++;
	}
}
