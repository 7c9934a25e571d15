/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The retest of a quick pass: each suspect node against a known-good one,
 * round after round, until every suspect is cleared or judged alone.
 */
#include <errno.h>
#include <stdlib.h>

#include "plan_int.h"

int rdp_mesh_quick_suspects(const struct rdp_mesh_xfer *bad, size_t n,
			    unsigned int nodes,
			    enum rdp_mesh_quick_state *state)
{
	unsigned int i;
	size_t j;

	for (j = 0; j < n; j++)
		if (bad[j].tx >= nodes || bad[j].rx >= nodes ||
		    bad[j].tx == bad[j].rx)
			return -EINVAL;
	for (i = 0; i < nodes; i++)
		state[i] = RDP_MESH_QUICK_GOOD;
	for (j = 0; j < n; j++)
		state[bad[j].tx] = state[bad[j].rx] = RDP_MESH_QUICK_SUSPECT;
	return 0;
}

/* The i-th node (from `from` on) in state s; nodes when none is left. */
static unsigned int next_in(const enum rdp_mesh_quick_state *state,
			    unsigned int nodes, unsigned int from,
			    enum rdp_mesh_quick_state s)
{
	while (from < nodes && state[from] != s)
		from++;
	return from;
}

/* No good node: the suspects meet one another, pairing `round` of the
 * circle method over them (so every two meet in turn). */
static size_t among_suspects(const enum rdp_mesh_quick_state *state,
			     unsigned int nodes, unsigned int round, int both,
			     struct rdp_mesh_xfer *x)
{
	unsigned int *who, s = 0, i, a, b, pairings;
	size_t k = 0;

	who = malloc((size_t)nodes * sizeof(*who));
	if (!who)
		return 0;
	for (i = 0; i < nodes; i++)
		if (state[i] == RDP_MESH_QUICK_SUSPECT)
			who[s++] = i;
	pairings = rdp_mesh_circle_pairings(s);
	for (i = 0; pairings && i < (s + 1) / 2; i++)
		if (rdp_mesh_circle_pair(s, round % pairings, i, &a, &b))
			x[k++] = (struct rdp_mesh_xfer){ who[a], who[b], both };
	free(who);
	return k;
}

size_t rdp_mesh_quick_round(const enum rdp_mesh_quick_state *state,
			    unsigned int nodes, unsigned int round, int both,
			    struct rdp_mesh_xfer *x)
{
	unsigned int s, g;
	size_t k = 0;

	s = next_in(state, nodes, 0, RDP_MESH_QUICK_SUSPECT);
	g = next_in(state, nodes, 0, RDP_MESH_QUICK_GOOD);
	if (s < nodes && g == nodes)
		return among_suspects(state, nodes, round, both, x);
	while (s < nodes && g < nodes) {
		x[k++] = (struct rdp_mesh_xfer){ s, g, both };
		s = next_in(state, nodes, s + 1, RDP_MESH_QUICK_SUSPECT);
		g = next_in(state, nodes, g + 1, RDP_MESH_QUICK_GOOD);
	}
	return k;
}

int rdp_mesh_quick_judge(enum rdp_mesh_quick_state *state, unsigned int nodes,
			 const struct rdp_mesh_xfer *x, const int *bad,
			 size_t n)
{
	enum rdp_mesh_quick_state *t, *r;
	size_t j;

	for (j = 0; j < n; j++)
		if (x[j].tx >= nodes || x[j].rx >= nodes || x[j].tx == x[j].rx)
			return -EINVAL;
	for (j = 0; j < n; j++) {
		t = &state[x[j].tx];
		r = &state[x[j].rx];
		if (!bad[j]) { /* a clean transfer clears both ends */
			*t = *r = RDP_MESH_QUICK_GOOD;
			continue;
		}
		/* Bad against a good node: the suspect alone explains it. */
		if (*t == RDP_MESH_QUICK_SUSPECT && *r == RDP_MESH_QUICK_GOOD)
			*t = RDP_MESH_QUICK_FAULTY;
		else if (*r == RDP_MESH_QUICK_SUSPECT &&
			 *t == RDP_MESH_QUICK_GOOD)
			*r = RDP_MESH_QUICK_FAULTY;
	}
	return 0;
}
