/* SPDX-License-Identifier: BSD-2-Clause */
/* Memory type options: --use_cuda on client and server. */
#include <stdio.h>
#include <string.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/devbuf.h>
#include <rdmaperf/gpu.h>

#include "opts_int.h"

int rdp_cli_set_use_cuda(void *base, const struct rdp_cli_opt *d,
			 const char *arg, char *err, size_t len)
{
	struct rdp_opts *o = base;
	struct rdp_gpu_spec spec;

	(void)d;
	/* Checked here so a typo is a usage error, not a driver error. */
	if (rdp_gpu_spec_parse(arg, &spec))
		return rdp_cli_bad(err, len,
				   "--use_cuda %s: give a GPU number (0..%d), "
				   "auto, or a PCI bus id like 0000:3b:00.0",
				   arg, RDP_GPU_MAX - 1);
	snprintf(o->mem.cuda, sizeof(o->mem.cuda), "%s", arg);
	return 0;
}

int rdp_cli_check_mem(const struct rdp_opts *o, char *err, size_t len)
{
	return rdp_devbuf_check_test(o->bench, !!o->mem.cuda[0], err, len);
}
