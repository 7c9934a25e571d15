/* SPDX-License-Identifier: BSD-2-Clause */
/* Pieces of a session both sides share: HELLO, QP_INFO exchange, data
 * patterns and checks, exit codes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include <time.h>
#include "session_int.h"
#include <rdmaperf/secret.h>
#include <rdmaperf/report.h>
#include <rdmaperf/json.h>
#include <rdmaperf/cpu_usage.h>
#include <rdmaperf/wire.h>
#include <rdmaperf/convert.h>
#include <rdmaperf/cm.h>
#include <rdmaperf/clock.h>
#include <rdmaperf/log.h>
#include <rdmaperf/sysfs.h>
#include <rdmaperf/placement.h>
#include <rdmaperf/verdict.h>

int rdp_exit_code(int err)
{
	switch (err) {
	case 0:
		return RDP_EXIT_OK;
	case -ENODEV:
	case -ENOSYS:
		return RDP_EXIT_UNSUPPORTED;
	case RDP_OOB_REFUSED:
		return RDP_EXIT_USAGE;
	default:
		return RDP_EXIT_FAIL;
	}
}

int rdp_session_load_secret(struct rdp_opts *o, int client,
			    struct rdp_secret *s)
{
	const char *path = o->conn.auth_file, *env;
	char err[512];
	int ret;

	memset(s, 0, sizeof(*s));
	o->conn.secret = NULL;
	env = getenv("RDMAPERF_AUTH_FILE");
	if (!path[0] && client && env && env[0])
		path = env;
	if (!path[0])
		return 0;
	ret = rdp_secret_load(path, s, err, sizeof(err));
	if (ret) {
		rdp_err("%s%s", err,
			path == env ? " (from RDMAPERF_AUTH_FILE)" : "");
		return ret;
	}
	o->conn.secret = s;
	return 0;
}

void rdp_hello_fill(struct rdp_msg *msg)
{
	struct rdp_msg_hello *h = &msg->u.hello;
	struct rdp_sysfs fs;
	struct utsname u;

	memset(msg, 0, sizeof(*msg));
	msg->type = RDP_MSG_HELLO;
	snprintf(h->tool_version, sizeof(h->tool_version), "%s",
		 PACKAGE_VERSION);
	if (gethostname(h->hostname, sizeof(h->hostname) - 1))
		snprintf(h->hostname, sizeof(h->hostname), "unknown");
	rdp_sysfs_init(&fs, NULL);
	rdp_cpu_model(&fs, h->cpu_model, sizeof(h->cpu_model));
	h->cpus = (uint32_t)sysconf(_SC_NPROCESSORS_ONLN);
	if (!uname(&u))
		snprintf(h->kernel, sizeof(h->kernel), "%.*s",
			 (int)sizeof(h->kernel) - 1, u.release);
}

void rdp_path_from_params(const struct rdp_params *p,
			  struct rdp_path_opts *path)
{
	path->mtu_bytes = p->mtu_bytes;
	path->tclass = (uint8_t)p->tclass;
	path->sl = (uint8_t)p->sl;
	path->timeout = (uint8_t)p->qp_timeout;
	path->pkey_index = (uint16_t)p->pkey_index;
	path->flow_label = p->flow_label;
	path->flow_labels = p->n_flow_labels ? p->flow_labels : NULL;
	path->n_flow_labels = p->n_flow_labels;
	path->hop_limit = (uint8_t)p->hop_limit;
	path->retry_cnt = (uint8_t)p->retry_count;
	path->rnr_retry = (uint8_t)p->rnr_retry;
}

/* What each verb does with an ODP MR, on one side or the other. */
static const uint32_t odp_ops[] = {
	[RDP_VERB_WRITE] = IBV_ODP_SUPPORT_WRITE,
	[RDP_VERB_READ] = IBV_ODP_SUPPORT_READ,
	[RDP_VERB_SEND] = IBV_ODP_SUPPORT_SEND | IBV_ODP_SUPPORT_RECV,
	[RDP_VERB_ATOMIC] = IBV_ODP_SUPPORT_ATOMIC,
};

