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

/*
 * What each driver publishes, by name; a '#' stands for a priority or
 * class number (one or more digits). Names not here are OTHER: traffic,
 * resources, application errors (bad keys, flushed work requests) and
 * figures that are not counts of events (pause durations, FEC corrected
 * bits, which every healthy PAM4 link has).
 */
static const struct {
	const char *name;
	enum rdp_ctr_kind kind;
	const char *why; /* NULL: the kind's */
} kind_table[] = {
	/* The IB port counters (counters/), every driver. */
	{ "symbol_error", RDP_CTR_LINK,
	  "symbol errors: a bad cable or transceiver" },
	{ "link_error_recovery", RDP_CTR_LINK,
	  "the link retrained during the test" },
	{ "link_downed", RDP_CTR_LINK, "the link went down during the test" },
	{ "port_rcv_errors", RDP_CTR_LINK,
	  "malformed packets received: check the link" },
	{ "port_rcv_remote_physical_errors", RDP_CTR_LINK },
	{ "port_xmit_discards", RDP_CTR_LINK,
	  "packets discarded on send: congestion or a down link" },
	{ "local_link_integrity_errors", RDP_CTR_LINK },
	{ "excessive_buffer_overrun_errors", RDP_CTR_LINK },
	{ "port_xmit_wait", RDP_CTR_CONGESTION,
	  "the port waited for credits: congestion" },
	/* mlx5 hw_counters */
	{ "out_of_sequence", RDP_CTR_RETRIES,
	  "packets arrived out of order: loss on the path" },
	{ "packet_seq_err", RDP_CTR_RETRIES,
	  "NAKs for sequence errors: loss on the path" },
	{ "duplicate_request", RDP_CTR_RETRIES,
	  "retransmitted requests arrived: loss or a too-short ACK timeout (-u)" },
	{ "local_ack_timeout_err", RDP_CTR_RETRIES,
	  "ACKs timed out: loss, or a peer too slow to answer" },
	{ "implied_nak_seq_err", RDP_CTR_RETRIES,
	  "READ/atomic responses lost" },
	{ "rnr_nak_retry_err", RDP_CTR_RETRIES,
	  "receiver not ready: receives not posted in time" },
	{ "out_of_buffer", RDP_CTR_RETRIES },
	{ "req_transport_retries_exceeded", RDP_CTR_RETRIES,
	  "retries exhausted: the path drops packets" },
	{ "req_rnr_retries_exceeded", RDP_CTR_RETRIES },
	{ "roce_adp_retrans", RDP_CTR_RETRIES,
	  "adaptive retransmissions: loss on the path" },
	{ "roce_adp_retrans_to", RDP_CTR_RETRIES },
	{ "roce_slow_restart", RDP_CTR_RETRIES,
	  "slow restart after retransmissions" },
	{ "roce_slow_restart_trans", RDP_CTR_RETRIES },
	{ "roce_slow_restart_cnps", RDP_CTR_CONGESTION },
	{ "np_ecn_marked_roce_packets", RDP_CTR_CONGESTION,
	  "switches marked packets with ECN: congestion" },
	{ "np_cnp_sent", RDP_CTR_CONGESTION,
	  "this side saw ECN marks and asked the sender to slow down: congestion" },
	{ "rp_cnp_handled", RDP_CTR_CONGESTION,
	  "the peer asked this side to slow down: congestion" },
	{ "rp_cnp_ignored", RDP_CTR_CONGESTION },
	{ "cc_rx_ce_pkts", RDP_CTR_CONGESTION },
	{ "cc_rx_cnp_pkts", RDP_CTR_CONGESTION },
	{ "cc_tx_cnp_pkts", RDP_CTR_CONGESTION },
	{ "rx_icrc_encapsulated", RDP_CTR_LINK },
	/* bnxt_re hw_counters (older names, then the ones that follow
	 * mlx5's) */
	{ "to_retransmits", RDP_CTR_RETRIES },
	{ "seq_err_naks_rcvd", RDP_CTR_RETRIES },
	{ "max_retry_exceeded", RDP_CTR_RETRIES },
	{ "rnr_naks_rcvd", RDP_CTR_RETRIES },
	{ "missing_resp", RDP_CTR_RETRIES },
	{ "dup_req", RDP_CTR_RETRIES },
	{ "oos_drop_count", RDP_CTR_RETRIES },
	{ "rx_out_of_buffer", RDP_CTR_RETRIES },
	{ "rx_roce_errors", RDP_CTR_LINK },
	{ "tx_roce_errors", RDP_CTR_LINK },
	{ "rx_roce_discards", RDP_CTR_CONGESTION },
	{ "tx_roce_discards", RDP_CTR_CONGESTION },
	{ "tx_cnp_pkts", RDP_CTR_CONGESTION },
	{ "rx_cnp_pkts", RDP_CTR_CONGESTION },
	{ "rx_ecn_marked_pkts", RDP_CTR_CONGESTION },
	{ "np_cnp_pkts", RDP_CTR_CONGESTION },
	/* irdma hw_counters */
	{ "tcpRetransSegs", RDP_CTR_RETRIES },
	{ "ip4InTruncatedPkts", RDP_CTR_LINK },
	{ "ip6InTruncatedPkts", RDP_CTR_LINK },
	{ "ip4InDiscards", RDP_CTR_CONGESTION },
	{ "ip6InDiscards", RDP_CTR_CONGESTION },
	{ "cnpHandled", RDP_CTR_CONGESTION },
	{ "cnpIgnored", RDP_CTR_CONGESTION },
	{ "cnpSent", RDP_CTR_CONGESTION },
	{ "RxECNMrkd", RDP_CTR_CONGESTION },
	/* rxe hw_counters; a failed send is retried like a lost one */
	{ "out_of_seq_request", RDP_CTR_RETRIES,
	  "packets arrived out of order: loss" },
	{ "rcvd_seq_err", RDP_CTR_RETRIES, "NAKs for sequence errors: loss" },
	{ "retry_exceeded_err", RDP_CTR_RETRIES,
	  "retries exhausted: the path drops packets" },
	{ "retry_rnr_exceeded_err", RDP_CTR_RETRIES },
	{ "completer_retry_err", RDP_CTR_RETRIES,
	  "requests were retransmitted: loss" },
	{ "rcvd_rnr_err", RDP_CTR_RETRIES, "receiver not ready NAKs received" },
	{ "send_rnr_err", RDP_CTR_RETRIES, "receiver not ready NAKs sent" },
	{ "send_err", RDP_CTR_RETRIES },
	/* mlx5e `ethtool -S`: the physical port */
	{ "rx_crc_errors_phy", RDP_CTR_LINK },
	{ "rx_symbol_err_phy", RDP_CTR_LINK },
	{ "rx_pcs_symbol_err_phy", RDP_CTR_LINK },
	{ "rx_in_range_len_errors_phy", RDP_CTR_LINK },
	{ "rx_undersize_pkts_phy", RDP_CTR_LINK },
	{ "rx_fragments_phy", RDP_CTR_LINK },
	{ "rx_jabbers_phy", RDP_CTR_LINK },
	{ "link_down_events_phy", RDP_CTR_LINK },
	{ "module_bus_stuck", RDP_CTR_LINK },
	{ "module_high_temp", RDP_CTR_LINK },
	{ "module_bad_shorted", RDP_CTR_LINK },
	{ "rx_pause_ctrl_phy", RDP_CTR_CONGESTION },
	{ "tx_pause_ctrl_phy", RDP_CTR_CONGESTION },
	{ "rx_discards_phy", RDP_CTR_CONGESTION },
	{ "tx_discards_phy", RDP_CTR_CONGESTION },
	{ "rx_buffer_passed_thres_phy", RDP_CTR_CONGESTION },
	{ "tx_pause_storm_warning_events", RDP_CTR_CONGESTION },
	{ "tx_pause_storm_error_events", RDP_CTR_CONGESTION },
	{ "rx_prio#_pause", RDP_CTR_CONGESTION },
	{ "tx_prio#_pause", RDP_CTR_CONGESTION },
	{ "rx_prio#_discards", RDP_CTR_CONGESTION },
	{ "rx_prio#_buf_discard", RDP_CTR_CONGESTION },
	{ "rx_prio#_cong_discard", RDP_CTR_CONGESTION },
	{ "rx_prio#_marked", RDP_CTR_CONGESTION },
	/* bnxt_en `ethtool -S` (rx_pfc_frames is the sum of the
	 * priorities': left out, not counted twice) */
	{ "rx_fcs_err_frames", RDP_CTR_LINK },
	{ "rx_align_err_frames", RDP_CTR_LINK },
	{ "rx_jbr_frames", RDP_CTR_LINK },
	{ "rx_runt_frames", RDP_CTR_LINK },
	{ "rx_undrsz_frames", RDP_CTR_LINK },
	{ "rx_stat_err", RDP_CTR_LINK },
	{ "tx_stat_error", RDP_CTR_LINK },
	{ "rx_pcs_symbol_err", RDP_CTR_LINK },
	{ "rx_fec_uncorrectable_blocks", RDP_CTR_LINK },
	{ "link_down_events", RDP_CTR_LINK },
	{ "rx_pause_frames", RDP_CTR_CONGESTION },
	{ "tx_pause_frames", RDP_CTR_CONGESTION },
	{ "rx_pfc_ena_frames_pri#", RDP_CTR_CONGESTION },
	{ "tx_pfc_ena_frames_pri#", RDP_CTR_CONGESTION },
	{ "continuous_pause_events", RDP_CTR_CONGESTION },
	{ "continuous_roce_pause_events", RDP_CTR_CONGESTION },
	{ "rx_buffer_passed_threshold", RDP_CTR_CONGESTION },
	{ "rx_discard_packets_cos#", RDP_CTR_CONGESTION },
	{ "rx_stat_discard", RDP_CTR_CONGESTION },
	{ "tx_stat_discard", RDP_CTR_CONGESTION },
	/* ice `ethtool -S` (XOFF starts a pause, XON only ends it) */
	{ "rx_crc_errors.nic", RDP_CTR_LINK },
	{ "rx_undersize.nic", RDP_CTR_LINK },
	{ "rx_fragments.nic", RDP_CTR_LINK },
	{ "rx_jabber.nic", RDP_CTR_LINK },
	{ "illegal_bytes.nic", RDP_CTR_LINK },
	{ "mac_local_faults.nic", RDP_CTR_LINK },
	{ "mac_remote_faults.nic", RDP_CTR_LINK },
	{ "tx_dropped_link_down.nic", RDP_CTR_LINK },
	{ "link_down_events.nic", RDP_CTR_LINK },
	{ "link_xoff_rx.nic", RDP_CTR_CONGESTION },
	{ "link_xoff_tx.nic", RDP_CTR_CONGESTION },
	{ "rx_dropped.nic", RDP_CTR_CONGESTION },
	{ "rx_priority_#_xoff.nic", RDP_CTR_CONGESTION },
	{ "tx_priority_#_xoff.nic", RDP_CTR_CONGESTION },
};

