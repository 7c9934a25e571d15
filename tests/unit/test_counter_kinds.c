/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Counters as verdicts: each driver's sysfs counters and its netdev's
 * `ethtool -S` statistics (tests/fixtures/counters/DRIVER, the drivers'
 * own names, made-up values) sorted into link errors, retries and
 * congestion; two snapshots, their deltas and sums; --max-errors parsed
 * and checked; the verdict's lines and the JSON's "errors".
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <jansson.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/counters.h>
#include <rdmaperf/json_sys.h>
#include <rdmaperf/limits.h>
#include <rdmaperf/verdict.h>

#include <rdmaperf/opts.h>
#include <rdmaperf/sysfs.h>

/* unit.h's helpers, less its doctor.h, whose enum rdp_verdict takes the
 * tag of verdict.h's struct: argv.h alone, and the fixtures' place. */
#ifndef RDP_FIXTURES_DIR
#define RDP_FIXTURES_DIR "tests/fixtures"
#endif
#include "argv.h"

static const char *fixtures_dir(void)
{
	const char *env = getenv("RDP_FIXTURES");

	return env && *env ? env : RDP_FIXTURES_DIR;
}

static void fixture_fs(const char *name, struct rdp_sysfs *fs)
{
	char root[PATH_MAX];

	assert_true(snprintf(root, sizeof(root), "%s/%s", fixtures_dir(),
			     name) < (int)sizeof(root));
	rdp_sysfs_init(fs, root);
}

#define L RDP_CTR_LINK
#define R RDP_CTR_RETRIES
#define C RDP_CTR_CONGESTION

struct named {
	const char *name; /* "%d": each of the priorities 0..7 */
	enum rdp_ctr_kind kind;
};

struct bump {
	const char *name;
	uint64_t by;
};

struct drv {
	const char *dir; /* under tests/fixtures/counters */
	const char *dev;
	const char *netdev;
	size_t n_sysfs;	  /* counters/ and hw_counters/, lifespan aside */
	int n_stats;	  /* every statistic of ethtool-S.txt */
	size_t n_ethtool; /* the ones of a kind, which a snapshot keeps */
	const struct named *kinds; /* every name that is not OTHER */
	const struct bump *bumps;  /* the second snapshot's rises */
	/* other (the sysfs traffic counters' rises: ethtool's of no kind
	 * are not kept), link, retries, congestion */
	uint64_t sums[RDP_CTR_KINDS];
};

static const struct named mlx5_kinds[] = {
	{ "symbol_error", L },
	{ "link_error_recovery", L },
	{ "link_downed", L },
	{ "port_rcv_errors", L },
	{ "port_rcv_remote_physical_errors", L },
	{ "port_xmit_discards", L },
	{ "local_link_integrity_errors", L },
	{ "excessive_buffer_overrun_errors", L },
	{ "port_xmit_wait", C },
	{ "duplicate_request", R },
	{ "implied_nak_seq_err", R },
	{ "local_ack_timeout_err", R },
	{ "out_of_buffer", R },
	{ "out_of_sequence", R },
	{ "packet_seq_err", R },
	{ "req_rnr_retries_exceeded", R },
	{ "req_transport_retries_exceeded", R },
	{ "rnr_nak_retry_err", R },
	{ "roce_adp_retrans", R },
	{ "roce_adp_retrans_to", R },
	{ "roce_slow_restart", R },
	{ "roce_slow_restart_trans", R },
	{ "roce_slow_restart_cnps", C },
	{ "np_cnp_sent", C },
	{ "np_ecn_marked_roce_packets", C },
	{ "rp_cnp_handled", C },
	{ "rp_cnp_ignored", C },
	{ "rx_icrc_encapsulated", L },
	/* mlx5e */
	{ "rx_out_of_buffer", R },
	{ "rx_crc_errors_phy", L },
	{ "rx_in_range_len_errors_phy", L },
	{ "rx_symbol_err_phy", L },
	{ "rx_undersize_pkts_phy", L },
	{ "rx_fragments_phy", L },
	{ "rx_jabbers_phy", L },
	{ "link_down_events_phy", L },
	{ "rx_pcs_symbol_err_phy", L },
	{ "module_bus_stuck", L },
	{ "module_high_temp", L },
	{ "module_bad_shorted", L },
	{ "rx_pause_ctrl_phy", C },
	{ "tx_pause_ctrl_phy", C },
	{ "rx_discards_phy", C },
	{ "tx_discards_phy", C },
	{ "rx_buffer_passed_thres_phy", C },
	{ "tx_pause_storm_warning_events", C },
	{ "tx_pause_storm_error_events", C },
	{ "rx_prio3_pause", C },
	{ "tx_prio3_pause", C },
	{ NULL, 0 },
};

