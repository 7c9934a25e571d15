/* SPDX-License-Identifier: BSD-2-Clause */
/* The server's side: take the client's parameters, lend a buffer, run its
 * half of the loop, check the data. A failed client never stops it. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/random.h>
#include <sys/socket.h>

#include "session_int.h"
#include <rdmaperf/cpu_usage.h>
#include <rdmaperf/cm.h>
#include <rdmaperf/clock.h>
#include <rdmaperf/counters.h>
#include <rdmaperf/convert.h>
#include <rdmaperf/log.h>
#include <rdmaperf/perftest_wire.h>
#include <rdmaperf/placement.h>
#include <rdmaperf/secret.h>
#include <rdmaperf/stage.h>

struct server {
	const struct rdp_opts *o;
	const struct rdp_engine_ops *eng;
	struct rdp_oob *oob;
	struct rdp_clock clk;
	struct rdp_params p;
	const struct rdp_bench_ops *ops;
	struct rdp_dev *dev;
	struct rdp_conn *conn;
	char why[RDP_WIRE_TEXT_MAX];
	struct rdp_placement place;
	struct rdp_ctr_pair ctr; /* port counters of the current point */
};

/*
 * A remote peer never gets a key wider than its test's buffer: the flag
 * that would register the whole address space, and any flag this server
 * does not know, are refused before anything is registered.
 */
static int check_flags(struct server *s)
{
	uint32_t unknown = s->p.flags & ~(uint32_t)RDP_PARAM_KNOWN;

	if (s->p.flags & RDP_PARAM_ODP_IMPLICIT) {
		rdp_errbuf(s->why, sizeof(s->why),
			   "refused: --implicit_odp would give the client a "
			   "key to this server's whole address space: use "
			   "--odp (on-demand MRs over the test's buffer)");
		return RDP_OOB_REFUSED;
	}
	if (unknown) {
		rdp_errbuf(s->why, sizeof(s->why),
			   "refused: test flags 0x%x unknown to this server "
			   "(its keys cover the test's buffer only): use a "
			   "client of this server's release",
			   unknown);
		return RDP_OOB_REFUSED;
	}
	return 0;
}

