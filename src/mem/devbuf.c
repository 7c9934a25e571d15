/* SPDX-License-Identifier: BSD-2-Clause */
/* Benchmark buffers in GPU memory: opened once per process, allocated and
 * registered per connection, filled and checked through a host copy. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/devbuf.h>
#include <rdmaperf/engine.h>
#include <rdmaperf/log.h>
#include <rdmaperf/mem.h>
#include <rdmaperf/stage.h>

const char *rdp_mem_path_str(enum rdp_mem_path path)
{
	switch (path) {
	case RDP_MEM_PATH_DMABUF:
		return "DMA-BUF";
	case RDP_MEM_PATH_PEERMEM:
		return "peer memory";
	case RDP_MEM_PATH_HOST:
	default:
		return "host";
	}
}

const char *rdp_mem_path_id(enum rdp_mem_path path)
{
	switch (path) {
	case RDP_MEM_PATH_DMABUF:
		return "dmabuf";
	case RDP_MEM_PATH_PEERMEM:
		return "peermem";
	case RDP_MEM_PATH_HOST:
	default:
		return "host";
	}
}

void rdp_devbuf_report(FILE *f, const struct rdp_conn *c)
{
	const struct rdp_mem *m = c->dev->mem;

	if (!m)
		return;
	fprintf(f, " Memory          : %s (%s), registered by %s\n", m->desc,
		m->why, rdp_mem_path_str(c->mem_path));
	if (c->mem_note[0])
		fprintf(f, " DMA-BUF         : not used: %s\n", c->mem_note);
}

int rdp_mem_open(const char *spec, const char *nic, struct rdp_mem **out)
{
	char err[RDP_WIRE_TEXT_MAX * 2];
	struct rdp_mem *m;
	int ret;

	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->ops = &rdp_mem_cuda;
	ret = m->ops->open(m, spec, nic, err, sizeof(err));
	if (ret) {
		rdp_err("%s", err);
		free(m);
		return ret;
	}
	*out = m;
	return 0;
}

void rdp_mem_close(struct rdp_mem *m)
{
	if (!m)
		return;
	m->ops->close(m);
	free(m);
}

int rdp_dev_use_mem(struct rdp_dev **dev, const char *spec)
{
	int ret;

	if (!spec || !*spec || (*dev)->mem)
		return 0;
	ret = rdp_mem_open(spec, (*dev)->name, &(*dev)->mem);
	if (ret) {
		rdp_dev_close(*dev);
		*dev = NULL;
		return ret;
	}
	rdp_info("%s: buffers on %s, %s", (*dev)->name, (*dev)->mem->desc,
		 (*dev)->mem->why);
	return 0;
}

int rdp_devbuf_create(struct rdp_conn *conn, int access)
{
	struct rdp_mem *m = conn->dev->mem;
	void *shadow;
	int ret;

	shadow = mmap(NULL, conn->buf_bytes, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (shadow == MAP_FAILED) {
		ret = -errno;
		rdp_err("allocate a %zu-byte host copy of the GPU buffer: %s",
			conn->buf_bytes, strerror(-ret));
		return ret;
	}
	conn->shadow = shadow;
	ret = m->ops->dev_alloc(m, conn->buf_bytes, &conn->buf);
	if (ret)
		return ret;
	ret = m->ops->reg(m, conn->pd, conn->buf, conn->buf_bytes, access,
			  conn->dev->name, &conn->mr, &conn->mem_path,
			  conn->mem_note, sizeof(conn->mem_note));
	if (!ret)
		conn->mr_access = access;
	return ret;
}

void rdp_devbuf_destroy(struct rdp_conn *conn)
{
	struct rdp_mem *m = conn->dev->mem;

	if (conn->buf)
		m->ops->dev_free(m, conn->buf, conn->buf_bytes);
	conn->buf = NULL;
	if (conn->shadow)
		munmap(conn->shadow, conn->buf_bytes);
	conn->shadow = NULL;
}

void rdp_devbuf_view(const struct rdp_conn *conn, struct rdp_conn *view)
{
	*view = *conn;
	if (conn->shadow)
		view->buf = conn->shadow;
}

int rdp_devbuf_push(const struct rdp_conn *conn)
{
	struct rdp_mem *m = conn->dev->mem;

	if (!conn->shadow)
		return 0;
	return m->ops->to_dev(m, conn->buf, conn->shadow, conn->buf_bytes);
}

int rdp_devbuf_pull(const struct rdp_conn *conn, struct rdp_conn *view)
{
	struct rdp_mem *m = conn->dev->mem;
	int ret = 0;

	if (conn->shadow)
		ret = m->ops->to_host(m, conn->shadow, conn->buf,
				      conn->buf_bytes);
	rdp_devbuf_view(conn, view);
	return ret;
}

int rdp_devbuf_verify(const struct rdp_run *run, uint64_t count,
		      struct rdp_msg_result *r)
{
	struct rdp_run host_run = *run;
	struct rdp_conn view;
	int ret;

	if (!run->ops->verify)
		return 0;
	if (run->conn->stage)
		return rdp_stage_verify(run, count, r);
	ret = rdp_devbuf_pull(run->conn, &view);
	if (ret) {
		r->status = ret;
		return ret;
	}
	host_run.conn = &view;
	return run->ops->verify(&host_run, count, r);
}

int rdp_devbuf_check_test(const struct rdp_bench_ops *ops, int gpu, char *why,
			  size_t len)
{
	if (!gpu || !(ops->flags & RDP_BENCH_CPU_POLL))
		return 0;
	snprintf(why, len,
		 "%s polls its receive buffer with the CPU, which cannot "
		 "watch GPU memory: measure GPU latency with send_lat or "
		 "read_lat, or drop --use_cuda",
		 ops->name);
	return -EINVAL;
}
