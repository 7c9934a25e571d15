/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Test parameters: what the client decides and sends to the server, so the
 * server needs no matching flags.
 * Layer: bench
 */
#ifndef RDMAPERF_PARAMS_H
#define RDMAPERF_PARAMS_H

#include <stdint.h>

#include <rdmaperf/transport.h>

#define RDP_TEST_NAME_MAX 32
/* --flow_label's list: labels one PARAMS carries (1 KiB of payload) */
#define RDP_FLOW_LABELS_MAX 256

enum rdp_param_flags {
	RDP_PARAM_GRH = 1u << 0, /* IB: route with a GRH even on one subnet */
	RDP_PARAM_CAS = 1u << 1, /* atomics: compare-and-swap, not fetch-add */
	RDP_PARAM_BIDIR = 1u << 2,   /* -b: the server runs the loop too */
	RDP_PARAM_RDMA_CM = 1u << 3, /* -R: QPs connected through RDMA CM */
	RDP_PARAM_TOS = 1u << 4,     /* -T/--tclass given, not the default */
	RDP_PARAM_EVENTS = 1u << 5,  /* -e: sleep on a completion channel */
	/* WRITE with immediate data: the receiver consumes a completion per
	 * message (--write_with_imm) */
	RDP_PARAM_WRITE_IMM = 1u << 6,
	RDP_PARAM_SEND_IMM = 1u << 7,  /* SEND with immediate data */
	RDP_PARAM_MR_PER_QP = 1u << 8, /* each QP's slots their own MR */
	RDP_PARAM_ODP = 1u << 9,       /* on-demand paging MRs */
	/* --implicit_odp: an MR over the whole address space, whose key
	 * would reach the peer. Refused on both sides; never granted. */
	RDP_PARAM_ODP_IMPLICIT = 1u << 10,
	/* --run_infinitely: the client runs until stopped; duration_s is
	 * its report interval */
	RDP_PARAM_LIVE = 1u << 11,
	RDP_PARAM_SRQ = 1u << 12, /* --use-srq: receives on one shared queue */
	/* --reversed: the server sends, the client receives */
	RDP_PARAM_REVERSED = 1u << 13,
	/* On the wire only: the loop's shape (recv_post_list, burst_size,
	 * typical_pkt_bytes, latency_gap_ns) follows the fixed fields of
	 * PARAMS; set by the encoder when one is given, never kept. */
	RDP_PARAM_LOOP_SHAPE = 1u << 14,
	/* --use_old_post_send: both sides post with ibv_post_send on plain
	 * QPs, not the ibv_wr_* builders of extended ones */
	RDP_PARAM_OLD_POST_SEND = 1u << 15,
	/* --data_validation: every message stamped and checked as it
	 * completes (bench/validate.c); _DEBUG logs each check */
	RDP_PARAM_VALIDATE = 1u << 16,
	RDP_PARAM_VALIDATE_DEBUG = 1u << 17,
	/* -g: UD SENDs go to a multicast group, which the server's QPs
	 * join (mgid, or the default group) */
	RDP_PARAM_MCAST = 1u << 18,
	/* -g with -R: the server's QPs join the group through the RDMA CM
	 * (rdma_join_multicast), not by attaching to its MGID; the QPs
	 * themselves are exchanged over TCP as without -R, so the client
	 * sends this in place of RDP_PARAM_RDMA_CM */
	RDP_PARAM_MCAST_CM = 1u << 19,
	/* -g: the server's RESULT ends with what each QP of the group
	 * received (a server that predates it refuses the flag) */
	RDP_PARAM_MCAST_COUNTS = 1u << 20,
	/* --use-null-mr: both sides' keys name the device's null MR (writes
	 * discarded, reads zeros); no data check */
	RDP_PARAM_NULL_MR = 1u << 21,
	/* -O/--dualport: both sides' QPs half on each port of the device */
	RDP_PARAM_DUALPORT = 1u << 22,
};

/* The flags a server acts on; it refuses a PARAMS with any other bit, so
 * that no flag it does not know can change what its keys cover. */
#define RDP_PARAM_KNOWN                                                        \
	(RDP_PARAM_GRH | RDP_PARAM_CAS | RDP_PARAM_BIDIR | RDP_PARAM_RDMA_CM | \
	 RDP_PARAM_TOS | RDP_PARAM_EVENTS | RDP_PARAM_WRITE_IMM |              \
	 RDP_PARAM_SEND_IMM | RDP_PARAM_MR_PER_QP | RDP_PARAM_ODP |            \
	 RDP_PARAM_LIVE | RDP_PARAM_SRQ | RDP_PARAM_REVERSED |                 \
	 RDP_PARAM_OLD_POST_SEND | RDP_PARAM_VALIDATE |                        \
	 RDP_PARAM_VALIDATE_DEBUG | RDP_PARAM_MCAST | RDP_PARAM_MCAST_CM |     \
	 RDP_PARAM_MCAST_COUNTS | RDP_PARAM_NULL_MR | RDP_PARAM_DUALPORT)

