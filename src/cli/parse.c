/* SPDX-License-Identifier: BSD-2-Clause */
/* The option machinery every command shares: getopt built from a table,
 * defaults, strict values, duplicates and exclusions, usage. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "opts_int.h"
#include <rdmaperf/rules.h>

const char *rdp_cli_spelling(const struct rdp_cli_opt *d, char *buf, size_t len)
{
	if (d->letter)
		snprintf(buf, len, "-%c", d->letter);
	else
		snprintf(buf, len, "--%s", d->name);
	return buf;
}

static void store(void *base, const struct rdp_cli_opt *d, uint64_t v)
{
	unsigned char *f = (unsigned char *)base + d->off;
	uint16_t v16 = (uint16_t)v;
	uint32_t v32 = (uint32_t)v;
	uint8_t v8 = (uint8_t)v;

	switch (d->width) {
	case 1:
		memcpy(f, &v8, 1);
		break;
	case 2:
		memcpy(f, &v16, 2);
		break;
	case 4:
		memcpy(f, &v32, 4);
		break;
	case 8:
		memcpy(f, &v, 8);
		break;
	}
}

void rdp_cli_defaults(const struct rdp_cli_table *t, void *base)
{
	const struct rdp_cli_opt *d;
	size_t i;

	for (i = 0; i < t->n; i++) {
		d = &t->opts[i];
		if ((d->sides & t->side) && d->width && d->def)
			store(base, d,
			      (uint64_t)d->def * (d->scale ? d->scale : 1));
	}
}

void rdp_params_defaults(struct rdp_params *p)
{
	static struct rdp_opts o; /* large: kept off the stack */

	memset(&o, 0, sizeof(o));
	rdp_cli_defaults(&rdp_cli_client, &o);
	*p = o.params;
}

/* The row's own work, then its setter. */
static int apply(void *base, const struct rdp_cli_opt *d, const char *arg,
		 char *err, size_t len)
{
	char opt[40];
	double real;
	uint64_t v;
	int ret;

	switch (d->type) {
	case RDP_CLI_UINT:
		ret = rdp_cli_num(rdp_cli_spelling(d, opt, sizeof(opt)), arg,
				  d->min, d->max, &v, err, len);
		if (ret)
			return ret;
		store(base, d, v * (d->scale ? d->scale : 1));
		break;
	case RDP_CLI_ON:
		store(base, d, 1);
		break;
	case RDP_CLI_TEXT:
		if (!*arg)
			return rdp_cli_bad(err, len, "--%s needs a value",
					   d->name);
		memcpy((unsigned char *)base + d->off, &arg, sizeof(arg));
		break;
	case RDP_CLI_DECIMAL:
		if (rdp_parse_double(arg, &real))
			return rdp_cli_bad(err, len, "%s needs %s, not '%s'",
					   rdp_cli_spelling(d, opt,
							    sizeof(opt)),
					   d->say, arg);
		memcpy((unsigned char *)base + d->off, &real, sizeof(real));
		break;
	case RDP_CLI_CHARS:
		if (strlen(arg) >= d->width)
			return rdp_cli_bad(err, len, "%s %s: %s",
					   rdp_cli_spelling(d, opt,
							    sizeof(opt)),
					   arg, d->say);
		memcpy((unsigned char *)base + d->off, arg, strlen(arg) + 1);
		break;
	default:
		break;
	}
	if (d->bit) /* rows of rdp_cli_opts only: base is struct rdp_opts */
		((struct rdp_opts *)base)->params.flags |= d->bit;
	return d->set ? d->set(base, d, arg, err, len) : 0;
}

/* getopt's val is 256 + the row; a letter is mapped back to its row. */
static size_t build_getopt(const struct rdp_cli_table *t, struct option *lo,
			   char *so)
{
	const struct rdp_cli_opt *d;
	size_t i, k = 0, n = 0;

	so[k++] = ':'; /* report a missing value as ':' */
	for (i = 0; i < t->n; i++) {
		d = &t->opts[i];
		if (!(d->sides & t->side))
			continue;
		lo[n++] = (struct option){ d->name,
					   d->arg ? required_argument
						  : no_argument,
					   NULL, 256 + (int)i };
		if (d->letter) {
			so[k++] = (char)d->letter;
			if (d->arg)
				so[k++] = ':';
		}
	}
	lo[n] = (struct option){ 0 };
	so[k] = '\0';
	return n;
}

static int row_of(const struct rdp_cli_table *t, int c)
{
	size_t i;

	if (c >= 256)
		return c - 256;
	for (i = 0; i < t->n; i++)
		if (t->opts[i].letter == c && (t->opts[i].sides & t->side))
			return (int)i;
	return -1;
}

static int getopt_failure(const struct rdp_cli_table *t, int c, char **argv,
			  char *err, size_t len)
{
	const char *opt = argv[optind - 1];

	if (c == ':')
		return rdp_cli_bad(err, len, "option %s needs a value", opt);
	/* getopt names the row of a long option that takes no value and
	 * was given one (--json=yes) */
	if (optopt >= 256 && (size_t)(optopt - 256) < t->n)
		return rdp_cli_bad(err, len,
				   "--%s takes no value: give --%s alone, not "
				   "'%s'",
				   t->opts[optopt - 256].name,
				   t->opts[optopt - 256].name, opt);
	if (optopt && optopt < 256)
		return rdp_cli_bad(err, len, "unknown option -%c (see --help)",
				   optopt);
	return rdp_cli_bad(err, len, "unknown option %s (see --help)", opt);
}