static const struct bump mlx5_bumps[] = {
	{ "symbol_error", 2 },
	{ "port_xmit_wait", 100 },
	{ "port_xmit_data", 5000 },
	{ "out_of_sequence", 7 },
	{ "local_ack_timeout_err", 1 },
	{ "np_cnp_sent", 30 },
	{ "rx_write_requests", 999 },
	{ "rx_prio3_pause", 40 },
	{ "tx_prio3_pause", 9 },
	{ "rx_crc_errors_phy", 3 },
	{ "rx_packets_phy", 100000 },
	{ "rx_prio3_pause_duration", 777 },
	{ NULL, 0 },
};

static const struct named bnxt_kinds[] = {
	{ "rx_roce_errors", L },
	{ "rx_roce_discards", C },
	{ "to_retransmits", R },
	{ "seq_err_naks_rcvd", R },
	{ "max_retry_exceeded", R },
	{ "rnr_naks_rcvd", R },
	{ "missing_resp", R },
	{ "dup_req", R },
	{ "oos_drop_count", R },
	{ "rx_out_of_buffer", R },
	{ "tx_cnp_pkts", C },
	{ "rx_cnp_pkts", C },
	{ "rx_ecn_marked_pkts", C },
	/* bnxt_en */
	{ "rx_fcs_err_frames", L },
	{ "rx_align_err_frames", L },
	{ "rx_jbr_frames", L },
	{ "rx_undrsz_frames", L },
	{ "rx_runt_frames", L },
	{ "rx_stat_err", L },
	{ "tx_stat_error", L },
	{ "link_down_events", L },
	{ "rx_pcs_symbol_err", L },
	{ "rx_fec_uncorrectable_blocks", L },
	{ "rx_pause_frames", C },
	{ "tx_pause_frames", C },
	{ "rx_pfc_ena_frames_pri%d", C },
	{ "tx_pfc_ena_frames_pri%d", C },
	{ "rx_stat_discard", C },
	{ "tx_stat_discard", C },
	{ "continuous_pause_events", C },
	{ "continuous_roce_pause_events", C },
	{ "rx_buffer_passed_threshold", C },
	{ "rx_discard_packets_cos%d", C },
	{ NULL, 0 },
};

static const struct bump bnxt_bumps[] = {
	{ "to_retransmits", 11 },	    { "rx_roce_discards", 4 },
	{ "rx_ecn_marked_pkts", 20 },	    { "rx_pkts", 1000 },
	{ "rx_pfc_ena_frames_pri3", 6 },    { "rx_pfc_frames", 6 },
	{ "rx_fcs_err_frames", 1 },	    { "rx_pcs_symbol_err", 2 },
	{ "pfc_pri3_rx_duration_us", 500 }, { NULL, 0 },
};

static const struct named irdma_kinds[] = {
	{ "ip4InDiscards", C },
	{ "ip6InDiscards", C },
	{ "ip4InTruncatedPkts", L },
	{ "ip6InTruncatedPkts", L },
	{ "tcpRetransSegs", R },
	{ "cnpHandled", C },
	{ "cnpIgnored", C },
	{ "cnpSent", C },
	{ "RxECNMrkd", C },
	/* ice */
	{ "rx_crc_errors.nic", L },
	{ "rx_undersize.nic", L },
	{ "rx_fragments.nic", L },
	{ "rx_jabber.nic", L },
	{ "illegal_bytes.nic", L },
	{ "mac_local_faults.nic", L },
	{ "mac_remote_faults.nic", L },
	{ "tx_dropped_link_down.nic", L },
	{ "link_xoff_rx.nic", C },
	{ "link_xoff_tx.nic", C },
	{ "rx_dropped.nic", C },
	{ "rx_priority_%d_xoff.nic", C },
	{ "tx_priority_%d_xoff.nic", C },
	{ NULL, 0 },
};

static const struct bump irdma_bumps[] = {
	{ "tcpRetransSegs", 5 },
	{ "ip4InTruncatedPkts", 1 },
	{ "cnpSent", 12 },
	{ "RxECNMrkd", 8 },
	{ "ip4InPkts", 300 },
	{ "rx_priority_3_xoff.nic", 15 },
	{ "rx_priority_3_xon.nic", 15 },
	{ "rx_crc_errors.nic", 2 },
	{ "rx_bytes.nic", 100 },
	{ NULL, 0 },
};

static const struct named rxe_kinds[] = {
	{ "duplicate_request", R },
	{ "out_of_seq_request", R },
	{ "rcvd_rnr_err", R },
	{ "send_rnr_err", R },
	{ "rcvd_seq_err", R },
	{ "retry_exceeded_err", R },
	{ "retry_rnr_exceeded_err", R },
	{ "completer_retry_err", R },
	{ "send_err", R },
	{ "link_downed", L },
	{ NULL, 0 },
};

