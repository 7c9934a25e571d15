/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The server's admission, without threads: --allow, token buckets over all
 * clients and per address prefix, one handshake in progress per prefix and
 * RDP_ADMIT_SLOTS in all, a watchdog over the handshakes' sockets, and the
 * refusal lines gathered a window at a time. Every call takes the time, so
 * tests drive the clock.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "session_int.h"

#define ADMIT_PREFIXES 1024 /* prefixes whose buckets are remembered */

struct admit_prefix {
	struct rdp_cidr key; /* family 0: unused */
	double tokens;
	uint64_t refilled_ns;
	uint32_t active; /* handshakes in progress */
};

struct admit_slot {
	int used;
	uint32_t prefix; /* index in prefixes */
	int fd;		 /* -1: no longer watched */
	uint64_t deadline_ns;
	int cut; /* the watchdog shut it down */
};

struct rdp_admit {
	struct rdp_admit_cfg cfg;
	double tokens; /* the global bucket */
	uint64_t refilled_ns;
	uint32_t n_active;
	struct admit_slot slot[RDP_ADMIT_SLOTS];
	struct admit_prefix prefix[ADMIT_PREFIXES];
};

int rdp_gate_left_ms(uint64_t now_ns, uint64_t deadline_ns)
{
	uint64_t left;

	if (now_ns >= deadline_ns)
		return 1; /* the channel's hard deadline ends the wait */
	left = deadline_ns - now_ns;
	left = left / 1000000 + (left % 1000000 != 0);
	return left > 0x7fffffff ? 0x7fffffff : (int)left;
}

int rdp_admit_create(const struct rdp_admit_cfg *cfg, uint64_t now_ns,
		     struct rdp_admit **out)
{
	struct rdp_admit *a = calloc(1, sizeof(*a));

	if (!a)
		return -ENOMEM;
	a->cfg = *cfg;
	a->tokens = cfg->rate;
	a->refilled_ns = now_ns;
	*out = a;
	return 0;
}

void rdp_admit_destroy(struct rdp_admit *a)
{
	free(a);
}

/* A bucket refilled at rate a second, one second deep (at least one). */
static void refill(double *tokens, uint64_t *refilled_ns, double rate,
		   uint64_t now_ns)
{
	double depth = rate < 1.0 ? 1.0 : rate;

	if (now_ns > *refilled_ns)
		*tokens += rate * (double)(now_ns - *refilled_ns) / 1e9;
	if (*tokens > depth)
		*tokens = depth;
	*refilled_ns = now_ns;
}

/* key's entry, made when new: a free one, else the one idle longest
 * with no handshake in progress (whose bucket has most likely refilled). */
static struct admit_prefix *
prefix_of(struct rdp_admit *a, const struct rdp_cidr *key, uint64_t now_ns)
{
	struct admit_prefix *p, *pick = NULL;
	uint32_t i;

	for (i = 0; i < ADMIT_PREFIXES; i++) {
		p = &a->prefix[i];
		if (p->key.family && rdp_cidr_equal(&p->key, key))
			return p;
		if (p->active)
			continue;
		if (!p->key.family) {
			if (!pick || pick->key.family)
				pick = p;
		} else if (!pick || (pick->key.family &&
				     p->refilled_ns < pick->refilled_ns)) {
			pick = p;
		}
	}
	/* Never NULL: at most RDP_ADMIT_SLOTS entries are active. */
	pick->key = *key;
	pick->tokens = a->cfg.prefix_rate < 1.0 ? 1.0 : a->cfg.prefix_rate;
	pick->refilled_ns = now_ns;
	pick->active = 0;
	return pick;
}

static enum rdp_refusal check(struct rdp_admit *a, struct admit_prefix *p,
			      uint64_t now_ns)
{
	if (p->active)
		return RDP_REFUSE_PREFIX_BUSY;
	if (a->n_active == RDP_ADMIT_SLOTS)
		return RDP_REFUSE_SLOTS;
	/* The prefix's own bucket first: an address over its rate takes
	 * nothing from the others' share. */
	refill(&p->tokens, &p->refilled_ns, a->cfg.prefix_rate, now_ns);
	if (p->tokens < 1.0)
		return RDP_REFUSE_PREFIX_RATE;
	refill(&a->tokens, &a->refilled_ns, a->cfg.rate, now_ns);
	if (a->tokens < 1.0)
		return RDP_REFUSE_RATE;
	return RDP_ADMITTED;
}

