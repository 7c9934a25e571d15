/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The fabric under a cluster mesh: switches, each node's rails cabled to
 * leaf ports, and the leaf-spine uplinks; read from ibnetdiscover's output
 * or a plain list of links, or made up (a synthetic leaf-spine). Bound to a
 * mesh's nodes, it places every cell on its path, names the smallest parts
 * that explain the bad cells (locate.c), and drives the simulator that
 * proves that analysis at scale (simulate.c).
 * Layer: mesh
 */
#ifndef RDMAPERF_MESH_TOPO_H
#define RDMAPERF_MESH_TOPO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct rdp_mesh;
struct rdp_mesh_plan;
struct rdp_mesh_topo;
struct rdp_mesh_place;
struct rdp_mesh_faults;
struct rdp_mesh_plan_opts;

/* ---- The fabric ---- */

/* A node's rail: its NIC port cabled to a leaf's port. */
struct rdp_mesh_topo_port {
	unsigned int sw;   /* switch number */
	unsigned int port; /* the switch's port */
	const char *dev;   /* the NIC ("mlx5_0"), NULL when the file has none */
};

/* A switch-to-switch link; a is the leaf when one end is a leaf. */
struct rdp_mesh_topo_link {
	unsigned int a, a_port;
	unsigned int b, b_port;
};

/*
 * The fabric in path: ibnetdiscover's output when the file has a
 * "Switch" or "Ca" block, else the plain list, one link a line:
 *   NODE RAIL SWITCH PORT      a node's rail (0-based) on a switch port
 *   SWITCH PORT SWITCH PORT    a switch-to-switch link
 * with # comments. A line is a switch link when its first word names a
 * switch, i.e. a word that stands third on some line: write leaf-spine
 * links leaf first (or name each spine third once). ibnetdiscover: a CA's
 * description's first word is its host, the CA's name ("mlx5_0") its
 * device, and a host's rails are its connected CA ports sorted by device
 * name, then port. A switch is named by its description ("MF0;leaf3:..."
 * gives leaf3), else its GUID. Switches with a node cable are leaves, the
 * others spines. -EINVAL with one line "FILE:LINE: problem" in why, or
 * -errno (the file), -ENOMEM.
 */
int rdp_mesh_topo_load(const char *path, struct rdp_mesh_topo **out, char *why,
		       size_t len);
/* The same from text in memory; name stands for the file in why. */
int rdp_mesh_topo_parse(const char *text, const char *name,
			struct rdp_mesh_topo **out, char *why, size_t len);

/*
 * A synthetic leaf-spine fabric, rail-optimised: nodes "node0"... with
 * `rails` rails; rail r of every node is on leaf group r, `leaves`
 * leaves a group ("leaf<r*leaves+i>"), node n on leaf n / ceil(nodes /
 * leaves) of its group at port 1 + its place there; `spines` spines
 * ("spine<s>"), every leaf joined to every spine by one link (leaf port
 * per-leaf + 1 + s, spine port 1 + leaf). -EINVAL (a count of 0, more
 * leaves than nodes), -ENOMEM.
 */
int rdp_mesh_topo_synthetic(unsigned int nodes, unsigned int rails,
			    unsigned int leaves, unsigned int spines,
			    struct rdp_mesh_topo **out);
void rdp_mesh_topo_free(struct rdp_mesh_topo *t);

unsigned int rdp_mesh_topo_n_switches(const struct rdp_mesh_topo *t);
unsigned int rdp_mesh_topo_n_hosts(const struct rdp_mesh_topo *t);
unsigned int rdp_mesh_topo_n_links(const struct rdp_mesh_topo *t);
const char *rdp_mesh_topo_switch_name(const struct rdp_mesh_topo *t,
				      unsigned int sw);
int rdp_mesh_topo_is_leaf(const struct rdp_mesh_topo *t, unsigned int sw);
const char *rdp_mesh_topo_host_name(const struct rdp_mesh_topo *t,
				    unsigned int h);
unsigned int rdp_mesh_topo_host_rails(const struct rdp_mesh_topo *t,
				      unsigned int h);
