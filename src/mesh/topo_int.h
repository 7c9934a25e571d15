/* SPDX-License-Identifier: BSD-2-Clause */
/* What the fabric's files share: the model, its builders for the
 * parsers, and a mesh's nodes bound to it. */
#ifndef RDMAPERF_TOPO_INT_H
#define RDMAPERF_TOPO_INT_H

#include <stddef.h>

#include <rdmaperf/mesh_topo.h>

struct topo_switch {
	char *name;
	char *id; /* ibnetdiscover's "S-<guid>", NULL elsewhere */
	int leaf; /* a node's cable ends on it */
};

struct topo_rail {
	struct rdp_mesh_topo_port at;
	char *dev;	       /* at.dev's storage */
	unsigned int nic_port; /* the CA's port, for the rails' order */
	int set;	       /* the plain list may leave holes */
};

struct topo_host {
	char *name;
	struct topo_rail *rail;
	unsigned int n_rails, cap;
};

/*
 * Names to numbers (topo_index.c): keys point at the model's strings,
 * the first number given a key stays.
 */
struct topo_slot;
struct topo_index {
	struct topo_slot *slot;
	size_t cap, n; /* cap: 0 or a power of 2, at least 2 x n */
};

/* Room for n keys in all, so that puts up to n cannot fail: 0, -ENOMEM. */
int topo_index_room(struct topo_index *x, size_t n);
/* key's len bytes to val, unless key is there already; needs the room. */
void topo_index_put(struct topo_index *x, const char *key, size_t len,
		    unsigned int val);
/* key's number, or -ENOENT. */
int topo_index_get(const struct topo_index *x, const char *key, size_t len);
void topo_index_fini(struct topo_index *x);

/* A leaf's uplink: the spine and the link, sorted by spine. */
struct topo_up {
	unsigned int spine, link;
};

struct rdp_mesh_topo {
	struct topo_switch *sw;
	unsigned int n_sw, cap_sw;
	struct topo_host *host;
	unsigned int n_host, cap_host;
	struct rdp_mesh_topo_link *link;
	unsigned int n_link, cap_link;
	/* Made by topo_finish: leaves numbered 0..n_leaves-1. */
	int *leaf_ord; /* per switch; -1: a spine */
	unsigned int n_leaves;
	unsigned int *up_start; /* per leaf ordinal + 1 */
	struct topo_up *up;	/* by leaf, then spine */
	/* Lookups: switches by name and by id, hosts by name and (made
	 * by topo_finish) by short name, up to the first '.'. */
	struct topo_index sw_by_name, sw_by_id, host_by_name, host_by_short;
};

struct rdp_mesh_place {
	const struct rdp_mesh_topo *t;
	unsigned int nodes, rails;
	unsigned int *host; /* per mesh node */
	unsigned int *leaf; /* per node x rails + rail: the switch */
	unsigned int *port; /* and its port */
};

int topo_new(struct rdp_mesh_topo **out);
/* The switch's number (added when new: name, id copied), or -ENOMEM. */
int topo_switch(struct rdp_mesh_topo *t, const char *name, const char *id);
/* The host's number (added when new), or -ENOMEM. */
int topo_host(struct rdp_mesh_topo *t, const char *name);
/* The first switch whose id is id, or -ENOENT. */
int topo_switch_by_id(const struct rdp_mesh_topo *t, const char *id);
/* The first host whose short name (up to a '.') is name's, or -ENOENT. */
int topo_host_by_short(const struct rdp_mesh_topo *t, const char *name);
/*
 * Host h's rail `rail` (UINT_MAX: a new one at the end) on switch sw's
 * port; dev may be NULL. -EEXIST when that rail is set, -ENOMEM.
 */
int topo_rail(struct rdp_mesh_topo *t, unsigned int h, unsigned int rail,
	      unsigned int sw, unsigned int port, const char *dev,
	      unsigned int nic_port);
int topo_link(struct rdp_mesh_topo *t, unsigned int a, unsigned int a_port,
	      unsigned int b, unsigned int b_port);
/* Sort each host's rails by device, then NIC port (ibnetdiscover). */
void topo_sort_rails(struct rdp_mesh_topo *t);
/*
 * Check and index: no rail left unset (why names the host), leaves
 * marked, uplinks leaf first and indexed per leaf. -EINVAL, -ENOMEM.
 */
int topo_finish(struct rdp_mesh_topo *t, const char *name, char *why,
		size_t len);

/* The spines leaves a and b (ordinals) share, as ranges of t->up:
 * out[i] = {first of a's links to the spine, count, first of b's, count};
 * returns how many (also past cap). */
struct topo_common {
	unsigned int spine;
	unsigned int a0, na, b0, nb;
};
size_t topo_common(const struct rdp_mesh_topo *t, unsigned int a,
		   unsigned int b, struct topo_common *out, size_t cap);

/* Parsers, on text in memory. */
int topo_parse_ibnet(struct rdp_mesh_topo *t, const char *text,
		     const char *name, char *why, size_t len);
int topo_parse_list(struct rdp_mesh_topo *t, const char *text, const char *name,
		    char *why, size_t len);

#endif /* RDMAPERF_TOPO_INT_H */
