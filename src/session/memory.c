/* SPDX-License-Identifier: BSD-2-Clause */
/* Which memory a side's buffers use (a memory type's option, --bounce), and the
 * connections made on it: the memory type meets the test here. */
#include <stdio.h>

#include <rdmaperf/engine.h>
#include <rdmaperf/log.h>
#include <rdmaperf/mem.h>
#include <rdmaperf/stage.h>
#include <rdmaperf/wire.h>

#include "session_int.h"

/* The side's memory: host, a device type of the table (its option), or
 * that device's data staged through host buffers (--bounce). */
static int open_mem(const struct rdp_mem_opts *mo, const char *nic,
		    struct rdp_mem **out)
{
	if (!mo->type)
		return rdp_mem_open(&rdp_mem_host, "", nic, out);
	if (mo->bounce)
		return rdp_mem_open_staged(mo->type, mo->device, nic, out);
	return rdp_mem_open(mo->type, mo->device, nic, out);
}

int rdp_session_use_mem(struct rdp_dev **dev, const struct rdp_mem_opts *mo)
{
	enum rdp_mem_kind kind;
	struct rdp_mem *m;
	int ret;

	if ((*dev)->mem)
		return 0;
	ret = open_mem(mo, (*dev)->name, &m);
	if (ret) {
		rdp_dev_close(*dev);
		*dev = NULL;
		return ret;
	}
	(*dev)->mem = m;
	m->hugepages = mo->hugepages;
	m->file_offset_bytes = mo->offset_bytes;
	m->relaxed = !mo->no_relaxed && rdp_mem_relaxed_supported();
	kind = rdp_mem_kind_of(m);
	if (kind == RDP_MEM_KIND_HOST && m->ops->option)
		rdp_info("%s: buffers on %s from offset %llu (%s)",
			 (*dev)->name, m->desc, m->file_offset_bytes,
			 m->ops->option);
	else if (kind == RDP_MEM_KIND_GPU)
		rdp_info("%s: buffers on %s, %s", (*dev)->name, m->desc,
			 m->why);
	else if (kind == RDP_MEM_KIND_GPU_STAGED)
		rdp_info("%s: data on %s, %s, staged through host buffers "
			 "(--bounce)",
			 (*dev)->name, m->desc, m->why);
	return 0;
}

int rdp_session_conn_create(struct rdp_dev *dev, const struct rdp_conn_cfg *cfg,
			    struct rdp_conn **out)
{
	struct rdp_conn *conn;
	int ret;

	ret = rdp_conn_create(dev, cfg, &conn);
	if (ret)
		return ret;
	/* --bounce: the data's GPU twin, staged through conn's buffer */
	if (rdp_mem_kind_of(dev->mem) == RDP_MEM_KIND_GPU_STAGED) {
		ret = rdp_stage_create(conn, cfg->msg_bytes);
		if (ret) {
			rdp_session_conn_destroy(conn);
			return ret;
		}
	}
	*out = conn;
	return 0;
}

void rdp_session_conn_destroy(struct rdp_conn *conn)
{
	rdp_stage_destroy(conn);
	rdp_conn_destroy(conn);
}

void rdp_session_mem_to_accept(const struct rdp_conn *conn,
			       const struct rdp_bench_ops *ops,
			       const struct rdp_params *p,
			       struct rdp_msg_accept *a)
{
	const struct rdp_mem *m = conn->dev->mem;
	const struct rdp_mem_ops *data = rdp_mem_data_type(m);
	enum rdp_mem_kind kind = rdp_mem_kind_of(m);

	a->mem_kind = (uint8_t)kind;
	a->mem_path = (uint8_t)(conn->mb ? conn->mb->path : RDP_MEM_PATH_HOST);
	/* What the client may do here; how it is registered stays here. */
	a->mr_access = (uint32_t)(conn->mr_access &
				  (IBV_ACCESS_LOCAL_WRITE | RDP_ACCESS_REMOTE));
	if (kind == RDP_MEM_KIND_GPU_STAGED)
		a->mem_stage = (uint8_t)rdp_stage_role(ops, p, RDP_SIDE_SERVER);
	if (kind == RDP_MEM_KIND_HOST)
		return;
	snprintf(a->mem_gpu, sizeof(a->mem_gpu), "%.*s",
		 (int)sizeof(a->mem_gpu) - 1, m->desc);
	snprintf(a->mem_bus_id, sizeof(a->mem_bus_id), "%.*s",
		 (int)sizeof(a->mem_bus_id) - 1, m->bus_id);
	/* Named only where the kind would name another type: a message of
	 * CUDA memory stays what it was. */
	if (data && data != rdp_mem_of_kind(kind))
		snprintf(a->mem_type, sizeof(a->mem_type), "%.*s",
			 (int)sizeof(a->mem_type) - 1, data->name);
}
