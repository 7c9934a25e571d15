/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Placement with the topology: hwloc knows the CPUs nearest a NIC (its
 * nearest non-I/O ancestor), which sysfs's numa_node rounds up to a whole
 * node. Any doubt falls back to the node from sysfs.
 *
 * A NIC's CPUs are looked up once per process and device: the persistent
 * server and every rank of a mesh place each session, and a load of the
 * topology (init, plugins, discovery) costs tens of milliseconds on a
 * host and half a second under emulation.
 */
#include <pthread.h>
#include <string.h>

#include <rdmaperf/placement.h>
#include <rdmaperf/topo.h>

#include "place_int.h"

#define NIC_CACHE_MAX 16

struct nic_seen {
	char dev[64];
	int near; /* nic holds CPUs that say something */
	struct rdp_topo_nic nic;
};

static struct nic_seen seen[NIC_CACHE_MAX];
static size_t n_seen;
static pthread_mutex_t seen_lock = PTHREAD_MUTEX_INITIALIZER;

/* What the topology says of dev; 0 when nothing useful. */
static int look_up(const char *dev, struct rdp_topo_nic *nic)
{
	struct rdp_topo *t;
	int near = 0;

	memset(nic, 0, sizeof(*nic));
	if (!rdp_topo_load(NULL, NULL, &t)) {
		/* All CPUs says nothing (a VM, a single node, a software
		 * device): the sysfs path decides then. */
		near = !rdp_topo_nic(t, dev, nic) && !nic->whole_machine &&
		       CPU_COUNT(&nic->cpus) > 0;
		rdp_topo_free(t);
	}
	return near;
}

/* dev's CPUs, from the cache or looked up and kept. */
static int nic_near(const char *dev, struct rdp_topo_nic *nic)
{
	size_t i;
	int near;

	pthread_mutex_lock(&seen_lock);
	for (i = 0; i < n_seen; i++)
		if (!strcmp(seen[i].dev, dev)) {
			*nic = seen[i].nic;
			near = seen[i].near;
			pthread_mutex_unlock(&seen_lock);
			return near;
		}
	pthread_mutex_unlock(&seen_lock);
	near = look_up(dev, nic);
	pthread_mutex_lock(&seen_lock);
	if (n_seen < NIC_CACHE_MAX && strlen(dev) < sizeof(seen[0].dev)) {
		strcpy(seen[n_seen].dev, dev);
		seen[n_seen].near = near;
		seen[n_seen].nic = *nic;
		n_seen++;
	}
	pthread_mutex_unlock(&seen_lock);
	return near;
}

int rdp_place_self_dev(const struct rdp_place_opts *o, const char *dev,
		       int nic_node, struct rdp_placement *out)
{
	struct rdp_topo_nic nic;
	int near = 0;

	if (dev && dev[0])
		near = nic_near(dev, &nic);
	if (!near)
		return rdp_place_self(o, nic_node, out);
	if (nic_node < 0)
		nic_node = nic.node;
	return rdp_place_self_near(o, nic_node, &nic.cpus, out);
}
