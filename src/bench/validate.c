/* SPDX-License-Identifier: BSD-2-Clause */
/* --data_validation: a ring of stamped messages in each QP's slots, and the
 * check of every message as it completes, outside any per-message option
 * branch: the loops that call it are variants picked at set-up. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdmaperf/clock.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/log.h>

#include "bw_int.h"
#include "validate_int.h"

uint32_t rdp_dv_ring(const struct rdp_bench_ops *ops,
		     const struct rdp_params *p)
{
	if (!(p->flags & RDP_PARAM_VALIDATE))
		return 1;
	/* A place is written again only after its message was checked: the
	 * sender's window and the receiver's posted receives, and one more,
	 * fit before the ring comes round (validate_int.h). */
	return p->tx_depth + (rdp_bench_receives(ops, p) ? p->rx_depth : 0) + 1;
}

const char *rdp_bench_check_unit(const struct rdp_bench_ops *ops,
				 const struct rdp_params *p)
{
	return rdp_dv_ring(ops, p) > 1 ? RDP_DV_CHECK_UNIT : ops->check_unit;
}

uint64_t rdp_dv_slot_msg_bytes(const struct rdp_bench_ops *ops,
			       const struct rdp_params *p)
{
	uint32_t ring = rdp_dv_ring(ops, p);

	return ring > 1 ? rdp_slot_bytes(p->size_bytes) * ring : p->size_bytes;
}

/* Each byte differs per seed, QP, place in the ring and position; the
 * side does not enter, so both sides' send rings hold the same images and
 * the receiver checks against its own copy. */
static inline uint8_t image_byte(size_t k, uint32_t key)
{
	return (uint8_t)((k * 131u + (k >> 8) * 29u + key) ^ (key >> 8));
}

/* Every input bit moves the low 16 bits of the key. */
static uint32_t image_key(uint32_t seed, uint32_t q, uint32_t place)
{
	uint32_t h = seed * 0x9e3779b1u ^ q * 0x85ebca6bu ^ place * 0xc2b2ae35u;

	h ^= h >> 16;
	h *= 0x7feb352du;
	h ^= h >> 15;
	h *= 0x846ca68bu;
	return h ^ (h >> 16);
}

uint32_t rdp_dv_sum(const uint8_t *buf, size_t len)
{
	uint64_t a = 0, b = 0, w;
	size_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		memcpy(&w, buf + i, 8);
		a += w;
		b += a;
	}
	for (; i < len; i++) {
		a += buf[i];
		b += a;
	}
	/* a change d in word i moves a by d and b by d * (n - i): their
	 * odd-weighted sum moves unless d is 0 (mod 2^64) */
	a = a * 0x9e3779b97f4a7c15ull + b * 0xc2b2ae3d27d4eb4full;
	return (uint32_t)(a ^ (a >> 32));
}

void rdp_dv_image(uint8_t *msg, size_t len, uint32_t seed, uint32_t q,
		  uint32_t place)
{
	uint32_t key = image_key(seed, q, place), sum;
	size_t k;

	for (k = RDP_DV_HEAD_BYTES; k < len; k++)
		msg[k] = image_byte(k, key);
	sum = rdp_dv_sum(msg + RDP_DV_HEAD_BYTES, len - RDP_DV_HEAD_BYTES);
	memcpy(msg, &place, 4);
	memcpy(msg + 4, &sum, 4);
}

int rdp_dv_parse_flip(const char *s, struct rdp_dv_flip *f, char *why,
		      size_t len)
{
	unsigned long long qp, seq, off;
	char tail;

	if (sscanf(s, "%llu:%llu:%llu%c", &qp, &seq, &off, &tail) != 3 ||
	    qp > UINT32_MAX) {
		snprintf(why, len,
			 "RDP_TEST_FLIP=%s: expected QP:SEQUENCE:OFFSET "
			 "(three numbers)",
			 s);
		return -EINVAL;
	}
	f->qp = (uint32_t)qp;
	f->seq = seq;
	f->offset = off;
	return 0;
}

