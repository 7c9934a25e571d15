/* SPDX-License-Identifier: BSD-2-Clause */
/* --metrics FILE: checked when given, so a run never ends unable to write
 * what it measured. */
#include <stdio.h>

#include "opts_int.h"
#include <rdmaperf/metrics.h>

int rdp_cli_set_metrics(void *base, const struct rdp_cli_opt *d,
			const char *arg, char *err, size_t len)
{
	struct rdp_report_opts *r = &((struct rdp_opts *)base)->report;
	int ret;

	(void)d;
	ret = rdp_metrics_check_path(arg, err, len);
	if (!ret)
		ret = rdp_cli_file_name(r->metrics_file,
					sizeof(r->metrics_file), arg,
					"--metrics needs a file name", err,
					len);
	return ret;
}
