/* SPDX-License-Identifier: BSD-2-Clause */
/* Shared by the memory types' files and no other folder. */
#ifndef RDMAPERF_MEM_INT_H
#define RDMAPERF_MEM_INT_H

#include <stddef.h>

/* "0000:3B:00.0" and "3b:00.0" name the same device. */
void rdp_gpu_bus_id_norm(const char *in, char *out, size_t len);

#endif /* RDMAPERF_MEM_INT_H */
