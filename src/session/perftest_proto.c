/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perftest's out-of-band dialogue (doc/perftest-protocol.md) as a row of
 * struct rdp_session_proto_ops: its lock-step exchange over TCP, the
 * version, the negotiation block, the key messages and barriers, the
 * reports and its close. perftest.c drives it, in either role.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rdmaperf/engine.h>
#include <rdmaperf/log.h>

#include <rdmaperf/session_steps.h>

#include "perftest_int.h"
#include "session_int.h"

/* How long the rest of a 320-byte block may lag its first 312 bytes,
 * which perftest writes at once. */
#define PT_BLOCK_REST_MS 300

/* perftest's lock step: the TCP client writes, then reads; the server
 * reads, then writes. timeout_ms 0: no deadline (the server, while the
 * client runs). */
static int xchg_for(struct pt_peer *c, const void *mine, void *theirs,
		    size_t len, int timeout_ms, const char *what)
{
	int ret;

	if (c->cm)
		return rdp_perftest_cm_xchg(c, mine, theirs, len, timeout_ms,
					    what);
	if (c->server) {
		ret = rdp_oob_recv_raw(&c->s->oob, theirs, len, timeout_ms);
		if (!ret)
			ret = rdp_oob_send_raw(&c->s->oob, mine, len);
	} else {
		ret = rdp_oob_send_raw(&c->s->oob, mine, len);
		if (!ret)
			ret = rdp_oob_recv_raw(&c->s->oob, theirs, len,
					       timeout_ms);
	}
	if (ret == -ECONNRESET)
		rdp_err("perftest %s %s closed the connection during %s: "
			"see its output (started with the same test and "
			"options?)",
			peer_role(c), c->s->oob.peer, what);
	else if (ret)
		rdp_err("perftest %s %s: %s: %s", peer_role(c), c->s->oob.peer,
			what, strerror(-ret));
	return ret;
}

static int xchg(struct pt_peer *c, const void *mine, void *theirs, size_t len,
		const char *what)
{
	return xchg_for(c, mine, theirs, len, -1, what);
}

static int xchg_u32(struct pt_peer *c, uint32_t mine, uint32_t *theirs,
		    const char *what)
{
	uint8_t a[4] = { mine >> 24, mine >> 16, mine >> 8, mine }, b[4];
	int ret = xchg(c, a, b, 4, what);

	*theirs = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
		  (uint32_t)b[2] << 8 | b[3];
	return ret;
}

/* Version, page size, cache line, MTU. */
static int prologue(struct rdp_session_base *s)
{
	struct pt_peer *c = s->pt;
	uint8_t mine[RDP_PT_VERSION_BYTES], theirs[RDP_PT_VERSION_BYTES];
	uint8_t mtu[RDP_PT_MTU_BYTES], peer_mtu[RDP_PT_MTU_BYTES];
	uint32_t v;
	int ret;

	rdp_pt_version_encode(RDP_PT_OWN_VERSION, mine);
	ret = xchg(c, mine, theirs, sizeof(mine), "the version exchange");
	if (ret)
		return ret;
	if (rdp_pt_version_decode(theirs, c->version, sizeof(c->version),
				  &c->version_num)) {
		if (c->server)
			rdp_err("client %s sent no valid perftest version: is "
				"it a perftest ib_* client?",
				c->s->oob.peer);
		else
			rdp_err("%s sent no perftest version: is it a perftest "
				"ib_* server (without --perftest: rdmaperf's "
				"own)?",
				c->s->oob.peer);
		return -EPROTO;
	}
	if (c->version_num < RDP_PT_MIN_VERSION) {
		rdp_err("perftest %s %s at %s is older than %.2f, which this "
			"side speaks: upgrade perftest there",
			c->version, peer_role(c), c->s->oob.peer,
			RDP_PT_MIN_VERSION);
		return -EPROTONOSUPPORT;
	}
	ret = xchg_u32(c, PT_PAGE_SIZE, &v, "the page size exchange");
	if (!ret)
		ret = xchg_u32(c, PT_CACHE_LINE, &v, "the cache line exchange");
	if (!ret && rdp_pt_mtu_encode(c->s->dev->port.active_mtu_bytes, mtu)) {
		rdp_err("%s: active MTU %u is no InfiniBand MTU",
			c->s->dev->name, c->s->dev->port.active_mtu_bytes);
		return -EINVAL;
	}
	if (!ret)
		ret = xchg(c, mtu, peer_mtu, sizeof(mtu), "the MTU exchange");
	if (!ret && rdp_pt_mtu_decode(peer_mtu, &c->peer_mtu))
		c->peer_mtu =
			c->s->dev->port.active_mtu_bytes; /* as perftest */
	return ret;
}

