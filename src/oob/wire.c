/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Out-of-band message codec: every field is written and read one by one,
 * big-endian, through a bounds-checked cursor with a sticky error.
 */
#include <errno.h>
#include <string.h>

#include <rdmaperf/wire.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Writer: the first failure sticks, later puts do nothing, so an encoder is
 * a straight list of fields and the caller checks once at the end.
 */
struct wcur {
	uint8_t *buf;
	size_t cap;
	size_t off;
	int err;
};

/* Reader: same idea, any failure is a malformed message. */
struct rcur {
	const uint8_t *buf;
	size_t len;
	size_t off;
	int err;
};

static uint8_t *put_room(struct wcur *c, size_t n)
{
	uint8_t *p;

	if (c->err)
		return NULL;
	if (n > c->cap - c->off) {
		c->err = -ENOSPC;
		return NULL;
	}
	p = c->buf + c->off;
	c->off += n;
	return p;
}

static void put_bytes(struct wcur *c, const void *src, size_t n)
{
	uint8_t *p = put_room(c, n);

	if (p && n)
		memcpy(p, src, n);
}

static void put_be(struct wcur *c, uint64_t v, size_t n)
{
	uint8_t *p = put_room(c, n);
	size_t i;

	if (!p)
		return;
	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * (n - 1 - i)));
}

static void put_u8(struct wcur *c, uint8_t v)
{
	put_be(c, v, 1);
}

static void put_u16(struct wcur *c, uint16_t v)
{
	put_be(c, v, 2);
}

static void put_u32(struct wcur *c, uint32_t v)
{
	put_be(c, v, 4);
}

static void put_u64(struct wcur *c, uint64_t v)
{
	put_be(c, v, 8);
}

/* Printable ASCII: the only bytes a string field may carry. */
static int printable(uint8_t b)
{
	return b >= 0x20 && b <= 0x7e;
}

/*
 * A string field goes out as u16 length + bytes, without the NUL. One that
 * fills its whole field is not terminated: refuse it rather than send bytes
 * the peer would reject. Any byte outside printable ASCII (a UTF-8 host
 * name, a control character in a CPU model) goes out as '?', so that a
 * legitimate peer never sends what get_str() refuses.
 */
static void put_str(struct wcur *c, const char *s, size_t field_size)
{
	size_t n = strnlen(s, field_size), i;
	uint8_t b;

	if (n == field_size) {
		if (!c->err)
			c->err = -EINVAL;
		return;
	}
	put_u16(c, (uint16_t)n);
	for (i = 0; i < n; i++) {
		b = (uint8_t)s[i];
		put_u8(c, printable(b) ? b : '?');
	}
}

static const uint8_t *get_room(struct rcur *c, size_t n)
{
	const uint8_t *p;

	if (c->err)
		return NULL;
	if (n > c->len - c->off) {
		c->err = -EBADMSG;
		return NULL;
	}
	p = c->buf + c->off;
	c->off += n;
	return p;
}

static void get_bytes(struct rcur *c, void *dst, size_t n)
{
	const uint8_t *p = get_room(c, n);

	if (p && n)
		memcpy(dst, p, n);
}

static uint64_t get_be(struct rcur *c, size_t n)
{
	const uint8_t *p = get_room(c, n);
	uint64_t v = 0;
	size_t i;

	if (!p)
		return 0;
	for (i = 0; i < n; i++)
		v = (v << 8) | p[i];
	return v;
}

static uint8_t get_u8(struct rcur *c)
{
	return (uint8_t)get_be(c, 1);
}

static uint16_t get_u16(struct rcur *c)
{
	return (uint16_t)get_be(c, 2);
}

static uint32_t get_u32(struct rcur *c)
{
	return (uint32_t)get_be(c, 4);
}

static uint64_t get_u64(struct rcur *c)
{
	return get_be(c, 8);
}

static int32_t get_s32(struct rcur *c)
{
	return (int32_t)get_u32(c);
}

/* Into a field of field_size bytes, always NUL-terminated, printable
 * ASCII only. */
static void get_str(struct rcur *c, char *dst, size_t field_size)
{
	uint16_t n = get_u16(c), i;
	const uint8_t *p;

	if (c->err)
		return;
	if (n > field_size - 1) {
		c->err = -EBADMSG;
		return;
	}
	p = get_room(c, n);
	if (c->err)
		return;
	/* A terminal escape or a line break in a host name or an ERROR
	 * text would reach the log and the user's terminal: malformed. */
	for (i = 0; i < n; i++)
		if (!printable(p[i])) {
			c->err = -EBADMSG;
			return;
		}
	memcpy(dst, p, n);
	dst[n] = '\0';
}

