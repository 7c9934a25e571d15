/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A command line from its arguments, for the parsers:
 * CLIENT(&o, err, "-s", "64", "host"). Apart from unit.h so that a test
 * whose headers meet doctor.h's names can take these alone.
 */
#ifndef RDP_TEST_ARGV_H
#define RDP_TEST_ARGV_H

#include <rdmaperf/opts.h>

#define ARGV(...) ((char **)(const char *[]){ "rdmaperf", __VA_ARGS__, NULL })
#define ARGC(...)                                                              \
	((int)(sizeof((const char *[]){ __VA_ARGS__ }) / sizeof(char *)) + 1)
#define CLIENT(o, err, ...)                                                    \
	rdp_opts_parse_client(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), (o), err,  \
			      sizeof(err))
#define SERVER(o, err, ...)                                                    \
	rdp_opts_parse_server(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), (o), err,  \
			      sizeof(err))

#endif /* RDP_TEST_ARGV_H */
