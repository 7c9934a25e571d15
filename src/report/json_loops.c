/* SPDX-License-Identifier: BSD-2-Clause */
/* The JSON of the loop's shape as given: chained receives, bursts,
 * the latency gap and the reversed direction. */
#include <jansson.h>

#include <rdmaperf/json_sys.h>
#include <rdmaperf/params.h>

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
