/* SPDX-License-Identifier: BSD-2-Clause */
/* --cpu, --numa and --no-pin: where the benchmark runs and allocates. */
#include <stdio.h>
#include <string.h>

#include <rdmaperf/placement.h>

#include "opts_int.h"

/* At most one of them: each setter checks after its own work. */
static int one_only(const struct rdp_place_opts *p, char *err, size_t len)
{
	if (p->no_pin + !!p->cpus[0] + p->have_numa > 1)
		return rdp_cli_bad(err, len,
				   "--cpu, --numa and --no-pin exclude each "
				   "other: give one");
	return 0;
}

int rdp_cli_set_cpu(void *base, const struct rdp_cli_opt *d, const char *arg,
		    char *err, size_t len)
{
	struct rdp_place_opts *p = &((struct rdp_opts *)base)->place;
	cpu_set_t set;

	(void)d;
	if (strlen(arg) >= sizeof(p->cpus) || rdp_cpulist_parse(arg, &set))
		return rdp_cli_bad(err, len,
				   "--cpu needs CPUs like 3 or 0-3,8, not "
				   "'%s'",
				   arg);
	snprintf(p->cpus, sizeof(p->cpus), "%s", arg);
	return one_only(p, err, len);
}

/* After the table stored the node. */
int rdp_cli_set_numa(void *base, const struct rdp_cli_opt *d, const char *arg,
		     char *err, size_t len)
{
	struct rdp_place_opts *p = &((struct rdp_opts *)base)->place;

	(void)d;
	(void)arg;
	p->have_numa = 1;
	return one_only(p, err, len);
}

int rdp_cli_set_no_pin(void *base, const struct rdp_cli_opt *d, const char *arg,
		       char *err, size_t len)
{
	(void)d;
	(void)arg;
	return one_only(&((struct rdp_opts *)base)->place, err, len);
}
