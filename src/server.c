/* SPDX-License-Identifier: BSD-2-Clause */
/* rdmaperf-server: serve clients one after another, each with its own
 * test parameters, until stopped. */
#include <stdio.h>
#include <string.h>

#include <rdmaperf/log.h>
#include <rdmaperf/opts.h>
#include <rdmaperf/secret.h>
#include <rdmaperf/session.h>

int main(int argc, char **argv)
{
	struct rdp_secret *secret;
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
	ret = rdp_secret_new(&secret);
	if (ret) {
		rdp_err("memory for the shared secret: %s", strerror(-ret));
		return RDP_EXIT_FAIL;
	}
	if (rdp_session_load_secret(&o, 0, secret)) {
		rdp_secret_free(secret);
		return RDP_EXIT_USAGE;
	}
	ret = rdp_server_loop(&o, 0);
	rdp_secret_free(secret);
	return ret;
}