static void enc_hello(struct wcur *c, const struct rdp_msg *m)
{
	const struct rdp_msg_hello *h = &m->u.hello;

	put_str(c, h->tool_version, sizeof(h->tool_version));
	put_str(c, h->hostname, sizeof(h->hostname));
	put_str(c, h->kernel, sizeof(h->kernel));
	put_str(c, h->cpu_model, sizeof(h->cpu_model));
	put_u32(c, h->cpus);
}

static void dec_hello(struct rcur *c, struct rdp_msg *m)
{
	struct rdp_msg_hello *h = &m->u.hello;

	get_str(c, h->tool_version, sizeof(h->tool_version));
	get_str(c, h->hostname, sizeof(h->hostname));
	get_str(c, h->kernel, sizeof(h->kernel));
	get_str(c, h->cpu_model, sizeof(h->cpu_model));
	h->cpus = get_u32(c);
}

/*
 * --flow_label's list, one label per QP, follows the fields of PARAMS only
 * when there is one (a count of 2 or more, then the labels): without it the
 * message is what it always was, so one label for all QPs still meets any
 * server of this version; one that predates lists refuses a list as a
 * malformed PARAMS rather than label every QP alike.
 */
static void put_flow_labels(struct wcur *c, const struct rdp_params *p)
{
	uint32_t i;

	if (!p->n_flow_labels)
		return;
	if (p->n_flow_labels < 2 || p->n_flow_labels > RDP_FLOW_LABELS_MAX) {
		if (!c->err)
			c->err = -EINVAL;
		return;
	}
	put_u16(c, (uint16_t)p->n_flow_labels);
	for (i = 0; i < p->n_flow_labels; i++)
		put_u32(c, p->flow_labels[i]);
}

static void get_flow_labels(struct rcur *c, struct rdp_params *p)
{
	uint32_t i;

	p->n_flow_labels = 0;
	if (c->err || c->off == c->len)
		return;
	p->n_flow_labels = get_u16(c);
	if (p->n_flow_labels < 2 || p->n_flow_labels > RDP_FLOW_LABELS_MAX) {
		p->n_flow_labels = 0;
		if (!c->err)
			c->err = -EBADMSG;
		return;
	}
	for (i = 0; i < p->n_flow_labels; i++)
		p->flow_labels[i] = get_u32(c);
}

/*
 * The loop's shape (--recv_post_list, --burst_size, --typical_pkt_size,
 * --latency_gap) follows the fixed fields only when one is given, flagged
 * by RDP_PARAM_LOOP_SHAPE: without them PARAMS is what it always was, and
 * a server that predates them refuses the flag it does not know.
 */
static void put_loop_shape(struct wcur *c, const struct rdp_params *p)
{
	if (!rdp_params_loop_shape(p))
		return;
	put_u32(c, p->recv_post_list);
	put_u32(c, p->burst_size);
	put_u32(c, p->typical_pkt_bytes);
	put_u64(c, p->latency_gap_ns);
}

static void get_loop_shape(struct rcur *c, struct rdp_params *p)
{
	p->recv_post_list = 0;
	p->burst_size = 0;
	p->typical_pkt_bytes = 0;
	p->latency_gap_ns = 0;
	if (!(p->flags & RDP_PARAM_LOOP_SHAPE))
		return;
	p->flags &= ~(uint32_t)RDP_PARAM_LOOP_SHAPE;
	p->recv_post_list = get_u32(c);
	p->burst_size = get_u32(c);
	p->typical_pkt_bytes = get_u32(c);
	p->latency_gap_ns = get_u64(c);
	/* flagged with nothing in it: no sender's (it would encode back
	 * without the fields) */
	if (!c->err && !rdp_params_loop_shape(p))
		c->err = -EBADMSG;
}