static int check_params(struct server *s)
{
	const struct rdp_params *p = &s->p;
	uint64_t slot = rdp_slot_bytes(p->size_bytes);
	int ret;

	ret = check_flags(s);
	if (ret)
		return ret;
	s->ops = rdp_bench_find(p->test);
	if (!s->ops) {
		rdp_errbuf(s->why, sizeof(s->why),
			   "this server does not know the test '%s': update "
			   "it to the client's release",
			   p->test);
		return -EINVAL;
	}
	/* The option table's ranges: what a client may ask for. */
	if (s->o->check_params &&
	    s->o->check_params(p, s->why, sizeof(s->why))) {
		rdp_err("%s", s->why);
		return -E2BIG;
	}
	/* Two slots per QP: what the buffer of this point will take. */
	if (slot * 2 * p->num_qps > s->o->conn.max_memory_bytes) {
		rdp_errbuf(
			s->why, sizeof(s->why),
			"refused: %llu B x %u QPs needs %llu MiB of buffers, "
			"over this server's --max-memory of %llu MiB: use "
			"smaller messages or fewer QPs, or raise the limit",
			(unsigned long long)p->size_bytes, p->num_qps,
			(unsigned long long)((slot * 2 * p->num_qps +
					      (1 << 20) - 1) >>
					     20),
			(unsigned long long)(s->o->conn.max_memory_bytes >>
					     20));
		return -E2BIG;
	}
	if ((p->flags & RDP_PARAM_BIDIR) &&
	    !(s->ops->flags & RDP_BENCH_BIDIR)) {
		rdp_errbuf(s->why, sizeof(s->why),
			   "%s cannot run both ways (-b)", s->ops->name);
		return -EINVAL;
	}
	if (s->o->bench && s->o->bench != s->ops) {
		rdp_errbuf(s->why, sizeof(s->why),
			   "this one-shot server was started for %s, the "
			   "client asks for %s: start both with the same test, "
			   "or run rdmaperf-server",
			   s->o->bench->name, s->ops->name);
		return -EINVAL;
	}
	if ((p->flags & RDP_PARAM_BIDIR) && s->o->mem.bounce &&
	    s->ops->verb == RDP_VERB_SEND) {
		rdp_errbuf(s->why, sizeof(s->why),
			   "this server stages through host memory (--bounce), "
			   "which send_bw -b does not: use a server without "
			   "--bounce");
		return -EINVAL;
	}
	if (p->threads > 1 && s->o->mem.bounce) {
		rdp_errbuf(s->why, sizeof(s->why),
			   "this server stages through host memory (--bounce), "
			   "which one loop does: drop --threads, or use a "
			   "server without --bounce");
		return -EINVAL;
	}
	if ((p->flags & (RDP_PARAM_MR_PER_QP | RDP_PARAM_ODP)) &&
	    s->o->mem.cuda[0]) {
		rdp_errbuf(s->why, sizeof(s->why),
			   "this server's buffers are GPU memory (--use_cuda) "
			   "and --mr_per_qp and --odp register host memory: "
			   "drop them, or use a host-memory server");
		return -EINVAL;
	}
	if (rdp_bench_validate(s->ops, p, s->why, sizeof(s->why)) ||
	    rdp_stage_check_test(s->ops, s->o->mem.bounce, s->why,
				 sizeof(s->why)) ||
	    rdp_devbuf_check_test(s->ops, !!s->o->mem.cuda[0], s->why,
				  sizeof(s->why))) {
		rdp_err("%s", s->why);
		return -EINVAL;
	}
	return 0;
}

/* --threads: a CPU each among those this server runs on. */
static int threads_fit(struct server *s)
{
	int cpus[64], ret;

	ret = rdp_threads_cpus(s->p.threads, cpus, s->why, sizeof(s->why));
	if (ret)
		rdp_err("%s", s->why);
	return ret;
}

static int open_device(struct server *s)
{
	int cm = !!(s->p.flags & RDP_PARAM_RDMA_CM), ret;

	if (s->dev && !!s->dev->cm_list == cm)
		return 0;
	s->eng->dev_close(s->dev); /* a client may change its mind per point */
	s->dev = NULL;
	ret = s->eng->dev_open(s->o->conn.dev, s->o->conn.ib_port, cm,
			       &s->o->mem, &s->dev);
	if (!ret)
		ret = rdp_place_self_dev(&s->o->place, s->dev->name,
					 s->dev->numa_node, &s->place);
	return ret;
}

/* -R: listen on this connection's address; the client learns the port. */
static int cm_listen(struct server *s, struct rdp_msg_accept *a)
{
	struct rdp_cm_opts cmo;
	uint32_t nonce;
	int ret;

	if (!s->oob->have_local_ip) {
		rdp_errbuf(s->why, sizeof(s->why),
			   "-R needs an IP address: connect to one of this "
			   "server's");
		return -EAFNOSUPPORT;
	}
	rdp_cm_opts_from(s->o, &s->p, &cmo);
	ret = rdp_cm_listen(s->conn, &s->oob->local_ip, &cmo, &a->cm_port);
	if (getrandom(&nonce, sizeof(nonce), 0) < 0)
		nonce = (uint32_t)rand();
	a->cm_nonce = nonce;
	return ret;
}