/* name against a table name, whose '#' takes one or more digits. */
static int name_matches(const char *pat, const char *name)
{
	for (; *pat; pat++) {
		if (*pat != '#') {
			if (*name++ != *pat)
				return 0;
			continue;
		}
		if (*name < '0' || *name > '9')
			return 0;
		while (*name >= '0' && *name <= '9')
			name++;
	}
	return !*name;
}

enum rdp_ctr_kind rdp_counter_kind(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(kind_table) / sizeof(kind_table[0]); i++)
		if (name_matches(kind_table[i].name, name))
			return kind_table[i].kind;
	return RDP_CTR_OTHER;
}

const char *rdp_counter_warning(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(kind_table) / sizeof(kind_table[0]); i++)
		if (name_matches(kind_table[i].name, name))
			break;
	if (i == sizeof(kind_table) / sizeof(kind_table[0]))
		return NULL;
	if (kind_table[i].why)
		return kind_table[i].why;
	switch (kind_table[i].kind) {
	case RDP_CTR_LINK:
		return "link errors: check the cable, transceiver and port";
	case RDP_CTR_RETRIES:
		return "retransmissions: loss on the path or a receiver not "
		       "ready";
	case RDP_CTR_CONGESTION:
		return "pause frames, ECN marks or drops for want of buffers: "
		       "congestion";
	default:
		return NULL;
	}
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
		/* A counter of none of the kinds is never judged: most
		 * likely a misspelt kind. */
		kind = rdp_counter_kind(key);
		if (kind == RDP_CTR_OTHER) {
			snprintf(err, len,
				 "--max-errors: \"%s\" is no kind and no "
				 "counter of link errors, retries or "
				 "congestion (use link, retries, congestion "
				 "or such a counter's name, like "
				 "symbol_error)",
				 key);
			return -EINVAL;
		}
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

