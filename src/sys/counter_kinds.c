/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Counters sorted into what their rise says (link errors, transport
 * retries, congestion), and --max-errors, which turns their deltas into a
 * verdict.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdmaperf/counters.h>

static const struct {
	const char *name;
	enum rdp_ctr_kind kind;
} kind_table[] = {
	/* The IB port counters (counters/), every driver. */
	{ "symbol_error", RDP_CTR_LINK },
	{ "link_error_recovery", RDP_CTR_LINK },
	{ "link_downed", RDP_CTR_LINK },
	{ "port_rcv_errors", RDP_CTR_LINK },
	{ "port_rcv_remote_physical_errors", RDP_CTR_LINK },
	{ "port_xmit_discards", RDP_CTR_LINK },
	{ "local_link_integrity_errors", RDP_CTR_LINK },
	{ "excessive_buffer_overrun_errors", RDP_CTR_LINK },
	{ "port_xmit_wait", RDP_CTR_CONGESTION },
	/* mlx5 */
	{ "out_of_sequence", RDP_CTR_RETRIES },
	{ "packet_seq_err", RDP_CTR_RETRIES },
	{ "duplicate_request", RDP_CTR_RETRIES },
	{ "local_ack_timeout_err", RDP_CTR_RETRIES },
	{ "implied_nak_seq_err", RDP_CTR_RETRIES },
	{ "rnr_nak_retry_err", RDP_CTR_RETRIES },
	{ "req_transport_retries_exceeded", RDP_CTR_RETRIES },
	{ "roce_adp_retrans", RDP_CTR_RETRIES },
	{ "roce_adp_retrans_to", RDP_CTR_RETRIES },
	{ "roce_slow_restart", RDP_CTR_RETRIES },
	{ "np_ecn_marked_roce_packets", RDP_CTR_CONGESTION },
	{ "np_cnp_sent", RDP_CTR_CONGESTION },
	{ "rp_cnp_handled", RDP_CTR_CONGESTION },
	/* rxe */
	{ "out_of_seq_request", RDP_CTR_RETRIES },
	{ "rcvd_seq_err", RDP_CTR_RETRIES },
	{ "retry_exceeded_err", RDP_CTR_RETRIES },
	{ "retry_rnr_exceeded_err", RDP_CTR_RETRIES },
	{ "completer_retry_err", RDP_CTR_RETRIES },
	{ "rcvd_rnr_err", RDP_CTR_RETRIES },
	{ "send_rnr_err", RDP_CTR_RETRIES },
};

enum rdp_ctr_kind rdp_counter_kind(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(kind_table) / sizeof(kind_table[0]); i++)
		if (!strcmp(kind_table[i].name, name))
			return kind_table[i].kind;
	return RDP_CTR_OTHER;
}

const char *rdp_ctr_kind_name(enum rdp_ctr_kind k)
{
	switch (k) {
	case RDP_CTR_LINK:
		return "link";
	case RDP_CTR_RETRIES:
		return "retries";
	case RDP_CTR_CONGESTION:
		return "congestion";
	default:
		return "other";
	}
}

void rdp_counters_sums(const struct rdp_counters *d, struct rdp_ctr_sums *s)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < d->n; i++)
		s->n[rdp_counter_kind(d->c[i].name)] += d->c[i].value;
}

static struct rdp_max_errors_rule *
rule_of(struct rdp_max_errors *m, enum rdp_ctr_kind kind, const char *name)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		if (m->r[i].kind == kind && !strcmp(m->r[i].name, name))
			return &m->r[i];
	if (m->n == RDP_MAX_ERRORS_RULES)
		return NULL;
	memset(&m->r[m->n], 0, sizeof(m->r[m->n]));
	m->r[m->n].kind = kind;
	memcpy(m->r[m->n].name, name, strlen(name) + 1);
	return &m->r[m->n++];
}

void rdp_max_errors_default(struct rdp_max_errors *m)
{
	m->n = 0;
	rule_of(m, RDP_CTR_LINK, "")->max = 0;
	rule_of(m, RDP_CTR_RETRIES, "")->any = 1;
	rule_of(m, RDP_CTR_CONGESTION, "")->any = 1;
}

