/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * All sysfs/procfs reading goes through here. The root directory is
 * injectable so the logic above it is tested against fixture trees.
 * Layer: sys
 */
#ifndef RDMAPERF_SYSFS_H
#define RDMAPERF_SYSFS_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include <rdmaperf/log.h>

struct rdp_sysfs {
	char root[PATH_MAX]; /* "" for the real filesystem */
};

/* root NULL or "" means the live system. */
void rdp_sysfs_init(struct rdp_sysfs *fs, const char *root);

/*
 * Read a small text file named by a printf-style path (absolute, relative to
 * the root), strip the trailing newline. Returns 0 or -errno.
 */
int rdp_sysfs_read(const struct rdp_sysfs *fs, char *buf, size_t len,
		   const char *fmt, ...) RDP_PRINTF(4, 5);

int rdp_sysfs_read_u64(const struct rdp_sysfs *fs, uint64_t *val,
		       const char *fmt, ...) RDP_PRINTF(3, 4);

#define RDP_SYSFS_NAME_MAX 64

/*
 * The entries of a directory (no "." or ".."), sorted, at most cap; names
 * longer than RDP_SYSFS_NAME_MAX - 1 are skipped. Returns 0 or -errno.
 */
int rdp_sysfs_list(const struct rdp_sysfs *fs,
		   char (*names)[RDP_SYSFS_NAME_MAX], size_t cap, size_t *n_out,
		   const char *fmt, ...) RDP_PRINTF(5, 6);

/* 1 when the path exists (file, directory or device node), else 0. */
int rdp_sysfs_exists(const struct rdp_sysfs *fs, const char *fmt, ...)
	RDP_PRINTF(2, 3);

/* The value of one hex digit (either case), or -1 for any other char. */
int rdp_hex_digit(int c);

/* The CPU model name from <root>/proc/cpuinfo; "unknown CPU" if none. */
void rdp_cpu_model(const struct rdp_sysfs *fs, char *buf, size_t len);

#endif /* RDMAPERF_SYSFS_H */
