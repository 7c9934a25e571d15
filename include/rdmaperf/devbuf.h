/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A test's data on device (GPU) buffers: the CPU fills and checks them
 * through the buffer's host copy, outside any timed region.
 * Layer: bench
 */
#ifndef RDMAPERF_DEVBUF_H
#define RDMAPERF_DEVBUF_H

#include <stddef.h>
#include <stdint.h>

struct rdp_conn;
struct rdp_run;
struct rdp_bench_ops;
struct rdp_data_check;

/* A copy of conn the CPU can write: for GPU buffers, over the host copy. */
void rdp_devbuf_view(const struct rdp_conn *conn, struct rdp_conn *view);
/* The host copy to the GPU; 0 for host buffers. */
int rdp_devbuf_push(const struct rdp_conn *conn);
/* The GPU buffer into the host copy, then the view over it. */
int rdp_devbuf_pull(const struct rdp_conn *conn, struct rdp_conn *view);

/*
 * run->ops->verify on what the CPU can read: GPU buffers are copied back
 * first. 0 when the test has no check. A failed copy is a failed check.
 */
int rdp_devbuf_verify(const struct rdp_run *run, uint64_t count,
		      struct rdp_data_check *r);

#endif /* RDMAPERF_DEVBUF_H */
