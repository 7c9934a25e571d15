/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Command lines of rdmaperf and rdmaperf-server: one option table each,
 * strict numbers with K/M/G suffixes, usage generated from the table.
 * Layer: cli
 */
#ifndef RDMAPERF_OPTS_H
#define RDMAPERF_OPTS_H

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <rdmaperf/params.h>
#include <rdmaperf/run_opts.h>

/*
 * One row per option: its names, the commands that take it, its range,
 * default and unit, and where its value goes. The parsers, the server's
 * check of received parameters, --help and shell completion all read it.
 */
enum rdp_cli_side {
	RDP_CLI_CLIENT = 1u << 0, /* rdmaperf TEST */
	RDP_CLI_SERVER = 1u << 1, /* rdmaperf-server */
	RDP_CLI_PEER = 1u << 2,	  /* sent to the server, which checks it */
	RDP_CLI_DOCTOR = 1u << 3, /* rdmaperf doctor */
	RDP_CLI_TOOL = 1u << 4,	  /* a subcommand's own table */
};

enum rdp_cli_type {
	RDP_CLI_CUSTOM = 0, /* ->set does all the work */
	RDP_CLI_UINT,	    /* a whole number in [min, max] */
	RDP_CLI_ON,	    /* a flag: the int field becomes 1 */
	RDP_CLI_TEXT,	    /* the argument itself, a const char * field */
	RDP_CLI_DECIMAL,    /* a number >= 0 like 12.5, a double field */
	RDP_CLI_CHARS,	    /* the argument copied into a char array field */
	RDP_CLI_HELP,
	RDP_CLI_VERSION,
};

struct rdp_cli_opt;

/* base: the struct being filled; 0, or -EINVAL with one line in err. */
typedef int rdp_cli_set_fn(void *base, const struct rdp_cli_opt *d,
			   const char *arg, char *err, size_t len);

struct rdp_cli_opt {
	const char *name;   /* long name */
	int letter;	    /* 0: long only */
	const char *arg;    /* NULL: a flag */
	unsigned int sides; /* enum rdp_cli_side */
	enum rdp_cli_type type;
	size_t off;	     /* the field in base */
	size_t width;	     /* its size in bytes: 1, 2, 4, 8 (CHARS: any) */
	uint64_t min, max;   /* RDP_CLI_UINT, and the server's check */
	int64_t def;	     /* stored before parsing, times scale; --help
			     * shows it when inside [min, max] */
	uint32_t scale;	     /* field = value * scale (0: 1) */
	uint32_t bit;	     /* also set this rdp_param_flags bit */
	rdp_cli_set_fn *set; /* after the type's own work, if any */
	const char *help;
	/* The words of its error: DECIMAL, what it asks for ("-w needs
	 * Gb/s like 90 or 12.5, not 'x'"); CHARS, what is wrong ("--bind
	 * ADDR: too long"). */
	const char *say;
	/* --help names the tests whose row has every one of these
	 * rdp_bench_flags bits (bench.h) where help says RDP_CLI_TESTS,
	 * from the registry: a new test with the bit is in the line. */
	unsigned int tests;
};

/* Where a row's help lists its tests (.tests): "write_bw, write_lat". */
#define RDP_CLI_TESTS "{tests}"

/* Two options that exclude each other, by long name. */
struct rdp_cli_pair {
	const char *a, *b;
	const char *why; /* the error line */
};

/* A command's rows and what --help says around them. */
struct rdp_cli_table {
	const struct rdp_cli_opt *opts;
	size_t n;
	unsigned int side; /* the rows of this command: enum rdp_cli_side */
	const char *synopsis;
	void (*more_help)(FILE *f); /* after the options, or NULL */
	const struct rdp_cli_pair *excludes;
	size_t n_excludes;
};

