/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The verbs engine shared by client and server: device and port, PD, MR on
 * the benchmark buffer, CQ, QPs (RC, UC or UD) through
 * RESET->INIT->RTR->RTS, and UD's address handles.
 * Layer: engine
 */
#ifndef RDMAPERF_ENGINE_H
#define RDMAPERF_ENGINE_H

#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>

#include <rdmaperf/gid.h>
#include <rdmaperf/mem.h>
#include <rdmaperf/post.h>
#include <rdmaperf/qp_info.h>
#include <rdmaperf/transport.h>

struct rdp_sysfs;
struct rdp_cm;
struct rdp_mcast_cm;
struct rdp_events;
struct rdp_stage;
struct rdp_mem_buf;

struct rdp_port_info {
	uint8_t num;
	uint8_t link_layer; /* IBV_LINK_LAYER_* */
	enum ibv_port_state state;
	uint8_t phys_state;
	uint32_t active_mtu_bytes;
	uint32_t max_mtu_bytes;
	uint16_t lid;
	uint8_t active_speed;
	uint8_t active_width;
	int gid_tbl_len;
	int pkey_tbl_len;
};

struct rdp_dev {
	struct ibv_context *ctx;
	char name[64];
	struct ibv_device_attr attr;
	struct rdp_port_info port;
	int numa_node;		      /* -1 unknown */
	struct ibv_context **cm_list; /* -R: librdmacm's, owning ctx */
	/* from ibv_query_device_ex(), zero where the library lacks it */
	struct ibv_packet_pacing_caps pacing;
	struct ibv_odp_caps odp;
	/* Where the buffers of its connections come from: set by the
	 * caller before rdp_conn_create(), owned, closed with the device. */
	struct rdp_mem *mem;
	/* Set by the device's owner: rdp_conn_destroy() keeps a plain
	 * connection's PD, registered buffer and CQs on the device (its QPs
	 * go), and the next rdp_conn_create() of the same shape takes them
	 * with fresh QPs. The kept one is freed with the device. */
	int keep_conns;
	struct rdp_conn *kept;
	/* It refused an extended QP for the ibv_wr_* builders once (said
	 * then): its later QPs are plain from the start. */
	int wr_api_refused;
	/* rdp_conn_create()s that built everything, and that reused a
	 * kept connection's */
	uint32_t conns_built;
	uint32_t conns_reused;
	/* Its asynchronous events (events.h), watched while it is open by
	 * its owner; NULL: not watched. */
	struct rdp_events *events;
};

/*
 * Open a device by name, or with name NULL/"" the first one whose port is
 * ACTIVE. Errors name the devices present and the likely fix:
 * -ENODEV none found (exit 77 material), -ENXIO no device of that name
 * (a wrong -d), -ENETDOWN port not active.
 */
int rdp_dev_open(const char *name, int port, struct rdp_dev **out);
/*
 * The same through librdmacm's device contexts, for RDMA CM mode (-R):
 * QPs created on RDMA CM ids need a PD of the context CM resolved to.
 * -ENODEV when RDMA CM itself is unavailable.
 */
int rdp_dev_open_cm(const char *name, int port, struct rdp_dev **out);
void rdp_dev_close(struct rdp_dev *dev);
/*
 * A device kept open between sessions, checked again: its port queried
 * afresh; -ENETDOWN (logged as rdp_dev_open() does) when it is no longer
 * ACTIVE, which also frees the kept connection.
 */
int rdp_dev_refresh(struct rdp_dev *dev);
/*
 * The valid GIDs of dev's port, in index order, up to cap: one query of
 * the device (ibv_query_gid_table), else, where the kernel lacks it, one
 * sysfs file a slot (1024 slots on rxe: half a second under emulation).
 */
int rdp_dev_gid_table(const struct rdp_dev *dev, struct rdp_gid_entry *tab,
		      size_t cap, size_t *n_out);
/*
 * -x checked once the device is open, before anything connects: -ENOENT,
 * with one line naming the device, port, index and the valid ones, when
 * index is no valid GID of dev's port. index < 0 (none given) and a
 * device without a verbs context (a test's) pass.
 */