struct rdp_params {
	char test[RDP_TEST_NAME_MAX]; /* registry name, e.g. "write_bw" */
	uint64_t size_bytes;	      /* message size */
	uint64_t iters;		      /* per QP; 0 in duration mode */
	uint32_t duration_s;	      /* 0: run for iters */
	uint32_t warmup_iters;	      /* latency only, not measured */
	uint32_t num_qps;
	uint32_t tx_depth;     /* outstanding work requests per QP */
	uint32_t cq_mod;       /* signal one send in cq_mod */
	uint32_t rx_depth;     /* receives kept posted per QP (send tests) */
	uint32_t outstanding;  /* READ/atomic in flight per QP, 0: device max */
	uint32_t inline_bytes; /* largest message sent inline (asked) */
	uint32_t post_list;    /* work requests chained per post call */
	uint32_t qp_timeout;   /* ACK timeout exponent: 4.096 us * 2^n */
	uint32_t sl;	       /* service level */
	uint32_t mtu_bytes;    /* 0: the smaller of both active MTUs */
	uint32_t tclass;       /* RoCE traffic class / IB GRH class */
	uint32_t seed;	       /* data pattern seed */
	uint32_t flags;	       /* enum rdp_param_flags */
	uint32_t pkey_index;   /* the port's P_Key table entry */
	uint32_t flow_label;   /* GRH flow label, 20 bits */
	uint32_t hop_limit;    /* GRH hop limit */
	uint32_t retry_count;  /* transport retries before a QP fails */
	uint32_t rnr_retry;    /* RNR NAK retries, 7: forever */
	uint32_t comp_vector;  /* -X: the CQ's completion vector (-e) */
	uint32_t transport;    /* enum rdp_transport_id (-c) */
	uint64_t rate_milli;   /* --rate_limit x 1000 in rate_units; 0: none */
	uint32_t rate_units;   /* enum rdp_rate_units */
	uint32_t rate_type;    /* enum rdp_rate_type */
	/* --threads: bandwidth loops on this many threads per side, the QPs
	 * split among them; 1 runs the loop on the calling thread */
	uint32_t threads;
	/* -M: the group of -g; all zero: the default of the GID's family */
	uint8_t mgid[16];
	/* --flow_label given as a list: QP i's label, one per QP; 0: every
	 * QP takes flow_label (which holds the first of a list) */
	uint32_t n_flow_labels;
	uint32_t flow_labels[RDP_FLOW_LABELS_MAX];
	/* --recv_post_list: receives posted in chains of this many, one
	 * post call each; 0 (not given) and 1: one at a time */
	uint32_t recv_post_list;
	/* --burst_size: paced messages sent back to back, then a wait that
	 * keeps the average rate; 0: spread evenly */
	uint32_t burst_size;
	uint32_t typical_pkt_bytes; /* --typical_pkt_size: the device's */
	uint64_t latency_gap_ns;    /* --latency_gap: pause between trips */
};

/* Whether the loop's shape travels in PARAMS (any of its fields given). */
static inline int rdp_params_loop_shape(const struct rdp_params *p)
{
	return p->recv_post_list > 1 || p->burst_size || p->typical_pkt_bytes ||
	       p->latency_gap_ns;
}

/* The GRH flow label of QP qp. */
static inline uint32_t rdp_params_flow_label(const struct rdp_params *p,
					     uint32_t qp)
{
	return qp < p->n_flow_labels ? p->flow_labels[qp] : p->flow_label;
}

/* --rate_units: what --rate_limit counts. */
enum rdp_rate_units {
	RDP_RATE_GBPS = 0, /* 10^9 bit/s, the default */
	RDP_RATE_MBPS,	   /* 10^6 bit/s */
	RDP_RATE_MIBPS,	   /* 2^20 byte/s (perftest's M) */
	RDP_RATE_PPS,	   /* messages per second */
	RDP_RATE_UNITS_COUNT
};

/* --rate_limit_type: who paces the sender. */
enum rdp_rate_type {
	RDP_RATE_AUTO = 0, /* the device where it paces, else software */
	RDP_RATE_HW,	   /* the device (ibv_modify_qp_rate_limit) */
	RDP_RATE_SW,	   /* the loop waits between posts */
	RDP_RATE_TYPE_COUNT
};

/* "Gb/s", "Mb/s", "MiB/s", "pps"; "?" out of range. */
const char *rdp_rate_units_name(uint32_t units);
/* The asked rate in messages per second for messages of size_bytes. */
double rdp_rate_msgs_per_s(const struct rdp_params *p);
/* ... and in kbit/s, as the device takes it (0 when it does not fit). */
uint64_t rdp_rate_kbps(const struct rdp_params *p);

#endif /* RDMAPERF_PARAMS_H */
