/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The edge between the wire and the program's own structs: the session
 * converts each message right after decoding it or right before encoding
 * it, every array copied within both its bounds.
 *
 * Layer: session
 */
#ifndef RDMAPERF_CONVERT_H
#define RDMAPERF_CONVERT_H

#include <stdint.h>

struct rdp_counters;
struct rdp_ctr_pair;
struct rdp_host_info;
struct rdp_msg_accept;
struct rdp_msg_hello;
struct rdp_msg_result;
struct rdp_peer_info;
struct rdp_placement;
struct rdp_result;

/* A host as its HELLO tells it. */
void rdp_host_from_hello(const struct rdp_msg_hello *h,
			 struct rdp_host_info *out);

/* The server's side of a test as its ACCEPT tells it (the RDMA CM port
 * and nonce stay with the session that connects). */
void rdp_peer_from_accept(const struct rdp_msg_accept *a,
			  struct rdp_peer_info *out);

/* Counter deltas into a RESULT, non-zero ones first when they do not all
 * fit. */
void rdp_ctr_to_result(const struct rdp_counters *d, struct rdp_msg_result *r);

/* The peer's deltas from its RESULT into p->peer. */
void rdp_ctr_from_result(struct rdp_ctr_pair *p,
			 const struct rdp_msg_result *r);

/* -g: what each QP of the group received (res->group) into a RESULT, the
 * first RDP_WIRE_MAX_GROUP_QPS of them. */
void rdp_group_to_result(const struct rdp_result *res,
			 struct rdp_msg_result *r);

/* The group's counts of a server's RESULT into res->group (msgs of
 * size_bytes each); nothing when it carried none. 0 or -ENOMEM. */
int rdp_group_from_result(const struct rdp_msg_result *r, uint64_t size_bytes,
			  struct rdp_result *res);

/* The placement fields of a server's ACCEPT. */
void rdp_place_to_accept(const struct rdp_placement *pl,
			 struct rdp_msg_accept *a);

/* A measured figure as a wire count: negative and not-a-number give 0,
 * anything past the largest count gives the largest (a cast would be
 * undefined there). */
uint64_t rdp_wire_count(double v);

#endif /* RDMAPERF_CONVERT_H */