/* The first counter over its own rule, into why; 1 then, else 0. */
static int own_over(const struct rdp_max_errors *m,
		    const struct rdp_counters *d, uint64_t *count,
		    uint64_t *max, char *why, size_t len)
{
	const struct rdp_max_errors_rule *r;
	char opt[96];
	size_t i;

	for (i = 0; i < d->n; i++) {
		r = own_rule(m, d->c[i].name);
		if (!r || r->any || d->c[i].value <= r->max)
			continue;
		rule_text(r, opt, sizeof(opt));
		snprintf(why, len,
			 "%s +%" PRIu64 " over the limit of %" PRIu64 " (%s)",
			 d->c[i].name, d->c[i].value, r->max, opt);
		*count = d->c[i].value;
		*max = r->max;
		return 1;
	}
	return 0;
}

/* The sum of kind's counters without a rule of their own, and their
 * names with each one's rise in list. */
static uint64_t kind_sum(const struct rdp_max_errors *m,
			 const struct rdp_counters *d, enum rdp_ctr_kind kind,
			 char *list, size_t len)
{
	uint64_t sum = 0;
	size_t i, used = 0;

	list[0] = '\0';
	for (i = 0; i < d->n; i++) {
		if (rdp_counter_kind(d->c[i].name) != kind || !d->c[i].value ||
		    own_rule(m, d->c[i].name))
			continue;
		sum += d->c[i].value;
		if (used < len)
			used += (size_t)snprintf(list + used, len - used,
						 "%s%s +%" PRIu64,
						 used ? ", " : "", d->c[i].name,
						 d->c[i].value);
	}
	return sum;
}

int rdp_max_errors_over(const struct rdp_max_errors *m,
			const struct rdp_counters *d, uint64_t *count,
			uint64_t *max, char *why, size_t len)
{
	const struct rdp_max_errors_rule *r;
	char opt[96], list[192];
	uint64_t sum;
	size_t j;

	/* Counters with their own rule first, then the kinds' sums over the
	 * counters without one. */
	if (own_over(m, d, count, max, why, len))
		return 1;
	for (j = 0; j < m->n; j++) {
		r = &m->r[j];
		if (r->name[0] || r->any || r->kind == RDP_CTR_OTHER)
			continue;
		sum = kind_sum(m, d, r->kind, list, sizeof(list));
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
		*count = sum;
		*max = r->max;
		return 1;
	}
	return 0;
}

int rdp_max_errors_check(const struct rdp_max_errors *m,
			 const struct rdp_counters *d, char *why, size_t len)
{
	uint64_t count, max;

	return rdp_max_errors_over(m, d, &count, &max, why, len);
}