static void describe(const struct server *s, struct rdp_msg_accept *a)
{
	snprintf(a->device, sizeof(a->device), "%s", s->dev->name);
	a->port = s->dev->port.num;
	a->link_layer = s->dev->port.link_layer;
	a->gid_index = s->conn->have_gid ? s->conn->gid.entry.index : -1;
	a->gid_type = (uint8_t)(s->conn->have_gid ? s->conn->gid.entry.type
						  : RDP_GID_UNKNOWN);
	a->active_mtu_bytes = s->dev->port.active_mtu_bytes;
	a->numa_node = s->dev->numa_node;
	a->cpu = sched_getcpu();
	rdp_place_to_accept(&s->place, a);
	rdp_session_mem_to_accept(s->conn, s->ops, &s->p, a);
}

static int setup(struct server *s)
{
	struct rdp_msg msg = { .type = RDP_MSG_ACCEPT };
	struct rdp_msg_accept *a = &msg.u.accept;
	struct rdp_conn_cfg cfg;
	int ret;

	rdp_conn_cfg_from_params(
		&s->p, s->ops, RDP_SIDE_SERVER, s->o->conn.gid_index,
		s->oob->have_local_ip ? &s->oob->local_ip : NULL, &cfg);
	ret = open_device(s);
	if (!ret && s->p.threads > 1 && rdp_bench_server_works(s->ops, &s->p))
		ret = threads_fit(s);
	if (!ret)
		ret = s->eng->conn_create(s->dev, &cfg, &s->conn);
	if (!ret && cfg.defer_qps)
		ret = cm_listen(s, a);
	if (ret)
		return ret;
	describe(s, a);
	ret = rdp_oob_send(s->oob, &msg);
	if (!ret && cfg.defer_qps)
		ret = rdp_cm_accept(s->conn, s->p.num_qps, a->cm_nonce);
	if (!ret)
		ret = rdp_send_qp_infos_with(s->eng, s->oob, s->conn,
					     !!(s->ops->flags &
						RDP_BENCH_EXPOSE_TX));
	return ret;
}

static int connect_qps(struct server *s)
{
	struct rdp_qp_info *remote;
	struct rdp_path_opts path;
	int ret;

	rdp_path_from_params(&s->p, &path);
	remote = calloc(s->p.num_qps, sizeof(*remote));
	if (!remote)
		return -ENOMEM;
	ret = rdp_recv_qp_infos(s->oob, s->p.num_qps, remote);
	if (!ret)
		ret = s->eng->conn_connect(s->conn, remote, &path);
	free(remote);
	return ret;
}

static int run_test(struct server *s)
{
	struct rdp_run run = {
		.params = &s->p,
		.ops = s->ops,
		.conn = s->conn,
		.clk = &s->clk,
		.side = RDP_SIDE_SERVER,
		.oob_fd = s->oob->fd,
		.stall_cycles = rdp_clock_cycles_of_ms(
			&s->clk, (uint64_t)s->o->conn.cq_timeout_ms),
		.pin_threads = !s->o->place.no_pin,
	};
	struct rdp_msg msg = { .type = RDP_MSG_RESULT };
	struct rdp_data_check chk = { 0 };
	struct rdp_result res = { 0 };
	struct rdp_cpu_snap cpu;
	uint64_t count = 0;
	int ret;

	rdp_bench_decide(s->ops, &s->p, s->conn, &run.dec);
	ret = s->eng->prepare(&run);
	if (!ret)
		rdp_ctr_begin(&s->ctr, s->dev->name, s->dev->port.num);
	if (!ret)
		ret = rdp_sync(s->oob, RDP_SYNC_READY, 0,
			       rdp_slow_step_ms(s->o, &s->p), NULL);
	/* The server's CPU over the client's run: its loop, or (passive)
	 * the wait for DONE. */
	if (!ret) {
		rdp_session_cpu_begin(&cpu);
		ret = s->eng->loop(&run, &res);
		rdp_result_clear(&res); /* the figures sent are scalars */
	}
	/* The client may take as long as it asked for: no deadline here,
	 * TCP keepalive notices a vanished peer. */
	if (!ret)
		ret = rdp_sync(s->oob, RDP_SYNC_DONE, 0, 0, &count);
	if (!ret)
		rdp_session_cpu_end(&cpu, &res.cpu);
	if (ret)
		return ret;
	s->eng->verify(&run, count, &chk);
	msg.u.result.status = chk.status;
	msg.u.result.checked_bytes = chk.checked_bytes;
	msg.u.result.bad_offset = chk.bad_offset;
	rdp_ctr_end(&s->ctr);
	rdp_ctr_to_result(&s->ctr.local, &msg.u.result);
	rdp_cpu_to_result(&res.cpu, &msg.u.result);
	if (rdp_bench_receives(s->ops, &s->p))
		msg.u.result.rx_msgs = res.msgs;
	if (s->p.flags & RDP_PARAM_BIDIR) {
		/* --threads: the rate is the window's where all ran */
		uint64_t tx = res.window_msgs ? res.window_msgs : res.msgs;

		msg.u.result.tx_msgs = tx;
		msg.u.result.tx_bytes = tx * s->p.size_bytes;
		msg.u.result.tx_elapsed_ns = (uint64_t)res.elapsed_ns;
		msg.u.result.tx_peak_kbps = (uint64_t)(res.bw_peak_gbps * 1e6);
	}
	ret = rdp_oob_send(s->oob, &msg);
	if (!ret && msg.u.result.status) {
		rdp_err("client %s: data check failed: %s at %llu",
			s->oob->peer, s->ops->check_unit,
			(unsigned long long)msg.u.result.bad_offset);
		return -EILSEQ;
	}
	return ret;
}