/* The test hook: one byte of one stamped message flipped after its
 * checksum, as a corrupting link would; the message recurs every ring. */
static int apply_flip(const struct rdp_run *run, const char *env)
{
	const struct rdp_dv *dv = &run->dv;
	struct rdp_dv_flip f;
	char why[200];

	if (rdp_dv_parse_flip(env, &f, why, sizeof(why)))
		goto bad;
	if (f.qp >= run->conn->num_qps || f.seq >= dv->ring ||
	    f.offset >= run->params->size_bytes) {
		snprintf(why, sizeof(why),
			 "RDP_TEST_FLIP=%s: the QP must be below %u, the "
			 "sequence below the ring's %u, the offset below "
			 "%" PRIu64,
			 env, run->conn->num_qps, dv->ring,
			 run->params->size_bytes);
		goto bad;
	}
	rdp_conn_tx(run->conn, f.qp)[f.seq * dv->stride + f.offset] ^= 0x5a;
	rdp_info("RDP_TEST_FLIP: byte %" PRIu64 " of QP %u's message %" PRIu64
		 " flipped after stamping",
		 f.offset, f.qp, f.seq);
	return 0;
bad:
	rdp_err("%s", why);
	return -EINVAL;
}

static int data_source(const struct rdp_run *run)
{
	return run->side == (run->ops->verb == RDP_VERB_READ ? RDP_SIDE_SERVER
							     : RDP_SIDE_CLIENT);
}

int rdp_dv_prepare(struct rdp_run *run)
{
	const struct rdp_params *p = run->params;
	struct rdp_dv *dv = &run->dv;
	const char *env;
	uint32_t q, k;

	memset(dv, 0, sizeof(*dv));
	dv->ring = rdp_dv_ring(run->ops, p);
	if (dv->ring <= 1)
		return 0;
	dv->stride = rdp_slot_bytes(p->size_bytes);
	dv->check = p->flags & RDP_PARAM_VALIDATE_DEBUG ? rdp_dv_check_debug
							: rdp_dv_check_quiet;
	for (q = 0; q < run->conn->num_qps; q++)
		for (k = 0; k < dv->ring; k++)
			rdp_dv_image(rdp_conn_tx(run->conn, q) + k * dv->stride,
				     p->size_bytes, p->seed, q, k);
	env = getenv("RDP_TEST_FLIP");
	return env && *env && data_source(run) ? apply_flip(run, env) : 0;
}

/* The first byte of msg that differs from the image: where, and both. */
static void locate(struct rdp_run *run, uint32_t q, uint64_t seq,
		   const uint8_t *msg, const uint8_t *want)
{
	struct rdp_dv *dv = &run->dv;
	uint64_t len = run->params->size_bytes, k;
	uint32_t stamp, want_sum;

	for (k = 0; k < len && msg[k] == want[k]; k++)
		;
	if (k == len) /* the checksum alone differs: cannot be */
		k = 0;
	dv->bad = 1;
	dv->bad_qp = q;
	dv->bad_seq = seq;
	dv->bad_offset = k;
	dv->expected = want[k];
	dv->got = msg[k];
	memcpy(&stamp, msg + 4, 4);
	memcpy(&want_sum, want + 4, 4);
	rdp_err("data validation: QP %u message sequence %" PRIu64
		" is corrupt at offset %" PRIu64 " of %" PRIu64
		" bytes: expected 0x%02x, got 0x%02x (checksum: stamped "
		"0x%08x, of the payload 0x%08x, expected 0x%08x)",
		q, seq, k, len, want[k], msg[k], stamp,
		rdp_dv_sum(msg + RDP_DV_HEAD_BYTES, len - RDP_DV_HEAD_BYTES),
		want_sum);
}

/* The stamp (place and checksum) as this side's own image has it, and the
 * checksum of the payload that came; the place's header is cleared after,
 * so that a message that never lands there is not taken for the last. */