/* Host h's rail, NULL past its last. */
const struct rdp_mesh_topo_port *
rdp_mesh_topo_host_port(const struct rdp_mesh_topo *t, unsigned int h,
			unsigned int rail);
const struct rdp_mesh_topo_link *
rdp_mesh_topo_link_at(const struct rdp_mesh_topo *t, unsigned int i);
/* By name: the number, or -ENOENT. */
int rdp_mesh_topo_find_switch(const struct rdp_mesh_topo *t, const char *name);
int rdp_mesh_topo_find_host(const struct rdp_mesh_topo *t, const char *name);

/* ---- A mesh's nodes on the fabric ---- */

/*
 * Bind the mesh's nodes (names[0..nodes-1]) and rails 0..rails-1 to the
 * fabric t (which must outlive the binding): each name is a host of t,
 * matched whole, else by its short name (up to the first '.') on either
 * side. A node the fabric lacks, or lacking one of the rails, is an
 * error naming it (a path the fabric cannot show would be blamed on the
 * wrong parts); hosts of t outside the mesh are fine. -EINVAL with one
 * line in why, -ENOMEM.
 */
int rdp_mesh_place_create(const struct rdp_mesh_topo *t,
			  const char *const *names, unsigned int nodes,
			  unsigned int rails, struct rdp_mesh_place **out,
			  char *why, size_t len);
void rdp_mesh_place_free(struct rdp_mesh_place *p);
const struct rdp_mesh_topo *rdp_mesh_place_topo(const struct rdp_mesh_place *p);

/* One way across the spines: up from the sender's leaf, down to the
 * receiver's; weight: its share of the transfer's cells. */
struct rdp_mesh_hop {
	unsigned int spine;    /* switch number */
	unsigned int up, down; /* link numbers */
	double weight;	       /* 1 / (spines x parallel links) */
};

/* A cell's path: the sender's NIC and cable, its leaf, the hops, the
 * receiver's leaf, cable and NIC. */
struct rdp_mesh_path {
	unsigned int tx_leaf, tx_port; /* switch number, its port */
	unsigned int rx_leaf, rx_port;
	size_t n_hops; /* 0: both on one leaf */
};

/*
 * The path of a cell of mesh nodes tx -> rx on rail; its hops into
 * hops (room for cap; path->n_hops says how many there are, also past
 * cap). Between leaves a transfer crosses one spine that both leaves
 * reach, ECMP choosing which: each of the S such spines takes 1/S of the
 * weight, split evenly over parallel links. Only leaf-spine fabrics are
 * placed: a leaf-leaf or spine-spine link is never on a path. -EINVAL (a
 * node or rail out of range), -EHOSTUNREACH (the leaves share no spine).
 */
int rdp_mesh_place_path(const struct rdp_mesh_place *p, unsigned int tx,
			unsigned int rx, unsigned int rail,
			struct rdp_mesh_path *path, struct rdp_mesh_hop *hops,
			size_t cap);

/* ---- A plan that covers the fabric (--pattern cover) ---- */

/* The groups of --pattern cover over a mesh's nodes on the fabric. */
struct rdp_mesh_cover {
	unsigned int *group;   /* per node: its group */
	unsigned int *quota;   /* per group: nodes crossing the spines */
	unsigned int *uplinks; /* per group: its rail 0 leaf's uplinks */
	unsigned int groups;
	unsigned int load_pct;
};

/*
 * The groups of p's nodes: the nodes whose leaves are the same on every
 * rail (a rail-optimised fabric: one leaf a rail for each group), in
 * order of their first node. Group g's quota, the nodes that cross the
 * spines in one pairing: min(n_g, max(1, ceil(load_pct / 100 x u_g))),
 * u_g the uplinks of its rail 0 leaf, every link taken at the NIC's rate
 * (a topology file gives no rates); 0 for a leaf with no uplink (a
 * fabric of one leaf). load_pct 1..100. 0, -EINVAL, -ENOMEM.
 */
int rdp_mesh_cover_of(const struct rdp_mesh_place *p, unsigned int load_pct,
		      struct rdp_mesh_cover *out);
