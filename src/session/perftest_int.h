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