static inline int check_one(struct rdp_run *run, uint32_t q, uint64_t seq,
			    uint8_t *msg)
{
	struct rdp_dv *dv = &run->dv;
	uint64_t len = run->params->size_bytes, t0 = rdp_cycles();
	const uint8_t *want =
		rdp_conn_tx(run->conn, q) + (seq % dv->ring) * dv->stride;
	uint32_t sum, head;
	int ok;

	memcpy(&head, want + 4, 4);
	sum = rdp_dv_sum(msg + RDP_DV_HEAD_BYTES, len - RDP_DV_HEAD_BYTES);
	ok = !memcmp(msg, want, RDP_DV_HEAD_BYTES) && sum == head;
	if (!ok && !dv->bad)
		locate(run, q, seq, msg, want);
	memset(msg, 0, RDP_DV_HEAD_BYTES);
	dv->msgs++;
	dv->bytes += len;
	dv->check_cycles += rdp_cycles() - t0;
	return ok;
}

void rdp_dv_check_quiet(struct rdp_run *run, uint32_t q, uint64_t seq,
			uint8_t *msg)
{
	check_one(run, q, seq, msg);
}

void rdp_dv_check_debug(struct rdp_run *run, uint32_t q, uint64_t seq,
			uint8_t *msg)
{
	uint32_t place = (uint32_t)(seq % run->dv.ring), sum;
	int ok;

	memcpy(&sum, msg + 4, 4);
	ok = check_one(run, q, seq, msg);
	rdp_info("data validation: QP %u sequence %" PRIu64 " (place %u of "
		 "%u): checksum 0x%08x, %s",
		 q, seq, place, run->dv.ring, sum, ok ? "ok" : "CORRUPT");
}

/* The messages of QP q from its ring and the receive that takes message
 * seq + rx_depth (in order on an RC queue) into its place. */
void rdp_dv_recv_place(const struct rdp_run *run, uint32_t q, uint64_t seq,
		       struct ibv_sge *sge)
{
	sge->addr = (uint64_t)(uintptr_t)rdp_conn_rx(run->conn, q) +
		    (seq % run->dv.ring) * run->dv.stride;
}

/* The bandwidth client's requests: each posts from, or reads into, its
 * message's place; the remote place of a READ or a WRITE follows. */
void rdp_bw_ring_setup(const struct rdp_run *run, struct bw_state *st)
{
	uint32_t q, i;

	st->ring = run->dv.ring;
	st->stride = run->dv.stride;
	for (q = 0; q < st->num_qps; q++) {
		struct bw_qp *b = &st->qps[q];

		b->laddr = b->sge.addr;
		b->raddr = b->wr[0].wr.rdma.remote_addr;
		for (i = 0; i < BW_POST_BATCH; i++) {
			b->ring_sge[i] = b->sge;
			b->wr[i].sg_list = &b->ring_sge[i];
		}
	}
}

/* After DONE: the checking side's verdict, with what checking cost. */
int rdp_dv_verify(const struct rdp_run *run, struct rdp_data_check *r)
{
	const struct rdp_dv *dv = &run->dv;
	int checker = !data_source(run);
	double ns;

	if (!checker)
		return 0;
	/* Counted in messages: RDP_DV_CHECK_UNIT. */
	r->checked_bytes = dv->msgs;
	if (dv->bad) {
		r->status = -EILSEQ;
		r->bad_offset = dv->bad_offset;
		return r->status;
	}
	if (!dv->msgs) {
		rdp_err("data validation: no message was checked on this "
			"side (offset 0)");
		r->status = -EILSEQ;
		r->bad_offset = 0;
		return r->status;
	}
	ns = run->clk ? rdp_clock_ns(run->clk, dv->check_cycles) : 0;
	r->check_ns = (uint64_t)ns;
	rdp_info("data validation: %" PRIu64 " messages (%" PRIu64
		 " bytes) checked as they completed, none corrupt; checking "
		 "took %.3f ms, %.0f ns a message",
		 dv->msgs, dv->bytes, ns / 1e6, ns / (double)dv->msgs);
	return 0;
}
