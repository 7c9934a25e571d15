/* SPDX-License-Identifier: BSD-2-Clause */
/* Output files checked when their option is read. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rdmaperf/outpath.h>

int rdp_out_path_dir(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return snprintf(dir, len, ".") >= (int)len ? -ENAMETOOLONG : 0;
	if (slash == path)
		return snprintf(dir, len, "/") >= (int)len ? -ENAMETOOLONG : 0;
	if ((size_t)(slash - path) >= len)
		return -ENAMETOOLONG;
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	return 0;
}

int rdp_out_path_check(const char *option, const char *path,
		       const char *example, const char *full_example,
		       int by_rename, char *err, size_t len)
{
	char dir[PATH_MAX];
	struct stat st;

	if (!*path || rdp_out_path_dir(path, dir, sizeof(dir)) ||
	    path[strlen(path) - 1] == '/') {
		snprintf(err, len, "%s needs a file name, e.g. %s", option,
			 full_example);
		return -EINVAL;
	}
	if (!stat(path, &st)) {
		if (S_ISDIR(st.st_mode)) {
			snprintf(err, len,
				 "%s %s is a directory: name a file in it, "
				 "e.g. %s/%s",
				 option, path, path, example);
			return -EINVAL;
		}
		if (!by_rename && access(path, W_OK)) {
			snprintf(err, len,
				 "%s %s: cannot write the file: name one you "
				 "can write",
				 option, path);
			return -EINVAL;
		}
		if (!by_rename)
			return 0;
	}
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(err, len,
			 "%s %s: no directory %s: create it or name a file in "
			 "one that exists",
			 option, path, dir);
		return -EINVAL;
	}
	if (access(dir, W_OK | X_OK)) {
		snprintf(
			err, len,
			"%s %s: cannot write in %s: name a file in a directory "
			"you can write",
			option, path, dir);
		return -EINVAL;
	}
	return 0;
}