void rdp_conn_cfg_from_params(const struct rdp_params *p,
			      const struct rdp_bench_ops *ops,
			      enum rdp_side side, int gid_index,
			      const struct rdp_ip *local_ip,
			      struct rdp_conn_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->num_qps = p->num_qps;
	/* --data_validation: a slot holds a ring of messages */
	cfg->msg_bytes = (uint32_t)rdp_dv_slot_msg_bytes(ops, p);
	cfg->tx_depth = p->tx_depth;
	cfg->rx_depth = rdp_bench_receives(ops, p) ? p->rx_depth : 0;
	cfg->gid_index = gid_index;
	cfg->use_grh = !!(p->flags & RDP_PARAM_GRH);
	cfg->inline_bytes = p->inline_bytes;
	cfg->pkey_index = (uint16_t)p->pkey_index;
	cfg->events = !!(p->flags & RDP_PARAM_EVENTS);
	cfg->comp_vector = (int)p->comp_vector;
	cfg->local_ip = local_ip;
	cfg->defer_qps = !!(p->flags & RDP_PARAM_RDMA_CM);
	cfg->mr_per_qp = !!(p->flags & RDP_PARAM_MR_PER_QP);
	cfg->null_mr = !!(p->flags & RDP_PARAM_NULL_MR);
	cfg->dualport = !!(p->flags & RDP_PARAM_DUALPORT);
	cfg->use_srq = !!(p->flags & RDP_PARAM_SRQ);
	/* Explicit only: an implicit MR's key would cover the whole address
	 * space (RDP_PARAM_ODP_IMPLICIT is refused before this). */
	cfg->odp = !!(p->flags & RDP_PARAM_ODP);
	cfg->odp_ops = odp_ops[ops->verb];
	cfg->transport = p->transport;
	cfg->access = rdp_bench_access(ops, p, side);
	cfg->num_cqs = p->threads > 1 ? p->threads : 1;
	cfg->post_api = p->flags & RDP_PARAM_OLD_POST_SEND ? RDP_POST_SEND
							   : RDP_POST_WR;
	cfg->send_ops = rdp_bench_send_ops(ops);
	/* -g: the client sends to the group its QP_INFO names; the
	 * server's QPs receive, attached to it */
	if ((p->flags & RDP_PARAM_MCAST) && side == RDP_SIDE_SERVER) {
		cfg->mcast_gid = p->mgid;
		cfg->mcast_cm = !!(p->flags & RDP_PARAM_MCAST_CM);
	}
}

void rdp_session_mem_need(const struct rdp_params *p,
			  const struct rdp_bench_ops *ops,
			  struct rdp_mem_need *need)
{
	uint64_t qps = p->num_qps;
	uint64_t rx = rdp_bench_receives(ops, p) ? p->rx_depth : 0;
	/* as the engine sizes each CQ: every QP's sends and receives */
	uint64_t cqes = qps * (p->tx_depth + rx + 1);

	need->buf_bytes =
		rdp_slot_bytes(rdp_dv_slot_msg_bytes(ops, p)) * 2 * qps;
	need->queue_bytes =
		qps * (p->tx_depth * (uint64_t)RDP_SEND_WQE_BYTES +
		       (rx ? rx : 1) * (uint64_t)RDP_RECV_WQE_BYTES) +
		cqes * RDP_CQE_BYTES;
}

static uint64_t mib_up(uint64_t bytes)
{
	return (bytes + (1u << 20) - 1) >> 20;
}

