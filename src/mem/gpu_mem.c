/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * GPU memory buffers through a GPU runtime's table (gpu_rt.h): which GPU
 * the option names, allocation, copies, wipes, pinning and registration
 * with the NIC, the same for every runtime; the runtime's calls and words
 * come from its table.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <infiniband/verbs.h>

#include <rdmaperf/gpu.h>
#include <rdmaperf/log.h>
#include <rdmaperf/mem.h>
#include <rdmaperf/sysfs.h>
#include <rdmaperf/topo.h>

#include "gpu_rt.h"
#include "mem_int.h"

int rdp_gpu_mem_check_spec(const struct rdp_gpu_rt *rt, const char *spec,
			   char *err, size_t len)
{
	struct rdp_gpu_spec parsed;

	if (!rdp_gpu_spec_parse(spec, &parsed))
		return 0;
	snprintf(err, len,
		 "%s %s: give a GPU number (0..%d), auto, or a PCI bus id like "
		 "%s",
		 rt->option, spec, RDP_GPU_MAX - 1, rt->bus_example);
	return -EINVAL;
}

/* The runtime's words for r, in a buffer of the caller's statement. */
#define RT_TEXT(g, r) ((g)->rt->strerror((g), (r), (char[160]){ 0 }, 160))

/* One line from a failed call: "cuInit: CUDA_ERROR_... (text)". */
static int rt_fail(struct rdp_gpu *g, int r, const char *call, const char *hint,
		   char *err, size_t len)
{
	snprintf(err, len, "%s: %s%s", call, RT_TEXT(g, r), hint);
	return g->rt->to_errno(r);
}

static int start_runtime(struct rdp_gpu *g, int *count, char *err, size_t len)
{
	const struct rdp_gpu_rt *rt = g->rt;
	int r = rt->init(g);

	if (r == rt->no_device) {
		snprintf(err, len,
			 "no GPU: %s (%s) sees no device (%s): %s, or drop %s",
			 rt->runtime, g->path, RT_TEXT(g, r), rt->driver_check,
			 rt->option);
		return -ENODEV;
	}
	if (r)
		return rt_fail(g, r, rt->init_call, rt->init_hint, err, len);
	r = rt->count(g, count);
	if (r == rt->no_device)
		*count = 0;
	else if (r)
		return rt_fail(g, r, rt->count_call, "", err, len);
	if (*count <= 0) {
		snprintf(err, len, "no GPU: %s sees none: %s, or drop %s",
			 rt->runtime, rt->driver_check, rt->option);
		return -ENODEV;
	}
	if (*count > RDP_GPU_MAX)
		*count = RDP_GPU_MAX;
	return 0;
}

static void list_gpus(char (*ids)[RDP_GPU_SPEC_MAX], int n, char *buf,
		      size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%d: %s",
					i ? ", " : "", i, ids[i]);
}

/* auto: hwloc's view first (switch, host bridge, node). */
static int nearest_by_topology(const char *nic, char (*ids)[RDP_GPU_SPEC_MAX],
			       int n, struct rdp_mem *m)
{
	char bus[RDP_GPU_SPEC_MAX];
	enum rdp_topo_dist dist;
	int i;

	if (rdp_topo_nearest_gpu(NULL, nic, bus, sizeof(bus), &dist) ||
	    dist == RDP_DIST_UNKNOWN)
		return -1;
	for (i = 0; i < n; i++) {
		if (!strcasecmp(ids[i], bus)) {
			snprintf(m->why, sizeof(m->why),
				 "nearest to %s in the hwloc topology (%s)",
				 nic, rdp_topo_dist_str(dist));
			return i;
		}
	}
	return -1;
}

static int nearest(const struct rdp_gpu_rt *rt, const char *nic,
		   char (*ids)[RDP_GPU_SPEC_MAX], int n, struct rdp_mem *m)
{
	struct rdp_sysfs fs;
	int i = rt->topology_first ? nearest_by_topology(nic, ids, n, m) : -1;

	if (i >= 0)
		return i;
	rdp_sysfs_init(&fs, NULL);
	return rdp_gpu_nearest(&fs, nic, (const char(*)[RDP_GPU_SPEC_MAX])ids,
			       (size_t)n, m->why, sizeof(m->why));
}

/* The GPU the spec names, among n with these bus ids. */
static int choose(const struct rdp_gpu_rt *rt, const struct rdp_gpu_spec *spec,
		  const char *nic, char (*ids)[RDP_GPU_SPEC_MAX], int n,
		  struct rdp_mem *m, char *err, size_t len)
{
	char list[256];
	int i;

