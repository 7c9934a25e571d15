/* SPDX-License-Identifier: BSD-2-Clause */
/* rdmaperf mesh --simulate: the one hook src/tools/mesh.c calls. */
#ifndef RDMAPERF_TOOLS_MESH_SIM_H
#define RDMAPERF_TOOLS_MESH_SIM_H

/* Whether the command line asks for the simulator (--simulate). */
int rdp_mesh_sim_asked(int argc, char **argv);
/* Its main: argv[0] is "mesh"; returns enum rdp_exit. */
int rdp_mesh_sim_main(int argc, char **argv);

#endif /* RDMAPERF_TOOLS_MESH_SIM_H */
