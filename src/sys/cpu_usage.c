/* SPDX-License-Identifier: BSD-2-Clause */
/* CPU time over a region: the process from getrusage, the host from
 * /proc/stat. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>

#include <rdmaperf/cpu_usage.h>

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ull +
	       (uint64_t)tv->tv_usec * 1000ull;
}

int rdp_cpu_parse_stat(const char *text, uint64_t *busy, uint64_t *total)
{
	/* user nice system idle iowait irq softirq steal (guest* are in
	 * user and nice already) */
	unsigned long long v[8] = { 0 };
	int n;

	if (strncmp(text, "cpu ", 4))
		return -EINVAL;
	n = sscanf(text + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
		   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
	if (n < 4)
		return -EINVAL;
	*total = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
	*busy = *total - v[3] - v[4];
	return 0;
}

void rdp_cpu_snap(const struct rdp_sysfs *fs, struct rdp_cpu_snap *s)
{
	struct rusage ru;
	struct timespec ts;
	char text[512];

	memset(s, 0, sizeof(*s));
	if (!clock_gettime(CLOCK_MONOTONIC, &ts))
		s->wall_ns = (uint64_t)ts.tv_sec * 1000000000ull +
			     (uint64_t)ts.tv_nsec;
	if (!getrusage(RUSAGE_SELF, &ru)) {
		s->user_ns = tv_ns(&ru.ru_utime);
		s->sys_ns = tv_ns(&ru.ru_stime);
	}
	/* The first line is the sum over all CPUs. */
	s->have_host = !rdp_sysfs_read(fs, text, sizeof(text), "/proc/stat") &&
		       !rdp_cpu_parse_stat(text, &s->host_busy, &s->host_total);
}

void rdp_cpu_usage(const struct rdp_cpu_snap *before,
		   const struct rdp_cpu_snap *after, struct rdp_cpu_usage *out)
{
	uint64_t total = after->host_total - before->host_total;

	out->wall_ns = after->wall_ns - before->wall_ns;
	out->user_ns = after->user_ns - before->user_ns;
	out->sys_ns = after->sys_ns - before->sys_ns;
	out->host_busy_pct = -1;
	if (before->have_host && after->have_host && total)
		out->host_busy_pct =
			100.0 * (double)(after->host_busy - before->host_busy) /
			(double)total;
}
