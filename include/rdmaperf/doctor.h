/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Preflight checks of one device port: every verdict is computed from what
 * struct rdp_sysfs reads (fixture trees in the tests) plus the few figures
 * only verbs know, which the caller passes in.
 * Layer: cli
 */
#ifndef RDMAPERF_DOCTOR_H
#define RDMAPERF_DOCTOR_H

#include <stddef.h>
#include <stdint.h>

#include <rdmaperf/gid.h>
#include <rdmaperf/log.h>

struct rdp_sysfs;
struct in_addr;
struct rdp_msg_accept;
struct rdp_topo_report;

enum rdp_verdict {
	RDP_PASS = 0,
	RDP_WARN,
	RDP_FAIL,
	RDP_SKIP, /* the check could not be made; value says why */
};

struct rdp_check {
	const char *id;	   /* stable key: "pcie_link" */
	const char *title; /* "PCIe link" */
	enum rdp_verdict verdict;
	char value[192]; /* what was measured */
	char fix[320];	 /* what to try, for anything but PASS */
};

/* Figures from ibv_query_port(); 0 when the port could not be queried. */
struct rdp_doctor_verbs {
	uint32_t active_mtu_bytes;
	uint32_t max_mtu_bytes;
};

#define RDP_DOCTOR_MAX_CHECKS 24
#define RDP_DOCTOR_MAX_GIDS   64

struct rdp_doctor {
	char dev[64];
	int port;
	int link_eth; /* RoCE: GID types and netdev MTU apply */
	char netdev[32];
	int numa_node; /* -1 unknown */
	char local_cpus[256];
	struct rdp_gid_entry gids[RDP_DOCTOR_MAX_GIDS];
	size_t n_gids;
	int chosen_gid; /* table index of the GID a test would use, -1 */
	struct rdp_check checks[RDP_DOCTOR_MAX_CHECKS];
	size_t n_checks;
	/* hwloc's view for the report; the caller's, NULL when not read. */
	const struct rdp_topo_report *topo;
};

/*
 * The first device (sorted by name) whose port is ACTIVE, else the first
 * device at all; -ENODEV when there is none.
 */
int rdp_doctor_pick_device(const struct rdp_sysfs *fs, int port, char *name,
			   size_t len);

/* Run every local check of dev/port into doc (always complete). */
void rdp_doctor_local(const struct rdp_sysfs *fs, const char *dev, int port,
		      const struct rdp_doctor_verbs *verbs,
		      const struct in_addr *local_ipv4, struct rdp_doctor *doc);

/*
 * The topology checks (PCIe path, GPUs near the NIC) from r, which doc
 * keeps pointing to: call after rdp_doctor_local.
 */
void rdp_doctor_check_topo(struct rdp_doctor *doc,
			   const struct rdp_topo_report *r);

/* The pair checks against a server's ACCEPT: MTU and GID type agreement. */
void rdp_doctor_pair(struct rdp_doctor *doc,
		     const struct rdp_doctor_verbs *verbs,
		     const struct rdp_msg_accept *peer);

/* Append a check; NULL when the table is full. */
struct rdp_check *rdp_doctor_add(struct rdp_doctor *doc, const char *id,
				 const char *title, enum rdp_verdict v);

/* NULL when absent. */
const struct rdp_check *rdp_doctor_find(const struct rdp_doctor *doc,
					const char *id);

const char *rdp_verdict_str(enum rdp_verdict v);

/* The IB MTU a RoCE port gets from its netdev's MTU; 0 below 256. */
uint32_t rdp_doctor_roce_mtu(uint32_t netdev_mtu);

/* snprintf into a check's value or fix. */
void rdp_doctor_say(char *buf, size_t len, const char *fmt, ...)
	RDP_PRINTF(3, 4);

/* snprintf into c's fix when c's verdict is when; else nothing. */
void rdp_doctor_fix(struct rdp_check *c, enum rdp_verdict when, const char *fmt,
		    ...) RDP_PRINTF(3, 4);

/* Counts per verdict, indexed by enum rdp_verdict. */
void rdp_doctor_tally(const struct rdp_doctor *doc, size_t counts[4]);

#endif /* RDMAPERF_DOCTOR_H */
