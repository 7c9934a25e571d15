/* SPDX-License-Identifier: BSD-2-Clause */
/* rdmaperf: run a test against a server, serve one client (no HOST), or
 * run a subcommand (doctor, compare, ...). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdmaperf/engine_ops.h>
#include <rdmaperf/log.h>
#include <rdmaperf/opts.h>
#include <rdmaperf/rails.h>
#include <rdmaperf/secret.h>
#include <rdmaperf/session.h>
#include <rdmaperf/tool.h>

/* A secret in the environment is not silently dropped under --perftest. */
static void warn_unused_secret(void)
{
	const char *env = getenv("RDMAPERF_AUTH_FILE");

	if (env && env[0])
		rdp_warn("RDMAPERF_AUTH_FILE is set but not used: perftest's "
			 "programs cannot authenticate, so --perftest runs "
			 "without the shared secret");
}

/* rdmaperf --help: the tests, then the subcommands, which the option
 * parser below cannot reach by itself. */
static void client_help(FILE *f)
{
	rdp_cli_client_help(f);
	rdp_tool_help(f);
}

int main(int argc, char **argv)
{
	struct rdp_cli_table table = rdp_cli_client;
	const struct rdp_tool *tool;
	struct rdp_secret *secret = NULL;
	struct rdp_opts o;
	char err[256];
	int ret;

	tool = argc > 1 ? rdp_tool_find(argv[1]) : NULL;
	if (tool)
		return tool->main(argc - 1, argv + 1);
	table.more_help = client_help;
	ret = rdp_opts_parse_client_table(&table, argc, argv, &o, err,
					  sizeof(err));
	if (ret < 0) {
		rdp_err("%s", err);
		return RDP_EXIT_USAGE;
	}
	if (ret == RDP_PARSE_EXIT)
		return RDP_EXIT_OK;
	/* perftest's programs cannot authenticate: no secret for them
	 * (--auth-file with --perftest is refused by the parser) */
	if (o.conn.perftest) {
		warn_unused_secret();
		if (!o.conn.host[0])
			return rdp_session_perftest(&o, &rdp_engine_verbs);
	} else {
		ret = rdp_secret_new(&secret);
		if (ret) {
			rdp_err("memory for the shared secret: %s",
				strerror(-ret));
			return RDP_EXIT_FAIL;
		}
		if (rdp_session_load_secret(&o, !!o.conn.host[0], secret)) {
			rdp_secret_free(secret);
			return RDP_EXIT_USAGE;
		}
	}
	if (!o.conn.host[0])
		ret = rdp_server_loop(&o, 1);
	else if (rdp_rails_wanted(&o))
		ret = rdp_rails_run(argc, argv, &o);
	else
		ret = rdp_session_client(&o);
	rdp_secret_free(secret);
	return ret;
}
