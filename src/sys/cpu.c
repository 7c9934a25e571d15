/* SPDX-License-Identifier: BSD-2-Clause */
/* What CPU a host has, for the report: the model from /proc/cpuinfo. */
#include <stdio.h>
#include <string.h>

#include <rdmaperf/sysfs.h>

void rdp_cpu_model(const struct rdp_sysfs *fs, char *buf, size_t len)
{
	char info[4096], *line, *colon, *save = NULL;

	snprintf(buf, len, "unknown CPU");
	/* The first processor's block is within the first page. */
	if (rdp_sysfs_read(fs, info, sizeof(info), "/proc/cpuinfo"))
		return;
	for (line = strtok_r(info, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "model name", 10))
			continue;
		colon = strchr(line, ':');
		if (!colon)
			return;
		colon++;
		colon += strspn(colon, " \t");
		if (*colon)
			snprintf(buf, len, "%s", colon);
		return;
	}
}
