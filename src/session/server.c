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
#include <sys/socket.h>

#include "session_int.h"
#include <rdmaperf/cpu_usage.h>
#include <rdmaperf/cm.h>
#include <rdmaperf/clock.h>
#include <rdmaperf/counters.h>
#include <rdmaperf/events.h>
#include <rdmaperf/convert.h>
#include <rdmaperf/log.h>
#include <rdmaperf/perftest_wire.h>
#include <rdmaperf/placement.h>
#include <rdmaperf/secret.h>
#include <rdmaperf/stage.h>

struct server {
	const struct rdp_opts *o;
	int64_t end_ms; /* --max-session's end (mono_ms()), 0: none */
	const struct rdp_engine_ops *eng;
	struct rdp_oob *oob;
	struct rdp_clock clk;
	struct rdp_params p;
	const struct rdp_bench_ops *ops;
	struct rdp_dev *dev;
	struct rdp_conn *conn;
	char why[RDP_WIRE_TEXT_MAX];
	struct rdp_placement place;
	struct rdp_ctr_pair ctr;       /* port counters of the current point */
	struct rdp_session_keep *keep; /* the caller's, NULL: none */
	/* with a keep, where the time went (s): clock and device, the
	 * connection to ACCEPT, QP_INFO to RTS, the run, the teardown */
	double t[5];
	uint64_t mark_ns;
	uint64_t ev_t0_ns; /* the connection's start: event times from it */
	uint64_t ev_seq;   /* the next of dev's events to say */
};

enum {
	T_OPEN,
	T_SETUP,
	T_QPS,
	T_RUN,
	T_TEARDOWN
};

static void lap(struct server *s, int phase)
{
	uint64_t t = rdp_clock_mono_ns();

	s->t[phase] += (double)(t - s->mark_ns) / 1e9;
	s->mark_ns = t;
}

/*
 * A remote peer never gets a key wider than its test's buffer: the flag
 * that would register the whole address space, and any flag this server
 * does not know, are refused before anything is registered.
 */
static int64_t mono_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/*
 * --max-session: at the end, the connection is shut for reading, which
 * wakes every wait on it and every loop that watches it (as a client
 * that spoke would); the session then tells the client why.
 */
struct watchdog {
	pthread_t tid;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int fd;
	int64_t end_ms; /* mono_ms() */
	int done;
	int fired;
	int started;
};

