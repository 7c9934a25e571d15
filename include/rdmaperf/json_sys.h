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

/* {"local": {"port_counters": {...}, "hw_counters": {...}[, "ethtool":
 * {...}]}, "peer": ...}; a side without a snapshot is null. NULL on
 * allocation failure. */
json_t *rdp_json_counters(const struct rdp_ctr_pair *p);

/* The deltas summed per kind: {"local": {"link": N, "retries": N,
 * "congestion": N}, "peer": {...}}; a side without a snapshot is null.
 * NULL on allocation failure. */
json_t *rdp_json_errors(const struct rdp_ctr_pair *p);

/* This side's placement; json_null() for NULL. */
json_t *rdp_json_placement(const struct rdp_placement *pl);

/* The server's placement; json_null() for NULL. */
json_t *rdp_json_peer_placement(const struct rdp_peer_info *a);

struct rdp_result;
/* --threads: [{"thread", "cpu", "first_qp", "num_qps", "msgs", "start_s",
 * "end_s", "elapsed_s", "bw_avg_gbps", "bw_peak_gbps", "msg_rate_mpps"}]
 * and {"threads", "window_start_s", "window_end_s", "window_s",
 * "overlap_pct", "msgs_in_window"}. NULL on allocation failure. */
json_t *rdp_json_threads(const struct rdp_result *r);
json_t *rdp_json_thread_sum(const struct rdp_result *r);
/* --report-per-qp: [{"qp", "qp_num", "flow_label", "msgs", "bytes",
 * "bw_gbps"}], a bandwidth point's QPs by index. NULL on allocation
 * failure. */
json_t *rdp_json_per_qp(const struct rdp_result *r);
/* --report-per-port: [{"port", "first_qp", "num_qps", "msgs", "bytes",
 * "bw_gbps"}], a -O point's QPs summed by port. NULL on allocation
 * failure. */
json_t *rdp_json_per_port(const struct rdp_result *r);

struct rdp_params;
/* Into the parameters' object o, only those given: "recv_post_list",
 * "burst_size", "typical_pkt_bytes", "latency_gap_us", "reversed" (true).
 * 0 or non-zero on allocation failure. */
int rdp_json_loop_shape(json_t *o, const struct rdp_params *p);
/* With -g: "mcg" (true), "mgid" (-M's group, or null for the default) and
 * "mcg_join" ("rdma_cm" with -R, else "mgid": attached by MGID)
 * into the parameters' object o. 0 or non-zero on allocation failure. */
int rdp_json_mcast(json_t *o, const struct rdp_params *p);
/* With -g: what each QP of the group received, [{"qp", "qp_num" (the
 * server's), "received", "lost"}], for the result's "loss"; NULL on
 * allocation failure. */
json_t *rdp_json_mcast_group(const struct rdp_result *r);

/* Into a data_check object o: check_ns and checked_on when
 * --data_validation's checks were timed. */
int rdp_json_check_cost(json_t *o, const struct rdp_result *r);

#endif /* RDMAPERF_JSON_SYS_H */
