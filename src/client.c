/* SPDX-License-Identifier: BSD-2-Clause */
/* rdmaperf: run a test against a server, or serve one client (no HOST). */
#include <stdio.h>

#include <rdmaperf/log.h>
#include <rdmaperf/opts.h>
#include <rdmaperf/session.h>

int main(int argc, char **argv)
{
	struct rdp_opts o;
	char err[256];
	int ret;

	ret = rdp_opts_parse_client(argc, argv, &o, err, sizeof(err));
	if (ret < 0) {
		rdp_err("%s", err);
		return RDP_EXIT_USAGE;
	}
	if (ret == RDP_PARSE_EXIT)
		return RDP_EXIT_OK;
	if (!o.conn.host[0])
		return rdp_server_loop(&o, 1);
	return rdp_session_client(&o);
}
