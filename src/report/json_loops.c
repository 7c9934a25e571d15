/* SPDX-License-Identifier: BSD-2-Clause */
/* The JSON of the loop's shape as given: chained receives, bursts,
 * the latency gap and the reversed direction; -g's multicast group, with
 * what each of its QPs received; and what --data_validation's checks
 * cost. */
#include <jansson.h>

#include <rdmaperf/json_sys.h>
#include <rdmaperf/mcast.h>
#include <rdmaperf/params.h>
#include <rdmaperf/bench.h>

static int put_uint(json_t *o, const char *key, uint64_t v)
{
	return json_object_set_new(o, key, json_integer((json_int_t)v));
}

int rdp_json_loop_shape(json_t *o, const struct rdp_params *p)
{
	int err = 0;

	if (p->recv_post_list > 1)
		err |= put_uint(o, "recv_post_list", p->recv_post_list);
	if (p->burst_size)
		err |= put_uint(o, "burst_size", p->burst_size);
	if (p->typical_pkt_bytes)
		err |= put_uint(o, "typical_pkt_bytes", p->typical_pkt_bytes);
	if (p->latency_gap_ns)
		err |= json_object_set_new(
			o, "latency_gap_us",
			json_real((double)p->latency_gap_ns / 1e3));
	if (p->flags & RDP_PARAM_REVERSED)
		err |= json_object_set_new(o, "reversed", json_true());
	return err;
}

/* -M's group; null for the default of the GID's family. */
static json_t *mgid_val(const struct rdp_params *p)
{
	char text[RDP_MGID_STR_MAX];

	if (!rdp_mgid_is_set(p->mgid))
		return json_null();
	rdp_mgid_str(p->mgid, text, sizeof(text));
	return json_string(text);
}

int rdp_json_mcast(json_t *o, const struct rdp_params *p)
{
	int err = 0;

	if (p->flags & RDP_PARAM_MCAST) { /* -g, and -M's group */
		err |= json_object_set_new(o, "mcg", json_true());
		err |= json_object_set_new(o, "mgid", mgid_val(p));
		/* how the server's QPs joined it (-R: the RDMA CM) */
		err |= json_object_set_new(
			o, "mcg_join",
			json_string(p->flags & RDP_PARAM_MCAST_CM ? "rdma_cm"
								  : "mgid"));
	}
	return err;
}

/* --data_validation: what the checks cost, on the side that ran them;
 * nothing when no check was timed. */
int rdp_json_check_cost(json_t *o, const struct rdp_result *r)
{
	int err = 0;

	if (r->check_ns) {
		err |= put_uint(o, "check_ns", r->check_ns);
		err |= json_object_set_new(
			o, "checked_on",
			json_string(r->check_on_server ? "server" : "client"));
	}
	return err;
}

/* -g: each group QP's count as the server sent it, an array. */
json_t *rdp_json_mcast_group(const struct rdp_result *r)
{
	const struct rdp_qp_result *q;
	json_t *a = json_array(), *o;
	uint32_t i;
	int err = 0;

	for (i = 0; a && !err && i < r->n_group; i++) {
		q = &r->group[i];
		o = json_object();
		if (!o)
			break;
		err |= json_object_set_new(o, "qp", json_integer(q->index));
		err |= json_object_set_new(o, "qp_num",
					   json_integer(q->qp_num));
		err |= json_object_set_new(o, "received",
					   json_integer((json_int_t)q->msgs));
		err |= json_object_set_new(
			o, "lost",
			json_integer(
				r->sent_msgs > q->msgs
					? (json_int_t)(r->sent_msgs - q->msgs)
					: 0));
		err |= json_array_append_new(a, o);
	}
	if (a && (err || i < r->n_group)) {
		json_decref(a);
		return NULL;
	}
	return a;
}