static void enc_params(struct wcur *c, const struct rdp_msg *m)
{
	const struct rdp_params *p = &m->u.params;

	put_str(c, p->test, sizeof(p->test));
	put_u64(c, p->size_bytes);
	put_u64(c, p->iters);
	put_u32(c, p->duration_s);
	put_u32(c, p->warmup_iters);
	put_u32(c, p->num_qps);
	put_u32(c, p->tx_depth);
	put_u32(c, p->cq_mod);
	put_u32(c, p->rx_depth);
	put_u32(c, p->outstanding);
	put_u32(c, p->inline_bytes);
	put_u32(c, p->post_list);
	put_u32(c, p->qp_timeout);
	put_u32(c, p->sl);
	put_u32(c, p->mtu_bytes);
	put_u32(c, p->tclass);
	put_u32(c, p->seed);
	put_u32(c, p->flags | (rdp_params_loop_shape(p) ? RDP_PARAM_LOOP_SHAPE
							: 0));
	put_u32(c, p->pkey_index);
	put_u32(c, p->flow_label);
	put_u32(c, p->hop_limit);
	put_u32(c, p->retry_count);
	put_u32(c, p->rnr_retry);
	put_u32(c, p->comp_vector);
	put_u32(c, p->transport);
	put_u64(c, p->rate_milli);
	put_u32(c, p->rate_units);
	put_u32(c, p->rate_type);
	put_u32(c, p->threads);
	put_loop_shape(c, p);
	/* -g: the group follows only when asked for, so that a server that
	 * predates multicast refuses the flag rather than misread the rest */
	if (p->flags & RDP_PARAM_MCAST)
		put_bytes(c, p->mgid, sizeof(p->mgid));
	put_flow_labels(c, p);
}

static void dec_params(struct rcur *c, struct rdp_msg *m)
{
	struct rdp_params *p = &m->u.params;

	get_str(c, p->test, sizeof(p->test));
	p->size_bytes = get_u64(c);
	p->iters = get_u64(c);
	p->duration_s = get_u32(c);
	p->warmup_iters = get_u32(c);
	p->num_qps = get_u32(c);
	p->tx_depth = get_u32(c);
	p->cq_mod = get_u32(c);
	p->rx_depth = get_u32(c);
	p->outstanding = get_u32(c);
	p->inline_bytes = get_u32(c);
	p->post_list = get_u32(c);
	p->qp_timeout = get_u32(c);
	p->sl = get_u32(c);
	p->mtu_bytes = get_u32(c);
	p->tclass = get_u32(c);
	p->seed = get_u32(c);
	p->flags = get_u32(c);
	p->pkey_index = get_u32(c);
	p->flow_label = get_u32(c);
	p->hop_limit = get_u32(c);
	p->retry_count = get_u32(c);
	p->rnr_retry = get_u32(c);
	p->comp_vector = get_u32(c);
	p->transport = get_u32(c);
	p->rate_milli = get_u64(c);
	p->rate_units = get_u32(c);
	p->rate_type = get_u32(c);
	p->threads = get_u32(c);
	get_loop_shape(c, p);
	memset(p->mgid, 0, sizeof(p->mgid));
	if (p->flags & RDP_PARAM_MCAST)
		get_bytes(c, p->mgid, sizeof(p->mgid));
	get_flow_labels(c, p);
}

static void enc_accept(struct wcur *c, const struct rdp_msg *m)
{
	const struct rdp_msg_accept *a = &m->u.accept;

	put_str(c, a->device, sizeof(a->device));
	put_u8(c, a->port);
	put_u8(c, a->link_layer);
	put_u8(c, a->gid_type);
	put_u32(c, (uint32_t)a->gid_index);
	put_u32(c, a->active_mtu_bytes);
	put_u32(c, (uint32_t)a->numa_node);
	put_u32(c, (uint32_t)a->cpu);
	put_u16(c, a->cm_port);
	put_u32(c, a->cm_nonce);
	put_u8(c, a->place_mode);
	put_u8(c, a->cross_numa);
	put_u32(c, (uint32_t)a->place_node);
	put_str(c, a->cpus, sizeof(a->cpus));
	put_u8(c, a->mem_kind);
	put_u8(c, a->mem_path);
	put_u8(c, a->mem_stage);
	put_str(c, a->mem_gpu, sizeof(a->mem_gpu));
	put_str(c, a->mem_bus_id, sizeof(a->mem_bus_id));
	put_u32(c, a->mr_access);
	/* Only when set: a client that predates it refuses the extra
	 * bytes rather than call the server's ROCm memory CUDA. */
	if (a->mem_type[0])
		put_str(c, a->mem_type, sizeof(a->mem_type));
}