static int parse_one(struct rdp_max_errors *m, const char *item, char *err,
		     size_t len)
{
	char key[RDP_COUNTER_NAME_MAX], *end;
	const char *eq = strchr(item, '=');
	struct rdp_max_errors_rule *r;
	enum rdp_ctr_kind kind;
	unsigned long long v = 0;
	size_t klen;
	int any = 0;

	klen = eq ? (size_t)(eq - item) : 0;
	if (!eq || !klen || !eq[1]) {
		snprintf(err, len,
			 "--max-errors needs KIND=N, like link=0 or "
			 "retries=100 (KIND: link, retries, congestion or a "
			 "counter's name; N a count or any), not \"%s\"",
			 item);
		return -EINVAL;
	}
	if (klen >= sizeof(key)) {
		snprintf(err, len,
			 "--max-errors: \"%.*s\" is no kind or counter name "
			 "(use link, retries, congestion or a counter's name)",
			 (int)klen, item);
		return -EINVAL;
	}
	memcpy(key, item, klen);
	key[klen] = '\0';
	if (!strcmp(eq + 1, "any")) {
		any = 1;
	} else {
		errno = 0;
		v = strtoull(eq + 1, &end, 10);
		if (errno || *end || eq[1] == '-' || eq[1] == '+') {
			snprintf(err, len,
				 "--max-errors %s: \"%s\" is no count (use a "
				 "number like 0 or 100, or any)",
				 key, eq + 1);
			return -EINVAL;
		}
	}
	if (!strcmp(key, "link"))
		r = rule_of(m, RDP_CTR_LINK, "");
	else if (!strcmp(key, "retries"))
		r = rule_of(m, RDP_CTR_RETRIES, "");
	else if (!strcmp(key, "congestion"))
		r = rule_of(m, RDP_CTR_CONGESTION, "");
	else {
		kind = rdp_counter_kind(key);
		r = rule_of(m, kind, key);
	}
	if (!r) {
		snprintf(err, len,
			 "--max-errors: more than %d rules; give fewer",
			 RDP_MAX_ERRORS_RULES);
		return -EINVAL;
	}
	r->any = any;
	r->max = v;
	return 0;
}

int rdp_max_errors_parse(struct rdp_max_errors *m, const char *arg, char *err,
			 size_t len)
{
	char buf[512], *item, *save = NULL;
	int ret;

	if (strlen(arg) >= sizeof(buf)) {
		snprintf(err, len, "--max-errors: the list is too long");
		return -EINVAL;
	}
	memcpy(buf, arg, strlen(arg) + 1);
	if (!buf[0]) {
		snprintf(err, len,
			 "--max-errors needs KIND=N, like link=0 or "
			 "retries=100");
		return -EINVAL;
	}
	for (item = strtok_r(buf, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		ret = parse_one(m, item, err, len);
		if (ret)
			return ret;
	}
	return 0;
}

/* A counter's own rule, if it has one. */
static const struct rdp_max_errors_rule *
own_rule(const struct rdp_max_errors *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		if (m->r[i].name[0] && !strcmp(m->r[i].name, name))
			return &m->r[i];
	return NULL;
}

static void rule_text(const struct rdp_max_errors_rule *r, char *buf,
		      size_t len)
{
	snprintf(buf, len, "--max-errors %s=%" PRIu64,
		 r->name[0] ? r->name : rdp_ctr_kind_name(r->kind), r->max);
}

int rdp_max_errors_check(const struct rdp_max_errors *m,
			 const struct rdp_counters *d, char *why, size_t len)
{
	const struct rdp_max_errors_rule *r;
	char opt[96], list[192];
	uint64_t sum;
	size_t i, j, used;

	/* Counters with their own rule first, then the kinds' sums over the
	 * counters without one. */
	for (i = 0; i < d->n; i++) {
		r = own_rule(m, d->c[i].name);
		if (!r || r->any || d->c[i].value <= r->max)
			continue;
		rule_text(r, opt, sizeof(opt));
		snprintf(why, len,
			 "%s +%" PRIu64 " over the limit of %" PRIu64 " (%s)",
			 d->c[i].name, d->c[i].value, r->max, opt);
		return 1;
	}
	for (j = 0; j < m->n; j++) {
		r = &m->r[j];
		if (r->name[0] || r->any || r->kind == RDP_CTR_OTHER)
			continue;
		sum = 0;
		used = 0;
		list[0] = '\0';
		for (i = 0; i < d->n; i++) {
			if (rdp_counter_kind(d->c[i].name) != r->kind ||
			    !d->c[i].value || own_rule(m, d->c[i].name))
				continue;
			sum += d->c[i].value;
			if (used < sizeof(list))
				used += (size_t)snprintf(
					list + used, sizeof(list) - used,
					"%s%s +%" PRIu64, used ? ", " : "",
					d->c[i].name, d->c[i].value);
		}
		if (sum <= r->max)
			continue;
		rule_text(r, opt, sizeof(opt));
		snprintf(why, len,
			 "%s +%" PRIu64 " (%s) over the limit of %" PRIu64
			 " (%s)",
			 r->kind == RDP_CTR_LINK      ? "link errors"
			 : r->kind == RDP_CTR_RETRIES ? "transport retries"
						      : "congestion counters",
			 sum, list, r->max, opt);
		return 1;
	}
	return 0;
}
