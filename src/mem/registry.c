/* SPDX-License-Identifier: BSD-2-Clause */
/* The only list of device memory types a side may choose by option. Adding
 * one (ROCm, say): its file with a filled struct rdp_mem_ops, a line here. */
#include <string.h>

#include <rdmaperf/mem.h>

static const struct rdp_mem_ops *const registry[] = {
	&rdp_mem_cuda,
	NULL,
};

const struct rdp_mem_ops *const *rdp_mem_types(void)
{
	return registry;
}

const struct rdp_mem_ops *rdp_mem_find(const char *name)
{
	const struct rdp_mem_ops *const *t;

	if (name && !strncmp(name, "--", 2))
		name += 2;
	for (t = registry; name && *t; t++)
		if (!strcmp((*t)->option + 2, name))
			return *t;
	return NULL;
}
