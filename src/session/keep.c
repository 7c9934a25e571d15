/* SPDX-License-Identifier: BSD-2-Clause */
/* What one side keeps from session to session when its caller runs many
 * on one device (rdmaperf-mesh's rounds): the clock, the device with its
 * kept connection, the placement; and what each session cost. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session_int.h"
#include <rdmaperf/placement.h>

int rdp_session_keep_create(int reuse, struct rdp_session_keep **out)
{
	struct rdp_session_keep *k = calloc(1, sizeof(*k));

	if (!k)
		return -ENOMEM;
	k->reuse = !!reuse;
	*out = k;
	return 0;
}

/* The connections dev made, into the counts, as it closes. */
static void fold(struct rdp_session_keep *k, const struct rdp_dev *dev)
{
	k->n.conns_built += dev->conns_built;
	k->n.conns_reused += dev->conns_reused;
}

void rdp_session_keep_free(struct rdp_session_keep *k)
{
	if (!k)
		return;
	if (k->dev)
		k->eng->dev_close(k->dev);
	free(k);
}

void rdp_session_keep_counts(const struct rdp_session_keep *k,
			     struct rdp_session_keep_counts *out)
{
	*out = k->n;
	if (k->dev) {
		out->conns_built += k->dev->conns_built;
		out->conns_reused += k->dev->conns_reused;
	}
}

void rdp_session_keep_phases(const struct rdp_session_keep *k,
			     struct rdp_session_phases *out)
{
	*out = k->last;
}

int rdp_session_keep_clock(struct rdp_session_keep *k, struct rdp_clock *clk)
{
	int ret;

	if (k && k->have_clk) {
		*clk = k->clk;
		return 0;
	}
	ret = rdp_session_clock(clk);
	if (ret || !k)
		return ret;
	k->n.clock_calibrations++;
	k->clk = *clk;
	k->have_clk = k->reuse;
	return 0;
}

int rdp_session_keep_dev(struct rdp_session_keep *k,
			 const struct rdp_engine_ops *eng, const char *name,
			 int port, int cm, const struct rdp_mem_opts *mo,
			 struct rdp_dev **out)
{
	int ret;

	if (k && k->dev && k->eng == eng && k->cm == cm && k->port == port &&
	    !strcmp(k->name, name ? name : "")) {
		ret = eng->dev_refresh ? eng->dev_refresh(k->dev) : 0;
		if (!ret)
			*out = k->dev;
		return ret;
	}
	ret = eng->dev_open(name, port, cm, mo, out);
	if (ret || !k)
		return ret;
	k->n.dev_opens++;
	if (!k->reuse)
		return 0;
	if (k->dev) { /* opened for other settings */
		fold(k, k->dev);
		k->eng->dev_close(k->dev);
	}
	k->dev = *out;
	k->eng = eng;
	k->cm = cm;
	k->port = port;
	snprintf(k->name, sizeof(k->name), "%s", name ? name : "");
	k->dev->keep_conns = 1;
	k->placed = 0;
	return 0;
}

void rdp_session_keep_release(struct rdp_session_keep *k,
			      const struct rdp_engine_ops *eng,
			      struct rdp_dev *dev)
{
	if (!dev || (k && k->dev == dev))
		return;
	if (k)
		fold(k, dev);
	eng->dev_close(dev);
}

int rdp_session_keep_place(struct rdp_session_keep *k,
			   const struct rdp_place_opts *po,
			   const struct rdp_dev *dev, struct rdp_placement *out)
{
	int ret;

	if (k && k->placed && k->dev == dev) {
		*out = k->place; /* this thread's affinity is set already */
		return 0;
	}
	ret = rdp_place_self_dev(po, dev->name, dev->numa_node, out);
	if (!ret && k && k->dev == dev) {
		k->place = *out;
		k->placed = 1;
	}
	return ret;
}

int rdp_session_keep_warm(struct rdp_session_keep *k,
			  const struct rdp_engine_ops *eng,
			  const struct rdp_opts *o)
{
	struct rdp_placement place;
	struct rdp_clock clk;
	struct rdp_dev *dev;
	int ret;

	if (!k->reuse)
		return 0; /* nothing would stay */
	ret = rdp_session_keep_clock(k, &clk);
	if (!ret)
		ret = rdp_session_keep_dev(
			k, eng, o->conn.dev, o->conn.ib_port,
			!!(o->params.flags & RDP_PARAM_RDMA_CM), &o->mem, &dev);
	if (!ret)
		ret = rdp_session_keep_place(k, &o->place, dev, &place);
	return ret;
}

void rdp_session_keep_done(struct rdp_session_keep *k,
			   const struct rdp_session_phases *ph)
{
	if (!k)
		return;
	k->n.sessions++;
	if (ph)
		k->last = *ph;
}
