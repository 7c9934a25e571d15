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
#include <stdio.h>

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

/*
 * The fleet doctor (rdmaperf-mesh --doctor): what one rank's device and
 * host are, as fixed fields swapped by the bootstrap, and which nodes
 * differ from the most common value of each fact.
 */
enum rdp_fact_id {
	RDP_FACT_PORT_STATE,
	RDP_FACT_LINK_LAYER,
	RDP_FACT_RATE,
	RDP_FACT_WIDTH,
	RDP_FACT_MTU_ACTIVE,
	RDP_FACT_MTU_MAX,
	RDP_FACT_NETDEV_MTU,
	RDP_FACT_FW,
	RDP_FACT_PCIE_SPEED,
	RDP_FACT_PCIE_WIDTH,
	RDP_FACT_PCIE_MAX_SPEED,
	RDP_FACT_PCIE_MAX_WIDTH,
	RDP_FACT_GID_TYPE,
	RDP_FACT_GID_INDEX,
	RDP_FACT_PKEYS,
	RDP_FACT_ECN_NP,
	RDP_FACT_ECN_RP,
	RDP_FACT_PFC,
	RDP_FACT_TRUST,
	RDP_FACT_NUMA,
	RDP_FACT_GOVERNOR,
	RDP_FACT_MEMLOCK,
	RDP_FACT_CSTATES,
	RDP_FACT_RDMA_CM,
	RDP_FACT_N
};

/* How a fact's values compare: as numbers (num) or as text. */
enum rdp_fact_kind {
	RDP_FACT_NUM,
	RDP_FACT_TEXT
};

struct rdp_fact_def {
	const char *id;	   /* stable key: "mtu_active" */
	const char *title; /* "active MTU" */
	enum rdp_fact_kind kind;
};

/* The definition of fact id; NULL out of range. */
const struct rdp_fact_def *rdp_fact_def(enum rdp_fact_id id);

struct rdp_doctor_fact {
	int32_t readable; /* 0: unreadable here, never compared */
	int64_t num;	  /* RDP_FACT_NUM: the value compared */
	char text[64];	  /* what is shown (and compared for TEXT) */
};

/* One rank's facts: the same binary layout on every rank. */
struct rdp_doctor_facts {
	char node[64]; /* RDP_MESH_NODE, else the host name */
	char dev[64];
	int32_t status; /* 0, or -errno: no device (why says it) */
	char why[160];
	struct rdp_doctor_fact f[RDP_FACT_N];
};

/* The MTUs from ibv_query_port() of name's port; zeros when unknown. */
void rdp_doctor_query_verbs(const char *name, int port,
			    struct rdp_doctor_verbs *v);

/*
 * The facts of doc's device (rdp_doctor_local has run on fs) into f:
 * node, dev and status untouched; what fs cannot tell stays unreadable.
 */
void rdp_doctor_facts_of(const struct rdp_sysfs *fs,
			 const struct rdp_doctor *doc,
			 const struct rdp_doctor_verbs *verbs,
			 struct rdp_doctor_facts *f);

/*
 * This host's facts of dev's port (NULL or "": the doctor's pick) into f
 * (node untouched). 0, or -ENODEV / -ENOMEM with f->status and f->why set.
 */
int rdp_doctor_facts_local(const char *dev, int port,
			   struct rdp_doctor_facts *f);

/*
 * A node that differs: facts[node]'s value of fact is not the most common
 * one among the ranks of its rail that could read it. other: a rank
 * holding the most common value (tie: another of the tied values),
 * other_count how many hold it, own_count how many hold node's value,
 * readable how many could read the fact.
 */
struct rdp_doctor_diff {
	size_t node;
	enum rdp_fact_id fact;
	size_t other;
	size_t other_count, own_count, readable;
	int tie; /* no single most common value */
};

/* Each rank's rail (its place among the ranks of its node name) into
 * rail_of; returns the number of rails. */
unsigned int rdp_doctor_rails(const struct rdp_doctor_facts *all, size_t n,
			      unsigned int *rail_of);

/*
 * Every difference among the n ranks' facts (those with a status other
 * than 0 left out), compared rail by rail; out has room for n *
 * RDP_FACT_N. Returns how many, in rank order then fact order; -ENOMEM.
 */
long rdp_doctor_compare(const struct rdp_doctor_facts *all, size_t n,
			struct rdp_doctor_diff *out);

/* The text report: a summary line, a line per rank without a device and
 * a line per difference ("node3 (rxe3): active MTU 1024; the majority (5
 * of 6): 4096"). */
void rdp_doctor_fleet_print(FILE *out, const struct rdp_doctor_facts *all,
			    size_t n, const struct rdp_doctor_diff *d,
			    size_t nd);

struct json_t;
/* doctor.json: every rank's facts and the differences; NULL out of
 * memory. */
struct json_t *rdp_doctor_fleet_json(const struct rdp_doctor_facts *all,
				     size_t n, const struct rdp_doctor_diff *d,
				     size_t nd, double elapsed_s);

#endif /* RDMAPERF_DOCTOR_H */
