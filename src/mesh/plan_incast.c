/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Congestion patterns: incast (K senders into one receiver a round, each
 * node receiving in turn, an optional victim beside the load) and
 * alltoall (every node to every other in one round). Unlike the other
 * plans, a node is in several transfers of a round.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "plan_int.h"

int rdp_mesh_incast_size(struct rdp_mesh_plan *p)
{
	p->rounds = p->o.rounds ? p->o.rounds : p->o.nodes;
	return 0;
}

/* Round r's receiver: node r, or with R < N rounds node floor(r N / R),
 * spread over the nodes. */
static unsigned int receiver(const struct rdp_mesh_plan *p, size_t r)
{
	return (unsigned int)((uint64_t)r * p->o.nodes / p->rounds);
}

size_t rdp_mesh_incast_round(const struct rdp_mesh_plan *p, size_t r,
			     struct rdp_mesh_xfer *x)
{
	unsigned int n = p->o.nodes, v = receiver(p, r), j;

	for (j = 0; j < p->o.fan_in; j++)
		x[j] = (struct rdp_mesh_xfer){ (v + 1 + j) % n, v, 0 };
	return p->o.fan_in;
}

size_t rdp_mesh_incast_width(const struct rdp_mesh_plan *p, size_t r)
{
	(void)r;
	return p->o.fan_in;
}

unsigned int rdp_mesh_incast_fan(const struct rdp_mesh_plan *p, int in)
{
	return in ? p->o.fan_in + (p->o.victim != RDP_MESH_VICTIM_NONE) : 1;
}

int rdp_mesh_plan_victim(const struct rdp_mesh_plan *p, size_t k,
			 struct rdp_mesh_xfer *v)
{
	unsigned int rx;

	if (p->o.pattern != RDP_MESH_INCAST ||
	    p->o.victim == RDP_MESH_VICTIM_NONE || k >= p->rounds)
		return 0;
	rx = receiver(p, k);
	*v = (struct rdp_mesh_xfer){ (rx + p->o.fan_in + 1) % p->o.nodes, rx,
				     0 };
	return 1;
}

unsigned int rdp_mesh_plan_phases(const struct rdp_mesh_plan *p)
{
	return p->o.pattern == RDP_MESH_INCAST &&
			       p->o.victim != RDP_MESH_VICTIM_NONE
		       ? 2
		       : 1;
}

void rdp_mesh_incast_head(const struct rdp_mesh_plan *p, FILE *f)
{
	fprintf(f,
		"%u senders into one receiver a round, the %u nodes after "
		"it",
		p->o.fan_in, p->o.fan_in);
	if (p->rounds == p->o.nodes)
		fprintf(f, " (each node receives once and sends %u times)",
			p->o.fan_in);
	else
		fprintf(f, " (a sample: %zu receivers spread over the nodes)",
			p->rounds);
	if (p->o.victim != RDP_MESH_VICTIM_NONE)
		fprintf(f,
			"; victim: the next node sends to the receiver (%s), "
			"alone, then under the load",
			rdp_mesh_victim_name(p->o.victim));
	fputc('\n', f);
}

/* Every ordered pair, sender by sender. */
size_t rdp_mesh_alltoall_round(const struct rdp_mesh_plan *p, size_t r,
			       struct rdp_mesh_xfer *x)
{
	unsigned int n = p->o.nodes, a, b;
	size_t k = 0;

	(void)r;
	for (a = 0; a < n; a++)
		for (b = 0; b < n; b++)
			if (a != b)
				x[k++] = (struct rdp_mesh_xfer){ a, b, 0 };
	return k;
}

size_t rdp_mesh_alltoall_width(const struct rdp_mesh_plan *p, size_t r)
{
	(void)r;
	return (size_t)p->o.nodes * (p->o.nodes - 1);
}

int rdp_mesh_alltoall_size(struct rdp_mesh_plan *p)
{
	p->rounds = 1;
	return 0;
}

unsigned int rdp_mesh_alltoall_fan(const struct rdp_mesh_plan *p, int in)
{
	(void)in;
	return p->o.nodes - 1;
}

void rdp_mesh_alltoall_head(const struct rdp_mesh_plan *p, FILE *f)
{
	fprintf(f, "every node sends to every other at once, %zu transfers\n",
		rdp_mesh_alltoall_width(p, 0));
}

static const char *const victims[] = {
	[RDP_MESH_VICTIM_NONE] = "none",
	[RDP_MESH_VICTIM_LAT] = "lat",
	[RDP_MESH_VICTIM_BW] = "bw",
};

const char *rdp_mesh_victim_name(enum rdp_mesh_victim v)
{
	return (unsigned int)v <= RDP_MESH_VICTIM_BW ? victims[v] : "?";
}

int rdp_mesh_victim_parse(const char *name, enum rdp_mesh_victim *out,
			  char *why, size_t len)
{
	if (!strcmp(name, "lat"))
		*out = RDP_MESH_VICTIM_LAT;
	else if (!strcmp(name, "bw"))
		*out = RDP_MESH_VICTIM_BW;
	else {
		snprintf(why, len, "--victim needs lat or bw, not '%s'", name);
		return -EINVAL;
	}
	return 0;
}

/* The option rules of incast and alltoall (rdp_mesh_plan_check). */
static int incast_only(const struct rdp_mesh_plan_opts *o, char *why,
		       size_t len)
{
	const char *opt = o->fan_in   ? "--fan-in"
			  : o->rounds ? "--rounds"
			  : o->victim ? "--victim"
				      : NULL;

	if (!opt || o->pattern == RDP_MESH_INCAST)
		return 0;
	if (o->pattern == RDP_MESH_ALLTOALL && o->victim)
		snprintf(why, len,
			 "--victim needs a node left over, and alltoall loads "
			 "every node: use --pattern incast");
	else
		snprintf(why, len, "%s applies to --pattern incast", opt);
	return -EINVAL;
}

int rdp_mesh_incast_check(const struct rdp_mesh_plan_opts *o, char *why,
			  size_t len)
{
	unsigned int n = o->nodes,
		     most = n ? n - 1 : RDP_MESH_PLAN_MAX_NODES - 1;

	if (incast_only(o, why, len))
		return -EINVAL;
	if (o->pattern == RDP_MESH_ALLTOALL && n > RDP_MESH_ALLTOALL_MAX_NODES)
		snprintf(why, len,
			 "--pattern alltoall runs %d nodes at most (N x (N-1) "
			 "transfers at once), not %u",
			 RDP_MESH_ALLTOALL_MAX_NODES, n);
	else if (o->pattern != RDP_MESH_INCAST)
		return 0;
	else if (!o->fan_in)
		snprintf(why, len,
			 "--pattern incast needs --fan-in K, the senders into "
			 "one receiver");
	else if (o->fan_in > most)
		snprintf(
			why, len,
			"--fan-in takes 1 to %u%s, not %u: the receiver is not "
			"one of its senders",
			most, n ? " for this many nodes" : "", o->fan_in);
	else if (n && o->rounds > n)
		snprintf(why, len,
			 "--rounds takes 1 to %u for %u nodes (each receives "
			 "once), not %u",
			 n, n, o->rounds);
	else if (n && o->victim && o->fan_in + 2 > n)
		snprintf(why, len,
			 "--victim needs a node outside the receiver and its "
			 "%u senders: %u nodes at least, not %u (lower "
			 "--fan-in)",
			 o->fan_in, o->fan_in + 2, n);
	else
		return 0;
	return -EINVAL;
}
