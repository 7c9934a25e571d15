/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdmaperf-mesh --metrics FILE: the mesh as OpenMetrics text, per node
 * and rail rather than per cell (a sample per pair would be a million
 * series at 1 000 nodes): each node's send and receive figures (lowest
 * and median over its cells), its bad cells and whether the analysis
 * names it, and the mesh's counts and verdict.
 * Layer: mesh
 */
#ifndef RDMAPERF_MESH_METRICS_H
#define RDMAPERF_MESH_METRICS_H

#include <time.h>

struct rdp_mesh;

/* Of an analysed mesh of test, into path atomically; 0 or -errno
 * (logged). */
int rdp_mesh_write_metrics(const struct rdp_mesh *m, const char *test,
			   time_t when, const char *path);

#endif /* RDMAPERF_MESH_METRICS_H */
