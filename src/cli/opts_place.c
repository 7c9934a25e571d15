/* SPDX-License-Identifier: BSD-2-Clause */
/* --cpu, --numa and --no-pin: where the benchmark runs and allocates. */
#include <stdio.h>
#include <string.h>

#include <rdmaperf/placement.h>

#include "opts_int.h"

int rdp_cli_apply_place(struct rdp_opts *o, int id, const char *arg, char *err,
			size_t len)
{
	struct rdp_place_opts *p = &o->place;
	cpu_set_t set;
	uint64_t v = 0;
	int ret;

	switch (id) {
	case OPT_CPU:
		if (strlen(arg) >= sizeof(p->cpus) ||
		    rdp_cpulist_parse(arg, &set))
			return rdp_cli_bad(err, len,
					   "--cpu needs CPUs like 3 or "
					   "0-3,8, not '%s'",
					   arg);
		snprintf(p->cpus, sizeof(p->cpus), "%s", arg);
		break;
	case OPT_NUMA:
		ret = rdp_cli_num("--numa", arg, 0, 1023, &v, err, len);
		if (ret)
			return ret;
		p->have_numa = 1;
		p->numa_node = (int)v;
		break;
	case OPT_NO_PIN:
		p->no_pin = 1;
		break;
	default:
		return 1;
	}
	if (p->no_pin + !!p->cpus[0] + p->have_numa > 1)
		return rdp_cli_bad(err, len,
				   "--cpu, --numa and --no-pin exclude each "
				   "other: give one");
	return 0;
}