static void dec_accept(struct rcur *c, struct rdp_msg *m)
{
	struct rdp_msg_accept *a = &m->u.accept;

	get_str(c, a->device, sizeof(a->device));
	a->port = get_u8(c);
	a->link_layer = get_u8(c);
	a->gid_type = get_u8(c);
	a->gid_index = get_s32(c);
	a->active_mtu_bytes = get_u32(c);
	a->numa_node = get_s32(c);
	a->cpu = get_s32(c);
	a->cm_port = get_u16(c);
	a->cm_nonce = get_u32(c);
	a->place_mode = get_u8(c);
	a->cross_numa = get_u8(c);
	a->place_node = get_s32(c);
	get_str(c, a->cpus, sizeof(a->cpus));
	a->mem_kind = get_u8(c);
	a->mem_path = get_u8(c);
	a->mem_stage = get_u8(c);
	get_str(c, a->mem_gpu, sizeof(a->mem_gpu));
	get_str(c, a->mem_bus_id, sizeof(a->mem_bus_id));
	a->mr_access = get_u32(c);
	if (!c->err && c->off < c->len) {
		get_str(c, a->mem_type, sizeof(a->mem_type));
		/* sent only when set: an empty one is no sender's */
		if (!c->err && !a->mem_type[0])
			c->err = -EBADMSG;
	}
}

static void enc_qp_info(struct wcur *c, const struct rdp_msg *m)
{
	const struct rdp_qp_info *q = &m->u.qp_info;

	put_u32(c, q->qpn);
	put_u32(c, q->psn);
	put_bytes(c, q->gid, sizeof(q->gid));
	put_u8(c, q->gid_type);
	put_u16(c, q->lid);
	put_u32(c, q->mtu_bytes);
	put_u32(c, q->rkey);
	put_u64(c, q->addr);
	put_u64(c, q->len_bytes);
	put_u8(c, q->rd_atomic);
}

static void dec_qp_info(struct rcur *c, struct rdp_msg *m)
{
	struct rdp_qp_info *q = &m->u.qp_info;

	q->qpn = get_u32(c);
	q->psn = get_u32(c);
	get_bytes(c, q->gid, sizeof(q->gid));
	q->gid_type = get_u8(c);
	q->lid = get_u16(c);
	q->mtu_bytes = get_u32(c);
	q->rkey = get_u32(c);
	q->addr = get_u64(c);
	q->len_bytes = get_u64(c);
	q->rd_atomic = get_u8(c);
}

static void enc_sync(struct wcur *c, const struct rdp_msg *m)
{
	put_u32(c, m->u.sync.phase);
	put_u64(c, m->u.sync.count);
}

static void dec_sync(struct rcur *c, struct rdp_msg *m)
{
	m->u.sync.phase = get_u32(c);
	m->u.sync.count = get_u64(c);
}

static void put_counters(struct wcur *c, const struct rdp_msg_result *r)
{
	uint16_t i;

	if (r->n_counters > RDP_WIRE_MAX_COUNTERS) {
		if (!c->err)
			c->err = -EINVAL;
		return;
	}
	put_u16(c, r->n_counters);
	for (i = 0; i < r->n_counters; i++) {
		put_str(c, r->counters[i].name, sizeof(r->counters[i].name));
		put_u8(c, r->counters[i].hw);
		put_u64(c, r->counters[i].value);
	}
}

static void get_counters(struct rcur *c, struct rdp_msg_result *r)
{
	uint16_t i;

	r->n_counters = get_u16(c);
	if (!c->err && r->n_counters > RDP_WIRE_MAX_COUNTERS)
		c->err = -EBADMSG;
	for (i = 0; !c->err && i < r->n_counters; i++) {
		get_str(c, r->counters[i].name, sizeof(r->counters[i].name));
		r->counters[i].hw = get_u8(c);
		r->counters[i].value = get_u64(c);
	}
}

/* -g: the group's counts, only when there are any (RDP_PARAM_MCAST_COUNTS
 * asked for them), so that every other RESULT is unchanged. */
static void put_group(struct wcur *c, const struct rdp_msg_result *r)
{
	uint16_t i;

	if (!r->n_group)
		return;
	if (r->n_group > RDP_WIRE_MAX_GROUP_QPS) {
		if (!c->err)
			c->err = -EINVAL;
		return;
	}
	put_u16(c, r->n_group);
	for (i = 0; i < r->n_group; i++) {
		put_u32(c, r->group_qpn[i]);
		put_u64(c, r->group_msgs[i]);
	}
}