int rdp_dev_gid_check(const struct rdp_dev *dev, int index);

const char *rdp_link_layer_str(uint8_t link_layer);
const char *rdp_port_state_str(enum ibv_port_state state);
/* 256..4096 bytes <-> IBV_MTU_*; 0 for an invalid value. */
enum ibv_mtu rdp_mtu_from_bytes(uint32_t bytes);
uint32_t rdp_mtu_to_bytes(enum ibv_mtu mtu);

/* How one side of one QP is addressed, as carried in QP_INFO. */
struct rdp_qp_cfg {
	/* RC, UC or UD: which row's attributes apply (0: RC) */
	enum ibv_qp_type qp_type;
	uint32_t qkey; /* UD */
	uint8_t port;
	uint8_t link_layer;
	int use_grh; /* always on RoCE; on IB only when asked */
	int sgid_index;
	uint32_t psn;
	enum ibv_mtu path_mtu;
	uint8_t max_rd_atomic; /* outstanding RDMA READ/atomic as requester */
	uint8_t max_dest_rd_atomic;
	uint8_t traffic_class;
	uint8_t sl;
	uint16_t pkey_index;
	uint32_t flow_label;
	uint8_t hop_limit;
	uint8_t timeout; /* 4.096 us * 2^timeout per try */
	uint8_t retry_cnt;
	uint8_t rnr_retry;
	uint8_t min_rnr_timer;
	uint16_t dlid; /* InfiniBand: the peer's LID given by hand, 0: its
			* own (rdp_qp_info's) */
};

/* Attribute builders: pure, unit-tested. Each calls the builder of the
 * transport row of cfg->qp_type (RC for 0), which sets only what the QP
 * type takes at that transition (ibv_modify_qp(3)): UC has no ACKs, so no
 * retries, timeout or READ/atomic depth; UD has no remote QP until each
 * send names one. */
void rdp_qp_attr_init(const struct rdp_qp_cfg *cfg, int access,
		      struct ibv_qp_attr *attr, int *mask);
void rdp_qp_attr_rtr(const struct rdp_qp_cfg *cfg,
		     const struct rdp_qp_info *remote, struct ibv_qp_attr *attr,
		     int *mask);
void rdp_qp_attr_rts(const struct rdp_qp_cfg *cfg, struct ibv_qp_attr *attr,
		     int *mask);
/* The address vector of the path to remote: RTR's for RC and UC, the
 * address handle's for UD. */
void rdp_qp_attr_ah(const struct rdp_qp_cfg *cfg,
		    const struct rdp_qp_info *remote, struct ibv_ah_attr *ah);
/* The Q_Key both sides of a UD test use. */
#define RDP_UD_QKEY 0x11111111u
/* What a UD receive buffer holds ahead of the message. */
#define RDP_UD_GRH_BYTES 40u

/* The path MTU: smaller of both active MTUs, or the requested one if lower. */
int rdp_path_mtu(uint32_t local_bytes, uint32_t remote_bytes,
		 uint32_t requested_bytes, uint32_t *mtu_out);

/* What a side grants its peer on its buffer, of the IBV_ACCESS_* flags: the
 * only ones a QP's qp_access_flags take. */
#define RDP_ACCESS_REMOTE                                                      \
	(IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |                    \
	 IBV_ACCESS_REMOTE_ATOMIC)

/* The settings a connection's PD, buffer and CQs were built for
 * (struct rdp_conn_cfg's, the GID's address by value): a kept one is
 * reused for the same only. */
struct rdp_conn_key {
	uint32_t num_qps, msg_bytes, tx_depth, rx_depth;
	uint32_t inline_bytes, transport, odp_ops, num_cqs;
	int gid_index, use_grh, mr_per_qp, odp, access, comp_vector;
	uint16_t pkey_index;
	int have_ip;
	struct rdp_ip ip;
};