static const struct bump rxe_bumps[] = {
	{ "out_of_seq_request", 9 },
	{ "rcvd_seq_err", 3 },
	{ "completer_retry_err", 4 },
	{ "link_downed", 1 },
	{ "sent_pkts", 5000 },
	{ "rx_queue_0_drops", 7 },
	{ NULL, 0 },
};

/* mlx5 alone publishes the PMA port counters (counters/). */
static const struct drv drivers[] = {
	{ "mlx5",
	  "mlx5_0",
	  "ens1f0np0",
	  21 + 31,
	  107,
	  21,
	  mlx5_kinds,
	  mlx5_bumps,
	  { 5999, 5, 8, 179 } },
	{ "bnxt_re",
	  "bnxt_re0",
	  "ens2f0np0",
	  74,
	  164,
	  41,
	  bnxt_kinds,
	  bnxt_bumps,
	  { 1000, 3, 11, 30 } },
	{ "irdma",
	  "rocep23s0f0",
	  "ens3f0",
	  46,
	  86,
	  27,
	  irdma_kinds,
	  irdma_bumps,
	  { 300, 3, 5, 35 } },
	{ "rxe",
	  "rxe0",
	  "veth0",
	  15,
	  10,
	  0,
	  rxe_kinds,
	  rxe_bumps,
	  { 5000, 1, 16, 0 } },
};

#define N_DRV (sizeof(drivers) / sizeof(drivers[0]))

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n >= 0);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

static void drv_fs(const struct drv *d, struct rdp_sysfs *fs)
{
	char name[64];

	snprintf(name, sizeof(name), "counters/%s", d->dir);
	fixture_fs(name, fs);
}

static char *drv_ethtool(const struct drv *d)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/counters/%s/ethtool-S.txt",
		 fixtures_dir(), d->dir);
	return slurp(path);
}

/* How many names pat stands for: 8 with a "%d", else 1. */
static int n_of(const char *pat)
{
	return strstr(pat, "%d") ? 8 : 1;
}

/* The name pat gives for priority p. */
static void expand(const char *pat, int p, char *buf, size_t len)
{
	const char *at = strstr(pat, "%d");

	if (!at)
		snprintf(buf, len, "%s", pat);
	else
		snprintf(buf, len, "%.*s%d%s", (int)(at - pat), pat, p, at + 2);
}

/* The kind the driver's list gives name; OTHER when it lists it not. */
static enum rdp_ctr_kind listed(const struct named *k, const char *name)
{
	char buf[RDP_COUNTER_NAME_MAX];
	int p;

	for (; k->name; k++)
		for (p = 0; p < n_of(k->name); p++) {
			expand(k->name, p, buf, sizeof(buf));
			if (!strcmp(buf, name))
				return k->kind;
		}
	return RDP_CTR_OTHER;
}

static const struct rdp_counter *find(const struct rdp_counters *s,
				      const char *name)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->c[i].name, name))
			return &s->c[i];
	return NULL;
}

/* Both sources of one driver into s; the count of ethtool's statistics. */
static int snapshot(const struct drv *d, const struct rdp_sysfs *fs,
		    const char *ethtool, struct rdp_counters *s)
{
	rdp_counters_snapshot(fs, d->dev, 1, s);
	assert_int_equal(s->n, d->n_sysfs);
	return rdp_ethtool_parse(ethtool, s);
}

/* Every name of each fixture sorted as its driver's list says, every
 * listed name present; only ethtool's names of a kind are kept. */
