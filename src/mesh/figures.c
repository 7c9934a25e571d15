/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A mesh cell's figures from the results a client session handed back:
 * the last point's bandwidth (and what a bidirectional test received)
 * or median latency, and the time all the points measured.
 */
#include <math.h>

#include <rdmaperf/bench.h>
#include <rdmaperf/mesh_run.h>
#include <rdmaperf/session.h>

static double finite_or_nan(double v)
{
	return isfinite(v) ? v : NAN;
}

void rdp_mesh_figures_of(const struct rdp_session_results *r,
			 struct rdp_mesh_figures *f)
{
	const struct rdp_result *last;
	size_t i;

	f->bw_gbps = f->rx_bw_gbps = f->lat_us = NAN;
	f->measured_s = 0;
	for (i = 0; i < r->n; i++)
		if (isfinite(r->points[i].elapsed_ns))
			f->measured_s += r->points[i].elapsed_ns / 1e9;
	if (!r->n)
		return;
	last = &r->points[r->n - 1];
	f->bw_gbps = finite_or_nan(last->bw_avg_gbps);
	if (last->bidir)
		f->rx_bw_gbps = finite_or_nan(last->rx_bw_avg_gbps);
	if (last->lat.n)
		f->lat_us = finite_or_nan(last->lat.median_ns / 1e3);
}
