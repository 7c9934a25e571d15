/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --resume: the journal of a mesh whose job died read back (its
 * finished rounds, a half-written last line dropped), checked against
 * this run's plan and record, and its cells turned back into the store's.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include <rdmaperf/boot.h>
#include <rdmaperf/log.h>
#include <rdmaperf/mesh_run.h>

#include "mesh_int.h"

static int bad(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int bad(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

void rdp_mesh_journal_free(struct rdp_mesh_journal *j)
{
	size_t i;

	for (i = 0; i < j->n; i++)
		json_decref(j->lines[i]);
	free(j->lines);
	j->lines = NULL;
	j->n = 0;
	j->good_bytes = 0;
}

static int keep_line(struct rdp_mesh_journal *j, json_t *o)
{
	json_t **v = realloc(j->lines, (j->n + 1) * sizeof(*v));

	if (!v) {
		json_decref(o);
		return -ENOMEM;
	}
	j->lines = v;
	j->lines[j->n++] = o;
	return 0;
}

/*
 * One line (len bytes, its newline included when it has one) of the
 * journal; last: nothing follows it. 1 to keep reading, 0 to stop here
 * (the line dropped), or -errno.
 */
static int journal_line(struct rdp_mesh_journal *j, const char *line,
			size_t len, int last, size_t plan_rounds, char *why,
			size_t wlen)
{
	int whole = len && line[len - 1] == '\n';
	json_t *o, *round;
	json_error_t err;

	o = whole ? json_loadb(line, len - 1, 0, &err) : NULL;
	if (!o && (last || !whole))
		return 0; /* the line a killed job left half written */
	if (!o || !json_is_object(o)) {
		json_decref(o);
		return bad(why, wlen, "rounds.jsonl line %zu is not a round",
			   j->n + 1);
	}
	if (json_is_true(json_object_get(o, "retest"))) {
		json_decref(o);
		return 0; /* chosen again once the plan is done */
	}
	round = json_object_get(o, "round");
	if (!json_is_integer(round) ||
	    json_integer_value(round) != (json_int_t)j->n + 1 ||
	    j->n >= plan_rounds) {
		json_decref(o);
		return bad(why, wlen,
			   "rounds.jsonl line %zu is not round %zu of %zu",
			   j->n + 1, j->n + 1, plan_rounds);
	}
	return keep_line(j, o) ? -ENOMEM : 1;
}

int rdp_mesh_journal_read(FILE *f, size_t plan_rounds,
			  struct rdp_mesh_journal *j, char *why, size_t len)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;
	long at = 0;
	int ret = 1, c;

	memset(j, 0, sizeof(*j));
	while (ret > 0 && (got = getline(&line, &cap, f)) > 0) {
		c = fgetc(f);
		if (c != EOF)
			ungetc(c, f);
		ret = journal_line(j, line, (size_t)got, c == EOF, plan_rounds,
				   why, len);
		if (ret > 0)
			at += (long)got;
	}
	free(line);
	if (ret < 0) {
		rdp_mesh_journal_free(j);
		if (ret == -ENOMEM)
			snprintf(why, len, "out of memory");
		return ret;
	}
	j->good_bytes = at;
	return 0;
}

/* Whether pair p of the journal is transfer x over names. */
static int same_pair(json_t *p, const struct rdp_mesh_xfer *x,
		     const char *const *names)
{
	const char *tx = json_string_value(json_object_get(p, "tx"));
	const char *rx = json_string_value(json_object_get(p, "rx"));

	return tx && rx && !strcmp(tx, names[x->tx]) &&
	       !strcmp(rx, names[x->rx]) &&
	       json_is_true(json_object_get(p, "bidirectional")) == !!x->both;
}

int rdp_mesh_journal_check(const struct rdp_mesh_journal *j,
			   const struct rdp_mesh_plan *plan,
			   const char *const *names, char *why, size_t len)
{
	struct rdp_mesh_xfer *x = calloc(rdp_mesh_plan_width(plan), sizeof(*x));
	size_t k, i, n;
	json_t *pairs;
	int ret = 0;

	if (!x)
		return -ENOMEM;
	for (k = 0; !ret && k < j->n; k++) {
		n = rdp_mesh_plan_round(plan, k, x);
		pairs = json_object_get(j->lines[k], "pairs");
		if (json_array_size(pairs) != n) {
			ret = bad(why, len,
				  "round %zu of the journal has %zu pairs, of "
				  "this plan %zu",
				  k + 1, json_array_size(pairs), n);
			break;
		}
		for (i = 0; i < n; i++)
			if (!same_pair(json_array_get(pairs, i), &x[i],
				       names)) {
				ret = bad(why, len,
					  "round %zu of the journal is not "
					  "this plan's (%s->%s%s there)",
					  k + 1, names[x[i].tx], names[x[i].rx],
					  x[i].both ? " both ways" : "");
				break;
			}
	}
	free(x);
	return ret;
}

static int node_of(const char *name, const char *const *names,
		   unsigned int nodes, unsigned int *out)
{
	unsigned int i;

	for (i = 0; name && i < nodes; i++)
		if (!strcmp(name, names[i])) {
			*out = i;
			return 0;
		}
	return -EINVAL;
}

static double real_of(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

int rdp_mesh_cell_from_json(json_t *o, const char *const *names,
			    unsigned int nodes, struct rdp_mesh_cell *c)
{
	const char *st = json_string_value(json_object_get(o, "status"));
	json_t *round = json_object_get(o, "round");
	json_t *rail = json_object_get(o, "rail");
	json_t *res = json_object_get(o, "result");
	double line;

	memset(c, 0, sizeof(*c));
	if (node_of(json_string_value(json_object_get(o, "tx")), names, nodes,
		    &c->tx) ||
	    node_of(json_string_value(json_object_get(o, "rx")), names, nodes,
		    &c->rx) ||
	    !json_is_integer(round) || json_integer_value(round) < 1 ||
	    !json_is_integer(rail) || json_integer_value(rail) < 0 || !st)
		return -EINVAL;
	c->round = (unsigned int)(json_integer_value(round) - 1);
	c->rail = (unsigned int)json_integer_value(rail);
	if (!strcmp(st, "failed"))
		c->status = RDP_MESH_FAILED;
	else if (!strcmp(st, "ok") || !strcmp(st, "flagged"))
		c->status = RDP_MESH_OK;
	else
		return -EINVAL;
	if (c->status == RDP_MESH_FAILED)
		c->reason = json_string_value(json_object_get(o, "reason"));
	c->bw_gbps = real_of(o, "bw_gbps");
	c->lat_us = real_of(o, "lat_us");
	line = real_of(o, "line_rate_gbps");
	c->line_gbps = isfinite(line) ? line : 0;
	c->result = json_is_object(res) ? json_incref(res) : NULL;
	c->suspect = c->tx;
	c->again = -1;
	return 0;
}

json_t *rdp_mesh_run_record(const struct rdp_mesh_plan_opts *po,
			    const char *const *names, unsigned int rails,
			    const char *test_args)
{
	json_t *nodes = json_array();
	unsigned int i;

	for (i = 0; nodes && i < po->nodes; i++)
		if (json_array_append_new(nodes, json_string(names[i]))) {
			json_decref(nodes);
			return NULL;
		}
	if (!nodes)
		return NULL;
	return json_pack("{s:s, s:s, s:I, s:I, s:b, s:I, s:o, s:s}", "tool",
			 "rdmaperf-mesh", "pattern",
			 rdp_mesh_pattern_name(po->pattern), "permutations",
			 (json_int_t)po->permutations, "seed",
			 (json_int_t)po->seed, "bidirectional", po->bidir,
			 "rails", (json_int_t)rails, "nodes", nodes, "test",
			 test_args ? test_args : "");
}

/* A value as text for the one line that names a difference. */
static void show(json_t *v, char *buf, size_t len)
{
	char *s = v ? json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;

	snprintf(buf, len, "%s", s ? s : "nothing");
	free(s);
}

/* --topology's path in a record, or "none". */
static const char *topo_path(json_t *t)
{
	const char *p = json_string_value(json_object_get(t, "path"));

	return p ? p : "none";
}

/*
 * The topologies of two records: the same content, wherever the file
 * lies. A record without one (from before it was recorded) has none to
 * check.
 */
static int check_topology(json_t *rec, json_t *want, char *why, size_t len)
{
	json_t *was = json_object_get(rec, "topology");
	json_t *now = json_object_get(want, "topology");
	json_t *dw = json_object_get(was, "digest");
	json_t *dn = json_object_get(now, "digest");

	if (!was || !now || (!dw && !dn) || json_equal(dw, dn))
		return 0;
	if (dw && dn && !strcmp(topo_path(was), topo_path(now)))
		return bad(why, len,
			   "--topology %s has changed since (its digest was "
			   "%s, is %s)",
			   topo_path(now), json_string_value(dw),
			   json_string_value(dn));
	return bad(why, len, "--topology was %s there, is %s here",
		   topo_path(was), topo_path(now));
}

int rdp_mesh_run_record_check(json_t *rec, json_t *want, char *why, size_t len)
{
	char was[160], now[160];
	const char *key;
	json_t *v;

	if (!json_is_object(rec))
		return bad(why, len, "its mesh-run.json is not a run's record");
	if (check_topology(rec, want, why, len))
		return -EINVAL;
	json_object_foreach(want, key, v)
	{
		if (!strcmp(key, "topology") ||
		    json_equal(json_object_get(rec, key), v))
			continue;
		show(json_object_get(rec, key), was, sizeof(was));
		show(v, now, sizeof(now));
		return bad(why, len, "%s was %s there, is %s here", key, was,
			   now);
	}
	return 0;
}

/* dir/name into path (PATH_MAX bytes). */
static int join(char *path, size_t size, const char *dir, const char *name)
{
	return (size_t)snprintf(path, size, "%s/%s", dir, name) < size
		       ? 0
		       : -ENAMETOOLONG;
}

int rdp_mesh_run_record_write(const char *dir, json_t *record)
{
	char path[4096];
	int ret = join(path, sizeof(path), dir, RDP_MESH_RUN_RECORD);

	if (!ret && json_dump_file(record, path, JSON_INDENT(2)))
		ret = -EIO;
	if (ret)
		rdp_warn("mesh: write %s/%s: --resume will refuse this run",
			 dir, RDP_MESH_RUN_RECORD);
	return ret;
}

json_t *rdp_mesh_topology_record(const char *path)
{
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a, 64 bits */
	unsigned char buf[65536];
	char digest[32];
	size_t n, i;
	FILE *f;
	int err;

	if (!path)
		return json_null();
	f = fopen(path, "re");
	if (!f)
		return NULL;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		for (i = 0; i < n; i++)
			h = (h ^ buf[i]) * 0x100000001b3ull;
	err = ferror(f);
	fclose(f);
	if (err)
		return NULL;
	snprintf(digest, sizeof(digest), "fnv1a64:%016llx",
		 (unsigned long long)h);
	return json_pack("{s:s, s:s}", "path", path, "digest", digest);
}

/* This run's record: the plan's, and its --topology. */
static json_t *record_of(const struct rdp_mesh_resume *rs)
{
	json_t *rec = rdp_mesh_run_record(rs->po, rs->names, rs->rails,
					  rs->test_args);

	if (rec &&
	    json_object_set_new(rec, "topology",
				rdp_mesh_topology_record(rs->topology))) {
		json_decref(rec);
		return NULL;
	}
	return rec;
}

/* The record in dir against this run's. */
static int check_record(const struct rdp_mesh_resume *rs, char *why, size_t len)
{
	json_t *rec, *want = record_of(rs);
	char path[4096];
	json_error_t err;
	int ret;

	if (!want)
		return bad(why, len, "out of memory");
	if (join(path, sizeof(path), rs->dir, RDP_MESH_RUN_RECORD)) {
		json_decref(want);
		return bad(why, len, "the path is too long");
	}
	rec = json_load_file(path, 0, &err);
	if (rec)
		ret = rdp_mesh_run_record_check(rec, want, why, len);
	else
		ret = bad(why, len, "no %s there (%s)", RDP_MESH_RUN_RECORD,
			  err.text);
	json_decref(rec);
	json_decref(want);
	return ret;
}

/* Round k of the journal into the store, its timing and the pruning. */
static int load_round(const struct rdp_mesh_resume *rs, json_t *line, size_t k)
{
	struct rdp_mesh_round_time t = { 0 };
	struct rdp_mesh_errors_buf eb;
	struct rdp_mesh_cell c;
	json_t *cell, *timing = json_object_get(line, "timing");
	size_t i;
	int ret;

	json_array_foreach(json_object_get(line, "cells"), i, cell)
	{
		if (rdp_mesh_cell_from_json(cell, rs->names, rs->nodes, &c) ||
		    c.round != k)
			return -EINVAL;
		if (rs->prune)
			rdp_mesh_prune_note(rs->prune, c.tx, c.rx,
					    c.status == RDP_MESH_FAILED);
		c.errors = rdp_mesh_errors_from_json(
			json_object_get(cell, "errors"), &eb);
		ret = rdp_mesh_add(rs->mesh, &c); /* takes c.result */
		if (ret)
			return ret;
	}
	if (rs->prune)
		rdp_mesh_prune_decide(rs->prune, k);
	t.wall_s = json_number_value(json_object_get(timing, "wall_s"));
	t.pair_s = json_number_value(json_object_get(timing, "pair_s"));
	t.measured_s = json_number_value(json_object_get(timing, "measured_s"));
	return t.wall_s > 0 ? rdp_mesh_set_round_time(rs->mesh, k, &t) : 0;
}

/* The journal read, checked, loaded and cut after its last good line. */
static int load_journal(const struct rdp_mesh_resume *rs, const char *path,
			size_t *from, char *why, size_t len)
{
	struct rdp_mesh_journal j;
	FILE *f = fopen(path, "re");
	size_t k;
	int ret;

	if (!f)
		return bad(why, len, "no journal there (%s)", strerror(errno));
	ret = rdp_mesh_journal_read(f, rdp_mesh_plan_rounds(rs->plan), &j, why,
				    len);
	fclose(f);
	if (ret)
		return ret;
	ret = rdp_mesh_journal_check(&j, rs->plan, rs->names, why, len);
	for (k = 0; !ret && k < j.n; k++)
		if (load_round(rs, j.lines[k], k))
			ret = bad(why, len,
				  "round %zu of the journal holds a cell "
				  "that is not this mesh's",
				  k + 1);
	if (!ret && truncate(path, j.good_bytes))
		ret = bad(why, len, "cut the journal's last line: %s",
			  strerror(errno));
	*from = j.n;
	rdp_mesh_journal_free(&j);
	return ret;
}

int rdp_mesh_resume_load(const struct rdp_mesh_resume *rs, FILE **journal,
			 size_t *from)
{
	char path[4096], why[256] = "";
	int ret = check_record(rs, why, sizeof(why));

	if (!ret && join(path, sizeof(path), rs->dir, "rounds.jsonl"))
		ret = bad(why, sizeof(why), "the path is too long");
	if (!ret)
		ret = load_journal(rs, path, from, why, sizeof(why));
	if (!ret && !(*journal = fopen(path, "ae")))
		ret = bad(why, sizeof(why), "open the journal: %s",
			  strerror(errno));
	if (ret)
		rdp_err("mesh: --resume %s: %s", rs->dir, why);
	return ret ? -EINVAL : 0;
}

int rdp_mesh_journal_open(const struct rdp_mesh_resume *rs, int resume,
			  FILE **journal, size_t *from)
{
	json_t *record;
	char path[4096];

	*from = 0;
	if (resume)
		return rdp_mesh_resume_load(rs, journal, from);
	record = record_of(rs);
	if (!record)
		return -ENOMEM;
	rdp_mesh_run_record_write(rs->dir, record);
	json_decref(record);
	if (join(path, sizeof(path), rs->dir, "rounds.jsonl"))
		return -ENAMETOOLONG;
	*journal = fopen(path, "we");
	if (!*journal)
		rdp_warn("mesh: open the journal %s: %s", path,
			 strerror(errno));
	return 0;
}

int rdp_mesh_share_start(struct rdp_boot *b, int status, size_t *from,
			 size_t rounds, int timeout_ms)
{
	int32_t head[2] = { status, (int32_t)*from };
	int ret = b->ops->bcast(b, head, sizeof(head), timeout_ms);

	if (ret)
		return ret;
	*from = (size_t)head[1];
	if (!b->rank && !status && *from)
		printf("mesh: resumed at round %zu of %zu\n", *from + 1,
		       rounds);
	return head[0];
}
