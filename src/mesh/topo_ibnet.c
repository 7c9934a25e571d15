/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ibnetdiscover's output: "Switch" and "Ca" blocks, each a header line
 *   Switch 41 "S-<guid>"  # "<description>" ...
 *   Ca     1  "H-<guid>"  # "<host> <device>"
 * and its port lines "[p](portguid) "<peer id>"[q](portguid) # ...".
 * Switch-to-switch links and node cables come from the switches' port
 * lines; a CA's own lines only have to be well formed.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo_int.h"

struct ca {
	char *id, *host, *dev;
};

struct ibnet {
	struct rdp_mesh_topo *t;
	struct ca *ca;
	size_t n_ca, cap_ca;
	const char *name;
	char *why;
	size_t len;
};

static int fail(struct ibnet *b, unsigned int ln, const char *what)
{
	snprintf(b->why, b->len, "%s:%u: %s", b->name, ln, what);
	return -EINVAL;
}

static const char *skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	return s;
}

/* A quoted string at *s into out (room for len); *s past it. */
static int quoted(const char **s, char *out, size_t len)
{
	const char *p = skip_ws(*s), *e;

	if (*p != '"')
		return -EINVAL;
	e = strchr(p + 1, '"');
	if (!e || (size_t)(e - p - 1) >= len)
		return -EINVAL;
	memcpy(out, p + 1, (size_t)(e - p - 1));
	out[e - p - 1] = '\0';
	*s = e + 1;
	return 0;
}

/* "[n]" at *s, then an optional "(guid)". */
static int port_no(const char **s, unsigned int *out)
{
	const char *p = skip_ws(*s);
	unsigned long v;
	char *end;

	if (*p != '[' || !isdigit((unsigned char)p[1]))
		return -EINVAL;
	v = strtoul(p + 1, &end, 10);
	if (*end != ']' || v > 65535)
		return -EINVAL;
	p = end + 1;
	if (*p == '(') {
		p = strchr(p, ')');
		if (!p)
			return -EINVAL;
		p++;
	}
	*out = (unsigned int)v;
	*s = p;
	return 0;
}

/* A port line: its port, its peer's id and port. */
static int port_line(const char *line, unsigned int *port, char *peer,
		     size_t len, unsigned int *peer_port)
{
	const char *s = line;

	if (port_no(&s, port) || quoted(&s, peer, len) ||
	    port_no(&s, peer_port))
		return -EINVAL;
	return 0;
}

/* A header "Switch 41 "S-..." # "desc"": its kind word, id, desc. */
static int header(const char *line, char *kind, char *id, char *desc,
		  size_t len)
{
	const char *s = line, *hash;
	size_t k = strcspn(s, " \t");

	if (k >= 16)
		return -EINVAL;
	memcpy(kind, s, k);
	kind[k] = '\0';
	s = skip_ws(s + k);
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	while (isdigit((unsigned char)*s))
		s++;
	if (quoted(&s, id, len))
		return -EINVAL;
	desc[0] = '\0';
	hash = strchr(s, '#');
	if (hash && strchr(hash, '"'))
		return quoted(&(const char *){ strchr(hash, '"') }, desc, len);
	return 0;
}

/* A switch's name: "MF0;leaf3:MQM8700/U1" gives leaf3; else the
 * description; else the GUID. Made unique with the GUID. */
static int switch_named(struct ibnet *b, const char *id, const char *desc)
{
	char name[600];
	const char *semi = strchr(desc, ';'), *colon;

	snprintf(name, sizeof(name), "%s", *desc ? desc : id);
	if (semi && (colon = strchr(semi, ':')) && colon > semi + 1)
		snprintf(name, sizeof(name), "%.*s", (int)(colon - semi - 1),
			 semi + 1);
	if (rdp_mesh_topo_find_switch(b->t, name) >= 0) {
		size_t n = strlen(name);

		snprintf(name + n, sizeof(name) - n, "/%s", id);
	}
	return topo_switch(b->t, name, id);
}

static int add_ca(struct ibnet *b, const char *id, const char *desc)
{
	size_t h = strcspn(desc, " \t");
	const char *dev = skip_ws(desc + h);
	struct ca *c;

	if (b->n_ca == b->cap_ca) {
		size_t want = b->cap_ca ? 2 * b->cap_ca : 64;

		c = realloc(b->ca, want * sizeof(*c));
		if (!c)
			return -ENOMEM;
		b->ca = c;
		b->cap_ca = want;
	}
	c = &b->ca[b->n_ca];
	c->id = strdup(id);
	c->host = strndup(desc, h);
	c->dev = strdup(*dev ? dev : id);
	if (!c->id || !c->host || !c->dev) {
		free(c->id);
		free(c->host);
		free(c->dev);
		return -ENOMEM;
	}
	b->n_ca++;
	return 0;
}