/*
 * The server: the client's block, whose size nothing announces: 312
 * bytes, and 8 more when it was built with mlx5dv. The client sends it in
 * one write and then waits, so what has not come soon is not coming.
 */
int rdp_perftest_block_size(struct pt_peer *c, uint8_t *b, size_t *bytes)
{
	int ret = rdp_oob_recv_raw(&c->s->oob, b, RDP_PT_NEG_BYTES, -1);

	if (ret) {
		rdp_err("perftest client %s: no parameter block: %s",
			c->s->oob.peer, strerror(-ret));
		return ret;
	}
	ret = rdp_oob_recv_raw(&c->s->oob, b + RDP_PT_NEG_BYTES,
			       RDP_PT_NEG_MLX5DV_BYTES - RDP_PT_NEG_BYTES,
			       PT_BLOCK_REST_MS);
	*bytes = ret ? RDP_PT_NEG_BYTES : RDP_PT_NEG_MLX5DV_BYTES;
	return 0;
}

int rdp_perftest_block_coming(struct pt_peer *c)
{
	uint8_t first[4];
	int n;

	if (c->version_num >= RDP_PT_NEG_VERSION)
		return 1;
	/* A build that calls itself older but negotiates (it goes by this
	 * side's 6.28): its block's first bytes are no key message's. */
	n = rdp_oob_peek(&c->s->oob, first, sizeof(first), -1);
	if (n < 0) {
		rdp_err("perftest client %s: nothing after the MTU exchange: "
			"%s",
			c->s->oob.peer, strerror(-n));
		return n;
	}
	return rdp_pt_starts_block(first, (size_t)n);
}

/*
 * The client: its block of `bytes` (--perftest-block, else 320), the
 * server's back. A server built without mlx5dv reads 312 of them and
 * answers 312: named, with the option that fits it (what it left unread
 * would break its next message).
 */
static int client_block(struct pt_peer *c, const uint8_t *a, uint8_t *b,
			size_t bytes)
{
	size_t rest = bytes - RDP_PT_NEG_BYTES;
	int forced = c->s->o->conn.perftest_block != 0;
	int other = rest ? RDP_PT_NEG_BYTES : RDP_PT_NEG_MLX5DV_BYTES;
	int ret = rdp_oob_send_raw(&c->s->oob, a, bytes);

	/* perftest reads its block in one read: one write of it here */
	if (!ret)
		ret = rdp_oob_recv_raw(&c->s->oob, b, RDP_PT_NEG_BYTES, -1);
	if (!ret && rest)
		ret = rdp_oob_recv_raw(&c->s->oob, b + RDP_PT_NEG_BYTES, rest,
				       forced ? -1 : PT_BLOCK_REST_MS);
	if (ret == -ETIMEDOUT && rest && !forced) {
		rdp_err("perftest %s server at %s reads a %d-byte parameter "
			"block (built without mlx5dv): run with "
			"--perftest-block %d",
			c->version, c->s->oob.peer, RDP_PT_NEG_BYTES,
			RDP_PT_NEG_BYTES);
		return -EPROTO;
	}
	if (ret == -ECONNRESET)
		rdp_err("perftest server %s closed the connection during the "
			"parameter negotiation: see its output (this side "
			"sent %zu bytes; for a server that reads %d: "
			"--perftest-block %d)",
			c->s->oob.peer, bytes, other, other);
	else if (ret)
		rdp_err("perftest server %s: the parameter negotiation: %s",
			c->s->oob.peer, strerror(-ret));
	return ret;
}

/* 6.28 and later, or a block forced by --perftest-block (a build that
 * negotiates while it calls itself older): the block both sides
 * compare. */
