/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The transports (-c): one const row each, with what a QP of it carries,
 * how it is built and addressed, and what a run on it must allow for.
 * Everything that differs between RC, UC and UD reads its row; adding a
 * transport is a row in src/engine/transport.c and its attribute builders.
 * Layer: engine
 */
#ifndef RDMAPERF_TRANSPORT_H
#define RDMAPERF_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>

struct rdp_qp_cfg;
struct rdp_qp_info;

/* -c: the rows' index, what PARAMS carries (0 is RC). */
enum rdp_transport_id {
	RDP_TRANSPORT_RC = 0, /* reliable connected */
	RDP_TRANSPORT_UC = 1, /* unreliable connected: no ACKs, no READ */
	RDP_TRANSPORT_UD = 2, /* unreliable datagram: one packet a message */
	/* extended reliable connected: named so that the device's answer
	 * (IBV_DEVICE_XRC) can be given; no test runs on it yet */
	RDP_TRANSPORT_XRC = 3,
	RDP_TRANSPORT_COUNT
};

/* What a transport's QPs can post: its row's verbs mask. Bit n is verb
 * n of the test loops (enum rdp_verb: WRITE, READ, SEND, ATOMIC). */
enum rdp_transport_verbs {
	RDP_TRANSPORT_WRITE = 1u << 0,
	RDP_TRANSPORT_READ = 1u << 1,
	RDP_TRANSPORT_SEND = 1u << 2,
	RDP_TRANSPORT_ATOMIC = 1u << 3,
	RDP_TRANSPORT_WRITE_IMM = 1u << 4, /* WRITE with immediate data */
	RDP_TRANSPORT_SEND_IMM = 1u << 5,  /* SEND with immediate data */
};

struct rdp_transport {
	enum rdp_transport_id id;
	const char *name;	  /* "RC": -c's word and the reports' */
	const char *verbs_name;	  /* "rc": how verbs' fields spell it */
	enum ibv_qp_type qp_type; /* what ibv_create_qp() is asked for */
	unsigned int verbs;	  /* enum rdp_transport_verbs it carries */
	/* 0: no test runs on it yet; the device is asked only whether it
	 * could (dev_cap_flag), and the connection is refused */
	int runs_tests;
	unsigned int dev_cap_flag; /* IBV_DEVICE_* it needs, 0: none */
	const char *dev_cap_name;  /* "IBV_DEVICE_XRC", for the message */
	/* ACKs and retries: a message arrives or the QP fails. 0: messages
	 * may be lost, so loss is counted (sent - received) */
	int reliable;
	/* lossy: how long the receiver still takes late messages after the
	 * sender's DONE, before what never came counts as lost */
	uint32_t late_quiet_ms;
	int connected; /* one peer QP, fixed at RTR */
	/* each send names its peer: an address handle per QP, made at
	 * connect, with the peer's QPN and Q_Key (UD) */
	int needs_ah;
	uint32_t grh_bytes; /* ahead of each received message (UD's GRH) */
	int one_packet;	    /* a message is one packet: -s <= path MTU */
	/* -s when none is given, 0: the test's own; UD: one packet that
	 * fits every MTU from 1024 up */
	uint32_t default_size_bytes;
	int cm_ok;	      /* -R can connect it (RDMA CM, TCP port space) */
	int perftest_ok;      /* --perftest: perftest's peer runs it with us */
	int host_memory_only; /* no --use_cuda, no --bounce on it */
	/* The IBV_ODP_SUPPORT_* mask of its QPs in struct ibv_odp_caps */
	size_t odp_caps_offset;
	/* QP attributes per transition (engine.h's rdp_qp_attr_*), pure;
	 * NULL where no QP of it is built yet (runs_tests 0) */
	void (*attr_init)(const struct rdp_qp_cfg *cfg, int access,
			  struct ibv_qp_attr *attr, int *mask);
	void (*attr_rtr)(const struct rdp_qp_cfg *cfg,
			 const struct rdp_qp_info *remote,
			 struct ibv_qp_attr *attr, int *mask);
	void (*attr_rts)(const struct rdp_qp_cfg *cfg, struct ibv_qp_attr *attr,
			 int *mask);
};

/* Row of id; NULL out of range. */
const struct rdp_transport *rdp_transport_get(uint32_t id);
/* Row named name ("rc", "UD": any case); NULL for an unknown word. */
const struct rdp_transport *rdp_transport_by_name(const char *name);
/* Row whose QPs are of type t; NULL for a type no row has. */
const struct rdp_transport *rdp_transport_by_qp_type(enum ibv_qp_type t);
/* "RC", "UC", "UD", "XRC"; "?" out of range. */
const char *rdp_transport_name(uint32_t id);
/* Messages may be lost: nothing acknowledges them (out of range too). */
int rdp_transport_lossy(uint32_t id);
/* Whether row t can post verb (enum rdp_verb of the test loops). */
int rdp_transport_carries(const struct rdp_transport *t, unsigned int verb);
/*
 * The names of the rows that run tests and pass keep (NULL: all), as a
 * sentence's list with last before the last one (" and ", " or "): "RC",
 * "RC and UC", "RC, UC and UD". For messages that name what is allowed
 * without naming it by hand.
 */
void rdp_transport_list(int (*keep)(const struct rdp_transport *t),
			const char *last, char *buf, size_t len);

#endif /* RDMAPERF_TRANSPORT_H */