/* Per-session resources: one PD, one MR over one buffer, one CQ, N QPs. */
struct rdp_conn {
	struct rdp_dev *dev;
	struct rdp_gid_choice gid;
	int have_gid;
	struct ibv_pd *pd;
	struct rdp_mem_buf *mb; /* the registered buffer, from dev->mem */
	void *buf;		/* mb->ptr */
	size_t buf_bytes;
	size_t slot_bytes; /* per QP: [tx slot][rx slot], each slot_bytes */
	struct ibv_mr *mr; /* mb->mr, or null_mr */
	/* --use-null-mr: the device's null MR, whose key the QPs use and
	 * the peer gets; NULL without */
	struct ibv_mr *null_mr;
	/* -O/--dualport: the second half of port2_qps QPs uses port2, its
	 * LID and its GID at the same index (rdp_qp_port_of); port2 0: one
	 * port */
	uint8_t port2;
	uint16_t port2_lid;
	uint8_t port2_gid[16];
	uint32_t port2_qps;
	struct ibv_mr **qp_mrs; /* --mr_per_qp: QP i's two slots, else NULL */
	uint32_t n_qp_mrs;
	int mr_access;	     /* IBV_ACCESS_* the buffer is registered with */
	uint16_t pkey_index; /* the QPs' P_Key entry */
	struct ibv_comp_channel *channel; /* -e, else NULL */
	int comp_vector;
	struct ibv_cq *cq; /* cqs[0]: every QP's, unless split */
	int cq_depth;	   /* entries of each CQ */
	/* --threads: a CQ per part of the QPs (rdp_qp_split over split_qps
	 * QPs); one otherwise */
	struct ibv_cq **cqs;
	uint32_t num_cqs;
	uint32_t split_qps;
	struct ibv_srq *srq; /* --use-srq: every QP's receives, else NULL */
	struct ibv_qp **qps;
	uint32_t *psns;
	uint32_t num_qps;
	uint8_t max_rd_atomic; /* READ/atomic in flight per QP, as initiator */
	uint8_t max_dest_rd_atomic; /* ... and as responder */
	uint32_t max_inline_bytes;
	struct rdp_qp_info *remote; /* per QP, once exchanged */
	uint32_t path_mtu_bytes;
	const struct rdp_transport *tp; /* the QPs' transport row */
	enum ibv_qp_type qp_type;	/* tp->qp_type */
	uint32_t msg_bytes;
	uint32_t grh_bytes;  /* tp->grh_bytes, ahead of each received message */
	struct ibv_ah **ahs; /* tp->needs_ah: per QP, the path to its peer QP */
	/* -g on the receiving side: its first mcast_qps QPs are attached to
	 * the group mcast_gid, and mcast_fd (-1: none) holds the netdev's IP
	 * membership of it; mcast 0: no group */
	int mcast;
	uint8_t mcast_gid[16];
	uint32_t mcast_qps;
	int mcast_fd;
	/* the group's LID (0 on RoCE), from the RDMA CM's join */
	uint16_t mcast_lid;
	/* -g -R: the RDMA CM's join of the group, which holds the
	 * membership (mcast_fd -1); NULL: attached by MGID */
	struct rdp_mcast_cm *mcast_cm;
	struct ibv_qp_init_attr qp_init; /* the shape of every QP */
	struct rdp_cm *cm;		 /* -R: the RDMA CM ids, else NULL */
	/* --bounce: the GPU twin of buf, made and freed above the engine */
	struct rdp_stage *stage;
	/* What it was built for, and whether rdp_conn_destroy() may keep
	 * it on its device (dev->keep_conns) */
	struct rdp_conn_key key;
	int keepable;
	/* What its QPs were made for: RDP_POST_WR, extended QPs with the
	 * builders of send_ops (IBV_QP_EX_WITH_*), or plain ones */
	enum rdp_post_api post_api;
	uint64_t send_ops;
};

