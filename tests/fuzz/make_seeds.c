/* SPDX-License-Identifier: BSD-2-Clause */
/* Writes the seed corpus for fuzz_wire: one valid message of each type.
 * Usage: make_seeds DIR */
#include <stdio.h>
#include <string.h>

#include <rdmaperf/wire.h>

static int put(const char *dir, const char *name, const struct rdp_msg *m)
{
	uint8_t buf[RDP_WIRE_HDR_BYTES + RDP_WIRE_MAX_PAYLOAD];
	char path[512];
	size_t len;
	FILE *f;

	if (rdp_wire_encode(m, buf, sizeof(buf), &len))
		return 1;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, len, f) != len)
		return 1;
	return fclose(f) != 0;
}

int main(int argc, char **argv)
{
	struct rdp_msg m;
	int bad = 0;

	if (argc != 2)
		return 2;
	memset(&m, 0, sizeof(m));
	m.type = RDP_MSG_HELLO;
	strcpy(m.u.hello.tool_version, "0.1.0");
	strcpy(m.u.hello.hostname, "hostA");
	strcpy(m.u.hello.kernel, "6.1.0");
	strcpy(m.u.hello.cpu_model, "cpu");
	m.u.hello.cpus = 2;
	bad |= put(argv[1], "hello", &m);
	memset(&m, 0, sizeof(m));
	m.type = RDP_MSG_PARAMS;
	strcpy(m.u.params.test, "write_bw");
	m.u.params.size_bytes = 65536;
	m.u.params.iters = 1000;
	m.u.params.num_qps = 4;
	m.u.params.tx_depth = 128;
	m.u.params.cq_mod = 100;
	bad |= put(argv[1], "params", &m);
	memset(&m, 0, sizeof(m));
	m.type = RDP_MSG_ACCEPT;
	strcpy(m.u.accept.device, "rxe0");
	m.u.accept.port = 1;
	m.u.accept.gid_index = 1;
	m.u.accept.active_mtu_bytes = 1024;
	bad |= put(argv[1], "accept", &m);
	memset(&m, 0, sizeof(m));
	m.type = RDP_MSG_QP_INFO;
	m.u.qp_info.qpn = 0x11;
	m.u.qp_info.gid[10] = m.u.qp_info.gid[11] = 0xff;
	m.u.qp_info.mtu_bytes = 1024;
	bad |= put(argv[1], "qp_info", &m);
	memset(&m, 0, sizeof(m));
	m.type = RDP_MSG_SYNC;
	m.u.sync.phase = RDP_SYNC_DONE;
	m.u.sync.count = 1000;
	bad |= put(argv[1], "sync", &m);
	memset(&m, 0, sizeof(m));
	m.type = RDP_MSG_RESULT;
	m.u.result.checked_bytes = 65536;
	bad |= put(argv[1], "result", &m);
	memset(&m, 0, sizeof(m));
	m.type = RDP_MSG_ERROR;
	m.u.error.code = -110;
	strcpy(m.u.error.text, "no completion for 10.0 s");
	bad |= put(argv[1], "error", &m);
	return bad;
}