static int negotiate(struct rdp_session_base *s)
{
	struct pt_peer *c = s->pt;
	const struct rdp_opts *o = c->s->o;
	struct rdp_pt_neg mine, theirs;
	uint8_t a[RDP_PT_NEG_MLX5DV_BYTES], b[RDP_PT_NEG_MLX5DV_BYTES];
	size_t bytes = o->conn.perftest_block ? o->conn.perftest_block
					      : RDP_PT_NEG_MLX5DV_BYTES;
	const char *diff;
	int ret;

	if (c->cm)
		return rdp_perftest_cm_negotiate(c);
	rdp_session_perftest_neg(o, &c->s->p, c->all,
				 (uint32_t)c->s->dev->attr.max_qp_rd_atom,
				 &mine);
	if (c->server) {
		ret = rdp_perftest_block_coming(c);
		if (ret <= 0)
			return ret;
		ret = rdp_perftest_block_size(c, b, &bytes);
		if (!ret) {
			rdp_pt_neg_encode(&mine, a, bytes);
			ret = rdp_oob_send_raw(&c->s->oob, a, bytes);
		}
	} else {
		if (c->version_num < RDP_PT_NEG_VERSION &&
		    !o->conn.perftest_block)
			return 0;
		rdp_pt_neg_encode(&mine, a, bytes);
		ret = client_block(c, a, b, bytes);
	}
	if (ret)
		return ret;
	rdp_pt_neg_decode(b, bytes, &theirs);
	diff = rdp_pt_neg_mismatch(&mine, &theirs);
	if (diff) {
		rdp_err("perftest %s %s at %s runs with another %s than this "
			"side: start it with the same test and options",
			c->version, peer_role(c), c->s->oob.peer, diff);
		return -EINVAL;
	}
	return 0;
}

/* One key message each way per QP: remote[i] from the server's. */
static int keys(struct pt_peer *c, struct rdp_qp_info *remote, const char *what)
{
	char mine[RDP_PT_KEY_GID_BYTES], theirs[RDP_PT_KEY_GID_BYTES];
	struct rdp_qp_info qi;
	uint32_t i;
	size_t len;
	int ret;

	for (i = 0; i < c->s->p.num_qps; i++) {
		c->s->eng->conn_local_info(c->s->conn, i, 0, &qi);
		len = rdp_perftest_key_make(c, &qi, mine);
		ret = xchg(c, mine, theirs, len, what);
		if (ret)
			return ret;
		if (!remote)
			continue;
		if (rdp_perftest_key_read(c, theirs, len, &remote[i])) {
			rdp_err("perftest %s %s sent a malformed key message "
				"for QP %u",
				peer_role(c), c->s->oob.peer, i);
			return -EPROTO;
		}
		remote[i].mtu_bytes = c->peer_mtu;
		remote[i].gid_type = qi.gid_type; /* perftest sends none */
	}
	return 0;
}

/* One barrier: QP 0's key message again, each way; timeout_ms 0 waits
 * as long as it takes (the server, while the client runs). */
static int barrier_for(struct pt_peer *c, int timeout_ms, const char *what)
{
	char mine[RDP_PT_KEY_GID_BYTES], theirs[RDP_PT_KEY_GID_BYTES];
	struct rdp_qp_info qi;

	c->s->eng->conn_local_info(c->s->conn, 0, 0, &qi);
	return xchg_for(c, mine, theirs, rdp_perftest_key_make(c, &qi, mine),
			timeout_ms, what);
}

static int barrier(struct pt_peer *c, const char *what)
{
	return barrier_for(c, -1, what);
}

/* The run's constants; params point at c->s->p, whose size each point sets. */
static void run_init(struct pt_peer *c)
{
	/* The send_bw receiver stops when the client's next TCP message
	 * comes (under -D): the loop watches the socket. */
	rdp_session_run_init(&c->s->run, c->s->o, &c->s->p, c->s->conn,
			     &c->s->clk,
			     c->server ? RDP_SIDE_SERVER : RDP_SIDE_CLIENT,
			     c->s->oob.fd);
	c->s->run.counted_pingpong = 1; /* perftest's ping-pong */
	c->s->run.counted_duplex = 1;	/* and its send_bw -b */
	rdp_bench_decide(c->s->o->bench, &c->s->p, c->s->conn, &c->s->run.dec);
}

