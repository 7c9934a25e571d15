/* SPDX-License-Identifier: BSD-2-Clause */
/* --mmap FILE: buffers mapped shared from a file, from --mmap-offset on,
 * so that the NIC reads and writes the file's pages (a tmpfs or DAX file,
 * a device's resource file). The run zeroes the mapped range, writes its
 * data over it and leaves it there. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <linux/fs.h>

#include <rdmaperf/log.h>
#include <rdmaperf/mem.h>

struct file_state {
	int fd;
	char path[PATH_MAX];
};

static int file_check_spec(const char *spec, char *err, size_t len)
{
	if (!spec[0]) {
		snprintf(err, len, "--mmap needs a file name");
		return -EINVAL;
	}
	return 0;
}

/* Read and write: the NIC writes the peer's data into the mapping and
 * the sender's pattern is written into it before the run. */
static int file_open(struct rdp_mem *m, const char *spec, const char *nic,
		     char *err, size_t len)
{
	struct file_state *st;
	struct stat sb;
	int ret;

	(void)nic;
	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	snprintf(st->path, sizeof(st->path), "%s", spec);
	st->fd = open(spec, O_RDWR | O_CLOEXEC);
	if (st->fd < 0 || fstat(st->fd, &sb)) {
		ret = -errno;
		snprintf(err, len,
			 "--mmap %s: %s: give a file this user may read and "
			 "write (the run writes its data into it)",
			 spec, strerror(-ret));
		goto err_free;
	}
	if (!S_ISREG(sb.st_mode) && !S_ISBLK(sb.st_mode)) {
		ret = -EINVAL;
		snprintf(err, len,
			 "--mmap %s: not a regular file or block device", spec);
		goto err_free;
	}
	snprintf(m->desc, sizeof(m->desc), "file %.140s", spec);
	m->state = st;
	return 0;

err_free:
	if (st->fd >= 0)
		close(st->fd);
	free(st);
	return ret;
}

static void file_close(struct rdp_mem *m)
{
	struct file_state *st = m->state;

	if (!st)
		return;
	close(st->fd);
	free(st);
	m->state = NULL;
}

/* The bytes the file holds: a block device's from the device. */
static int file_bytes(int fd, uint64_t *out)
{
	struct stat sb;

	if (fstat(fd, &sb))
		return -errno;
	if (S_ISBLK(sb.st_mode))
		return ioctl(fd, BLKGETSIZE64, out) ? -errno : 0;
	*out = (uint64_t)sb.st_size;
	return 0;
}

/* The point's buffer must fit between the offset and the file's end:
 * the file is never grown, it may be a device's. */
static int file_alloc(struct rdp_mem *m, size_t bytes, int numa_node,
		      void **out)
{
	struct file_state *st = m->state;
	uint64_t have = 0, need = m->file_offset_bytes + bytes;
	void *p;
	int ret;

	(void)numa_node; /* the file's pages are where the file is */
	ret = file_bytes(st->fd, &have);
	if (ret) {
		rdp_err("--mmap %s: %s", st->path, strerror(-ret));
		return ret;
	}
	if (have < need) {
		rdp_err("--mmap %s: the file holds %llu bytes, the run needs "
			"%llu (%zu from offset %llu): make it larger "
			"(truncate -s %llu %s) or run smaller points",
			st->path, (unsigned long long)have,
			(unsigned long long)need, bytes,
			(unsigned long long)m->file_offset_bytes,
			(unsigned long long)need, st->path);
		return -ENOSPC;
	}
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, st->fd,
		 (off_t)m->file_offset_bytes);
	if (p == MAP_FAILED) {
		ret = -errno;
		rdp_err("--mmap %s: map %zu bytes from offset %llu: %s",
			st->path, bytes,
			(unsigned long long)m->file_offset_bytes,
			strerror(-ret));
		return ret;
	}
	/* Buffers start zeroed, as every type's do: the data check reads
	 * what no message reached as zero. */
	memset(p, 0, bytes);
	*out = p;
	return 0;
}

static void file_free(struct rdp_mem *m, void *ptr, size_t bytes)
{
	(void)m;
	if (ptr)
		munmap(ptr, bytes);
}

/* The file is the user's: it keeps what the run left in it (the data
 * pattern, the peer's messages) to be read afterwards. */
static int file_wipe(struct rdp_mem *m, void *ptr, size_t bytes)
{
	(void)m;
	(void)ptr;
	(void)bytes;
	return 0;
}

/* A shared file mapping registers, pins and copies as host memory. */
static int file_reg(struct rdp_mem *m, struct ibv_pd *pd, void *ptr,
		    size_t bytes, int access, const char *nic,
		    struct ibv_mr **out, enum rdp_mem_path *path, char *note,
		    size_t note_len)
{
	return rdp_mem_host.reg(m, pd, ptr, bytes, access, nic, out, path, note,
				note_len);
}

static int file_copy(struct rdp_mem *m, void *dst, const void *src,
		     size_t bytes)
{
	return rdp_mem_host.to_dev(m, dst, src, bytes);
}

static int file_pin(struct rdp_mem *m, void *ptr, size_t bytes, char *why,
		    size_t len)
{
	return rdp_mem_host.host_pin(m, ptr, bytes, why, len);
}

static void file_unpin(struct rdp_mem *m, void *ptr)
{
	rdp_mem_host.host_unpin(m, ptr);
}

const char *rdp_mem_file_path(const struct rdp_mem *m)
{
	const struct file_state *st;

	if (!m || m->ops != &rdp_mem_file || !m->state)
		return NULL;
	st = m->state;
	return st->path;
}

const struct rdp_mem_ops rdp_mem_file = {
	.name = "file",
	.kind = RDP_MEM_KIND_HOST,
	.cpu_readable = 1,
	.option = "--mmap",
	.host_pages = 1,
	.check_spec = file_check_spec,
	.open = file_open,
	.close = file_close,
	.alloc = file_alloc,
	.free = file_free,
	.wipe = file_wipe,
	.reg = file_reg,
	.to_dev = file_copy,
	.to_host = file_copy,
	.host_pin = file_pin,
	.host_unpin = file_unpin,
};
