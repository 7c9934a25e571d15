/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdmaperf --perftest's peer (perftest.c) and its report (perftest_report.c):
 * the state both share.
 */
#ifndef RDMAPERF_SESSION_PERFTEST_INT_H
#define RDMAPERF_SESSION_PERFTEST_INT_H

#include <stdint.h>
#include <stdio.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/clock.h>
#include <rdmaperf/counters.h>
#include <rdmaperf/engine_ops.h>
#include <rdmaperf/oob.h>
#include <rdmaperf/perftest_wire.h>
#include <rdmaperf/qp_info.h>
#include <rdmaperf/report.h>
#include <rdmaperf/run_opts.h>
#include <rdmaperf/sink.h>

#define PT_PAGE_SIZE  4096 /* what perftest announces on x86 */
#define PT_CACHE_LINE 64
#define PT_DONE_BYTES 5 /* "done\0", which 6.06 writes before closing */

/* How each test meets its peer over TCP (doc/perftest-protocol.md 5). */
enum pt_seq {
	PT_RDMA_BW,  /* write_bw, read_bw, atomic_bw: server passive */
	PT_SEND_BW,  /* send_bw: the server receives */
	PT_RDMA_LAT, /* write_lat, read_lat, atomic_lat */
	PT_SEND_LAT, /* send_lat */
};

struct rdp_session_base;
struct pt_peer {
	struct rdp_session_base *s; /* the options, device, QPs, reports */
	int server; /* the TCP server: reads first, then writes */
	int all;    /* -a: every size on the same QPs */
	enum pt_seq seq;
	int pingpong;	     /* both sides run the loop (write_lat, send_lat) */
	int bidir;	     /* -b: both sides run the bandwidth loop */
	uint64_t size_bytes; /* this point's (the send_bw receiver's params
			      * keep the largest) */
	const char *head_last; /* the header's last line */
	char version[RDP_PT_VERSION_BYTES];
	double version_num;
	uint32_t peer_mtu;
	int with_gid;
	struct rdp_cm_chan *cm; /* -R: the dialogue's channel, else NULL */
	size_t cm_key_bytes;	/* -R: the peer's key message, 56 or 64 */
	int from_block; /* rdmaperf-server's: the test from a 6.28+ block */
};

static inline const char *peer_role(const struct pt_peer *c)
{
	return c->server ? "client" : "server";
}

/* Steps of perftest's dialogue (perftest_proto.c) beside its row,
 * rdp_proto_perftest, for the server's side. */
/* The client's negotiation block (its size, 312 or 320 bytes, in
 * *bytes), which nothing announces. */
int rdp_perftest_block_size(struct pt_peer *c, uint8_t *b, size_t *bytes);
/* Whether the client's next message is its negotiation block: 1 from
 * 6.28 on, or when its first bytes are a block's (a build that calls
 * itself older); 0 if not, or -errno. */
int rdp_perftest_block_coming(struct pt_peer *c);
/* perftest's close: a barrier, then the "done" 6.06 writes; timeout_ms
 * 0: as long as the peer runs. */
int rdp_perftest_close_tcp(struct pt_peer *c, int timeout_ms);
/* --run_infinitely: the live client's exit, which ends the run. */
int rdp_perftest_await_live_end(struct pt_peer *c);
/* The passive RDMA bandwidth server: the end of the client's run, its
 * figures into *r, the close. */
int rdp_perftest_serve_run(struct pt_peer *c, struct rdp_pt_report *r);

/* -R (perftest_cm.c): the dialogue over a channel of RDMA CM. */
#define RDP_PT_CM_KEY_BYTES    56 /* a key message in binary */
#define RDP_PT_CM_KEY_DV_BYTES 64 /* 6.29's, the GID 8 bytes later */
/* The key message of qi as perftest's -R carries it; from its bytes, n
 * of them (0, or -EBADMSG when n is neither length). */
void rdp_pt_cm_key_encode(const struct rdp_qp_info *qi,
			  uint8_t out[RDP_PT_CM_KEY_BYTES]);
int rdp_pt_cm_key_decode(const uint8_t *in, size_t n, struct rdp_qp_info *qi);
/* This side's key message for qi in the dialogue's form (text over TCP,
 * binary with -R): its length; and the peer's, read. */
size_t rdp_perftest_key_make(const struct pt_peer *c,
			     const struct rdp_qp_info *qi, char *out);
int rdp_perftest_key_read(const struct pt_peer *c, const char *in, size_t n,
			  struct rdp_qp_info *qi);
/* The channel: dial the host, or wait for one client on the port. */
int rdp_perftest_cm_open(struct pt_peer *c);
/* perftest's lock step over the channel (errors logged, what names the
 * step); timeout_ms -1: the channel's, 0: no limit. */
int rdp_perftest_cm_xchg(struct pt_peer *c, const void *mine, void *theirs,
			 size_t len, int timeout_ms, const char *what);
/* 6.28 on: the parameter blocks over the channel, compared (logged). */
int rdp_perftest_cm_negotiate(struct pt_peer *c);
/* The test QPs (c->s->conn made with defer_qps) connected by RDMA CM
 * between perftest's two handshakes. */
int rdp_perftest_cm_qps(struct pt_peer *c);
/* ib_write_lat's end: the peer's disconnect. */
int rdp_perftest_cm_await_exit(struct pt_peer *c);
/* The test QPs, then the channel; again is fine. */
void rdp_perftest_cm_end(struct pt_peer *c);
/* A 6.28+ client's -b, which its block does not carry
 * (perftest_bidir.c): 0, or its refusal logged and -EPROTONOSUPPORT.
 * Before the barrier that ends a passive server's wait (since_cycles:
 * the wait's start, timeout_ms its deadline, 0 none); after its report's
 * first field; before send_bw's closing barrier. */
int rdp_perftest_bidir_early(struct pt_peer *c, uint64_t since_cycles,
			     int timeout_ms);
int rdp_perftest_bidir_late(struct pt_peer *c);
int rdp_perftest_bidir_close(struct pt_peer *c);
/* The refusal's line; seen: what gave the client's -b away. */
int rdp_perftest_refuse_bidir(struct pt_peer *c, const char *seen);

/* The start-up, s->pt linked to s: perftest's size and option checks,
 * its parameters, the reports, the device. An enum rdp_exit. */
int rdp_perftest_start(struct rdp_session_base *s);
/* The report's head, once the QPs are up: the header and the table's. */
void rdp_perftest_begin(struct rdp_session_base *s);

/* The report's sinks: the text, and the JSON document if asked for. */
int rdp_perftest_sinks(struct pt_peer *c);
/* The header both roles print, and the table's head; last: the header's
 * last line. */
void rdp_perftest_report_head(struct pt_peer *c, const char *last);
/* A row and what follows it; then the JSON entry. */
int rdp_perftest_report_point(struct pt_peer *c, const struct rdp_result *res);
/* The table's footer. */
void rdp_perftest_report_end(struct pt_peer *c);
/* The client's figures as a result this side's table prints. */
void rdp_perftest_result_of(const struct pt_peer *c,
			    const struct rdp_pt_report *r,
			    struct rdp_result *res);
/* The send_bw receiver's figures for one size. */
void rdp_perftest_receiver_figures(const struct pt_peer *c, uint64_t size,
				   struct rdp_result *res);

#endif /* RDMAPERF_SESSION_PERFTEST_INT_H */