static int ca_cmp(const void *x, const void *y)
{
	return strcmp(((const struct ca *)x)->id, ((const struct ca *)y)->id);
}

static const struct ca *find_ca(const struct ibnet *b, const char *id)
{
	struct ca key = { .id = (char *)id };

	return b->n_ca ? bsearch(&key, b->ca, b->n_ca, sizeof(key), ca_cmp)
		       : NULL;
}

static int find_sw(const struct ibnet *b, const char *id)
{
	return topo_switch_by_id(b->t, id);
}

/* Pass one: the blocks' headers. */
static int headers(struct ibnet *b, char *text)
{
	char *save = NULL, *line, kind[16], id[256], desc[256];
	unsigned int ln = 0;
	int ret = 0;

	for (line = text; !ret && line; line = save) {
		save = strchr(line, '\n');
		if (save)
			*save++ = '\0';
		ln++;
		if (strncmp(line, "Switch", 6) && strncmp(line, "Ca", 2) &&
		    strncmp(line, "Rt", 2))
			continue;
		if (header(line, kind, id, desc, sizeof(id)))
			return fail(b, ln,
				    "a block starts 'Switch|Ca N \"ID\" # "
				    "\"DESCRIPTION\"'");
		if (!strcmp(kind, "Switch"))
			ret = switch_named(b, id, desc) < 0 ? -ENOMEM : 0;
		else if (!strcmp(kind, "Ca") && !*desc)
			return fail(b, ln,
				    "a CA's description names its host "
				    "first (\"node17 mlx5_0\")");
		else if (!strcmp(kind, "Ca"))
			ret = add_ca(b, id, desc);
	}
	if (!ret && b->n_ca) /* no CA: no array to sort */
		qsort(b->ca, b->n_ca, sizeof(*b->ca), ca_cmp);
	return ret;
}

/* A switch's port line: a link to a switch (once, from its lower end)
 * or a node's cable. */
static int switch_port(struct ibnet *b, unsigned int sw, const char *line,
		       unsigned int ln)
{
	unsigned int port, peer_port;
	const struct ca *c;
	char peer[256], msg[320];
	int other, h;

	if (port_line(line, &port, peer, sizeof(peer), &peer_port))
		return fail(b, ln,
			    "a port line reads '[P] \"PEER-ID\"[Q] ...'");
	other = find_sw(b, peer);
	if (other >= 0) {
		if ((unsigned int)other > sw ||
		    ((unsigned int)other == sw && peer_port > port))
			return topo_link(b->t, sw, port, (unsigned int)other,
					 peer_port);
		return 0;
	}
	c = find_ca(b, peer);
	if (!c) {
		snprintf(msg, sizeof(msg), "%s is not described in the file",
			 peer);
		return fail(b, ln, msg);
	}
	h = topo_host(b->t, c->host);
	if (h < 0)
		return h;
	return topo_rail(b->t, (unsigned int)h, UINT_MAX, sw, port, c->dev,
			 peer_port);
}

/* Pass two: the port lines, each in its block. */
static int ports(struct ibnet *b, char *text)
{
	char *save = NULL, *line, kind[16], id[256], desc[256];
	unsigned int ln = 0, port, pp;
	int sw = -1, in_block = 0, ret = 0;

	for (line = text; !ret && line; line = save) {
		save = strchr(line, '\n');
		if (save)
			*save++ = '\0';
		ln++;
		if (!header(line, kind, id, desc, sizeof(id))) {
			in_block = 1;
			sw = strcmp(kind, "Switch") ? -1 : find_sw(b, id);
			continue;
		}
		if (*skip_ws(line) != '[') {
			if (!*skip_ws(line))
				in_block = 0;
			continue;
		}
		if (!in_block)
			return fail(b, ln, "a port line outside a block");
		if (sw >= 0)
			ret = switch_port(b, (unsigned int)sw, skip_ws(line),
					  ln);
		else if (port_line(skip_ws(line), &port, id, sizeof(id), &pp))
			return fail(b, ln,
				    "a port line reads '[P] \"PEER-ID\"[Q] "
				    "...'");
	}
	return ret;
}

int topo_parse_ibnet(struct rdp_mesh_topo *t, const char *text,
		     const char *name, char *why, size_t len)
{
	struct ibnet b = { .t = t, .name = name, .why = why, .len = len };
	char *copy = strdup(text);
	size_t i;
	int ret = copy ? headers(&b, copy) : -ENOMEM;

	free(copy);
	copy = ret ? NULL : strdup(text);
	if (!ret)
		ret = copy ? ports(&b, copy) : -ENOMEM;
	free(copy);
	for (i = 0; i < b.n_ca; i++) {
		free(b.ca[i].id);
		free(b.ca[i].host);
		free(b.ca[i].dev);
	}
	free(b.ca);
	if (ret)
		return ret;
	topo_sort_rails(t);
	return topo_finish(t, name, why, len);
}
