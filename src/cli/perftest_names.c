/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perftest's option names that a wrapper may pass: those that mean what an
 * rdmaperf option means, and those that stay refused with the reason and
 * what to use instead.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "opts_int.h"

/* Where perftest writes --out_json when no --out_json_file names a file. */
#define PERFTEST_JSON_FILE "perftest_out.json"

int rdp_cli_set_out_json(void *base, const struct rdp_cli_opt *d,
			 const char *arg, char *err, size_t len)
{
	struct rdp_report_opts *r = &((struct rdp_opts *)base)->report;

	(void)d;
	(void)arg;
	(void)err;
	(void)len;
	if (!r->json_file[0])
		snprintf(r->json_file, sizeof(r->json_file), "%s",
			 PERFTEST_JSON_FILE);
	return 0;
}

int rdp_cli_set_connection(void *base, const struct rdp_cli_opt *d,
			   const char *arg, char *err, size_t len)
{
	struct rdp_params *p = &((struct rdp_opts *)base)->params;
	const struct rdp_transport *t = rdp_transport_by_name(arg);
	char names[64];

	(void)d;
	if (t) {
		p->transport = t->id;
		return 0;
	}
	rdp_transport_list(NULL, " and ", names, sizeof(names));
	if (!strcasecmp(arg, "DC") || !strcasecmp(arg, "SRD"))
		return rdp_cli_bad(
			err, len,
			"-c %s: rdmaperf runs %s QPs; %s (a vendor's "
			"own transport) is not built in: use -c RC",
			arg, names, arg);
	return rdp_cli_bad(err, len,
			   "-c %s: unknown transport: give RC (reliable "
			   "connected), UC (unreliable connected) or UD "
			   "(unreliable datagram)",
			   arg);
}

int rdp_cli_set_perftest_block(void *base, const struct rdp_cli_opt *d,
			       const char *arg, char *err, size_t len)
{
	struct rdp_conn_opts *c = &((struct rdp_opts *)base)->conn;

	(void)d;
	if (strcmp(arg, "312") && strcmp(arg, "320"))
		return rdp_cli_bad(err, len,
				   "--perftest-block needs 312 (perftest built "
				   "without mlx5dv) or 320 (with it), not '%s'",
				   arg);
	c->perftest_block = (uint32_t)atoi(arg);
	return 0;
}

int rdp_cli_set_nothing(void *base, const struct rdp_cli_opt *d,
			const char *arg, char *err, size_t len)
{
	(void)base;
	(void)d;
	(void)arg;
	(void)err;
	(void)len;
	return 0;
}

int rdp_cli_refuse(void *base, const struct rdp_cli_opt *d, const char *arg,
		   char *err, size_t len)
{
	(void)base;
	(void)arg;
	return rdp_cli_bad(err, len, "--%s: %s", d->name, d->say);
}

/* perftest's name for a row that only has a setter (--use_cuda): that row
 * does the work, so its checks and errors are the same. */
int rdp_cli_set_alias(void *base, const struct rdp_cli_opt *d, const char *arg,
		      char *err, size_t len)
{
	size_t i;

	for (i = 0; i < rdp_cli_n_opts; i++) {
		const struct rdp_cli_opt *to = &rdp_cli_opts[i];

		if (to != d && to->set && !strcmp(to->name, d->say))
			return to->set(base, to, arg, err, len);
	}
	return rdp_cli_bad(err, len, "--%s: no option --%s to stand for",
			   d->name, d->say);
}
