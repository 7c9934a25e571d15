/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The doctor's idle-state line: a CPU that sleeps in a deep C-state between
 * completions pays the wake-up on the next one, which shows as latency and
 * jitter. Read from cpuidle in sysfs for the CPU near the NIC.
 */
#include <stdio.h>
#include <string.h>

#include <rdmaperf/placement.h>
#include <rdmaperf/sysfs.h>

#include "doctor_checks.h"

/* Above this exit latency a state is deep: C1 and C1E stay below it,
 * C6 and package states are far above. */
#define DEEP_US	   10
#define MAX_STATES 16
#define CPUIDLE	   "/sys/devices/system/cpu/cpu%d/cpuidle"

struct idle_scan {
	char deep[128]; /* "C6 (133 us), C6P (170 us)" */
	uint64_t worst_us;
	char shallow[32]; /* the deepest enabled state at or below DEEP_US */
	uint64_t shallow_us;
	size_t n_read;
};

static void scan_state(const struct rdp_sysfs *fs, int cpu, const char *st,
		       struct idle_scan *s)
{
	uint64_t lat, off = 0;
	char name[32];
	size_t used;

	if (rdp_sysfs_read(fs, name, sizeof(name), CPUIDLE "/%s/name", cpu,
			   st) ||
	    rdp_sysfs_read_u64(fs, &lat, CPUIDLE "/%s/latency", cpu, st))
		return;
	s->n_read++;
	/* Kernels before 3.x have no disable file: enabled. */
	rdp_sysfs_read_u64(fs, &off, CPUIDLE "/%s/disable", cpu, st);
	if (off)
		return;
	if (lat <= DEEP_US) {
		if (!s->shallow[0] || lat >= s->shallow_us) {
			snprintf(s->shallow, sizeof(s->shallow), "%s", name);
			s->shallow_us = lat;
		}
		return;
	}
	used = strlen(s->deep);
	snprintf(s->deep + used, sizeof(s->deep) - used, "%s%s (%llu us)",
		 used ? ", " : "", name, (unsigned long long)lat);
	if (lat > s->worst_us)
		s->worst_us = lat;
}

static void say_cstates(struct rdp_check *c, const struct idle_scan *s, int cpu)
{
	if (c->verdict == RDP_PASS) {
		rdp_doctor_say(c->value, sizeof(c->value),
			       "CPU %d: deepest enabled %s (%llu us)", cpu,
			       s->shallow[0] ? s->shallow : "none",
			       (unsigned long long)s->shallow_us);
		return;
	}
	rdp_doctor_say(c->value, sizeof(c->value),
		       "CPU %d: deep states enabled: %s", cpu, s->deep);
	rdp_doctor_say(c->fix, sizeof(c->fix),
		       "waking from them adds up to %llu us to a latency and "
		       "makes it vary: disable them while measuring "
		       "(cpupower idle-set -D %d), or boot with "
		       "intel_idle.max_cstate=1 processor.max_cstate=1",
		       (unsigned long long)s->worst_us, DEEP_US);
}

void rdp_doctor_check_cstates(const struct rdp_sysfs *fs,
			      struct rdp_doctor *doc)
{
	char names[MAX_STATES][RDP_SYSFS_NAME_MAX];
	struct idle_scan s = { 0 };
	struct rdp_check *c;
	size_t n = 0, i;
	cpu_set_t set;
	int cpu = 0;

	if (doc->local_cpus[0] && !rdp_cpulist_parse(doc->local_cpus, &set))
		cpu = rdp_cpulist_first(&set);
	if (!rdp_sysfs_list(fs, names, MAX_STATES, &n, CPUIDLE, cpu))
		for (i = 0; i < n; i++)
			if (!strncmp(names[i], "state", 5))
				scan_state(fs, cpu, names[i], &s);
	if (!s.n_read) {
		c = rdp_doctor_add(doc, "cstates", "C-states", RDP_SKIP);
		if (c)
			rdp_doctor_say(
				c->value, sizeof(c->value),
				"no cpuidle states for CPU %d (idle left "
				"to the firmware or the hypervisor)",
				cpu);
		return;
	}
	c = rdp_doctor_add(doc, "cstates", "C-states",
			   s.deep[0] ? RDP_WARN : RDP_PASS);
	if (c)
		say_cstates(c, &s, cpu);
}