struct rdp_conn_cfg {
	uint32_t num_qps;
	uint32_t msg_bytes;
	uint32_t tx_depth;
	uint32_t rx_depth;
	int gid_index; /* -1 auto */
	int use_grh;
	uint32_t inline_bytes;	       /* asked; the device may grant less */
	const struct rdp_ip *local_ip; /* OOB address, for GID choice */
	int defer_qps;	     /* -R: RDMA CM creates the QPs while connecting */
	uint16_t pkey_index; /* the port's P_Key entry for the QPs */
	int events;	     /* -e: the CQ reports to a completion channel */
	int comp_vector;     /* -X: the CQ's completion vector */
	uint32_t transport;  /* enum rdp_transport_id, 0: RC */
	int mr_per_qp;	     /* an MR over each QP's slots */
	int use_srq;	     /* one shared receive queue for all QPs */
	/* --odp: 1 for on-demand MRs over the buffer (never an implicit
	 * one); the IBV_ODP_SUPPORT_* operations the test needs on an ODP
	 * MR, checked against the device's odp_caps for the QP type */
	int odp;
	uint32_t odp_ops;
	/* IBV_ACCESS_* this side's buffer and QPs allow, rdp_bench_access():
	 * 0 lets the device only read it, and grants the peer nothing */
	int access;
	/* --threads: the QPs split into this many parts, a CQ each; 0 or 1:
	 * one CQ */
	uint32_t num_cqs;
	/* RDP_POST_WR: extended QPs for the builders of send_ops
	 * (IBV_QP_EX_WITH_*) where the device takes them, else plain ones;
	 * RDP_POST_SEND (--use_old_post_send): plain ones */
	enum rdp_post_api post_api;
	uint64_t send_ops;
	/* -g, receiving side: attach the QPs to this group (all zero: the
	 * default of the GID's family, mcast.h); NULL: no group */
	const uint8_t *mcast_gid;
	/* -g -R: join that group through the RDMA CM, bound to the GID's
	 * address (local_ip's on InfiniBand) */
	int mcast_cm;
	int null_mr; /* --use-null-mr: the keys name the null MR */
	/* -O: half the QPs on the device's other port */
	int dualport;
};

/*
 * The QPs of part `part` of `parts` when num_qps QPs are split as evenly as
 * they go, in order: [*first, *first + *n). The earlier parts get one fewer
 * when they do not divide.
 */
void rdp_qp_split(uint32_t num_qps, uint32_t parts, uint32_t part,
		  uint32_t *first, uint32_t *n);
/* Which part QP i falls in. */
uint32_t rdp_qp_part_of(uint32_t num_qps, uint32_t parts, uint32_t i);

int rdp_conn_create(struct rdp_dev *dev, const struct rdp_conn_cfg *cfg,
		    struct rdp_conn **out);
/* --use-null-mr: whether dev can allocate a null MR; -ENOSYS, with one
 * line naming the device, where it cannot. */
int rdp_dev_null_mr_check(struct rdp_dev *dev);
/* -O/--dualport: dev has two ports; -ENODEV, with one line naming the
 * device and its port count, where it has one. */
int rdp_dev_dualport_check(const struct rdp_dev *dev);
/* The port of QP i of num_qps: port for the first half, port2 (0: none)
 * for the rest. */
uint8_t rdp_qp_port_of(uint32_t num_qps, uint8_t port, uint8_t port2,
		       uint32_t i);
void rdp_conn_destroy(struct rdp_conn *conn);
/* --rate_limit on the device: every QP's send rate in kbit/s
 * (ibv_modify_qp_rate_limit), its largest burst in bytes and the packet
 * size it paces for (0: the device's choice); a failure is logged. */
int rdp_conn_rate_limit(struct rdp_conn *conn, uint32_t kbps,
			uint32_t max_burst_bytes, uint16_t typical_pkt_bytes);
/*
 * Part `part` of conn's split as a connection of its own, for one thread's
 * loop: its CQ, its QPs (numbered from 0), their slots of the buffer and
 * their peers. The view borrows everything from conn and owns nothing:
 * never destroy it; conn outlives it.
 */
void rdp_conn_view(const struct rdp_conn *conn, uint32_t part,
		   struct rdp_conn *view);

/* A message's slot in the buffer: cache-line aligned, so QPs never share
 * a line. Two slots per QP make a buffer. */
static inline uint64_t rdp_slot_bytes(uint64_t msg_bytes)
{
	return (msg_bytes + 63) & ~63ull;
}