	if (spec->kind == RDP_GPU_AUTO)
		return nearest(rt, nic, ids, n, m);
	if (spec->kind == RDP_GPU_INDEX && spec->index < n) {
		snprintf(m->why, sizeof(m->why), "as asked");
		return spec->index;
	}
	for (i = 0; spec->kind == RDP_GPU_BUS_ID && i < n; i++) {
		if (!strcmp(ids[i], spec->bus_id)) {
			snprintf(m->why, sizeof(m->why), "as asked");
			return i;
		}
	}
	list_gpus(ids, n, list, sizeof(list));
	if (spec->kind == RDP_GPU_INDEX)
		snprintf(err, len, "%s: no GPU %d; present: %s", rt->option,
			 spec->index, list);
	else
		snprintf(err, len, "%s: no GPU at %s; present: %s", rt->option,
			 spec->bus_id, list);
	return -ENODEV;
}

static int open_gpu(struct rdp_gpu *g, struct rdp_mem *m,
		    const struct rdp_gpu_spec *spec, const char *nic, char *err,
		    size_t len)
{
	char ids[RDP_GPU_MAX][RDP_GPU_SPEC_MAX], raw[RDP_GPU_SPEC_MAX];
	const struct rdp_gpu_rt *rt = g->rt;
	char name[96];
	int i, n, r, ret;

	ret = start_runtime(g, &n, err, len);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		r = rt->bus_id(g, i, raw, sizeof(raw));
		if (r)
			return rt_fail(g, r, "query GPU", "", err, len);
		rdp_gpu_bus_id_norm(raw, ids[i], sizeof(ids[i]));
	}
	g->index = choose(rt, spec, nic, ids, n, m, err, len);
	if (g->index < 0)
		return g->index;
	r = rt->open_dev(g, name, sizeof(name));
	if (r)
		return rt_fail(g, r, rt->open_call, rt->open_hint, err, len);
	snprintf(m->bus_id, sizeof(m->bus_id), "%s", ids[g->index]);
	snprintf(m->desc, sizeof(m->desc), "GPU %d %s (%s)", g->index, name,
		 ids[g->index]);
	return 0;
}

void rdp_gpu_mem_close(struct rdp_mem *m)
{
	struct rdp_gpu *g = m ? m->state : NULL;

	if (!g)
		return;
	if (g->lib) {
		g->rt->close_dev(g);
		g->rt->unload(g);
	}
	free(g);
	m->state = NULL;
}

int rdp_gpu_mem_open(const struct rdp_gpu_rt *rt, struct rdp_mem *m,
		     const char *spec_text, const char *nic, int dmabuf_only,
		     char *err, size_t len)
{
	struct rdp_gpu_spec spec;
	struct rdp_gpu *g;
	int ret;

	if (rdp_gpu_spec_parse(spec_text, &spec)) {
		snprintf(err, len,
			 "%s %s: give a GPU number, auto or a PCI bus id",
			 rt->option, spec_text);
		return -EINVAL;
	}
	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	g->rt = rt;
	g->dmabuf_only = dmabuf_only;
	m->state = g;
	ret = rt->load(g, err, len);
	/* No runtime is no GPU to this program: unsupported here (exit 77). */
	if (ret == -ENOENT)
		ret = -ENODEV;
	if (!ret)
		ret = open_gpu(g, m, &spec, nic, err, len);
	if (ret)
		rdp_gpu_mem_close(m);
	return ret;
}

/* The current device is per thread: the server may serve from another. */
static int set_current(struct rdp_gpu *g)
{
	int r = g->rt->set_current(g);

	if (r)
		rdp_err("make GPU %d current%s: %s", g->index,
			g->rt->current_call, RT_TEXT(g, r));
	return g->rt->to_errno(r);
}

int rdp_gpu_mem_alloc(struct rdp_mem *m, size_t bytes, int numa_node,
		      void **out)
{
	struct rdp_gpu *g = m->state;
	void *p = NULL;
	int r, ret = set_current(g);

	(void)numa_node; /* the GPU's memory is where the GPU is */
	if (ret)
		return ret;
	r = g->rt->alloc(g, &p, bytes);
	if (r) {
		rdp_err("allocate %zu bytes on %s: %s: lower -s or -q", bytes,
			m->desc, RT_TEXT(g, r));
		return g->rt->to_errno(r);
	}
	r = g->rt->prepare(g, p, bytes);
	if (r) {
		rdp_err("%s %zu bytes on %s: %s", g->rt->prepare_what, bytes,
			m->desc, RT_TEXT(g, r));
		g->rt->release(g, p);
		return g->rt->to_errno(r);
	}
	*out = p;
	return 0;
}

