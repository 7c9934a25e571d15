/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Small sysfs/procfs text files read below an injectable root, so that the
 * code above is tested against fixture trees instead of the live system.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rdmaperf/sysfs.h>

/* A sysfs attribute is at most one page. */
#define SYSFS_ATTR_MAX 4096

void rdp_sysfs_init(struct rdp_sysfs *fs, const char *root)
{
	snprintf(fs->root, sizeof(fs->root), "%s", root ? root : "");
}

static int RDP_PRINTF(4, 0) make_path(const struct rdp_sysfs *fs, char *path,
				      size_t len, const char *fmt, va_list ap)
{
	size_t root_len = strnlen(fs->root, sizeof(fs->root));
	int n;

	if (root_len >= len)
		return -ENAMETOOLONG;
	memcpy(path, fs->root, root_len);
	n = vsnprintf(path + root_len, len - root_len, fmt, ap);
	if (n < 0)
		return -EINVAL;
	if ((size_t)n >= len - root_len)
		return -ENAMETOOLONG;
	return 0;
}

/* Read up to len bytes; returns the count or -errno. */
static ssize_t read_file(const char *path, char *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (got < len) {
		n = read(fd, buf + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			close(fd);
			return err;
		}
		if (!n)
			break;
		got += (size_t)n;
	}
	close(fd);
	return (ssize_t)got;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static void strip_trailing_space(char *s, size_t n)
{
	while (n && is_blank(s[n - 1]))
		n--;
	s[n] = '\0';
}

static int RDP_PRINTF(4, 0) vread(const struct rdp_sysfs *fs, char *buf,
				  size_t len, const char *fmt, va_list ap)
{
	char path[PATH_MAX];
	char tmp[SYSFS_ATTR_MAX];
	size_t want;
	ssize_t n;
	int ret;

	if (!len)
		return -EINVAL;
	ret = make_path(fs, path, sizeof(path), fmt, ap);
	if (ret)
		return ret;

	/* Through tmp so that buf is only written on success. */
	want = len - 1 < sizeof(tmp) - 1 ? len - 1 : sizeof(tmp) - 1;
	n = read_file(path, tmp, want);
	if (n < 0)
		return (int)n;
	strip_trailing_space(tmp, (size_t)n);
	memcpy(buf, tmp, strlen(tmp) + 1);
	return 0;
}

int rdp_sysfs_read(const struct rdp_sysfs *fs, char *buf, size_t len,
		   const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vread(fs, buf, len, fmt, ap);
	va_end(ap);
	return ret;
}

int rdp_hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int digit_val(char c, unsigned int base)
{
	int v = rdp_hex_digit((unsigned char)c);

	return v >= 0 && (unsigned int)v < base ? v : -1;
}

/*
 * Strict: decimal, or hex after "0x"; no sign, no blanks, no suffix.
 * strtoull() would take "-1", " 1" and "0x0x1".
 */
static int parse_u64(const char *s, uint64_t *val)
{
	unsigned int base = 10;
	uint64_t v = 0;
	int d;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		d = digit_val(*s, base);
		if (d < 0)
			return -EINVAL;
		if (v > (UINT64_MAX - (uint64_t)d) / base)
			return -ERANGE;
		v = v * base + (uint64_t)d;
	}
	*val = v;
	return 0;
}

int rdp_sysfs_read_u64(const struct rdp_sysfs *fs, uint64_t *val,
		       const char *fmt, ...)
{
	char buf[64];
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vread(fs, buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (ret)
		return ret;
	/* No u64 needs this much text: do not parse a truncated number. */
	if (strlen(buf) >= sizeof(buf) - 1)
		return -ERANGE;
	return parse_u64(buf, val);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

int rdp_sysfs_list(const struct rdp_sysfs *fs,
		   char (*names)[RDP_SYSFS_NAME_MAX], size_t cap, size_t *n_out,
		   const char *fmt, ...)
{
	char path[PATH_MAX];
	struct dirent *de;
	size_t n = 0;
	va_list ap;
	DIR *d;
	int ret;

	va_start(ap, fmt);
	ret = make_path(fs, path, sizeof(path), fmt, ap);
	va_end(ap);
	if (ret)
		return ret;
	d = opendir(path);
	if (!d)
		return -errno;
	while (n < cap && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    strlen(de->d_name) >= RDP_SYSFS_NAME_MAX)
			continue;
		memcpy(names[n++], de->d_name, strlen(de->d_name) + 1);
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), cmp_name);
	*n_out = n;
	return 0;
}

int rdp_sysfs_exists(const struct rdp_sysfs *fs, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = make_path(fs, path, sizeof(path), fmt, ap);
	va_end(ap);
	return !ret && !access(path, F_OK);
}
