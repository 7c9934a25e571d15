/* SPDX-License-Identifier: BSD-2-Clause */
/* Internals shared by the OOB transport files. */
#ifndef RDMAPERF_OOB_INT_H
#define RDMAPERF_OOB_INT_H

#include <stdint.h>

/* Monotonic milliseconds, for deadlines. */
int64_t rdp_oob_now_ms(void);

/*
 * Wait until fd is ready for events (POLLIN/POLLOUT) or the deadline (ms on
 * rdp_oob_now_ms()'s clock, < 0: none) passes: 0, -ETIMEDOUT or -errno.
 */
int rdp_oob_wait(int fd, short events, int64_t deadline);

#endif /* RDMAPERF_OOB_INT_H */
