/* SPDX-License-Identifier: BSD-2-Clause */
/* Writes the seed corpus for fuzz_wire: one valid message of each type.
 * Usage: make_seeds DIR */
#include <stdio.h>
#include <string.h>

#include <rdmaperf/wire.h>

/* Each seed file: its name and the message it holds. */
static const struct seed {
	const char *name;
	struct rdp_msg m;
} seeds[] = {
	{ "hello",
	  { .type = RDP_MSG_HELLO,
	    .u.hello = { .tool_version = "0.1.0",
			 .hostname = "hostA",
			 .kernel = "6.1.0",
			 .cpu_model = "cpu",
			 .cpus = 2 } } },
	{ "params",
	  { .type = RDP_MSG_PARAMS,
	    .u.params = { .test = "write_bw",
			  .size_bytes = 65536,
			  .iters = 1000,
			  .num_qps = 4,
			  .tx_depth = 128,
			  .cq_mod = 100 } } },
	{ "accept",
	  { .type = RDP_MSG_ACCEPT,
	    .u.accept = { .device = "rxe0",
			  .port = 1,
			  .gid_index = 1,
			  .active_mtu_bytes = 1024 } } },
	{ "qp_info",
	  { .type = RDP_MSG_QP_INFO,
	    .u.qp_info = { .qpn = 0x11,
			   .gid = { [10] = 0xff, [11] = 0xff },
			   .mtu_bytes = 1024 } } },
	{ "sync",
	  { .type = RDP_MSG_SYNC,
	    .u.sync = { .phase = RDP_SYNC_DONE, .count = 1000 } } },
	{ "result",
	  { .type = RDP_MSG_RESULT, .u.result = { .checked_bytes = 65536 } } },
	{ "error",
	  { .type = RDP_MSG_ERROR,
	    .u.error = { .code = -110, .text = "no completion for 10.0 s" } } },
};

static int put(const char *dir, const struct seed *s)
{
	uint8_t buf[RDP_WIRE_HDR_BYTES + RDP_WIRE_MAX_PAYLOAD];
	char path[512];
	size_t len;
	FILE *f;

	if (rdp_wire_encode(&s->m, buf, sizeof(buf), &len))
		return 1;
	snprintf(path, sizeof(path), "%s/%s", dir, s->name);
	f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, len, f) != len)
		return 1;
	return fclose(f) != 0;
}

int main(int argc, char **argv)
{
	size_t i;
	int bad = 0;

	if (argc != 2)
		return 2;
	for (i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++)
		bad |= put(argv[1], &seeds[i]);
	return bad;
}