/* One point: the client's parameters, fresh QPs, the run, the check. */
static int serve_point(struct server *s, const struct rdp_params *p)
{
	char granted[80];
	int ret, access = 0;

	s->p = *p;
	ret = check_params(s);
	if (!ret)
		ret = setup(s);
	if (!ret)
		ret = connect_qps(s);
	if (!ret)
		ret = run_test(s);
	if (s->conn)
		access = s->conn->mr_access & RDP_ACCESS_REMOTE;
	s->eng->conn_destroy(s->conn);
	s->conn = NULL;
	rdp_access_str(access, granted, sizeof(granted));
	if (!ret)
		printf("client %s: %s, %llu B, %u QP(s): done, data ok; "
		       "granted it %s\n",
		       s->oob->peer, s->p.test,
		       (unsigned long long)s->p.size_bytes, s->p.num_qps,
		       granted[0] ? granted : "nothing");
	return ret;
}

/* The client's HELLO (read by the handshake) answered, then one point
 * per PARAMS until the client closes. */
static int serve(struct server *s, const struct rdp_msg *first)
{
	struct rdp_msg msg;
	int ret, points = 0;

	if (first->type == RDP_MSG_ERROR) {
		rdp_err("peer %s reports: %s", s->oob->peer,
			first->u.error.text);
		return -ECANCELED;
	}
	if (first->type != RDP_MSG_HELLO) {
		rdp_err("peer %s sent %s where HELLO was expected",
			s->oob->peer, rdp_wire_type_str(first->type));
		return -EPROTO;
	}
	rdp_hello_fill(&msg);
	ret = rdp_oob_send(s->oob, &msg);
	while (!ret) {
		ret = rdp_oob_recv(s->oob, &msg, -1);
		if (ret == -ECONNRESET && points)
			return 0; /* the client is done */
		if (ret == -ECONNRESET || ret == -ETIMEDOUT)
			rdp_err("client %s left before %s", s->oob->peer,
				points ? "its next test" : "sending its test");
		if (ret)
			return ret;
		if (msg.type == RDP_MSG_ERROR) {
			rdp_err("peer %s reports: %s", s->oob->peer,
				msg.u.error.text);
			return -ECANCELED;
		}
		if (msg.type != RDP_MSG_PARAMS) {
			rdp_err("peer %s sent %s where PARAMS was expected",
				s->oob->peer, rdp_wire_type_str(msg.type));
			return -EPROTO;
		}
		ret = serve_point(s, &msg.u.params);
		points++;
	}
	return ret;
}

