/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * How one QP is addressed for its peer: what QP_INFO carries and
 * rdp_conn_connect() takes, the engine's own struct.
 * Layer: engine
 */
#ifndef RDMAPERF_QP_INFO_H
#define RDMAPERF_QP_INFO_H

#include <stdint.h>

struct rdp_qp_info {
	uint32_t qpn;
	uint32_t psn;
	uint8_t gid[16];
	uint8_t gid_type; /* enum rdp_gid_type */
	uint16_t lid;
	uint32_t mtu_bytes; /* sender's active MTU */
	uint32_t rkey;
	uint64_t addr; /* remote-accessible buffer for this QP */
	uint64_t len_bytes;
	uint8_t rd_atomic; /* READ/atomic the sender accepts as responder */
};

#endif /* RDMAPERF_QP_INFO_H */
