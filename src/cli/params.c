/* SPDX-License-Identifier: BSD-2-Clause */
/* The test parameters a fresh client starts from: the option table's
 * defaults. */
#include <string.h>

#include <rdmaperf/opts.h>
#include <rdmaperf/params.h>

void rdp_params_defaults(struct rdp_params *p)
{
	static struct rdp_opts o; /* large: kept off the stack */

	memset(&o, 0, sizeof(o));
	rdp_cli_defaults(&rdp_cli_client, &o);
	*p = o.params;
}