static int connect_qps(struct rdp_session_base *s)
{
	struct pt_peer *c = s->pt;
	const struct rdp_params *p = &c->s->p;
	struct rdp_conn_cfg cfg;
	int send = c->seq == PT_SEND_BW || c->seq == PT_SEND_LAT;
	struct rdp_qp_info *remote;
	struct rdp_path_opts path;
	int ret;

	rdp_session_qp_cfg(c->s->o, p,
			   c->server ? RDP_SIDE_SERVER : RDP_SIDE_CLIENT,
			   &c->s->oob, &cfg, &path);
	/* perftest steps through a page of its peer's memory for messages
	 * up to half a page: the server's, and under -b the client's too. */
	if ((c->server || c->bidir) && cfg.msg_bytes < PT_PAGE_SIZE)
		cfg.msg_bytes = PT_PAGE_SIZE;
	ret = c->s->eng->conn_create(c->s->dev, &cfg, &c->s->conn);
	if (ret)
		return ret;
	run_init(c);
	/* RoCE always carries the GID; InfiniBand with -x. */
	c->with_gid = c->s->dev->port.link_layer == IBV_LINK_LAYER_ETHERNET ||
		      c->s->o->conn.gid_index >= 0;
	/* -R: RDMA CM connects the QPs before the rounds below. */
	if (c->cm) {
		ret = rdp_perftest_cm_qps(c);
		if (ret)
			return ret;
	}
	remote = calloc(p->num_qps, sizeof(*remote));
	if (!remote)
		return -ENOMEM;
	/* The RDMA latency tests shake hands once before the rounds. */
	ret = c->seq == PT_RDMA_LAT ? barrier(c, "the first handshake") : 0;
	if (!ret)
		ret = keys(c, remote, "the QP exchange");
	if (!ret)
		ret = c->s->eng->conn_connect(c->s->conn, remote, &path);
	free(remote);
	/* The SEND tests hold their barrier between the two rounds. */
	if (!ret && send)
		ret = barrier(c, "the barrier after RTR");
	if (!ret)
		ret = keys(c, NULL, "the second QP exchange");
	/* The RDMA latency tests run every size back to back from here:
	 * their memory is set (the receive byte cleared) before. */
	if (!ret && c->seq == PT_RDMA_LAT) {
		ret = c->s->eng->prepare(&c->s->run);
		c->s->run_prepared = !ret;
	}
	if (!ret && !send)
		ret = barrier(c, "the barrier after RTR");
	return ret;
}

/* perftest's close: a barrier, then (6.06) the "done" it writes; timeout
 * 0: as long as the peer runs. */
int rdp_perftest_close_tcp(struct pt_peer *c, int timeout_ms)
{
	uint8_t done[PT_DONE_BYTES];
	int ret = barrier_for(c, timeout_ms, "the closing barrier");

	/* 6.06 writes "done" before it closes; later ones just close. */
	if (!ret && c->version_num < 6.17 && !c->cm)
		rdp_oob_recv_raw(&c->s->oob, done, sizeof(done), 1000);
	return ret;
}

/* ib_write_lat sends nothing after its run: the peer's exit closes the
 * connection. Until then its last writes may still come, so the QPs stay. */
static int await_exit(struct pt_peer *c)
{
	int ms = c->s->o->conn.oob_timeout_ms + (int)c->s->p.duration_s * 1000;
	uint8_t b;
	int ret;

	if (c->cm)
		return rdp_perftest_cm_await_exit(c);
	ret = rdp_oob_recv_raw(&c->s->oob, &b, 1, ms);
	if (ret == -ECONNRESET)
		return 0;
	rdp_err("perftest %s %s did not close the connection after the run: "
		"%s",
		peer_role(c), c->s->oob.peer,
		ret ? strerror(-ret) : "it sent more");
	return ret ? ret : -EPROTO;
}

/* --run_infinitely: perftest's live client runs until it is stopped, as
 * long as it takes. Before 6.28 it just leaves: its exit, which closes the
 * connection, is the end of the run; from 6.28 on a stopped client ends
 * as a counted one does (a barrier, the reports, the close). */
