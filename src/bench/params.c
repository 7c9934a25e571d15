/* SPDX-License-Identifier: BSD-2-Clause */
/* The test parameters a fresh client starts from, before its options. */
#include <string.h>

#include <rdmaperf/params.h>

void rdp_params_defaults(struct rdp_params *p)
{
	memset(p, 0, sizeof(*p));
	p->size_bytes = 65536;
	p->iters = 1000;
	p->duration_s = 0;
	p->warmup_iters = 0;
	p->num_qps = 1;
	p->tx_depth = 128;
	p->cq_mod = 100;
	p->rx_depth = 512;
	p->outstanding = 0;
	p->inline_bytes = 220;
	p->post_list = 32;
	p->qp_timeout = 14;
	p->sl = 0;
	p->mtu_bytes = 0;
	p->tclass = 0;
	p->seed = 1;
	p->flags = 0;
}
