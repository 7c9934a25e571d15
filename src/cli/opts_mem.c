/* SPDX-License-Identifier: BSD-2-Clause */
/* Memory type options (--use_cuda) on client and server: each a row of
 * the memory registry, found by the option's name. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rdmaperf/mem.h>

#include "opts_int.h"

int rdp_cli_set_mem_type(void *base, const struct rdp_cli_opt *d,
			 const char *arg, char *err, size_t len)
{
	const struct rdp_mem_ops *type = rdp_mem_find(d->name);
	struct rdp_opts *o = base;

	if (!type)
		return rdp_cli_bad(err, len, "--%s: no such memory type",
				   d->name);
	/* Checked here so a typo is a usage error, not a driver error. */
	if (type->check_spec && type->check_spec(arg, err, len))
		return -EINVAL;
	if (strlen(arg) >= sizeof(o->mem.device))
		return rdp_cli_bad(err, len, "%s %s: the name is too long",
				   type->option, arg);
	o->mem.type = type;
	snprintf(o->mem.device, sizeof(o->mem.device), "%s", arg);
	return 0;
}
