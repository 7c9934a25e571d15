/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * `rdmaperf doctor [-d DEV] [-i PORT] [HOST]`: the preflight walk an
 * engineer does by hand (port, link, MTU, GIDs, PCIe, NUMA, limits), each
 * line a verdict with the measured value and the fix to try.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>

#include "doctor_cmd.h"
#include <rdmaperf/engine.h>
#include <rdmaperf/log.h>
#include <rdmaperf/opts.h>
#include <rdmaperf/secret.h>
#include <rdmaperf/session.h>
#include <rdmaperf/sysfs.h>
#include <rdmaperf/tool.h>
#include <rdmaperf/topo.h>

static void more_help(FILE *f)
{
	fprintf(f, "\nExit status: 0 when no check FAILs, 1 otherwise, 77 "
		   "without a device.\n");
}

/* 0 to run, 1 when --help was printed, -EINVAL on a bad command line. */
static int parse(int argc, char **argv, struct doctor_opts *o,
		 struct rdp_secret *secret)
{
	static struct rdp_opts all; /* large: kept off the stack */
	struct rdp_cli_table t = rdp_cli_doctor;
	char err[256];
	int ret;

	t.more_help = more_help;
	memset(&all, 0, sizeof(all));
	memset(o, 0, sizeof(*o));
	rdp_cli_defaults(&t, &all);
	ret = rdp_cli_parse(&t, argc, argv, &all, err, sizeof(err));
	if (ret < 0) {
		rdp_err("%s", err);
		return -EINVAL;
	}
	if (ret == RDP_PARSE_EXIT)
		return 1;
	if (argc - optind > 1) {
		rdp_err("unexpected argument '%s': give at most one HOST",
			argv[optind + 1]);
		return -EINVAL;
	}
	if (optind < argc) {
		if (strlen(argv[optind]) >= sizeof(o->host)) {
			rdp_err("host name too long");
			return -EINVAL;
		}
		snprintf(o->host, sizeof(o->host), "%s", argv[optind]);
	}
	/* The pair check talks to the server as a client does. */
	if (o->host[0] && rdp_session_load_secret(&all, 1, secret))
		return -EINVAL;
	o->secret = all.conn.secret;
	snprintf(o->dev, sizeof(o->dev), "%s", all.conn.dev);
	o->port = all.conn.ib_port;
	o->tcp_port = all.conn.tcp_port;
	o->timeout_ms = all.conn.oob_timeout_ms;
	o->json = all.report.json;
	return 0;
}

static void print_gids(const struct rdp_doctor *doc)
{
	const struct rdp_gid_entry *g;
	char gid[64], v4[INET_ADDRSTRLEN];
	size_t i;

	printf("\n GID table of %s port %d:\n  %-5s %-40s %-15s %-9s %s\n",
	       doc->dev, doc->port, "Index", "GID", "IPv4", "Type", "Netdev");
	for (i = 0; i < doc->n_gids; i++) {
		g = &doc->gids[i];
		rdp_gid_format(g->raw, gid, sizeof(gid));
		v4[0] = '\0';
		if (rdp_gid_is_ipv4_mapped(g->raw))
			inet_ntop(AF_INET, g->raw + 12, v4, sizeof(v4));
		printf("  %-5d %-40s %-15s %-9s %s%s\n", g->index, gid, v4,
		       rdp_gid_type_str(g->type), g->ndev[0] ? g->ndev : "-",
		       (int)i == doc->chosen_gid ? "   <- used by rdmaperf"
						 : "");
	}
	if (!doc->n_gids)
		printf("  (empty)\n");
}

static void print_text(const struct rdp_doctor *doc)
{
	const struct rdp_check *c;
	size_t i, n[4];

	printf("rdmaperf doctor: %s port %d%s%s%s\n\n", doc->dev, doc->port,
	       doc->netdev[0] ? " (netdev " : "", doc->netdev,
	       doc->netdev[0] ? ")" : "");
	for (i = 0; i < doc->n_checks; i++) {
		c = &doc->checks[i];
		printf(" %-4s  %-15s %s\n", rdp_verdict_str(c->verdict),
		       c->title, c->value);
		if (c->verdict != RDP_PASS && c->fix[0])
			printf("       %-15s fix: %s\n", "", c->fix);
	}
	print_gids(doc);
	rdp_doctor_tally(doc, n);
	printf("\n Summary: %zu PASS, %zu WARN, %zu FAIL, %zu SKIP\n",
	       n[RDP_PASS], n[RDP_WARN], n[RDP_FAIL], n[RDP_SKIP]);
}

static int doctor_main(int argc, char **argv)
{
	struct doctor_peer peer = { 0 };
	struct rdp_topo_report topo;
	struct rdp_doctor_verbs verbs;
	struct rdp_doctor doc;
	struct rdp_secret *secret;
	struct doctor_opts o;
	struct rdp_sysfs fs;
	size_t n[4];
	int ret;

	ret = rdp_secret_new(&secret);
	if (ret) {
		rdp_err("memory for the shared secret: %s", strerror(-ret));
		return RDP_EXIT_FAIL;
	}
	ret = parse(argc, argv, &o, secret);
	if (ret) {
		rdp_secret_free(secret);
		return ret > 0 ? RDP_EXIT_OK : RDP_EXIT_USAGE;
	}
	rdp_sysfs_init(&fs, NULL);
	if (!o.dev[0] &&
	    rdp_doctor_pick_device(&fs, o.port, o.dev, sizeof(o.dev))) {
		rdp_err("no RDMA devices found: load the NIC's driver (or "
			"create a Soft-RoCE device: rdma link add rxe0 type "
			"rxe netdev IF)");
		rdp_secret_free(secret);
		return RDP_EXIT_UNSUPPORTED;
	}
	if (!rdp_sysfs_exists(&fs, "/sys/class/infiniband/%s", o.dev)) {
		rdp_err("device '%s' not found: see `ibv_devices`", o.dev);
		rdp_secret_free(secret);
		return RDP_EXIT_UNSUPPORTED;
	}
	rdp_doctor_query_verbs(o.dev, o.port, &verbs);
	/* With HOST first: the GID the tests pick depends on our address. */
	if (o.host[0])
		rdp_doctor_probe_peer(&o, &peer);
	rdp_secret_free(secret);
	o.secret = NULL;
	rdp_doctor_local(&fs, o.dev, o.port, &verbs,
			 peer.have_local_ipv4 ? &peer.local_ipv4 : NULL, &doc);
	rdp_topo_report_read(&fs, NULL, o.dev, &topo);
	rdp_doctor_check_topo(&doc, &topo);
	if (o.host[0])
		rdp_doctor_pair_checks(&o, &doc, &verbs, &peer);
	if (o.json)
		ret = rdp_doctor_print_json(&o, &doc, o.host[0] ? &peer : NULL);
	else
		print_text(&doc);
	if (ret)
		return RDP_EXIT_FAIL;
	rdp_doctor_tally(&doc, n);
	return n[RDP_FAIL] ? RDP_EXIT_FAIL : RDP_EXIT_OK;
}

const struct rdp_tool rdp_tool_doctor = {
	.name = "doctor",
	.summary = "check a device port and the host for what makes RDMA "
		   "slow or fail",
	.opts = &rdp_cli_doctor,
	.main = doctor_main,
};