static void *watch_main(void *arg)
{
	struct watchdog *w = arg;
	struct timespec end = { .tv_sec = w->end_ms / 1000,
				.tv_nsec = (w->end_ms % 1000) * 1000000 };
	int rc = 0;

	pthread_mutex_lock(&w->mu);
	while (!w->done && rc != ETIMEDOUT)
		rc = pthread_cond_timedwait(&w->cv, &w->mu, &end);
	if (!w->done) {
		w->fired = 1;
		shutdown(w->fd, SHUT_RD);
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

static int watch_start(struct watchdog *w, int fd, uint32_t limit_s)
{
	pthread_condattr_t ca;
	int ret;

	memset(w, 0, sizeof(*w));
	if (!limit_s)
		return 0;
	w->fd = fd;
	w->end_ms = mono_ms() + (int64_t)limit_s * 1000;
	pthread_mutex_init(&w->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&w->cv, &ca);
	pthread_condattr_destroy(&ca);
	ret = pthread_create(&w->tid, NULL, watch_main, w);
	if (ret) {
		rdp_err("start the --max-session watchdog: %s", strerror(ret));
		pthread_cond_destroy(&w->cv);
		pthread_mutex_destroy(&w->mu);
		return -ret;
	}
	w->started = 1;
	return 0;
}

/* Whether it fired; the watchdog is gone after this. */
static int watch_stop(struct watchdog *w)
{
	if (!w->started)
		return 0;
	pthread_mutex_lock(&w->mu);
	w->done = 1;
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
	pthread_join(w->tid, NULL);
	pthread_cond_destroy(&w->cv);
	pthread_mutex_destroy(&w->mu);
	w->started = 0;
	return w->fired;
}

/*
 * How long to wait for the client's DONE: its -D plus the margin of a
 * slow step, or (iterations, live runs) what is left of the session; at
 * least 1 ms, which the channel does not read as "no limit".
 */
static int done_wait_ms(const struct server *s)
{
	int64_t left = s->end_ms ? s->end_ms - mono_ms() : INT32_MAX;
	int64_t ms = left;

	if (s->p.duration_s && !(s->p.flags & RDP_PARAM_LIVE))
		ms = (int64_t)s->p.duration_s * 1000 +
		     rdp_slow_step_ms(s->o, &s->p);
	if (ms > left)
		ms = left;
	if (ms > INT32_MAX)
		ms = INT32_MAX;
	return ms < 1 ? 1 : (int)ms;
}

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
	struct rdp_rules_side side;
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
	ret = rdp_session_check_fit(s->o, s->ops, p, s->why, sizeof(s->why));
	if (ret)
		return ret;
	if (s->o->bench && s->o->bench != s->ops) {
		rdp_errbuf(s->why, sizeof(s->why),
			   "this one-shot server was started for %s, the "
			   "client asks for %s: start both with the same test, "
			   "or run rdmaperf-server",
			   s->o->bench->name, s->ops->name);
		return -EINVAL;
	}
	/* The client's own check, on this server's memory: same words. */
	side = rdp_rules_side_of(&s->o->mem, 0);
	side.server = 1;
	if (rdp_rules_check(p, s->ops, &side, s->why, sizeof(s->why))) {
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
	/* a client may change its mind per point */
	rdp_session_keep_release(s->keep, s->eng, s->dev);
	s->dev = NULL;
	ret = rdp_session_keep_dev(s->keep, s->eng, s->o->conn.dev,
				   s->o->conn.ib_port, cm, &s->o->mem, &s->dev);
	if (!ret)
		s->ev_seq = rdp_event_log_seq(rdp_events_log(s->dev->events));
	if (!ret)
		ret = rdp_session_keep_place(s->keep, &s->o->place, s->dev,
					     &s->place);
	lap(s, T_OPEN);
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
	/* The nonce tells our client's connect requests from others': from
	 * the CSPRNG, or no -R point at all. */
	ret = rdp_random_bytes(&nonce, sizeof(nonce));
	if (ret) {
		rdp_errbuf(s->why, sizeof(s->why),
			   "-R: no random bytes for the RDMA CM nonce (%s): "
			   "check the system's random source",
			   strerror(-ret));
		return ret;
	}
	rdp_cm_opts_from(s->o, &s->p, &cmo);
	ret = rdp_cm_listen(s->conn, &s->oob->local_ip, &cmo, &a->cm_port);
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

/*
 * On RoCE, an IP-based GID of the client's is its TCP address, else the
 * server's RDMA would go to another host of the client's choosing
 * (--any-gid allows it). A GID of the other IP family than the server's
 * is left to the engine, which names that mismatch. Under -R the QPs are
 * connected to where the client's RDMA CM request came from, not to the
 * GID it sent.
 */
static int check_gids(struct server *s, const struct rdp_qp_info *remote)
{
	const uint8_t *mine = s->conn->gid.entry.raw;
	char gid[64], addr[64];
	uint32_t i;

	if (s->o->conn.any_gid || (s->p.flags & RDP_PARAM_RDMA_CM) ||
	    !s->oob->have_peer_ip || !s->conn->have_gid ||
	    s->dev->port.link_layer != IBV_LINK_LAYER_ETHERNET)
		return 0;
	for (i = 0; i < s->p.num_qps; i++) {
		const struct rdp_qp_info *r = &remote[i];

		if (rdp_gid_is_ipv4_mapped(r->gid) !=
			    rdp_gid_is_ipv4_mapped(mine) ||
		    rdp_session_gid_fits_peer(r->gid, r->gid_type,
					      &s->oob->peer_ip))
			continue;
		rdp_gid_format(r->gid, gid, sizeof(gid));
		rdp_ip_format(&s->oob->peer_ip, addr, sizeof(addr));
		rdp_errbuf(s->why, sizeof(s->why),
			   "refused: the client's GID %s is not its address "
			   "%s, and RDMA to it would reach another host: use "
			   "the GID of the address it connects from (drop -x), "
			   "or start the server with --any-gid",
			   gid, addr);
		return -EACCES;
	}
	return 0;
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
		ret = check_gids(s, remote);
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
		.side = rdp_bench_role(&s->p, RDP_SIDE_SERVER),
		.oob_fd = s->oob->fd,
		.stall_cycles = rdp_clock_cycles_of_ms(
			&s->clk, (uint64_t)s->o->conn.cq_timeout_ms),
		.pin_threads = !s->o->place.no_pin,
		/* a client that dies mid-test frees this server at once */
		.peer_gone = rdp_oob_peer_gone,
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
		if (s->p.flags & RDP_PARAM_MCAST_COUNTS)
			rdp_group_to_result(&res, &msg.u.result);
		rdp_result_clear(&res); /* the figures sent are scalars */
		/* the watch saw its socket close, or the loop failed
		 * (a stall, a completion error) with the client gone */
		if (ret == -ECONNRESET ||
		    (ret && rdp_oob_peer_gone(s->oob->fd))) {
			rdp_err("client %s went away mid-test", s->oob->peer);
			ret = -ECONNRESET;
		}
	}
	/* The client may take as long as it asked for, and no longer. With
	 * --reversed this side sent: it says so first, with its count. */
	if (!ret && (s->p.flags & RDP_PARAM_REVERSED)) {
		count = run.posted;
		ret = rdp_sync(s->oob, RDP_SYNC_DONE, 1, done_wait_ms(s),
			       &count);
	} else if (!ret) {
		ret = rdp_sync(s->oob, RDP_SYNC_DONE, 0, done_wait_ms(s),
			       &count);
	}
	if (!ret)
		rdp_session_cpu_end(&cpu, &res.cpu);
	if (ret)
		return ret;
	s->eng->verify(&run, count, &chk);
	msg.u.result.status = chk.status;
	msg.u.result.checked_bytes = chk.checked_bytes;
	msg.u.result.bad_offset = chk.bad_offset;
	msg.u.result.check_ns = chk.check_ns;
	rdp_ctr_end(&s->ctr);
	rdp_ctr_to_result(&s->ctr.local, &msg.u.result);
	rdp_cpu_to_result(&res.cpu, &msg.u.result);
	if (rdp_bench_receives(s->ops, &s->p))
		msg.u.result.rx_msgs = res.msgs;
	if (s->p.flags & (RDP_PARAM_BIDIR | RDP_PARAM_REVERSED)) {
		/* --threads: the rate is the window's where all ran */
		uint64_t tx = res.window_msgs ? res.window_msgs : res.msgs;

		msg.u.result.tx_msgs = tx;
		msg.u.result.tx_bytes = tx * s->p.size_bytes;
		msg.u.result.tx_elapsed_ns = rdp_wire_count(res.elapsed_ns);
		msg.u.result.tx_peak_kbps =
			rdp_wire_count(res.bw_peak_gbps * 1e6);
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
	s->mark_ns = rdp_clock_mono_ns(); /* not the wait for PARAMS */
	ret = check_params(s);
	if (!ret)
		ret = setup(s);
	lap(s, T_SETUP);
	if (!ret)
		ret = connect_qps(s);
	lap(s, T_QPS);
	if (!ret)
		ret = run_test(s);
	lap(s, T_RUN);
	rdp_session_server_events(s->dev, &s->ev_seq, s->ev_t0_ns,
				  s->oob->peer);
	if (s->conn)
		access = s->conn->mr_access & RDP_ACCESS_REMOTE;
	s->eng->conn_destroy(s->conn);
	s->conn = NULL;
	lap(s, T_TEARDOWN);
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
		if (s->o->conn.max_points &&
		    (uint32_t)points >= s->o->conn.max_points) {
			rdp_err("refused: this server runs %u points per "
				"connection (--max-points): split the sweep "
				"over connections",
				s->o->conn.max_points);
			return -E2BIG;
		}
		ret = serve_point(s, &msg.u.params);
		points++;
	}
	return ret;
}

/* A kept server's line on where a client's time went. */
static void say_times(const struct server *s)
{
	struct rdp_session_keep_counts n;

	rdp_session_keep_counts(s->keep, &n);
	printf("client %s: times: clock and device %.3f s, connection %.3f "
	       "s, QPs to RTS %.3f s, run %.3f s, teardown %.3f s; kept: %u "
	       "device open(s), %u connection(s) built, %u reused\n",
	       s->oob->peer, s->t[T_OPEN], s->t[T_SETUP], s->t[T_QPS],
	       s->t[T_RUN], s->t[T_TEARDOWN], n.dev_opens, n.conns_built,
	       n.conns_reused);
}

/* A failure in its own words where it said them (a refusal's reason,
 * not the errno it returned), else the errno's. */
static const char *why_failed(const struct rdp_handoff *h, int ret)
{
	if (ret == -EBADMSG && h->oob.seal.on)
		return "a message failed its authentication check";
	return rdp_last_error()[0] ? rdp_last_error() : strerror(-ret);
}

/* A client past the gate: perftest's, or rdmaperf's with its HELLO. */
static int serve_handoff(const struct rdp_opts *o,
			 const struct rdp_engine_ops *eng,
			 struct rdp_handoff *h, struct rdp_session_keep *keep)
{
	struct server s = { .o = o,
			    .eng = eng,
			    .oob = &h->oob,
			    .keep = keep,
			    .mark_ns = rdp_clock_mono_ns() };
	struct watchdog w;
	int ret;

	ret = watch_start(&w, h->oob.fd, o->conn.max_session_s);
	if (ret)
		return ret;
	s.end_ms = w.end_ms;
	s.ev_t0_ns = s.mark_ns;
	rdp_clear_error();
	if (h->perftest)
		ret = rdp_session_perftest_serve(o, eng, &h->oob);
	else
		ret = rdp_session_keep_clock(keep, &s.clk);
	lap(&s, T_OPEN);
	if (!ret && !h->perftest)
		ret = serve(&s, &h->first);
	/* A wait cut at the session's end is its end too, whichever of
	 * the two came first. */
	if (watch_stop(&w) || (ret && w.end_ms && mono_ms() >= w.end_ms)) {
		rdp_err("ended: this server ends a connection after "
			"--max-session %u s: run shorter tests, or ask for a "
			"longer limit",
			o->conn.max_session_s);
		ret = -ETIME;
	}
	/* perftest's peers read no rdmaperf ERROR: only the log has it */
	if (h->perftest && ret != -ETIME)
		return ret;
	if (!h->perftest && ret && ret != -ECANCELED && rdp_last_error()[0])
		rdp_oob_send_error(&h->oob, ret, rdp_last_error());
	if (ret)
		printf("client %s: %s: failed (%s)\n", h->oob.peer,
		       s.p.test[0]   ? s.p.test
		       : h->perftest ? "perftest"
				     : "handshake",
		       why_failed(h, ret));
	s.mark_ns = rdp_clock_mono_ns(); /* not the wait for the close */
	eng->conn_destroy(s.conn);
	rdp_session_keep_release(keep, eng, s.dev);
	lap(&s, T_TEARDOWN);
	if (keep)
		say_times(&s);
	rdp_session_keep_done(keep, NULL);
	fflush(stdout);
	return ret;
}

int rdp_session_serve_kept(const struct rdp_opts *o,
			   const struct rdp_engine_ops *eng,
			   struct rdp_oob *oob, struct rdp_session_keep *keep)
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
		ret = serve_handoff(o, eng, h, keep);
	}
	/* The caller closes its copy of the channel; this one's session
	 * keys go with it. */
	explicit_bzero(&h->oob.seal, sizeof(h->oob.seal));
	free(h);
	return ret;
}