int rdp_session_check_fit(const struct rdp_opts *o,
			  const struct rdp_bench_ops *ops,
			  const struct rdp_params *p, char *why, size_t len)
{
	struct rdp_mem_need n;
	uint64_t max = o->conn.max_memory_bytes;

	/* The option table's ranges: what a client may ask for. */
	if (o->check_params && o->check_params(p, why, len)) {
		rdp_err("%s", why);
		return -E2BIG;
	}
	rdp_session_mem_need(p, ops, &n);
	if (n.buf_bytes + n.queue_bytes > max) {
		rdp_errbuf(
			why, len,
			"refused: %llu B x %u QPs needs %llu MiB of buffers "
			"and queues (%llu MiB + %llu MiB), over this "
			"server's --max-memory of %llu MiB: use smaller "
			"messages, fewer QPs or shallower queues, or raise "
			"the limit",
			(unsigned long long)p->size_bytes, p->num_qps,
			(unsigned long long)mib_up(n.buf_bytes + n.queue_bytes),
			(unsigned long long)mib_up(n.buf_bytes),
			(unsigned long long)mib_up(n.queue_bytes),
			(unsigned long long)(max >> 20));
		return -E2BIG;
	}
	/* A live run's -D is its report interval, not its length. */
	if (!(p->flags & RDP_PARAM_LIVE) && o->conn.max_session_s &&
	    p->duration_s >= o->conn.max_session_s) {
		rdp_errbuf(why, len,
			   "refused: -D %u is not shorter than this server's "
			   "--max-session of %u s: run shorter tests, or raise "
			   "the limit",
			   p->duration_s, o->conn.max_session_s);
		return -E2BIG;
	}
	return 0;
}

int rdp_session_gid_fits_peer(const uint8_t gid[16], uint8_t gid_type,
			      const struct rdp_ip *peer)
{
	if (gid_type != RDP_GID_ROCE_V2 && !rdp_gid_is_ipv4_mapped(gid))
		return 1;
	return !memcmp(gid, peer->raw, sizeof(peer->raw));
}

int rdp_slow_step_ms(const struct rdp_opts *o, const struct rdp_params *p)
{
	uint64_t bytes = rdp_slot_bytes(p->size_bytes) * 2 * p->num_qps;

	return o->conn.oob_timeout_ms + (int)(bytes >> 28) * 2000;
}

int rdp_send_qp_infos_with(const struct rdp_engine_ops *eng,
			   struct rdp_oob *oob, const struct rdp_conn *conn,
			   int expose_tx)
{
	struct rdp_msg msg = { .type = RDP_MSG_QP_INFO };
	uint32_t i;
	int ret;

	for (i = 0; i < conn->num_qps; i++) {
		eng->conn_local_info(conn, i, expose_tx, &msg.u.qp_info);
		ret = rdp_oob_send(oob, &msg);
		if (ret)
			return ret;
	}
	return 0;
}

int rdp_send_qp_infos(struct rdp_oob *oob, const struct rdp_conn *conn,
		      int expose_tx)
{
	return rdp_send_qp_infos_with(&rdp_engine_verbs, oob, conn, expose_tx);
}

int rdp_recv_qp_infos(struct rdp_oob *oob, uint32_t n, struct rdp_qp_info *out)
{
	struct rdp_msg msg;
	uint32_t i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = rdp_oob_expect(oob, RDP_MSG_QP_INFO, &msg, -1);
		if (ret)
			return ret;
		out[i] = msg.u.qp_info;
	}
	return 0;
}

int rdp_sync(struct rdp_oob *oob, uint32_t phase, int send_first,
	     int timeout_ms, uint64_t *count)
{
	struct rdp_msg msg = { .type = RDP_MSG_SYNC };
	int ret;

	msg.u.sync.phase = phase;
	msg.u.sync.count = count ? *count : 0;
	if (send_first) {
		ret = rdp_oob_send(oob, &msg);
		if (ret)
			return ret;
	}
	ret = rdp_oob_expect(oob, RDP_MSG_SYNC, &msg, timeout_ms);
	if (ret)
		return ret;
	if (msg.u.sync.phase != phase) {
		rdp_err("peer %s is at phase %u, this side at %u", oob->peer,
			msg.u.sync.phase, phase);
		return -EPROTO;
	}
	if (!send_first) {
		if (count)
			*count = msg.u.sync.count;
		msg.u.sync.phase = phase;
		return rdp_oob_send(oob, &msg);
	}
	return 0;
}

