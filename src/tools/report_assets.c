/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The page's styles and script, src/tools/report/report.css and
 * report.js, as C strings: the build writes each file's lines as string
 * literals (src/tools/report/embed.sed) into the .inc files included here.
 */
#include "report_int.h"

const char rdp_report_css[] =
#include "src/tools/report/report_css.inc"
	;

const char rdp_report_js[] =
#include "src/tools/report/report_js.inc"
	;
