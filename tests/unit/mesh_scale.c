/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The mesh store, analysis and writers at cluster size: N x (N-1) x R
 * cells of a pairwise plan with noise, one slow node, one slow link and a
 * few failed cells; prints the time of each step and the peak memory,
 * and what rank 0 prints of the matrices.
 * A check program, not a test: tests/unit/mesh_scale N RAILS DIR [SEED].
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <rdmaperf/mesh.h>
#include <rdmaperf/mesh_plan.h>

static uint64_t rng_next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

/* Uniform in [-1, 1). */
static double noise(uint64_t *s)
{
	return (double)(rng_next(s) >> 11) / (double)(1ULL << 52) - 1;
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void usage_print(const char *step, double t0)
{
	struct rusage self, kids;

	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	printf("%-8s %8.2f s  peak RSS %7.1f MiB (children %.1f MiB)\n", step,
	       now_s() - t0, (double)self.ru_maxrss / 1024,
	       (double)kids.ru_maxrss / 1024);
	fflush(stdout);
}

/* A cell of tx->rx on rail r: 100 Gb/s, 2 % noise; node 5 sends and
 * receives at 60 %, link 3->9 is at 40 % on rail 1, node 11's cells to
 * node 12 fail. */
static void fill(struct rdp_mesh_cell *c, uint64_t *seed)
{
	double bw = 100 * (1 + 0.02 * noise(seed));

	if (c->tx == 5 || c->rx == 5)
		bw *= 0.6;
	if (c->tx == 3 && c->rx == 9 && c->rail == 1)
		bw *= 0.4;
	c->status = c->tx == 11 && c->rx == 12 ? RDP_MESH_FAILED : RDP_MESH_OK;
	c->reason = c->status == RDP_MESH_FAILED ? "connect timed out" : NULL;
	c->bw_gbps = c->status == RDP_MESH_OK ? bw : NAN;
	c->lat_us = NAN;
	c->line_gbps = 100;
	c->result = NULL;
}

static int add_all(struct rdp_mesh *m, const struct rdp_mesh_plan *p,
		   unsigned int rails, uint64_t seed)
{
	struct rdp_mesh_xfer *x = calloc(rdp_mesh_plan_width(p), sizeof(*x));
	struct rdp_mesh_cell c;
	size_t k, j, cnt;
	unsigned int r;
	int ret = x ? 0 : -ENOMEM;

	for (k = 0; !ret && k < rdp_mesh_plan_rounds(p); k++) {
		cnt = rdp_mesh_plan_round(p, k, x);
		for (j = 0; !ret && j < cnt; j++)
			for (r = 0; !ret && r < rails; r++) {
				memset(&c, 0, sizeof(c));
				c.tx = x[j].tx;
				c.rx = x[j].rx;
				c.rail = r;
				c.round = (unsigned int)k;
				fill(&c, &seed);
				ret = rdp_mesh_add(m, &c);
			}
	}
	free(x);
	return ret;
}

int main(int argc, char **argv)
{
	struct rdp_mesh_plan_opts o = { .pattern = RDP_MESH_PAIRWISE };
	struct rdp_mesh_limits l = { .tol = RDP_MESH_TOLERANCE };
	struct rdp_mesh_plan *p;
	struct rdp_mesh *m;
	unsigned int rails;
	uint64_t seed;
	double t0;
	int ret;

	if (argc < 4) {
		fprintf(stderr, "usage: %s NODES RAILS DIR [SEED]\n", argv[0]);
		return 2;
	}
	o.nodes = (unsigned int)strtoul(argv[1], NULL, 10);
	rails = (unsigned int)strtoul(argv[2], NULL, 10);
	seed = argc > 4 ? strtoull(argv[4], NULL, 10) : 1;
	if (!seed)
		seed = 1;
	if (o.nodes < 13 || rdp_mesh_plan_create(&o, &p) ||
	    rdp_mesh_create(p, rails, NULL, &m)) {
		fprintf(stderr, "mesh_scale: 13..4096 nodes, 1..64 rails\n");
		return 2;
	}
	t0 = now_s();
	ret = add_all(m, p, rails, seed);
	usage_print("add", t0);
	t0 = now_s();
	if (!ret)
		ret = rdp_mesh_analyze(m, &l);
	usage_print("analyze", t0);
	printf("%zu cells, %d flagged or failed\n", rdp_mesh_n_cells(m), ret);
	t0 = now_s();
	if (ret >= 0)
		ret = rdp_mesh_write_dir(m, argv[3]);
	usage_print("write", t0);
	t0 = now_s();
	if (ret >= 0)
		ret = rdp_mesh_print_matrices(m, stdout);
	usage_print("print", t0);
	rdp_mesh_free(m);
	rdp_mesh_plan_free(p);
	if (ret < 0)
		fprintf(stderr, "mesh_scale: %s\n", strerror(-ret));
	return ret < 0 ? 1 : 0;
}
