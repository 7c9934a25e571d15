/* SPDX-License-Identifier: BSD-2-Clause */
/* CPU lists as sysfs and the command line write them: "0-3,8,10-11". */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdmaperf/placement.h>

/* A decimal CPU number; strtoul() would take signs and blanks. */
static int cpu_num(const char **s, int *out)
{
	long v = 0;

	if (!isdigit((unsigned char)**s))
		return -EINVAL;
	while (isdigit((unsigned char)**s)) {
		v = v * 10 + (**s - '0');
		if (v >= CPU_SETSIZE)
			return -ERANGE;
		(*s)++;
	}
	*out = (int)v;
	return 0;
}

int rdp_cpulist_parse(const char *text, cpu_set_t *set)
{
	const char *s = text;
	cpu_set_t tmp;
	int a, b, ret;

	CPU_ZERO(&tmp);
	if (!*s)
		return -EINVAL;
	for (;;) {
		ret = cpu_num(&s, &a);
		if (ret)
			return ret;
		b = a;
		if (*s == '-') {
			s++;
			ret = cpu_num(&s, &b);
			if (ret)
				return ret;
			if (b < a)
				return -EINVAL;
		}
		for (; a <= b; a++)
			CPU_SET(a, &tmp);
		if (!*s)
			break;
		if (*s++ != ',')
			return -EINVAL;
	}
	*set = tmp;
	return 0;
}

void rdp_cpulist_format(const cpu_set_t *set, char *buf, size_t len)
{
	size_t off = 0;
	int a, b, n;

	if (!len)
		return;
	buf[0] = '\0';
	for (a = 0; a < CPU_SETSIZE; a = b + 1) {
		if (!CPU_ISSET(a, set)) {
			b = a;
			continue;
		}
		for (b = a; b + 1 < CPU_SETSIZE && CPU_ISSET(b + 1, set); b++)
			;
		n = a == b ? snprintf(buf + off, len - off, "%s%d",
				      off ? "," : "", a)
			   : snprintf(buf + off, len - off, "%s%d-%d",
				      off ? "," : "", a, b);
		if (n < 0 || (size_t)n >= len - off) {
			if (len > 4)
				snprintf(buf + len - 4, 4, "...");
			return;
		}
		off += (size_t)n;
	}
}

int rdp_cpulist_first(const cpu_set_t *set)
{
	int i;

	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, set))
			return i;
	return -1;
}
