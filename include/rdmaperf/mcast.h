/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Multicast on UD (-g, -M): the group's GID as text (-M) and whether it is
 * a multicast one, for the command line, the rules and the reports. The
 * receiving side's QPs join the group inside the engine (engine_int.h);
 * the sender needs no more than an address handle towards the group and
 * the multicast QPN its peer's QP_INFO names.
 * Layer: engine
 */
#ifndef RDMAPERF_MCAST_H
#define RDMAPERF_MCAST_H

#include <stddef.h>
#include <stdint.h>

/* The destination QPN of a message to a group (every attached QP). */
#define RDP_MCAST_QPN 0xffffffu
/* IPv6 text of a GID, with room for the IPv4-mapped form. */
#define RDP_MGID_STR_MAX 48

/*
 * -M's GID: IPv6 text ("ff0e::1", "::ffff:239.1.1.1") or perftest's 16
 * bytes between colons ("255:14:0:...:1", each decimal or 0x hex).
 * 0, or -EINVAL for neither form.
 */
int rdp_mgid_parse(const char *text, uint8_t mgid[16]);
/* ff00::/8, or an IPv4-mapped 224.0.0.0/4 (RoCE v2 over IPv4). */
int rdp_mgid_is_multicast(const uint8_t mgid[16]);
/* Not all zero: given by -M (zeros ask for the default group). */
int rdp_mgid_is_set(const uint8_t mgid[16]);
/* As IPv6 text, ::ffff:a.b.c.d for an IPv4-mapped one. */
void rdp_mgid_str(const uint8_t mgid[16], char *buf, size_t len);

#endif /* RDMAPERF_MCAST_H */