void rdp_mesh_cover_fini(struct rdp_mesh_cover *c);
/* o's cover fields pointed at c's (c must outlive o's use). */
void rdp_mesh_cover_plan_opts(const struct rdp_mesh_cover *c,
			      struct rdp_mesh_plan_opts *o);

/* What the cells of a mesh covered of the fabric. */
struct rdp_mesh_cover_reach {
	unsigned int cables, cables_all; /* node rails in a cell / all */
	unsigned int both_ways;		 /* cables that sent and received */
	/* Leaf-spine links of the leaves the mesh's nodes are on: those a
	 * cell may have crossed (ECMP picks one of its candidates: each
	 * candidate counts, "expected"), of all; those that were a cell's
	 * only way ("sure"). */
	unsigned int uplinks, uplinks_all, uplinks_sure;
};

/*
 * From the paths of m's measured cells (OK or flagged; failed and
 * skipped ones carried no traffic) placed by p. 0, -EINVAL (p's node
 * count differs), -ENOMEM.
 */
int rdp_mesh_cover_reach_of(const struct rdp_mesh *m,
			    const struct rdp_mesh_place *p,
			    struct rdp_mesh_cover_reach *out);
/* mesh.json's "cover" from r (copied; NULL: none, the key left out). */
int rdp_mesh_set_cover(struct rdp_mesh *m,
		       const struct rdp_mesh_cover_reach *r);

/* ---- The faults that explain the bad cells ---- */

enum rdp_mesh_part {
	RDP_MESH_PART_NODE,   /* every rail of a node: its host or NICs */
	RDP_MESH_PART_CABLE,  /* one rail: the NIC port and its cable */
	RDP_MESH_PART_LEAF,   /* a leaf switch */
	RDP_MESH_PART_UPLINK, /* a leaf-spine link */
	RDP_MESH_PART_SPINE,
	RDP_MESH_N_PARTS
};

#define RDP_MESH_FAULT_MAX_CAND 64

struct rdp_mesh_fault {
	enum rdp_mesh_part kind;
	char name[256];	     /* "leaf3 port 12 (node17's rail 2 cable)" */
	int node, rail;	     /* NODE, CABLE (mesh numbers); -1 otherwise */
	int sw, port;	     /* CABLE: leaf and port; LEAF, UPLINK: the leaf
			 * (UPLINK: its port when one link); SPINE: the
			 * spine when one; -1 otherwise */
	int peer, peer_port; /* UPLINK: the spine and its port when one */
	/* UPLINK: the links, SPINE: the spines, that ECMP leaves equally
	 * likely (n_cand 1: this one); others n_cand 0. */
	unsigned int cand[RDP_MESH_FAULT_MAX_CAND];
	unsigned int n_cand;
	double bad, total;		 /* cells through it, ECMP-weighted */
	double around_bad, around_total; /* through its peers (see locate) */
	double score;			 /* log-likelihood ratio */
	double confidence;		 /* [0, 1] */
};

/*
 * Name the parts that explain the flagged and failed cells of the
 * analysed mesh m (rdp_mesh_analyze; a cell whose retest cleared counts
 * as good), placed by p: greedy explain-away, see locate.c. *out holds
 * them in the order found (none: an empty list). -EINVAL before an
 * analysis or when p's node count differs, -ENOMEM.
 */
int rdp_mesh_locate(const struct rdp_mesh *m, const struct rdp_mesh_place *p,
		    struct rdp_mesh_faults **out);
void rdp_mesh_faults_free(struct rdp_mesh_faults *f);
size_t rdp_mesh_faults_n(const struct rdp_mesh_faults *f);
const struct rdp_mesh_fault *rdp_mesh_fault_at(const struct rdp_mesh_faults *f,
					       size_t i);
const char *rdp_mesh_part_name(enum rdp_mesh_part k); /* "cable" ... */
/* One line a fault, "fault 1: ...", or one saying there is none. 0, -EIO. */
int rdp_mesh_faults_print(const struct rdp_mesh_faults *f, FILE *out);
/* The faults mesh.json lists as faults[] (f must outlive m's writers;
 * NULL: none, the key left out). */