/* rdmaperf's, rdmaperf-server's and doctor's options, in --help order. */
extern const struct rdp_cli_opt rdp_cli_opts[];
extern const size_t rdp_cli_n_opts;
/* Those rows, seen by each command. */
extern const struct rdp_cli_table rdp_cli_client;
extern const struct rdp_cli_table rdp_cli_server;
extern const struct rdp_cli_table rdp_cli_doctor;

/* Defaults of the table's rows for side into base. */
void rdp_cli_defaults(const struct rdp_cli_table *t, void *base);
/* The test parameters a fresh client starts from: the client's defaults. */
void rdp_params_defaults(struct rdp_params *p);
/*
 * Options of t into base; positional arguments stay in argv[optind..].
 * Returns enum rdp_parse_status, or -EINVAL with one line in err.
 */
int rdp_cli_parse(const struct rdp_cli_table *t, int argc, char **argv,
		  void *base, char *err, size_t len);
void rdp_cli_usage(FILE *f, const struct rdp_cli_table *t);
/* The option name as the user wrote it: "-o" or "--tclass". */
const char *rdp_cli_spelling(const struct rdp_cli_opt *d, char *buf,
			     size_t len);
/* A value in [min, max], the option named on failure. */
int rdp_cli_num(const char *opt, const char *arg, uint64_t min, uint64_t max,
		uint64_t *v, char *err, size_t len);
/* Seconds as a decimal number in [lo, hi], the option named on failure. */
int rdp_cli_seconds(const char *opt, const char *arg, double lo, double hi,
		    double *out, char *err, size_t len);
/* One line in err; returns -EINVAL. */
int rdp_cli_bad(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * The server's check of a client's parameters, from the same rows: a
 * value is its default or inside the option's range.
 */
int rdp_cli_check_params(const struct rdp_params *p, char *err, size_t len);
/* A bash completion script for rdmaperf and rdmaperf-server. */
void rdp_cli_completion_bash(FILE *f);

enum rdp_parse_status {
	RDP_PARSE_OK = 0,
	RDP_PARSE_EXIT = 1, /* --help/--version printed */
};

/* Returns enum rdp_parse_status, or -EINVAL with one line in err. */
int rdp_opts_parse_client(int argc, char **argv, struct rdp_opts *o, char *err,
			  size_t errlen);
/*
 * The same on t: rdp_cli_client, or a copy of it whose more_help adds
 * lines to --help (rdmaperf's main adds its subcommands, which live in a
 * layer above this one).
 */
int rdp_opts_parse_client_table(const struct rdp_cli_table *t, int argc,
				char **argv, struct rdp_opts *o, char *err,
				size_t errlen);
int rdp_opts_parse_server(int argc, char **argv, struct rdp_opts *o, char *err,
			  size_t errlen);

void rdp_opts_usage_client(FILE *f);
/* What rdmaperf --help prints below the options: the tests. */
void rdp_cli_client_help(FILE *f);

/* "64", "4K", "1M", "2G" (binary multiples; "4KB", "4KiB" and "64B" too,
 * as the reports print sizes); -EINVAL or -ERANGE. */
int rdp_parse_size(const char *s, uint64_t *out);
/* A non-negative decimal number such as 12 or 0.5; -EINVAL otherwise. */
int rdp_parse_double(const char *s, double *out);
/* Decimal only, within [min, max]. */
int rdp_parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/*
 * A list of values: "64,4K,64K", ranges "2:8M:x2" (times 2) or "1:16:+4"
 * (plus 4), mixed freely; sizes enables K/M/G. -EINVAL syntax, -ERANGE a
 * value outside [min, max], -E2BIG more than cap values, RDP_LIST_STILL
 * a range that never grows (x1, +0), RDP_LIST_BACKWARDS a range whose
 * first value is above its last.
 */
#define RDP_LIST_STILL	   (-EDOM)
#define RDP_LIST_BACKWARDS (-EILSEQ)
int rdp_parse_list(const char *s, int sizes, uint64_t min, uint64_t max,
		   uint64_t *out, size_t cap, size_t *n_out);

#endif /* RDMAPERF_OPTS_H */