enum rdp_refusal rdp_admit_try(struct rdp_admit *a, const struct sockaddr *sa,
			       int fd, uint64_t now_ns, uint64_t deadline_ns,
			       unsigned int *slot, struct rdp_cidr *prefix)
{
	struct rdp_cidr key;
	struct admit_prefix *p;
	enum rdp_refusal r;
	unsigned int i;

	if (rdp_cidr_of(sa, a->cfg.v4_bits, a->cfg.v6_bits, &key))
		return RDP_REFUSE_ALLOW;
	*prefix = key;
	if (a->cfg.allow && !rdp_cidr_match(a->cfg.allow, sa))
		return RDP_REFUSE_ALLOW;
	p = prefix_of(a, &key, now_ns);
	r = check(a, p, now_ns);
	if (r)
		return r;
	for (i = 0; a->slot[i].used; i++)
		;
	p->tokens -= 1.0;
	a->tokens -= 1.0;
	p->active++;
	a->n_active++;
	a->slot[i] = (struct admit_slot){ .used = 1,
					  .prefix = (uint32_t)(p - a->prefix),
					  .fd = fd,
					  .deadline_ns = deadline_ns };
	*slot = i;
	return RDP_ADMITTED;
}

int rdp_admit_unwatch(struct rdp_admit *a, unsigned int slot)
{
	a->slot[slot].fd = -1;
	return a->slot[slot].cut;
}

void rdp_admit_release(struct rdp_admit *a, unsigned int slot)
{
	struct admit_slot *s = &a->slot[slot];

	if (!s->used)
		return;
	a->prefix[s->prefix].active--;
	a->n_active--;
	memset(s, 0, sizeof(*s));
}

unsigned int rdp_admit_active(const struct rdp_admit *a)
{
	return a->n_active;
}

uint64_t rdp_admit_watchdog(struct rdp_admit *a, uint64_t now_ns,
			    uint64_t grace_ns)
{
	uint64_t next = UINT64_MAX, end;
	unsigned int i;

	for (i = 0; i < RDP_ADMIT_SLOTS; i++) {
		struct admit_slot *s = &a->slot[i];

		if (!s->used || s->fd < 0 || s->cut)
			continue;
		end = s->deadline_ns + grace_ns;
		if (now_ns >= end) {
			/* Whatever the thread waits in ends now. */
			shutdown(s->fd, SHUT_RDWR);
			s->cut = 1;
		} else if (end < next) {
			next = end;
		}
	}
	return next;
}

const char *rdp_refusal_str(enum rdp_refusal r, const struct rdp_cidr *prefix,
			    char *buf, size_t len)
{
	int whole = prefix->prefix == (prefix->family == AF_INET ? 32 : 128);
	const char *opt = prefix->family == AF_INET ? "--ipv4-prefix"
						    : "--ipv6-prefix";

	switch (r) {
	case RDP_ADMITTED:
		return "admitted";
	case RDP_REFUSE_ALLOW:
		return "not in --allow";
	case RDP_REFUSE_SLOTS:
		return "too many handshakes in progress";
	case RDP_REFUSE_RATE:
		return "over the handshake rate (--max-handshake-rate)";
	case RDP_REFUSE_PREFIX_BUSY:
		if (whole)
			return "a handshake from this address is in progress";
		snprintf(buf, len,
			 "a handshake from this address's /%u (%s) is in "
			 "progress",
			 prefix->prefix, opt);
		return buf;
	case RDP_REFUSE_PREFIX_RATE:
		if (whole)
			return "over the handshake rate of one address "
			       "(--max-prefix-rate)";
		snprintf(buf, len,
			 "over the handshake rate of one /%u (%s, "
			 "--max-prefix-rate)",
			 prefix->prefix, opt);
		return buf;
	}
	return "refused";
}
