/* SPDX-License-Identifier: BSD-2-Clause */
/* rdmaperf-server: serve clients one after another, each with its own
 * test parameters, until stopped. */
#include <stdio.h>

#include <rdmaperf/log.h>
#include <rdmaperf/opts.h>
#include <rdmaperf/session.h>

int main(int argc, char **argv)
{
	struct rdp_opts o;
	char err[256];
	int ret;

	ret = rdp_opts_parse_server(argc, argv, &o, err, sizeof(err));
	if (ret < 0) {
		rdp_err("%s", err);
		return RDP_EXIT_USAGE;
	}
	if (ret == RDP_PARSE_EXIT)
		return RDP_EXIT_OK;
	return rdp_server_loop(&o, 0);
}
