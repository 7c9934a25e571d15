/* SPDX-License-Identifier: BSD-2-Clause */
/* The ping-pong engine's variants (pingpong.c): each is one timed loop of
 * its own, its options compiled in as constants; the unit tests read the
 * choice. */
#ifndef RDMAPERF_PINGPONG_INT_H
#define RDMAPERF_PINGPONG_INT_H

#include <rdmaperf/bench.h>

enum pp_variant {
	/* rdmaperf's ping-pong: the client pings, the server echoes, a stop
	 * message ends it */
	PP_WRITE,	/* the peer's write seen in the last byte of the slot */
	PP_WRITE_IMM,	/* --write_with_imm: seen as a receive completion */
	PP_SEND,	/* sends into receives, the CQ polled */
	PP_SEND_EVENTS, /* -e: asleep on the completion channel when idle */
	/* perftest's: exactly -n messages each way, no stop message; one
	 * side posts first (WRITE: the server, SEND: the client), the other
	 * replies, and both measure */
	PP_PT_WRITE_FIRST,
	PP_PT_WRITE_REPLY,
	PP_PT_SEND_FIRST,
	PP_PT_SEND_REPLY,
	PP_VARIANTS
};

/* The variant ops (a ping-pong test) runs with p on side; counted: the
 * counted sequence (the PP_PT_ variants), not the echo; events: the
 * connection has a completion channel. */
enum pp_variant rdp_pp_variant(const struct rdp_bench_ops *ops,
			       const struct rdp_params *p, enum rdp_side side,
			       int counted, int events);

#endif /* RDMAPERF_PINGPONG_INT_H */