static void test_driver_kinds(void **state)
{
	struct rdp_counters s;
	struct rdp_sysfs fs;
	size_t i, k, n_eth;
	char *text, buf[RDP_COUNTER_NAME_MAX];
	const struct named *nm;
	int p;

	(void)state;
	for (i = 0; i < N_DRV; i++) {
		const struct drv *d = &drivers[i];

		drv_fs(d, &fs);
		text = drv_ethtool(d);
		assert_int_equal(snapshot(d, &fs, text, &s), d->n_stats);
		free(text);
		assert_int_equal(s.n, d->n_sysfs + d->n_ethtool);
		for (k = 0, n_eth = 0; k < s.n; k++) {
			if (rdp_counter_kind(s.c[k].name) !=
			    listed(d->kinds, s.c[k].name))
				fail_msg("%s: %s is %s", d->dir, s.c[k].name,
					 rdp_ctr_kind_name(rdp_counter_kind(
						 s.c[k].name)));
			if (s.c[k].hw != RDP_CTR_SRC_ETHTOOL)
				continue;
			n_eth++;
			assert_int_not_equal(rdp_counter_kind(s.c[k].name),
					     RDP_CTR_OTHER);
		}
		assert_int_equal(n_eth, d->n_ethtool);
		for (nm = d->kinds; nm->name; nm++)
			for (p = 0; p < n_of(nm->name); p++) {
				expand(nm->name, p, buf, sizeof(buf));
				if (!find(&s, buf))
					fail_msg("%s: no %s", d->dir, buf);
				assert_int_equal(rdp_counter_kind(buf),
						 nm->kind);
			}
	}
	/* A counter and its priority's digits: no partial matches. */
	assert_int_equal(rdp_counter_kind("rx_prio12_pause"), C);
	assert_int_equal(rdp_counter_kind("rx_prio_pause"), RDP_CTR_OTHER);
	assert_int_equal(rdp_counter_kind("rx_prio3_pause_duration"),
			 RDP_CTR_OTHER);
	assert_int_equal(rdp_counter_kind("rx_prioX_pause"), RDP_CTR_OTHER);
	assert_int_equal(rdp_counter_kind("rx_pfc_frames"), RDP_CTR_OTHER);
	/* What a rise means, for the names of each kind the table of
	 * warnings has no line of its own for. */
	assert_non_null(
		strstr(rdp_counter_warning("rx_prio3_pause"), "congestion"));
	assert_non_null(
		strstr(rdp_counter_warning("rx_crc_errors_phy"), "cable"));
	assert_non_null(strstr(rdp_counter_warning("to_retransmits"), "loss"));
	assert_null(rdp_counter_warning("rx_prio3_pause_duration"));
	assert_string_equal(rdp_ctr_kind_name(L), "link");
	assert_string_equal(rdp_ctr_kind_name(R), "retries");
	assert_string_equal(rdp_ctr_kind_name(C), "congestion");
	assert_string_equal(rdp_ctr_kind_name(RDP_CTR_OTHER), "other");
}

/* How far a bump raises name; 0 for the others. */
static uint64_t bump_of(const struct bump *b, const char *name)
{
	for (; b->name; b++)
		if (!strcmp(b->name, name))
			return b->by;
	return 0;
}

static void mkdirs(char *path)
{
	char *p;

	for (p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		assert_true(!mkdir(path, 0700) || errno == EEXIST);
		*p = '/';
	}
}

/* The fixture's counters, raised by the bumps, as a tree under root. */
static void write_after(const struct drv *d, const struct rdp_counters *s,
			const char *root)
{
	char path[PATH_MAX];
	size_t i;
	FILE *f;

	for (i = 0; i < s->n; i++) {
		if (s->c[i].hw == RDP_CTR_SRC_ETHTOOL)
			continue;
		snprintf(path, sizeof(path),
			 "%s/sys/class/infiniband/%s/ports/1/%s/%s", root,
			 d->dev, s->c[i].hw ? "hw_counters" : "counters",
			 s->c[i].name);
		mkdirs(path);
		f = fopen(path, "w");
		assert_non_null(f);
		fprintf(f, "%llu\n",
			(unsigned long long)(s->c[i].value +
					     bump_of(d->bumps, s->c[i].name)));
		assert_int_equal(fclose(f), 0);
	}
}

/* ethtool's text with the bumps: "     NAME: VALUE" lines rewritten. */
static char *ethtool_after(const struct drv *d, const char *text)
{
	size_t cap = strlen(text) * 2 + 64, used = 0;
	char *out = malloc(cap), *line, *copy = strdup(text), *save = NULL;
	char *sep;

	assert_non_null(out);
	assert_non_null(copy);
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		sep = strstr(line, ": ");
		while (sep && strstr(sep + 2, ": "))
			sep = strstr(sep + 2, ": ");
		if (!sep) {
			used += (size_t)snprintf(out + used, cap - used, "%s\n",
						 line);
			continue;
		}
		*sep = '\0';
		used += (size_t)snprintf(
			out + used, cap - used, "%s: %llu\n", line,
			strtoull(sep + 2, NULL, 10) +
				(unsigned long long)bump_of(
					d->bumps, line + strspn(line, " ")));
	}
	free(copy);
	return out;
}

/* Two snapshots, the second from a tree written with the bumps: the
 * deltas summed per kind, exactly. */
