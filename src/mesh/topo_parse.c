/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The fabric from a file: ibnetdiscover's output (InfiniBand) or the
 * plain list of links (RoCE fabrics, from LLDP). A bad line is one line
 * of error, "FILE:LINE: problem".
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo_int.h"

#define MAX_FILE  (64u << 20)
#define MAX_WORDS 5

/* The text split into lines in place; *line advances past each. */
static char *next_line(char **cur)
{
	char *s = *cur, *e;

	if (!s || !*s)
		return NULL;
	e = strchr(s, '\n');
	if (e) {
		*e = '\0';
		*cur = e + 1;
	} else {
		*cur = s + strlen(s);
	}
	return s;
}

/* Up to MAX_WORDS words of line (cut at '#'); returns how many, or
 * MAX_WORDS + 1 when there are more. */
static int words(char *line, char **w)
{
	char *hash = strchr(line, '#'), *save = NULL, *tok;
	int n = 0;

	if (hash)
		*hash = '\0';
	for (tok = strtok_r(line, " \t\r", &save); tok;
	     tok = strtok_r(NULL, " \t\r", &save)) {
		if (n == MAX_WORDS)
			return MAX_WORDS + 1;
		w[n++] = tok;
	}
	return n;
}

static int number(const char *s, unsigned int max, unsigned int *out)
{
	unsigned long v;
	char *end;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > max)
		return -EINVAL;
	*out = (unsigned int)v;
	return 0;
}

static int bad_line(char *why, size_t len, const char *name, unsigned int ln,
		    const char *what)
{
	snprintf(why, len, "%s:%u: %s", name, ln, what);
	return -EINVAL;
}

/* Pass one of the list: every line well formed; third words are
 * switches. */
static int list_switches(struct rdp_mesh_topo *t, char *text, const char *name,
			 char *why, size_t len)
{
	char *cur = text, *line, *w[MAX_WORDS + 1], msg[160];
	unsigned int ln = 0, v;
	int n;

	while ((line = next_line(&cur))) {
		ln++;
		n = words(line, w);
		if (!n)
			continue;
		if (n != 4) {
			snprintf(msg, sizeof(msg),
				 "want 'NODE RAIL SWITCH PORT' or 'SWITCH "
				 "PORT SWITCH PORT', not %s%d words",
				 n > MAX_WORDS ? "over " : "",
				 n > MAX_WORDS ? MAX_WORDS : n);
			return bad_line(why, len, name, ln, msg);
		}
		if (number(w[1], 65535, &v) || number(w[3], 65535, &v))
			return bad_line(why, len, name, ln,
					"the 2nd and 4th words are numbers "
					"(a rail or port)");
		if (topo_switch(t, w[2], NULL) < 0)
			return -ENOMEM;
	}
	return 0;
}

static int list_line(struct rdp_mesh_topo *t, char **w, const char *name,
		     unsigned int ln, char *why, size_t len)
{
	unsigned int a = 0, b, pa = 0, pb = 0;
	char msg[160];
	int sw = rdp_mesh_topo_find_switch(t, w[2]), h, ret;
	int first = rdp_mesh_topo_find_switch(t, w[0]);

	number(w[1], 65535, &pa);
	number(w[3], 65535, &pb);
	b = (unsigned int)sw;
	if (first >= 0) {
		a = (unsigned int)first;
		if (a == b)
			return bad_line(why, len, name, ln,
					"a switch linked to itself");
		return topo_link(t, a, pa, b, pb);
	}
	if (pa >= 64)
		return bad_line(why, len, name, ln,
				"a rail is a number from 0 to 63");
	h = topo_host(t, w[0]);
	if (h < 0)
		return h;
	ret = topo_rail(t, (unsigned int)h, pa, b, pb, NULL, 1);
	if (ret == -EEXIST) {
		snprintf(msg, sizeof(msg), "%s's rail %u is given twice", w[0],
			 pa);
		return bad_line(why, len, name, ln, msg);
	}
	return ret;
}

int topo_parse_list(struct rdp_mesh_topo *t, const char *text, const char *name,
		    char *why, size_t len)
{
	char *copy = strdup(text), *cur, *line, *w[MAX_WORDS + 1];
	unsigned int ln = 0;
	int ret;

	if (!copy)
		return -ENOMEM;
	ret = list_switches(t, copy, name, why, len);
	free(copy);
	if (ret || !(copy = strdup(text)))
		return ret ? ret : -ENOMEM;
	cur = copy;
	while (!ret && (line = next_line(&cur))) {
		ln++;
		if (words(line, w) == 4)
			ret = list_line(t, w, name, ln, why, len);
	}
	free(copy);
	return ret ? ret : topo_finish(t, name, why, len);
}

static int looks_ibnet(const char *text)
{
	const char *s = text;

	while (s && *s) {
		if ((!strncmp(s, "Switch", 6) &&
		     isspace((unsigned char)s[6])) ||
		    (!strncmp(s, "Ca", 2) && isspace((unsigned char)s[2])) ||
		    !strncmp(s, "switchguid=", 11) || !strncmp(s, "caguid=", 7))
			return 1;
		s = strchr(s, '\n');
		if (s)
			s++;
	}
	return 0;
}

int rdp_mesh_topo_parse(const char *text, const char *name,
			struct rdp_mesh_topo **out, char *why, size_t len)
{
	struct rdp_mesh_topo *t;
	int ret = topo_new(&t);

	if (ret)
		return ret;
	if (looks_ibnet(text))
		ret = topo_parse_ibnet(t, text, name, why, len);
	else
		ret = topo_parse_list(t, text, name, why, len);
	if (ret == -ENOMEM)
		snprintf(why, len, "%s: out of memory", name);
	if (ret) {
		rdp_mesh_topo_free(t);
		return ret;
	}
	*out = t;
	return 0;
}

/* The whole file, NUL-terminated, into *text. */
static int slurp(const char *path, char **text, char *why, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t n = 0, got;
	char *buf = NULL, *p;
	int ret = 0;

	if (!f) {
		ret = -errno;
		snprintf(why, len, "%s: %s", path, strerror(-ret));
		return ret;
	}
	do {
		p = realloc(buf, n + 65536 + 1);
		if (!p) {
			ret = -ENOMEM;
			break;
		}
		buf = p;
		got = fread(buf + n, 1, 65536, f);
		n += got;
	} while (got && n <= MAX_FILE);
	if (!ret && (ferror(f) || n > MAX_FILE))
		ret = ferror(f) ? -EIO : -EFBIG;
	fclose(f);
	if (ret) {
		free(buf);
		snprintf(why, len, "%s: %s", path,
			 ret == -EFBIG ? "over 64 MiB" : strerror(-ret));
		return ret;
	}
	buf[n] = '\0';
	*text = buf;
	return 0;
}

int rdp_mesh_topo_load(const char *path, struct rdp_mesh_topo **out, char *why,
		       size_t len)
{
	char *text = NULL;
	int ret = slurp(path, &text, why, len);

	if (ret)
		return ret;
	ret = rdp_mesh_topo_parse(text, path, out, why, len);
	free(text);
	return ret;
}
