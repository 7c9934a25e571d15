/* SPDX-License-Identifier: BSD-2-Clause */
/* The fixed message key of fuzz_wire's sealed path, and of the sealed
 * seeds make_seeds writes for it: a receiver at sequence 0. */
#ifndef RDMAPERF_FUZZ_SEAL_H
#define RDMAPERF_FUZZ_SEAL_H

#include <string.h>

#include <rdmaperf/oob.h>

static inline void fuzz_seal_init(struct rdp_oob_seal *seal)
{
	size_t i;

	memset(seal, 0, sizeof(*seal));
	seal->on = 1;
	for (i = 0; i < sizeof(seal->key_tx); i++)
		seal->key_tx[i] = seal->key_rx[i] = (uint8_t)(0x5e + 3 * i);
}

#endif /* RDMAPERF_FUZZ_SEAL_H */
