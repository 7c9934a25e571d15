/* SPDX-License-Identifier: BSD-2-Clause */
/* The data check of every test: a pattern per seed, QP and side in what a
 * side sends, and verify() building blocks that find it where it must have
 * landed and zeros everywhere else. Runs after the timed region. */
#include <stdint.h>
#include <string.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/log.h>

#include "bench_int.h"
#include "validate_int.h"

/* A pattern that differs per seed, QP and side, and per byte position,
 * so data landing in the wrong slot or at the wrong offset is caught. */
static inline uint8_t pattern_byte(size_t k, uint32_t key)
{
	return (uint8_t)(k * 131u + (k >> 9) * 17u + key * 73u + (key >> 8));
}

static uint32_t pattern_key(uint32_t seed, uint32_t qp, enum rdp_side side)
{
	return seed * 2654435761u ^ (qp << 8) ^ ((uint32_t)side << 20);
}

void rdp_pattern_fill(uint8_t *buf, size_t len, uint32_t seed, uint32_t qp,
		      enum rdp_side side)
{
	uint32_t key = pattern_key(seed, qp, side);
	size_t k;

	for (k = 0; k < len; k++)
		buf[k] = pattern_byte(k, key);
}

long long rdp_pattern_check(const uint8_t *buf, size_t len, uint32_t seed,
			    uint32_t qp, enum rdp_side side)
{
	uint32_t key = pattern_key(seed, qp, side);
	size_t k;

	for (k = 0; k < len; k++)
		if (buf[k] != pattern_byte(k, key))
			return (long long)k;
	return -1;
}

/* --use-srq: a shared queue hands any QP's message to any slot (-g: the
 * group hands every QP's message to every QP). Every
 * slot a message reached holds the pattern of one of the peer's QPs; a
 * slot none reached is still zero; at least one was reached. */
static int check_rx_shared(const struct rdp_run *run, uint64_t len,
			   enum rdp_side peer, struct rdp_data_check *r)
{
	const struct rdp_conn *conn = run->conn;
	long long bad = 0, best;
	uint32_t q, k, from;
	uint64_t i;

	for (q = 0; q < conn->num_qps; q++) {
		const uint8_t *rx = rdp_conn_rx_data(conn, q);

		for (i = 0; i < len && !rx[i]; i++)
			;
		if (i == len)
			continue; /* no message came to this slot */
		/* the QP whose pattern holds longest: the likely sender */
		for (k = 0, best = -1, from = 0; k < conn->num_qps; k++) {
			bad = rdp_pattern_check(rx, len, run->params->seed, k,
						peer);
			if (bad < 0)
				break;
			if (bad > best) {
				best = bad;
				from = k;
			}
		}
		if (bad >= 0) {
			bad = best;
			rdp_err("data check (%s): the receive slot of "
				"QP %u holds no QP's message: QP %u's but for "
				"byte %lld of %llu (offset %llu)",
				conn->srq ? "--use-srq" : "-g", q, from, bad,
				(unsigned long long)len,
				(unsigned long long)q * len + (uint64_t)bad);
			r->status = -EILSEQ;
			r->bad_offset = (uint64_t)q * len + (uint64_t)bad;
			return r->status;
		}
		r->checked_bytes += len;
	}
	if (!r->checked_bytes) {
		rdp_err("data check (%s): no message reached any of the %u "
			"QPs' receive slots (offset 0)",
			conn->srq ? "--use-srq" : "-g", conn->num_qps);
		r->status = -EILSEQ;
		r->bad_offset = 0;
	}
	return r->status;
}