int rdp_perftest_await_live_end(struct pt_peer *c)
{
	struct rdp_pt_report r;
	uint8_t b;
	int ret = rdp_oob_peek(&c->s->oob, &b, 1, 0);

	if (ret > 0) {
		ret = rdp_perftest_serve_run(c, &r); /* logs its failure */
		if (ret)
			return ret;
	} else if (ret != -ECONNRESET) {
		rdp_err("perftest client %s in a live run: %s", c->s->oob.peer,
			strerror(-ret));
		return ret;
	}
	rdp_info("perftest client %s ended its live run", c->s->oob.peer);
	return 0;
}

/* The reports, field by field (the server reads each alone); *peer: the
 * other side's, in its unit (the same --report_gbits as this side). */
static int reports(struct pt_peer *c, const struct rdp_result *res,
		   struct rdp_pt_report *peer)
{
	double bw = c->s->o->report.gbits ? res->bw_avg_gbps
					  : rdp_report_mibps(res->bw_avg_gbps);
	double peak = c->s->o->report.gbits
			      ? res->bw_peak_gbps
			      : rdp_report_mibps(res->bw_peak_gbps);
	struct rdp_pt_report r = { .size_bytes = res->size_bytes,
				   .iters = res->msgs,
				   .bw_peak = peak,
				   .bw_avg = bw,
				   .msg_rate_mpps = res->msg_rate_mpps };
	uint8_t mine[RDP_PT_REPORT_BYTES], theirs[RDP_PT_REPORT_BYTES];
	int i, ret = 0;

	rdp_pt_report_encode(&r, mine);
	for (i = 0; !ret && i < 5; i++)
		ret = xchg(c, mine + 8 * i, theirs + 8 * i, 8,
			   "the report exchange");
	if (!ret)
		rdp_pt_report_decode(theirs, peer);
	return ret;
}

/* After the client's one-way RDMA bandwidth run: a barrier, the reports,
 * the close. */
static int epilogue(struct pt_peer *c, const struct rdp_result *res)
{
	struct rdp_pt_report peer;
	int ret = barrier(c, "the barrier after the run");

	if (!ret)
		ret = reports(c, res, &peer);
	return ret ? ret : rdp_perftest_close_tcp(c, -1);
}

/* The report's first field; from a 6.28+ client's block, with a look
 * for the barrier a -b client sends instead. */
static int first_field(struct pt_peer *c, const uint8_t *mine, uint8_t *theirs)
{
	int ret;

	if (!c->from_block)
		return xchg(c, mine, theirs, 8, "the report exchange");
	ret = rdp_oob_recv_raw(&c->s->oob, theirs, 8, -1);
	if (ret) {
		rdp_err("perftest client %s: the report exchange: %s",
			c->s->oob.peer, strerror(-ret));
		return ret;
	}
	ret = rdp_perftest_bidir_late(c);
	return ret ? ret : rdp_oob_send_raw(&c->s->oob, mine, 8);
}

/* The passive server of the RDMA bandwidth tests: wait for the client's
 * run to end, take its figures, close as perftest does. */
int rdp_perftest_serve_run(struct pt_peer *c, struct rdp_pt_report *r)
{
	uint8_t mine[RDP_PT_REPORT_BYTES] = { 0 }, theirs[RDP_PT_REPORT_BYTES];
	uint64_t start = rdp_cycles();
	/* -D and a slow step's margin; -n: as long as the client runs (a
	 * persistent server's --max-session ends it) */
	int i, ret,
		ms = c->s->p.duration_s
			     ? (int)c->s->p.duration_s * 1000 +
				       rdp_slow_step_ms(c->s->o, &c->s->p)
			     : 0;

	ret = rdp_perftest_bidir_early(c, start, ms);
	if (!ret)
		ret = barrier_for(c, ms, "the end of the client's run");
	/* A perftest server sends back figures it never measured: zeros
	 * here. */
	if (!ret)
		ret = first_field(c, mine, theirs);
	for (i = 1; !ret && i < 5; i++)
		ret = xchg(c, mine + 8 * i, theirs + 8 * i, 8,
			   "the report exchange");
	if (!ret)
		rdp_pt_report_decode(theirs, r);
	return ret ? ret : rdp_perftest_close_tcp(c, -1);
}

