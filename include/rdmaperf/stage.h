/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --bounce: the data lives on the GPU, but the NIC moves ordinary
 * registered host buffers, and every message is copied between the two by
 * the side that owns it, inside the timed loop: what a host-staged path
 * costs next to GPUDirect RDMA. The passive side of a one-sided test has
 * no message to stage.
 * Layer: bench
 */
#ifndef RDMAPERF_STAGE_H
#define RDMAPERF_STAGE_H

#include <stddef.h>
#include <stdint.h>

#include <rdmaperf/bench.h>

struct rdp_conn;
struct rdp_mem;

/* What one side copies in one test. */
enum rdp_stage_role {
	RDP_STAGE_NONE = 0, /* passive: no message passes through this side */
	RDP_STAGE_OUT,	    /* GPU -> host before each post (WRITE, SEND) */
	RDP_STAGE_IN,	    /* host -> GPU after each completion (READ, recv) */
};

/* The GPU side of one connection's buffer: same layout as conn->buf. */
struct rdp_stage {
	struct rdp_mem *mem;
	uint8_t *host;	    /* conn->buf, registered host memory */
	uint8_t *gpu;	    /* its GPU twin, where the data lives */
	uint8_t *shadow;    /* host copy of the GPU twin, for the checks */
	size_t bytes;	    /* of each of the three */
	size_t slot_bytes;  /* per QP: [tx][rx], as conn->slot_bytes */
	size_t msg_bytes;   /* one message, what each copy moves */
	int pinned;	    /* host buffer page-locked for the copies */
	char pin_note[128]; /* why it is not, or "" */
};

/* conn->stage for a connection on staged memory (dev->mem): the GPU twin
 * of conn->buf, the host buffer page-locked when the driver can. Logs. */
int rdp_stage_create(struct rdp_conn *conn, size_t msg_bytes);
/* Accepts NULL and a half-built stage; clears conn->stage. */
void rdp_stage_destroy(struct rdp_conn *conn);

/* The role of side in a test; RDP_STAGE_NONE for tests without staging. */
enum rdp_stage_role rdp_stage_role(const struct rdp_bench_ops *ops,
				   const struct rdp_params *p,
				   enum rdp_side side);

/*
 * Timed loops: n messages of QP q, one copy each. Out: the GPU send slot
 * to the host send slot, before posting. In: the host receive slot to the
 * GPU receive slot, after the completion. 0 or -errno (logged).
 */
int rdp_stage_out(const struct rdp_stage *s, uint32_t q, uint64_t n);
int rdp_stage_in(const struct rdp_stage *s, uint32_t q, uint64_t n);

/*
 * After the host buffer is filled, before READY: the data moves to the
 * GPU twin, and a side that stages out clears its host send slots, so
 * only the per-message copies can put the data on the wire.
 */
int rdp_stage_fill(const struct rdp_run *run);
/* run->ops->verify on the GPU twin (a side that stages in) or on the
 * host buffer (a passive side). */
int rdp_stage_verify(const struct rdp_run *run, uint64_t count,
		     struct rdp_data_check *r);

/* "copied GPU->host before each post": what a role does, for people;
 * "gpu_to_host", "host_to_gpu" or "none" for JSON. */
const char *rdp_stage_role_str(enum rdp_stage_role role);
const char *rdp_stage_role_id(enum rdp_stage_role role);

#endif /* RDMAPERF_STAGE_H */
