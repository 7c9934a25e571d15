/* SPDX-License-Identifier: BSD-2-Clause */
/* placement.c's steps that place_topo.c builds on; no other folder. */
#ifndef RDMAPERF_SYS_PLACE_INT_H
#define RDMAPERF_SYS_PLACE_INT_H

#include <sched.h>

struct rdp_place_opts;
struct rdp_placement;

/* Plan and apply for the live system; prints the cross-NUMA warning. */
int rdp_place_self(const struct rdp_place_opts *o, int nic_node,
		   struct rdp_placement *out);
int rdp_place_self_near(const struct rdp_place_opts *o, int nic_node,
			const cpu_set_t *nic_cpus, struct rdp_placement *out);

#endif /* RDMAPERF_SYS_PLACE_INT_H */
