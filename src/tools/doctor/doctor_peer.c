/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The pair checks of `rdmaperf doctor HOST`: the normal handshake with a
 * running rdmaperf-server, then a tiny write_lat over RDMA to prove that
 * packets flow both ways.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor_cmd.h"
#include <rdmaperf/auth.h>
#include <rdmaperf/bench.h>
#include <rdmaperf/clock.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/log.h>
#include <rdmaperf/oob.h>
#include <rdmaperf/opts.h>
#include <rdmaperf/secret.h>
#include <rdmaperf/session_steps.h>
#include <rdmaperf/wire.h>

#define PROBE_ITERS 50

struct probe {
	const struct doctor_opts *o;
	struct doctor_peer *peer;
	struct rdp_params p;
	const struct rdp_bench_ops *ops;
	struct rdp_clock clk;
	struct rdp_oob oob;
	struct rdp_dev *dev;
	struct rdp_conn *conn;
};

static int handshake(struct probe *pr)
{
	struct rdp_msg msg;
	int ret;

	if (pr->o->secret && pr->o->secret->len) {
		ret = rdp_auth_client(&pr->oob, pr->o->secret);
		if (ret)
			return ret;
	}
	rdp_hello_fill(&msg);
	ret = rdp_oob_send(&pr->oob, &msg);
	if (!ret)
		ret = rdp_oob_expect(&pr->oob, RDP_MSG_HELLO, &msg, -1);
	if (ret)
		return ret;
	pr->peer->hello = msg.u.hello;
	pr->peer->reached = 1;
	msg.type = RDP_MSG_PARAMS;
	msg.u.params = pr->p;
	ret = rdp_oob_send(&pr->oob, &msg);
	if (!ret)
		ret = rdp_oob_expect(&pr->oob, RDP_MSG_ACCEPT, &msg, -1);
	if (!ret) {
		pr->peer->accept = msg.u.accept;
		pr->peer->have_accept = 1;
	}
	return ret;
}

static int connect_qp(struct probe *pr)
{
	struct rdp_conn_cfg cfg = {
		.num_qps = 1,
		.msg_bytes = (uint32_t)pr->p.size_bytes,
		.tx_depth = pr->p.tx_depth,
		.gid_index = -1,
		.inline_bytes = pr->p.inline_bytes,
		.pkey_index = (uint16_t)pr->p.pkey_index,
		.local_ip = pr->oob.have_local_ip ? &pr->oob.local_ip : NULL,
		.access = rdp_bench_access(pr->ops, &pr->p, RDP_SIDE_CLIENT),
	};
	struct rdp_qp_info remote;
	struct rdp_path_opts path;
	int ret;

	rdp_path_from_params(&pr->p, &path);
	ret = rdp_conn_create(pr->dev, &cfg, &pr->conn);
	if (!ret)
		ret = rdp_recv_qp_infos(&pr->oob, 1, &remote);
	if (!ret)
		ret = rdp_send_qp_infos(&pr->oob, pr->conn, 0);
	if (!ret)
		ret = rdp_conn_connect(pr->conn, &remote, &path);
	return ret;
}

/* The write_lat client half, as a test point runs it, minus the report. */
static int exchange(struct probe *pr)
{
	struct rdp_run run = {
		.params = &pr->p,
		.ops = pr->ops,
		.conn = pr->conn,
		.clk = &pr->clk,
		.side = RDP_SIDE_CLIENT,
		.oob_fd = pr->oob.fd,
		.stall_cycles =
			rdp_clock_cycles_of_ms(&pr->clk, (uint64_t)2000),
	};
	struct rdp_result res = { 0 };
	struct rdp_msg msg;
	int ret;

	rdp_bench_decide(pr->ops, &pr->p, pr->conn, &run.dec);
	rdp_fill_tx(pr->conn, &pr->p, RDP_SIDE_CLIENT, pr->ops->tail_bytes);
	ret = pr->ops->prepare ? pr->ops->prepare(&run) : 0;
	if (!ret)
		ret = rdp_sync(&pr->oob, RDP_SYNC_READY, 1, -1, NULL);
	if (!ret)
		ret = pr->ops->client(&run, &res);
	if (!ret)
		ret = rdp_sync(&pr->oob, RDP_SYNC_DONE, 1, -1, &run.posted);
	if (!ret)
		ret = rdp_oob_expect(&pr->oob, RDP_MSG_RESULT, &msg, -1);
	if (!ret && msg.u.result.status)
		ret = -EILSEQ;
	if (!ret)
		pr->peer->rtt_us = res.lat.median_ns / 1e3;
	rdp_result_clear(&res);
	return ret;
}