/* Our send slots carry our pattern; receive slots start zeroed. GPU
 * buffers are filled through their host copy. */
int rdp_fill_tx(const struct rdp_conn *gpu_or_host, const struct rdp_params *p,
		enum rdp_side side, uint32_t tail)
{
	struct rdp_conn view, *conn = &view;
	uint32_t q;

	rdp_devbuf_view(gpu_or_host, &view);
	for (q = 0; q < conn->num_qps; q++) {
		uint8_t *tx = rdp_conn_tx(conn, q);

		rdp_pattern_fill(tx, p->size_bytes, p->seed, q, side);
		memset(tx + p->size_bytes - tail, 0, tail);
		memset(rdp_conn_rx(conn, q), 0, conn->slot_bytes);
	}
	return rdp_devbuf_push(gpu_or_host);
}

void rdp_cm_opts_from(const struct rdp_opts *o, const struct rdp_params *p,
		      struct rdp_cm_opts *cmo)
{
	memset(cmo, 0, sizeof(*cmo));
	cmo->timeout_ms = o->conn.connect_timeout_ms;
	cmo->tos = p->flags & RDP_PARAM_TOS ? (int)p->tclass : -1;
	cmo->ack_timeout = (int)p->qp_timeout;
	cmo->retry_cnt = (int)p->retry_count;
	cmo->rnr_retry = (int)p->rnr_retry; /* 7: forever, as without -R */
}

void rdp_session_cpu_begin(struct rdp_cpu_snap *s)
{
	struct rdp_sysfs fs;

	rdp_sysfs_init(&fs, NULL);
	rdp_cpu_snap(&fs, s);
}

void rdp_session_cpu_end(const struct rdp_cpu_snap *before,
			 struct rdp_cpu_cost *cost)
{
	struct rdp_cpu_snap after;
	struct rdp_cpu_usage u;
	struct rdp_sysfs fs;

	rdp_sysfs_init(&fs, NULL);
	rdp_cpu_snap(&fs, &after);
	rdp_cpu_usage(before, &after, &u);
	cost->have = 1;
	cost->wall_s = (double)u.wall_ns / 1e9;
	cost->user_s = (double)u.user_ns / 1e9;
	cost->sys_s = (double)u.sys_ns / 1e9;
	cost->host_busy_pct = u.host_busy_pct;
}

void rdp_cpu_to_result(const struct rdp_cpu_cost *c, struct rdp_msg_result *r)
{
	r->cpu_wall_ns = rdp_wire_count(c->wall_s * 1e9);
	r->cpu_user_ns = rdp_wire_count(c->user_s * 1e9);
	r->cpu_sys_ns = rdp_wire_count(c->sys_s * 1e9);
	r->host_busy_cpct = c->host_busy_pct < 0
				    ? -1
				    : (int32_t)(c->host_busy_pct * 100 + 0.5);
}

void rdp_cpu_from_result(const struct rdp_msg_result *r, struct rdp_cpu_cost *c)
{
	c->have = r->cpu_wall_ns > 0;
	c->wall_s = (double)r->cpu_wall_ns / 1e9;
	c->user_s = (double)r->cpu_user_ns / 1e9;
	c->sys_s = (double)r->cpu_sys_ns / 1e9;
	c->host_busy_pct = r->host_busy_cpct < 0 ? -1
						 : r->host_busy_cpct / 100.0;
}

int rdp_session_clock(struct rdp_clock *clk)
{
	int ret = rdp_clock_calibrate(clk);

	if (ret)
		rdp_err("the cycle counter does not advance: cannot time");
	return ret;
}

int rdp_session_dev_open(const struct rdp_engine_ops *eng,
			 const struct rdp_opts *o, struct rdp_dev **out)
{
	return eng->dev_open(o->conn.dev, o->conn.ib_port,
			     !!(o->params.flags & RDP_PARAM_RDMA_CM), &o->mem,
			     out);
}

