/* SPDX-License-Identifier: BSD-2-Clause */
/* The only list of device memory types a side may choose by option, and
 * the row that names a peer's memory. Adding a type: its file with a
 * filled struct rdp_mem_ops, a line here. */
#include <string.h>

#include <rdmaperf/mem.h>

#include "mem_int.h"

static const struct rdp_mem_ops *const registry[] = {
	&rdp_mem_cuda,
	&rdp_mem_rocm,
	NULL,
};

/* Options found by name, never listed as a device type: those that
 * narrow a row's registration (same memory, same kind), and host memory
 * from a file (--mmap), which --bounce has nothing to stage for. */
static const struct rdp_mem_ops *const narrowed[] = {
	&rdp_mem_rocm_dmabuf,
	&rdp_mem_file,
	NULL,
};

static const struct rdp_mem_ops *find_in(const struct rdp_mem_ops *const *t,
					 const char *name)
{
	for (; *t; t++)
		if (!strcmp((*t)->option + 2, name))
			return *t;
	return NULL;
}

const struct rdp_mem_ops *const *rdp_mem_types(void)
{
	return registry;
}

const struct rdp_mem_ops *rdp_mem_find(const char *name)
{
	const struct rdp_mem_ops *t;

	if (!name)
		return NULL;
	if (!strncmp(name, "--", 2))
		name += 2;
	t = find_in(registry, name);
	return t ? t : find_in(narrowed, name);
}

const struct rdp_mem_ops *rdp_mem_of_kind(unsigned int kind)
{
	const struct rdp_mem_ops *const *t;

	if (kind == RDP_MEM_KIND_HOST)
		return &rdp_mem_host;
	if (kind != RDP_MEM_KIND_GPU && kind != RDP_MEM_KIND_GPU_STAGED)
		return NULL;
	for (t = registry; *t; t++)
		if ((*t)->kind == RDP_MEM_KIND_GPU)
			return *t;
	return NULL;
}

const struct rdp_mem_ops *rdp_mem_of_peer(unsigned int kind, const char *type)
{
	const struct rdp_mem_ops *const *t;

	if (!type || !type[0] || kind == RDP_MEM_KIND_HOST)
		return rdp_mem_of_kind(kind);
	if (kind != RDP_MEM_KIND_GPU && kind != RDP_MEM_KIND_GPU_STAGED)
		return NULL;
	for (t = registry; *t; t++)
		if (!strcmp((*t)->name, type))
			return *t;
	return NULL;
}

const struct rdp_mem_ops *rdp_mem_data_type(const struct rdp_mem *m)
{
	if (!m || m->ops->kind == RDP_MEM_KIND_HOST)
		return NULL;
	if (m->ops == &rdp_mem_staged)
		return m->data_ops ? m->data_ops : registry[0];
	return m->ops;
}
