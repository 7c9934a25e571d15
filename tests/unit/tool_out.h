/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A subcommand of rdmaperf run in process with its stdout in a file:
 * TOOL_OUT("mesh", out, "--plan", "5") returns the exit code and leaves
 * what it printed in out (an array, cut to fit).
 */
#ifndef RDMAPERF_TESTS_TOOL_OUT_H
#define RDMAPERF_TESTS_TOOL_OUT_H

#include <stdlib.h>
#include <unistd.h>

#include "unit.h"

#include <rdmaperf/tool.h>

static inline int tool_out(const char *name, int argc, char **argv, char *out,
			   size_t cap)
{
	char path[] = "/tmp/rdp_tool_outXXXXXX";
	int fd = mkstemp(path), saved, rc;
	ssize_t got;

	assert_true(fd >= 0);
	fflush(stdout);
	saved = dup(1);
	assert_true(saved >= 0 && dup2(fd, 1) == 1);
	rc = rdp_tool_find(name)->main(argc, argv);
	fflush(stdout);
	assert_int_equal(dup2(saved, 1), 1);
	close(saved);
	got = pread(fd, out, cap - 1, 0);
	out[got > 0 ? got : 0] = '\0';
	close(fd);
	unlink(path);
	return rc;
}

#define TOOL_OUT(name, out, ...)                                               \
	tool_out(name, ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), out, sizeof(out))

#endif /* RDMAPERF_TESTS_TOOL_OUT_H */