void rdp_gpu_mem_free(struct rdp_mem *m, void *ptr, size_t bytes)
{
	struct rdp_gpu *g = m->state;

	(void)bytes;
	if (ptr && !set_current(g))
		g->rt->release(g, ptr);
}

/* The CPU cannot reach GPU memory: the runtime's memset zeroes it, ahead
 * of the free that follows and waits for it. */
int rdp_gpu_mem_wipe(struct rdp_mem *m, void *ptr, size_t bytes)
{
	struct rdp_gpu *g = m->state;
	int r, ret = set_current(g);

	if (ret)
		return ret;
	r = g->rt->zero(g, ptr, bytes);
	if (r)
		rdp_err("zero %zu bytes on %s before freeing them: %s", bytes,
			m->desc, RT_TEXT(g, r));
	return g->rt->to_errno(r);
}

int rdp_gpu_mem_register(struct rdp_mem *m, const struct rdp_gpu_verbs *verbs,
			 struct ibv_pd *pd, void *ptr, size_t bytes, int access,
			 const char *nic, struct ibv_mr **out,
			 enum rdp_mem_path *path, char *note, size_t note_len)
{
	struct rdp_gpu *g = m->state;
	const struct rdp_gpu_reg_ops ops = {
		.ctx = g,
		.export_dmabuf = g->rt->export_dmabuf,
		.reg_dmabuf = verbs->reg_dmabuf,
		.reg_mr = g->dmabuf_only ? NULL : verbs->reg_mr,
	};
	struct rdp_gpu_reg_log log;
	struct rdp_gpu_facts facts;
	struct rdp_sysfs fs;
	char why[700];
	int ret;

	ret = rdp_gpu_register(&ops, pd, ptr, bytes, access, out, path, &log);
	if (!ret) {
		if (*path == RDP_MEM_PATH_PEERMEM)
			rdp_gpu_dmabuf_note(&log, nic, note, note_len);
		return 0;
	}
	rdp_sysfs_init(&fs, NULL);
	rdp_gpu_facts_read(&fs, m->bus_id, &facts);
	rdp_gpu_causes(&log, g->rt->export_words, g->rt->peer_cause, &facts,
		       nic, bytes, why, sizeof(why));
	rdp_err("register %zu bytes of %s memory on %s: %s", bytes, m->desc,
		nic, why);
	return ret;
}

int rdp_gpu_mem_reg(struct rdp_mem *m, struct ibv_pd *pd, void *ptr,
		    size_t bytes, int access, const char *nic,
		    struct ibv_mr **out, enum rdp_mem_path *path, char *note,
		    size_t note_len)
{
	static const struct rdp_gpu_verbs verbs = {
		.reg_dmabuf = ibv_reg_dmabuf_mr,
		.reg_mr = ibv_reg_mr,
	};

	return rdp_gpu_mem_register(m, &verbs, pd, ptr, bytes, access, nic, out,
				    path, note, note_len);
}

/* Both directions of a staging copy: the same device, check and message. */
static int copy(struct rdp_mem *m, void *dst, const void *src, size_t bytes,
		int to_dev)
{
	struct rdp_gpu *g = m->state;
	int r, ret = set_current(g);

	if (ret)
		return ret;
	r = g->rt->copy(g, dst, src, bytes, to_dev);
	if (r)
		rdp_err("copy %zu bytes %s %s: %s", bytes,
			to_dev ? "to" : "from", m->desc, RT_TEXT(g, r));
	return g->rt->to_errno(r);
}

int rdp_gpu_mem_to_dev(struct rdp_mem *m, void *dst, const void *src,
		       size_t bytes)
{
	return copy(m, dst, src, bytes, 1);
}

int rdp_gpu_mem_to_host(struct rdp_mem *m, void *dst, const void *src,
			size_t bytes)
{
	return copy(m, dst, src, bytes, 0);
}

/* A staging buffer the runtime knows is page-locked is copied by DMA;
 * otherwise each copy goes through the runtime's own bounce buffer. */
int rdp_gpu_mem_host_pin(struct rdp_mem *m, void *ptr, size_t bytes, char *why,
			 size_t len)
{
	struct rdp_gpu *g = m->state;
	int r, ret = set_current(g);

	if (ret)
		return ret;
	if (!g->rt->can_pin(g)) {
		snprintf(why, len, "%s", g->rt->pin_missing);
		return -EOPNOTSUPP;
	}
	r = g->rt->host_register(g, ptr, bytes);
	if (r)
		g->rt->strerror(g, r, why, len);
	return g->rt->to_errno(r);
}

void rdp_gpu_mem_host_unpin(struct rdp_mem *m, void *ptr)
{
	struct rdp_gpu *g = m->state;

	if (ptr && !set_current(g))
		g->rt->host_unregister(g, ptr);
}