static int check_excludes(const struct rdp_cli_table *t,
			  const unsigned char *seen, char *err, size_t len)
{
	size_t i, k;
	int a, b;

	for (i = 0; i < t->n_excludes; i++) {
		a = b = -1;
		for (k = 0; k < t->n; k++) {
			if (!strcmp(t->opts[k].name, t->excludes[i].a))
				a = (int)k;
			if (!strcmp(t->opts[k].name, t->excludes[i].b))
				b = (int)k;
		}
		if (a >= 0 && b >= 0 && seen[a] && seen[b])
			return rdp_cli_bad(err, len, "%s", t->excludes[i].why);
	}
	return 0;
}

int rdp_cli_parse(const struct rdp_cli_table *t, int argc, char **argv,
		  void *base, char *err, size_t len)
{
	struct option lo[RDP_CLI_MAX_OPTS + 1];
	char so[2 * RDP_CLI_MAX_OPTS + 2];
	unsigned char seen[RDP_CLI_MAX_OPTS] = { 0 };
	const struct rdp_cli_opt *d;
	int c, r, ret;

	if (t->n > RDP_CLI_MAX_OPTS)
		return rdp_cli_bad(err, len, "too many options in one table");
	build_getopt(t, lo, so);
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		if (c == '?' || c == ':')
			return getopt_failure(t, c, argv, err, len);
		r = row_of(t, c);
		if (r < 0)
			return rdp_cli_bad(err, len, "unhandled option");
		d = &t->opts[r];
		if (seen[r]++)
			return rdp_cli_bad(err, len, "option --%s given twice",
					   d->name);
		if (d->type == RDP_CLI_HELP) {
			rdp_cli_usage(stdout, t);
			return RDP_PARSE_EXIT;
		}
		if (d->type == RDP_CLI_VERSION) {
			printf("%s %s\n", program_invocation_short_name,
			       PACKAGE_VERSION);
			return RDP_PARSE_EXIT;
		}
		ret = apply(base, d, optarg, err, len);
		if (!ret)
			ret = check_excludes(t, seen, err, len);
		if (ret)
			return ret;
	}
	return RDP_PARSE_OK;
}

/* Ranges up to this bound are short enough for --help. */
#define HELP_RANGE_MAX 65536

/* d's help with the tests of its row's bits in place of RDP_CLI_TESTS. */
static const char *help_text(const struct rdp_cli_opt *d, char *buf, size_t len)
{
	const char *at = d->tests ? strstr(d->help, RDP_CLI_TESTS) : NULL;
	char tests[256];

	if (!at)
		return d->help;
	rdp_rules_tests(-1, d->tests, 0, "", ", ", tests, sizeof(tests));
	snprintf(buf, len, "%.*s%s%s", (int)(at - d->help), d->help, tests,
		 at + strlen(RDP_CLI_TESTS));
	return buf;
}

static void help_line(FILE *f, const struct rdp_cli_opt *d)
{
	char left[48], tail[64] = "", help[512];

	if (d->letter)
		snprintf(left, sizeof(left), "-%c, --%s%s%s", d->letter,
			 d->name, d->arg ? "=" : "", d->arg ? d->arg : "");
	else
		snprintf(left, sizeof(left), "    --%s%s%s", d->name,
			 d->arg ? "=" : "", d->arg ? d->arg : "");
	if (d->type == RDP_CLI_UINT) {
		int in = d->def >= 0 && (uint64_t)d->def >= d->min &&
			 (uint64_t)d->def <= d->max;

		if (d->max <= HELP_RANGE_MAX && in)
			snprintf(tail, sizeof(tail),
				 " (%" PRIu64 "..%" PRIu64 ", default %" PRId64
				 ")",
				 d->min, d->max, d->def);
		else if (d->max <= HELP_RANGE_MAX)
			snprintf(tail, sizeof(tail),
				 " (%" PRIu64 "..%" PRIu64 ")", d->min, d->max);
		else if (in)
			snprintf(tail, sizeof(tail), " (default %" PRId64 ")",
				 d->def);
	}
	fprintf(f, "  %-26s %s%s\n", left, help_text(d, help, sizeof(help)),
		tail);
}

void rdp_cli_usage(FILE *f, const struct rdp_cli_table *t)
{
	size_t i, refused = 0;

	fprintf(f, "%s\n\nOptions:\n", t->synopsis);
	for (i = 0; i < t->n; i++) {
		if (!(t->opts[i].sides & t->side))
			continue;
		/* A name kept only to say why it is refused is no option */
		if (t->opts[i].set == rdp_cli_refuse)
			refused++;
		else
			help_line(f, &t->opts[i]);
	}
	if (refused)
		fprintf(f,
			"\n%zu more names, perftest's, are refused with the "
			"reason (man rdmaperf: \"perftest's other names\").\n",
			refused);
	if (t->more_help)
		t->more_help(f);
}