int rdp_session_dial(const struct rdp_opts *o, struct rdp_oob *oob)
{
	int ret = 0;

	if (oob->fd < 0)
		ret = rdp_oob_connect(o->conn.host, o->conn.tcp_port,
				      o->conn.source_ip,
				      o->conn.connect_timeout_ms, oob);
	oob->timeout_ms = o->conn.oob_timeout_ms;
	return ret;
}

int rdp_session_text_out(int quiet, FILE **out)
{
	int err;

	*out = stdout;
	if (!quiet)
		return 0;
	*out = fopen("/dev/null", "w");
	if (*out)
		return 0;
	err = errno;
	*out = stdout;
	rdp_err("open /dev/null: %s", strerror(err));
	return -err;
}

void rdp_session_qp_cfg(const struct rdp_opts *o, const struct rdp_params *p,
			enum rdp_side side, const struct rdp_oob *oob,
			struct rdp_conn_cfg *cfg, struct rdp_path_opts *path)
{
	rdp_conn_cfg_from_params(p, o->bench, side, o->conn.gid_index,
				 oob->have_local_ip ? &oob->local_ip : NULL,
				 cfg);
	rdp_path_from_params(p, path);
	path->dlid = o->conn.dlid; /* the client's alone */
}

void rdp_session_run_init(struct rdp_run *run, const struct rdp_opts *o,
			  const struct rdp_params *p, struct rdp_conn *conn,
			  const struct rdp_clock *clk, enum rdp_side side,
			  int oob_fd)
{
	const struct rdp_report_opts *ro = &o->report;

	*run = (struct rdp_run){
		.params = p,
		.ops = o->bench,
		.conn = conn,
		.clk = clk,
		.side = side,
		.oob_fd = oob_fd,
		.stop = rdp_session_stop_word(),
		.peer_gone = rdp_oob_peer_gone,
		.interval_cycles =
			(uint64_t)(ro->interval_s * 1e9 * clk->cycles_per_ns),
		.keep_samples = ro->samples,
		.margin_cycles =
			(uint64_t)(ro->margin_s * 1e9 * clk->cycles_per_ns),
		.stall_cycles = rdp_clock_cycles_of_ms(
			clk, (uint64_t)o->conn.cq_timeout_ms),
	};
}

/* A governor that scales the clock down between polls skews latency. */
void rdp_session_governor_check(const struct rdp_opts *o)
{
	struct rdp_sysfs fs;
	char gov[64];

	if (o->report.no_freq_check)
		return;
	rdp_sysfs_init(&fs, NULL);
	if (rdp_sysfs_read(&fs, gov, sizeof(gov),
			   "/sys/devices/system/cpu/cpu0/cpufreq/"
			   "scaling_governor"))
		return;
	if (strcmp(gov, "performance"))
		rdp_warn("CPU frequency governor is '%s': figures may vary; "
			 "set 'performance' (cpupower frequency-set -g "
			 "performance) or pass -F to silence this",
			 gov);
}

/* The run's thresholds: -w and -y are the same checks under perftest's
 * letters, folded into --min-bw and --min-msgrate. */
void rdp_session_limits(const struct rdp_opts *o, struct rdp_limits *lim)
{
	*lim = o->limits.limits;
	if (o->report.limit_bw_gbps > lim->min_bw_gbps) {
		lim->min_bw_gbps = o->report.limit_bw_gbps;
		lim->bw_opt = "-w";
	}
	if (o->report.limit_msgrate_mpps > lim->min_msgrate_mpps) {
		lim->min_msgrate_mpps = o->report.limit_msgrate_mpps;
		lim->msgrate_opt = "-y";
	}
}

/* --threads: a CPU each among those placement left this process. */
int rdp_session_threads_fit(const struct rdp_opts *o)
{
	int cpus[64], ret = 0;
	char why[256];

	if (o->params.threads > 1)
		ret = rdp_threads_cpus(o->params.threads, cpus, why,
				       sizeof(why));
	if (ret)
		rdp_err("%s", why);
	return ret;
}
