/* SPDX-License-Identifier: BSD-2-Clause */
/* The report tests' shared context (report_ctx.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report_ctx.h"

static void hosts(struct ctx *c)
{
	strcpy(c->local.hostname, "client-a");
	strcpy(c->local.kernel, "6.1.0-18-amd64");
	strcpy(c->local.tool_version, PACKAGE_VERSION);
	strcpy(c->peer_hello.hostname, "server-b");
	strcpy(c->peer_hello.kernel, "6.8.0-45-generic");
	strcpy(c->peer_hello.tool_version, "0.0.9");
}

static void devices(struct ctx *c)
{
	/* ::ffff:192.0.2.10, a RoCE v2 GID holding an IPv4 address */
	static const uint8_t gid[16] = { [10] = 0xff, [11] = 0xff, [12] = 192,
					 [13] = 0,    [14] = 2,	   [15] = 10 };

	strcpy(c->dev.name, "mlx5_0");
	strcpy(c->dev.attr.fw_ver, "28.39.1002");
	c->dev.port = (struct rdp_port_info){
		.num = 1,
		.link_layer = IBV_LINK_LAYER_ETHERNET,
		.state = IBV_PORT_ACTIVE,
		.active_mtu_bytes = 4096,
		.active_speed = 64, /* 50 Gb/s per lane */
		.active_width = 2,  /* 4x */
	};
	c->dev.numa_node = 1;
	c->conn.dev = &c->dev;
	c->conn.have_gid = 1;
	c->conn.gid.entry.index = 3;
	c->conn.gid.entry.type = RDP_GID_ROCE_V2;
	memcpy(c->conn.gid.entry.raw, gid, sizeof(gid));
	c->conn.gid.reason = RDP_GID_ADDR_MATCH;
	c->conn.path_mtu_bytes = 1024;
	c->conn.post_api = RDP_POST_WR;
	strcpy(c->peer.device, "rxe0");
	c->peer.port = 1;
	c->peer.link_layer = IBV_LINK_LAYER_ETHERNET;
	c->peer.gid_type = RDP_GID_ROCE_V2;
	c->peer.gid_index = 1;
	c->peer.active_mtu_bytes = 1024;
	c->peer.numa_node = 0;
}

void ctx_init_ops(struct ctx *c, const struct rdp_bench_ops *ops)
{
	memset(c, 0, sizeof(*c));
	hosts(c);
	devices(c);
	c->params = (struct rdp_params){
		.test = "write_bw",
		.size_bytes = 65536,
		.iters = 1000,
		.warmup_iters = 100,
		.num_qps = 2,
		.tx_depth = 128,
		.cq_mod = 100,
		.rx_depth = 512,
		.tclass = 96,
		.qp_timeout = 14,
		.hop_limit = 64,
		.retry_count = 7,
		.rnr_retry = 7,
		.seed = 7,
		.flags = RDP_PARAM_CAS,
	};
	c->clk = (struct rdp_clock){ .cycles_per_ns = 2.5, .source = "tsc" };
	c->dec.post_api = RDP_POST_WR;
	c->info = (struct rdp_report_info){
		.ops = ops,
		.params = &c->params,
		.conn = &c->conn,
		.dec = &c->dec,
		.peer = &c->peer,
		.peer_host = &c->peer_hello,
		.clk = &c->clk,
		.local_host = &c->local,
		.peer_addr = "192.0.2.10:18515",
		.now = time(NULL),
	};
}

char *ctx_json_text(const struct rdp_json *j)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	if (!f)
		return NULL;
	ret = rdp_json_write(j, f, 0);
	if (fclose(f) || ret) {
		free(buf);
		return NULL;
	}
	return buf;
}
