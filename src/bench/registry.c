/* SPDX-License-Identifier: BSD-2-Clause */
/* The only list of test loops. Adding a test: one file, one line here. */
#include <string.h>

#include <rdmaperf/bench.h>

extern const struct rdp_bench_ops rdp_bench_write_bw;
extern const struct rdp_bench_ops rdp_bench_write_lat;
extern const struct rdp_bench_ops rdp_bench_read_bw;
extern const struct rdp_bench_ops rdp_bench_read_lat;
extern const struct rdp_bench_ops rdp_bench_send_bw;
extern const struct rdp_bench_ops rdp_bench_send_lat;
extern const struct rdp_bench_ops rdp_bench_atomic_bw;
extern const struct rdp_bench_ops rdp_bench_atomic_lat;

static const struct rdp_bench_ops *const registry[] = {
	&rdp_bench_write_bw,  &rdp_bench_write_lat,  &rdp_bench_read_bw,
	&rdp_bench_read_lat,  &rdp_bench_send_bw,    &rdp_bench_send_lat,
	&rdp_bench_atomic_bw, &rdp_bench_atomic_lat, NULL,
};

const struct rdp_bench_ops *const *rdp_bench_all(void)
{
	return registry;
}

const struct rdp_bench_ops *rdp_bench_find(const char *name)
{
	const struct rdp_bench_ops *const *p;

	for (p = registry; *p; p++)
		if (!strcmp((*p)->name, name))
			return *p;
	return NULL;
}
