/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Benchmark buffers in device (GPU) memory: allocation and registration
 * for a connection, and the host copy through which the CPU fills and
 * checks them, outside any timed region.
 */
#ifndef RDMAPERF_DEVBUF_H
#define RDMAPERF_DEVBUF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct rdp_conn;
struct rdp_run;
struct rdp_bench_ops;
struct rdp_msg_result;

struct rdp_dev;

/*
 * Buffers of connections on *dev go to the GPU spec names (--use_cuda;
 * "" host memory). On failure, logged, *dev is closed and NULL.
 */
int rdp_dev_use_mem(struct rdp_dev **dev, const char *spec);

/* conn->buf on conn->dev->mem, its host copy, and the MR (access flags as
 * for host memory). Logs one line, with the diagnosis, on failure. */
int rdp_devbuf_create(struct rdp_conn *conn, int access);
/* Frees what create made; accepts a half-built conn. */
void rdp_devbuf_destroy(struct rdp_conn *conn);

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
		      struct rdp_msg_result *r);

/* The report's lines on GPU buffers; nothing for host memory. */
void rdp_devbuf_report(FILE *f, const struct rdp_conn *conn);

/* Tests whose loop polls the buffer with the CPU cannot use GPU memory:
 * -EINVAL with one line in why. */
int rdp_devbuf_check_test(const struct rdp_bench_ops *ops, int gpu, char *why,
			  size_t len);

#endif /* RDMAPERF_DEVBUF_H */
