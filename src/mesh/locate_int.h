/* SPDX-License-Identifier: BSD-2-Clause */
/* What the localisation's files share: its counts, candidates and state. */
#ifndef RDMAPERF_LOCATE_INT_H
#define RDMAPERF_LOCATE_INT_H

#include <stddef.h>

#include "mesh_int.h"
#include "topo_int.h"

#define MIN_BAD 3.0
/* The least background share: below it one stray failure would weigh
 * like proof, and a part holding several faults would outscore each. */
#define MIN_SHARE 1e-4
#define MAX_FOUND 256

struct cnt {
	double t, f, g; /* cells, failed, flagged */
};

struct rdp_mesh_faults {
	const struct rdp_mesh_topo *t;
	struct rdp_mesh_fault *v;
	size_t n;
};

/* A fault to name: one part, or a run of a sorted array (ties). */
struct cand {
	enum rdp_mesh_part kind;
	size_t part;		 /* NODE, CABLE, LEAF: the part */
	const unsigned int *ids; /* UPLINK: links, SPINE: switches */
	size_t n_ids;
	struct cnt sum;
	double score;
};

/* A link or spine with what its ties are sorted by. */
struct key {
	unsigned int id, leaf; /* leaf: 0, room for a finer key */
	struct cnt c;
};

struct loc {
	const struct rdp_mesh *m;
	const struct rdp_mesh_place *p;
	const struct rdp_mesh_topo *t;
	unsigned int nodes, rails, n_leaves;
	size_t n_cells, n_parts, cable0, sw0, link0;
	unsigned char *state;  /* per cell: 0 good, 1 failed, 2 flagged */
	unsigned char *active; /* per cell: not yet explained */
	unsigned char *rm;     /* per part: named */
	unsigned char *pair_rm;
	struct cnt *c;	  /* per part */
	struct cnt *pair; /* sender's leaf x receiver's leaf */
	struct topo_common *common;
	struct key *links, *spines; /* sorted for ties */
	unsigned int *link_ids, *spine_ids;
	unsigned int *child_ids; /* a spine group's uplinks, by leaf */
	unsigned char *in_group; /* per switch: in that spine group */
	size_t n_links, n_spines;
	unsigned int *by_leaf, *by_leaf0; /* cable parts of each leaf */
	struct cnt tot;			  /* the cells not yet explained */
	double ef, eg, tau;		  /* their failed, flagged share; TAU */
};

/* f's confidence against L's background: the share of its bad cells
 * above it, times 1 - exp(-(score - TAU) / TAU). */
void rdp_mesh_fault_confidence(const struct loc *L, struct rdp_mesh_fault *f);
/* The fault (place, name, evidence) of the candidate c. */
void rdp_mesh_fault_record(const struct loc *L, const struct cand *c,
			   struct rdp_mesh_fault *f);

static inline void add_cnt(struct cnt *c, const struct cnt *d, double w)
{
	c->t += w * d->t;
	c->f += w * d->f;
	c->g += w * d->g;
}

static inline double bad_of(const struct cnt *c)
{
	return c->f + c->g;
}

static inline size_t cable_part(const struct loc *L, unsigned int node,
				unsigned int rail)
{
	return L->cable0 + (size_t)node * L->rails + rail;
}

static inline unsigned int leaf_of(const struct loc *L, unsigned int node,
				   unsigned int rail)
{
	return L->p->leaf[(size_t)node * L->rails + rail];
}

#endif /* RDMAPERF_LOCATE_INT_H */
