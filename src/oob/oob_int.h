/* SPDX-License-Identifier: BSD-2-Clause */
/* Internals shared by the OOB transport files. */
#ifndef RDMAPERF_OOB_INT_H
#define RDMAPERF_OOB_INT_H

#include <stddef.h>
#include <stdint.h>

/* Monotonic milliseconds, for deadlines. */
int64_t rdp_oob_now_ms(void);

/*
 * Wait until fd is ready for events (POLLIN/POLLOUT) or the deadline (ms on
 * rdp_oob_now_ms()'s clock, < 0: none) passes: 0, -ETIMEDOUT or -errno.
 */
int rdp_oob_wait(int fd, short events, int64_t deadline);

/* The n (<= 8) low bytes of v at p, most significant first: the order of
 * every number on a wire. */
static inline void rdp_oob_put_be(uint8_t *p, uint64_t v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * (n - 1 - i)));
}

/* The number in the n (<= 8) bytes at p, most significant first. */
static inline uint64_t rdp_oob_get_be(const uint8_t *p, size_t n)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

#endif /* RDMAPERF_OOB_INT_H */
