/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * GPU check without a NIC: open a GPU as rdmaperf does, allocate a buffer
 * on it, export it as DMA-BUF, and copy a pattern there and back. Exit 0
 * all good, 1 a step failed, 77 no driver or no GPU.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rdmaperf/cuda.h>
#include <rdmaperf/mem.h>

#define BYTES (4u << 20)

static int dmabuf_export(void *ptr)
{
	char err[256], link[64], target[128];
	struct rdp_cuda *cu;
	rdp_cu_result r;
	ssize_t n;
	int fd = -1;

	/* The context is current: the same driver, loaded again, shares it. */
	if (rdp_cuda_load(NULL, &cu, err, sizeof(err))) {
		printf("FAIL dmabuf: %s\n", err);
		return 1;
	}
	if (!cu->mem_get_handle) {
		printf("FAIL dmabuf: the driver has no "
		       "cuMemGetHandleForAddressRange\n");
		rdp_cuda_unload(cu);
		return 1;
	}
	r = cu->mem_get_handle(&fd, (rdp_cu_ptr)(uintptr_t)ptr, BYTES,
			       RDP_CU_RANGE_HANDLE_DMA_BUF, 0);
	if (r) {
		printf("FAIL dmabuf: export of %u bytes: %s\n", BYTES,
		       rdp_cuda_strerror(cu, r, err, sizeof(err)));
		rdp_cuda_unload(cu);
		return 1;
	}
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, target, sizeof(target) - 1);
	target[n > 0 ? n : 0] = '\0';
	printf("ok   dmabuf: exported %u bytes as fd %d (%s)\n", BYTES, fd,
	       target);
	close(fd);
	rdp_cuda_unload(cu);
	return 0;
}

static int round_trip(struct rdp_mem *m, void *p)
{
	uint8_t *in = malloc(BYTES), *out = malloc(BYTES);
	size_t i;
	int bad = 1;

	if (!in || !out)
		goto out;
	for (i = 0; i < BYTES; i++)
		in[i] = (uint8_t)(i * 131u + (i >> 9));
	if (m->ops->to_dev(m, p, in, BYTES) ||
	    m->ops->to_host(m, out, p, BYTES))
		goto out;
	bad = memcmp(in, out, BYTES) != 0;
	printf("%s data: %u bytes to the GPU and back %s\n",
	       bad ? "FAIL" : "ok  ", BYTES, bad ? "differ" : "match");
out:
	free(in);
	free(out);
	return bad;
}

int main(int argc, char **argv)
{
	const char *spec = argc > 1 ? argv[1] : "0";
	struct rdp_mem *m;
	void *p = NULL;
	int ret, failed = 0;

	ret = rdp_mem_open(&rdp_mem_cuda, spec, "none", &m);
	if (ret == -ENODEV || ret == -ENOSYS)
		return 77;
	if (ret)
		return 1;
	printf("ok   open: %s\n", m->desc);
	if (m->ops->alloc(m, BYTES, -1, &p)) {
		rdp_mem_close(m);
		return 1;
	}
	printf("ok   alloc: %u bytes at 0x%llx\n", BYTES,
	       (unsigned long long)(uintptr_t)p);
	failed |= dmabuf_export(p);
	failed |= round_trip(m, p);
	m->ops->free(m, p, BYTES);
	rdp_mem_close(m);
	return failed;
}
