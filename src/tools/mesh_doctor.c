/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdmaperf-mesh --doctor: no traffic. Each rank reads its device's and
 * host's facts, rank 0 gathers them through the bootstrap and names every
 * node that differs from the most common value, and how.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <jansson.h>

#include <rdmaperf/boot.h>
#include <rdmaperf/doctor.h>
#include <rdmaperf/log.h>
#include <rdmaperf/mesh_run.h>
#include <rdmaperf/session.h>

#include "mesh_doctor.h"

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* This rank's node name and facts; a failure is in me->status and why. */
static void local_facts(struct rdp_boot *b,
			const struct rdp_mesh_doctor_opts *o,
			struct rdp_doctor_facts *me)
{
	char host[64] = "";
	const char *dev = NULL;

	gethostname(host, sizeof(host) - 1);
	if (rdp_mesh_node_name_of(getenv("RDP_MESH_NODE"), b->rank, host,
				  me->node, sizeof(me->node)))
		snprintf(me->node, sizeof(me->node), "rank%d", b->rank);
	if (o->mesh->n_devs) {
		if ((size_t)b->local_rank >= o->mesh->n_devs) {
			snprintf(me->dev, sizeof(me->dev), "-");
			me->status = -EINVAL;
			snprintf(me->why, sizeof(me->why),
				 "node-local rank %d has no device: -d lists "
				 "%zu",
				 b->local_rank, o->mesh->n_devs);
			return;
		}
		dev = o->mesh->devs[b->local_rank];
	}
	rdp_doctor_facts_local(dev, o->ib_port, me);
}

static int write_json(const char *path, json_t *doc)
{
	if (json_dump_file(doc, path, JSON_INDENT(2) | JSON_SORT_KEYS)) {
		rdp_err("doctor: cannot write %s", path);
		return -EIO;
	}
	return 0;
}

/* doctor.json and a section of outliers.txt in dir. */
static int write_files(const char *dir, json_t *doc,
		       const struct rdp_doctor_facts *all, size_t n,
		       const struct rdp_doctor_diff *d, size_t nd)
{
	char path[4096];
	FILE *f;

	if (mkdir(dir, 0777) && errno != EEXIST) {
		rdp_err("doctor: cannot create %s: %s", dir, strerror(errno));
		return -EIO;
	}
	snprintf(path, sizeof(path), "%s/doctor.json", dir);
	if (write_json(path, doc))
		return -EIO;
	snprintf(path, sizeof(path), "%s/outliers.txt", dir);
	f = fopen(path, "a");
	if (!f) {
		rdp_err("doctor: cannot open %s: %s", path, strerror(errno));
		return -EIO;
	}
	fprintf(f, "== rdmaperf-mesh --doctor ==\n");
	rdp_doctor_fleet_print(f, all, n, d, nd);
	return fclose(f) ? -EIO : 0;
}

/* Rank 0: the comparison and its report; enum rdp_exit. */
static int report(const struct rdp_mesh_doctor_opts *o,
		  const struct rdp_doctor_facts *all, size_t n, double t0)
{
	FILE *out = o->mesh->out ? o->mesh->out : stdout;
	struct rdp_doctor_diff *d;
	size_t i, nodev = 0;
	json_t *doc;
	long nd;
	int rc;

	d = calloc(n * RDP_FACT_N, sizeof(*d));
	nd = d ? rdp_doctor_compare(all, n, d) : -ENOMEM;
	doc = nd >= 0 ? rdp_doctor_fleet_json(all, n, d, (size_t)nd,
					      now_s() - t0)
		      : NULL;
	if (!doc) {
		rdp_err("doctor: out of memory");
		free(d);
		return RDP_EXIT_FAIL;
	}
	for (i = 0; i < n; i++)
		nodev += all[i].status != 0;
	rc = nd || nodev ? RDP_EXIT_FAIL : RDP_EXIT_OK;
	if (o->json) {
		json_dumpf(doc, out, JSON_INDENT(2) | JSON_SORT_KEYS);
		fputc('\n', out);
	} else {
		rdp_doctor_fleet_print(out, all, n, d, (size_t)nd);
	}
	fflush(out);
	if (o->mesh->output_dir &&
	    write_files(o->mesh->output_dir, doc, all, n, d, (size_t)nd))
		rc = RDP_EXIT_FAIL;
	json_decref(doc);
	free(d);
	return rc;
}

/* The gathered bytes as n facts; -EPROTO when a rank sent another size. */
static int unpack(const char *bytes, const size_t *lens, int n,
		  struct rdp_doctor_facts *all)
{
	size_t at = 0;
	int i;

	for (i = 0; i < n; i++) {
		if (lens[i] != sizeof(*all)) {
			rdp_err("doctor: rank %d sent %zu bytes of facts, not "
				"%zu: run the same rdmaperf-mesh on every node",
				i, lens[i], sizeof(*all));
			return -EPROTO;
		}
		memcpy(&all[i], bytes + at, sizeof(*all));
		all[i].node[sizeof(all[i].node) - 1] = '\0';
		all[i].dev[sizeof(all[i].dev) - 1] = '\0';
		all[i].why[sizeof(all[i].why) - 1] = '\0';
		at += lens[i];
	}
	return 0;
}

int rdp_mesh_doctor_run(struct rdp_boot *b,
			const struct rdp_mesh_doctor_opts *o)
{
	struct rdp_doctor_facts me, *all = NULL;
	size_t *lens = NULL;
	char *bytes = NULL;
	double t0 = now_s();
	int ret, rc;

	memset(&me, 0, sizeof(me));
	local_facts(b, o, &me);
	if (!b->rank) {
		lens = calloc((size_t)b->size, sizeof(*lens));
		all = calloc((size_t)b->size, sizeof(*all));
		if (!lens || !all) {
			rdp_err("doctor: out of memory for %d ranks", b->size);
			b->ops->abort(b, RDP_EXIT_FAIL);
		}
	}
	ret = b->ops->gather(b, &me, sizeof(me), &bytes, lens,
			     o->mesh->round_timeout_ms);
	if (ret) {
		rdp_err("doctor: gathering the facts: %s", strerror(-ret));
		b->ops->abort(b, RDP_EXIT_FAIL);
		return RDP_EXIT_FAIL;
	}
	rc = RDP_EXIT_OK;
	if (!b->rank)
		rc = unpack(bytes, lens, b->size, all)
			     ? RDP_EXIT_FAIL
			     : report(o, all, (size_t)b->size, t0);
	free(bytes);
	free(lens);
	free(all);
	return rc;
}