/* A client past the gate: perftest's, or rdmaperf's with its HELLO. */
static int serve_handoff(const struct rdp_opts *o,
			 const struct rdp_engine_ops *eng,
			 struct rdp_handoff *h)
{
	struct server s = { .o = o, .eng = eng, .oob = &h->oob };
	int ret;

	if (h->perftest)
		return rdp_session_perftest_serve(o, eng, &h->oob);
	ret = rdp_clock_calibrate(&s.clk);
	if (ret)
		return ret;
	rdp_clear_error();
	ret = serve(&s, &h->first);
	if (ret && ret != -ECANCELED && rdp_last_error()[0])
		rdp_oob_send_error(&h->oob, ret, rdp_last_error());
	if (ret)
		printf("client %s: %s: failed (%s)\n", h->oob.peer,
		       s.p.test[0] ? s.p.test : "handshake", strerror(-ret));
	fflush(stdout);
	eng->conn_destroy(s.conn);
	eng->dev_close(s.dev);
	return ret;
}

int rdp_session_serve_with(const struct rdp_opts *o,
			   const struct rdp_engine_ops *eng,
			   struct rdp_oob *oob)
{
	struct rdp_handoff *h;
	char why[RDP_WIRE_TEXT_MAX];
	int ret;

	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	h->oob = *oob;
	ret = rdp_gate_handshake(o, h, why, sizeof(why));
	if (ret) {
		printf("client %s: refused: %s\n", oob->peer, why);
		fflush(stdout);
	} else {
		ret = serve_handoff(o, eng, h);
	}
	free(h);
	return ret;
}

int rdp_session_serve(const struct rdp_opts *o, struct rdp_oob *oob)
{
	return rdp_session_serve_with(o, &rdp_engine_verbs, oob);
}

/* How this server lets clients in, said once at start. */
static void say_mode(const struct rdp_opts *o)
{
	char ranges[512];

	if (o->conn.secret && o->conn.secret->len)
		printf("authentication: shared secret (HMAC-SHA256 "
		       "challenge-response, %s) from %s\n",
		       rdp_crypto_name(), o->conn.auth_file);
	else
		printf("authentication: none (anyone who reaches this port "
		       "can run tests here: see --auth-file)\n");
	rdp_cidr_list_str(&o->conn.allow, ranges, sizeof(ranges));
	printf("clients allowed from: %s\n",
	       ranges[0] ? ranges : "any address");
}

int rdp_server_loop_with(const struct rdp_opts *o,
			 const struct rdp_engine_ops *eng, int once)
{
	struct rdp_handoff *h;
	struct rdp_gate *gate;
	int ret = 0;

	/* A client that vanishes mid-write must not kill the server. */
	signal(SIGPIPE, SIG_IGN);
	/* --use_cuda without a driver or GPU: say so now, not per client. */
	ret = rdp_session_gpu_probe(&o->mem, o->conn.dev, o->conn.ib_port);
	if (ret)
		return rdp_exit_code(ret);
	if (rdp_gate_start(o, &gate))
		return RDP_EXIT_FAIL;
	say_mode(o);
	printf("rdmaperf-server listening on port %u%s\n", o->conn.tcp_port,
	       once ? " (one test)" : "");
	fflush(stdout);
	for (;;) {
		if (rdp_gate_next(gate, &h))
			return RDP_EXIT_FAIL;
		ret = serve_handoff(o, eng, h);
		rdp_oob_close(&h->oob);
		free(h);
		if (once)
			break;
		rdp_gate_done(gate);
	}
	return rdp_exit_code(ret);
}

int rdp_server_loop(const struct rdp_opts *o, int once)
{
	return rdp_server_loop_with(o, &rdp_engine_verbs, once);
}
