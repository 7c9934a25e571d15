/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the unit tests share: command lines typed once, the fixture trees
 * (fake sysfs roots) and checks of texts and doctor verdicts. Each test
 * program runs one cmocka group: `make check` reads its TAP output
 * (CMOCKA_MESSAGE_OUTPUT=TAP), which allows one plan per program.
 */
#ifndef RDMAPERF_TESTS_UNIT_H
#define RDMAPERF_TESTS_UNIT_H

#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <rdmaperf/doctor.h>
#include <rdmaperf/opts.h>
#include <rdmaperf/sysfs.h>

/* Set by Makefile.am to the source tree's; RDP_FIXTURES overrides it. */
#ifndef RDP_FIXTURES_DIR
#define RDP_FIXTURES_DIR "tests/fixtures"
#endif

#include "argv.h"

static inline const char *fixtures_dir(void)
{
	const char *env = getenv("RDP_FIXTURES");

	return env && *env ? env : RDP_FIXTURES_DIR;
}

/* FS reads the fixture tree NAME as its root. */
static inline void fixture_fs(const char *name, struct rdp_sysfs *fs)
{
	char root[PATH_MAX];

	assert_true(snprintf(root, sizeof(root), "%s/%s", fixtures_dir(),
			     name) < (int)sizeof(root));
	rdp_sysfs_init(fs, root);
}

static inline void expect_in(const char *text, const char *want)
{
	if (!strstr(text, want))
		fail_msg("'%s' lacks '%s'", text, want);
}

/* DOC's check ID exists with verdict V, its value holds VALUE_HAS and its
 * fix FIX_HAS (either NULL: anything). Anything but PASS says what to
 * try; a PASS carries no fix. */
static inline const struct rdp_check *
expect_verdict(const struct rdp_doctor *doc, const char *id, enum rdp_verdict v,
	       const char *value_has, const char *fix_has)
{
	const struct rdp_check *c = rdp_doctor_find(doc, id);

	assert_non_null(c);
	if (c->verdict != v)
		fail_msg("%s: %s (%s), expected %s", id,
			 rdp_verdict_str(c->verdict), c->value,
			 rdp_verdict_str(v));
	if (value_has && !strstr(c->value, value_has))
		fail_msg("%s: value '%s' lacks '%s'", id, c->value, value_has);
	if (fix_has && !strstr(c->fix, fix_has))
		fail_msg("%s: fix '%s' lacks '%s'", id, c->fix, fix_has);
	if (v == RDP_WARN || v == RDP_FAIL)
		assert_true(c->fix[0]);
	if (v == RDP_PASS)
		assert_false(c->fix[0]);
	return c;
}

#endif /* RDMAPERF_TESTS_UNIT_H */
