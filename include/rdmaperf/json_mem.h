/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * JSON of where each side's buffers are: GPU, host, staged (--bounce).
 * Layer: report
 */
#ifndef RDMAPERF_JSON_MEM_H
#define RDMAPERF_JSON_MEM_H

#include <jansson.h>

struct rdp_peer_info;
struct rdp_report_info;

/* Add bounce and staging to this side's "memory" object (and the GPU a
 * staged buffer stands for); 0, or -1 when mem is NULL or full. */
int rdp_json_memory_stage(json_t *mem, const struct rdp_report_info *in);

/* Add "access" to this side's "memory" object: the IBV_ACCESS_* flags
 * each side's buffer has, by name, keyed "client" and "server" (null where
 * a perftest peer does not say); 0, or -1 when mem is NULL or full. */
int rdp_json_memory_access(json_t *mem, const struct rdp_report_info *in);

/* --mmap: add "mmap" ({"file", "offset"}) to this side's "memory"
 * object where its buffers are a file's; 0, or -1 when mem is NULL or
 * full. */
int rdp_json_memory_file(json_t *mem, const struct rdp_report_info *in);

/* The server's memory; json_null() for NULL, NULL on allocation failure. */
json_t *rdp_json_peer_memory(const struct rdp_peer_info *a);

#endif /* RDMAPERF_JSON_MEM_H */
