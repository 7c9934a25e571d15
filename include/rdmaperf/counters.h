/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Port counters and hw_counters of the device port, snapshot before and
 * after each test point; the deltas show loss and congestion the figures
 * alone hide. A counter a driver lacks is simply absent.
 * Layer: sys
 */
#ifndef RDMAPERF_COUNTERS_H
#define RDMAPERF_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

#include <rdmaperf/sysfs.h>

#define RDP_COUNTERS_MAX     160
#define RDP_COUNTER_NAME_MAX 40

struct rdp_counter {
	char name[RDP_COUNTER_NAME_MAX];
	uint8_t hw; /* from hw_counters/, else counters/ */
	uint64_t value;
};

struct rdp_counters {
	size_t n;
	struct rdp_counter c[RDP_COUNTERS_MAX];
};

/* Read both directories of dev/port; absent ones give n == 0, not an
 * error. Unreadable or non-numeric files are skipped. */
void rdp_counters_snapshot(const struct rdp_sysfs *fs, const char *dev,
			   int port, struct rdp_counters *out);

/* after - before for each counter in both; a counter that went back
 * (reset, 32-bit wrap) counts from zero. */
void rdp_counters_delta(const struct rdp_counters *before,
			const struct rdp_counters *after,
			struct rdp_counters *out);

/* Why a non-zero delta of this counter matters, or NULL when it does not
 * point to loss or congestion. */
const char *rdp_counter_warning(const char *name);

/* One side's deltas and the peer's, for one test point. */
struct rdp_ctr_pair {
	struct rdp_sysfs fs;
	char dev[64];
	int port;
	int have_local; /* a snapshot pair was taken */
	int have_peer;	/* the peer sent its deltas */
	int same_port;	/* both ends on this host's one port: print once */
	struct rdp_counters before;
	struct rdp_counters after;
	struct rdp_counters local;
	struct rdp_counters peer;
};

/* Snapshot before the timed run (live system). */
void rdp_ctr_begin(struct rdp_ctr_pair *p, const char *dev, int port);
/* Snapshot after it; local = the deltas. */
void rdp_ctr_end(struct rdp_ctr_pair *p);

#endif /* RDMAPERF_COUNTERS_H */