/* Every receive slot holds the peer's pattern, less the flag bytes. */
static int check_rx(const struct rdp_run *run, struct rdp_data_check *r)
{
	const struct rdp_params *p = run->params;
	const struct rdp_conn *conn = run->conn;
	enum rdp_side peer = run->side == RDP_SIDE_CLIENT ? RDP_SIDE_SERVER
							  : RDP_SIDE_CLIENT;
	uint64_t len = p->size_bytes - run->ops->tail_bytes;
	uint32_t q;

	/* -g: every QP of the group takes every sender's messages too */
	if (conn->srq || conn->mcast)
		return check_rx_shared(run, len, peer, r);
	for (q = 0; q < conn->num_qps; q++) {
		long long bad = rdp_pattern_check(rdp_conn_rx_data(conn, q),
						  len, p->seed, q, peer);

		if (bad >= 0) {
			rdp_err("data check: QP %u received a wrong byte %lld "
				"of %llu (offset %llu): data landed in the "
				"wrong slot or was corrupted",
				q, bad, (unsigned long long)len,
				(unsigned long long)q * len + (uint64_t)bad);
			r->status = -EILSEQ;
			r->bad_offset = (uint64_t)q * len + (uint64_t)bad;
			return r->status;
		}
		r->checked_bytes += len;
	}
	return 0;
}

int rdp_verify_client_rx(const struct rdp_run *run, uint64_t count,
			 struct rdp_data_check *r)
{
	(void)count;
	return run->side == RDP_SIDE_CLIENT ? check_rx(run, r) : 0;
}

int rdp_verify_both_rx(const struct rdp_run *run, uint64_t count,
		       struct rdp_data_check *r)
{
	(void)count;
	return check_rx(run, r);
}

/* The first byte of [from, to) of buf that is not zero, or -1. */
static long long first_set(const uint8_t *buf, size_t from, size_t to)
{
	size_t k;

	for (k = from; k < to; k++)
		if (buf[k])
			return (long long)k;
	return -1;
}

/*
 * Whatever this test did not write in this side's buffer reads zero: each
 * slot past its message (past the GRH and message in a receive slot), and
 * the buffer past the last slot. A byte there is a stray write of the
 * peer's, or data an earlier test left in memory that was not zeroed: the
 * peer of this test could have read it.
 */
static int check_untouched(const struct rdp_run *run, struct rdp_data_check *r)
{
	const struct rdp_conn *c = run->conn;
	const uint8_t *buf = c->buf;
	size_t msg = (size_t)run->params->size_bytes, slot = c->slot_bytes;
	size_t end = (size_t)c->num_qps * 2 * slot;
	long long bad = first_set(buf, end, c->buf_bytes);
	uint32_t q;

	for (q = 0; bad < 0 && q < c->num_qps; q++) {
		size_t tx = (size_t)(rdp_conn_tx(c, q) - buf);

		bad = first_set(buf, tx + msg, tx + slot);
		if (bad < 0)
			bad = first_set(buf, tx + slot + c->grh_bytes + msg,
					tx + 2 * slot);
	}
	if (bad < 0)
		return 0;
	rdp_err("byte %lld of this side's %zu-byte buffer, outside every "
		"message of this test, holds 0x%02x: a stray write, or data "
		"left by an earlier test",
		bad, c->buf_bytes, buf[bad]);
	r->status = -EILSEQ;
	r->bad_offset = (uint64_t)bad;
	return r->status;
}

/* WRITE and SEND put the data in the server's memory, READ in the
 * client's; with -b both sides ran the loop. Where the data landed, the
 * rest of the buffer must still be zero. */
int rdp_verify_data_rx(const struct rdp_run *run, uint64_t count,
		       struct rdp_data_check *r)
{
	enum rdp_side into = run->ops->verb == RDP_VERB_READ ? RDP_SIDE_CLIENT
							     : RDP_SIDE_SERVER;
	int ret;

	if (run->dv.ring > 1) /* checked message by message */
		return rdp_dv_verify(run, r);
	if (!(run->params->flags & RDP_PARAM_BIDIR) && run->side != into)
		return 0;
	ret = rdp_verify_both_rx(run, count, r);
	return ret ? ret : check_untouched(run, r);
}
