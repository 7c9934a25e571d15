/* SPDX-License-Identifier: BSD-2-Clause */
/* rdmaperf-mesh --doctor: the one hook src/tools/mesh_main.c calls. */
#ifndef RDMAPERF_TOOLS_MESH_DOCTOR_H
#define RDMAPERF_TOOLS_MESH_DOCTOR_H

struct rdp_boot;
struct rdp_mesh_run_opts;

struct rdp_mesh_doctor_opts {
	/* -d (the node-local rank picks), --output-dir (NULL: no files),
	 * the timeout of the gather, rank 0's out (NULL: stdout). */
	const struct rdp_mesh_run_opts *mesh;
	int ib_port;
	int json; /* rank 0: doctor.json's document instead of the text */
};

/*
 * Every rank reads its device's and host's facts, rank 0 gathers and
 * compares them and reports. Returns enum rdp_exit: on rank 0, 1 when a
 * node differs or a rank has no device; 0 on the other ranks.
 */
int rdp_mesh_doctor_run(struct rdp_boot *b,
			const struct rdp_mesh_doctor_opts *o);

#endif /* RDMAPERF_TOOLS_MESH_DOCTOR_H */
