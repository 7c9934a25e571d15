/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The page: styles, the sections as JSON in a <script
 * type="application/json"> element, and the script that draws them. A
 * content security policy keeps the page from fetching anything; every
 * '<' in the data is written \u003c, so no string can end the element.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <jansson.h>

#include "report_int.h"

/* json_dump_callback's sink: the JSON text with '<' escaped. */
static int put_escaped(const char *buf, size_t size, void *data)
{
	FILE *f = data;
	const char *lt;

	while (size) {
		lt = memchr(buf, '<', size);
		if (!lt)
			return fwrite(buf, 1, size, f) == size ? 0 : -1;
		if (fwrite(buf, 1, (size_t)(lt - buf), f) !=
			    (size_t)(lt - buf) ||
		    fputs("\\u003c", f) == EOF)
			return -1;
		size -= (size_t)(lt - buf) + 1;
		buf = lt + 1;
	}
	return 0;
}

static const char head[] =
	"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	"<meta charset=\"utf-8\">\n"
	"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "
	"'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
	"img-src data:\">\n"
	"<meta name=\"viewport\" content=\"width=device-width\">\n"
	"<title>rdmaperf report</title>\n<style>\n";

int rdp_report_html_write(FILE *f, const json_t *sections)
{
	int ret = 0;

	if (fputs(head, f) == EOF || fputs(rdp_report_css, f) == EOF ||
	    fputs("</style>\n</head>\n<body>\n<div id=\"app\">"
		  "<noscript>This report is drawn by its script: open it in "
		  "a browser with JavaScript on.</noscript></div>\n"
		  "<script type=\"application/json\" id=\"rdp-data\">",
		  f) == EOF)
		return -EIO;
	if (json_dump_callback(sections, put_escaped, f,
			       JSON_COMPACT | JSON_REAL_PRECISION(10)))
		ret = -EIO;
	if (ret || fputs("</script>\n<script>\n", f) == EOF ||
	    fputs(rdp_report_js, f) == EOF ||
	    fputs("</script>\n</body>\n</html>\n", f) == EOF)
		return -EIO;
	return 0;
}
