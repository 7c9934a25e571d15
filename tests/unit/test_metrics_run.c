/* SPDX-License-Identifier: BSD-2-Clause */
/* --metrics over whole sessions on the fake engine: the client's sink
 * list writes the file after the run, with the thresholds' verdict. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <rdmaperf/oob.h>
#include <rdmaperf/opts.h>
#include <rdmaperf/session.h>

#include "session_pair.h"

static int run_pair(const struct rdp_opts *co, struct server_side *srv)
{
	struct rdp_oob cli;
	int rc;

	assert_int_equal(rdp_oob_loopback(IO_MS, &cli, &srv->oob), 0);
	serve_start(srv);
	rc = rdp_session_client_results(co, &fake_engine, &cli, NULL, NULL);
	serve_join(srv);
	return rc;
}

static char *slurp(const char *path)
{
	static char buf[16384];
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void has(const char *t, const char *s)
{
	if (!strstr(t, s))
		fail_msg("no '%s' in:\n%s", s, t);
}

/* Two sizes; 64 B per 100 ns is 5.12 Gb/s, below --min-bw 6: failed. */
static void test_run_writes_file(void **state)
{
	char dir[] = "/tmp/rdp-metrics-run.XXXXXX", path[64];
	struct server_side srv;
	struct rdp_opts co;
	const char *t;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/rdmaperf.prom", dir);
	fake_engine_reset();
	memset(&srv, 0, sizeof(srv));
	client_opts(&co, ARGS("write_bw", "-s", "64,4096", "-n", "10",
			      "--min-bw", "6", "--metrics", path));
	server_opts(&srv.o, ARGS("--max-memory", "1M"));
	assert_int_equal(run_pair(&co, &srv), RDP_EXIT_FAIL);
	t = slurp(path);
	has(t, "rdmaperf_bandwidth_bytes_per_second{test=\"write_bw\","
	       "size=\"64\",qps=\"1\",device=\"");
	/* 4096 B per 100 ns: 327.68 Gb/s, 40.96e9 bytes per second */
	has(t, "size=\"4096\",qps=\"1\"");
	has(t, "} 4.096e+10\n");
	has(t, "rdmaperf_failed_points{test=\"write_bw\"");
	has(t, "} 1\n# HELP rdmaperf_pass ");
	has(t, "rdmaperf_pass{test=\"write_bw\"");
	has(t, "} 0\n# HELP rdmaperf_last_run_timestamp_seconds ");
	has(t, "# EOF\n");
	unlink(path);
	assert_int_equal(rmdir(dir), 0); /* no temporary left */
	balanced();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_writes_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
