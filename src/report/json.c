/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The JSON report: the run's context once, then one entry per measured
 * point. Built with jansson only, so quoting and numbers are never by hand.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <jansson.h>

#include <rdmaperf/clock.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/json.h>
#include <rdmaperf/json_sys.h>
#include <rdmaperf/limits.h>
#include <rdmaperf/json_mem.h>
#include <rdmaperf/report.h>

struct rdp_json {
	json_t *root;
	json_t *results; /* our own reference; root holds another */
};

/*
 * Text from the peer or the device may be unterminated or not UTF-8, which
 * jansson refuses; such text is kept as printable ASCII instead.
 */
static json_t *text(const char *s, size_t max)
{
	char clean[256];
	size_t len, i;
	json_t *v;

	if (!s)
		return json_null();
	len = strnlen(s, max);
	v = json_stringn(s, len);
	if (v)
		return v;
	if (len >= sizeof(clean))
		len = sizeof(clean) - 1;
	for (i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)s[i];

		clean[i] = ch >= 0x20 && ch < 0x7f ? (char)ch : '?';
	}
	return json_stringn(clean, len);
}

#define TEXT(array) text((array), sizeof(array))
#define CTEXT(str)  text((str), SIZE_MAX)

static json_t *uint_val(uint64_t v)
{
	if (v > (uint64_t)LLONG_MAX)
		return json_real((double)v);
	return json_integer((json_int_t)v);
}

