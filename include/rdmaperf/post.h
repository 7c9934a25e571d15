/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * How the loops post their sends: the classic ibv_post_send(), or the
 * ibv_wr_* builders of an extended QP (ibv_create_qp_ex with the test's
 * send_ops_flags). A connection's QPs are made for one API; each loop
 * picks its poster from it once, at set-up.
 * Layer: engine
 */
#ifndef RDMAPERF_POST_H
#define RDMAPERF_POST_H

#include <stdint.h>
#include <infiniband/verbs.h>

struct rdp_conn;

enum rdp_post_api {
	RDP_POST_SEND = 0, /* ibv_post_send() on a plain QP */
	RDP_POST_WR,	   /* ibv_wr_start() ... ibv_wr_complete() */
};

/* Posts a chain of prepared work requests, as ibv_post_send() takes it:
 * 0 or a positive errno. */
typedef int (*rdp_post_fn)(struct ibv_qp *qp, struct ibv_send_wr *wr,
			   struct ibv_send_wr **bad);

/* "wr" or "post_send", as the JSON report names the API. */
const char *rdp_post_api_name(enum rdp_post_api api);

/*
 * The poster for work requests of opcode op on conn's QPs: ibv_post_send
 * on a plain QP, else one ibv_wr_* poster built for op, inline data (the
 * IBV_SEND_INLINE the chain's flags carry) and UD's address. Every work
 * request it posts holds one SGE, as the loops build them.
 */
rdp_post_fn rdp_post_pick(const struct rdp_conn *conn, enum ibv_wr_opcode op,
			  int inline_data);

#endif /* RDMAPERF_POST_H */
