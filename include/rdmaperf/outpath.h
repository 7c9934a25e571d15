/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Output files named on a command line (--json-file, --plot, --metrics),
 * checked when the option is read, so that a run never measures for
 * minutes and then cannot write what it measured.
 * Layer: sys
 */
#ifndef RDMAPERF_OUTPATH_H
#define RDMAPERF_OUTPATH_H

#include <stddef.h>

/* 0 when option's PATH names a file that can be made or replaced: not
 * empty, not ending in '/', not a directory, in a directory that exists;
 * a file that exists and this process can write (/dev/stdout, say), or a
 * directory it can write to make the file in. by_rename: the file is
 * written beside and renamed into place, so the directory must be
 * writable in any case. Else -EINVAL and one line in err naming the
 * option, the path and the fix; example is a file name to offer (e.g.
 * "rdmaperf.json"), full_example a whole path. */
int rdp_out_path_check(const char *option, const char *path,
		       const char *example, const char *full_example,
		       int by_rename, char *err, size_t len);

/* The directory part of path into dir ("." for a bare name, "/" at the
 * root); -ENAMETOOLONG when it does not fit. */
int rdp_out_path_dir(const char *path, char *dir, size_t len);

#endif
