/* SPDX-License-Identifier: BSD-2-Clause */
/* Shared by the memory types' files and no other folder. */
#ifndef RDMAPERF_MEM_INT_H
#define RDMAPERF_MEM_INT_H

#include <stddef.h>

struct rdp_mem_ops;

/* "0000:3B:00.0" and "3b:00.0" name the same device. */
void rdp_gpu_bus_id_norm(const char *in, char *out, size_t len);

/* AMD GPU memory (rocm.c): --use_rocm, and --use_rocm_dmabuf, which
 * narrows it to DMA-BUF registration (found by rdp_mem_find, not a row
 * of rdp_mem_types(): the same memory). */
extern const struct rdp_mem_ops rdp_mem_rocm;
extern const struct rdp_mem_ops rdp_mem_rocm_dmabuf;

#endif /* RDMAPERF_MEM_INT_H */