/* jansson has no NaN or infinity, and neither has JSON. */
static json_t *real_val(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* 0 means "not set" (device limit, automatic): null. */
static json_t *uint_or_null(uint64_t v)
{
	return v ? uint_val(v) : json_null();
}

static json_t *labels_arr(const struct rdp_params *p)
{
	json_t *a = json_array();
	uint32_t i;

	for (i = 0; a && i < p->n_flow_labels; i++)
		if (json_array_append_new(a, uint_val(p->flow_labels[i]))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

/* Negative means unknown (NUMA node, no GID): null. */
static json_t *index_or_null(int64_t v)
{
	return v >= 0 ? json_integer((json_int_t)v) : json_null();
}

/* An object whose members all went in, or NULL (and nothing leaked). */
static json_t *done(json_t *o, int err)
{
	if (!err)
		return o;
	json_decref(o);
	return NULL;
}

static json_t *timestamp(time_t now)
{
	char buf[32];
	struct tm tm;

	if (!gmtime_r(&now, &tm) ||
	    !strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm))
		return json_null();
	return json_string(buf);
}

static json_t *client_obj(const struct rdp_host_info *h)
{
	json_t *o;
	int err = 0;

	if (!h)
		return json_null();
	o = json_object();
	if (!o)
		return NULL;
	err |= json_object_set_new(o, "hostname", TEXT(h->hostname));
	err |= json_object_set_new(o, "kernel", TEXT(h->kernel));
	err |= json_object_set_new(o, "cpu_model", TEXT(h->cpu_model));
	err |= json_object_set_new(o, "cpus", uint_val(h->cpus));
	return done(o, err);
}

/* The client's fields, then what only the server side has. */
static json_t *server_obj(const struct rdp_report_info *in)
{
	json_t *o = client_obj(in->peer_host);
	int err = 0;

	if (!o || json_is_null(o))
		return o;
	err |= json_object_set_new(o, "rdmaperf_version",
				   TEXT(in->peer_host->tool_version));
	err |= json_object_set_new(o, "address", CTEXT(in->peer_addr));
	err |= json_object_set_new(o, "cpu",
				   in->peer ? index_or_null(in->peer->cpu)
					    : json_null());
	return done(o, err);
}

static const char *link_layer_name(uint8_t link_layer)
{
	switch (link_layer) {
	case IBV_LINK_LAYER_INFINIBAND:
		return "InfiniBand";
	case IBV_LINK_LAYER_ETHERNET:
		return "Ethernet";
	default:
		return "unspecified";
	}
}

static json_t *device_obj(const struct rdp_dev *d)
{
	const struct rdp_port_info *p = &d->port;
	double gbps = rdp_link_signal_gbps(p->active_speed, p->active_width);
	double line = rdp_line_rate_gbps(p->link_layer, p->active_speed,
					 p->active_width);
	json_t *o = json_object();
	int err = 0;

	if (!o)
		return NULL;
	err |= json_object_set_new(o, "name", TEXT(d->name));
	err |= json_object_set_new(o, "firmware", TEXT(d->attr.fw_ver));
	err |= json_object_set_new(o, "port", json_integer(p->num));
	err |= json_object_set_new(o, "link_layer",
				   json_string(link_layer_name(p->link_layer)));
	err |= json_object_set_new(o, "port_state",
				   json_string(rdp_port_state_str(p->state)));
	err |= json_object_set_new(o, "active_speed",
				   json_integer(p->active_speed));
	err |= json_object_set_new(o, "active_width",
				   json_integer(p->active_width));
	if (rdp_link_lanes(p->active_width))
		err |= json_object_set_new(
			o, "lanes", uint_val(rdp_link_lanes(p->active_width)));
	if (gbps > 0)
		err |= json_object_set_new(o, "link_gbps", real_val(gbps));
	if (line > 0)
		err |= json_object_set_new(o, "line_rate_gbps", real_val(line));
	err |= json_object_set_new(o, "active_mtu_bytes",
				   uint_val(p->active_mtu_bytes));
	err |= json_object_set_new(o, "numa_node", index_or_null(d->numa_node));
	return done(o, err);
}

static json_t *peer_device_obj(const struct rdp_peer_info *a)
{
	json_t *o, *type;
	int err = 0;

	if (!a)
		return json_null();
	o = json_object();
	if (!o)
		return NULL;
	type = a->gid_index < 0 ? json_null()
				: json_string(rdp_gid_type_str(
					  (enum rdp_gid_type)a->gid_type));
	err |= json_object_set_new(o, "name", TEXT(a->device));
	err |= json_object_set_new(o, "port", json_integer(a->port));
	err |= json_object_set_new(o, "active_mtu_bytes",
				   uint_val(a->active_mtu_bytes));
	err |= json_object_set_new(o, "numa_node", index_or_null(a->numa_node));
	err |= json_object_set_new(o, "gid_index", index_or_null(a->gid_index));
	err |= json_object_set_new(o, "gid_type", type);
	return done(o, err);
}

static json_t *gid_obj(const struct rdp_conn *c)
{
	const struct rdp_gid_entry *e = &c->gid.entry;
	char addr[64];
	json_t *o;
	int err = 0;

	if (!c->have_gid)
		return json_null();
	o = json_object();
	if (!o)
		return NULL;
	rdp_gid_format(e->raw, addr, sizeof(addr));
	err |= json_object_set_new(o, "index", json_integer(e->index));
	err |= json_object_set_new(o, "type",
				   json_string(rdp_gid_type_str(e->type)));
	err |= json_object_set_new(o, "address", TEXT(addr));
	err |= json_object_set_new(
		o, "chosen_because",
		json_string(rdp_gid_reason_str(c->gid.reason)));
	return done(o, err);
}

static json_t *clock_obj(const struct rdp_clock *clk)
{
	json_t *o;
	int err = 0;

	if (!clk)
		return json_null();
	o = json_object();
	if (!o)
		return NULL;
	err |= json_object_set_new(o, "source", CTEXT(clk->source));
	err |= json_object_set_new(o, "cycles_per_ns",
				   real_val(clk->cycles_per_ns));
	return done(o, err);
}

/* --rate_limit as asked; null without it. */
static json_t *rate_limit_obj(const struct rdp_params *p)
{
	static const char *const types[RDP_RATE_TYPE_COUNT] = { "auto", "HW",
								"SW" };
	json_t *o;
	int err = 0;

	if (!p->rate_milli)
		return json_null();
	o = json_object();
	if (!o)
		return NULL;
	err |= json_object_set_new(o, "value",
				   real_val((double)p->rate_milli / 1000));
	err |= json_object_set_new(o, "units",
				   CTEXT(rdp_rate_units_name(p->rate_units)));
	err |= json_object_set_new(o, "type",
				   CTEXT(p->rate_type < RDP_RATE_TYPE_COUNT
						 ? types[p->rate_type]
						 : "?"));
	return done(o, err);
}

static json_t *params_obj(const struct rdp_params *p)
{
	const char *atomic = p->flags & RDP_PARAM_CAS ? "compare_and_swap"
						      : "fetch_and_add";
	json_t *o = json_object();
	int err = 0;

	if (!o)
		return NULL;
	err |= json_object_set_new(o, "test", TEXT(p->test));
	err |= json_object_set_new(o, "size_bytes", uint_val(p->size_bytes));
	err |= json_object_set_new(o, "iterations", uint_or_null(p->iters));
	err |= json_object_set_new(o, "duration_s",
				   uint_or_null(p->duration_s));
	err |= json_object_set_new(o, "warmup_iters",
				   uint_val(p->warmup_iters));
	err |= json_object_set_new(o, "num_qps", uint_val(p->num_qps));
	err |= json_object_set_new(o, "threads",
				   uint_val(p->threads ? p->threads : 1));
	err |= json_object_set_new(o, "tx_depth", uint_val(p->tx_depth));
	err |= json_object_set_new(o, "cq_mod", uint_val(p->cq_mod));
	err |= json_object_set_new(o, "rx_depth", uint_val(p->rx_depth));
	err |= json_object_set_new(o, "outstanding",
				   uint_or_null(p->outstanding));
	err |= json_object_set_new(o, "mtu_bytes", uint_or_null(p->mtu_bytes));
	err |= json_object_set_new(o, "tclass", uint_val(p->tclass));
	err |= json_object_set_new(o, "sl", uint_val(p->sl));
	err |= json_object_set_new(o, "qp_timeout", uint_val(p->qp_timeout));
	err |= json_object_set_new(o, "pkey_index", uint_val(p->pkey_index));
	err |= json_object_set_new(o, "flow_label", uint_val(p->flow_label));
	if (p->n_flow_labels) /* --flow_label's list: QP i's label */
		err |= json_object_set_new(o, "flow_labels", labels_arr(p));
	err |= json_object_set_new(o, "hop_limit", uint_val(p->hop_limit));
	err |= json_object_set_new(o, "retry_count", uint_val(p->retry_count));
	err |= json_object_set_new(o, "rnr_retry", uint_val(p->rnr_retry));
	err |= json_object_set_new(o, "events",
				   json_boolean(p->flags & RDP_PARAM_EVENTS));
	err |= json_object_set_new(o, "comp_vector", uint_val(p->comp_vector));
	err |= json_object_set_new(o, "seed", uint_val(p->seed));
	err |= json_object_set_new(o, "grh",
				   json_boolean(p->flags & RDP_PARAM_GRH));
	err |= json_object_set_new(
		o, "transport", json_string(rdp_transport_name(p->transport)));
	err |= json_object_set_new(o, "rate_limit", rate_limit_obj(p));
	err |= json_object_set_new(o, "srq",
				   json_boolean(p->flags & RDP_PARAM_SRQ));
	err |= rdp_json_loop_shape(o, p);
	err |= rdp_json_mcast(o, p);
	err |= json_object_set_new(
		o, "immediate",
		json_boolean(p->flags &
			     (RDP_PARAM_WRITE_IMM | RDP_PARAM_SEND_IMM)));
	err |= json_object_set_new(
		o, "connection",
		json_string(p->flags & RDP_PARAM_RDMA_CM ? "rdma_cm" : "tcp"));
	err |= json_object_set_new(o, "atomic", json_string(atomic));
	return done(o, err);
}

/* Where the buffers are and how the NIC reaches them. */
static json_t *memory_obj(const struct rdp_conn *c)
{
	/* Staged memory (--bounce) registers host buffers: its GPU is in
	 * the staging object. */
	const struct rdp_mem *m =
		rdp_mem_kind_of(c->dev->mem) == RDP_MEM_KIND_GPU ? c->dev->mem
								 : NULL;
	enum rdp_mem_path path = c->mb ? c->mb->path : RDP_MEM_PATH_HOST;
	int have_note = c->mb && c->mb->note[0];
	json_t *o = json_object();
	int err = !o;

	if (!o)
		return NULL;
	err |= json_object_set_new(o, "type",
				   json_string(m ? m->ops->name : "host"));
	err |= json_object_set_new(o, "gpu", m ? TEXT(m->desc) : json_null());
	err |= json_object_set_new(o, "gpu_bus_id",
				   m ? TEXT(m->bus_id) : json_null());
	err |= json_object_set_new(o, "registration",
				   json_string(rdp_mem_path_id(path)));
	err |= json_object_set_new(o, "dmabuf_note",
				   have_note ? TEXT(c->mb->note) : json_null());
	err |= json_object_set_new(
		o, "relaxed_ordering",
		c->dev->mem ? json_boolean(c->dev->mem->relaxed) : json_null());
	err |= json_object_set_new(
		o, "hugepages",
		c->dev->mem ? json_boolean(c->dev->mem->hugepages)
			    : json_null());
	err |= json_object_set_new(o, "mr_per_qp",
				   json_boolean(c->qp_mrs != NULL));
	err |= json_object_set_new(
		o, "odp",
		json_string(c->mr_access & IBV_ACCESS_ON_DEMAND ? "explicit"
								: "none"));
	return done(o, err);
}

static json_t *placement_obj(const struct rdp_report_info *in)
{
	json_t *o = json_object();
	int err = !o;

	if (err)
		return NULL;
	err |= json_object_set_new(o, "local",
				   rdp_json_placement(in->placement));
	err |= json_object_set_new(o, "peer",
				   rdp_json_peer_placement(in->peer));
	return done(o, err);
}

/* --perftest: who is on the other side. */
static json_t *perftest_obj(const struct rdp_report_info *in)
{
	json_t *o = json_object();
	int err = 0;

	if (!o)
		return NULL;
	err |= json_object_set_new(o, "version", CTEXT(in->perftest_version));
	err |= json_object_set_new(o, "role", CTEXT(in->perftest_role));
	err |= json_object_set_new(o, "address", CTEXT(in->peer_addr));
	return done(o, err);
}

static int add_context(json_t *root, const struct rdp_report_info *in)
{
	const struct rdp_conn *c = in->conn;
	int err = 0;

	err |= json_object_set_new(root, "tool", json_string("rdmaperf"));
	err |= json_object_set_new(root, "version",
				   json_string(PACKAGE_VERSION));
	err |= json_object_set_new(root, "schema_version",
				   json_integer(RDP_JSON_SCHEMA_VERSION));
	err |= json_object_set_new(root, "timestamp", timestamp(in->now));
	err |= json_object_set_new(root, "client", client_obj(in->local_host));
	err |= json_object_set_new(root, "server", server_obj(in));
	err |= json_object_set_new(
		root, "authentication",
		json_string(in->authenticated ? "shared-secret" : "none"));
	if (in->perftest_version)
		err |= json_object_set_new(root, "perftest_peer",
					   perftest_obj(in));
	err |= json_object_set_new(root, "device", device_obj(c->dev));
	err |= json_object_set_new(root, "peer_device",
				   peer_device_obj(in->peer));
	err |= json_object_set_new(root, "gid", gid_obj(c));
	err |= json_object_set_new(root, "placement", placement_obj(in));
	err |= json_object_set_new(root, "memory", memory_obj(c));
	err |= rdp_json_memory_stage(json_object_get(root, "memory"), in);
	err |= rdp_json_memory_access(json_object_get(root, "memory"), in);
	err |= rdp_json_memory_file(json_object_get(root, "memory"), in);
	err |= json_object_set_new(root, "peer_memory",
				   rdp_json_peer_memory(in->peer));
	err |= json_object_set_new(root, "path_mtu_bytes",
				   uint_val(c->path_mtu_bytes));
	err |= json_object_set_new(root, "clock", clock_obj(in->clk));
	err |= json_object_set_new(root, "parameters", params_obj(in->params));
	return err ? -ENOMEM : 0;
}

int rdp_json_new(const struct rdp_report_info *info, struct rdp_json **out)
{
	struct rdp_json *j;

	j = calloc(1, sizeof(*j));
	if (!j)
		return -ENOMEM;
	j->root = json_object();
	j->results = json_array();
	if (!j->root || !j->results || add_context(j->root, info) ||
	    json_object_set(j->root, "results", j->results)) {
		rdp_json_free(j);
		return -ENOMEM;
	}
	*out = j;
	return 0;
}

static int add_bw(json_t *e, const struct rdp_result *r)
{
	double mibps = rdp_report_mibps(r->bw_avg_gbps);
	int err = 0;

	err |= json_object_set_new(e, "bw_avg_gbps", real_val(r->bw_avg_gbps));
	err |= json_object_set_new(e, "bw_peak_gbps",
				   real_val(r->bw_peak_gbps));
	err |= json_object_set_new(e, "bw_avg_mibps", real_val(mibps));
	err |= json_object_set_new(e, "msg_rate_mpps",
				   real_val(r->msg_rate_mpps));
	return err;
}

static int add_lat(json_t *e, const struct rdp_bench_ops *ops,
		   const struct rdp_result *r)
{
	const struct rdp_lat_stats *l = &r->lat;
	const struct {
		const char *key;
		double ns;
	} f[] = {
		{ "lat_min_us", l->min_ns },	 { "lat_max_us", l->max_ns },
		{ "lat_p50_us", l->median_ns },	 { "lat_avg_us", l->avg_ns },
		{ "lat_stdev_us", l->stdev_ns }, { "lat_p90_us", l->p90_ns },
		{ "lat_p99_us", l->p99_ns },	 { "lat_p999_us", l->p999_ns },
		{ "lat_p9999_us", l->p9999_ns },
	};
	const char *kind = ops->lat_kind == RDP_LAT_ONE_WAY ? "one-way"
							    : "round-trip";
	size_t i;
	int err = 0;

	err |= json_object_set_new(e, "latency_kind", json_string(kind));
	/* Without samples the statistics were never computed. */
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		err |= json_object_set_new(e, f[i].key,
					   l->n ? real_val(f[i].ns / 1e3)
						: json_null());
	err |= json_object_set_new(e, "lat_samples", uint_val(l->n));
	return err;
}

/* -b: what the client received, as the server measured its sending. */
static json_t *rx_obj(const struct rdp_result *r)
{
	json_t *o = json_object();
	int err = 0;

	if (!o)
		return NULL;
	err |= json_object_set_new(o, "iterations", uint_val(r->rx_msgs));
	err |= json_object_set_new(o, "bw_avg_gbps",
				   real_val(r->rx_bw_avg_gbps));
	err |= json_object_set_new(o, "bw_peak_gbps",
				   real_val(r->rx_bw_peak_gbps));
	err |= json_object_set_new(o, "msg_rate_mpps",
				   real_val(r->rx_msg_rate_mpps));
	return done(o, err);
}

/* --rate_limit: asked and achieved, in the units asked for. */
static json_t *rate_obj(const struct rdp_params *p, const struct rdp_result *r)
{
	double asked = (double)p->rate_milli / 1000;
	double got = rdp_report_rate_achieved(p, r);
	json_t *o = json_object();
	int err = 0;

	if (!o)
		return NULL;
	err |= json_object_set_new(o, "units",
				   CTEXT(rdp_rate_units_name(p->rate_units)));
	err |= json_object_set_new(o, "asked", real_val(asked));
	err |= json_object_set_new(o, "achieved", real_val(got));
	err |= json_object_set_new(o, "achieved_pct",
				   real_val(100 * got / asked));
	return done(o, err);
}

/* UC/UD SEND bandwidth: sent, received by the server, lost. */
static json_t *loss_obj(const struct rdp_result *r)
{
	uint64_t lost = rdp_result_lost(r), want = rdp_result_expected(r);
	json_t *o = json_object();
	int err = 0;

	if (!o)
		return NULL;
	err |= json_object_set_new(o, "sent", uint_val(r->sent_msgs));
	/* -g: each QP of the group takes a copy of every message */
	if (r->group_qps) {
		err |= json_object_set_new(o, "group_qps",
					   uint_val(r->group_qps));
		err |= json_object_set_new(o, "expected", uint_val(want));
		if (r->n_group)
			err |= json_object_set_new(o, "per_qp",
						   rdp_json_mcast_group(r));
	}
	err |= json_object_set_new(o, "received", uint_val(r->received_msgs));
	err |= json_object_set_new(o, "lost", uint_val(lost));
	err |= json_object_set_new(
		o, "lost_pct",
		real_val(want ? 100.0 * (double)lost / (double)want : 0.0));
	return done(o, err);
}

/* -U: every latency sample in microseconds, in the order measured. */
static json_t *samples_arr(const struct rdp_result *r)
{
	json_t *a = json_array();
	uint64_t i;

	for (i = 0; a && i < r->n_samples; i++)
		if (json_array_append_new(a,
					  real_val(r->samples_ns[i] / 1e3))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

/* --interval: [{ "start_s", "end_s", "bw_gbps" }, ...] */
static json_t *intervals_arr(const struct rdp_result *r)
{
	json_t *a = json_array(), *o;
	size_t k;
	int err = 0;

	for (k = 0; a && k < r->n_intervals; k++) {
		o = json_object();
		if (!o)
			return done(a, 1);
		err |= json_object_set_new(o, "start_s",
					   real_val((double)k * r->interval_s));
		err |= json_object_set_new(
			o, "end_s", real_val((double)(k + 1) * r->interval_s));
		err |= json_object_set_new(
			o, "bw_gbps",
			real_val((double)r->interval_bytes[k] * 8 /
				 (r->interval_s * 1e9)));
		err |= json_array_append_new(a, o);
	}
	return a ? done(a, err) : NULL;
}

/* What the loop decided for this point: window, signalling, inline. */
static json_t *decisions_obj(const struct rdp_decisions *d)
{
	json_t *o = json_object();
	int err = 0;

	if (!o)
		return NULL;
	err |= json_object_set_new(o, "window", uint_val(d->window));
	err |= json_object_set_new(o, "signal_every",
				   uint_val(d->signal_every));
	err |= json_object_set_new(o, "inline", json_boolean(d->inline_used));
	err |= json_object_set_new(o, "post_api",
				   CTEXT(rdp_post_api_name(d->post_api)));
	err |= json_object_set_new(o, "inline_max_bytes",
				   uint_val(d->inline_max_bytes));
	err |= json_object_set_new(o, "pacing",
				   CTEXT(rdp_report_pacing_name(d->pacing)));
	return done(o, err);
}

static json_t *check_obj(const struct rdp_bench_ops *ops,
			 const struct rdp_result *r)
{
	json_t *o = json_object();
	int err = 0;

	if (!o)
		return NULL;
	err |= json_object_set_new(o, "ok", json_boolean(r->data_ok));
	err |= json_object_set_new(o, "checked", uint_val(r->data_checked));
	err |= json_object_set_new(o, "unit",
				   CTEXT(r->check_unit ? r->check_unit
						       : ops->check_unit));
	err |= rdp_json_check_cost(o, r);
	return done(o, err);
}

/* One side's CPU over the timed region, or null. */
static json_t *cost_obj(const struct rdp_cpu_cost *c, uint64_t msgs)
{
	double busy = c->user_s + c->sys_s;
	json_t *o;
	int err = 0;

	if (!c->have)
		return json_null();
	o = json_object();
	if (!o)
		return NULL;
	err |= json_object_set_new(o, "wall_s", real_val(c->wall_s));
	err |= json_object_set_new(o, "user_s", real_val(c->user_s));
	err |= json_object_set_new(o, "system_s", real_val(c->sys_s));
	err |= json_object_set_new(
		o, "cpu_pct",
		c->wall_s > 0 ? real_val(100 * busy / c->wall_s) : json_null());
	err |= json_object_set_new(o, "per_msg_us",
				   msgs ? real_val(busy * 1e6 / (double)msgs)
					: json_null());
	err |= json_object_set_new(o, "host_busy_pct",
				   c->host_busy_pct >= 0
					   ? real_val(c->host_busy_pct)
					   : json_null());
	return done(o, err);
}

static json_t *cpu_obj(const struct rdp_result *r)
{
	json_t *o = json_object();
	int err = 0;

	if (!o)
		return NULL;
	err |= json_object_set_new(o, "this_side", cost_obj(&r->cpu, r->msgs));
	err |= json_object_set_new(o, "peer", cost_obj(&r->peer_cpu, r->msgs));
	return done(o, err);
}

int rdp_json_add(struct rdp_json *j, const struct rdp_report_info *info,
		 const struct rdp_result *res)
{
	const struct rdp_bench_ops *ops = info->ops;
	int bw = ops->kind == RDP_BENCH_BW;
	json_t *e = json_object();
	int err = 0;

	if (!e)
		return -ENOMEM;
	err |= json_object_set_new(e, "test", CTEXT(ops->name));
	if (info->figures_by)
		err |= json_object_set_new(e, "measured_by",
					   CTEXT(info->figures_by));
	err |= json_object_set_new(e, "kind",
				   json_string(bw ? "bandwidth" : "latency"));
	err |= json_object_set_new(e, "size_bytes", uint_val(res->size_bytes));
	err |= json_object_set_new(e, "num_qps", uint_val(res->num_qps));
	err |= json_object_set_new(e, "iterations", uint_val(res->msgs));
	err |= json_object_set_new(e, "warmup_iters",
				   uint_val(res->warmup_iters));
	err |= json_object_set_new(e, "elapsed_s",
				   real_val(res->elapsed_ns / 1e9));
	err |= json_object_set_new(e, "decisions", decisions_obj(&res->dec));
	err |= bw ? add_bw(e, res) : add_lat(e, ops, res);
	if (res->n_intervals)
		err |= json_object_set_new(e, "intervals", intervals_arr(res));
	if (res->n_samples)
		err |= json_object_set_new(e, "samples_us", samples_arr(res));
	if (res->n_threads) {
		err |= json_object_set_new(e, "threads", rdp_json_threads(res));
		err |= json_object_set_new(e, "sum", rdp_json_thread_sum(res));
	}
	if (res->reversed) /* the figures are the server's sending */
		err |= json_object_set_new(e, "sender", json_string("server"));
	if (res->bidir)
		err |= json_object_set_new(e, "rx", rx_obj(res));
	if (res->loss_counted)
		err |= json_object_set_new(e, "loss", loss_obj(res));
	if (info->params->rate_milli)
		err |= json_object_set_new(e, "rate",
					   rate_obj(info->params, res));
	err |= json_object_set_new(e, "data_check", check_obj(ops, res));
	err |= json_object_set_new(e, "cpu", cpu_obj(res));
	if (info->counters)
		err |= json_object_set_new(e, "counters",
					   rdp_json_counters(info->counters));
	if (err) {
		json_decref(e);
		return -ENOMEM;
	}
	return json_array_append_new(j->results, e) ? -ENOMEM : 0;
}

json_t *rdp_json_root(struct rdp_json *j)
{
	return j ? j->root : NULL;
}

json_t *rdp_json_last(struct rdp_json *j)
{
	size_t n = j ? json_array_size(j->results) : 0;

	return n ? json_array_get(j->results, n - 1) : NULL;
}

int rdp_json_live_line(FILE *f, const struct rdp_live_point *pt)
{
	json_t *o = json_object(), *line = json_object();
	int err = !o || !line;

	if (!err) {
		err |= json_object_set_new(o, "start_s", real_val(pt->start_s));
		err |= json_object_set_new(o, "end_s", real_val(pt->end_s));
		err |= json_object_set_new(o, "msgs", uint_val(pt->msgs));
		err |= json_object_set_new(o, "total_msgs",
					   uint_val(pt->total_msgs));
		err |= json_object_set_new(o, "bw_gbps", real_val(pt->bw_gbps));
		err |= json_object_set_new(o, "msg_rate_mpps",
					   real_val(pt->msg_rate_mpps));
		err |= json_object_set_new(line, "live", o);
		o = NULL;
	}
	if (!err)
		err = json_dumpf(line, f,
				 JSON_COMPACT | JSON_PRESERVE_ORDER |
					 JSON_REAL_PRECISION(15)) ||
		      fputc('\n', f) == EOF || fflush(f);
	json_decref(o);
	json_decref(line);
	return err ? -EIO : 0;
}

int rdp_json_write(const struct rdp_json *j, FILE *f, int compact)
{
	size_t flags = (compact ? JSON_COMPACT : JSON_INDENT(2)) |
		       JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15);

	if (json_dumpf(j->root, f, flags) || fputc('\n', f) == EOF || fflush(f))
		return -EIO;
	return 0;
}

void rdp_json_free(struct rdp_json *j)
{
	if (!j)
		return;
	json_decref(j->results);
	json_decref(j->root);
	free(j);
}
