/* SPDX-License-Identifier: BSD-2-Clause */
/* Diagnostics on stderr, prefixed with the program name. */
#include <errno.h>
#include <stdio.h>

#include <rdmaperf/log.h>

static __thread char last_error[256];

static void vlog(const char *level, const char *fmt, va_list ap)
{
	char line[1024];

	vsnprintf(line, sizeof(line), fmt, ap);
	if (level[0] == 'e')
		snprintf(last_error, sizeof(last_error), "%.*s",
			 (int)sizeof(last_error) - 1, line);
	fprintf(stderr, "%s: %s%s\n", program_invocation_short_name, level,
		line);
}

void rdp_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog("error: ", fmt, ap);
	va_end(ap);
}

void rdp_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog("warning: ", fmt, ap);
	va_end(ap);
}

void rdp_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog("", fmt, ap);
	va_end(ap);
}

void rdp_errbuf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	rdp_err("%s", buf);
}

const char *rdp_escape(const void *buf, size_t len, char *out, size_t outlen)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = buf;
	size_t i, o = 0;

	if (!outlen)
		return out;
	for (i = 0; i < len; i++) {
		int plain = p[i] >= 0x20 && p[i] <= 0x7e && p[i] != '\\';

		if (o + (plain ? 1 : 4) >= outlen)
			break;
		if (plain) {
			out[o++] = (char)p[i];
			continue;
		}
		out[o++] = '\\';
		out[o++] = 'x';
		out[o++] = hex[p[i] >> 4];
		out[o++] = hex[p[i] & 0xf];
	}
	out[o] = '\0';
	return out;
}

const char *rdp_last_error(void)
{
	return last_error;
}

void rdp_clear_error(void)
{
	last_error[0] = '\0';
}