static void test_driver_deltas(void **state)
{
	struct rdp_counters *before = calloc(3, sizeof(*before));
	struct rdp_counters *after = before + 1, *delta = before + 2;
	char root[] = "/tmp/rdp-ctr-XXXXXX", cmd[PATH_MAX + 16];
	struct rdp_sysfs fs, later;
	struct rdp_ctr_sums sums;
	char *text, *text2;
	size_t i, k;

	(void)state;
	assert_non_null(before);
	for (i = 0; i < N_DRV; i++) {
		const struct drv *d = &drivers[i];

		drv_fs(d, &fs);
		text = drv_ethtool(d);
		snapshot(d, &fs, text, before);
		assert_non_null(mkdtemp(root));
		write_after(d, before, root);
		rdp_sysfs_init(&later, root);
		text2 = ethtool_after(d, text);
		assert_int_equal(snapshot(d, &later, text2, after), d->n_stats);
		rdp_counters_delta(before, after, delta);
		assert_int_equal(delta->n, before->n);
		rdp_counters_sums(delta, &sums);
		for (k = 0; k < RDP_CTR_KINDS; k++)
			if (sums.n[k] != d->sums[k])
				fail_msg(
					"%s: %s +%llu, not +%llu", d->dir,
					rdp_ctr_kind_name((enum rdp_ctr_kind)k),
					(unsigned long long)sums.n[k],
					(unsigned long long)d->sums[k]);
		/* A statistic of no kind never enters the snapshot. */
		assert_null(find(delta, "rx_packets_phy"));
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		assert_int_equal(system(cmd), 0);
		memcpy(root + strlen(root) - 6, "XXXXXX", 6);
		free(text);
		free(text2);
	}
	free(before);
}

/* The netdev under each fixture's port: the GID's, rxe's parent, or the
 * PCI function's net/ folder. */
static void test_netdev(void **state)
{
	struct rdp_sysfs fs;
	char name[64];
	size_t i;

	(void)state;
	for (i = 0; i < N_DRV; i++) {
		drv_fs(&drivers[i], &fs);
		assert_int_equal(rdp_ethtool_netdev(&fs, drivers[i].dev, 1,
						    name, sizeof(name)),
				 0);
		assert_string_equal(name, drivers[i].netdev);
	}
	drv_fs(&drivers[0], &fs);
	assert_int_equal(rdp_ethtool_netdev(&fs, "mlx5_9", 1, name,
					    sizeof(name)),
			 -ENOENT);
	assert_string_equal(name, "");
}

static void test_ethtool_text(void **state)
{
	struct rdp_counters s = { 0 };

	(void)state;
	assert_int_equal(rdp_ethtool_parse("", &s), -EINVAL);
	assert_int_equal(rdp_ethtool_parse("no statistics here\n", &s),
			 -EINVAL);
	assert_int_equal(rdp_ethtool_parse("NIC\n     rx_pause_ctrl_phy: 1\n",
					   &s),
			 -EINVAL);
	assert_int_equal(s.n, 0);
	assert_int_equal(rdp_ethtool_parse("NIC statistics:\n", &s), 0);
	assert_int_equal(s.n, 0);
	/* Values that are not counts are not statistics; names with ": "
	 * in them (bnxt_en's rings) end at the last one. */
	assert_int_equal(rdp_ethtool_parse("\nNIC statistics:\n"
					   "     rx_crc_errors_phy: x\n"
					   "     rx_symbol_err_phy: -1\n"
					   "     [0]: rx_discards: 4\n"
					   "     tx_pause_ctrl_phy: 5\n"
					   "     link_down_events_phy: 2",
					   &s),
			 3);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.c[0].name, "tx_pause_ctrl_phy");
	assert_int_equal(s.c[0].value, 5);
	assert_int_equal(s.c[0].hw, RDP_CTR_SRC_ETHTOOL);
	assert_string_equal(s.c[1].name, "link_down_events_phy");
	assert_int_equal(s.c[1].value, 2);
	/* A full snapshot takes no more. */
	s.n = RDP_COUNTERS_MAX;
	assert_int_equal(rdp_ethtool_parse("NIC statistics:\n"
					   "     rx_pause_ctrl_phy: 1\n",
					   &s),
			 1);
	assert_int_equal(s.n, RDP_COUNTERS_MAX);
	/* No such netdev: nothing added, an error. */
	s.n = 0;
	assert_true(rdp_ethtool_read("rdp-no-such0", &s) < 0);
	assert_int_equal(s.n, 0);
}

static void add(struct rdp_counters *d, const char *name, uint64_t v)
{
	struct rdp_counter *c = &d->c[d->n++];

	snprintf(c->name, sizeof(c->name), "%s", name);
	c->hw = RDP_CTR_SRC_HW;
	c->value = v;
}

/* rules over the defaults, as the option builds them */
static void rules(struct rdp_max_errors *m, const char *arg)
{
	char err[256] = "";

	rdp_max_errors_default(m);
	if (arg && rdp_max_errors_parse(m, arg, err, sizeof(err)))
		fail_msg("%s: %s", arg, err);
}