void rdp_doctor_pair_checks(const struct doctor_opts *o, struct rdp_doctor *doc,
			    const struct rdp_doctor_verbs *verbs,
			    const struct doctor_peer *pe)
{
	struct rdp_check *c;

	c = rdp_doctor_add(doc, "peer", "Peer",
			   pe->reached ? RDP_PASS : RDP_FAIL);
	if (c && pe->reached)
		rdp_doctor_say(c->value, sizeof(c->value),
			       "%s (%s), rdmaperf %s, device %s", pe->addr,
			       pe->hello.hostname, pe->hello.tool_version,
			       pe->have_accept ? pe->accept.device : "?");
	if (c && !pe->reached) {
		rdp_doctor_say(c->value, sizeof(c->value), "%s:%u unreachable",
			       o->host, o->tcp_port);
		rdp_doctor_say(c->fix, sizeof(c->fix),
			       "start rdmaperf-server there (-p %u), check "
			       "the address and any firewall on that TCP port",
			       o->tcp_port);
	}
	if (pe->have_accept)
		rdp_doctor_pair(doc, verbs, &pe->accept);
	c = rdp_doctor_add(doc, "rdma_exchange", "RDMA exchange",
			   !pe->rdma_tried ? RDP_SKIP
			   : pe->rdma_ret  ? RDP_FAIL
					   : RDP_PASS);
	if (!c)
		return;
	if (!pe->rdma_tried)
		rdp_doctor_say(c->value, sizeof(c->value), "not tried: %s",
			       pe->why[0] ? pe->why : "no handshake");
	else if (!pe->rdma_ret)
		rdp_doctor_say(c->value, sizeof(c->value),
			       "%d round trips of 2 B, median %.2f us",
			       PROBE_ITERS, pe->rtt_us);
	else
		rdp_doctor_say(c->value, sizeof(c->value), "failed: %s",
			       pe->why[0] ? pe->why : strerror(-pe->rdma_ret));
	rdp_doctor_fix(c, RDP_FAIL,
		       "the hosts talk over TCP but not over RDMA: "
		       "compare the GID types and the MTUs above, "
		       "check routes and any firewall for UDP 4791 "
		       "(RoCE v2)");
}

static void probe_rdma(struct probe *pr)
{
	const struct rdp_mem_opts host = { .type = NULL };
	int ret;

	ret = rdp_clock_calibrate(&pr->clk);
	if (!ret)
		ret = rdp_dev_open(pr->o->dev, pr->o->port, &pr->dev);
	if (!ret) /* the probe's buffer is host memory */
		ret = rdp_session_use_mem(&pr->dev, &host);
	if (ret) {
		snprintf(pr->peer->why, sizeof(pr->peer->why), "%s",
			 rdp_last_error()[0] ? rdp_last_error()
					     : "the local port cannot be used");
		return;
	}
	pr->peer->rdma_tried = 1;
	ret = connect_qp(pr);
	if (!ret)
		ret = exchange(pr);
	pr->peer->rdma_ret = ret;
	if (ret && !pr->peer->why[0] && rdp_last_error()[0])
		snprintf(pr->peer->why, sizeof(pr->peer->why), "%s",
			 rdp_last_error());
}

void rdp_doctor_probe_peer(const struct doctor_opts *o,
			   struct doctor_peer *peer)
{
	struct probe pr = { .o = o, .peer = peer, .oob = { .fd = -1 } };
	int ret;

	memset(peer, 0, sizeof(*peer));
	pr.ops = rdp_bench_find("write_lat");
	rdp_params_defaults(&pr.p);
	snprintf(pr.p.test, sizeof(pr.p.test), "write_lat");
	pr.p.size_bytes = 2;
	pr.p.iters = PROBE_ITERS;
	pr.p.tx_depth = 2;
	pr.p.cq_mod = 1;
	pr.p.warmup_iters = 0;
	rdp_clear_error();
	ret = rdp_oob_connect(o->host, o->tcp_port, NULL, o->timeout_ms,
			      &pr.oob);
	if (!ret) {
		peer->local_ipv4 = pr.oob.local_ipv4;
		peer->have_local_ipv4 = pr.oob.have_local_ipv4;
		snprintf(peer->addr, sizeof(peer->addr), "%s", pr.oob.peer);
		ret = handshake(&pr);
	}
	if (!ret)
		probe_rdma(&pr);
	else
		snprintf(peer->why, sizeof(peer->why), "%s",
			 rdp_last_error()[0] ? rdp_last_error()
					     : strerror(-ret));
	/* The server waits for our QPs: tell it why they do not come. */
	if (peer->have_accept && (!peer->rdma_tried || peer->rdma_ret) &&
	    peer->rdma_ret != -ECANCELED)
		rdp_oob_send_error(&pr.oob,
				   peer->rdma_ret ? peer->rdma_ret : -ENODEV,
				   peer->why[0]
					   ? peer->why
					   : "the doctor's port is unusable");
	rdp_conn_destroy(pr.conn);
	rdp_oob_close(&pr.oob);
	rdp_dev_close(pr.dev);
}