int rdp_session_serve_with(const struct rdp_opts *o,
			   const struct rdp_engine_ops *eng,
			   struct rdp_oob *oob)
{
	return rdp_session_serve_kept(o, eng, oob, NULL);
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

/*
 * What would fail every client, said once before listening: no RDMA
 * device (exit 77), -d naming none or -x no valid GID of the port (a
 * wrong command line), --use_cuda without a driver or GPU. A port that
 * is down may come up: that is said per client.
 */
static int check_device(const struct rdp_opts *o,
			const struct rdp_engine_ops *eng)
{
	struct rdp_dev *dev = NULL;
	int ret;

	ret = eng->dev_open(o->conn.dev, o->conn.ib_port, 0, &o->mem, &dev);
	if (!ret)
		ret = rdp_dev_gid_check(dev, o->conn.gid_index);
	eng->dev_close(dev);
	switch (ret) {
	case -ENETDOWN:
		return RDP_EXIT_OK;
	case -ENXIO:  /* -d names no device */
	case -ENOENT: /* -x names no GID, --mmap no file */
	case -EINVAL:
		return RDP_EXIT_USAGE;
	default:
		return rdp_exit_code(ret);
	}
}

int rdp_server_loop_with(const struct rdp_opts *o,
			 const struct rdp_engine_ops *eng, int once)
{
	struct rdp_handoff *h;
	struct rdp_gate *gate;
	int ret = 0;

	/* A client that vanishes mid-write must not kill the server. */
	signal(SIGPIPE, SIG_IGN);
	ret = check_device(o, eng);
	if (ret)
		return ret;
	if (rdp_gate_start(o, &gate))
		return RDP_EXIT_FAIL;
	say_mode(o);
	printf("rdmaperf-server listening on port %u%s\n", o->conn.tcp_port,
	       once ? " (one test)" : "");
	fflush(stdout);
	for (;;) {
		if (rdp_gate_next(gate, &h))
			return RDP_EXIT_FAIL;
		ret = serve_handoff(o, eng, h, NULL);
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
