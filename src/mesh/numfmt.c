/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Figures as text for files of millions of cells: "%.3f" and jansson's
 * "%.10g" reals, the same characters printf writes, without printf's
 * arbitrary-precision path for every value. A value the fast path
 * cannot round with certainty (within a millionth of a half, or out of
 * range) goes to snprintf.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mesh_int.h"

/* The digits of u into buf, most significant first; returns how many. */
static size_t digits(char *buf, uint64_t u)
{
	char tmp[24];
	size_t n = 0, i;

	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	for (i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	return n;
}

/*
 * a x scale rounded half to even as printf rounds the exact value: -1
 * when the product is too close to a half to tell (its own rounding
 * error is far below the margin for a x scale < 2^34).
 */
static int64_t scaled(double a, double scale)
{
	double r = a * scale, t = floor(r), frac = r - t;

	if (fabs(frac - 0.5) < 1e-5)
		return -1;
	return (int64_t)t + (frac > 0.5);
}

size_t rdp_mesh_fmt_fixed3(char *buf, size_t len, double v)
{
	double a = fabs(v);
	int64_t i;
	size_t n = 0;

	if (len < 32 || !(a < 1e6) || (i = scaled(a, 1000)) < 0)
		return (size_t)snprintf(buf, len, "%.3f", v);
	if (signbit(v))
		buf[n++] = '-';
	n += digits(buf + n, (uint64_t)i / 1000);
	buf[n++] = '.';
	buf[n++] = (char)('0' + i / 100 % 10);
	buf[n++] = (char)('0' + i / 10 % 10);
	buf[n++] = (char)('0' + i % 10);
	buf[n] = '\0';
	return n;
}

/* jansson's touches on "%.10g": ".0" on a whole number, no '+' and no
 * leading zeros in an exponent. */
static size_t jansson_real(char *buf, size_t n)
{
	char *e = strchr(buf, 'e'), *d;

	if (!e && !strchr(buf, '.')) {
		memcpy(buf + n, ".0", 3);
		return n + 2;
	}
	if (!e)
		return n;
	e += e[1] == '-' ? 2 : 1;
	d = *e == '+' ? e + 1 : e;
	while (*d == '0' && d[1])
		d++;
	memmove(e, d, strlen(d) + 1);
	return strlen(buf);
}

size_t rdp_mesh_fmt_real10(char *buf, size_t len, double v)
{
	static const double pow10[] = { 1e0, 1e1, 1e2, 1e3, 1e4,
					1e5, 1e6, 1e7, 1e8, 1e9 };
	double a = fabs(v);
	unsigned int whole = 1; /* digits before the point */
	char d[24];
	size_t n = 0, k, nd;
	int64_t i = -1;

	if (len < 40)
		return 0;
	while (whole < 9 && a >= pow10[whole])
		whole++;
	if (a >= 1 && a < 1e9)
		i = scaled(a, pow10[10 - whole]);
	if (i >= 10000000000LL) { /* rounded up to the next power of 10 */
		i /= 10;
		whole++;
	}
	if (i < 0 || whole >= 10)
		return jansson_real(buf,
				    (size_t)snprintf(buf, len, "%.10g", v));
	nd = digits(d, (uint64_t)i);
	while (nd > whole && d[nd - 1] == '0')
		nd--;
	if (signbit(v))
		buf[n++] = '-';
	for (k = 0; k < nd; k++) {
		if (k == whole)
			buf[n++] = '.';
		buf[n++] = d[k];
	}
	buf[n] = '\0';
	return jansson_real(buf, n);
}