static inline uint8_t *rdp_conn_tx(const struct rdp_conn *c, uint32_t qp)
{
	return (uint8_t *)c->buf + (size_t)qp * 2 * c->slot_bytes;
}

static inline uint8_t *rdp_conn_rx(const struct rdp_conn *c, uint32_t qp)
{
	return rdp_conn_tx(c, qp) + c->slot_bytes;
}

/* The keys of QP qp's slots: its own MR with --mr_per_qp. */
/* The port QP qp uses: the device's, or its other one under -O (1 for a
 * connection laid out without a device, in tests). */
static inline uint8_t rdp_conn_qp_port(const struct rdp_conn *c, uint32_t qp)
{
	if (!c->port2)
		return c->dev ? c->dev->port.num : 1;
	return rdp_qp_port_of(c->port2_qps, c->dev->port.num, c->port2, qp);
}

static inline uint32_t rdp_conn_lkey(const struct rdp_conn *c, uint32_t qp)
{
	return c->qp_mrs ? c->qp_mrs[qp]->lkey : c->mr->lkey;
}

static inline uint32_t rdp_conn_rkey(const struct rdp_conn *c, uint32_t qp)
{
	return c->qp_mrs ? c->qp_mrs[qp]->rkey : c->mr->rkey;
}

/* Where a received message starts: after the GRH on UD. */
static inline uint8_t *rdp_conn_rx_data(const struct rdp_conn *c, uint32_t qp)
{
	return rdp_conn_rx(c, qp) + c->grh_bytes;
}

/* A receive for QP qp: on its own receive queue, or on the shared one. */
static inline int rdp_conn_post_recv(const struct rdp_conn *c, uint32_t qp,
				     struct ibv_recv_wr *wr)
{
	struct ibv_recv_wr *bad;

	return c->srq ? ibv_post_srq_recv(c->srq, wr, &bad)
		      : ibv_post_recv(c->qps[qp], wr, &bad);
}

/* Where a send on QP qp goes where each send names it (tp->needs_ah: its
 * peer's address handle, QP number and Q_Key); nothing on connected QPs.
 * Set once on a pre-built request. */
void rdp_conn_send_dest(const struct rdp_conn *conn, uint32_t qp,
			struct ibv_send_wr *wr);

/* Describe local QP i for the peer. */
void rdp_conn_local_info(const struct rdp_conn *conn, uint32_t i, int expose_tx,
			 struct rdp_qp_info *info);

/*
 * Check the peer's QP_INFO against ours (GID type, MTU), then move every QP
 * to RTS. A failure is logged (rdp_last_error() carries it to the peer).
 */
/* Path choices both sides apply alike, from the test parameters. */
struct rdp_path_opts {
	uint32_t mtu_bytes; /* 0: the smaller active MTU */
	uint8_t tclass;
	uint8_t sl;
	uint8_t timeout; /* ACK timeout exponent */
	uint16_t pkey_index;
	uint32_t flow_label; /* every QP's, unless flow_labels has its own */
	/* QP i's label where i < n_flow_labels (--flow_label's list); the
	 * array outlives the connect */
	const uint32_t *flow_labels;
	uint32_t n_flow_labels;
	uint8_t hop_limit;
	uint8_t retry_cnt;
	uint8_t rnr_retry;
	uint16_t dlid; /* --dlid: the peer's LID on InfiniBand, 0: its own */
};

int rdp_conn_connect(struct rdp_conn *conn, const struct rdp_qp_info *remote,
		     const struct rdp_path_opts *path);

/*
 * -e: sleep until the CQ has news. The first call after the CQ was found
 * empty arms it and returns at once (the caller polls again, so nothing
 * that came before the arming is missed); the next sleeps on the channel
 * until an event, until fd (the peer's TCP socket, or -1) is readable, or
 * timeout_ms. 0: poll the CQ again; 1: fd is readable; -ETIMEDOUT; -errno.
 */
int rdp_conn_cq_sleep(struct rdp_conn *conn, int *armed, int fd,
		      int timeout_ms);

const char *rdp_wc_status_hint(enum ibv_wc_status status);

#endif /* RDMAPERF_ENGINE_H */