static void expect_bad(const char *arg, const char *line)
{
	struct rdp_max_errors m;
	char err[512] = "";

	rdp_max_errors_default(&m);
	assert_int_equal(rdp_max_errors_parse(&m, arg, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, line);
}

static void test_max_errors_parse(void **state)
{
	struct rdp_max_errors m;
	char many[600], key[64];
	size_t i;

	(void)state;
	rdp_max_errors_default(&m);
	assert_int_equal(m.n, 3);
	assert_int_equal(m.r[0].kind, L);
	assert_int_equal(m.r[0].any, 0);
	assert_int_equal(m.r[0].max, 0);
	assert_int_equal(m.r[1].kind, R);
	assert_int_equal(m.r[1].any, 1);
	assert_int_equal(m.r[2].kind, C);
	assert_int_equal(m.r[2].any, 1);
	rules(&m, "link=3,retries=100,symbol_error=0,congestion=any");
	assert_int_equal(m.n, 4);
	assert_int_equal(m.r[0].max, 3);
	assert_int_equal(m.r[1].any, 0);
	assert_int_equal(m.r[1].max, 100);
	assert_int_equal(m.r[2].any, 1);
	assert_string_equal(m.r[3].name, "symbol_error");
	assert_int_equal(m.r[3].kind, L);
	assert_int_equal(m.r[3].max, 0);
	/* A later rule for the same key replaces the earlier. */
	rules(&m, "retries=5,retries=7,rx_prio3_pause=2,rx_prio3_pause=any");
	assert_int_equal(m.n, 4);
	assert_int_equal(m.r[1].max, 7);
	assert_int_equal(m.r[3].kind, C);
	assert_int_equal(m.r[3].any, 1);

	expect_bad("", "--max-errors needs KIND=N, like link=0 or retries=100");
	expect_bad("link", "--max-errors needs KIND=N, like link=0 or "
			   "retries=100 (KIND: link, retries, congestion or a "
			   "counter's name; N a count or any), not \"link\"");
	expect_bad("retries=1,=5",
		   "--max-errors needs KIND=N, like link=0 or retries=100 "
		   "(KIND: link, retries, congestion or a counter's name; N "
		   "a count or any), not \"=5\"");
	expect_bad("link=", "--max-errors needs KIND=N, like link=0 or "
			    "retries=100 (KIND: link, retries, congestion or "
			    "a counter's name; N a count or any), not "
			    "\"link=\"");
	expect_bad("link=-1", "--max-errors link: \"-1\" is no count (use a "
			      "number like 0 or 100, or any)");
	expect_bad("link=+1", "--max-errors link: \"+1\" is no count (use a "
			      "number like 0 or 100, or any)");
	expect_bad("retries=12x", "--max-errors retries: \"12x\" is no count "
				  "(use a number like 0 or 100, or any)");
	expect_bad("link=99999999999999999999",
		   "--max-errors link: \"99999999999999999999\" is no count "
		   "(use a number like 0 or 100, or any)");
	expect_bad("retires=0",
		   "--max-errors: \"retires\" is no kind and no counter of "
		   "link errors, retries or congestion (use link, retries, "
		   "congestion or such a counter's name, like symbol_error)");
	expect_bad("port_xmit_data=0",
		   "--max-errors: \"port_xmit_data\" is no kind and no "
		   "counter of link errors, retries or congestion (use link, "
		   "retries, congestion or such a counter's name, like "
		   "symbol_error)");
	memset(key, 'x', 45);
	key[45] = '\0';
	snprintf(many, sizeof(many), "%s=1", key);
	expect_bad(many, "--max-errors: \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
			 "xxxxxxxxx\" is no kind or counter name (use link, "
			 "retries, congestion or a counter's name)");
	/* 3 defaults and 13 counters fit; the 14th counter does not. */
	snprintf(many, sizeof(many),
		 "symbol_error=1,link_downed=1,link_error_recovery=1,"
		 "port_rcv_errors=1,port_xmit_discards=1,out_of_sequence=1,"
		 "packet_seq_err=1,duplicate_request=1,"
		 "local_ack_timeout_err=1,np_cnp_sent=1,rp_cnp_handled=1,"
		 "port_xmit_wait=1,rx_crc_errors_phy=1");
	rules(&m, many);
	assert_int_equal(m.n, RDP_MAX_ERRORS_RULES);
	strcat(many, ",rx_symbol_err_phy=1");
	expect_bad(many, "--max-errors: more than 16 rules; give fewer");
	for (i = 0; i < 520; i++)
		many[i] = 'a';
	many[520] = '\0';
	expect_bad(many, "--max-errors: the list is too long");
}

/* d against rules from arg: 0 within; 1 with the line why. */
static void check(const char *arg, const struct rdp_counters *d,
		  const char *why)
{
	struct rdp_max_errors m;
	char got[256] = "";
	uint64_t count = 7, max = 7;

	rules(&m, arg);
	assert_int_equal(rdp_max_errors_check(&m, d, got, sizeof(got)),
			 why != NULL);
	assert_int_equal(rdp_max_errors_over(&m, d, &count, &max, got,
					     sizeof(got)),
			 why != NULL);
	if (why)
		assert_string_equal(got, why);
}

static void test_max_errors_check(void **state)
{
	struct rdp_counters d = { 0 };
	struct rdp_max_errors m;
	uint64_t count = 0, max = 9;
	char why[256];

	(void)state;
	/* The defaults: no link error; retries and congestion any. */
	add(&d, "symbol_error", 1);
	check(NULL, &d,
	      "link errors +1 (symbol_error +1) over the limit of 0 "
	      "(--max-errors link=0)");
	d.n = 0;
	add(&d, "out_of_sequence", 1000);
	add(&d, "np_cnp_sent", 5);
	add(&d, "port_xmit_data", 1000000);
	check(NULL, &d, NULL);
	/* A kind's rule over the sum of its counters. */
	d.n = 0;
	add(&d, "out_of_sequence", 6);
	add(&d, "packet_seq_err", 5);
	check("retries=10", &d,
	      "transport retries +11 (out_of_sequence +6, packet_seq_err +5) "
	      "over the limit of 10 (--max-errors retries=10)");
	rules(&m, "retries=10");
	assert_int_equal(
		rdp_max_errors_over(&m, &d, &count, &max, why, sizeof(why)), 1);
	assert_int_equal(count, 11);
	assert_int_equal(max, 10);
	d.c[0].value = 4;
	check("retries=10", &d, NULL);
	/* A counter's own rule replaces its kind's, for it alone. */
	d.n = 0;
	add(&d, "symbol_error", 5);
	check("symbol_error=5", &d, NULL);
	d.c[0].value = 6;
	check("symbol_error=5", &d,
	      "symbol_error +6 over the limit of 5 (--max-errors "
	      "symbol_error=5)");
	d.c[0].value = 3;
	add(&d, "link_downed", 1);
	check("symbol_error=5", &d,
	      "link errors +1 (link_downed +1) over the limit of 0 "
	      "(--max-errors link=0)");
	/* any */
	d.n = 0;
	add(&d, "symbol_error", 100);
	check("link=any", &d, NULL);
	d.n = 0;
	add(&d, "out_of_sequence", 50);
	check("retries=0,out_of_sequence=any", &d, NULL);
	add(&d, "packet_seq_err", 1);
	check("retries=0,out_of_sequence=any", &d,
	      "transport retries +1 (packet_seq_err +1) over the limit of 0 "
	      "(--max-errors retries=0)");
	d.n = 0;
	add(&d, "np_cnp_sent", 60);
	add(&d, "rx_prio3_pause", 41);
	check("congestion=100", &d,
	      "congestion counters +101 (np_cnp_sent +60, rx_prio3_pause +41) "
	      "over the limit of 100 (--max-errors congestion=100)");
	check("congestion=101", &d, NULL);
}

static void test_max_errors_cli(void **state)
{
	struct rdp_opts o;
	char err[512];
	const struct rdp_max_errors *m = &o.limits.limits.max_errors;

	(void)state;
	assert_int_equal(CLIENT(&o, err, "write_bw", "h"), 0);
	assert_int_equal(m->n, 0);
	assert_int_equal(CLIENT(&o, err, "write_bw", "--max-errors",
				"retries=0,symbol_error=2", "h"),
			 0);
	assert_int_equal(m->n, 4);
	assert_int_equal(m->r[0].kind, L);
	assert_int_equal(m->r[0].max, 0);
	assert_int_equal(m->r[1].any, 0);
	assert_string_equal(m->r[3].name, "symbol_error");
	assert_int_equal(m->r[3].max, 2);
	assert_int_equal(CLIENT(&o, err, "write_lat", "--max-errors",
				"link=any", "h"),
			 0);
	assert_int_equal(m->r[0].any, 1);
	assert_int_equal(CLIENT(&o, err, "write_bw", "--max-errors",
				"retires=0", "h"),
			 -EINVAL);
	assert_non_null(strstr(err, "\"retires\" is no kind"));
	assert_int_equal(CLIENT(&o, err, "write_bw", "--max-errors", "h"),
			 -EINVAL);
}

static char *verdict_text(struct rdp_verdict *v, const struct rdp_ctr_pair *p,
			  int points)
{
	struct rdp_result r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int i;

	assert_non_null(f);
	memset(&r, 0, sizeof(r));
	r.size_bytes = 65536;
	r.num_qps = 2;
	for (i = 0; i < points; i++)
		rdp_verdict_point(v, f, &r, p, NULL);
	rdp_verdict_finish(v, f, NULL);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* Each side's deltas judged; one port of both ends once; the sums in
 * JSON. */
static void test_verdict_errors(void **state)
{
	struct rdp_ctr_pair *p = calloc(1, sizeof(*p));
	struct rdp_verdict v = { .is_bw = 1 };
	char *t;
	json_t *j;

	(void)state;
	assert_non_null(p);
	snprintf(p->dev, sizeof(p->dev), "rxe1");
	p->port = 1;
	p->have_local = p->have_peer = 1;
	add(&p->local, "rcvd_seq_err", 12);
	add(&p->local, "sent_pkts", 4000);
	add(&p->peer, "out_of_seq_request", 9);
	/* The defaults let retries pass, with no Limits line. */
	t = verdict_text(&v, p, 1);
	assert_string_equal(t, "");
	free(t);
	assert_int_equal(v.n_failed, 0);
	/* --max-errors retries=0: both sides fail, each named. */
	memset(&v, 0, sizeof(v));
	rules(&v.lim.max_errors, "retries=0");
	t = verdict_text(&v, p, 1);
	assert_string_equal(
		t, "   ^ FAIL this side's port (rxe1 port 1): transport "
		   "retries +12 (rcvd_seq_err +12) over the limit of 0 "
		   "(--max-errors retries=0)\n"
		   "   ^ FAIL the peer's port: transport retries +9 "
		   "(out_of_seq_request +9) over the limit of 0 "
		   "(--max-errors retries=0)\n"
		   " Limits          : FAIL (1 of 1 points fail)\n");
	free(t);
	/* The default link=0 on the peer, with no option given. */
	memset(&v, 0, sizeof(v));
	add(&p->peer, "link_downed", 1);
	t = verdict_text(&v, p, 2);
	assert_string_equal(
		t, "   ^ FAIL the peer's port: link errors +1 (link_downed +1) "
		   "over the limit of 0 (--max-errors link=0)\n"
		   "   ^ FAIL the peer's port: link errors +1 (link_downed +1) "
		   "over the limit of 0 (--max-errors link=0)\n"
		   " Limits          : FAIL (2 of 2 points fail)\n");
	free(t);
	/* One port seen from both ends: judged once, on this side's. */
	memset(&v, 0, sizeof(v));
	p->same_port = 1;
	snprintf(p->dev, sizeof(p->dev), "rxe0");
	add(&p->local, "link_downed", 2);
	t = verdict_text(&v, p, 1);
	assert_string_equal(
		t,
		"   ^ FAIL the port (rxe0 port 1, both ends): link errors +2 "
		"(link_downed +2) over the limit of 0 (--max-errors "
		"link=0)\n"
		" Limits          : FAIL (1 of 1 points fail)\n");
	free(t);
	/* The sums per kind, each side; ethtool's in their own object. */
	j = rdp_json_errors(p);
	t = json_dumps(j, JSON_COMPACT);
	assert_string_equal(t, "{\"local\":{\"link\":2,\"retries\":12,"
			       "\"congestion\":0},\"peer\":{\"link\":1,"
			       "\"retries\":9,\"congestion\":0}}");
	free(t);
	json_decref(j);
	p->have_peer = 0;
	p->local.c[1].hw = RDP_CTR_SRC_ETHTOOL;
	snprintf(p->local.c[1].name, sizeof(p->local.c[1].name),
		 "rx_prio3_pause");
	j = rdp_json_errors(p);
	t = json_dumps(j, JSON_COMPACT);
	assert_string_equal(t, "{\"local\":{\"link\":2,\"retries\":12,"
			       "\"congestion\":4000},\"peer\":null}");
	free(t);
	json_decref(j);
	j = rdp_json_counters(p);
	t = json_dumps(j, JSON_COMPACT);
	assert_string_equal(t, "{\"local\":{\"port_counters\":{},"
			       "\"hw_counters\":{\"rcvd_seq_err\":12,"
			       "\"link_downed\":2},\"ethtool\":{"
			       "\"rx_prio3_pause\":4000}},\"peer\":null}");
	free(t);
	json_decref(j);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_driver_kinds),
		cmocka_unit_test(test_driver_deltas),
		cmocka_unit_test(test_netdev),
		cmocka_unit_test(test_ethtool_text),
		cmocka_unit_test(test_max_errors_parse),
		cmocka_unit_test(test_max_errors_check),
		cmocka_unit_test(test_max_errors_cli),
		cmocka_unit_test(test_verdict_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
