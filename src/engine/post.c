/* SPDX-License-Identifier: BSD-2-Clause */
/* The two ways of posting sends: QPs made for the ibv_wr_* builders where
 * the device takes them (else plain ones, said once per device), and the
 * posters the loops pick at set-up, one per opcode and shape. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <rdmaperf/engine.h>
#include <rdmaperf/log.h>
#include <rdmaperf/post.h>

#include "engine_int.h"

/* Inlined into each poster, where opcode and shape are constants. */
#define HOT_INLINE inline __attribute__((always_inline))

const char *rdp_post_api_name(enum rdp_post_api api)
{
	return api == RDP_POST_WR ? "wr" : "post_send";
}

/* An extended QP's builders: ibv_create_qp_ex() returns the ibv_qp that
 * starts its struct ibv_qp_ex. */
static HOT_INLINE struct ibv_qp_ex *qpx_of(struct ibv_qp *qp)
{
	return (struct ibv_qp_ex *)((char *)qp -
				    offsetof(struct ibv_qp_ex, qp_base));
}

static HOT_INLINE void wr_op(struct ibv_qp_ex *x, const struct ibv_send_wr *wr,
			     const enum ibv_wr_opcode op)
{
	switch (op) {
	case IBV_WR_RDMA_WRITE:
		ibv_wr_rdma_write(x, wr->wr.rdma.rkey, wr->wr.rdma.remote_addr);
		break;
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		ibv_wr_rdma_write_imm(x, wr->wr.rdma.rkey,
				      wr->wr.rdma.remote_addr, wr->imm_data);
		break;
	case IBV_WR_RDMA_READ:
		ibv_wr_rdma_read(x, wr->wr.rdma.rkey, wr->wr.rdma.remote_addr);
		break;
	case IBV_WR_SEND_WITH_IMM:
		ibv_wr_send_imm(x, wr->imm_data);
		break;
	case IBV_WR_ATOMIC_CMP_AND_SWP:
		ibv_wr_atomic_cmp_swp(x, wr->wr.atomic.rkey,
				      wr->wr.atomic.remote_addr,
				      wr->wr.atomic.compare_add,
				      wr->wr.atomic.swap);
		break;
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		ibv_wr_atomic_fetch_add(x, wr->wr.atomic.rkey,
					wr->wr.atomic.remote_addr,
					wr->wr.atomic.compare_add);
		break;
	default: /* IBV_WR_SEND */
		ibv_wr_send(x);
		break;
	}
}

/* One critical section for the whole chain, one doorbell. Inline data is
 * copied by its setter, and IBV_SEND_INLINE stays in wr_flags too: rxe's
 * setter does not set it, and its kernel half reads the data from the
 * work request only when the flag says so. */
static HOT_INLINE int wr_chain(struct ibv_qp *qp, struct ibv_send_wr *wr,
			       struct ibv_send_wr **bad,
			       const enum ibv_wr_opcode op, const int inl,
			       const int ud)
{
	struct ibv_qp_ex *x = qpx_of(qp);
	struct ibv_send_wr *first = wr;
	int ret;

	ibv_wr_start(x);
	for (; wr; wr = wr->next) {
		x->wr_id = wr->wr_id;
		x->wr_flags = wr->send_flags;
		wr_op(x, wr, op);
		if (ud)
			ibv_wr_set_ud_addr(x, wr->wr.ud.ah,
					   wr->wr.ud.remote_qpn,
					   wr->wr.ud.remote_qkey);
		if (inl)
			ibv_wr_set_inline_data(
				x, (void *)(uintptr_t)wr->sg_list->addr,
				wr->sg_list->length);
		else
			ibv_wr_set_sge(x, wr->sg_list->lkey, wr->sg_list->addr,
				       wr->sg_list->length);
	}
	ret = ibv_wr_complete(x);
	if (ret)
		*bad = first;
	return ret;
}

#define WR_POSTER(name, op, inl, ud)                                           \
	static int name(struct ibv_qp *qp, struct ibv_send_wr *wr,             \
			struct ibv_send_wr **bad)                              \
	{                                                                      \
		return wr_chain(qp, wr, bad, op, inl, ud);                     \
	}