static void get_group(struct rcur *c, struct rdp_msg_result *r)
{
	uint16_t i;

	r->n_group = get_u16(c);
	if (!c->err && (!r->n_group || r->n_group > RDP_WIRE_MAX_GROUP_QPS))
		c->err = -EBADMSG;
	for (i = 0; !c->err && i < r->n_group; i++) {
		r->group_qpn[i] = get_u32(c);
		r->group_msgs[i] = get_u64(c);
	}
}

/* A RESULT's optional trailers after the counters: a tag byte and its
 * fields each, in the order of their tags, sent only when there is
 * something to say, so that the RESULT of a plain run is unchanged; an
 * unknown, repeated or out-of-order tag, or a trailer that says nothing
 * (a time of 0, no QPs), is malformed: no sender writes one. */
enum {
	RESULT_CHECK_NS = 1, /* --data_validation's time in the checks */
	RESULT_GROUP = 2,    /* -g: each group QP's count, when asked */
};

static void get_result_trailers(struct rcur *c, struct rdp_msg_result *r)
{
	unsigned int last = 0, tag;

	r->check_ns = 0;
	r->n_group = 0;
	while (!c->err && c->off < c->len) {
		tag = get_u8(c);
		if (c->err)
			break;
		if (tag <= last || tag > RESULT_GROUP) {
			c->err = -EBADMSG;
			break;
		}
		last = tag;
		if (tag == RESULT_CHECK_NS) {
			r->check_ns = get_u64(c);
			if (!c->err && !r->check_ns)
				c->err = -EBADMSG;
		} else {
			get_group(c, r);
		}
	}
}

static void enc_result(struct wcur *c, const struct rdp_msg *m)
{
	const struct rdp_msg_result *r = &m->u.result;

	put_u32(c, (uint32_t)r->status);
	put_u64(c, r->checked_bytes);
	put_u64(c, r->bad_offset);
	put_u64(c, r->tx_msgs);
	put_u64(c, r->tx_bytes);
	put_u64(c, r->tx_elapsed_ns);
	put_u64(c, r->tx_peak_kbps);
	put_u64(c, r->rx_msgs);
	put_u64(c, r->cpu_wall_ns);
	put_u64(c, r->cpu_user_ns);
	put_u64(c, r->cpu_sys_ns);
	put_u32(c, (uint32_t)r->host_busy_cpct);
	put_counters(c, r);
	if (r->check_ns) {
		put_u8(c, RESULT_CHECK_NS);
		put_u64(c, r->check_ns);
	}
	if (r->n_group) {
		put_u8(c, RESULT_GROUP);
		put_group(c, r);
	}
}

static void dec_result(struct rcur *c, struct rdp_msg *m)
{
	struct rdp_msg_result *r = &m->u.result;

	r->status = get_s32(c);
	r->checked_bytes = get_u64(c);
	r->bad_offset = get_u64(c);
	r->tx_msgs = get_u64(c);
	r->tx_bytes = get_u64(c);
	r->tx_elapsed_ns = get_u64(c);
	r->tx_peak_kbps = get_u64(c);
	r->rx_msgs = get_u64(c);
	r->cpu_wall_ns = get_u64(c);
	r->cpu_user_ns = get_u64(c);
	r->cpu_sys_ns = get_u64(c);
	r->host_busy_cpct = get_s32(c);
	if (!c->err && (r->host_busy_cpct < -1 || r->host_busy_cpct > 10000))
		c->err = -EBADMSG;
	get_counters(c, r);
	get_result_trailers(c, r);
}

static void enc_error(struct wcur *c, const struct rdp_msg *m)
{
	const struct rdp_msg_error *e = &m->u.error;

	put_u32(c, (uint32_t)e->code);
	put_str(c, e->text, sizeof(e->text));
}

static void dec_error(struct rcur *c, struct rdp_msg *m)
{
	struct rdp_msg_error *e = &m->u.error;

	e->code = get_s32(c);
	get_str(c, e->text, sizeof(e->text));
}

static void enc_auth(struct wcur *c, const struct rdp_msg *m)
{
	const struct rdp_msg_auth *a = &m->u.auth;

	put_u8(c, a->step);
	put_bytes(c, a->nonce, sizeof(a->nonce));
	put_bytes(c, a->mac, sizeof(a->mac));
}

