/* SPDX-License-Identifier: BSD-2-Clause */
/* Memory type options (--use_cuda, --use_rocm) on client and server: each
 * a row of the memory registry, found by the option's name. A flag among
 * them (--use_rocm_dmabuf) narrows the type of the option it extends. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rdmaperf/mem.h>

#include "opts_int.h"

/* Whether narrow's option extends base's: --use_rocm_dmabuf, --use_rocm. */
static int narrows(const struct rdp_mem_ops *narrow,
		   const struct rdp_mem_ops *base)
{
	size_t n = strlen(base->option);

	return narrow != base && !strncmp(narrow->option, base->option, n) &&
	       narrow->option[n] == '_';
}

/* The flag, before or after its option: the GPU that names, else 0. */
static int set_narrowing(struct rdp_opts *o, const struct rdp_mem_ops *type,
			 char *err, size_t len)
{
	const struct rdp_mem_ops *had = o->mem.type;

	if (had && had != type && !narrows(type, had))
		return rdp_cli_bad(err, len,
				   "%s narrows the option it extends; it "
				   "cannot go with %s",
				   type->option, had->option);
	o->mem.type = type;
	if (!had)
		snprintf(o->mem.device, sizeof(o->mem.device), "0");
	return 0;
}

int rdp_cli_set_mem_type(void *base, const struct rdp_cli_opt *d,
			 const char *arg, char *err, size_t len)
{
	const struct rdp_mem_ops *type = rdp_mem_find(d->name);
	struct rdp_opts *o = base;

	if (!type)
		return rdp_cli_bad(err, len, "--%s: no such memory type",
				   d->name);
	if (o->mem.type && o->mem.type != type &&
	    (type == &rdp_mem_file || o->mem.type == &rdp_mem_file))
		return rdp_cli_bad(err, len,
				   "%s and %s both choose where the buffers "
				   "are: give one",
				   o->mem.type->option, type->option);
	if (!arg)
		return set_narrowing(o, type, err, len);
	/* Checked here so a typo is a usage error, not a driver error. */
	if (type->check_spec && type->check_spec(arg, err, len))
		return -EINVAL;
	if (strlen(arg) >= sizeof(o->mem.device))
		return rdp_cli_bad(err, len, "%s %s: the name is too long",
				   type->option, arg);
	if (!o->mem.type || !narrows(o->mem.type, type))
		o->mem.type = type;
	snprintf(o->mem.device, sizeof(o->mem.device), "%s", arg);
	return 0;
}

/* --mmap-offset: mmap maps whole pages, so the offset is a page's start. */
int rdp_cli_set_mmap_offset(void *base, const struct rdp_cli_opt *d,
			    const char *arg, char *err, size_t len)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), v;
	struct rdp_opts *o = base;

	(void)d;
	if (rdp_parse_size(arg, &v))
		return rdp_cli_bad(err, len,
				   "--mmap-offset needs a byte count like "
				   "4096 or 2M, not '%s'",
				   arg);
	if (v % page)
		return rdp_cli_bad(err, len,
				   "--mmap-offset %s is not a multiple of the "
				   "page size (%llu): mmap maps whole pages",
				   arg, (unsigned long long)page);
	o->mem.offset_bytes = v;
	return 0;
}