WR_POSTER(wr_write, IBV_WR_RDMA_WRITE, 0, 0)
WR_POSTER(wr_write_inl, IBV_WR_RDMA_WRITE, 1, 0)
WR_POSTER(wr_write_imm, IBV_WR_RDMA_WRITE_WITH_IMM, 0, 0)
WR_POSTER(wr_write_imm_inl, IBV_WR_RDMA_WRITE_WITH_IMM, 1, 0)
WR_POSTER(wr_read, IBV_WR_RDMA_READ, 0, 0)
WR_POSTER(wr_send, IBV_WR_SEND, 0, 0)
WR_POSTER(wr_send_inl, IBV_WR_SEND, 1, 0)
WR_POSTER(wr_send_imm, IBV_WR_SEND_WITH_IMM, 0, 0)
WR_POSTER(wr_send_imm_inl, IBV_WR_SEND_WITH_IMM, 1, 0)
WR_POSTER(wr_send_ud, IBV_WR_SEND, 0, 1)
WR_POSTER(wr_send_ud_inl, IBV_WR_SEND, 1, 1)
WR_POSTER(wr_send_imm_ud, IBV_WR_SEND_WITH_IMM, 0, 1)
WR_POSTER(wr_send_imm_ud_inl, IBV_WR_SEND_WITH_IMM, 1, 1)
WR_POSTER(wr_cmp_swp, IBV_WR_ATOMIC_CMP_AND_SWP, 0, 0)
WR_POSTER(wr_fetch_add, IBV_WR_ATOMIC_FETCH_AND_ADD, 0, 0)

static int post_classic(struct ibv_qp *qp, struct ibv_send_wr *wr,
			struct ibv_send_wr **bad)
{
	return ibv_post_send(qp, wr, bad);
}

/* [inline][ud] for the sends, [inline] for WRITE. */
static const rdp_post_fn sends[2][2] = { { wr_send, wr_send_ud },
					 { wr_send_inl, wr_send_ud_inl } };
static const rdp_post_fn sends_imm[2][2] = {
	{ wr_send_imm, wr_send_imm_ud }, { wr_send_imm_inl, wr_send_imm_ud_inl }
};

rdp_post_fn rdp_post_pick(const struct rdp_conn *conn, enum ibv_wr_opcode op,
			  int inline_data)
{
	int inl = !!inline_data, ud = conn->qp_type == IBV_QPT_UD;

	if (conn->post_api != RDP_POST_WR)
		return post_classic;
	switch (op) {
	case IBV_WR_RDMA_WRITE:
		return inl ? wr_write_inl : wr_write;
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		return inl ? wr_write_imm_inl : wr_write_imm;
	case IBV_WR_RDMA_READ:
		return wr_read;
	case IBV_WR_SEND:
		return sends[inl][ud];
	case IBV_WR_SEND_WITH_IMM:
		return sends_imm[inl][ud];
	case IBV_WR_ATOMIC_CMP_AND_SWP:
		return wr_cmp_swp;
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		return wr_fetch_add;
	default:
		return post_classic; /* no loop posts another opcode */
	}
}

/* The first refusal on a device is said; its later QPs are plain ones
 * from the start. */
static void refused(struct rdp_conn *conn, int err)
{
	conn->post_api = RDP_POST_SEND;
	if (conn->dev->wr_api_refused)
		return;
	conn->dev->wr_api_refused = 1;
	rdp_warn("%s refused an extended QP for the ibv_wr_* post API "
		 "(%s): posting with ibv_post_send, as --use_old_post_send "
		 "does",
		 conn->dev->name, strerror(err));
}

struct ibv_qp *rdp_qp_make(struct rdp_conn *conn, struct ibv_qp_init_attr *ia,
			   rdp_qp_maker make, void *arg)
{
	struct ibv_qp_init_attr_ex x;
	struct ibv_qp *qp;
	int err;

	if (conn->post_api == RDP_POST_WR && conn->dev->wr_api_refused)
		conn->post_api = RDP_POST_SEND;
	memset(&x, 0, sizeof(x));
	x.send_cq = ia->send_cq;
	x.recv_cq = ia->recv_cq;
	x.srq = ia->srq;
	x.cap = ia->cap;
	x.qp_type = ia->qp_type;
	x.sq_sig_all = ia->sq_sig_all;
	x.pd = conn->pd;
	x.comp_mask = IBV_QP_INIT_ATTR_PD;
	if (conn->post_api == RDP_POST_WR) {
		x.comp_mask |= IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
		x.send_ops_flags = conn->send_ops;
		qp = make(arg, &x);
		if (qp) {
			ia->cap = x.cap;
			return qp;
		}
		err = errno ? errno : EOPNOTSUPP;
		/* The same QP without the builders: if it comes, the device
		 * refused them, not the shape. */
		x.comp_mask = IBV_QP_INIT_ATTR_PD;
		x.send_ops_flags = 0;
		x.cap = ia->cap;
		qp = make(arg, &x);
		if (!qp)
			return NULL;
		refused(conn, err);
		ia->cap = x.cap;
		return qp;
	}
	qp = make(arg, &x);
	if (qp)
		ia->cap = x.cap;
	return qp;
}
