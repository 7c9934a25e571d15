/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target for the command lines: the input, split at NUL bytes,
 * is an argument vector for rdmaperf and for rdmaperf-server. Properties:
 * no crash or sanitizer report; a rejection always comes with a message.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdmaperf/opts.h>

#define MAX_ARGS 32

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* --help and --version print; keep the fuzzer's output readable. */
	if (!freopen("/dev/null", "w", stdout))
		abort();
	return 0;
}

static void check(int ret, const char *err)
{
	if (ret < 0 && !err[0])
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *argv[MAX_ARGS + 2];
	struct rdp_opts o;
	char err[256];
	int argc = 1;
	size_t i;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[0] = (char *)"rdmaperf";
	argv[argc++] = buf;
	for (i = 0; i < size && argc <= MAX_ARGS; i++)
		if (buf[i] == '\0')
			argv[argc++] = buf + i + 1;
	argv[argc] = NULL;
	err[0] = '\0';
	check(rdp_opts_parse_client(argc, argv, &o, err, sizeof(err)), err);
	err[0] = '\0';
	check(rdp_opts_parse_server(argc, argv, &o, err, sizeof(err)), err);
	free(buf);
	return 0;
}
