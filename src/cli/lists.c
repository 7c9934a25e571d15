/* SPDX-License-Identifier: BSD-2-Clause */
/* Value lists for sweeps: "64,4K,64K", "2:8M:x2" (geometric) and
 * "1:16:+4" (arithmetic). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rdmaperf/opts.h>

static int one_value(const char *s, int sizes, uint64_t min, uint64_t max,
		     uint64_t *v)
{
	int ret = sizes ? rdp_parse_size(s, v) : rdp_parse_uint(s, 0, ~0ull, v);

	if (ret)
		return ret;
	return *v < min || *v > max ? -ERANGE : 0;
}

static int push(uint64_t v, uint64_t *out, size_t cap, size_t *n)
{
	if (*n >= cap)
		return -E2BIG;
	out[(*n)++] = v;
	return 0;
}

/* FIRST:LAST:xFACTOR or FIRST:LAST:+STEP, FIRST <= LAST, a factor from 2
 * and a step from 1 (anything less never reaches LAST). */
static int range(char *spec, int sizes, uint64_t min, uint64_t max,
		 uint64_t *out, size_t cap, size_t *n)
{
	char *last = strchr(spec, ':'), *step;
	uint64_t a, b, k, v;
	int ret, mul;

	*last++ = '\0';
	step = strchr(last, ':');
	if (!step)
		return -EINVAL;
	*step++ = '\0';
	mul = *step == 'x';
	if (!mul && *step != '+')
		return -EINVAL;
	ret = one_value(spec, sizes, min, max, &a);
	if (!ret)
		ret = one_value(last, sizes, min, max, &b);
	if (!ret)
		ret = rdp_parse_uint(step + 1, 0, 1u << 30, &k);
	if (ret)
		return ret;
	if (k < (mul ? 2u : 1u))
		return RDP_LIST_STILL;
	if (a > b)
		return RDP_LIST_BACKWARDS;
	for (v = a; v <= b; v = mul ? v * k : v + k) {
		ret = push(v, out, cap, n);
		if (ret)
			return ret;
		if (mul ? v > b / k : v > b - k)
			break;
	}
	return 0;
}

int rdp_parse_list(const char *s, int sizes, uint64_t min, uint64_t max,
		   uint64_t *out, size_t cap, size_t *n_out)
{
	char *copy, *item, *save = NULL;
	size_t n = 0;
	uint64_t v;
	int ret = 0;

	if (!s || !*s)
		return -EINVAL;
	copy = strdup(s);
	if (!copy)
		return -ENOMEM;
	for (item = strtok_r(copy, ",", &save); item && !ret;
	     item = strtok_r(NULL, ",", &save)) {
		if (strchr(item, ':')) {
			ret = range(item, sizes, min, max, out, cap, &n);
			continue;
		}
		ret = one_value(item, sizes, min, max, &v);
		if (!ret)
			ret = push(v, out, cap, &n);
	}
	/* strtok_r skips empty items: "64,,128" and "64," are typos. */
	if (!ret && (strstr(s, ",,") || s[0] == ',' || s[strlen(s) - 1] == ','))
		ret = -EINVAL;
	free(copy);
	if (!ret)
		*n_out = n;
	return ret;
}
