/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Port counters and hw_counters of the device port, and the error and
 * pause statistics of its netdev (`ethtool -S`), snapshot before and
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

/* Where a counter was read: struct rdp_counter's hw. */
#define RDP_CTR_SRC_PORT    0 /* counters/ */
#define RDP_CTR_SRC_HW	    1 /* hw_counters/ */
#define RDP_CTR_SRC_ETHTOOL 2 /* the port's netdev, `ethtool -S` */

struct rdp_counter {
	char name[RDP_COUNTER_NAME_MAX];
	uint8_t hw; /* RDP_CTR_SRC_* */
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

/*
 * What a rise of a counter says about the port, for verdicts: link errors
 * (the cable, transceiver or port), transport retries (loss somewhere on
 * the path, or a receiver not ready), congestion (ECN marks, CNPs, pause
 * frames, credit waits). OTHER: traffic, resources, or unknown names.
 * The names of the IB port counters, mlx5, bnxt_re, irdma and rxe
 * hw_counters and their netdevs' `ethtool -S` statistics are mapped.
 */
enum rdp_ctr_kind {
	RDP_CTR_OTHER = 0,
	RDP_CTR_LINK,
	RDP_CTR_RETRIES,
	RDP_CTR_CONGESTION,
};
#define RDP_CTR_KINDS 4

enum rdp_ctr_kind rdp_counter_kind(const char *name);
/* "link", "retries", "congestion", "other" */
const char *rdp_ctr_kind_name(enum rdp_ctr_kind k);

/* The deltas d summed per kind. */
struct rdp_ctr_sums {
	uint64_t n[RDP_CTR_KINDS];
};
void rdp_counters_sums(const struct rdp_counters *d, struct rdp_ctr_sums *s);

/*
 * --max-errors KIND=N[,KIND=N...]: KIND a kind's name or the own name of
 * one counter of a kind (a name of no kind is refused: it would never be
 * judged), N a count or "any" (no limit). A counter's own rule replaces
 * its kind's for that counter. The defaults: link=0, retries and
 * congestion any.
 */
#define RDP_MAX_ERRORS_RULES 16
struct rdp_max_errors_rule {
	enum rdp_ctr_kind kind;		 /* the kind's rule, or the counter's */
	char name[RDP_COUNTER_NAME_MAX]; /* "": the whole kind */
	int any;			 /* no limit */
	uint64_t max;
};
struct rdp_max_errors {
	size_t n;
	struct rdp_max_errors_rule r[RDP_MAX_ERRORS_RULES];
};
void rdp_max_errors_default(struct rdp_max_errors *m);
/* Adds arg's rules over what m holds (a later rule for the same KIND
 * replaces the earlier). 0, or -EINVAL with one line in err. */
int rdp_max_errors_parse(struct rdp_max_errors *m, const char *arg, char *err,
			 size_t len);
/*
 * The deltas d against m: 0 within, 1 over, with the first rule broken in
 * why ("link errors +3 (symbol_error +3) over the limit of 0
 * (--max-errors link=0)").
 */
int rdp_max_errors_check(const struct rdp_max_errors *m,
			 const struct rdp_counters *d, char *why, size_t len);
/* The same, with the broken rule's count and limit in count and max. */
int rdp_max_errors_over(const struct rdp_max_errors *m,
			const struct rdp_counters *d, uint64_t *count,
			uint64_t *max, char *why, size_t len);

/*
 * The statistics of the port's netdev, as `ethtool -S` shows them. Only
 * the names whose kind is not OTHER go into a snapshot (hw
 * RDP_CTR_SRC_ETHTOOL), as many as it has room for: a driver's thousands
 * of per-queue figures would flood it (ethtool.c).
 */
/* The netdev under dev's port: gid_attrs/ndevs/0 of the port, else rxe's
 * parent, else the first entry of the device's net/ folder. 0, or -ENOENT
 * when there is none. */
int rdp_ethtool_netdev(const struct rdp_sysfs *fs, const char *dev, int port,
		       char *name, size_t len);
/* From the driver (the SIOCETHTOOL ioctl): 0, or -errno with nothing
 * added. */
int rdp_ethtool_read(const char *ifname, struct rdp_counters *out);
/* From the text `ethtool -S IFNAME` prints: how many statistics it holds,
 * or -EINVAL when it is no such text. */
int rdp_ethtool_parse(const char *text, struct rdp_counters *out);
/* rdp_ethtool_netdev, then rdp_ethtool_read, on the live system only (fs
 * without a root): silently nothing when the port has no netdev or the
 * driver no statistics. */
void rdp_ethtool_snapshot(const struct rdp_sysfs *fs, const char *dev, int port,
			  struct rdp_counters *out);

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