/* This side's end of the TCP connection: accept one client, or dial. */
static int open_oob(struct rdp_session_base *s)
{
	struct pt_peer *c = s->pt;
	const struct rdp_conn_opts *o = &c->s->o->conn;
	int lfd, ret;

	if (c->s->o->params.flags & RDP_PARAM_RDMA_CM)
		return rdp_perftest_cm_open(c);
	if (!c->server)
		return rdp_session_dial(c->s->o, &c->s->oob);
	ret = rdp_oob_listen(o->bind, o->tcp_port, &lfd);
	if (ret)
		return ret;
	/* On stderr under --json, where stdout carries the document. */
	fprintf(c->s->o->report.json ? stderr : stdout,
		"rdmaperf %s: waiting for one perftest client on port %u\n",
		c->s->o->bench->name, o->tcp_port);
	fflush(NULL);
	ret = rdp_oob_accept(lfd, -1, o->oob_timeout_ms, &c->s->oob);
	close(lfd);
	c->s->oob.timeout_ms = o->oob_timeout_ms;
	return ret;
}

/* -b: the reports each way after each run; what the peer sent is what
 * this side received. */
static int bidir_figures(struct pt_peer *c, struct rdp_result *res)
{
	double to_gbps = c->s->o->report.gbits ? 1 : 1 / rdp_report_mibps(1);
	struct rdp_pt_report peer;
	int ret = reports(c, res, &peer);

	if (ret)
		return ret;
	res->bidir = 1;
	res->rx_msgs = peer.iters;
	res->rx_bw_peak_gbps = peer.bw_peak * to_gbps;
	res->rx_bw_avg_gbps = peer.bw_avg * to_gbps;
	res->rx_msg_rate_mpps = peer.msg_rate_mpps;
	return 0;
}

/* The receiver posts its receives, then meets the sender; under -b both
 * meet before each run. */
static int ready(struct rdp_session_base *s, struct rdp_run *run)
{
	struct pt_peer *c = s->pt;

	(void)run;
	if (c->seq == PT_SEND_BW || c->seq == PT_SEND_LAT || c->bidir)
		return barrier(c, "the barrier before the run");
	return 0;
}

/* perftest's side sends no word on why a loop failed. */
static void loop_failed(struct rdp_session_base *s)
{
	(void)s;
}

/* After each size: the sweep's barrier where perftest holds one, the
 * receiver's own figures, the reports each way under -b (but for
 * send_bw -b -D, where each side keeps its own: perftest's counts both
 * directions in one figure). */
static int done(struct rdp_session_base *s, struct rdp_run *run,
		struct rdp_result *res)
{
	struct pt_peer *c = s->pt;
	int send = c->seq == PT_SEND_BW;
	int ret = 0;

	(void)run;
	if ((send || c->bidir) && c->all)
		ret = barrier(c, "the barrier after a size");
	if (!ret && send && c->server && !c->bidir)
		rdp_perftest_receiver_figures(c, c->size_bytes, res);
	if (!ret && c->bidir && !(send && c->s->p.duration_s))
		ret = bidir_figures(c, res);
	return ret;
}

/* After the last size, as each test of perftest ends its connection. */
static int close_dialogue(struct rdp_session_base *s,
			  const struct rdp_result *last)
{
	struct pt_peer *c = s->pt;

	if (c->s->p.flags & RDP_PARAM_LIVE)
		return 0; /* as perftest's own: a stopped side just leaves */
	if (c->seq == PT_RDMA_BW && !c->bidir)
		return c->server ? 0 : epilogue(c, last);
	if (c->seq == PT_RDMA_LAT && c->pingpong)
		return await_exit(c);
	if (!(c->server && c->seq == PT_RDMA_LAT)) {
		int ret = rdp_perftest_bidir_close(c);

		return ret ? ret : rdp_perftest_close_tcp(c, -1);
	}
	return 0;
}

/* perftest's dialogue: its QPs serve every size of a sweep (-a); its
 * own start-up and report head (perftest.c, perftest_report.c). */
const struct rdp_session_proto_ops rdp_proto_perftest = {
	.name = "perftest",
	.flags = RDP_PROTO_SAME_QPS | RDP_PROTO_NO_DATA_CHECK,
	.start = rdp_perftest_start,
	.open = open_oob,
	.hello = prologue,
	.params = negotiate,
	.qps = connect_qps,
	.begin = rdp_perftest_begin,
	.ready = ready,
	.loop_failed = loop_failed,
	.done = done,
	.close = close_dialogue,
};
