/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * GID table reading and selection. On RoCE the GID decides the protocol
 * version and the source IP; a wrong index is the classic silent failure.
 * Layer: engine
 */
#ifndef RDMAPERF_GID_H
#define RDMAPERF_GID_H

#include <stddef.h>
#include <stdint.h>

#include <rdmaperf/ip.h>

struct rdp_sysfs;

enum rdp_gid_type {
	RDP_GID_UNKNOWN = 0,
	RDP_GID_IB = 1,
	RDP_GID_ROCE_V1 = 2,
	RDP_GID_ROCE_V2 = 3,
};

struct rdp_gid_entry {
	int index;
	uint8_t raw[16];
	enum rdp_gid_type type;
	char ndev[32]; /* netdev the GID belongs to, "" on IB */
};

enum rdp_gid_reason {
	RDP_GID_FORCED,	    /* -x */
	RDP_GID_ADDR_MATCH, /* RoCE v2 GID of the out-of-band address */
	RDP_GID_V2_IPV4,    /* first IPv4-mapped RoCE v2 GID */
	RDP_GID_V2_IPV6,    /* first global IPv6 RoCE v2 GID (IPv6 OOB) */
	RDP_GID_V2_ANY,	    /* first RoCE v2 GID */
	RDP_GID_FIRST,	    /* first valid GID (IB, or v1 only) */
	RDP_GID_RDMA_CM,    /* -R: the one RDMA CM resolved the route with */
};

struct rdp_gid_choice {
	struct rdp_gid_entry entry;
	enum rdp_gid_reason reason;
};

/*
 * Read the valid (non-zero) GIDs of dev/port, up to cap entries.
 * link_layer_eth selects the RoCE type decoding; on IB all are RDP_GID_IB.
 */
int rdp_gid_read_table(const struct rdp_sysfs *fs, const char *dev, int port,
		       int link_layer_eth, struct rdp_gid_entry *tab,
		       size_t cap, size_t *n_out);

/*
 * Pick a GID: forced_index >= 0 wins (-ENOENT if absent); otherwise the
 * RoCE v2 GID carrying local (the out-of-band address; may be NULL), then
 * the first RoCE v2 GID of local's family (IPv4 when local is NULL; for
 * IPv6 not a link-local one), then any RoCE v2 GID, then the first.
 */
int rdp_gid_select(const struct rdp_gid_entry *tab, size_t n,
		   const struct rdp_ip *local, int forced_index,
		   struct rdp_gid_choice *out);

/*
 * -x before anything connects: 0 when index is one of tab's n valid
 * entries; else -ENOENT and one line in why naming dev, port and index,
 * whether it is past the port's table of tbl_len slots or empty, the
 * valid indexes and the fix.
 */
int rdp_gid_index_check(const struct rdp_gid_entry *tab, size_t n, int tbl_len,
			int index, const char *dev, int port, char *why,
			size_t len);

const char *rdp_gid_type_str(enum rdp_gid_type type);
const char *rdp_gid_reason_str(enum rdp_gid_reason reason);
enum rdp_gid_type rdp_gid_type_parse(const char *sysfs_text);
/* "fe80::..." or "::ffff:10.0.0.1" text form. */
void rdp_gid_format(const uint8_t raw[16], char *buf, size_t len);
int rdp_gid_is_ipv4_mapped(const uint8_t raw[16]);

#endif /* RDMAPERF_GID_H */