static void dec_auth(struct rcur *c, struct rdp_msg *m)
{
	struct rdp_msg_auth *a = &m->u.auth;

	a->step = get_u8(c);
	get_bytes(c, a->nonce, sizeof(a->nonce));
	get_bytes(c, a->mac, sizeof(a->mac));
}

struct msg_codec {
	const char *name;
	void (*enc)(struct wcur *c, const struct rdp_msg *m);
	void (*dec)(struct rcur *c, struct rdp_msg *m);
};

static const struct msg_codec codecs[] = {
	[RDP_MSG_HELLO] = { "HELLO", enc_hello, dec_hello },
	[RDP_MSG_PARAMS] = { "PARAMS", enc_params, dec_params },
	[RDP_MSG_ACCEPT] = { "ACCEPT", enc_accept, dec_accept },
	[RDP_MSG_QP_INFO] = { "QP_INFO", enc_qp_info, dec_qp_info },
	[RDP_MSG_SYNC] = { "SYNC", enc_sync, dec_sync },
	[RDP_MSG_RESULT] = { "RESULT", enc_result, dec_result },
	[RDP_MSG_ERROR] = { "ERROR", enc_error, dec_error },
	[RDP_MSG_AUTH] = { "AUTH", enc_auth, dec_auth },
};

static const struct msg_codec *codec_of(uint16_t type)
{
	if (type >= ARRAY_SIZE(codecs) || !codecs[type].name)
		return NULL;
	return &codecs[type];
}

static void put_hdr(struct wcur *c, uint16_t type, uint32_t len_bytes)
{
	put_u32(c, RDP_WIRE_MAGIC);
	put_u16(c, RDP_WIRE_VERSION);
	put_u16(c, type);
	put_u32(c, len_bytes);
}

int rdp_wire_encode(const struct rdp_msg *msg, uint8_t *buf, size_t cap,
		    size_t *len_out)
{
	const struct msg_codec *codec = codec_of(msg->type);
	struct wcur body = { .buf = buf, .cap = cap };
	struct wcur hdr = { .buf = buf, .cap = cap };
	size_t payload;

	if (!codec)
		return -EINVAL;
	if (cap < RDP_WIRE_HDR_BYTES)
		return -ENOSPC;

	/* Payload first: its length goes into the header. */
	body.off = RDP_WIRE_HDR_BYTES;
	codec->enc(&body, msg);
	if (body.err)
		return body.err;
	payload = body.off - RDP_WIRE_HDR_BYTES;
	if (payload > RDP_WIRE_MAX_PAYLOAD)
		return -EMSGSIZE;

	put_hdr(&hdr, msg->type, (uint32_t)payload);
	if (hdr.err)
		return hdr.err;
	*len_out = body.off;
	return 0;
}

int rdp_wire_decode_hdr(const uint8_t *buf, size_t len,
			struct rdp_wire_hdr *hdr)
{
	struct rcur c = { .buf = buf, .len = len };
	struct rdp_wire_hdr h;

	h.magic = get_u32(&c);
	h.version = get_u16(&c);
	h.type = get_u16(&c);
	h.len_bytes = get_u32(&c);
	if (c.err)
		return c.err;
	if (h.magic != RDP_WIRE_MAGIC) {
		hdr->magic = h.magic; /* for the caller's message */
		return -EBADMSG;
	}
	if (h.version != RDP_WIRE_VERSION) {
		/* Filled anyway so the caller can name the peer's version. */
		*hdr = h;
		return -EPROTONOSUPPORT;
	}
	/* Filled on a bad length too, so the caller can name it. */
	*hdr = h;
	return h.len_bytes > RDP_WIRE_MAX_PAYLOAD ? -EMSGSIZE : 0;
}

int rdp_wire_decode_body(uint16_t type, const uint8_t *buf, size_t len,
			 struct rdp_msg *msg)
{
	const struct msg_codec *codec = codec_of(type);
	struct rcur c = { .buf = buf, .len = len };
	struct rdp_msg tmp;

	if (!codec)
		return -EBADMSG;

	memset(&tmp, 0, sizeof(tmp));
	tmp.type = type;
	codec->dec(&c, &tmp);
	if (c.err)
		return c.err;
	if (c.off != c.len)
		return -EBADMSG;
	memcpy(msg, &tmp, sizeof(tmp));
	return 0;
}

const char *rdp_wire_type_str(uint16_t type)
{
	const struct msg_codec *codec = codec_of(type);

	return codec ? codec->name : "unknown";
}
