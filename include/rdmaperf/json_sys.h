/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * JSON pieces for what the host and the port did: placement and counter
 * deltas, shared by the JSON report.
 * Layer: report
 */
#ifndef RDMAPERF_JSON_SYS_H
#define RDMAPERF_JSON_SYS_H

#include <jansson.h>

struct rdp_ctr_pair;
struct rdp_placement;
struct rdp_peer_info;

/* {"local": {"port_counters": {...}, "hw_counters": {...}}, "peer": ...};
 * a side without a snapshot is null. NULL on allocation failure. */
json_t *rdp_json_counters(const struct rdp_ctr_pair *p);

/* This side's placement; json_null() for NULL. */
json_t *rdp_json_placement(const struct rdp_placement *pl);

/* The server's placement; json_null() for NULL. */
json_t *rdp_json_peer_placement(const struct rdp_peer_info *a);

#endif /* RDMAPERF_JSON_SYS_H */
