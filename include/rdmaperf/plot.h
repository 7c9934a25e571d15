/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Plots of a results document drawn by gnuplot (a child process fed a
 * generated script): bandwidth vs size, one line per test and QP count,
 * the acceptance band of the line rate shaded; latency percentiles vs
 * size.
 * Layer: report
 */
#ifndef RDMAPERF_PLOT_H
#define RDMAPERF_PLOT_H

#include <stdio.h>

struct json_t;

/* The acceptance band, as fractions of the line rate (400G: 360-395). */
#define RDP_BAND_LO 0.90
#define RDP_BAND_HI 0.9875

/* Write the gnuplot script for doc (SVG on gnuplot's stdout); -EINVAL
 * when the document holds no plottable point. */
int rdp_plot_script(const struct json_t *doc, FILE *f);

/*
 * Draw doc into the SVG file out with gnuplot ($RDP_GNUPLOT, else
 * "gnuplot" on PATH). -ENOENT: gnuplot not installed; -EIO: it failed;
 * each logged with the fix.
 */
int rdp_plot_file(const struct json_t *doc, const char *out);

/* Run a gnuplot script (len bytes) whose SVG goes to the file out, with
 * the same program and errors as rdp_plot_file. */
int rdp_plot_draw(const char *script, size_t len, const char *out);

#endif /* RDMAPERF_PLOT_H */
