/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Diagnostics on stderr: one lowercase line per failure, prefixed with the
 * program name, logged once where the failure is first detected.
 * Layer: sys
 */
#ifndef RDMAPERF_LOG_H
#define RDMAPERF_LOG_H

#include <stdarg.h>
#include <stddef.h>

#define RDP_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))

void rdp_err(const char *fmt, ...) RDP_PRINTF(1, 2);
void rdp_warn(const char *fmt, ...) RDP_PRINTF(1, 2);
void rdp_info(const char *fmt, ...) RDP_PRINTF(1, 2);

/*
 * Error text for a peer: the same line is logged here and kept in buf so
 * it can be sent to the other side before exiting.
 */
void rdp_errbuf(char *buf, size_t len, const char *fmt, ...) RDP_PRINTF(3, 4);

/*
 * Bytes a peer sent, fit for a log line or a terminal: printable ASCII as
 * is, anything else (and the backslash) as \xNN. Always NUL-terminated,
 * cut at a whole character when out is short; returns out. For peer text
 * that does not pass the wire decoder's printable-only strings.
 */
const char *rdp_escape(const void *buf, size_t len, char *out, size_t outlen);

/*
 * The last error line logged by this thread: the one way a failure's
 * cause reaches the peer. A session clears it before its work and, when
 * that fails, sends it word for word in an ERROR message; the code that
 * finds a failure only logs it (like errno, deliberately per thread).
 */
const char *rdp_last_error(void);
void rdp_clear_error(void);

#endif /* RDMAPERF_LOG_H */
