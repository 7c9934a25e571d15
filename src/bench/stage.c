/* SPDX-License-Identifier: BSD-2-Clause */
/* --bounce: GPU data moved through registered host buffers, one copy per
 * message on the side that owns it (the loops call in). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <rdmaperf/engine.h>
#include <rdmaperf/log.h>
#include <rdmaperf/mem.h>
#include <rdmaperf/stage.h>

static uint8_t *map_bytes(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* Page-locked, the copies run by DMA as a tuned staged path would. */
static void pin(struct rdp_stage *s)
{
	char why[sizeof(s->pin_note) - 40];

	why[0] = '\0';
	if (!s->mem->ops->host_pin(s->mem, s->host, s->bytes, why,
				   sizeof(why))) {
		s->pinned = 1;
		return;
	}
	snprintf(s->pin_note, sizeof(s->pin_note),
		 "host buffer not page-locked for CUDA: %s", why);
	rdp_warn("%s: %s; copies go through the driver's own buffer",
		 s->mem->desc, s->pin_note);
}

int rdp_stage_create(struct rdp_conn *conn, size_t msg_bytes)
{
	struct rdp_mem *m = rdp_mem_data(conn->dev->mem);
	struct rdp_stage *s;
	void *gpu = NULL;
	int ret;

	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	conn->stage = s;
	s->mem = m;
	s->host = conn->buf;
	s->bytes = conn->buf_bytes;
	s->slot_bytes = conn->slot_bytes;
	s->msg_bytes = msg_bytes ? msg_bytes : 1;
	s->shadow = map_bytes(s->bytes);
	if (!s->shadow) {
		ret = -errno;
		rdp_err("allocate a %zu-byte host copy of the GPU buffer: %s",
			s->bytes, strerror(-ret));
		return ret;
	}
	ret = m->ops->alloc(m, s->bytes, -1, &gpu); /* logs */
	if (ret)
		return ret;
	s->gpu = gpu;
	pin(s);
	return 0;
}

void rdp_stage_destroy(struct rdp_conn *conn)
{
	struct rdp_stage *s = conn ? conn->stage : NULL;

	if (!s)
		return;
	if (s->pinned)
		s->mem->ops->host_unpin(s->mem, s->host);
	/* The data's GPU twin and its host copy are zeroed before they are
	 * freed, as the registered buffer is (rdp_mem_buf_destroy). */
	if (s->gpu) {
		s->mem->ops->wipe(s->mem, s->gpu, s->bytes);
		s->mem->ops->free(s->mem, s->gpu, s->bytes);
	}
	if (s->shadow) {
		explicit_bzero(s->shadow, s->bytes);
		munmap(s->shadow, s->bytes);
	}
	free(s);
	conn->stage = NULL;
}

enum rdp_stage_role rdp_stage_role(const struct rdp_bench_ops *ops,
				   const struct rdp_params *p,
				   enum rdp_side side)
{
	int client = side == RDP_SIDE_CLIENT;
	int both = !!(p->flags & RDP_PARAM_BIDIR);

	if (!(ops->flags & RDP_BENCH_BOUNCE))
		return RDP_STAGE_NONE;
	/* SEND: the client sends, the server receives. */
	if (ops->flags & RDP_BENCH_RECV)
		return client ? RDP_STAGE_OUT : RDP_STAGE_IN;
	/* One-sided: the initiator owns every message; with -b both are. */
	if (!client && !both)
		return RDP_STAGE_NONE;
	return ops->flags & RDP_BENCH_EXPOSE_TX ? RDP_STAGE_IN : RDP_STAGE_OUT;
}

static inline uint8_t *tx_of(const uint8_t *base, const struct rdp_stage *s,
			     uint32_t q)
{
	return (uint8_t *)base + (size_t)q * 2 * s->slot_bytes;
}

int rdp_stage_out(const struct rdp_stage *s, uint32_t q, uint64_t n)
{
	uint8_t *dst = tx_of(s->host, s, q), *src = tx_of(s->gpu, s, q);
	const struct rdp_mem_ops *ops = s->mem->ops;
	int ret = 0;

	while (n-- && !ret)
		ret = ops->to_host(s->mem, dst, src, s->msg_bytes);
	return ret;
}

int rdp_stage_in(const struct rdp_stage *s, uint32_t q, uint64_t n)
{
	uint8_t *dst = tx_of(s->gpu, s, q) + s->slot_bytes;
	uint8_t *src = tx_of(s->host, s, q) + s->slot_bytes;
	const struct rdp_mem_ops *ops = s->mem->ops;
	int ret = 0;

	while (n-- && !ret)
		ret = ops->to_dev(s->mem, dst, src, s->msg_bytes);
	return ret;
}

int rdp_stage_fill(const struct rdp_run *run)
{
	const struct rdp_stage *s = run->conn->stage;
	uint32_t q;
	int ret;

	if (!s)
		return 0;
	ret = s->mem->ops->to_dev(s->mem, s->gpu, s->host, s->bytes);
	if (ret)
		return ret;
	if (rdp_stage_role(run->ops, run->params, run->side) != RDP_STAGE_OUT)
		return 0;
	for (q = 0; q < run->conn->num_qps; q++)
		memset(tx_of(s->host, s, q), 0, s->slot_bytes);
	return 0;
}

int rdp_stage_verify(const struct rdp_run *run, uint64_t count,
		     struct rdp_data_check *r)
{
	const struct rdp_stage *s = run->conn->stage;
	struct rdp_run gpu_run = *run;
	struct rdp_conn view;
	int ret;

	if (!run->ops->verify)
		return 0;
	if (rdp_stage_role(run->ops, run->params, run->side) != RDP_STAGE_IN)
		return run->ops->verify(run, count, r);
	/* Only the per-message copies put the data into the GPU twin. */
	ret = s->mem->ops->to_host(s->mem, s->shadow, s->gpu, s->bytes);
	if (ret) {
		r->status = ret;
		return ret;
	}
	view = *run->conn;
	view.buf = s->shadow;
	gpu_run.conn = &view;
	return run->ops->verify(&gpu_run, count, r);
}

/* Each role's name in JSON and its line in the text report. */
struct role_name {
	const char *id;
	const char *text;
};

static const struct role_name role_names[] = {
	[RDP_STAGE_NONE] = { "none", "nothing to stage on the passive side "
				     "of a one-sided test" },
	[RDP_STAGE_OUT] = { "gpu_to_host",
			    "each message copied GPU->host before it is posted" },
	[RDP_STAGE_IN] = { "host_to_gpu",
			   "each message copied host->GPU after its completion" },
};

static const struct role_name *role_name(enum rdp_stage_role role)
{
	static const struct role_name unknown = { "unknown", "unknown" };

	if ((unsigned int)role >= sizeof(role_names) / sizeof(role_names[0]))
		return &unknown;
	return &role_names[role];
}

const char *rdp_stage_role_str(enum rdp_stage_role role)
{
	return role_name(role)->text;
}

const char *rdp_stage_role_id(enum rdp_stage_role role)
{
	return role_name(role)->id;
}
