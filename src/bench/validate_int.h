/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --data_validation inside src/bench: the stamped ring and the check of one
 * message (validate.c), for the loops that call it.
 *
 * Message s of QP q sits at place s % ring of q's slots (the sender's send
 * slot, the receiver's receive slot; READ's reader takes the peer's send
 * slot into its receive slot). Its first RDP_DV_HEAD_BYTES hold its place
 * and a checksum of the rest, stamped at set-up. A place is written again
 * only once its message was checked: the sender reuses it after ring
 * completions (its window is smaller), a receive into it is posted again
 * after the check, and with WRITE with immediate data the writer is held
 * by the receives (rx_depth) and its window (tx_depth), ring > both.
 */
#ifndef RDMAPERF_VALIDATE_INT_H
#define RDMAPERF_VALIDATE_INT_H

#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>

#include <rdmaperf/bench.h>

#define RDP_DV_HEAD_BYTES 8 /* place (4 bytes), checksum (4 bytes) */

struct bw_state;

/* RDP_TEST_FLIP=QP:SEQUENCE:OFFSET, for the tests only. */
struct rdp_dv_flip {
	uint32_t qp;
	uint64_t seq;
	uint64_t offset;
};
int rdp_dv_parse_flip(const char *s, struct rdp_dv_flip *f, char *why,
		      size_t len);

/* The checksum a stamp carries, over a message's payload. */
uint32_t rdp_dv_sum(const uint8_t *buf, size_t len);
/* The stamped image of QP q's message at place `place`. */
void rdp_dv_image(uint8_t *msg, size_t len, uint32_t seed, uint32_t q,
		  uint32_t place);
/* run->dv from the parameters; every QP's send ring stamped; with
 * RDP_TEST_FLIP set on the side whose data travels, one byte flipped. */
int rdp_dv_prepare(struct rdp_run *run);
/* run->dv.check: the first corrupt message logged and kept in run->dv;
 * _debug also logs every check. */
void rdp_dv_check_quiet(struct rdp_run *run, uint32_t q, uint64_t seq,
			uint8_t *msg);
void rdp_dv_check_debug(struct rdp_run *run, uint32_t q, uint64_t seq,
			uint8_t *msg);
/* A receive's place for QP q's message seq. */
void rdp_dv_recv_place(const struct rdp_run *run, uint32_t q, uint64_t seq,
		       struct ibv_sge *sge);
/* The bandwidth client's requests on the ring (bw.c's ring variants). */
void rdp_bw_ring_setup(const struct rdp_run *run, struct bw_state *st);
/* verify() with --data_validation: the checking side's verdict. */
int rdp_dv_verify(const struct rdp_run *run, struct rdp_data_check *r);

#endif /* RDMAPERF_VALIDATE_INT_H */