void rdp_mesh_set_faults(struct rdp_mesh *m, const struct rdp_mesh_faults *f);

/* ---- The simulator ---- */

enum rdp_mesh_inject_kind {
	RDP_MESH_INJECT_NIC,	/* bandwidth x factor through the NIC(s) */
	RDP_MESH_INJECT_CABLE,	/* a node's rail cable: down or slow */
	RDP_MESH_INJECT_UPLINK, /* every link between a leaf and a spine */
	RDP_MESH_INJECT_FLAKY,	/* a share of the cells through it fail */
	RDP_MESH_INJECT_ERRORS, /* its port's link error counter rises */
	RDP_MESH_N_INJECT
};

struct rdp_mesh_inject {
	enum rdp_mesh_inject_kind kind;
	int node, rail;	   /* mesh numbers; rail -1: every rail */
	int leaf, spine;   /* UPLINK: switch numbers; -1 otherwise */
	double factor;	   /* bandwidth x factor; 0: down */
	double fail_share; /* FLAKY: (0, 1] */
	uint64_t errors;   /* ERRORS: symbol errors a cell, per port */
	char spec[128];	   /* as written */
};

/*
 * One fault to inject, of the grammar (NODE, LEAF, SPINE by name):
 *   nic:NODE=PCT%         every rail of NODE at PCT % of its bandwidth
 *   nic:NODE:RAIL=PCT%    one NIC port
 *   cable:NODE:RAIL=down  (or =PCT%)
 *   uplink:LEAF:SPINE=PCT%  (or =down): every link between them
 *   flaky:NODE:RAIL=PCT%  PCT % of the cells through it fail
 *   errors:NODE[:RAIL]=N  its port's symbol_error rises by N in every
 *                         cell it sends or receives, bandwidth unchanged
 * PCT in [0, 100) for a slow part, (0, 100] for flaky; N from 1. -EINVAL
 * with one line in why.
 */
int rdp_mesh_inject_parse(const char *spec, const struct rdp_mesh_place *p,
			  struct rdp_mesh_inject *out, char *why, size_t len);

struct rdp_mesh_sim_opts {
	double nominal_gbps; /* a healthy cell's bandwidth */
	double noise_pct;    /* its spread: one standard deviation, % */
	uint64_t seed;
};

/*
 * Every cell of plan (every round, transfer and rail of p) into m, made
 * up: nominal x (1 + noise x a normal draw) x the factors of the
 * injected faults on its path (an uplink only on the cells that ECMP
 * sends across it, drawn by weight), FAILED through a part that is down
 * or by a flaky part's draw; the error counters of an errors port on
 * its side of the cell. Deterministic from o->seed. m's files then
 * give each cell's path on p, as a run with --topology writes them (p
 * must outlive m's writers). 0, -EINVAL, -ENOMEM.
 */
int rdp_mesh_simulate(struct rdp_mesh *m, const struct rdp_mesh_plan *plan,
		      const struct rdp_mesh_place *p,
		      const struct rdp_mesh_inject *inj, size_t n_inj,
		      const struct rdp_mesh_sim_opts *o);

/* What the localisation named against what was injected, per kind. */
struct rdp_mesh_sim_score {
	unsigned int injected[RDP_MESH_N_INJECT], found[RDP_MESH_N_INJECT];
	unsigned int named, right; /* faults named; those matching one */
};

/*
 * Match the faults against the injections: a NIC of every rail is found
 * as its NODE, one NIC port, a cable or a flaky rail as that CABLE (as
 * the NODE when the mesh has one rail), an uplink as an UPLINK fault
 * whose candidates hold one of its links. Prints "found", "missed" and
 * "false" lines to out (NULL: none). 0, -EIO.
 */
int rdp_mesh_sim_score(const struct rdp_mesh_place *p,
		       const struct rdp_mesh_inject *inj, size_t n_inj,
		       const struct rdp_mesh_faults *f, FILE *out,
		       struct rdp_mesh_sim_score *s);
const char *rdp_mesh_inject_name(enum rdp_mesh_inject_kind k); /* "nic" */

#endif /* RDMAPERF_MESH_TOPO_H */
