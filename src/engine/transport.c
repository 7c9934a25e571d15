/* SPDX-License-Identifier: BSD-2-Clause */
/* The transport rows: RC, UC, UD, and XRC named for the device's answer.
 * A new transport (DC, say) is a row here and its builders in qp.c. */
#include <stddef.h>
#include <stdio.h>
#include <strings.h>

#include "qp_int.h"
#include <rdmaperf/engine.h>
#include <rdmaperf/transport.h>

/* UC/UD: the sender's DONE may overtake its last messages, which nothing
 * acknowledged; the receiver takes what still arrives until the link has
 * been quiet this long. */
#define UNACKED_QUIET_MS 100

#define ODP_CAPS(tp) offsetof(struct ibv_odp_caps, per_transport_caps.tp)

static const struct rdp_transport rows[RDP_TRANSPORT_COUNT] = {
	[RDP_TRANSPORT_RC] = {
		.id = RDP_TRANSPORT_RC,
		.name = "RC",
		.verbs_name = "rc",
		.qp_type = IBV_QPT_RC,
		.verbs = RDP_TRANSPORT_WRITE | RDP_TRANSPORT_READ |
			 RDP_TRANSPORT_SEND | RDP_TRANSPORT_ATOMIC |
			 RDP_TRANSPORT_WRITE_IMM | RDP_TRANSPORT_SEND_IMM,
		.runs_tests = 1,
		.reliable = 1,
		.connected = 1,
		.cm_ok = 1,
		.perftest_ok = 1,
		.odp_caps_offset = ODP_CAPS(rc_odp_caps),
		.attr_init = rdp_qp_rc_init,
		.attr_rtr = rdp_qp_rc_rtr,
		.attr_rts = rdp_qp_rc_rts,
	},
	[RDP_TRANSPORT_UC] = {
		.id = RDP_TRANSPORT_UC,
		.name = "UC",
		.verbs_name = "uc",
		.qp_type = IBV_QPT_UC,
		.verbs = RDP_TRANSPORT_WRITE | RDP_TRANSPORT_SEND |
			 RDP_TRANSPORT_WRITE_IMM | RDP_TRANSPORT_SEND_IMM,
		.runs_tests = 1,
		.late_quiet_ms = UNACKED_QUIET_MS,
		.connected = 1,
		.odp_caps_offset = ODP_CAPS(uc_odp_caps),
		.attr_init = rdp_qp_uc_init,
		.attr_rtr = rdp_qp_uc_rtr,
		.attr_rts = rdp_qp_unacked_rts,
	},
	[RDP_TRANSPORT_UD] = {
		.id = RDP_TRANSPORT_UD,
		.name = "UD",
		.verbs_name = "ud",
		.qp_type = IBV_QPT_UD,
		.verbs = RDP_TRANSPORT_SEND | RDP_TRANSPORT_SEND_IMM,
		.runs_tests = 1,
		.late_quiet_ms = UNACKED_QUIET_MS,
		.needs_ah = 1,
		.grh_bytes = RDP_UD_GRH_BYTES,
		.one_packet = 1,
		.default_size_bytes = 1024,
		.host_memory_only = 1,
		.odp_caps_offset = ODP_CAPS(ud_odp_caps),
		.attr_init = rdp_qp_ud_init,
		.attr_rtr = rdp_qp_ud_rtr,
		.attr_rts = rdp_qp_unacked_rts,
	},
	[RDP_TRANSPORT_XRC] = {
		.id = RDP_TRANSPORT_XRC,
		.name = "XRC",
		.verbs_name = "xrc",
		.qp_type = IBV_QPT_XRC_SEND,
		.verbs = RDP_TRANSPORT_WRITE | RDP_TRANSPORT_READ |
			 RDP_TRANSPORT_SEND | RDP_TRANSPORT_ATOMIC |
			 RDP_TRANSPORT_WRITE_IMM | RDP_TRANSPORT_SEND_IMM,
		.dev_cap_flag = IBV_DEVICE_XRC,
		.dev_cap_name = "IBV_DEVICE_XRC",
		.reliable = 1,
		.connected = 1,
		/* struct ibv_odp_caps has no XRC entry: RC's stands in */
		.odp_caps_offset = ODP_CAPS(rc_odp_caps),
	},
};

const struct rdp_transport *rdp_transport_get(uint32_t id)
{
	return id < RDP_TRANSPORT_COUNT ? &rows[id] : NULL;
}

const struct rdp_transport *rdp_transport_by_name(const char *name)
{
	uint32_t i;

	for (i = 0; name && i < RDP_TRANSPORT_COUNT; i++)
		if (!strcasecmp(name, rows[i].name))
			return &rows[i];
	return NULL;
}

const struct rdp_transport *rdp_transport_by_qp_type(enum ibv_qp_type t)
{
	uint32_t i;

	for (i = 0; i < RDP_TRANSPORT_COUNT; i++)
		if (rows[i].qp_type == t)
			return &rows[i];
	return NULL;
}

const char *rdp_transport_name(uint32_t id)
{
	return id < RDP_TRANSPORT_COUNT ? rows[id].name : "?";
}

int rdp_transport_lossy(uint32_t id)
{
	return id >= RDP_TRANSPORT_COUNT || !rows[id].reliable;
}

int rdp_transport_carries(const struct rdp_transport *t, unsigned int verb)
{
	return verb < 8 * sizeof(t->verbs) && (t->verbs & (1u << verb));
}

void rdp_transport_list(int (*keep)(const struct rdp_transport *t),
			const char *last, char *buf, size_t len)
{
	const char *name[RDP_TRANSPORT_COUNT];
	uint32_t i, n = 0;
	size_t at = 0;
	int w;

	for (i = 0; i < RDP_TRANSPORT_COUNT; i++)
		if (rows[i].runs_tests && (!keep || keep(&rows[i])))
			name[n++] = rows[i].name;
	if (len)
		buf[0] = '\0';
	for (i = 0; i < n && at < len; i++) {
		w = snprintf(buf + at, len - at, "%s%s",
			     !i		  ? ""
			     : i + 1 == n ? last
					  : ", ",
			     name[i]);
		if (w < 0)
			break;
		at += (size_t)w;
	}
}
