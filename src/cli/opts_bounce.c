/* SPDX-License-Identifier: BSD-2-Clause */
/* --bounce on client and server: GPU data staged through host buffers
 * (the flag itself is a table row). */
#include <errno.h>
#include <stdio.h>

#include <rdmaperf/stage.h>

#include "opts_int.h"

int rdp_cli_check_bounce(const struct rdp_opts *o, char *err, size_t len)
{
	/* Staged buffers are host memory: huge pages apply there too. */
	if (o->mem.hugepages && o->mem.cuda[0] && !o->mem.bounce)
		return rdp_cli_bad(err, len,
				   "--use_hugepages is for host buffers: drop "
				   "it with --use_cuda (or add --bounce)");
	if (!o->mem.bounce)
		return 0;
	if (!o->mem.cuda[0])
		return rdp_cli_bad(err, len,
				   "--bounce stages GPU data through host "
				   "memory: add --use_cuda=GPU");
	/* The server learns each client's test later (session/server.c). */
	if (o->bench && rdp_stage_check_test(o->bench, 1, err, len))
		return -EINVAL;
	return 0;
}
